"""The calculators' input registry (generator/content/inputs.py)."""

from __future__ import annotations

from topicsetsize.generator.content.calculators import INPUTS


def test_meanings_fit_the_first_printed_page():
    """An input's meaning (column E, overflowing to the right) must end within column H, the
    last column of a calculator's first printed page: a longer text was cut at the page edge
    and its end printed on a page of its own (issue 15.5). Measured on LibreOffice's print at
    66 %: 46 characters fit between E and H."""
    labels = {i.name: i.label for inputs in INPUTS.values() for i in inputs}
    too_long = {name: label for name, label in labels.items() if len(label) > 45}
    assert not too_long
    assert len(labels) > 30           # every calculator's inputs were looked at
