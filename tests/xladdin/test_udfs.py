"""The Excel functions called directly, with Excel-shaped arguments.

This is what the classic Windows add-in hands them (xlwings' ``call_udf``): floats for every
number (counts too: 10.0), None for a blank cell, lists of rows for a range. Every result is
compared with the engine called directly and, where there is one, with a published number:
the worked examples of docs/formulas.md (CIKM 2014, Sakai's book Table 5.1)
and Tables 1 and 2 of the AIRS 2016 std-AB paper (tests/data/PROVENANCE.md).

The same functions through xlwings' Office.js path (xlwings Lite / Server): test_officejs.py.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from topicsetsize.xladdin import _register, udfs
from topicsetsize.xladdin._register import ARG_DOCS, ExcelArgumentError

import topicsetsize as tss
from topicsetsize.designs.detectable import powerless
from topicsetsize.designs.registry import DESIGNS

from ._table1 import KENDALL_ROWS, ranks_with_tau

METHODS = ["legacy", "exact"]


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    """Bad arguments raise here, as outside the classic Windows add-in (see _register.ERRORS)."""
    monkeypatch.setattr(_register, "ERRORS", "raise")


def _is_plain(value) -> bool:
    """A plain Python int/float (finite), or nested lists of them: what Excel may receive."""
    if isinstance(value, list):
        return all(_is_plain(v) for v in value)
    return type(value) in (int, float) and math.isfinite(value)


# --- Worked examples (CIKM 2014; docs/formulas.md) ---------------------------------------------

def test_anova_worked_example_cikm2014():
    # α=.05 β=.20 minD=.5 σ̂²=.25 m=3 -> n = 20 (power .791 at 19, .813 at 20), legacy.
    n = udfs.TSS_ANOVA(0.05, 0.2, 0.5, 0.25, 3.0)
    assert n == 20 == tss.anova_n(0.05, 0.2, 0.5, 0.25, 3)
    assert type(n) is int
    assert round(udfs.TSS_POWER_ANOVA(19.0, 3.0, 0.5, 0.25, 0.05), 3) == 0.791
    assert round(udfs.TSS_POWER_ANOVA(20.0, 3.0, 0.5, 0.25, 0.05), 3) == 0.813


def test_ttest_worked_examples_cikm2014():
    # minΔt=.5 (minDt=.5, σ̂t²=1) -> 34 (power .795 at 33, .808 at 34); minΔt=.2 -> 199.
    assert udfs.TSS_TTEST(0.05, 0.2, 0.5, 1.0) == 34 == tss.ttest_n(0.05, 0.2, 0.5, 1.0)
    assert udfs.TSS_TTEST_ES(0.05, 0.2, 0.5) == 34 == tss.ttest_n_effect(0.05, 0.2, 0.5)
    assert udfs.TSS_TTEST_ES(0.05, 0.2, 0.2) == 199
    assert round(udfs.TSS_POWER_TTEST(33.0, 0.5, 1.0, 0.05), 3) == 0.795
    assert round(udfs.TSS_POWER_TTEST(34.0, 0.5, 1.0, 0.05), 3) == 0.808


@pytest.mark.parametrize("alpha, delta, var_t, n", [
    (0.05, 0.10, 0.05, 79), (0.05, 0.05, 0.02, 125), (0.01, 0.10, 0.10, 269)])
def test_ci_worked_examples(alpha, delta, var_t, n):
    assert udfs.TSS_CI(alpha, delta, var_t) == n == tss.ci_n(alpha, delta, var_t)
    # n is the first size whose expected width is at most delta.
    assert udfs.TSS_CI_WIDTH(float(n), var_t, alpha) <= delta < udfs.TSS_CI_WIDTH(n - 1.0, var_t,
                                                                                  alpha)
    assert udfs.TSS_CI_WIDTH(float(n), var_t, alpha) == tss.ci_delta(n, variance_t=var_t,
                                                                     alpha=alpha)


def test_book_example_variances(book_matrix):
    # Sakai's book, Table 5.1: one-way V_E .0326491228..., two-way .0218859649...
    assert udfs.TSS_VAR(book_matrix) == pytest.approx(0.0326491228, abs=1e-10)
    assert udfs.TSS_VAR2(book_matrix) == pytest.approx(0.0218859649, abs=1e-10)
    assert udfs.TSS_VAR(book_matrix) == tss.residual_variance(book_matrix)
    assert udfs.TSS_VAR2(book_matrix) == tss.two_way_residual_variance(book_matrix)


def test_gstudy_of_the_book_example(book_matrix):
    # Sakai's book, Table 5.1: sigma2_e of the G-study is the two-way V_E2 .0218859649...;
    # sigma2_s = (MS_s - MS_e)/n with MS_s = S_A/2 = .1083/2 (docs/formulas.md §9)
    [[var_s, var_t, var_e]] = udfs.TSS_GSTUDY(book_matrix)
    assert var_e == pytest.approx(0.0218859649, abs=1e-10)
    assert var_s == pytest.approx((0.1083 / 2 - 0.0218859649) / 20, abs=1e-5)
    g = tss.g_study(book_matrix)
    assert [var_s, var_t, var_e] == [g.var_s, g.var_t, g.var_e]
    assert _message(udfs.TSS_GSTUDY, [[0.1, 0.2]]).startswith("range has 1 topic")
    # a constant range was said as "scores is constant" (the engine's name; a reviewer's find)
    assert _message(udfs.TSS_GSTUDY, [[0.2, 0.2], [0.2, 0.2]]).startswith("range is constant")


# --- Table 2 of the AIRS 2016 paper -----------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
def test_table2_every_cell(table2, method):
    expected = table2[f"n_{method}"].tolist()
    got = [udfs.TSS_ANOVA(r.alpha, r.beta, r.min_d, r.variance, float(r.m), method)
           for r in table2.itertuples()]
    assert got == expected


@pytest.mark.parametrize("method", METHODS)
def test_table_anova_fills_each_published_table(table2, method):
    for variance, rows in table2.groupby("variance", sort=False):
        ms, min_ds = sorted(rows.m.unique()), sorted(rows.min_d.unique())
        # ms as a column range, minDs as a row range, as a user would lay them out.
        block = udfs.TSS_TABLE_ANOVA(0.05, 0.2, variance, [[float(m)] for m in ms],
                                     [min_ds], method)
        assert block[0] == [udfs.TABLE_CORNER, *min_ds]
        assert [row[0] for row in block[1:]] == ms
        published = rows.pivot(index="m", columns="min_d", values=f"n_{method}")
        assert [row[1:] for row in block[1:]] == published.loc[ms, min_ds].values.tolist()
        engine = tss.anova_table(0.05, beta=0.2, variance=variance, ms=ms, min_ds=min_ds,
                                 method=method)
        assert [row[1:] for row in block[1:]] == engine.values.tolist()
        assert _is_plain([row for row in block[1:]]) and type(block[1][0]) is int


# --- Every other function against the engine -------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
def test_power_and_minimum_detectable_match_the_engine(method):
    assert udfs.TSS_POWER_ANOVA(100.0, 10.0, 0.15, 0.0601, 0.05, method) == \
        tss.anova_power(100, m=10, min_d=0.15, variance=0.0601, alpha=0.05, method=method)
    assert udfs.TSS_POWER_TTEST(50.0, 0.1, 0.1202, 0.05, method) == \
        tss.ttest_power(50, min_dt=0.1, variance_t=0.1202, alpha=0.05, method=method)
    min_d = udfs.TSS_MIND_ANOVA(100.0, 10.0, 0.0601, 0.05, 0.2, method)
    assert min_d == tss.anova_min_d(100, m=10, variance=0.0601, alpha=0.05, beta=0.2, method=method)
    min_dt = udfs.TSS_MINDT_TTEST(100.0, 0.1202, 0.05, 0.2, method)
    assert min_dt == tss.ttest_min_dt(100, variance_t=0.1202, alpha=0.05, beta=0.2, method=method)
    # The inverse: the n for that minD is at most 100 (Table 2, m=10: minD=.1 needs 188).
    assert udfs.TSS_ANOVA(0.05, 0.2, min_d, 0.0601, 10.0, method) <= 100
    assert 0.1 < min_d < 0.2 and _is_plain([min_d, min_dt])


def test_pooled_variance_matches_the_engine(book_matrix, web2010):
    web = web2010.values.tolist()
    assert udfs.TSS_POOLED_VAR(book_matrix, web) == tss.pooled_variance([book_matrix, web])
    assert udfs.TSS_POOLED_VAR(book_matrix) == pytest.approx(0.0326491228, abs=1e-10)
    # Pooling a matrix with a shifted copy of itself changes nothing.
    shifted = (np.asarray(book_matrix) + 1).tolist()
    assert udfs.TSS_POOLED_VAR(book_matrix, shifted) == pytest.approx(udfs.TSS_VAR(book_matrix))


@pytest.mark.parametrize("a, b, clip", [(None, None, None), (0.15, 0.5, True), (1.0, 0.25, False),
                                        (0.2, None, 0.0)])
def test_std_ab_matches_the_engine(web2010, a, b, clip):
    options = {k: v for k, v in (("a", a), ("b", b), ("clip", None if clip is None else
                                                       bool(clip))) if v is not None}
    cells = web2010.values.tolist()
    expected = tss.std_ab(cells, **options)
    got = udfs.STDAB(cells, a, b, clip)
    assert got == expected.tolist() and _is_plain(got)
    assert np.shape(got) == web2010.shape
    # The engine on the DataFrame agrees (to rounding: it sums in another order).
    assert np.allclose(got, tss.std_ab(web2010, **options).values, rtol=0, atol=1e-14)
    assert udfs.STDAB_VAR(cells, a, b, clip) == tss.residual_variance(expected)


def test_std_ab_shrinks_the_variance_of_an_unnormalised_matrix(web2010):
    # The point of std-AB (AIRS 2016, Table 1: M-measure raw 44.38 -> std-AB .0072): a
    # rescaled copy of the matrix has a huge raw V_E but the same std-AB V_E.
    rescaled = (web2010 * 100 + 7).values.tolist()
    assert udfs.TSS_VAR(rescaled) > 1.0
    assert udfs.STDAB_VAR(rescaled) == pytest.approx(udfs.STDAB_VAR(web2010.values.tolist()))
    assert udfs.STDAB_VAR(rescaled) < 0.05


def test_std_cdf_matches_the_engine(web2010):
    cells = web2010.values.tolist()
    got = udfs.STDCDF(cells)
    assert got == tss.std_cdf(cells).tolist() and _is_plain(got)
    assert np.allclose(got, tss.std_cdf(web2010).values, rtol=0, atol=1e-14)
    assert all(0 < v < 1 for row in got for v in row)


@pytest.mark.parametrize("row", KENDALL_ROWS, ids=lambda r: f"{r[0]}-{r[1]}")
def test_kendall_reproduces_table1_column_g(row):
    # AIRS 2016 Table 1, column g: τ [low, high] for m runs. Two rankings of m runs with the
    # published τ are built (runs 1..m, and a permutation with the matching discordant pairs).
    _, _, m, tau, low, high = row
    x, y = ranks_with_tau(m, tau)
    got = udfs.TSS_KENDALL([[float(v)] for v in x], [float(v) for v in y])   # column, row
    assert got == list(tss.kendall_tau_ci(x, y)) and _is_plain(got)
    assert round(got[0], 3) == tau
    # The paper computed the interval from τ rounded to 3 decimals: the half-widths agree.
    assert got[2] - got[0] == pytest.approx(high - tau, abs=6e-4)
    assert got[0] - got[1] == pytest.approx(tau - low, abs=6e-4)


@pytest.mark.parametrize("method", METHODS)
def test_guarantees_block_matches_the_engine(method):
    # n as a column range, ms as a row range; the block has a header row, then one row per
    # (n, m), n-major.
    block = udfs.TSS_GUARANTEES([[93.0], [100.0]], 0.0601, [2.0, 50.0], 0.05, 0.2, method)
    assert block[0] == udfs.GUARANTEES_HEADER == ["n", "m", "minD", "minDt", "CI width"]
    engine = tss.guarantees([93, 100], variance=0.0601, ms=[2, 50], method=method).table
    assert block[1:] == engine.values.tolist()
    assert [row[:2] for row in block[1:]] == [[93, 2], [93, 50], [100, 2], [100, 50]]
    assert _is_plain(block[1:]) and type(block[1][0]) is int and type(block[1][1]) is int
    if method == "legacy":
        # AIRS 2016 Table 2 part I: 93 topics for m = 2, minD = .10 and 91 for m = 50,
        # minD = .20, so 93 topics detect both.
        assert block[1][2] <= 0.10 and block[2][2] <= 0.20


def test_guarantees_defaults_and_blanks():
    block = udfs.TSS_GUARANTEES(100.0, 0.0601)
    assert [row[1] for row in block[1:]] == [2, 5, 10, 20, 50, 100]
    assert udfs.TSS_GUARANTEES(100.0, 0.0601, None, None, "", None) == block
    # a range of blank cells for ms is not "left out" (a reviewer's find, 2026-12-06)
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.0601, [[None]]).startswith(
        "ms: blank cell at row 1, column 1")
    assert udfs.TSS_GUARANTEES(100, 0.0601, None, 0.05, 0.2, "legacy") == block
    # CI width at n = 79 with var_t = 2 var = .05: .0998 (IRJ 2016 Section 6: n = 79 for δ = .1).
    assert round(udfs.TSS_GUARANTEES(79.0, 0.025, 2.0)[1][4], 4) == 0.0998


def test_guarantees_bad_input():
    assert _message(udfs.TSS_GUARANTEES, 1.0, 0.0601) == \
        "n=1 is out of range: allowed 2 <= n <= 1000000000 (a whole number)"
    assert _message(udfs.TSS_GUARANTEES, 100.0, None) == \
        "var is blank: allowed var > 0"
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.06, [2.0, 1.0]).startswith("m=1 is out")
    assert _message(udfs.TSS_GUARANTEES, [[50.0, 60.0], [70.0, 80.0]], 0.06) == \
        "n must be a single row or column of numbers, got 2 rows × 2 columns"
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.06, None, 1.5).startswith("alpha=1.5 ")
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.06, None, None, None, "fast") == \
        "method \"fast\" is not one of 'legacy', 'exact'"
    # repeated n or m are refused, as TSS_TABLE_ANOVA and `guarantees --n 50,50` refuse them
    assert _message(udfs.TSS_GUARANTEES, [[50.0], [50.0]], 0.06) == \
        "n=50 is given twice: give each value once"
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.06, [2.0, 10.0, 2.0]) == \
        "ms=2 is given twice: give each value once"
    assert _message(udfs.TSS_GUARANTEES, 2.0, 0.06).startswith("n=2 is too small for the legacy")


# --- Excel-shaped input -----------------------------------------------------------------------

def test_counts_arrive_as_floats_and_blank_optionals_mean_the_default():
    assert udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10.0) == 188          # Table 2, m=10, minD=.1
    assert udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10, None) == 188      # blank method cell
    assert udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10, "") == 188
    assert udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10, "EXACT") == 189
    assert udfs.TSS_POWER_TTEST(34.0, 0.5, 1.0, 0.05) == udfs.TSS_POWER_TTEST(34, 0.5, 1.0, 0.05)


def test_single_row_and_column_ranges_are_accepted_for_lists():
    as_row = udfs.TSS_TABLE_ANOVA(0.05, 0.2, 0.0601, [2.0, 10.0], [0.1, 0.2])
    as_column = udfs.TSS_TABLE_ANOVA(0.05, 0.2, 0.0601, [[2.0], [10.0]], [[0.1], [0.2]])
    as_single_cells = udfs.TSS_TABLE_ANOVA(0.05, 0.2, 0.0601, 10.0, 0.1)
    assert as_row == as_column == [[udfs.TABLE_CORNER, 0.1, 0.2], [2, 93, 24], [10, 188, 48]]
    assert as_single_cells == [[udfs.TABLE_CORNER, 0.1], [10, 188]]


def test_pooled_variance_ignores_omitted_ranges(book_matrix):
    assert udfs.TSS_POOLED_VAR(book_matrix, None) == udfs.TSS_VAR(book_matrix)


# --- Bad input: one line naming the problem ---------------------------------------------------

def _message(fn, *args) -> str:
    with pytest.raises(ExcelArgumentError) as info:
        fn(*args)
    message = str(info.value)
    assert "\n" not in message
    assert isinstance(info.value, ValueError)
    return message


def _engine_message(fn, *args, **kwargs) -> str:
    with pytest.raises(tss.InputError) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_bad_parameters_give_the_engine_message():
    # α and β: the registry's range for the Excel functions (alpha_excel), as in the workbook
    assert _message(udfs.TSS_ANOVA, 1.5, 0.2, 0.1, 0.0601, 10.0) == \
        "alpha=1.5 is out of range: allowed 1e-06 <= alpha <= 0.5"
    assert _engine_message(tss.anova_n, 1.5, 0.2, 0.1, 0.0601, 10) == \
        "alpha=1.5 is out of range: allowed 0 < alpha < 1"
    # below 1e-6 a cell would recalculate for seconds to minutes at few topics (a reviewer's
    # find, 2026-12-06: TSS_MIND_ANOVA(3, 2, 0.06, 1e-30, 0.2, "exact") took 24 s)
    assert _message(udfs.TSS_MIND_ANOVA, 3.0, 2.0, 0.06, 1e-30, 0.2, "exact") == \
        "alpha=1e-30 is out of range: allowed 1e-06 <= alpha <= 0.5"
    assert _message(udfs.TSS_ANOVA, 0.05, 0.2, 0.1, 0.0601, 1.0) == \
        _engine_message(tss.anova_n, 0.05, 0.2, 0.1, 0.0601, 1) == \
        "m=1 is out of range: allowed 2 <= m <= 1000000000 (a whole number)"
    assert _message(udfs.TSS_POWER_ANOVA, 10.5, 3.0, 0.5, 0.25, 0.05) == \
        "n=10.5 is not a whole number: allowed 2 <= n <= 1000000000 (a whole number)"
    assert _message(udfs.TSS_CI, 0.05, -0.1, 0.05).startswith("delta=-0.1 is out of range")
    assert _message(udfs.TSS_TTEST, 0.05, 0.2, 0.5, 1.0, "fast") == \
        "method \"fast\" is not one of 'legacy', 'exact'"
    # the Excel argument names, not the engine's (a reviewer's find, 2026-12-06)
    assert _message(udfs.STDAB, [[0.1, 0.2], [0.3, 0.4]], 0.0) == \
        "A=0 is out of range: allowed A > 0"
    assert _message(udfs.TSS_ANOVA, 0.05, 0.2, -0.1, 0.0601, 10.0) == \
        "minD=-0.1 is out of range: allowed minD > 0"
    assert _message(udfs.TSS_TTEST, 0.05, 0.2, 0.1, 0.0) == \
        "var_t=0 is out of range: allowed var_t > 0"


def test_a_swapped_probability_is_refused_as_the_workbook_refuses_it():
    """beta = .8 (a power of .2) and alpha = .95 (a confidence level) are valid to the engine,
    which answers them, but most likely the complement of what was meant: the command line
    warns (params.Range.unusual), the workbook's calculators refuse them, and so do the Excel
    functions, with the same words and the range they take; one half is taken."""
    assert tss.anova_n(0.05, 0.8, 0.1, 0.0601, 10) < tss.anova_n(0.05, 0.2, 0.1, 0.0601, 10)
    assert _message(udfs.TSS_ANOVA, 0.05, 0.8, 0.1, 0.0601, 10.0) == (
        "beta=0.8 asks for a power of only 1 - beta = 0.2 (power 0.8 is beta=0.2: did you mean "
        "beta=0.2?); allowed 1e-09 <= beta <= 0.5 in Excel")
    assert _message(udfs.TSS_POWER_ANOVA, 20.0, 3.0, 0.5, 0.25, 0.95).startswith(
        "alpha=0.95 is the probability of a Type I error, not a confidence level")
    assert _message(udfs.TSS_POWER_ANOVA, 20.0, 3.0, 0.5, 0.25, 0.95).endswith(
        "; allowed 1e-06 <= alpha <= 0.5 in Excel")
    assert udfs.TSS_ANOVA(0.05, 0.5, 0.1, 0.0601, 10.0) == \
        tss.anova_n(0.05, 0.5, 0.1, 0.0601, 10)


def test_blank_text_and_ranges_where_a_number_belongs():
    assert _message(udfs.TSS_ANOVA, None, 0.2, 0.1, 0.0601, 10.0) == \
        "alpha is blank: allowed 1e-06 <= alpha <= 0.5"
    assert _message(udfs.TSS_ANOVA, "0.05", 0.2, 0.1, 0.0601, 10.0) == \
        "alpha='0.05' is not a number: allowed 1e-06 <= alpha <= 0.5"
    assert "must be a single number" in _message(udfs.TSS_CI, [0.05, 0.01], 0.1, 0.05)
    assert _message(udfs.STDAB, [[0.1, 0.2], [0.3, 0.4]], None, None, "yes") == \
        "clip='yes' is not TRUE or FALSE"


def test_blank_or_text_cell_in_a_range_names_its_row_and_column(book_matrix):
    blank = [row[:] for row in book_matrix]
    blank[2][1] = None
    assert _message(udfs.TSS_VAR, blank) == (
        "range: blank cell at row 3, column 2 (a blank is not read as 0: fill it in or leave "
        "the topic out)")
    text = [row[:] for row in book_matrix]
    text[19][0] = "0.1"                          # a number stored as text is still text
    assert _message(udfs.STDAB_VAR, text) == "range: text '0.1' at row 20, column 1 is not a number"
    # a score pasted as text with a decimal comma is named as such (as alpha='0,05' is; a review,
    # 2026-12-07, found the range's text cell without the hint)
    text[19][0] = " 0,1234"
    assert _message(udfs.STDAB_VAR, text) == ("range: text ' 0,1234' at row 20, column 1 is not a "
                                              "number (a decimal point, not a comma: 0.1234?)")
    text[19][0] = "1,234,5"                      # no single decimal comma: no guess
    assert _message(udfs.TSS_VAR, text).endswith("column 1 is not a number")
    logical = [row[:] for row in book_matrix]
    logical[0][2] = True
    assert _message(udfs.TSS_VAR2, logical) == \
        "range: logical value TRUE at row 1, column 3 is not a number"
    empty_string = [row[:] for row in book_matrix]
    empty_string[4][0] = ""
    assert _message(udfs.STDCDF, empty_string).startswith("range: blank cell at row 5, column 1")
    # In the second range of a pool, the message says so.
    assert _message(udfs.TSS_POOLED_VAR, book_matrix, blank).startswith(
        "range2: blank cell at row 3, column 2")
    assert _message(udfs.TSS_KENDALL, [1.0, 2.0, None], [1.0, 2.0, 3.0]) == (
        "x: blank cell at row 1, column 3 (a blank is not read as 0: fill it in or leave it out "
        "of the range)")


def test_range_shape_problems():
    assert _message(udfs.TSS_VAR, [[0.1, 0.2, 0.3]]) == \
        "range has 1 topic: a score matrix needs at least 2 topics (rows)"
    assert _message(udfs.TSS_VAR, None) == "range is empty: give a range of numbers"
    assert "rectangular" in _message(udfs.TSS_VAR, [[0.1, 0.2], [0.3]])
    assert _message(udfs.TSS_TABLE_ANOVA, 0.05, 0.2, 0.06, [[2.0, 3.0], [4.0, 5.0]], 0.1) == \
        "ms must be a single row or column of numbers, got 2 rows × 2 columns"
    assert _message(udfs.TSS_TABLE_ANOVA, 0.05, 0.2, 0.06, [1.0, 10.0], 0.1).startswith("m=1 ")


def test_undefined_legacy_power_is_a_message_not_nan():
    # Nagata's approximation needs cA > a; at n=2, m=2 it is undefined (the sheet's #NUM!).
    assert math.isnan(tss.anova_power(2, m=2, min_d=0.1, variance=0.0601, alpha=0.05))
    message = _message(udfs.TSS_POWER_ANOVA, 2.0, 2.0, 0.1, 0.0601, 0.05)
    assert message.startswith("the legacy power is undefined at n=2, m=2") and '"exact"' in message
    exact = udfs.TSS_POWER_ANOVA(2.0, 2.0, 0.1, 0.0601, 0.05, "exact")
    assert exact == tss.anova_power(2, m=2, min_d=0.1, variance=0.0601, alpha=0.05,
                                    method="exact") and _is_plain(exact)


def test_an_unreachable_design_is_a_message():
    message = _message(udfs.TSS_ANOVA, 0.05, 0.2, 1e-7, 0.0601, 10.0)
    assert message == _register.excel_words(
        _engine_message(tss.anova_n, 0.05, 0.2, 1e-7, 0.0601, 10))
    assert "minD=1e-07, var=0.0601" in message
    assert "search limit" in message


def test_classic_add_in_shows_the_message_as_the_cell_text(monkeypatch):
    # The classic add-in's VBA wrapper writes an exception's whole traceback into the cell, so
    # there a bad argument returns the one-line message as the cell's text instead.
    monkeypatch.setattr(_register, "ERRORS", "text")
    assert udfs.TSS_ANOVA(1.5, 0.2, 0.1, 0.0601, 10.0) == \
        "#VALUE! alpha=1.5 is out of range: allowed 1e-06 <= alpha <= 0.5"
    assert udfs.TSS_VAR([[0.1, "x"], [0.2, 0.3]]) == \
        "#VALUE! range: text 'x' at row 1, column 2 is not a number"
    assert udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10.0) == 188      # good input: a number


def test_a_bug_is_not_disguised_as_a_bad_argument(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(tss, "anova_n", broken)
    # TSS_ANOVA calls the function the registry names, in the design's module
    monkeypatch.setattr(DESIGNS["anova"].module + ".anova_n", broken)
    with pytest.raises(ZeroDivisionError):
        udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10.0)


# --- Registration -----------------------------------------------------------------------------

def test_every_function_and_argument_is_documented():
    import inspect

    for name in udfs.__all__:
        fn = getattr(udfs, name)
        # Excel's classic function wizard shows at most 255 characters, on one line.
        assert fn.__doc__ and len(fn.__doc__) <= 255 and "\n" not in fn.__doc__, name
        for param in inspect.signature(fn).parameters:
            assert 20 <= len(ARG_DOCS[param]) <= 255, (name, param)


def test_the_module_exports_exactly_the_documented_functions():
    # The registry's functions and the hand-written ones (test_design_functions.py checks the
    # split), each with a row in the table of docs/excel.md, and nothing else.
    declared = [name for d in DESIGNS.values() for name in d.excel.values()]
    assert sorted(udfs.__all__) == sorted([*declared, *udfs.HAND_WRITTEN])
    docs = (Path(__file__).resolve().parents[2] / "docs" / "excel.md").read_text(encoding="utf-8")
    table = docs.split("## The functions", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    documented = {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)\(", row)}
    assert documented == set(udfs.__all__)


def test_only_the_classic_windows_add_in_reports_errors_as_text(monkeypatch):
    import xlwings

    monkeypatch.undo()                                          # the module's own setting
    classic = xlwings.func.__module__ == "xlwings.udfs"        # pywin32 on Windows
    assert _register.ERRORS == ("text" if classic else "raise")


def test_only_input_errors_become_cell_messages(monkeypatch):
    """A user's bad argument (InputError) is a one-line #VALUE!; any other exception, a plain
    ValueError from a bug too, keeps its traceback (the command line's rule; issue 27.2)."""
    monkeypatch.setattr(_register, "ERRORS", "text")

    def bad_input(alpha):
        """Refuses."""
        raise tss.InputError("alpha=2 is out of range: allowed 0 < alpha < 1")

    def bug(alpha):
        """Breaks."""
        raise ValueError("operands could not be broadcast together")

    assert _register.excel_function(bad_input)(2) == \
        "#VALUE! alpha=2 is out of range: allowed 0 < alpha < 1"
    with pytest.raises(ValueError, match="could not be broadcast"):
        _register.excel_function(bug)(2)


# --- What the command line warns about, an Excel function refuses (a reviewer's finds, 2026-12-06)

def test_an_error_cell_is_refused_not_read_as_blank():
    # xlwings hands an error cell over as its text (err_to_str, asked for on every argument);
    # before, it arrived as None and an optional argument silently took its default (188).
    assert _message(udfs.TSS_ANOVA, 0.05, 0.2, 0.1, 0.0601, 10.0, "#N/A") == (
        "method is the error value #N/A: mend the cell it comes from (an error is not read as a "
        "blank or as the default)")
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.0601, None, "#DIV/0!").startswith(
        "alpha is the error value #DIV/0!")
    matrix = [[0.1, 0.2], [0.3, "#N/A"]]
    assert _message(udfs.TSS_VAR, matrix) == \
        "range: the error value #N/A at row 2, column 2 is not a number: mend that cell"


