"""`topicsetsize n | table | min-d`: output, CSV, and one-line errors with exit status 2."""

from __future__ import annotations

import io
import math
import subprocess
import sys

import pandas as pd
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.cli import main
from topicsetsize.cli._common import ceil_sig
from topicsetsize.cli.design import OWN_MODULE
from topicsetsize.designs.registry import DESIGNS
from topicsetsize.params import PARAMS

from .conftest import one_line_error, run_cli

#: The one-way design's declared caveat, printed under every answer (on stderr with --csv): the
#: tests of the other lines on stderr look past it.
CAVEAT = f"note: One-way ANOVA: {tss.designs.registry.DESIGNS['anova'].caveat}\n"


def _warnings(err: str) -> str:
    """stderr without the one-way caveat (asserted to be there)."""
    assert CAVEAT in err, err
    return err.replace(CAVEAT, "")


def test_readme_command(capsys):
    code, out, _ = run_cli(capsys, "n", "anova", "--alpha", "0.05", "--beta", "0.2", "--min-d",
                           "0.1", "--variance", "0.0601", "--m", "10")
    assert code == 0
    # AIRS 2016 Table 2 part I: m=10, minD=.1, raw recall var .0601 -> 188 (legacy)
    assert " 188 " in out and "legacy" in out


def test_both_methods_and_csv(capsys):
    code, out, _ = run_cli(capsys, "n", "anova", "--min-d", "0.02", "--variance", "0.0601", "--m",
                           "2", "--method", "both", "--csv")
    frame = pd.read_csv(io.StringIO(out), index_col="method")
    assert code == 0 and frame.loc["legacy", "n"] == 2301 and frame.loc["exact", "n"] == 2360
    assert frame.loc["exact", "power(n-1)"] < 0.8 <= frame.loc["exact", "power(n)"]


def test_tiny_beta_shows_the_powers_apart_from_the_target(capsys):
    """At β = 1e-9 six decimals showed power(n − 1) and power(n) both as 0.999999, one below the
    target 0.999999999 and one above it: the table shows as many decimals as the target needs,
    and the legacy warning's target is not rounded to 1."""
    code, out, err = run_cli(capsys, "n", "anova", "--beta", "1e-9", "--min-d", "0.1",
                             "--variance", "0.05", "--m", "5", "--method", "both")
    assert code == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()
            if line.startswith(("legacy", "exact"))}
    target = 1 - 1e-9
    for method in ("legacy", "exact"):
        below, at = (float(x) for x in rows[method][1:])
        assert below < target <= at, (method, below, at)
    # the exact powers, computed again, truncated to the 11 decimals shown
    n = int(rows["exact"][0])
    exact = [tss.anova_power(k, m=5, min_d=0.1, variance=0.05, alpha=0.05, method="exact")
             for k in (n - 1, n)]
    assert [float(x) for x in rows["exact"][1:]] == [math.floor(p * 1e11) / 1e11 for p in exact]
    # the legacy minD at n = 50 falls short of the exact power: the warning keeps the digits
    code, out, err = run_cli(capsys, "min-d", "anova", "--beta", "1e-9", "--n", "50",
                             "--variance", "0.05", "--m", "5", "--method", "both")
    assert code == 0 and "< 1 - beta = 0.999999999;" in err


def test_an_effect_size_too_small_is_named_as_typed(capsys):
    # a review, 2026-12-07: --min-delta-t 1e-5 was refused as "--min-dt 1e-05, --variance-t 1",
    # flags the user had not given
    for method in ("legacy", "exact"):
        err = one_line_error(capsys, "n", "ttest", "--min-delta-t", "1e-5", "--method", method)
        assert f"for --alpha 0.05, --beta 0.2, --min-delta-t 1e-05 ({method}): " in err
        assert "--min-dt" not in err and "--variance-t" not in err


def test_ttest_and_ci(capsys):
    assert run_cli(capsys, "n", "ttest", "--min-delta-t", "0.2")[1].count(" 199 ") == 1
    code, out, _ = run_cli(capsys, "n", "ttest", "--min-dt", "0.1", "--variance-t", "0.04", "--csv")
    assert pd.read_csv(io.StringIO(out)).n.tolist() == [34]
    code, out, _ = run_cli(capsys, "n", "ci", "--alpha", "0.01", "--delta", "0.1",
                           "--variance-t", "0.1", "--csv")
    assert pd.read_csv(io.StringIO(out)).n.tolist() == [269]


