"""The calculator sheets ANOVA, TTEST and CI: live formulas that recalculate in any spreadsheet.

Each sheet has its inputs at the top (yellow, validated, with workbook-level names) and a
status cell that names the first bad input; then the answers (the required n of the legacy and
the exact method, with a warning where they differ, and the power and the minimum detectable
difference at "your n"); the power at the answers and for n around them; a small chart of the
power against n; and below, grouped, the workings: every computation, written out row by row.

Nothing in the workings reads an input directly: each formula reads the input's *used* value,
which falls back to the starting value while the input is blank, text or out of range, so no
formula ever shows an error value. The answers show "see Status" meanwhile (table cells "—").

The summary is written first and the workings below it; the summary cells that show a result
of the workings are filled in once the workings are written (:meth:`Cursor.resolve`).
"""

from __future__ import annotations

from topicsetsize.designs.registry import DESIGNS

from .ci_width_sheet import CI2, _ci
from .f_test_sheet import ANOVA2, _anova
from .sheet import (
    Design,
    display_columns,
    grey_when_bad,
    guarded_block,
    helper_sheet,
    measure_list,
    start_sheet,
)
from .t_test_sheet import TTEST2, _ttest

__all__ = ["add_calculators", "measure_list", "SHEETS", "NAMED_RESULTS", "start_sheet",
           "grey_when_bad", "display_columns", "Design", "guarded_block", "helper_sheet"]


#: The calculator sheets, in workbook order.
SHEETS = tuple(key.upper() for key in DESIGNS if key != "allpairs")


#: Workbook-level names of the calculators' results (besides the inputs).
NAMED_RESULTS = {
    "anova_n_legacy": "ANOVA: required n, legacy method",
    "anova_n_exact": "ANOVA: required n, exact method",
    "anova_power_legacy": "ANOVA: legacy power at your n",
    "anova_power_exact": "ANOVA: exact power at your n",
    "anova_min_d_at_n_legacy": "ANOVA: minimum detectable minD at your n, legacy method",
    "anova_min_d_at_n_exact": "ANOVA: minimum detectable minD at your n, exact method",
    "anova_status": "ANOVA: status of the inputs (OK, or the first bad input)",
    "ttest_n_legacy": "TTEST: required n (minDt, σ̂t² inputs), legacy method",
    "ttest_n_exact": "TTEST: required n (minDt, σ̂t² inputs), exact method",
    "ttest_delta_t_n_legacy": "TTEST: required n for minΔt, legacy method",
    "ttest_delta_t_n_exact": "TTEST: required n for minΔt, exact method",
    "ttest_power_legacy": "TTEST: legacy power at your n",
    "ttest_power_exact": "TTEST: exact power at your n",
    "ttest_min_dt_at_n_legacy": "TTEST: minimum detectable minDt at your n, legacy method",
    "ttest_min_dt_at_n_exact": "TTEST: minimum detectable minDt at your n, exact method",
    "ttest_status": "TTEST: status of the inputs",
    "ci_n": "CI: required n",
    "ci_n_approx": "CI: required n with the approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1)))",
    "ci_width_at_n": "CI: expected width at your n",
    "ci_status": "CI: status of the inputs",
    "anova2_n": "ANOVA2: required n, two-way ANOVA without replication (exact)",
    "anova2_power": "ANOVA2: power at your n",
    "anova2_min_d_at_n": "ANOVA2: minimum detectable minD at your n",
    "anova2_status": "ANOVA2: status of the inputs",
    "ttest2_n": "TTEST2: required n per system, two-sample t-test (exact)",
    "ttest2_power": "TTEST2: power at your n per system",
    "ttest2_min_d_at_n": "TTEST2: minimum detectable minD at your n per system",
    "ttest2_status": "TTEST2: status of the inputs",
    "ci2_n": "CI2: required n per system, CI of a difference of two independent means",
    "ci2_n_approx": "CI2: required n per system with the approximation E[s_p] ≈ σ̂(1 − 1/(4φ))",
    "ci2_width_at_n": "CI2: expected width at your n per system",
    "ci2_status": "CI2: status of the inputs",
}


def add_calculators(wb, values: dict, k_range: str, measures: str | None = None) -> None:
    """Add the calculator sheets (one per design of :data:`SHEETS`) to ``wb``.

    ``values`` maps "anova"/"ttest"/"ci" to the starting values of the inputs (missing keys
    take the defaults of :data:`generator.content.inputs.INPUTS`); ``k_range`` is the absolute
    reference of the helper range k = 0..POISSON_TERMS−1. With ``measures`` (the prefix of
    the names ``{measures}_names`` / ``{measures}_variances`` from :func:`measure_list`),
    each calculator gets a drop-down that takes the variance from a measure.
    """
    _anova(wb, values.get("anova", {}), k_range, measures)
    _ttest(wb, values.get("ttest", {}), k_range, measures)
    _ci(wb, values.get("ci", {}), measures)
    _anova(wb, values.get("anova2", {}), k_range, measures, ANOVA2)
    _ttest(wb, values.get("ttest2", {}), k_range, measures, TTEST2)
    _ci(wb, values.get("ci2", {}), measures, CI2)