def test_constant_runs_have_a_variance_of_exactly_zero():
    # Every run scores the same on every topic: floating point gives about 1e-33, on which
    # TSS_ANOVA sized n = 3; the command line refuses such a matrix (require_sizeable).
    constant = [[0.1, 0.3, 0.7]] * 7
    shifted = [[0.1, 0.3, 0.7], [0.2, 0.4, 0.8], [0.3, 0.5, 0.9]]
    assert 0 < tss.residual_variance(np.array(constant)) < 1e-30      # the float's own noise
    assert 0 < tss.two_way_residual_variance(np.array(shifted)) < 1e-30
    assert udfs.TSS_VAR(constant) == 0.0 and udfs.STDAB_VAR(constant) == 0.0
    assert udfs.TSS_VAR2(shifted) == 0.0 == udfs.TSS_GSTUDY(shifted)[0][2]
    assert udfs.TSS_POOLED_VAR(constant, constant) == 0.0
    assert _message(udfs.TSS_ANOVA, 0.05, 0.2, 0.1, udfs.TSS_VAR(constant), 3.0) == \
        "var=0 is out of range: allowed var > 0"
    assert udfs.TSS_VAR([[0.1, 0.3], [0.2, 0.3]]) > 0           # a real V_E is kept


def test_a_power_not_above_alpha_is_refused():
    # α = β = .5: n = 2 and minD = 0 "reach" 1 - β whatever the scores; the command line warns
    # with the same line (params.powerless).
    expected = powerless(0.5, 0.5)
    assert _message(udfs.TSS_ANOVA, 0.5, 0.5, 0.1, 0.0601, 10.0) == expected
    assert _message(udfs.TSS_MINDT_TTEST, 100.0, 0.1, 0.5, 0.5) == expected
    assert _message(udfs.TSS_TABLE_ANOVA, 0.5, 0.5, 0.0601, [2.0, 10.0], 0.1) == expected
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.0601, None, 0.5, 0.5) == expected
    assert udfs.TSS_ANOVA(0.5, 0.49, 0.1, 0.0601, 10.0) >= 2          # just above: answered