def test_table_csv_equals_api(capsys):
    code, out, _ = run_cli(capsys, "table", "anova", "--m", "2,10", "--min-d", "0.02,0.1",
                           "--variance", "0.0127", "--method", "exact", "--csv")
    got = pd.read_csv(io.StringIO(out))
    api = tss.anova_table(0.05, beta=0.2, variance=0.0127, ms=[2, 10], min_ds=[0.02, 0.1],
                          method="exact")
    assert code == 0
    for row in got.itertuples():
        assert row.n == api.loc[row.m, row.min_d]
    code, out, _ = run_cli(capsys, "table", "ttest", "--min-dt", "0.05,0.1", "--variance-t", "0.04",
                           "--csv")
    got = pd.read_csv(io.StringIO(out))
    for row in got.itertuples():
        assert row.n == tss.ttest_n(0.05, 0.2, row.min_dt, row.variance_t)
    assert got.n.tolist()[-1] == 34        # minDt/sigma_t = .5: CIKM 2014 example


def test_min_d(capsys):
    code, out, _ = run_cli(capsys, "min-d", "anova", "--n", "188", "--m", "10", "--variance",
                           "0.0601", "--csv")
    assert code == 0 and pd.read_csv(io.StringIO(out)).min_d.iloc[0] <= 0.1


@pytest.mark.parametrize("design, args, method, power", [
    # a docs review: min-d ttest2 printed 0.097132 for 0.0971322 (rounded up: 0.0971323); at
    # 0.097132 the power is .799998
    ("ttest2", ["--n", "15", "--variance", "0.0084"], "exact", "ttest2_power"),
    ("ttest", ["--n", "34", "--variance-t", "0.0168"], "exact", "ttest_power"),
    ("anova", ["--n", "100000", "--m", "10", "--variance", "0.0084"], "exact", "anova_power"),
    ("anova", ["--n", "40", "--m", "3", "--variance", "0.0023"], "legacy", "anova_power"),
])
def test_the_printed_minimum_difference_has_the_power(capsys, design, args, method, power):
    """The table shows every digit of the rounded-up difference: at the number as printed, the
    power (by the method shown) is at least 1 - beta, even below 0.1."""
    chosen = ["--method", method] if len(tss.designs.registry.DESIGNS[design].methods) > 1 else []
    code, out, _ = run_cli(capsys, "min-d", design, *args, *chosen)
    assert code == 0, out
    shown = float(next(line for line in out.splitlines() if line.startswith(method)).split()[1])
    given = dict(zip((a.lstrip("-").replace("-", "_") for a in args[::2]),
                     (float(v) for v in args[1::2])))
    n = int(given.pop("n"))
    effect = "min_dt" if design == "ttest" else "min_d"
    if "m" in given:
        given["m"] = int(given["m"])
    got = getattr(tss, power)(n, **{effect: shown}, **given, alpha=0.05, method=method)
    assert shown < 0.1 and got >= 0.8


@pytest.mark.parametrize("argv,fragment", [
    (["n", "anova", "--alpha", "1.5", "--min-d", "0.1", "--variance", "0.06", "--m", "10"],
     "--alpha 1.5 is out of range: allowed 0 < alpha < 1"),
    (["n", "anova", "--min-d", "0.1", "--variance", "0.06", "--m", "1"], "--m 1 is out of range"),
    (["n", "anova", "--min-d", "abc", "--variance", "0.06", "--m", "10"],
     "min_d='abc' is not a number: allowed min_d > 0"),
    (["n", "anova", "--min-d", "1e-9", "--variance", "0.06", "--m", "10"], "search limit"),
    # a list where one value goes (min-d takes one n; guarantees takes several)
    (["min-d", "anova", "--n", "100,2301", "--m", "2", "--variance", "0.06"],
     "n='100,2301' is not a number (one value here, not a list): allowed 2 <= n"),
    # a decimal comma (a locale's 0,05) where a real number goes
    (["n", "anova", "--alpha", "0,05", "--min-d", "0.1", "--variance", "0.06", "--m", "10"],
     "alpha='0,05' is not a number (a decimal point, not a comma: 0.05?): allowed 0 < alpha"),
    (["table", "anova", "--m", "2,x", "--min-d", "0.1", "--variance", "0.06"], "whole numbers"),
    (["n", "ttest", "--min-dt", "0.1"], "--min-dt needs --variance-t"),
    # was "--variance-t None is not a number": min-d has no --min-dt for it to go with
    (["min-d", "ttest", "--n", "10"], "ttest: error: the following arguments are required: "
                                      "--variance-t\n"),
    (["n", "anova", "--variance", "0.06", "--m", "10"], "required: --min-d"),
])
def test_bad_input_exit_2_one_line(capsys, argv, fragment):
    assert fragment in one_line_error(capsys, *argv)


