"""Bad inputs (blank, text, out of range, pasted past the data validation) in LibreOffice:
every calculator names the first bad input and its allowed range in its status cell, its
answers say "check the inputs", and no cell anywhere shows an error value."""

from __future__ import annotations

import pytest

from generator.inputs import INPUTS, allowed
from generator.layout import CHECK_INPUTS, STATUS_OK

from ._libreoffice import filled_cells_without_errors
from .conftest import BAD, bad_workbooks, named

pytestmark = pytest.mark.libreoffice

#: The named answers of each calculator that must turn into the "check the inputs" text.
ANSWERS = {
    "anova": ["anova_n_legacy", "anova_n_exact", "anova_power_legacy", "anova_power_exact",
              "anova_min_d_at_n_legacy", "anova_min_d_at_n_exact"],
    "ttest": ["ttest_n_legacy", "ttest_n_exact", "ttest_delta_t_n_legacy",
              "ttest_delta_t_n_exact", "ttest_power_legacy", "ttest_power_exact",
              "ttest_min_dt_at_n_legacy", "ttest_min_dt_at_n_exact"],
    "ci": ["ci_n", "ci_n_approx", "ci_width_at_n"],
    "anova2": ["anova2_n", "anova2_power", "anova2_min_d_at_n"],
    "ttest2": ["ttest2_n", "ttest2_power", "ttest2_min_d_at_n"],
    "ci2": ["ci2_n", "ci2_n_approx", "ci2_width_at_n"],
    "decide": [],
    "budget": [],
}


def _input(name):
    for items in INPUTS.values():
        for item in items:
            if item.name == name:
                return item
    raise KeyError(name)


def test_every_input_is_made_bad_at_least_twice():
    names = [i.name for items in INPUTS.values() for i in items]
    for name in names:
        kinds = {kind for edits in BAD.values() for n, _, kind in edits if n == name}
        assert len(kinds) >= 2, name
    assert len(bad_workbooks()) == max(len(v) for v in BAD.values())


def test_status_names_the_bad_input_and_its_range(batch):
    checked = 0
    for k, name in enumerate(batch.bad_names):
        wb = batch.values(name)
        for calc, edits in BAD.items():
            status = named(wb, f"{calc}_status")
            if k >= len(edits):
                continue
            input_name, value, kind = edits[k]
            item = _input(input_name)
            rng = allowed(item.key).describe(item.key)
            assert status == f"Check the inputs: {item.symbol} is {kind} (allowed: {rng}).", \
                (name, calc, value, status)
            for answer in ANSWERS[calc]:
                assert named(wb, answer) == CHECK_INPUTS, (name, answer)
            checked += 1
    assert checked == sum(len(v) for v in BAD.values())


def test_status_is_ok_with_good_inputs(batch):
    for name in ("ntcir", "example", "ntcir_edited", "decide", "decide_inject",
                 *batch.grid_names):
        wb = batch.values(name)
        for calc in ANSWERS:
            if f"{calc}_status" not in wb.defined_names:     # no Budget sheet
                assert calc == "budget"
                continue
            assert named(wb, f"{calc}_status") == STATUS_OK, (name, calc)
            for answer in ANSWERS[calc]:
                assert named(wb, answer) != CHECK_INPUTS


def test_no_error_cell_whatever_is_typed(batch):
    for name in batch.bad_names:
        assert filled_cells_without_errors(batch.values(name), name) > 10_000
