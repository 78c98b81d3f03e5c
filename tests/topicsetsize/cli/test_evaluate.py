"""``topicsetsize evaluate`` and ``--runs --qrels --measure`` on the commands that take a matrix."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from topicsetsize.estimates.summary import summarise
from topicsetsize.examples import EXAMPLE_RUNS_DEPTH, example_runs
from topicsetsize.matrices.evaluation import evaluate_runs

from .conftest import one_line_error, run_cli

RUNS, QRELS = "tests/data/pool_runs/A/runs", "tests/data/pool_runs/A/qrels.txt"
A = ["--runs", RUNS, "--qrels", QRELS, "--measure", "AP"]


@pytest.fixture(autouse=True)
def _root(monkeypatch, data_dir):
    monkeypatch.chdir(data_dir.parent.parent)


def test_evaluate_writes_the_matrix_of_evaluate_runs(capsys, tmp_path):
    out = tmp_path / "sub" / "ap.csv"
    out.parent.mkdir()              # a missing folder is refused (review item 11)
    code, stdout, err = run_cli(capsys, "evaluate", *A, "--out", str(out))
    assert code == 0 and f"wrote {out} (25 topics x 8 runs, AP)" in stdout
    assert "warning" not in err
    written = pd.read_csv(out, index_col=0, dtype={"topic": str})
    expected = evaluate_runs(RUNS, QRELS, "AP")
    assert written.index.tolist() == expected.index.tolist()
    assert written.to_numpy() == pytest.approx(expected.to_numpy(), abs=1e-12)
    assert [p.name for p in out.parent.iterdir()] == ["ap.csv"]      # no temporary left
    code, stdout, _ = run_cli(capsys, "evaluate", *A)                 # CSV on stdout
    assert code == 0
    assert pd.read_csv(io.StringIO(stdout), index_col=0).to_numpy() == pytest.approx(
        expected.to_numpy(), abs=1e-12)


def test_evaluate_out_keeps_formula_like_names_and_warns(capsys, tmp_path):
    # --out is a data file to read back (names kept); stdout's CSV is neutralised (--csv rule)
    import shutil
    from pathlib import Path

    runs = tmp_path / "runs"
    runs.mkdir()
    first, second = sorted(Path(RUNS).iterdir())[:2]
    (runs / "r1").write_text("".join(line.rsplit(None, 1)[0] + " =HYPERLINK(1)\n"  # its tag
                                     for line in first.read_text().splitlines()))
    shutil.copy(second, runs / "r2")
    out = tmp_path / "m.csv"
    code, _, err = run_cli(capsys, "evaluate", "--runs", str(runs), "--qrels", QRELS,
                           "--measure", "AP", "--out", str(out))
    assert code == 0 and "'=HYPERLINK(1)'" in err and "import dialog" in err
    assert pd.read_csv(out, index_col=0).columns.tolist() == ["=HYPERLINK(1)", "Arun2"]
    code, stdout, err = run_cli(capsys, "evaluate", "--runs", str(runs), "--qrels", QRELS,
                                "--measure", "AP")
    assert code == 0 and "'=HYPERLINK(1)" in stdout.splitlines()[0]
    assert err.startswith(f"topicsetsize: read {runs} on {QRELS} (AP): 25 topics x 2 runs")


def test_evaluate_example_is_the_bundled_clef_runs(capsys):
    code, stdout, err = run_cli(capsys, "evaluate", "--example", "--measure", "P@10")
    assert code == 0
    matrix = pd.read_csv(io.StringIO(stdout), index_col=0)
    assert matrix.shape == (30, 20) and "dropped 311 line(s)" in err
    # the bundled runs are cut at 100 documents: their AP is not CLEF 2017's, and that is said
    assert err.count("topicsetsize: warning: --example: the bundled runs keep each run's top "
                     f"{EXAMPLE_RUNS_DEPTH} documents per topic") == 1
    runs, _ = example_runs()
    deepest = max(_most_lines_of_a_topic(path) for path in runs.iterdir()
                  if "UOS__test__sis.TMAL30Q" not in path.name)   # the run keeping duplicates
    assert deepest == EXAMPLE_RUNS_DEPTH


def _most_lines_of_a_topic(path) -> int:
    """The largest number of lines of one topic in a gzipped run file."""
    import collections
    import gzip

    with gzip.open(path, "rt") as f:
        return max(collections.Counter(line.split()[0] for line in f if line.strip()).values())


@pytest.mark.parametrize("argv, match", [
    (["evaluate", "--runs", RUNS, "--qrels", QRELS], "--runs needs --measure"),
    (["evaluate", "--runs", RUNS, "--measure", "AP"], "give both --runs DIR and --qrels FILE"),
    (["evaluate", *A[:4], "--measure", "nDCG@0"], "--measure nDCG@0: the cutoff @0"),
    (["variance", *A[:4], "--measure", "P@0"], "--measure P@0"),
    (["hsd", "--example", *A], "give one of FILE, --example or --runs"),
    (["variance", "x.csv", *A], "give FILEs or --runs, not both"),
])
def test_bad_input(capsys, argv, match):
    assert match in one_line_error(capsys, *argv)


def test_variance_from_runs_is_the_matrix_summary(capsys):
    code, stdout, _ = run_cli(capsys, "variance", *A, "--csv")
    assert code == 0
    table = pd.read_csv(io.StringIO(stdout), index_col=0)
    summary = summarise(evaluate_runs(RUNS, QRELS, "AP"))
    assert table["var_raw"].iloc[0] == pytest.approx(summary.var_raw, rel=1e-9)


@pytest.mark.parametrize("argv", [["hsd", "--trials", "50", "--seed", "1"],
                                  ["reliability", "--trials", "2", "--seed", "1"],
                                  ["check-power", "--m", "4", "--n", "10,20",
                                   "--trials", "20", "--seed", "1"]])
def test_matrix_commands_take_runs(capsys, tmp_path, argv):
    # The same command on the evaluated CSV and on --runs gives the same output.
    csv = tmp_path / "m.csv"
    evaluate_runs(RUNS, QRELS, "AP").to_csv(csv)
    code, from_runs, _ = run_cli(capsys, *argv, *A, "--csv")
    assert code == 0
    code, from_file, _ = run_cli(capsys, *argv, str(csv), "--csv")
    assert code == 0 and from_runs == from_file


@pytest.mark.slow
def test_workbook_takes_runs(capsys, tmp_path):
    import openpyxl

    out = tmp_path / "w.xlsx"
    code, stdout, _ = run_cli(capsys, "workbook", *A, "--out", str(out))
    assert code == 0 and f"wrote {out.resolve()}" in stdout
    sheet = openpyxl.load_workbook(out)["Variance"]
    text = " ".join(str(c.value) for row in sheet.iter_rows() for c in row if c.value)
    assert "runs AP" in text                       # the matrix is named after the runs folder
    assert "no such" in one_line_error(capsys, "workbook", "--runs", "missing", "--qrels", QRELS,
                                       "--measure", "AP")


# --- topics, run tags, several measures, output formats (issues 24.3, 24.10, 25.6) -------------


def _qrels_with(tmp_path, rename):
    """The qrels of RUNS with each topic id passed through ``rename``."""
    from pathlib import Path

    lines = Path(QRELS).read_text().splitlines()
    out = tmp_path / "qrels.txt"
    out.write_text("".join(f"{rename(line.split()[0])} {line.split(None, 1)[1]}\n"
                           for line in lines))
    return out


def test_no_topic_in_common_is_refused_with_zero_padding_named(capsys, tmp_path):
    # Old code: rows of 0.0 with exit 0.
    qrels = _qrels_with(tmp_path, lambda t: "0" + t)
    message = one_line_error(capsys, "evaluate", "--runs", RUNS, "--qrels", str(qrels),
                             "--measure", "AP")
    assert "no topic of" in message and "differ by leading zeros (e.g. '0401'" in message


def test_partial_mismatch_names_the_unmatched_topics(capsys, tmp_path):
    qrels = _qrels_with(tmp_path, lambda t: "0" + t if t in ("401", "402") else t)
    code, stdout, err = run_cli(capsys, "evaluate", "--runs", RUNS, "--qrels", str(qrels),
                                "--measure", "AP")
    assert code == 0
    warning = next(line for line in err.splitlines() if "only in" in line)
    assert "23 of 25 in" in warning and "only in " in warning and "0401, 0402" in warning
    assert "leading zeros" in warning


def test_columns_are_the_run_tags(capsys, tmp_path):
    import shutil
    from pathlib import Path

    runs = tmp_path / "runs"
    runs.mkdir()
    for k, path in enumerate(sorted(Path(RUNS).iterdir())[:3]):
        shutil.copy(path, runs / f"run{k}.gz.txt")      # file names unlike the tags
    shutil.copy(sorted(Path(RUNS).iterdir())[0], runs / "run9_copy")   # a clashing tag
    code, stdout, err = run_cli(capsys, "evaluate", "--runs", str(runs), "--qrels", QRELS,
                                "--measure", "AP")
    assert code == 0
    columns = pd.read_csv(io.StringIO(stdout), index_col=0).columns.tolist()
    assert columns == ["run0.gz.txt", "Arun2", "Arun3", "run9_copy"]    # Arun1 is shared
    assert "by the file name where the tag is missing or shared with another run: 2 of 4 " \
           "(run0.gz.txt, run9_copy)" in err


def test_several_measures_in_one_call_equal_ir_measures(capsys, tmp_path):
    import ir_measures

    code, stdout, _ = run_cli(capsys, "evaluate", *A[:4], "--measure", "AP", "nDCG@10", "P@10")
    assert code == 0
    long = pd.read_csv(io.StringIO(stdout), dtype={"topic": str})
    assert long.columns.tolist() == ["run", "topic", "measure", "value"]
    assert sorted(long["measure"].unique()) == ["AP", "P@10", "nDCG@10"]
    # independent: ir_measures on the file, trec_eval's order
    qrels = list(ir_measures.read_trec_qrels(QRELS))
    run = list(ir_measures.read_trec_run(f"{RUNS}/Arun3"))
    for measure in (ir_measures.AP, ir_measures.nDCG @ 10, ir_measures.P @ 10):
        expected = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
        got = long[(long["run"] == "Arun3") & (long["measure"] == str(measure))]
        assert dict(zip(got["topic"], got["value"])) == pytest.approx(
            {t: expected.get(t, 0.0) for t in got["topic"]}, abs=1e-12)


def test_out_writes_the_format_its_extension_names(capsys, tmp_path):
    from topicsetsize.matrices.readers import read_matrix

    xlsx = tmp_path / "m.xlsx"
    code, _, _ = run_cli(capsys, "evaluate", *A[:4], "--measure", "AP", "P@10",
                         "--out", str(xlsx))
    assert code == 0 and xlsx.read_bytes()[:4] == b"PK\x03\x04"      # old code: CSV text
    expected = evaluate_runs(RUNS, QRELS, "P@10")
    assert read_matrix(xlsx, sheet="P@10").to_numpy() == pytest.approx(expected.to_numpy())
    tsv = tmp_path / "m.tsv"
    assert run_cli(capsys, "evaluate", *A, "--out", str(tsv))[0] == 0
    assert "\t" in tsv.read_text().splitlines()[0]
    message = one_line_error(capsys, "evaluate", *A, "--out", str(tmp_path / "m.txt"))
    assert "m.txt: write .csv, .tsv, .xlsx" in message


def test_report_takes_runs(capsys):
    # Old code: report refused --runs although the README says every matrix command takes it.
    code, stdout, err = run_cli(capsys, "report", *A)
    assert code == 0 and f"read {RUNS} on {QRELS} (AP): 25 topics x 8 runs" in err
    assert "Erho2" in stdout


def test_every_matrix_command_takes_the_same_input_options(capsys):
    from topicsetsize.cli import build_parser

    parser = build_parser()
    commands = ["report", "variance", "hsd", "reliability", "check-power", "workbook"]
    options = {}
    for action in parser._subparsers._group_actions[0].choices.items():
        name, sub = action
        if name in commands:
            options[name] = {o for a in sub._actions for o in a.option_strings}
    wanted = {"--runs", "--qrels", "--measure", "--topic-ids", "--no-topic-ids", "--format",
              "--transpose", "--drop-incomplete-topics", "--duplicates"}
    assert set(options) == set(commands)
    assert all(wanted <= o for o in options.values())


@pytest.mark.parametrize("measures, expected", [
    (["AP", "nDCG@10", "P@10", "AP"], "--measure AP is given twice: give each measure once"),
    (["map", "P@10", "AP"], "--measure map is given twice (map and AP are the same measure): "
                            "give each measure once")])
def test_a_repeated_measure_is_refused(capsys, measures, expected):
    """Review item 9: the duplicate was dropped silently."""
    err = one_line_error(capsys, "evaluate", "--example", "--measure", *measures)
    assert err == f"topicsetsize: error: {expected}\n"


#: Runs ``topicsetsize`` with an import of pandas refused (a meta path finder that raises).
_NO_PANDAS = """
import sys, importlib.abc
class NoPandas(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("pandas is not to be imported")
sys.meta_path.insert(0, NoPandas())
from topicsetsize.cli import main
code = main(sys.argv[1:])
assert "pandas" not in sys.modules
sys.exit(code)
"""


@pytest.mark.parametrize("measures, out", [(["AP"], None), (["AP", "P@10"], None),
                                           (["AP"], "m.csv"), (["AP", "RR"], "m.tsv")])
def test_evaluate_needs_no_pandas_and_writes_what_pandas_wrote(capsys, tmp_path, script_env,
                                                               measures, out):
    # issue 28.3: a few runs' evaluation costs no pandas import (some 40 MiB and 0.2 s, most of
    # the whole command); its CSV is what pandas' to_csv of evaluate_measures' frames gives
    import subprocess
    import sys

    from topicsetsize.cli._common import csv_safe
    from topicsetsize.matrices.evaluation import evaluate_measures
    from topicsetsize.matrices.writers import long_table

    argv = ["evaluate", "--example", "--measure", *measures]
    if out:
        argv += ["--out", str(tmp_path / out)]
    got = subprocess.run([sys.executable, "-c", _NO_PANDAS, *argv], env=script_env,
                         capture_output=True, text=True, check=False)
    assert got.returncode == 0, got.stderr
    runs, qrels = example_runs()
    with pytest.warns(UserWarning):
        frames = evaluate_measures(runs, qrels, measures, duplicates="first")
    if len(frames) == 1:
        expected = csv_safe(frames[measures[0]]).to_csv(lineterminator="\n")
    else:
        expected = csv_safe(long_table(frames)).to_csv(index=False, lineterminator="\n")
    if out:
        written = (tmp_path / out).read_text()
        assert written == (expected.replace(",", "\t") if out.endswith(".tsv") else expected)
    else:
        assert got.stdout == expected


def test_one_topic_is_written_with_a_warning(capsys, tmp_path):
    # a review, 2026-12-07: a qrels of one topic gave a matrix that every command refused,
    # written without a word (and said as "1 topics")
    from pathlib import Path

    first = Path(QRELS).read_text().split(None, 1)[0]
    qrels = tmp_path / "one.txt"
    qrels.write_text("".join(line + "\n" for line in Path(QRELS).read_text().splitlines()
                             if line.split()[0] == first))
    out = tmp_path / "one.csv"
    code, stdout, err = run_cli(capsys, "evaluate", "--runs", RUNS, "--qrels", str(qrels),
                                "--measure", "AP", "--out", str(out))
    assert code == 0 and f"wrote {out} (1 topic x 8 runs, AP)" in stdout
    assert ("topicsetsize: warning: only 1 topic is evaluated: every command that reads the "
            "matrix needs at least 2") in err
    assert "needs at least 2" in one_line_error(capsys, "variance", str(out))
