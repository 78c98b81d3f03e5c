"""`topicsetsize workbook [SPEC] [--matrix FILE ...] [--out FILE]`."""

from __future__ import annotations

import gc
import subprocess
import sys

import openpyxl
import pytest
from topicsetsize.generator.content.bundled import templates_dir
from topicsetsize.generator.sheets.calculators import sheets

from topicsetsize.cli import main

from .conftest import one_line_error, run_cli

#: What the summary line says of a spec without measures (every workbook has a Decide sheet).
NO_TABLES = "(calculators, Decide sheet, no measure tables)"


@pytest.mark.slow
def test_default_builds_the_bundled_ntcir_spec_in_the_current_folder(capsys, tmp_path,
                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "workbook")
    path = tmp_path / "ntcir12_std_ab.xlsx"
    assert code == 0 and err == ""
    assert gc.isenabled()       # main, not the console: the collector runs again after it
    assert out == f"wrote {path} (12 measures)\n"
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["About", *sheets(), "Decide", "Tables", "Charts", "Helpers"]
    ws = wb["Tables"]
    assert ws["A6"].value == "MedNLPDoc raw recall" and ws["B10"].value == 2301  # Table 2, I
    assert [p.name for p in tmp_path.iterdir()] == ["ntcir12_std_ab.xlsx"]      # no temp left


@pytest.mark.slow
def test_spec_by_name_or_file_with_matrices_and_out(capsys, tmp_path, data_dir):
    out_file = tmp_path / "sub" / "w.xlsx"
    out_file.parent.mkdir()         # a missing folder is refused (review item 11)
    matrix = data_dir / "trec2010web_ap.csv"
    code, out, _ = run_cli(capsys, "workbook", "trec2010_web_example", "--matrix", str(matrix),
                           "--out", str(out_file))
    assert code == 0 and out == f"wrote {out_file} (4 measures)\n"
    wb = openpyxl.load_workbook(out_file)
    ws = wb["Variance"]
    assert [ws.cell(r, 1).value for r in (5, 6)] == ["TREC 2010 Web AP", "trec2010web_ap"]
    code, out, _ = run_cli(capsys, "workbook", str(templates_dir() / "trec2010_web_example.toml"),
                           "--out", str(tmp_path / "x.xlsx"))
    assert code == 0 and "(2 measures)" in out


@pytest.mark.slow
def test_a_spec_file_writes_its_output_in_its_folder_a_bundled_spec_in_the_current_one(
        capsys, tmp_path, monkeypatch):
    # issue 18: a spec's output stays in the spec's folder (unless --out); a bundled spec, whose
    # folder is inside the installed package, keeps writing to the current folder.
    specs, here = tmp_path / "specs", tmp_path / "here"
    specs.mkdir()
    here.mkdir()
    (specs / "named.toml").write_text('title = "t"\noutput = "out/w.xlsx"\n')
    (specs / "unnamed.toml").write_text('title = "t"\n')
    monkeypatch.chdir(here)
    for name, written in (("named.toml", specs / "out" / "w.xlsx"),
                          ("unnamed.toml", specs / "unnamed.xlsx")):
        code, out, err = run_cli(capsys, "workbook", str(specs / name))
        assert code == 0 and out == f"wrote {written} {NO_TABLES}\n" and "exists" not in err
        assert openpyxl.load_workbook(written).sheetnames[0] == "About"
    assert list(here.iterdir()) == []
    # written again: the workbook it replaces (perhaps edited) is said, as --out's is (a
    # review, 2026-12-07: the default output was replaced without a word)
    code, _, err = run_cli(capsys, "workbook", str(specs / "unnamed.toml"))
    assert code == 0 and err == (f"topicsetsize: note: it replaced the workbook "
                                 f"{specs / 'unnamed.xlsx'} that was there (--out FILE writes "
                                 "another)\n")
    code, out, _ = run_cli(capsys, "workbook", "trec2010_web_example")
    assert code == 0 and out == f"wrote {here / 'trec2010_web_example.xlsx'} (2 measures)\n"
    assert [p.name for p in here.iterdir()] == ["trec2010_web_example.xlsx"]
    assert not (templates_dir() / "trec2010_web_example.xlsx").exists()


@pytest.mark.slow
def test_a_spec_output_outside_its_folder_is_refused_unless_out_is_given(capsys, tmp_path):
    # A shared spec may not write outside its folder; with --out its output is not used, so the
    # workbook is written where the command line says (the message says --out writes elsewhere).
    spec = tmp_path / "shared.toml"
    spec.write_text('title = "t"\noutput = "../../escaped.xlsx"\n')
    code, _, err = run_cli(capsys, "workbook", str(spec))
    assert code == 2 and "'../../escaped.xlsx' must be a relative file name without '..'" in err
    code, out, _ = run_cli(capsys, "workbook", str(spec), "--out", str(tmp_path / "mine.xlsx"))
    assert code == 0 and out == f"wrote {tmp_path / 'mine.xlsx'} {NO_TABLES}\n"
    assert not (tmp_path.parent.parent / "escaped.xlsx").exists()


