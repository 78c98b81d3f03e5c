"""``topicsetsize report``: the figures beside each other, CSV, the PNG plot, one-line errors.

The numbers are checked against the engine's own functions (each tested on its own in
tests/topicsetsize/estimates/test_gtheory.py, test_differences.py and test_summary.py) on the
bundled
TREC 2010 Web AP matrix and the TREC 2004 Robust AP matrix of tests/data. Their runs that are
copies of others (10 in Web, sys69 = sys67 in Robust) count once in the differences and the minD
candidates: those are recounted here on the matrix without its copies (``distinct``, pandas).
"""

from __future__ import annotations

import io
import sys

import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.cli import main
from topicsetsize.cli._common import fixed
from topicsetsize.estimates.gtheory import gt_n_interval
from topicsetsize.examples import example_matrix
from topicsetsize.report import MIN_D_HELD_FIXED

from .conftest import one_line_error, run_cli

#: The warnings that name the copies of runs in the two real matrices, as the report says them.
WEB_COPIES = ("topicsetsize: warning: example: TREC 2010 Web AP: 10 runs are copies of others "
              "(identical scores on every topic): sys58 = sys4, sys59 = sys5, sys63 = sys24, "
              "sys64 = sys25, sys65 = sys26, sys67 = sys66, sys75 = sys37, sys83 = sys41, sys84 "
              "= sys43, sys86 = sys49; counted once (a copy is not another system): in the "
              "differences between run means and the minD candidates; the variance estimates "
              "(V_E, V_E2, the G-study's components) keep every run\n")


def robust_copies(path) -> str:
    return (f"topicsetsize: warning: {path}: 1 run is a copy of another (identical scores on "
            "every topic): sys69 = sys67; counted once (a copy is not another system): in the "
            "differences between run means and the minD candidates; the variance estimates "
            "(V_E, V_E2, the G-study's components) keep every run\n")


def distinct(scores: pd.DataFrame) -> pd.DataFrame:
    """The matrix without the runs that repeat an earlier run on every topic (pandas)."""
    return scores.T.drop_duplicates().T


@pytest.mark.slow
def test_text_report_side_by_side(capsys, data_dir):
    robust = data_dir / "trec2004robust_ap.csv"
    code, out, err = run_cli(capsys, "report", "--example", str(robust))
    assert code == 0 and err == (WEB_COPIES + robust_copies(robust)
                                 + "topicsetsize: read example: TREC 2010 Web AP: 48 topics x 88 "
                                 f"runs\ntopicsetsize: read {robust}: 249 topics x 110 runs\n")
    header = next(line for line in out.splitlines() if "example: TREC 2010 Web AP" in line)
    assert str(robust) in header                      # the two matrices side by side
    g = tss.g_study(example_matrix())
    d = tss.d_study(g)
    assert f"{g.var_s:.6f}" in out and f"{g.var_e:.6f}" in out
    assert f"{d.erho2:.4f} [{d.erho2_low:.4f}, {d.erho2_high:.4f}]" in out
    assert f"{d.phi:.4f} [{d.phi_low:.4f}, {d.phi_high:.4f}]" in out
    line = next(x for x in out.splitlines() if x.startswith("n for Phi >= 0.95 [CI]"))
    g2 = tss.g_study(pd.read_csv(robust, index_col=0))
    expected = []
    for gs in (g, g2):
        ci = gt_n_interval(gs, 0.95, coefficient="phi")
        expected += [str(tss.gt_n(gs, 0.95, coefficient="phi")), f"[{ci.low},", f"{ci.high}]"]
    assert line.split()[-6:] == expected
    rows = [x for x in out.splitlines() if x.startswith("top-k range") and "[" not in x]
    assert len(rows) == 2                           # (the rows with "[" are the intervals on n)
    table = tss.realistic_min_d(example_matrix())
    expected = table.loc["top-k range", ["n one-way legacy", "n one-way exact",
                                         "n two-way exact"]].astype(int).astype(str).tolist()
    assert rows[0].split()[-3:] == expected