@pytest.mark.slow
@pytest.mark.parametrize("launcher", ["script", "module"])
def test_installed_command_runs(launcher, script, script_env):
    launcher = script if launcher == "script" else [sys.executable, "-m", "topicsetsize"]
    args = ["n", "anova", "--min-d", "0.1", "--variance", "0.0601", "--m", "10"]
    ok = subprocess.run(launcher + args, capture_output=True, text=True, env=script_env)
    assert ok.returncode == 0 and " 188 " in ok.stdout
    bad = subprocess.run(launcher + args + ["--alpha", "2"], capture_output=True, text=True,
                         env=script_env)
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "topicsetsize: error: --alpha 2 is out of range: allowed 0 < alpha < 1")


def test_min_d_is_rounded_up_never_overstating_the_guarantee(capsys):
    # review: round(x, 6) printed 3e-05 for 3.0305e-05, whose power is only .79
    code, out, _ = run_cli(capsys, "min-d", "anova", "--n", "1000000000", "--m", "2",
                           "--variance", "0.06", "--csv")
    shown = pd.read_csv(io.StringIO(out)).min_d.iloc[0]
    assert code == 0
    assert tss.anova_power(10**9, m=2, min_d=shown, variance=0.06, alpha=0.05) >= 0.8
    assert shown == pytest.approx(tss.anova_min_d(10**9, m=2, variance=0.06, alpha=0.05, beta=0.2),
                                  rel=1e-5)


def test_power_columns_never_round_up_to_the_target(capsys):
    code, out, _ = run_cli(capsys, "n", "anova", "--min-d", "0.02", "--variance", "0.0601", "--m",
                           "2", "--method", "exact", "--csv")
    frame = pd.read_csv(io.StringIO(out))
    assert frame["power(n-1)"].iloc[0] < 0.8 <= frame["power(n)"].iloc[0]


def test_a_legacy_n_short_of_the_exact_power_is_warned(capsys):
    """The legacy row's powers are the approximation's own: where the exact power at the
    legacy n is below 1 − β, one line on stderr gives it and the exact n, whichever method is
    shown; none where the legacy n is enough (or only the exact method is asked for)."""
    argv = ("n", "anova", "--min-d", "0.02", "--variance", "0.0601", "--m", "2")
    # AIRS 2016 Table 2 part I: legacy 2301, exact 2360 (m = 2, minD = .02, σ̂² = .0601)
    power = tss.anova_power(2301, m=2, min_d=0.02, variance=0.0601, alpha=0.05,
                            method="exact")
    assert power < 0.8
    for method in ("legacy", "both"):
        code, out, err = run_cli(capsys, *argv, "--method", method)
        assert code == 0 and err == (
            f"topicsetsize: warning: at the legacy n = 2,301 the exact power is only "
            f"{math.floor(power * 1e6) / 1e6:.6g} < 1 - beta = 0.8 (the legacy powers above are "
            "the approximation's own); the exact method needs n = 2,360 (--method exact)\n")
    assert run_cli(capsys, *argv, "--method", "exact")[2] == ""
    # the paired t-test's legacy n = 159 has exact power .800228 (docs/guide.md): no warning
    code, out, err = run_cli(capsys, "n", "ttest", "--min-dt", "0.05", "--variance-t", "0.05")
    assert tss.ttest_power(159, min_dt=0.05, variance_t=0.05, alpha=0.05, method="exact") >= 0.8
    assert (code, err) == (0, "")


