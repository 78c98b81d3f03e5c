"""``topicsetsize evaluate`` and ``--runs --qrels --measure`` on the commands that take a matrix."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from topicsetsize.matrices.evaluation import evaluate_runs
from topicsetsize.estimates.summary import summarise

from .conftest import one_line_error, run_cli

RUNS, QRELS = "tests/data/pool_runs/A/runs", "tests/data/pool_runs/A/qrels.txt"
A = ["--runs", RUNS, "--qrels", QRELS, "--measure", "AP"]


@pytest.fixture(autouse=True)
def _root(monkeypatch, data_dir):
    monkeypatch.chdir(data_dir.parent.parent)


def test_evaluate_writes_the_matrix_of_evaluate_runs(capsys, tmp_path):
    out = tmp_path / "sub" / "ap.csv"
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


@pytest.mark.parametrize("argv, match", [
    (["evaluate", "--runs", RUNS, "--qrels", QRELS], "--runs needs --measure"),
    (["evaluate", "--runs", RUNS, "--measure", "AP"], "give both --runs DIR and --qrels FILE"),
    (["evaluate", *A[:4], "--measure", "nDCG@0"], "--measure nDCG@0: the cutoff @0"),
    (["variance", *A[:4], "--measure", "P@0"], "--measure P@0"),
    (["hsd", "--example", *A], "give one of FILE, --example or --runs"),
    (["variance", "x.csv", *A], "give the FILEs and --runs in two commands"),
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
