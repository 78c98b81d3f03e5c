"""``topicsetsize variance``: the Table-1 row, CSV output, one-line errors with exit status 2."""

from __future__ import annotations

import io
import subprocess

import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from tests.topicsetsize.estimates.test_summary import independent_row as expected_row
from topicsetsize.cli import main
from topicsetsize.matrices.writers import write_trec_eval


@pytest.fixture(scope="module")
def web(data_dir) -> pd.DataFrame:
    return pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)


def test_example_prints_the_row(capsys, web):
    assert main(["variance", "--example"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("example: TREC 2010 Web AP"))
    e = expected_row(web)
    assert row.split()[5:9] == ["88", "48", f"{e['var_raw']:.4f}", f"{e['var_std_ab']:.4f}"]
    assert f"{e['tau']:.3f} [" in row
    # the two-way V_E beside them, raw and std-AB (test_summary checks them against statsmodels)
    assert row.split()[9:11] == ["0.0045", "0.0167"]
    assert "V_E2 raw" in out and "V_E2 std-AB" in out
    # which to size with (a reviewer's find, 2026-12-06: Robust04's std-AB .0162 with a raw minD
    # of .05 gives 203 topics where its raw .0451 gives 563)
    assert ("size n with the one on minD's scale (a std-AB variance goes with a minD between "
            "std-AB scores, a raw one with a minD between raw scores)") in out.splitlines()[0]
    # and where to copy it from (a docs review, 2026-12-07: TREC 2010 Web's V_E raw .0084433
    # shows as 0.0084, and m = 20, minD = .05 exact needs 140 topics at the one, 139 at the other)
    assert "shown to 4 decimals: copy a variance from --csv" in out.splitlines()[0]


def test_scores_beyond_0_1_are_noted(capsys, web, tmp_path):
    # TREC 2010 Web AP in percent: the raw variances are 10^4 times larger, the std-AB ones the
    # same, and a note says a minD sized on the raw ones must be in percent too
    assert main(["variance", "--example"]) == 0
    assert "not within [0, 1]" not in capsys.readouterr().out
    percent = tmp_path / "percent.csv"
    (web * 100).to_csv(percent)
    assert main(["variance", str(percent)]) == 0
    out = capsys.readouterr().out
    top = float(np.max(web.to_numpy())) * 100
    assert f"note: {percent}: the scores run from 0 to {top:.6g}, not within [0, 1]" in out
    e = expected_row(web)
    row = next(line for line in out.splitlines() if line.startswith(str(percent)))
    assert row.split()[3:5] == [f"{1e4 * e['var_raw']:.4f}", f"{e['var_std_ab']:.4f}"]


def test_unclipped_tau_interval_is_explained(capsys, web, tmp_path):
    # TREC 2010 Web AP: tau = .888 [.746, 1.030]: Sakai's interval is not clipped to [-1, 1]
    assert main(["variance", "--example"]) == 0
    out = capsys.readouterr().out
    assert "1.030]" in out and "kept unclipped as published" in out
    # noise on topics of very different spread, 100 runs: standardising reorders the runs, tau is
    # far from 1 and its interval stays inside [-1, 1]
    inside = tmp_path / "inside.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame(rng.random((40, 100)) * np.exp(rng.normal(0, 2, (40, 1)))).to_csv(inside)
    assert main(["variance", str(inside), "--csv"]) == 0
    row = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0).iloc[0]
    assert -1 <= row["tau_ci_low"] and row["tau_ci_high"] <= 1
    assert main(["variance", str(inside)]) == 0
    assert "kept unclipped as published" not in capsys.readouterr().out