@pytest.mark.slow
def test_distribution_of_differences(capsys, data_dir):
    """The all-pairs / top-k / best-vs-others table, recounted here with itertools on the 109
    distinct runs (sys69, a copy of sys67, is counted once: both are among the top 10)."""
    import itertools
    import statistics

    robust = data_dir / "trec2004robust_ap.csv"
    code, out, _ = run_cli(capsys, "report", str(robust))
    assert code == 0
    means = sorted(distinct(pd.read_csv(robust, index_col=0)).mean().tolist(), reverse=True)
    groups = [[abs(a - b) for a, b in itertools.combinations(means, 2)],
              [abs(a - b) for a, b in itertools.combinations(means[:10], 2)],
              [means[0] - v for v in means[1:]]]
    lines = out.splitlines()
    start = next(k for k, x in enumerate(lines) if "differences between run means" in x)
    assert lines[start + 1].split() == ["all", "pairs", "top-k", "pairs", "best", "vs", "others"]
    rows = {x.split()[0]: x.split()[1:] for x in lines[start + 2:start + 9]}
    assert rows["pairs"] == ["5886", "45", "108"]       # 109 x 108 / 2; 10 x 9 / 2; 109 - 1
    assert rows["median"] == [fixed(statistics.median(g)) for g in groups]
    assert rows["min"] == [fixed(min(g)) for g in groups]
    assert rows["max"] == [fixed(max(g)) for g in groups]
    assert min(groups[1]) > 0.0004 and rows["min"][1] == fixed(min(groups[1]))   # no 0 from a copy


@pytest.mark.slow
def test_own_candidates(capsys):
    code, out, _ = run_cli(capsys, "report", "--example", "--min-d", "0.05,0.1")
    assert code == 0
    d = tss.run_differences(distinct(example_matrix())).all_pairs
    row = next(x for x in out.splitlines() if x.startswith("minD=0.1 "))
    # share of all 3,003 pairs of distinct runs differing by >= .1, counted here; n from the
    # engine, with V_E of every run (the copies kept)
    assert len(d) == 3003
    share = sum(1 for x in d if x >= 0.1) / len(d)
    v = tss.residual_variance(example_matrix())
    # min_d, (no uncorrected value), pairs, share, se, above noise, n one-way legacy
    fields = row.split()
    assert fields[1:4] == ["0.1000", "all", f"{share:.1%}"]
    assert fields[6] == str(tss.anova_n(0.05, 0.2, 0.1, v, 10))


@pytest.mark.slow
def test_titles_say_the_figures_are_rounded_and_where_to_copy_them(capsys):
    # a real-data review, 2026-12-07: TREC 2010 Web's top-k range min_d .008012 shows as 0.0080
    # and its V_E .0084433 as 0.0084; copied, they size 4,089 topics where the report says 4,097
    code, out, _ = run_cli(capsys, "report", "--example", "--min-d", "0.008012")
    assert code == 0
    lines = out.splitlines()
    note = "the figures are rounded: copy a V_E or a min_d from --csv, which has every digit"
    assert note in lines[1]                                   # the G-theory table's title
    row = next(x for x in lines if x.startswith("minD=0.008012 "))
    shown_d = float(row.split()[1])
    title = lines[lines.index(row) - 1::-1]                   # the min_d table's title above
    assert any(note in x for x in title[:8])
    v = tss.residual_variance(example_matrix())
    shown_v = float(next(x for x in lines if x.startswith("V_E raw")).split()[-1])
    n, n_shown = (tss.anova_n(0.05, 0.2, d, var, 10) for d, var in ((0.008012, v),
                                                                      (shown_d, shown_v)))
    # the row's n one-way legacy (after min_d, pairs, share, se, above noise)
    assert int(row.split()[6]) == n and n_shown < n      # the rounded figures lose topics