def test_a_legacy_min_d_or_table_short_of_the_exact_power_is_warned(capsys):
    """As for n: the legacy minD that n topics detect, and a legacy table's n, can fall short of
    1 − β under the exact noncentral F; one line on stderr says so (the exact minD; how many
    cells), none with the exact method or where the legacy answer is enough."""
    argv = ("min-d", "anova", "--n", "100", "--m", "10", "--variance", "0.0601")
    code, out, err = run_cli(capsys, *argv, "--csv")
    legacy = pd.read_csv(io.StringIO(out)).min_d.iloc[0]
    # the exact power at the printed legacy minD, by scipy's noncentral F
    crit = stats.f.isf(0.05, 9, 990)
    power = stats.ncf.sf(crit, 9, 990, 100 * legacy ** 2 / (2 * 0.0601))
    exact = tss.anova_min_d(100, m=10, variance=0.0601, alpha=0.05, beta=0.2, method="exact")
    assert power < 0.8 and code == 0
    assert _warnings(err) == (
        f"topicsetsize: warning: at the legacy min_d = {legacy:.6g} the exact power is "
                   f"only {math.floor(power * 1e6) / 1e6:.6g} < 1 - beta = 0.8; the exact "
                   f"method's min_d is {ceil_sig(exact):.6g} (--method exact)\n")
    assert run_cli(capsys, *argv, "--method", "exact")[2] == ""
    # AIRS 2016 Table 2 part I (legacy 2301, 369, 93 for m = 2): every cell short, m = 2 first
    code, out, err = run_cli(capsys, "table", "anova", "--m", "2,10", "--min-d", "0.02,0.05,0.1",
                             "--variance", "0.0601")
    power = tss.anova_power(2301, m=2, min_d=0.02, variance=0.0601, alpha=0.05, method="exact")
    assert code == 0 and err == (
        "topicsetsize: warning: in 6 of 6 cells of the legacy table the exact power at its n is "
        f"below 1 - beta = 0.8 (e.g. m=2, min_d=0.02: n = 2,301 has "
        f"{math.floor(power * 1e6) / 1e6:.6g}); --method exact gives the exact table\n")
    # with --method both the exact table is printed with it: not pointed to as if it were not
    code, out, err = run_cli(capsys, "table", "anova", "--m", "2,10", "--min-d", "0.02,0.05,0.1",
                             "--variance", "0.0601", "--method", "both")
    assert code == 0 and err.endswith("; the exact table is printed with it\n") and "(exact)" in out
    # the paired t-test's legacy table is enough under the exact noncentral t here
    code, out, err = run_cli(capsys, "table", "ttest", "--variance-t", "0.1,0.2", "--min-dt",
                             "0.05,0.1", "--csv")
    table = pd.read_csv(io.StringIO(out))
    assert (tss.ttest_power(table.n.to_numpy(), min_dt=table.min_dt.to_numpy(),
                            variance_t=table.variance_t.to_numpy(), alpha=0.05,
                            method="exact") >= 0.8).all()
    assert (code, err) == (0, "")


def test_min_d_ttest_and_table_both(capsys):
    code, out, err = run_cli(capsys, "min-d", "ttest", "--n", "10", "--variance-t", "1", "--alpha",
                             "0.3", "--beta", "0.8", "--method", "exact", "--csv")
    # power 1 - beta = .2 below alpha = .3: every difference, even 0, has it (and beta = .8 is
    # most likely a power typed as beta: said, test_options.py)
    assert code == 0 and pd.read_csv(io.StringIO(out)).min_dt.iloc[0] == 0.0
    assert err.splitlines() == [f"topicsetsize: warning: {PARAMS['beta'].unusual('beta', 0.8)}"]
    code, out, _ = run_cli(capsys, "table", "anova", "--m", "2", "--min-d", "0.02", "--variance",
                           "0.0601", "--method", "both", "--csv")
    got = pd.read_csv(io.StringIO(out)).set_index("method").n
    assert got["legacy"] == 2301 and got["exact"] == 2360     # AIRS 2016 Table 2, part I


