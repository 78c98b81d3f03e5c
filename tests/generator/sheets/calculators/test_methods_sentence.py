"""The "Legacy vs exact" sentence: its powers truncated, with the decimals that tell the exact
power from 1 - beta, in the saved values and in Excel's arithmetic (the ``formulas`` package);
LibreOffice recalculates the same sentence in the batch (test_calculators.py)."""

from __future__ import annotations

import math

import openpyxl
import pytest

import topicsetsize as tss

ARGS = dict(min_d=0.096, variance=0.0451, m=10)


def _sentence(tmp_path, beta, args) -> tuple:
    """The saved sentence of an ANOVA sheet at ``beta``, the cell's address and the file."""
    from topicsetsize.generator import spec_from_dict, write_workbook

    path = write_workbook(spec_from_dict({"title": "t", "calculators": {"anova": {
        "alpha": 0.05, "beta": beta, **args}}}), tmp_path / "t.xlsx")
    ws = openpyxl.load_workbook(path, data_only=True)["ANOVA"]
    row = next(r for r in range(1, 80) if ws.cell(r, 1).value == "Legacy vs exact")
    return ws.cell(row, 2).value, f"ANOVA!B{row}", path


def _floor(p: float, places: int) -> str:
    return f"{math.floor(p * 10 ** places) / 10 ** places:.{places}f}"


@pytest.mark.slow          # a workbook each, a second or more
@pytest.mark.parametrize("beta, places", [(0.123456789, 6), (0.2, 4)])
def test_a_shortfall_never_reads_as_the_target(tmp_path, beta, places):
    """A review (2026-12-07): at beta = .123456789 the sentence read "only 0.8765 < 1 - β =
    0.8765". The shortfall is shown to one decimal past its own first significant one (the
    engine's power, 0.876508 against 0.876543: 6 decimals), truncated; at beta = .2 the 4
    decimals of before (the worked example's .790061 reads 0.7900, never 0.7901)."""
    args = ARGS if beta != 0.2 else dict(min_d=0.02, variance=0.0601, m=2)
    legacy = tss.anova_n(0.05, beta, **args, method="legacy")
    exact = tss.anova_n(0.05, beta, **args, method="exact")
    assert legacy < exact
    p = tss.anova_power(legacy, **args, alpha=0.05, method="exact")
    text, cell, path = _sentence(tmp_path, beta, args)
    assert text == (f"Warning: at the legacy n = {legacy:,} the exact power is only "
                    f"{_floor(p, places)} < 1 − β = {1 - beta:.{places}f}; the exact method "
                    f"needs n = {exact:,}.")
    from ...spreadsheet.test_formulas_engine import formulas_values

    assert formulas_values(path, [cell])[cell] == text       # Excel's arithmetic


@pytest.mark.slow
def test_a_tiny_beta_shows_the_power_to_its_digits(tmp_path):
    """At beta = 1e-9 the sentence said the exact power "reaches 1.0000": 11 decimals now,
    truncated from the engine's power at the exact n."""
    args = dict(min_d=0.1, variance=188.2, m=5)
    legacy = tss.anova_n(0.05, 1e-9, **args, method="legacy")
    exact = tss.anova_n(0.05, 1e-9, **args, method="exact")
    p = tss.anova_power(exact, **args, alpha=0.05, method="exact")
    text, _, _ = _sentence(tmp_path, 1e-9, args)
    assert text == (f"Note: the legacy n = {legacy:,} is more than needed: the exact power "
                    f"reaches {_floor(p, 11)} at n = {exact:,}.")
