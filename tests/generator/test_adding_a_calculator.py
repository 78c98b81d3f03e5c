"""A design declared at run time gets its calculator sheet (issue 27's toy design, the workbook
side): a one-sample t-test, ``ttest1`` (inputs α, β, minD, σ̂²; exact method; φ = n − 1,
λ = √n·minD/σ̂), declared with the paired t-test's builder and its own inputs and wording. Its
engine functions are the paired t-test's under the toy's names and argument names (a module put
in ``sys.modules``: the one-sample t-test of the differences is the paired t-test), registered in
the engine's registry for the test only. The written workbook has its sheet, its names, its
About lines, and saved (cached) values equal to the engine's."""

from __future__ import annotations

import dataclasses
import math
import sys
import types

import openpyxl
import pytest
from topicsetsize.generator import spec_from_dict, write_workbook
from topicsetsize.generator.content.calculators import (
    CALCULATORS,
)
from topicsetsize.generator.sheets.calculators import sheets

import topicsetsize as tss
from topicsetsize.designs.registry import DESIGNS

from .._toy_design import calculator
from ._oracle import RoundedUp, answer_values
from .conftest import rounded_up

KEY = "ttest1"


def _engine_module() -> types.ModuleType:
    """The toy's engine functions: the paired t-test's, exact, with the toy's argument names."""
    module = types.ModuleType(f"topicsetsize.designs.{KEY}")
    module.ttest1_n = lambda alpha, beta, min_d, variance: tss.ttest_n(
        alpha, beta, min_d, variance, method="exact")
    module.ttest1_power = lambda n, min_d, variance, alpha: tss.ttest_power(
        n, min_dt=min_d, variance_t=variance, alpha=alpha, method="exact")
    module.ttest1_min_d = lambda n, variance, alpha, beta: tss.ttest_min_dt(
        n, variance_t=variance, alpha=alpha, beta=beta, method="exact")
    return module


def _design():
    fields = {f.name for f in dataclasses.fields(DESIGNS["ttest"])}
    own = {"module": f"topicsetsize.designs.{KEY}"} if "module" in fields else {}
    return dataclasses.replace(
        DESIGNS["ttest"], key=KEY, name="One-sample t-test", question="one-sample t-test",
        inputs=("alpha", "beta", "min_d", "variance"), methods=("exact",),
        functions={"n": "ttest1_n", "power": "ttest1_power", "min_effect": "ttest1_min_d"},
        effect_size=None, excel=(), **own)


#: The toy's calculator declaration (the paired t-test's builder, its own inputs and words).
TOY = calculator()


def _saved(wb, name):
    """The saved (cached) value of the one-cell workbook-level name ``name``."""
    sheet, coord = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][coord.replace("$", "")].value


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(sys.modules, f"topicsetsize.designs.{KEY}", _engine_module())
    monkeypatch.setitem(DESIGNS, KEY, _design())
    monkeypatch.setitem(CALCULATORS, KEY, TOY)


@pytest.mark.slow
def test_a_design_declared_at_run_time_gets_its_sheet(toy, tmp_path):
    spec = spec_from_dict({"title": "toy", "calculators": {KEY: {"min_d": 0.2}}})
    wb = openpyxl.load_workbook(write_workbook(spec, tmp_path / "toy.xlsx"))
    assert sheets()[-1] == "TTEST1"
    assert wb.sheetnames[wb.sheetnames.index("CI2") + 1:][:2] == ["TTEST1", "Decide"]
    about = {c.value for row in wb["About"].iter_rows() for c in row}
    assert TOY.description in about and f"{KEY}_n" in about and f"{KEY}_min_d" in about
    ws = wb["TTEST1"]
    labels = {c.value for row in ws.iter_rows(max_col=1) for c in row}
    assert {"required n", "minD/σ̂", "minimum detectable minD at your n"} <= labels

    cached = openpyxl.load_workbook(tmp_path / "toy.xlsx", data_only=True)
    saved = {key: _saved(cached, key) for key in (f"{KEY}_n", f"{KEY}_power",
                                                      f"{KEY}_min_d_at_n", f"{KEY}_status")}
    # the engine, called directly (the one-sample t-test of n differences is the paired one)
    n = tss.ttest_n(0.05, 0.20, 0.2, 0.05, method="exact")
    assert saved[f"{KEY}_n"] == n
    assert math.isclose(saved[f"{KEY}_power"], tss.ttest_power(
        100, min_dt=0.2, variance_t=0.05, alpha=0.05, method="exact"), rel_tol=1e-7)
    assert rounded_up(saved[f"{KEY}_min_d_at_n"], tss.ttest_min_dt(
        100, variance_t=0.05, alpha=0.05, beta=0.20, method="exact"))
    assert saved[f"{KEY}_status"].startswith("OK")
    # and the oracle the other calculators are checked with, from the declaration
    oracle = {k: v for k, v in answer_values(wb).items() if k.startswith(f"{KEY}_")}
    assert set(oracle) == set(saved)
    for key, want in oracle.items():
        got = saved[key]
        if isinstance(want, RoundedUp):
            assert rounded_up(got, want), (key, got, want)
        else:
            assert got == want if isinstance(want, (int, str)) else math.isclose(
                got, want, rel_tol=1e-7)