def test_a_legacy_minimum_difference_of_zero_is_refused():
    # α = .5, β = .49: the legacy approximation's own error reaches 1 - β at minD = 0
    assert tss.anova_min_d(100, m=10, variance=0.0601, alpha=0.5, beta=0.49) == 0.0
    message = _message(udfs.TSS_MIND_ANOVA, 100.0, 10.0, 0.0601, 0.5, 0.49)
    assert message.startswith("the legacy minD = 0 detects nothing") and '"exact"' in message
    exact = udfs.TSS_MIND_ANOVA(100.0, 10.0, 0.0601, 0.5, 0.49, "exact")
    assert exact == tss.anova_min_d(100, m=10, variance=0.0601, alpha=0.5, beta=0.49,
                                    method="exact") > 0.01
    # TSS_GUARANTEES showed that 0 in its block (a reviewer's find, 2026-12-06): refused alike
    assert _message(udfs.TSS_GUARANTEES, 100.0, 0.0601, [[10.0]], 0.5, 0.49) == message
    block = udfs.TSS_GUARANTEES(100.0, 0.0601, [[10.0]], 0.5, 0.49, "exact")
    assert block[1][2] == pytest.approx(exact, rel=1e-12)


def test_a_count_computed_in_excel_is_taken_where_its_cell_shows_a_whole_number():
    # =0.1*3*10 is 3.0000000000000004 in Excel's arithmetic and shows 3 in its cell: it was
    # refused as "not a whole number" (a reviewer's find, 2026-12-06); 3.01 still is
    assert udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 0.1 * 3 * 10) == tss.anova_n(0.05, 0.2, 0.1,
                                                                                0.0601, 3)
    assert udfs.TSS_POWER_ANOVA(100.0 + 1e-12, 3.0, 0.1, 0.0601, 0.05) == tss.anova_power(
        100, m=3, min_d=0.1, variance=0.0601, alpha=0.05)
    assert _message(udfs.TSS_ANOVA, 0.05, 0.2, 0.1, 0.0601, 3.01) == \
        "m=3.01 is not a whole number: allowed 2 <= m <= 1000000000 (a whole number)"
    # in a range too (TSS_TABLE_ANOVA's ms, TSS_GUARANTEES' n), as for a single value (an add-in
    # review, 2026-12-07: the range refused "m=3.0000000000000004")
    assert udfs.TSS_TABLE_ANOVA(0.05, 0.2, 0.0601, [[2.0], [0.1 * 3 * 10]], [[0.1]]) == \
        [[udfs.TABLE_CORNER, 0.1], [2, 93], [3, tss.anova_n(0.05, 0.2, 0.1, 0.0601, 3)]]
    assert udfs.TSS_GUARANTEES([[0.1 * 3 * 10 * 10]], 0.0601, [[0.1 * 3 * 10]])[1][:2] == [30, 3]
    # and no farther than 1e-6: near 10^9 a relative 1e-9 took 1000000000.4 as 10^9, and a value
    # refused is named as given (1000000000.7 read as "m=1000000001", 1e-300 as "m=0")
    for m, why in ((1e9 + 0.4, "is not a whole number"), (1e9 + 0.7, "is not a whole number"),
                   (1e-300, "is out of range")):
        assert _message(udfs.TSS_ANOVA, 0.05, 0.2, 0.1, 0.0601, m) == \
            f"m={m:.15g} {why}: allowed 2 <= m <= 1000000000 (a whole number)"