def test_list_specs(capsys):
    code, out, _ = run_cli(capsys, "workbook", "--list-specs")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == ["decide_example",
                                                                  "ntcir12_std_ab",
                                                                  "trec2010_web_example"]


def test_user_errors_are_one_line_with_status_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "t"\nbeta = 2\n')
    cases = [
        (["workbook", "nope"], "topicsetsize: error: nope: no such spec file, and not a bundled "
                               "spec (decide_example, ntcir12_std_ab, trec2010_web_example)"),
        (["workbook", str(bad)], f"topicsetsize: error: {bad}: beta: beta=2 is out of range: "
                                 "allowed 1e-09 <= beta < 1"),
        (["workbook", "--out", str(tmp_path / "w.csv")],
         f"topicsetsize: error: {tmp_path / 'w.csv'}: the workbook must be written to an .xlsx "
         "file"),
        (["workbook", "--matrix", str(tmp_path / "none.csv")],
         f"topicsetsize: error: {tmp_path / 'none.csv'}: no such score matrix file or folder"),
        # a matrix given as SPEC was read as TOML: "title: is missing" (a reviewer's finding)
        (["workbook", str(tmp_path / "scores.csv")],
         f"topicsetsize: error: {tmp_path / 'scores.csv'}: SPEC is a workbook spec (TOML), not a "
         f"score matrix: give the matrix with --matrix (topicsetsize workbook --matrix "
         f"{tmp_path / 'scores.csv'})"),
    ]
    for argv, message in cases:
        code, out, err = run_cli(capsys, *argv)
        assert (code, out, err) == (2, "", message + "\n"), argv
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("topic,a,b\nt1,0.1\nt2,0.2,0.3\n")
    code, _, err = run_cli(capsys, "workbook", "--matrix", str(ragged), "--out",
                           str(tmp_path / "r.xlsx"))
    assert code == 2 and err.count("\n") == 1 and str(ragged) in err
    assert not (tmp_path / "r.xlsx").exists()


@pytest.mark.slow
def test_console_script(tmp_path, script, script_env):
    res = subprocess.run([*script, "workbook", "--out", str(tmp_path / "w.xlsx")],
                         capture_output=True, text=True, timeout=120, env=script_env)
    assert res.returncode == 0 and res.stdout == f"wrote {tmp_path / 'w.xlsx'} (12 measures)\n"