@pytest.mark.slow
def test_csv_one_row_per_matrix_full_precision(capsys):
    code, out, _ = run_cli(capsys, "report", "--example", "--csv", "--top-k", "5",
                           "--target", "0.9", "--level", "0.9")
    assert code == 0
    table = pd.read_csv(io.StringIO(out), index_col=0)
    assert len(table) == 1
    row = table.iloc[0]
    r = tss.collection_report(example_matrix(), top_k=5, target=0.9, level=0.9)
    assert row["Phi low"] == pytest.approx(r.dstudy.phi_low, rel=1e-12)
    assert row["n for Erho2 >= 0.9"] == r.n_erho2
    ci = gt_n_interval(r.gstudy, 0.9, level=0.9)
    assert (row["n for Erho2 >= 0.9 low"], row["n for Erho2 >= 0.9 high"]) == (ci.low, ci.high)
    assert ci.low < r.n_erho2 < ci.high
    assert row["top-k median: min_d"] == pytest.approx(r.min_d.loc["top-k median", "min_d"])
    assert row["top-k median: n two-way exact"] == r.min_d.loc["top-k median",
                                                               "n two-way exact"]
    assert r.m == 5
    # what its n were sized with, after the figures (a saved file says it)
    assert (row["alpha"], row["beta"], row["m"], row["top_k"], row["reliability target"]) == (
        r.alpha, r.beta, r.m, 5, 0.9)
    assert table.columns[-1] == "reliability target"