def test_csv_output_full_precision(capsys, web):
    assert main(["variance", "--example", "--csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    assert table.columns.tolist()[:9] == ["runs", "topics", "var_raw", "var_std_ab", "tau",
                                          "tau_ci_low", "tau_ci_high", "var2_raw", "var2_std_ab"]
    # then the intervals of the four variances over the topics (test_variance_intervals)
    assert table.columns.tolist()[9:] == [f"{v}_{end}" for v in ("var_raw", "var_std_ab",
                                                                 "var2_raw", "var2_std_ab")
                                          for end in ("low", "high")] + ["n_boot", "seed"]
    for key, value in expected_row(web).items():      # pandas/scipy only, see test_summary
        assert table.iloc[0][key] == pytest.approx(value, rel=1e-12), key


def test_one_row_per_file_and_a_trec_eval_folder(capsys, tmp_path, data_dir):
    book = pd.read_csv(data_dir / "sakai_book_table5_1.csv", index_col=0)
    write_trec_eval(book, folder=tmp_path / "runs", measure="AP")
    wide = data_dir / "sakai_book_table5_1.csv"
    assert main(["variance", str(wide), str(tmp_path / "runs"), "--csv", "--a", "0.2"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    assert table.index.tolist() == [str(wide), str(tmp_path / "runs")]
    # Sakai's book, Table 5.1: V_E = 0.0326491228... for both (the same matrix, two formats)
    assert table["var_raw"].tolist() == pytest.approx([0.0326491228] * 2, abs=1e-10)
    assert table["runs"].tolist() == [3, 3] and table["topics"].tolist() == [20, 20]


def test_drop_incomplete_topics_reports_on_stderr(capsys, tmp_path):
    path = tmp_path / "holes.csv"
    path.write_text("topic,a,b,c\n1,0.1,0.2,0.4\n2,0.5,,0.3\n3,0.2,0.6,0.1\n4,0.3,0.3,0.9\n")
    assert main(["variance", str(path), "--csv", "--drop-incomplete-topics"]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == (f"topicsetsize: warning: {path}: dropped 1 of 4 topics with "
                                    f"missing scores: 2\ntopicsetsize: read {path}: 3 topics x "
                                    "3 runs")
    assert pd.read_csv(io.StringIO(captured.out)).loc[0, "topics"] == 3


def test_a_measure_a_wide_file_does_not_use_is_a_warning(capsys, data_dir):
    # a wide topic-by-run CSV has no measure column: --measure was silently ignored
    path = data_dir / "trec2010web_ap.csv"
    assert main(["variance", str(path), "--measure", "map", "--boot", "0", "--csv"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()       # beside the copies' warning (the matrix has copies)
    assert lines.count(f"topicsetsize: warning: {path}: measure='map' is not used: a wide "
                       "CSV/TSV file holds the scores of one measure, read as they are") == 1
    assert lines[-1] == f"topicsetsize: read {path}: 48 topics x 88 runs"
    assert main(["variance", str(path), "--boot", "0", "--csv"]) == 0
    assert "is not used" not in capsys.readouterr().err       # no --measure: no such warning
    assert pd.read_csv(io.StringIO(captured.out)).loc[0, "runs"] == 88


@pytest.mark.parametrize("argv, message", [
    (["variance"], "give at least one FILE (or --example for the bundled matrix), or --runs DIR "
                   "--qrels FILE --measure M"),
    (["variance", "--example", "--a", "-1"], "--a -1 is out of range: allowed a > 0"),
    # B once ran outside (0, 1), or (B = 2) failed with an unrelated Kendall's tau message
    (["variance", "--example", "--b", "-0.5"], "--b -0.5 is out of range: allowed 0 < b < 1"),
    (["variance", "--example", "--b", "1"], "--b 1 is out of range: allowed 0 < b < 1"),
    (["variance", "--example", "--b", "2"], "--b 2 is out of range: allowed 0 < b < 1"),
    (["variance", "no/such/file.csv"], "no/such/file.csv: no such file or folder"),
])
def test_user_errors_exit_2_with_one_line(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"topicsetsize: error: {message}\n"


@pytest.mark.parametrize("command", ["variance", "report"])
def test_std_ab_options_say_the_registrys_range_and_the_engines_default(capsys, command):
    import inspect

    from topicsetsize.estimates.standardise import std_ab
    from topicsetsize.params import PARAMS

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in ("a", "b"):
        default = inspect.signature(std_ab).parameters[name].default
        assert f"allowed {PARAMS[name].describe(name)} (default {default})" in text


def test_bad_file_exit_2(capsys, tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("topic,a,b\n1,0.1,0.2\n2,0.3\n")
    assert main(["variance", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"topicsetsize: error: {path}: ragged rows: line 3 has 2 fields but line 1 "
                   "has 3\n")


@pytest.mark.slow
def test_installed_command(web, script, script_env):
    done = subprocess.run([*script, "variance", "--example", "--csv"], capture_output=True,
                          text=True, timeout=120, env=script_env)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(io.StringIO(done.stdout), index_col=0)
    assert table.iloc[0]["var_raw"] == pytest.approx(expected_row(web)["var_raw"], rel=1e-12)
    bad = subprocess.run([*script, "variance", "missing.csv"], capture_output=True, text=True,
                         timeout=120, env=script_env)
    assert bad.returncode == 2
    assert bad.stderr == "topicsetsize: error: missing.csv: no such file or folder\n"


def test_constant_matrix_error_names_the_file(capsys, tmp_path):
    path = tmp_path / "const.csv"
    path.write_text("topic,a,b,c\n" + "".join(f"t{k},0.5,0.5,0.5\n" for k in range(4)))
    assert main(["variance", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"topicsetsize: error: {path}: scores is constant (every "
                                   "value is 0.5): there is no variance to estimate (V_E) and no "
                                   "run to rank (Kendall's tau)")
    assert captured.err.count("\n") == 1       # the error alone: what was read is not said


@pytest.mark.parametrize("name, content, fragment", [
    ("semi.csv", "topic;a;b\nt1;0,1;0,2\nt2;0,3;0,4\n",
     "non-numeric score '0,1' at topic 't1', run 'a' (line 2, field 2); a decimal comma?"),
    ("text.xlsx", "topic,a,b\nt1,0.1,0.2\nt2,0.3,0.4\n",
     "named .xlsx but not an Excel workbook"),
])
def test_misleading_files_get_a_message_that_says_what_is_wrong(capsys, tmp_path, name, content,
                                                                 fragment):
    path = tmp_path / name
    path.write_text(content)
    assert main(["variance", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"topicsetsize: error: {path}: ") and fragment in err
    assert err.count("\n") == 1 and "0 runs" not in err and "0 topics" not in err


def test_semicolon_separated_csv_is_read(capsys, tmp_path, web):
    path = tmp_path / "semi.csv"
    web.to_csv(path, sep=";")
    assert main(["variance", str(path), "--csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    assert table.iloc[0]["var_raw"] == pytest.approx(expected_row(web)["var_raw"], rel=1e-12)


def test_unknown_measure_on_a_one_sheet_workbook(capsys, tmp_path, web):
    path = tmp_path / "one.xlsx"
    web.iloc[:5, :4].to_excel(path, sheet_name="AP")
    assert main(["variance", str(path), "--measure", "Nope"]) == 2
    err = capsys.readouterr().err
    assert err == (f"topicsetsize: error: {path}: no sheet named 'Nope'; sheets: AP "
                   "(--sheet names the sheet)\n")
    assert main(["variance", str(path), "--measure", "AP", "--csv"]) == 0


def test_formulas_without_saved_values_are_named(capsys, tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["topic", "a", "b"])
    for k in range(2, 6):
        sheet.append([f"t{k}", 0.1 * k, f"=B{k}*2"])
    path = tmp_path / "formulas.xlsx"
    book.save(path)
    assert main(["variance", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"topicsetsize: error: {path}: sheet 'Sheet': 4 cell(s) (C2, C3, C4 and "
                          "1 more) hold formulas without saved values")
    assert "missing scores" not in err and "drop" not in err and err.count("\n") == 1


def test_variance_intervals_give_the_interval_of_any_n(capsys, web):
    """The interval of V_E over the topics, and n at its ends, is the interval of n that
    n_interval gives with the same seed (the map from sigma2 to n is monotone); std-AB's is
    computed on the standardised matrix."""
    from topicsetsize.designs.anova import anova_n
    from topicsetsize.estimates.uncertainty import n_interval

    assert main(["variance", "--example", "--csv", "--seed", "5", "--boot", "400"]) == 0
    row = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0).iloc[0]
    for column, scale in (("var_raw", "raw"), ("var_std_ab", "std-ab")):
        ci = n_interval(web, lambda v: anova_n(0.05, 0.2, 0.05, v, 10), scale=scale,
                        n_boot=400, seed=5)
        assert row[f"{column}_low"] == pytest.approx(ci.variance_low, rel=1e-12)
        assert row[f"{column}_high"] == pytest.approx(ci.variance_high, rel=1e-12)
        assert anova_n(0.05, 0.2, 0.05, row[f"{column}_low"], 10) == ci.lower
        assert row[f"{column}_low"] < row[column] < row[f"{column}_high"]
    assert (row["n_boot"], row["seed"]) == (400, 5)
    assert main(["variance", "--example", "--boot", "0"]) == 0
    assert "[low, high]" not in capsys.readouterr().out


def test_the_default_bootstrap_seed_is_zero_so_the_same_command_gives_the_same_interval(capsys):
    """Review item 13: variance drew a fresh seed, so two runs gave different intervals; now
    seed 0, as report and the workbook's Report sheet."""
    outputs = []
    for _ in range(2):
        assert main(["variance", "--example", "--csv", "--boot", "200"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert pd.read_csv(io.StringIO(outputs[0]), index_col=0).iloc[0]["seed"] == 0
    assert main(["variance", "--example", "--boot", "200"]) == 0
    assert "seed=0 (--seed 0 repeats it)" in capsys.readouterr().out


def test_matrix_without_topic_ids_says_every_run_was_read(capsys, tmp_path, data_dir):
    # R's write.csv(row.names = FALSE) of the Robust04 AP matrix; old code: 109 runs, exit 0.
    import csv

    matrix = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    path = tmp_path / "no_ids.csv"
    matrix.to_csv(path, index=False, quoting=csv.QUOTE_NONNUMERIC)
    assert main(["variance", str(path), "--csv"]) == 0
    captured = capsys.readouterr()
    # sys69 is a copy of sys67 (tests/data/PROVENANCE.md): named, and kept in V_E
    assert captured.err == (f"topicsetsize: warning: {path}: 1 run is a copy of another "
                            "(identical scores on every topic): sys69 = sys67; kept: V_E, V_E2 "
                            "and tau use every run, each copy as a run of its own\n"
                            f"topicsetsize: read {path}: 249 topics x 110 runs (no topic-id "
                            "column: every column is a run, topics numbered 1..249)\n")
    assert pd.read_csv(io.StringIO(captured.out)).loc[0, "runs"] == 110


def test_ambiguous_matrix_is_refused_and_no_topic_ids_reads_it(capsys, tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("a,b,c\n1,0.5,0.25\n2,0.25,0.5\n3,0.75,0.5\n")
    assert main(["variance", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--no-topic-ids" in err and "--topic-ids" in err
    assert main(["variance", str(path), "--no-topic-ids", "--csv"]) == 0
    assert "3 topics x 3 runs" in capsys.readouterr().err


def test_a_variance_of_zero_is_named(capsys, tmp_path):
    """Every run constant over the topics: the four variances are 0, and a note says that no
    n can be sized on them (the command printed the zeros without a word, where report
    refuses the matrix); a matrix with variance prints no such note."""
    flat = tmp_path / "flat.csv"
    # three topics: the variances come out near 1e-33, not 0 (two happen to give 0 exactly)
    flat.write_text("topic,a,b,c\n1,0.1,0.2,0.3\n2,0.1,0.2,0.3\n3,0.1,0.2,0.3\n")
    assert main(["variance", str(flat)]) == 0
    out = capsys.readouterr().out
    assert ("V_E raw, V_E std-AB, V_E2 raw, V_E2 std-AB = 0 (every run scores the same on "
            "every topic): no topic set size can be sized on a variance of 0") in out
    assert main(["variance", "--example"]) == 0
    assert "variance of 0" not in capsys.readouterr().out


def test_a_small_variance_is_not_shown_as_zero(capsys, tmp_path, web):
    """Scores on a small scale (TREC 2010 Web AP / 100): V_E ≈ 8.4e-7 printed as 0.0000, which
    reads as the variance of 0 no n can be sized on; it shows to 3 significant digits, equal to
    the engine's estimate, and the std-AB variance (scale-free) is unchanged."""
    small = tmp_path / "small.csv"
    (web / 100).to_csv(small)
    assert main(["variance", str(small), "--boot", "200"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(str(small)) and "[" not in
               line.split()[3])
    e = expected_row(web / 100)
    assert row.split()[3:5] == [f"{e['var_raw']:.3g}", f"{e['var_std_ab']:.4f}"]
    assert abs(e["var_raw"] - expected_row(web)["var_raw"] / 1e4) < 1e-15
    assert "0.0000" not in out and "variance of 0" not in out


def test_sigma_t_both_ways_and_what_2_ve2_is(capsys, data_dir):
    """sigma_t^2 of the paired t-test and CI: 2 x V_E (the legacy convention, covariance
    ignored) beside 2 x V_E2, which is the mean over every pair of runs of the variance of their
    per-topic differences (TREC 2004 Robust AP: 0.0902 against 0.0264, so n from 2 x V_E is
    about 3.4 times larger; a reviewer's finding). The mean over pairs is computed here directly,
    pair by pair, with numpy."""
    path = data_dir / "trec2004robust_ap.csv"
    assert main(["variance", str(path), "--boot", "0"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "sigma_t^2" in x)
    x = pd.read_csv(path, index_col=0).to_numpy()
    i, j = np.triu_indices(x.shape[1], 1)
    mean_pair = float(np.var(x[:, i] - x[:, j], axis=0, ddof=1).mean())
    v, v2 = tss.residual_variance(x), tss.two_way_residual_variance(x)
    assert mean_pair == pytest.approx(2 * v2, rel=1e-12)
    assert f"2 x V_E = {2 * v:.4f} " in line
    assert f"2 x V_E2 = {mean_pair:.4f} " in line
    assert 3.3 < v / v2 < 3.5


def test_the_few_topics_note_names_its_matrix_among_several(capsys, data_dir):
    # with several matrices the note spoke of "48 past topics" without saying whose (a
    # reviewer's find): TREC 2010 Web AP's 48, beside TREC 2004 Robust AP's 249
    robust, web = (str(data_dir / f) for f in ("trec2004robust_ap.csv", "trec2010web_ap.csv"))
    assert main(["variance", robust, web, "--boot", "200"]) == 0
    out = capsys.readouterr().out
    assert f"note: {web}: with 48 past topics the upper end is likely too low" in out
    assert main(["variance", web, "--boot", "200"]) == 0
    assert "note: with 48 past topics the upper end is likely too low" in capsys.readouterr().out


def test_tied_std_ab_means_give_the_variances_and_an_undefined_tau(tmp_path, capsys):
    # a review, 2026-12-07: "the runs' mean std-AB scores are all equal ... the matrix shows
    # no difference between runs to design for" (exit 2) for two runs of raw means .350 and
    # .208; now tau reads "undefined" (a warning says why) and V_E is printed
    path = tmp_path / "two6.csv"
    path.write_text("topic,a,b\n1,0.1,0.2\n2,0.3,0.35\n3,0.5,0.1\n4,0.6,0.2\n5,0.2,0.3\n"
                    "6,0.4,0.1\n", encoding="utf-8")
    assert main(["variance", str(path)]) == 0
    out, err = capsys.readouterr()
    line = next(s for s in out.splitlines() if s.startswith(f"{path} "))
    x = pd.read_csv(path, index_col=0)
    assert line.split()[3] == f"{x.var().mean():.4f}" and line.endswith("undefined")
    assert f"warning: {path}: the runs' mean std-AB scores are all equal" in err
