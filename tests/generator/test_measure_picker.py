"""The example workbook's calculators start from its own matrix's V_E, and a drop-down of the
Variance sheet's measures feeds them (checked in LibreOffice against the engine)."""

from __future__ import annotations

import openpyxl
import pytest

import topicsetsize as tss
from generator import bundled_spec, load_spec
from generator.estimates import estimate
from generator.layout import CHECK_INPUTS

from .conftest import named


def _variances():
    est = estimate(load_spec(bundled_spec("trec2010_web_example")).matrices[0])
    return est.summary.var_raw, est.summary.var_std_ab


def test_calculators_start_from_the_spec_variance(built):
    raw, _ = _variances()
    wb = openpyxl.load_workbook(built.source["example"])
    assert named(wb, "anova_variance") == pytest.approx(raw, rel=1e-15)
    assert named(wb, "ttest_variance_t") == pytest.approx(2 * raw, rel=1e-15)
    assert named(wb, "ci_variance_t") == pytest.approx(2 * raw, rel=1e-15)
    dv = [d for d in wb["ANOVA"].data_validations.dataValidation if d.type == "list"]
    assert len(dv) == 1 and dv[0].formula1 == "measure_names"
    assert "anova_measure" not in openpyxl.load_workbook(built.source["ntcir"]).defined_names


@pytest.mark.libreoffice
def test_picked_measure_feeds_the_calculators(batch):
    raw, std = _variances()
    for name, v in (("example", raw), ("example_picked", std)):
        wb = batch.values(name)
        assert named(wb, "anova_status").startswith("OK"), name
        for method in ("legacy", "exact"):
            assert named(wb, f"anova_n_{method}") == tss.anova_n(0.05, 0.2, 0.02, v, 2,
                                                                  method=method)
            assert named(wb, f"ttest_n_{method}") == tss.ttest_n(0.05, 0.2, 0.1, 2 * v,
                                                                  method=method)
        assert named(wb, "ci_n") == tss.ci_n(0.05, 0.1, 2 * v)
    wb = batch.values("example_badpick")
    for calc in ("anova", "ttest", "ci"):
        assert named(wb, f"{calc}_status") == ("Check the inputs: the measure is not a measure "
                                               "(pick one from the list)."), calc
    assert named(wb, "anova_n_exact") == CHECK_INPUTS
