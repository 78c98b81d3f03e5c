"""The calculators' declarations (generator/content/calculators.py): one per design of the
engine's registry or a reason for none, each consistent with the engine's declaration, and
what is built from them (the spec reader's keys, the inputs) following them."""

from __future__ import annotations

import dataclasses

import pytest
from topicsetsize.generator import spec_from_dict
from topicsetsize.generator.content.calculators import (
    CALCULATORS,
    INPUTS,
    NO_CALCULATOR,
    calculators,
    named_answers,
    undeclared,
)
from topicsetsize.generator.sheets.calculators import BUILDERS

from topicsetsize.designs.registry import DESIGNS
from topicsetsize.errors import InputError


def test_every_design_has_a_calculator_or_a_reason_for_none():
    assert undeclared() == []
    assert not set(CALCULATORS) & set(NO_CALCULATOR)
    assert set(CALCULATORS) | set(NO_CALCULATOR) == set(DESIGNS)


def test_a_design_with_neither_is_found(monkeypatch):
    """A design added to the engine's registry without a calculator (or a reason) fails the
    check above: until then the workbook simply lacked it while every test passed."""
    monkeypatch.setitem(DESIGNS, "ttest1", dataclasses.replace(DESIGNS["ttest"], key="ttest1"))
    assert undeclared() == ["ttest1"]


@pytest.mark.parametrize("key", list(CALCULATORS))
def test_a_declaration_agrees_with_the_engines(key):
    calc, design = CALCULATORS[key], DESIGNS[key]
    assert calc.builder in BUILDERS
    assert calc.builder == getattr(design, "kind", calc.builder)   # the engine's kind, if any
    # the inputs: the design's own, in its order, then "your n"; named after the calculator
    assert tuple(i.key for i in calc.inputs) == (*design.inputs, "n")
    assert all(i.name.startswith(f"{key}_") for i in (*calc.inputs, *calc.second_style))
    assert calc.variance.input in design.inputs and calc.variance.source in ("one-way",
                                                                              "two-way")
    suffixes = [a.suffix for a in calc.answers]
    assert len(set(suffixes)) == len(suffixes) and "status" in suffixes
    for answer in calc.answers:
        if answer.engine:
            assert answer.engine in design.functions, (key, answer)
            assert answer.method in design.methods, (key, answer)
    assert "dfe" in calc.columns


def test_the_spec_reader_takes_its_keys_from_the_declarations(monkeypatch):
    spec = spec_from_dict({"title": "t", "calculators": {"ci2": {"delta": 0.2}}})
    assert spec.calculators == {"ci2": {"delta": 0.2}}
    with pytest.raises(InputError, match="toy"):
        spec_from_dict({"title": "t", "calculators": {"toy": {"delta": 0.2}}})
    monkeypatch.setitem(CALCULATORS, "toy", dataclasses.replace(CALCULATORS["ci2"], key="toy"))
    monkeypatch.setitem(DESIGNS, "toy", dataclasses.replace(DESIGNS["ci2"], key="toy"))
    assert spec_from_dict({"title": "t", "calculators": {"toy": {"delta": 0.2}}}).calculators == {
        "toy": {"delta": 0.2}}
    assert INPUTS["toy"] == CALCULATORS["ci2"].inputs
    assert "toy_n" in named_answers() and [c.key for c in calculators()][-1] == "toy"


def test_inputs_hold_every_sheets_inputs():
    assert list(INPUTS) == ["anova", "ttest", "ttest_effect", "ci", "anova2", "ttest2", "ci2",
                            "decide", "budget"]
    assert INPUTS["ttest_effect"] == CALCULATORS["ttest"].second_style