@pytest.mark.slow
def test_few_topics_never_crash_and_match_the_api_over_a_grid(capsys):
    """Legacy ANOVA answers of a few topics: power(n-1) is NaN where Nagata's approximation is
    undefined (cA - a <= 0). The CLI gives the API's n on every cell and never crashes."""
    variances, min_ds, ms = [0.005, 0.02, 0.06], [0.05, 0.2, 0.35, 0.5], [2, 5, 10, 20]
    undefined = 0
    for variance in variances:
        for min_d in min_ds:
            for m in ms:
                argv = ["n", "anova", "--min-d", str(min_d), "--variance", str(variance),
                        "--m", str(m), "--method", "both", "--csv"]
                code, out, err = run_cli(capsys, *argv)
                assert code == 0, argv
                got = pd.read_csv(io.StringIO(out), index_col="method")
                for method in ("legacy", "exact"):
                    n = tss.anova_n(0.05, 0.2, min_d, variance, m, method=method)
                    assert got.loc[method, "n"] == n, (argv, method)
                # a warning exactly where the exact power at the legacy n falls short
                short = tss.anova_power(got.loc["legacy", "n"], m=m, min_d=min_d,
                                        variance=variance, alpha=0.05, method="exact") < 0.8
                err = _warnings(err)
                assert (err.startswith("topicsetsize: warning: at the legacy n") if short
                        else err == ""), (argv, err)
                undefined += int(got["power(n-1)"].isna().sum())
    assert undefined > 0        # the grid does reach the undefined cells


def test_undefined_power_is_spelled_out_with_a_note(capsys):
    code, out, err = run_cli(capsys, "n", "anova", "--min-d", "0.5", "--variance", "0.02", "--m",
                             "2", "--method", "both")
    assert code == 0 and err == ""
    legacy = next(line for line in out.splitlines() if line.startswith("legacy"))
    assert legacy.split() == ["legacy", "3", "undefined", "1.0"]     # API: anova_n(...) = 3
    assert "undefined: the legacy power (Nagata's approximation" in out
    code, out, _ = run_cli(capsys, "n", "anova", "--min-d", "0.5", "--variance", "0.02", "--m", "2",
                           "--csv")
    # the inputs follow the answers (a review, 2026-12-07: a saved n did not say its alpha)
    assert out.splitlines() == ["method,n,power(n-1),power(n),alpha,beta,min_d,variance,m",
                                "legacy,3,,1.0,0.05,0.2,0.5,0.02,2"]
    code, out, _ = run_cli(capsys, "n", "ttest", "--min-delta-t", "50", "--method", "exact")
    row = next(line for line in out.splitlines() if line.startswith("exact")).split()
    assert row[1] == "2" and row[2] == "-" and "-: fewer than 2 topics, no test" in out


@pytest.mark.parametrize("argv, fragment", [
    (["table", "anova", "--m", "2,,10", "--min-d", "0.1", "--variance", "0.05"],
     "argument --m: '2,,10' has an empty item"),
    (["table", "anova", "--m", "2", "--min-d", "0.1,", "--variance", "0.05"],
     "argument --min-d: '0.1,' has an empty item"),
    (["table", "ttest", "--min-dt", "0.1", "--variance-t", ",0.1"],
     "argument --variance-t: ',0.1' has an empty item"),
])
def test_empty_list_items_are_refused_naming_the_option(capsys, argv, fragment):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and fragment in err and err.count("\n") == 1


def test_huge_min_d_and_variance_do_not_overflow(capsys):
    # minD/sigma = 1e200/1e100 = 1e100: an enormous effect, detectable with the fewest topics.
    small = ["--min-d", "1e100", "--variance", "1", "--m", "3", "--method", "both", "--csv"]
    huge = ["--min-d", "1e200", "--variance", "1e200", "--m", "3", "--method", "both", "--csv"]
    code, out_small, _ = run_cli(capsys, "n", "anova", *small)
    code_huge, out_huge, err = run_cli(capsys, "n", "anova", *huge)
    assert code == code_huge == 0 and _warnings(err) == ""
    n_small = pd.read_csv(io.StringIO(out_small), index_col="method").n
    n_huge = pd.read_csv(io.StringIO(out_huge), index_col="method").n
    assert n_huge.tolist() == n_small.tolist() == [3, 2]     # legacy: undefined at n = 2


def test_long_tables_run_in_chunks_with_a_progress_bar(capsys, monkeypatch):
    from contextlib import contextmanager

    from topicsetsize.cli import design

    bars = []

    @contextmanager
    def fake_progress(total, desc, *, disable=None):
        bar = {"total": total, "desc": desc, "done": 0, "disable": disable}
        bars.append(bar)

        class Bar:
            def update(self, k):
                bar["done"] += k
        yield Bar()

    monkeypatch.setattr(design, "_CHUNK_CELLS", 6)            # 3 rows of m per chunk
    monkeypatch.setattr(design, "progress", fake_progress)
    code, out, _ = run_cli(capsys, "table", "anova", "--m", "2-9", "--min-d", "0.05,0.1",
                           "--variance", "0.0601", "--method", "both", "--csv")
    assert code == 0
    assert [(b["total"], b["done"], b["disable"]) for b in bars] == [(3, 3, None), (3, 3, None)]
    got = pd.read_csv(io.StringIO(out))
    for method in ("legacy", "exact"):
        api = tss.anova_table(0.05, beta=0.2, variance=0.0601, ms=list(range(2, 10)),
                              min_ds=[0.05, 0.1], method=method)
        rows = got[got.method == method]
        assert len(rows) == api.size
        for row in rows.itertuples():
            assert row.n == api.loc[row.m, row.min_d]