@pytest.mark.slow
def test_plot_writes_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "fig.png"
    assert main(["report", "--example", "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]
    assert f"wrote {png}" in capsys.readouterr().out


def test_plot_without_matplotlib(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    err = one_line_error(capsys, "report", "--example", "--plot", str(tmp_path / "f.png"))
    assert "pip install 'topicsetsize[plot]'" in err


@pytest.mark.parametrize("argv, message", [
    ([], "give at least one FILE"),
    (["--example", "--target", "1.5"], "target=1.5"),
    (["--example", "--level", "0"], "level=0"),
    (["--example", "--top-k", "1"], "top_k=1"),
    (["--example", "--b", "1"], "--b 1 is out of range: allowed 0 < b < 1"),
    (["--example", "--a", "0"], "--a 0 is out of range: allowed a > 0"),
    (["--example", "--plot", "fig.pdf"], "must end in .png"),
    (["--example", "--min-d", "0.1,0"], "--min-d 0 is out of range"),
    (["--example", "--min-d", "0.1,x"], "not a comma-separated list of numbers"),
    (["no-such-file.csv"], "no-such-file.csv"),
])
def test_errors_are_one_line(capsys, argv, message):
    assert message in one_line_error(capsys, "report", *argv)


def test_a_near_constant_matrix_is_refused_as_constant(capsys, tmp_path):
    # scores of 0.5 varying at 1e-15: the G-study said Erho2 = 0 while Sakai's n came to
    # hundreds of topics from the same rounding noise; now one line says it is treated as
    # constant by both
    import numpy as np

    rng = np.random.default_rng(1)
    path = tmp_path / "near.csv"
    pd.DataFrame(0.5 + rng.normal(size=(30, 5)) * 1e-15).to_csv(path, float_format="%.17g")
    assert main(["report", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"topicsetsize: error: {path}: scores vary only at rounding level")
    assert "treated as constant, by V_E and the G-study alike" in err


@pytest.mark.slow
def test_m_sets_the_top_group_and_rows_say_their_pairs(capsys, data_dir):
    """--m 20: the top-k rows come from the 20 best runs (their 190 pairs), and say so; a
    different --top-k is one line before any matrix is read."""
    robust = str(data_dir / "trec2004robust_ap.csv")
    code, out, _ = run_cli(capsys, "report", robust, "--m", "20")
    assert code == 0
    row = next(x for x in out.splitlines() if x.startswith("top-k range"))
    table = tss.realistic_min_d(pd.read_csv(robust, index_col=0), m=20)
    assert row.split()[2:6] == [fixed(table.loc['top-k range', 'min_d']),
                                fixed(table.loc['top-k range', 'uncorrected']), "top", "20"]
    assert "pairs among the top 20 runs" in out and "190" in out
    assert "the top 20 picked on a random half of the topics" in out
    assert "note:" in out and "cannot tell from zero" in out
    err = one_line_error(capsys, "report", "no/such/file.csv", "--top-k", "10", "--m", "20")
    assert "--top-k 10 and --m 20" in err


@pytest.mark.slow
def test_n_with_its_bootstrap_interval_equals_the_engine(capsys):
    """Every n of the minD table is printed with its 95% interval, the seed that repeats it,
    and the CSV has the same limits as the engine (topicsetsize.report.min_d_intervals)."""
    from topicsetsize.report import collection_report, interval_table

    code, out, err = run_cli(capsys, "report", "--example", "--seed", "7", "--boot", "500")
    assert code == 0
    assert err == WEB_COPIES + "topicsetsize: read example: TREC 2010 Web AP: 48 topics x 88 runs\n"
    assert "500 resamples, seed=7 (--seed 7 repeats it)" in out
    table = interval_table(collection_report(example_matrix(), n_boot=500, seed=7))
    row = table.loc["top-k range"]
    shown = next(x for x in out.splitlines() if x.startswith("top-k range") and "[" in x)
    for name in ("n one-way legacy", "n one-way exact", "n two-way exact"):
        n, low, high = (int(row[name + k]) for k in ("", " low", " high"))
        assert f"{n} [{low}, {high}]" in shown
        assert row[name + " low"] < row[name] < row[name + " high"]
    code, csv, _ = run_cli(capsys, "report", "--example", "--seed", "7", "--boot", "500",
                           "--csv")
    wide = pd.read_csv(io.StringIO(csv), index_col=0).iloc[0]
    assert wide["top-k median: n two-way exact high"] == table.loc["top-k median",
                                                                    "n two-way exact high"]
    assert (wide["seed"], wide["n_boot"], wide["interval method"]) == (7, 500, "expanded")


def test_boot_zero_prints_no_interval_and_a_bad_boot_is_one_line(capsys):
    code, out, _ = run_cli(capsys, "report", "--example", "--boot", "0")
    assert code == 0 and "[low, high]" not in out
    message = one_line_error(capsys, "report", "--example", "--boot", "50")
    assert message.startswith("topicsetsize: error: --boot 50 is out of range: allowed 100")


@pytest.mark.parametrize("boot, expected", [
    ("10000000", "--boot 10000000 is out of range: allowed 100 <= --boot <= 1000000 (a whole "
                 "number), or 0 for no interval"),
    ("1e9", "--boot 1000000000 is out of range"),
    ("1.5", "argument --boot: '1.5' is not a whole number")])
def test_a_bad_boot_names_boot_and_takes_1e9_as_trials_does(capsys, boot, expected):
    """Review item 10: the old errors named n_boot (the API's name), and 1e9 was argparse's
    'invalid int value'."""
    message = one_line_error(capsys, "report", "--example", "--boot", boot)
    assert expected in message and "n_boot" not in message


def test_boot_takes_a_whole_number_in_e_notation(capsys):
    code, out, _ = run_cli(capsys, "report", "--example", "--boot", "1e2")
    assert code == 0 and "100 resamples, seed=0" in out


def test_boot_help_states_the_registry_default():
    from topicsetsize.cli._bootstrap import BOOT_HELP
    from topicsetsize.params import N_BOOT

    assert f"default {N_BOOT};" in BOOT_HELP


def test_a_top_group_larger_than_the_runs_is_refused(capsys, tmp_path):
    # --m 1000 on 88 runs used the top 88 without a word; now one line names the flag, the
    # value and the range (the line before it says which matrix was read): the 78 distinct
    # runs, the 10 copies counted once
    path = tmp_path / "w.csv"
    example_matrix().to_csv(path)
    for flag in ("--m", "--top-k"):
        code, out, err = run_cli(capsys, "report", str(path), flag, "1000")
        assert code == 2 and out == "" and "Traceback" not in err
        assert err.splitlines()[-1] == (f"topicsetsize: error: {flag}=1000 is out of range: "
                                        f"allowed 2 <= {flag} <= 78 (the distinct runs of {path})")
    with pytest.raises(tss.InputError, match=r"^m=79 is out of range: allowed 2 <= m <= 78"):
        tss.collection_report(example_matrix(), m=79)
    # the largest allowed top group is accepted (1000 halves: the values are not what is
    # tested here, and 3,003 pairs x the default 64,000 halves cost 7 s)
    assert run_cli(capsys, "report", str(path), "--m", "78", "--boot", "0",
                   "--trials", "1000")[0] == 0


@pytest.mark.slow
def test_notes_for_rows_not_told_apart_and_corrections_above_the_seen(capsys, data_dir):
    robust = data_dir / "trec2004robust_ap.csv"
    code, out, _ = run_cli(capsys, "report", str(robust), "--m", "2", "--boot", "0")
    assert code == 0
    # Robust's best two runs (sys74, sys75): -0.0005 at the default 64,000 halves
    # (topicsetsize.params.N_HALVES, seed 0)
    assert (f"note: {robust}: top-k range: min_d -0.0005: the top runs are not told apart; "
            "no n") in out.splitlines()
    code, out, _ = run_cli(capsys, "report", str(robust), "--boot", "0")
    line = next(x for x in out.splitlines() if "corrected for selection)" in x)
    # 0.0323 at the default 64,000 halves; 0.0326 at 1000 (seed 0)
    assert line.startswith("note: ") and "top-k range: min_d 0.0323" in line
    assert "> 0.0311 uncorrected, share 0%: no pair of the past top 10 runs" in line


# --- The Monte Carlo error of the corrected candidates, and --trials ----------------------------

@pytest.mark.slow
def test_the_min_d_table_shows_mc_se_and_the_note_to_raise_trials(capsys):
    """mc_se: its header line, the API's values (5 decimals) in the corrected rows before the
    n, empty in the others; the note of mc_error_note with --trials; the intervals on n say
    they hold min_d fixed."""
    from topicsetsize.decide.realistic import mc_error_note

    code, out, _ = run_cli(capsys, "report", "--example", "--boot", "100")
    assert code == 0
    assert ("mc_se = Monte Carlo standard error of a corrected min_d over those halves (how far "
            "another --seed moves it; four times the --trials halves it)") in out
    table = tss.realistic_min_d(example_matrix())
    lines = out.splitlines()
    for candidate in ("top-k range", "top-k median", "top-k 25%"):
        row = next(x for x in lines if x.startswith(candidate) and "[" not in x)
        assert row.split()[-4] == fixed(table.loc[candidate, 'mc_se'], 5)
    row = next(x for x in lines if x.startswith("all-pairs median") and "[" not in x)
    assert row.split()[-4] == "yes"                       # no mc_se: above noise, then the n
    assert (f"note: example: TREC 2010 Web AP: {mc_error_note(table, option='--trials')}"
            in lines)
    # the engine's sentence, which the workbook's Report sheet writes too
    assert MIN_D_HELD_FIXED in lines
    assert MIN_D_HELD_FIXED.startswith("min_d is held fixed: the intervals cover the sampling "
                                       "of the past topics in V_E and V_E2 only")


@pytest.mark.slow
def test_the_notes_are_the_engines_table_notes(capsys, data_dir):
    """Every note under a minD table is a line of table_notes, in its order (the workbook's
    Report sheet writes the same lines): here min_d_notes' (Robust's corrected range above its
    uncorrected one), mc_error_note's (Web's 25% row) and the noise note (both)."""
    from topicsetsize.decide.realistic import table_notes

    robust = data_dir / "trec2004robust_ap.csv"
    code, out, _ = run_cli(capsys, "report", "--example", str(robust), "--boot", "0")
    assert code == 0
    for name, scores in (("example: TREC 2010 Web AP", example_matrix()),
                         (str(robust), pd.read_csv(robust, index_col=0))):
        want = [f"note: {name}: {line}" for line in table_notes(tss.realistic_min_d(scores))]
        assert len(want) == 2
        assert [x for x in out.splitlines() if x.startswith(f"note: {name}: ")] == want


def test_trials_sets_the_halves(capsys):
    code, out, _ = run_cli(capsys, "report", "--example", "--boot", "0", "--trials", "5e2")
    table = tss.realistic_min_d(example_matrix(), trials=500)
    row = next(x for x in out.splitlines() if x.startswith("top-k range"))
    assert code == 0 and "mean over 500 halves (seed 0)" in out
    assert row.split()[2] == fixed(table.loc['top-k range', 'min_d'])
    assert row.split()[-4] == fixed(table.loc['top-k range', 'mc_se'], 5)
    code, out, _ = run_cli(capsys, "report", "--example", "--boot", "0", "--trials", "1")
    assert code == 0 and ("note: example: TREC 2010 Web AP: --trials 1: one random half gives "
                          "no Monte Carlo error") in out


@pytest.mark.parametrize("trials, expected", [
    ("0", "argument --trials: trials=0 is out of range: allowed 1 <= trials <= 100000000 "
          "(a whole number)"),
    ("1e9", "argument --trials: trials=1000000000 is out of range"),
    ("1.5", "argument --trials: trials=1.5 is not a whole number"),
    ("many", "argument --trials:")])
def test_a_bad_trials_is_one_line(capsys, trials, expected):
    assert expected in one_line_error(capsys, "report", "--example", "--trials", trials)


def test_too_many_trials_are_refused_without_force(capsys):
    message = one_line_error(capsys, "report", "--example", "--trials", "1e8")
    # 13 minutes since the estimate has a cost per half (5.2 us measured on this matrix at
    # 64,000 halves, the new default); the single rate of 1e8 scores a second said 1 hour
    assert ("--trials 100,000,000 halves of 4,224 scores would take about 13 minutes" in message
            and "--force" in message)


@pytest.mark.slow
def test_csv_has_the_mc_se_of_each_candidate(capsys):
    code, out, _ = run_cli(capsys, "report", "--example", "--boot", "0", "--csv")
    row = pd.read_csv(io.StringIO(out), index_col=0).iloc[0]
    table = tss.realistic_min_d(example_matrix())
    assert code == 0
    assert row["top-k median: mc_se"] == pytest.approx(table.loc["top-k median", "mc_se"])
    assert pd.isna(row["all-pairs median: mc_se"])


def test_scores_on_a_small_scale_do_not_read_as_zeros(capsys, tmp_path):
    """TREC 2010 Web AP / 100: the report printed V_E, the variance components, the
    differences and the minD candidates as 0.0000 (4 or 6 decimals); each shows to 3
    significant digits now, 1/100 (or 1/10,000 for a variance) of the same matrix's own."""
    web = example_matrix()
    small = tmp_path / "small.csv"
    (web.iloc[:, :12] / 100).to_csv(small)
    assert main(["report", str(small), "--boot", "0", "--trials", "200"]) == 0
    out = capsys.readouterr().out
    rows = {line[:20].strip(): line[20:].split() for line in out.splitlines()}
    expected = tss.collection_report(web.iloc[:, :12] / 100, trials=200)
    assert rows["V_E raw"] == [fixed(expected.summary.var_raw)]
    assert abs(expected.summary.var_raw
               - tss.collection_report(web.iloc[:, :12], trials=200).summary.var_raw / 1e4) < 1e-15
    assert rows["sigma2_e (residual)"] == [fixed(expected.gstudy.var_e, 6)]
    assert "0.0000" not in rows["V_E raw"][0] and "e-0" in rows["V_E raw"][0]


@pytest.mark.parametrize("rows", [
    "t1,0,1,0.5\nt2,0,1,0.5\nt3,0,1,0.5\n",             # V_E exactly 0
    "t1,0.2,0.5,0.1\nt2,0.2,0.5,0.1\nt3,0.2,0.5,0.1\n",  # 4.8e-34: 0 up to rounding
])
@pytest.mark.parametrize("command", ["report", "workbook"])
def test_runs_constant_over_the_topics_are_said_as_such(capsys, tmp_path, rows, command):
    # report said "variance=0 is out of range" (an argument never typed), or sized n = 2 on
    # the rounding noise 4.81e-34; workbook --matrix the former, without the file (a
    # reviewer's find): both say what variance says of such a matrix
    path = tmp_path / "const.csv"
    path.write_text(",a,b,c\n" + rows)
    argv = [command, str(path)] if command == "report" else [
        command, "--matrix", str(path), "--out", str(tmp_path / "w.xlsx")]
    message = one_line_error(capsys, *argv)
    assert message.endswith("const.csv: V_E raw = 0 (every run scores the same on every topic): "
                            "no topic set size can be sized on it\n")
    assert not (tmp_path / "w.xlsx").exists()


def test_tied_run_means_are_refused_in_words(capsys, tmp_path):
    # since 2026-12-07 summarise gives tied run means an undefined tau rather than refusing;
    # the report's minD (differences that occur between runs) still has nothing to go on, and
    # says so, with the file's name, where it said "min_d is empty"
    path = tmp_path / "tie3.csv"
    path.write_text("topic,a,b,c\n1,0.1,0.3,0.2\n2,0.3,0.1,0.2\n3,0.2,0.2,0.2\n",
                    encoding="utf-8")
    err = one_line_error(capsys, "report", str(path))
    assert f"{path}: the runs' mean raw scores are all equal (every value is 0.2): no " \
           "difference occurs between its runs, so the report has no minD to size for" in err
