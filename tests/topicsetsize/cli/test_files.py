"""The files and streams of every command (issue 24: 1, 2, 5, 6, 9): an output that is an input
is refused before any work, special outputs are written in place, standard input and pipes are
read once, every write error is one line, SIGTERM leaves no temporary file.

Never a real system device replaced: /dev/null and /dev/full are reached through links made in
tmp_path (the old writer replaced the link, never the device); FIFOs are made in tmp_path.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import threading

import pandas as pd
import pytest

from .conftest import one_line_error, run_cli

posix_only = pytest.mark.skipif(os.name != "posix", reason="links, FIFOs, /dev: POSIX")


@pytest.fixture
def collection(tmp_path, data_dir):
    """A copy of the synthetic collection A: (runs folder, qrels file)."""
    shutil.copytree(data_dir / "pool_runs" / "A", tmp_path / "A")
    return tmp_path / "A" / "runs", tmp_path / "A" / "qrels.txt"


@pytest.fixture
def matrix(tmp_path, data_dir):
    """A copy of the TREC 2004 Robust AP matrix (CSV)."""
    return shutil.copy(data_dir / "trec2004robust_ap.csv", tmp_path / "m.csv")


def _evaluate(runs, qrels, *more):
    return ["evaluate", "--runs", str(runs), "--qrels", str(qrels), "--measure", "AP", *more]


# 1. An output that names an input is refused, before anything is written.

@posix_only
@pytest.mark.parametrize("how", ["same name", "hard link", "link to it", "a run file"])
def test_evaluate_out_onto_an_input_is_refused(capsys, collection, how):
    runs, qrels = collection
    before = {p: p.read_bytes() for p in [qrels, *runs.iterdir()]}
    if how == "hard link":
        out = qrels.with_name("hard.txt")
        os.link(qrels, out)
    elif how == "link to it":
        out = qrels.with_name("soft.txt")
        out.symlink_to(qrels.name)
    else:
        out = qrels if how == "same name" else runs / "Arun3"
    err = one_line_error(capsys, *_evaluate(runs, qrels, "--out", str(out)))
    assert f"--out {out} is the input " in err and "would destroy it" in err
    assert {p: p.read_bytes() for p in before} == before            # nothing overwritten


def test_an_output_in_the_runs_folder_is_refused(capsys, collection):
    """Nothing is overwritten there, but every file of --runs is read as a run: the next
    evaluate would take the matrix for a run file."""
    runs, qrels = collection
    before = sorted(runs.iterdir())
    err = one_line_error(capsys, *_evaluate(runs, qrels, "--out", str(runs / "ap.csv")))
    assert f"--out {runs / 'ap.csv'} is inside the input folder --runs {runs}" in err
    assert sorted(runs.iterdir()) == before


def test_workbook_out_onto_its_matrix_is_refused(capsys, tmp_path, data_dir):
    book = tmp_path / "data.xlsx"
    pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0).to_excel(book)
    before = book.read_bytes()
    err = one_line_error(capsys, "workbook", "--matrix", str(book), "--out", str(book))
    assert f"--out {book} is the input --matrix {book}: writing it would destroy it" in err
    assert book.read_bytes() == before


def test_a_spec_output_onto_its_own_matrix_is_refused(capsys, tmp_path, data_dir):
    book = tmp_path / "data.xlsx"
    pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0).to_excel(book)
    before = book.read_bytes()
    spec = tmp_path / "s.toml"
    spec.write_text('title = "t"\noutput = "data.xlsx"\nm = [2, 5]\nmin_d = [0.1]\n'
                    '[[matrices]]\npath = "data.xlsx"\n')
    err = one_line_error(capsys, "workbook", str(spec))
    assert "the spec's output" in err and "matrix 'data' of the spec" in err
    assert book.read_bytes() == before


@posix_only
def test_stdout_redirected_onto_an_input_is_refused(script, script_env, matrix):
    before = matrix.read_bytes()
    with open(matrix, "ab") as out:                         # variance m.csv --csv >> m.csv
        done = subprocess.run([*script, "variance", str(matrix), "--csv"], stdout=out,
                              stderr=subprocess.PIPE, env=script_env, timeout=300)
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1, err
    assert f"standard output is the input FILE {matrix}" in err
    assert matrix.read_bytes() == before


# 2. Special outputs: written in place (through a link made here), or refused; --out -.

@posix_only
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_out_to_a_full_device_is_one_line_and_keeps_the_device(capsys, collection, tmp_path):
    runs, qrels = collection
    link = tmp_path / "full.csv"
    link.symlink_to("/dev/full")
    err = one_line_error(capsys, *_evaluate(runs, qrels, "--out", str(link)))
    assert err == f"topicsetsize: error: {link}: cannot write: No space left on device\n"
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


@posix_only
def test_out_to_a_fifo_writes_through_it(capsys, collection, tmp_path):
    runs, qrels = collection
    fifo = tmp_path / "matrix.csv"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, out, err = run_cli(capsys, *_evaluate(runs, qrels, "--out", str(fifo)))
    if code != 0:                       # release the reader: open the FIFO for writing
        with open(fifo, "wb"):
            pass
    reader.join(timeout=60)
    assert code == 0, err
    code, expected, _ = run_cli(capsys, *_evaluate(runs, qrels))
    assert got == [expected.encode()] and stat.S_ISFIFO(os.stat(fifo).st_mode)


@posix_only
@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
@pytest.mark.parametrize("stdout", ["a pipe", "a file"])
@pytest.mark.slow
def test_out_through_a_link_to_dev_stdout_writes_to_it(script, script_env, collection, tmp_path,
                                                       stdout):
    # --out /dev/stdout, through a link made here: written in place, whether standard output
    # is a pipe or a file the shell opened (reached through /proc/self/fd/1)
    runs, qrels = collection
    link = tmp_path / "out.csv"
    link.symlink_to("/dev/stdout")
    argv = [*script, *_evaluate(runs, qrels, "--out", str(link))]
    if stdout == "a pipe":
        done = subprocess.run(argv, capture_output=True, env=script_env, timeout=300)
        out = done.stdout
    else:
        with open(tmp_path / "captured", "wb") as file:
            done = subprocess.run(argv, stdout=file, stderr=subprocess.PIPE, env=script_env,
                                  timeout=300)
        out = (tmp_path / "captured").read_bytes()
    expected = subprocess.run([*script, *_evaluate(runs, qrels)], capture_output=True,
                              env=script_env, timeout=300).stdout
    assert done.returncode == 0, done.stderr
    assert out.startswith(expected) and out[len(expected):].startswith(b"wrote ")
    assert link.is_symlink()


def test_an_output_folder_is_refused_before_any_work(capsys, collection, tmp_path,
                                                     monkeypatch):
    import topicsetsize.matrices.evaluation as evaluation

    def never(*args, **kwargs):
        raise AssertionError("evaluated before the output was checked")

    monkeypatch.setattr(evaluation, "evaluate_runs", never)
    runs, qrels = collection
    err = one_line_error(capsys, *_evaluate(runs, qrels, "--out", str(tmp_path)))
    assert err == f"topicsetsize: error: {tmp_path}: cannot write: it is a folder (give a file " \
                  "name)\n"


@pytest.mark.parametrize("how", ["missing folder", "dangling link"])
def test_an_output_in_a_missing_folder_is_refused_before_any_work(capsys, collection, tmp_path,
                                                                  monkeypatch, how):
    """Review item 11: the folders were made silently (exit 0)."""
    import topicsetsize.matrices.evaluation as evaluation

    def never(*args, **kwargs):
        raise AssertionError("evaluated before the output was checked")

    monkeypatch.setattr(evaluation, "evaluate_runs", never)
    monkeypatch.chdir(tmp_path)
    runs, qrels = collection
    if how == "missing folder":
        out, expected = "nodir/x.csv", "--out nodir/x.csv: the folder nodir does not exist"
    else:
        if os.name != "posix":
            pytest.skip("symbolic links: POSIX")
        (tmp_path / "link.csv").symlink_to(tmp_path / "gone" / "x.csv")
        out = "link.csv"
        expected = (f"--out link.csv: the folder {tmp_path.resolve() / 'gone'} (through the link "
                    "link.csv) does not exist")
    err = one_line_error(capsys, *_evaluate(runs, qrels, "--out", out))
    assert err == f"topicsetsize: error: {expected}: create it first\n"
    assert not (tmp_path / "nodir").exists() and not (tmp_path / "gone").exists()


def test_out_dash_is_standard_output_for_csv(capsys, collection, tmp_path, monkeypatch):
    runs, qrels = collection
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *_evaluate(runs, qrels, "--out", "-"))
    assert code == 0 and err.startswith("topicsetsize: read ") and err.count("\n") == 1
    assert out == run_cli(capsys, *_evaluate(runs, qrels))[1] and out.startswith("topic,")
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("argv, what", [
    (["workbook", "--out", "-"], "--out -: an .xlsx workbook"),
    (["report", "--example", "--plot", "-"], "--plot -: a PNG image"),
    (["pool-depth", "--example", "--m", "5", "--min-d", "0.1", "--plot", "-"],
     "--plot -: a PNG image")])
def test_out_dash_is_refused_where_the_output_is_not_text(capsys, argv, what):
    err = one_line_error(capsys, *argv)
    assert f"{what} cannot go to standard output (text only): give a file name" in err


# 5. Write errors and closed streams: one line, a non-zero status, never a false success.

def test_a_closed_stdout_is_refused_before_any_work(capsys, collection, tmp_path, monkeypatch):
    runs, qrels = collection
    out = tmp_path / "m.csv"
    monkeypatch.setattr(sys, "stdout", None)          # what Python makes of `>&-`
    code, _, err = run_cli(capsys, *_evaluate(runs, qrels, "--out", str(out)))
    assert code == 2 and err.count("\n") == 1 and "standard output is closed" in err
    assert not out.exists()


@posix_only
def test_evaluate_with_stdout_closed_does_not_report_success(script, script_env, collection):
    runs, qrels = collection
    done = subprocess.run([*script, *_evaluate(runs, qrels)], stderr=subprocess.PIPE,
                          env=script_env, timeout=300, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().startswith("topicsetsize: error: standard output is closed")


@posix_only
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.slow
def test_a_full_stdout_is_one_line(script, script_env):
    with open("/dev/full", "wb") as full:               # opened, never replaced
        done = subprocess.run([*script, "variance", "--example", "--csv"], stdout=full,
                              stderr=subprocess.PIPE, env=script_env, timeout=300)
    assert done.returncode == 2
    assert done.stderr.decode() == ("topicsetsize: error: standard output: cannot write: No "
                                    "space left on device\n")


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux only")
@pytest.mark.parametrize("argv", [["variance"], ["workbook"], ["budget", "--plan"],
                                  ["recommend", "--file"],
                                  ["evaluate", "--runs", "tests/data/pool_runs/A/runs",
                                   "--measure", "AP", "--qrels"]])
def test_an_unreadable_input_is_one_line(capsys, monkeypatch, data_dir, argv):
    monkeypatch.chdir(data_dir.parent.parent)
    err = one_line_error(capsys, *argv, "/proc/self/mem")     # opens, then EIO on reading
    assert err == "topicsetsize: error: /proc/self/mem: cannot read: Input/output error\n"


# 6. Standard input, pipes and FIFOs: read once.

@posix_only
@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
@pytest.mark.slow
def test_a_matrix_from_standard_input(script, script_env, matrix, name):
    expected = subprocess.run([*script, "variance", str(matrix), "--csv", "--seed", "1"],
                              capture_output=True, env=script_env, timeout=300)
    piped = subprocess.run([*script, "variance", name, "--csv", "--seed", "1"],
                           input=matrix.read_bytes(),
                           capture_output=True, env=script_env, timeout=300)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.split(b"\n")[1].split(b",")[1:] == \
        expected.stdout.split(b"\n")[1].split(b",")[1:]


@posix_only
@pytest.mark.slow
def test_a_spec_from_standard_input(script, script_env, tmp_path, matrix):
    spec = ('title = "piped"\noutput = "piped.xlsx"\nm = [2, 5]\nmin_d = [0.1]\n'
            '[[matrices]]\npath = "m.csv"\n')          # relative to the current folder
    done = subprocess.run([*script, "workbook", "-"], input=spec.encode(), capture_output=True,
                          env=script_env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == f"wrote {tmp_path.resolve() / 'piped.xlsx'} (2 measures)\n"


def test_standard_input_is_read_once(capsys, matrix):
    err = one_line_error(capsys, "report", "-", "-")
    assert "- (standard input) is given 2 times" in err


@posix_only
@pytest.mark.slow
def test_a_fifo_input_is_read_once(script, script_env, matrix, tmp_path):
    fifo = tmp_path / "scores.csv"
    os.mkfifo(fifo)
    child = subprocess.Popen([*script, "variance", str(fifo), "--csv"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=script_env)
    with open(fifo, "wb") as writer:                    # one writer, once
        writer.write(matrix.read_bytes())
    try:
        out, err = child.communicate(timeout=120)       # the old reader opened it again: hung
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert out.startswith(b"matrix,runs,topics") and b",110,249," in out


# 9. SIGTERM during a workbook write: the temporary file is removed, one line, status 143.

@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM to a child process")
@pytest.mark.slow
def test_sigterm_while_a_workbook_is_written_leaves_no_temporary_file(script_env, tmp_path):
    # The write is replaced by one that starts the file, then receives SIGTERM (as `kill` would
    # send it while a large workbook is written) and goes on working.
    program = textwrap.dedent("""
        import os, signal, sys
        import topicsetsize.generator.build as build

        def write(saved, tmp, values):
            with open(tmp, "wb") as f:
                f.write(b"half a workbook")
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10 ** 7):
                pass

        build.write_with_cached_values = write
        from topicsetsize.cli import main
        sys.exit(main(["workbook", "--out", sys.argv[1]]))
    """)
    out = tmp_path / "book.xlsx"
    done = subprocess.run([sys.executable, "-c", program, str(out)], capture_output=True,
                          env=script_env, timeout=300)
    assert done.returncode == 128 + signal.SIGTERM
    assert done.stderr.decode() == "topicsetsize: terminated\n"
    assert list(tmp_path.iterdir()) == []                # neither the workbook nor a .tmp


# Review items 1 and 9: the same input twice was counted twice (a collection pooled twice, its
# interval on n narrowed; a matrix's row printed twice).

@posix_only
@pytest.mark.parametrize("how", ["same name", "link"])
def test_pool_depth_refuses_the_same_collection_twice(capsys, collection, how):
    runs, qrels = collection
    again = runs
    if how == "link":
        again = runs.parent / "again"
        again.symlink_to(runs)
    err = one_line_error(capsys, "pool-depth", "--runs", str(runs), "--qrels", str(qrels),
                         "--runs", str(again), "--qrels", str(qrels), "--depths", "10,5",
                         "--measure", "AP")
    through = "" if how == "same name" else f" ({runs} and {again} are the same, through a link)"
    assert err == f"topicsetsize: error: --runs {runs} is given twice{through}: give each once\n"


@posix_only
@pytest.mark.parametrize("command", ["variance", "report"])
def test_several_file_commands_refuse_the_same_file_twice(capsys, matrix, command):
    link = matrix.with_name("link.csv")
    link.symlink_to(matrix)
    err = one_line_error(capsys, command, str(matrix), str(link))
    assert err == (f"topicsetsize: error: FILE {matrix} is given twice ({matrix} and {link} are "
                   "the same, through a link): give each once\n")


def test_an_existing_output_is_said_to_be_replaced(capsys, collection, tmp_path):
    # --out over an existing file replaced it without a word (a reviewer's find, 2026-12-06)
    runs, qrels = collection
    out = tmp_path / "scores.csv"
    argv = ["evaluate", "--runs", str(runs), "--qrels", str(qrels), "--measure", "AP",
            "--out", str(out)]
    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and "exists" not in err
    first = out.read_text()
    out.write_text("precious\n")
    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and out.read_text() == first
    assert f"note: --out {out} existed: the command replaced it" in err
    # a command that fails says its error alone, and leaves the file (a review: the note came
    # first, "is replaced", then the error; two lines for one)
    out.write_text("precious\n")
    code, _, err = run_cli(capsys, *argv[:-4], "--measure", "AP@0", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and "replaced" not in err, err
    assert out.read_text() == "precious\n"


def test_standard_output_by_its_device_name_is_refused_without_a_note(capsys):
    # a review, 2026-12-07: with standard output redirected to a file, --out /dev/stdout was
    # said as "exists: it is replaced" before the refusal (it names no format)
    err = one_line_error(capsys, "evaluate", "--example", "--measure", "AP", "--out",
                         "/dev/stdout")
    assert "/dev/stdout: write .csv, .tsv, .xlsx (the extension names the format)" in err