def test_huge_min_d_is_printed_compactly(capsys):
    # pandas printed the 150-digit integer of 7.9e149.
    assert main(["min-d", "anova", "--n", "50", "--m", "10", "--variance", "1e300"]) == 0
    out = capsys.readouterr().out
    assert "7.91951e+149" in out, out
    assert max(len(line) for line in out.splitlines() if not line.startswith("note:")) < 120


def test_huge_m_in_an_error_is_compact(capsys):
    assert main(["n", "anova", "--m", "1e300", "--min-d", "0.1", "--variance", "0.1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("topicsetsize: error: --m 1e+300 is out of range") and len(err) < 120


def test_one_answer_imports_neither_pandas_nor_scipy_stats():
    """A one-answer command needs numpy and scipy.special only (issue 19: start-up time)."""
    code = ("import sys\nfrom topicsetsize.cli import main\n"
            "main(['n', 'anova', '--min-d', '0.02', '--variance', '0.0601', '--m', '2', "
            "'--method', 'both'])\n"
            "print(sorted(m for m in ('pandas', 'scipy.stats') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert "2301" in lines[3] and "2360" in lines[4]            # the answers are printed
    assert lines[-1] == "[]"


@pytest.mark.parametrize("rows", [
    [{"method": "legacy", "n": 2301, "power(n-1)": 0.799957, "power(n)": 0.8},
     {"method": "exact", "n": 2360, "power(n-1)": 0.79991, "power(n)": 1.0}],
    [{"method": "legacy", "min_d": 0.137048}, {"method": "exact", "min_d": 3.0305e-05}],
    [{"method": "legacy", "min_d": 7.91951e+149}, {"method": "exact", "min_d": 0.5}],
    [{"method": "expected width", "n": 79, "width(n-1)": 0.100504, "width(n)": 0.09985}],
])
def test_report_shows_the_cells_pandas_shows(capsys, rows):
    """The pandas-free report prints, line by line, the cells of ``DataFrame.to_string``."""
    import argparse

    from topicsetsize.cli import design
    from topicsetsize.cli._common import _float_format

    design.print_rows("title", rows, argparse.Namespace(csv=False))
    ours = capsys.readouterr().out.splitlines()[1:]
    frame = pd.DataFrame(rows).set_index("method").astype(object)
    theirs = frame.to_string(float_format=_float_format(frame)).splitlines()
    assert [line.split() for line in ours] == [line.split() for line in theirs]
    design.print_rows("title", rows, argparse.Namespace(csv=True))
    assert capsys.readouterr().out == pd.DataFrame(rows).set_index("method").to_csv(
        lineterminator="\n")


def test_a_precision_warning_is_one_line(capsys):
    """A cell whose certifying powers sit within the power's precision of 1 − β (a reference
    cell of tests/data/anova_large_n_reference.csv): the answer, and the warning in one line
    on stderr like every message of the command line (Python showed two, with a source line)."""
    code, out, err = run_cli(capsys, "n", "anova", "--alpha", "0.2", "--beta", "0.2", "--min-d",
                             "6.0232e-05", "--variance", "0.05", "--m", "2", "--method", "exact")
    assert code == 0 and "124116698" in out
    assert err.count("\n") == 1 and err.startswith("topicsetsize: warning: n=124,116,698 "), err
    assert "may be a topic or two away" in err


def test_a_legacy_min_d_of_zero_from_the_approximation_is_said(capsys):
    # alpha = .5, beta = .49: Nagata's approximation has power .515 >= .51 at no difference at
    # all, so the legacy min_d is 0, printed without a word (a reviewer's find); the exact
    # test has power alpha = .5 there, and its min_d is positive
    assert tss.anova_power(100, m=10, min_d=1e-9, variance=0.1, alpha=0.5) >= 0.51
    code, out, err = run_cli(capsys, "min-d", "anova", "--n", "100", "--m", "10", "--variance",
                             "0.1", "--alpha", "0.5", "--beta", "0.49")
    exact = tss.anova_min_d(100, m=10, variance=0.1, alpha=0.5, beta=0.49, method="exact")
    assert code == 0 and "legacy   0.0" in out and exact > 0
    assert ("warning: the legacy min_d = 0 detects nothing: the legacy approximation reaches "
            "1 - beta with no difference at all") in err
    assert f"the exact method's min_d is {ceil_sig(exact):.6g}" in err


@pytest.mark.parametrize("argv, first", [
    (["n", "anova", "--min-d", "0.1", "--variance", "188.2", "--m", "8", "--method", "both"],
     "topicsetsize: warning: variance=188.2 is beyond what scores in [0, 1] can give"),
    (["table", "ttest", "--variance-t", "0.1", "--min-dt", "0.05,10"],
     "topicsetsize: warning: min_dt=10 is beyond what scores in [0, 1] can give"),
    (["recommend", "--require", "variance=188,m=10,min_d=0.1"],
     "topicsetsize: warning: variance=188 is beyond"),
])
def test_a_slipped_scale_is_noted_once_and_the_answer_printed(capsys, argv, first):
    # the legacy and exact tables, then the exact powers of the legacy table: several engine
    # calls on the same inputs, one note (topicsetsize.designs.scales)
    code, out, err = run_cli(capsys, *argv)
    lines = err.splitlines()
    assert code == 0 and out
    assert lines[0].startswith(first)
    assert sum("is beyond what scores in [0, 1] can give" in line for line in lines) == 1
    code, again, _ = run_cli(capsys, *[a.replace("188.2", "0.0601").replace("188", "0.0601")
                                      .replace("0.05,10", "0.05,0.1") for a in argv])
    assert code == 0 and "beyond what scores" not in _


@pytest.mark.parametrize("argv", [
    ["min-d", "anova", "--n", "3", "--variance", "0.25", "--m", "10"],     # minD = 1.69
    ["min-d", "ttest", "--n", "3", "--variance-t", "0.2"],
    ["guarantees", "--n", "3,50", "--variance", "0.05"],
    ["n", "ttest", "--min-delta-t", "3"],                     # an effect size has no scale
])
def test_values_the_command_computes_are_not_noted(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and out and "beyond what scores in [0, 1]" not in err, err


def test_a_minimum_difference_no_unit_scores_can_show_is_said(capsys):
    """A budget review (2026-12-07): `min-d anova --n 2 --m 10 --variance 0.0601` printed a
    minD of 1.38685 and nothing else, where AP (V_E .0601 fits scores in [0, 1]) never differs
    by more than 1: 2 topics detect nothing. A note says so, beside the number (on stderr with
    --csv); a difference within 1, or a variance beyond [0, 1] scores, gets none."""
    code, out, _ = run_cli(capsys, "min-d", "anova", "--n", "2", "--m", "10", "--variance",
                           "0.0601", "--method", "exact")
    shown = float(out.splitlines()[3].split()[1])
    assert code == 0 and shown > 1.0 and tss.anova_power(
        2, m=10, min_d=1.0, variance=0.0601, alpha=0.05, method="exact") < 0.8   # 1 lacks it
    assert (f"note: min_d={shown:g} at n=2 is more than scores in [0, 1] can differ (at most "
            "1), and variance=0.0601 fits such scores: if they lie in [0, 1], 2 topics detect "
            "no difference they can show") in out
    code, out, err = run_cli(capsys, "min-d", "ttest", "--n", "2", "--variance-t", "0.1",
                             "--csv")
    assert "note: min_dt=" in err and "note" not in out
    for args in (["--n", "30", "--variance-t", "0.1"], ["--n", "2", "--variance-t", "3"]):
        assert "scores in [0, 1]" not in "".join(run_cli(capsys, "min-d", "ttest", *args)[1:])


def test_a_ci_answer_says_how_often_its_own_interval_is_wider(capsys):
    """A Monte Carlo review (2026-12-07): `n ci --alpha 0.01 --delta 0.1 --variance-t 0.1202`
    answered 323 under a note about delta = .1, variance_t = .05 and 79 or 89 topics, the
    design's fixed example. The note is now on the user's own inputs and answer (the share
    against Monte Carlo: tests/topicsetsize/designs/test_width_spread.py)."""
    from topicsetsize.designs.width_spread import width_caveat

    for argv, key, values in (
            (["ci", "--alpha", "0.01", "--delta", "0.1", "--variance-t", "0.1202"], "ci",
             {"alpha": 0.01, "delta": 0.1, "variance_t": 0.1202}),
            (["ci2", "--delta", "0.1", "--variance", "0.0127", "--csv"], "ci2",
             {"alpha": 0.05, "delta": 0.1, "variance": 0.0127})):
        code, out, err = run_cli(capsys, "n", *argv)
        n = getattr(tss, f"{key}_n")(values["alpha"], values["delta"], list(values.values())[2])
        name = tss.designs.registry.DESIGNS[key].name
        assert code == 0 and f"note: {name}: {width_caveat(key, n, values)}\n" in out + err
        assert f"at the {n} topics" in out + err and "0.05: at the 79" not in out + err


def test_min_d_with_both_methods_keeps_the_exact_row_where_legacy_is_undefined(capsys):
    """A parity review (2026-12-07): `min-d anova --n 2 --m 2 --method both` exited 2 ("too
    small for the legacy approximation") and printed no exact row, which the API and the
    workbook give. The legacy row is now "undefined" (empty in CSV) beside the exact one; the
    legacy method alone still refuses in one line."""
    code, out, _ = run_cli(capsys, "min-d", "anova", "--n", "2", "--m", "2", "--variance",
                           "0.0601", "--method", "both", "--csv")
    frame = pd.read_csv(io.StringIO(out), index_col="method")
    want = tss.anova_min_d(2, m=2, variance=0.0601, alpha=0.05, beta=0.2, method="exact")
    assert code == 0 and math.isnan(frame.min_d["legacy"])
    assert want <= frame.min_d["exact"] <= want * (1 + 1e-5)          # rounded up, 6 digits
    err = one_line_error(capsys, "min-d", "anova", "--n", "2", "--m", "2", "--variance", "0.0601")
    assert "too small for the legacy approximation" in err


@pytest.mark.parametrize("key", [d.key for d in DESIGNS.values()
                                 if len(d.methods) == 1 and d.key not in OWN_MODULE])
def test_a_method_the_design_lacks_is_refused_by_name(capsys, key):
    # a review, 2026-12-07: `n ci --method legacy` got argparse's "unrecognized arguments"
    design = DESIGNS[key]
    (only,) = design.methods
    other = next(m for m in ("legacy", "exact") if m != only)
    for command in ("n", "power"):
        err = one_line_error(capsys, command, key, "--method", other)
        assert f"argument --method: invalid choice: '{other}' (choose from '{only}')" in err


_BUDGET = ["budget", "--depths", "100,30", "--docs-per-topic", "731,253", "--variance",
           "0.14,0.1525", "--m", "10", "--min-d", "0.1"]


@pytest.mark.parametrize("argv", [
    ["n", "anova", "--min-d", "0.05", "--variance", "0.0451", "--m", "10"],
    ["recommend", "--require", "label=Robust AP,variance=0.0451,m=10,min_d=0.05"],
    ["guarantees", "--n", "50", "--variance", "0.0451"],
    _BUDGET])
@pytest.mark.parametrize("csv", [False, True])
def test_a_decision_on_the_one_way_design_says_its_caveat(capsys, argv, csv):
    # a review, 2026-12-07: recommend said "Create 570 topics: this guarantees 80% power" for
    # Robust04 AP, m = 10, where n anova notes that on shared topics the one-way test rejects
    # far less often than its theory says; every command whose n is the one-way design's now
    # says the declared caveat as n anova does (stdout; with --csv, stderr)
    code, out, err = run_cli(capsys, *argv, *(["--csv"] if csv else []))
    instead = {"budget": " (here: --design anova2, with each depth's V_E2 as --variance)",
               "recommend": " (here: --design anova2, with each requirement's V_E2 as its "
                            "variance)",
               "guarantees": " (here: --design anova2, with V_E2 as --variance)"}
    # (the commands that size the other design too: every decision now)
    said = CAVEAT[:-1] + instead.get(argv[0], "") + "\n"
    assert code == 0 and said in (err if csv else out), (out, err)
    assert CAVEAT[:-1] not in (out if csv else err)