@pytest.mark.slow
def test_the_default_workbook_does_not_import_pandas(tmp_path):
    """Nothing on the default workbook's path uses pandas: importing it was 0.2 s of the
    command's CPU (issue 28.6). A spec with pool depths (its Budget sheet) still needs it."""
    code = ("import sys\nfrom topicsetsize.cli import main\n"
            "for spec in sys.argv[1:]:\n"
            "    main(['workbook', spec, '--out', spec + '.xlsx'])\n"
            "    print(spec, 'pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, "ntcir12_std_ab", "decide_example"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1::2] == ["ntcir12_std_ab False", "decide_example True"]


@pytest.mark.slow
def test_matrix_measure_option_picks_the_trec_eval_measure(tmp_path):
    """--measure reaches the reader: a folder of trec_eval -q files with two measures."""
    import openpyxl

    from topicsetsize import example_matrix, residual_variance, write_trec_eval

    scores = example_matrix().iloc[:, :6]
    folder = tmp_path / "runs"
    write_trec_eval(scores, folder=folder, measure="map")
    for path in folder.iterdir():      # a second measure in every file, with other values
        lines = path.read_text().splitlines()
        extra = [line.replace("map", "P_10", 1).rsplit(None, 1)[0] + "\t0.5000"
                 for line in lines if line.startswith("map")]
        path.write_text("\n".join(lines + extra) + "\n")
    out = tmp_path / "w.xlsx"
    assert main(["workbook", "--matrix", str(folder), "--measure", "map", "--out", str(out)]) == 0
    values = [c for row in openpyxl.load_workbook(out)["Variance"].iter_rows(values_only=True)
              for c in row if isinstance(c, float)]
    expected = residual_variance(scores)
    assert any(abs(v - expected) < 1e-12 for v in values)
    # the measure read is named with the file: a P_10 workbook read as the map one of the same
    # folder (a reviewer's find)
    assert openpyxl.load_workbook(out)["Variance"]["A5"].value == "runs (map)"
    # not a wide CSV's, which holds one measure and is read as it is (--measure not used): a
    # TREC AP matrix beside a P@10 file was named "(P@10)" too
    wide = tmp_path / "wide.csv"
    scores.to_csv(wide)
    assert main(["workbook", "--matrix", str(wide), "--measure", "map", "--out", str(out)]) == 0
    assert openpyxl.load_workbook(out)["Variance"]["A5"].value == "wide"
    assert main(["workbook", "--matrix", str(folder), "--out", str(out)]) == 2   # ambiguous


@pytest.mark.slow
def test_matrix_takes_the_reader_options(capsys, tmp_path):
    """The incomplete-topics message suggests --drop-incomplete-topics: workbook accepts it."""
    path = tmp_path / "miss.csv"
    path.write_text("topic,a,b,c\nt1,0.1,0.2,0.3\nt2,0.5,,0.3\nt3,0.2,0.6,0.3\nt4,0.3,0.1,0.2\n"
                    "t5,0.3,0.1,0.25\n")
    out = tmp_path / "w.xlsx"
    code, _, err = run_cli(capsys, "workbook", "--matrix", str(path), "--out", str(out))
    assert code == 2 and "with --drop-incomplete-topics" in err and not out.exists()
    code, stdout, err = run_cli(capsys, "workbook", "--matrix", str(path), "--out", str(out),
                                "--drop-incomplete-topics")
    assert code == 0 and out.exists()
    assert err == (f"topicsetsize: warning: {path}: dropped 1 of 5 topics with missing scores: "
                   "t2\ntopicsetsize: read miss: 4 topics x 3 runs\n")
    runs_as_rows = tmp_path / "rows.csv"
    runs_as_rows.write_text("run,t1,t2,t3\na,0.1,0.5,0.2\nb,0.2,0.4,0.6\nc,0.3,0.3,0.3\n")
    assert run_cli(capsys, "workbook", "--matrix", str(runs_as_rows), "--transpose", "--format",
                   "wide", "--out", str(out))[0] == 0
    code, _, err = run_cli(capsys, "workbook", "--transpose", "--out", str(out))
    assert code == 2 and "--transpose goes with --matrix FILE, which is not given: drop it" in err


def test_constant_matrix_in_a_workbook_names_the_file_and_why(capsys, tmp_path):
    path, out = tmp_path / "const.csv", tmp_path / "w.xlsx"
    path.write_text("topic,a,b,c\n" + "".join(f"t{k},0.5,0.5,0.5\n" for k in range(4)))
    err = one_line_error(capsys, "workbook", "--matrix", str(path), "--out", str(out))
    assert err == (f"topicsetsize: error: {path}: scores is constant (every value is 0.5): there "
                   "is no variance to estimate (V_E) and no run to rank (Kendall's tau), so the "
                   "matrix gives no figure to design for\n")
    assert not out.exists()


@pytest.mark.slow
def test_the_summary_line_names_the_decision_sheets(capsys, tmp_path):
    # decide_example has Decide and Budget sheets and no measure tables: not "calculators only"
    out_file = tmp_path / "d.xlsx"
    code, out, _ = run_cli(capsys, "workbook", "decide_example", "--out", str(out_file))
    assert code == 0
    assert out == f"wrote {out_file} (calculators, Decide and Budget sheets, no measure tables)\n"
    sheets = openpyxl.load_workbook(out_file).sheetnames
    assert "Decide" in sheets and "Budget" in sheets and "Tables" not in sheets


@pytest.mark.slow
def test_matrix_without_topic_ids_is_said_and_chosen(capsys, tmp_path):
    # distinct whole numbers in the first column: refused until --no-topic-ids settles it
    path = tmp_path / "noids.csv"
    path.write_text("a,b,c\n1,0.5,0.25\n2,0.25,0.5\n3,0.75,0.5\n4,0.5,0.5\n")
    out = tmp_path / "w.xlsx"
    code, _, err = run_cli(capsys, "workbook", "--matrix", str(path), "--out", str(out))
    assert code == 2 and "--no-topic-ids" in err and not out.exists()
    code, _, err = run_cli(capsys, "workbook", "--matrix", str(path), "--no-topic-ids",
                           "--out", str(out))
    assert code == 0 and err == ("topicsetsize: read noids: 4 topics x 3 runs (no topic-id "
                                 "column: every column is a run, topics numbered 1..4)\n")


@pytest.mark.slow    # a second or more (several on a slower machine)
def test_a_sheet_of_a_csv_matrix_is_said_as_a_sheet(capsys, tmp_path, data_dir):
    """--sheet with a CSV --matrix warned "measure='Foo' is not used" (a reviewer's finding):
    it names the sheet, and the workbook is written from the matrix as it is."""
    out = tmp_path / "w.xlsx"
    code, _, err = run_cli(capsys, "workbook", "--matrix", str(data_dir / "trec2010web_ap.csv"),
                           "--sheet", "Foo", "--out", str(out))
    assert code == 0 and out.exists()
    assert "--sheet Foo: not used: only an .xlsx workbook has sheets" in err
    assert "measure=" not in err
