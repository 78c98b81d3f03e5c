"""`topicsetsize guarantees`: table, statements, CSV, and one-line errors with exit status 2."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.cli import main

from .conftest import one_line_error, run_cli


def test_table_and_statements(capsys):
    code, out, err = run_cli(capsys, "guarantees", "--n", "100", "--variance", "0.0601")
    # legacy (the default): what the exact tests say of it, one line on stderr (the engine's
    # note, tested against scipy in tests/topicsetsize/decide/test_guarantee.py)
    note = tss.guarantees(100, variance=0.0601).note
    assert code == 0 and note and err == f"topicsetsize: warning: {note}\n"
    # and on stdout under the statements, which are copied into proposals without stderr;
    # last, that the power holds at the variance given (a statistician reviewer's find)
    from topicsetsize.decide.wording import ESTIMATED_VARIANCE

    # (and after it the one-way design's caveat, as n anova says it: test_design)
    assert out.splitlines()[-3:-1] == [f"note: {note}", f"note: {ESTIMATED_VARIANCE}"]
    assert out.splitlines()[-1].startswith("note: One-way ANOVA: its n is for independent")
    exact = run_cli(capsys, "guarantees", "--n", "100", "--variance", "0.0601", "--method",
                    "exact")
    assert exact[2] == "" and "note: Under" not in exact[1]
    # MedNLPDoc raw recall (AIRS 2016): 100 topics, m = 10: minD .137 (shown rounded up).
    assert "With 100 topics, m = 10 systems: minimum detectable range 0.14 " in out
    assert "With 100 topics: expected width of the 95% confidence interval" in out
    for m in (2, 5, 10, 20, 50, 100):
        assert f"m = {m} systems: minimum detectable range" in out
    assert " 0.1371 " in out          # the table, 4 decimals rounded up (0.13704...)


def test_csv_equals_the_api(capsys):
    code, out, _ = run_cli(capsys, "guarantees", "--n", "50,100", "--variance", "0.0215", "--m",
                           "2,10", "--alpha", "0.01", "--beta", "0.1", "--variance-t", "0.05",
                           "--method", "exact", "--csv")
    got = pd.read_csv(io.StringIO(out))
    api = tss.guarantees([50, 100], variance=0.0215, ms=[2, 10], alpha=0.01, beta=0.1,
                         variance_t=0.05, method="exact").table
    assert code == 0 and got[["n", "m"]].values.tolist() == [[50, 2], [50, 10], [100, 2],
                                                            [100, 10]]
    # the method in the file (a real-data review, 2026-12-07: a saved legacy CSV did not say so)
    assert (got.pop("method") == "exact").all() and (got.pop("design") == "anova").all()
    # and the inputs (a review, 2026-12-07: a saved file did not say its alpha or beta)
    for column, value in (("alpha", 0.01), ("beta", 0.1), ("variance", 0.0215),
                          ("variance_t", 0.05)):
        assert (got.pop(column) == value).all(), column
    pd.testing.assert_frame_equal(got, api, check_exact=True)


def test_the_two_way_design_at_the_command_line(capsys):
    """--design anova2: min_d of the two-way ANOVA at --variance V_E2, exact, said in the title,
    the statements, the CSV and its own caveat; variance_t's default 2 x V_E2 is said to be
    the pairs' mean, not independent runs'."""
    from topicsetsize.designs.registry import DESIGNS

    argv = ["guarantees", "--n", "50", "--variance", "0.0132", "--m", "2,10", "--design",
            "anova2"]
    code, out, err = run_cli(capsys, *argv, "--csv")
    got = pd.read_csv(io.StringIO(out))
    api = tss.guarantees(50, variance=0.0132, ms=[2, 10], design="anova2").table
    assert code == 0 and got["min_d"].tolist() == api["min_d"].tolist()
    assert got["min_d"].tolist() == [tss.anova2_min_d(50, m=m, variance=0.0132, alpha=0.05,
                                                      beta=0.2) for m in (2, 10)]
    assert set(got["design"]) == {"anova2"} and set(got["method"]) == {"exact"}
    assert err == f"note: Two-way ANOVA: {DESIGNS['anova2'].caveat}\n"
    code, out, _ = run_cli(capsys, *argv)
    assert "min_d of the two-way ANOVA (topics as blocks), variance = V_E2;" in out
    assert "(two-way ANOVA, alpha = 0.05, 80% power)." in out and "one-way" not in out
    assert "note: variance_t = 2 x V_E2 = 0.0264 is the mean, over the past runs' pairs" in out
    from topicsetsize.decide.wording import ESTIMATED_VARIANCE, ESTIMATED_VARIANCE2

    assert f"note: {ESTIMATED_VARIANCE2}" in out and ESTIMATED_VARIANCE not in out
    assert out.splitlines()[-1] == f"note: Two-way ANOVA: {DESIGNS['anova2'].caveat}"
    assert one_line_error(capsys, *argv, "--method", "legacy").endswith(
        "--design anova2 is sized exactly (--method exact)\n")


def test_table2_size_through_the_command(capsys):
    # AIRS 2016 Table 2 part I: m = 2, minD = .10 needs 93 topics (legacy).
    _, out, _ = run_cli(capsys, "guarantees", "--n", "92,93", "--variance", "0.0601", "--m", "2",
                        "--csv")
    at_92, at_93 = pd.read_csv(io.StringIO(out))["min_d"]
    assert at_93 <= 0.1 < at_92


@pytest.mark.parametrize("argv, message", [
    (["--n", "1"], "--n 1 is out of range"),
    (["--n", "x"], "argument --n: 'x' is not a comma-separated list of whole numbers"),
    (["--n", "100.5"], "argument --n: '100.5' is not a comma-separated list"),
    (["--n", "2"], "--n 2 is too small for the legacy approximation"),
    (["--m", "1,2"], "--m 1 is out of range"),
    (["--m", ""], "argument --m: '' is empty"),
    (["--variance", "0"], "--variance 0 is out of range"),
    (["--variance", "abc"], "argument --variance: variance='abc' is not a number"),
    (["--variance-t", "-1"], "--variance-t -1 is out of range"),
    (["--alpha", "1"], "--alpha 1 is out of range"),
    (["--beta", "x"], "argument --beta: beta='x' is not a number"),
    (["--method", "both"], "argument --method: invalid choice: 'both'"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    base = {"--n": "100", "--variance": "0.0601"}
    args = ["guarantees"]
    for key, value in base.items():
        if key not in argv:
            args += [key, value]
    assert message in one_line_error(capsys, *args, *argv)


def test_missing_required_options(capsys):
    with pytest.raises(SystemExit) as info:
        main(["guarantees", "--n", "100"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--variance" in err and err.count("\n") == 1


def test_huge_values_are_printed_compactly_never_below(capsys):
    assert main(["guarantees", "--n", "50", "--variance", "1e300", "--m", "2"]) == 0
    out = capsys.readouterr().out
    # no 150-digit number, in the table, the statements or the note under them
    assert not re.search(r"\d{30}", out), out
    assert "5.554905259160886e+149 has a power of only" in out
    truth = tss.guarantees(50, variance=1e300, ms=(2,)).table["min_d"].iloc[0]
    shown = float(out.split("minimum detectable range ")[1].split(" ")[0])
    assert shown >= truth


def test_statements_never_contradict_the_table(capsys):
    # V_E = 0.01, n = 100: the table shows minDt 0.0401 and the CI width 0.056; the sentences
    # once said 0.05 and 0.06. Now they say 0.041 and 0.056 (two significant digits, rounded up).
    code, out, _ = run_cli(capsys, "guarantees", "--n", "100", "--variance", "0.01", "--m", "10")
    assert code == 0 and " 0.0401 " in out
    assert "minimum detectable difference 0.041 (paired t-test" in out
    assert "confidence interval of a difference 0.056." in out


def test_tiny_alpha_is_not_a_100_percent_interval(capsys):
    code, out, _ = run_cli(capsys, "guarantees", "--n", "100", "--variance", "0.01", "--m", "10",
                           "--alpha", "1e-7")
    assert code == 0 and "99.99999% confidence interval" in out and "100%" not in out


def test_variance_t_taken_as_twice_the_variance_is_said(capsys):
    # sigma_t^2 = 2 V_E was used without a word (TREC 2004 Robust AP: 0.0902 where its run
    # pairs' per-topic differences vary by 0.0264 on average, 2 V_E2; a reviewer's find)
    assert main(["guarantees", "--n", "100", "--variance", "0.0451", "--method", "exact"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-3].startswith("note: variance_t = 2 x variance = 0.0902 treats the "
                                           "two runs as independent")
    assert main(["guarantees", "--n", "100", "--variance", "0.0451", "--variance-t", "0.0264",
                 "--method", "exact"]) == 0
    assert "variance_t = 2 x variance" not in capsys.readouterr().out


def test_differences_no_unit_scores_can_show_are_said(capsys):
    """A budget review (2026-12-07): with 3 topics the table and the sentences promised a
    minimum detectable range of 1.14 at m = 50 and a paired difference of 1.15, which scores in
    [0, 1] (V_E .0601 fits them) can never show: those 3 topics detect nothing there. One note
    names where, from the table itself (minD, minDt above 1; a CI width above 2)."""
    code, out, _ = run_cli(capsys, "guarantees", "--n", "2-5", "--variance", "0.0601",
                           "--method", "exact")
    table = tss.guarantees([2, 3, 4, 5], variance=0.0601, method="exact").table
    places = []
    for n, rows in table.groupby("n"):
        over = [f"min_d (m = {', '.join(map(str, rows.m[rows.min_d > 1]))})"] * any(
            rows.min_d > 1) + ["min_dt"] * bool(rows.min_dt.iloc[0] > 1) + ["ci_delta"] * bool(
            rows.ci_delta.iloc[0] > 2)
        places += [f"n = {n}: {', '.join(over)}"] * bool(over)
    assert code == 0 and len(places) >= 3 and table.ci_delta.max() > 2
    assert f"where the table shows more ({'; '.join(places)}), those topics detect" in out
    for args in (["--n", "50"], ["--n", "3", "--variance", "2", "--variance-t", "4"]):
        assert "scores in [0, 1]" not in run_cli(capsys, "guarantees", "--variance", "0.0601",
                                                 *args)[1]


def test_a_legacy_csv_carries_the_exact_minimum_differences(capsys):
    """The text says "0.12 by the legacy approximation; 0.13 by the exact test"; the CSV kept
    the legacy values alone (a review, 2026-12-07). Its exact columns are those of --method
    exact, and the exact minD has power 1 − β under scipy's noncentral F."""
    from scipy import stats

    args = ("guarantees", "--n", "50,100", "--variance", "0.0451", "--m", "2,10", "--csv")
    code, out, _ = run_cli(capsys, *args)
    legacy = pd.read_csv(io.StringIO(out))
    code_exact, out, _ = run_cli(capsys, *args, "--method", "exact")
    exact = pd.read_csv(io.StringIO(out))
    assert code == code_exact == 0
    assert legacy["min_d_exact"].tolist() == exact["min_d"].tolist()
    assert legacy["min_dt_exact"].tolist() == exact["min_dt"].tolist()
    assert "min_d_exact" not in exact
    for row in legacy.itertuples():
        dfn, dfd = row.m - 1, row.m * (row.n - 1)
        lam = row.n * row.min_d_exact ** 2 / (2 * 0.0451)
        assert stats.ncf.sf(stats.f.isf(0.05, dfn, dfd), dfn, dfd, lam) == pytest.approx(0.8,
                                                                                      abs=1e-9)
    assert (legacy["min_d_exact"] > legacy["min_d"]).all()    # the legacy ones fall short here
