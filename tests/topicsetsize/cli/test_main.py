"""The command line as a whole: start-up imports, which errors are one line, output files."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile

import pytest

import topicsetsize.atomic
from topicsetsize import InputError, SearchLimitError
from topicsetsize.cli import main
from topicsetsize.cli import reliability as cli_reliability

from .conftest import ROOT, one_line_error


def test_console_exits_with_mains_status_and_spares_the_exit_collection(monkeypatch):
    """The console script: main's exit status, after gc.freeze (the interpreter's last
    collection pass over every object skipped: the process is ending)."""
    import topicsetsize.cli as cli

    calls, told = [], []
    monkeypatch.setattr(cli, "main", lambda *, process_ends=False: told.append(process_ends)
                        or calls.append("main") or 3)
    monkeypatch.setattr(cli.gc, "freeze", lambda: calls.append("freeze"))
    with pytest.raises(SystemExit) as exit_:
        cli.console()
    assert exit_.value.code == 3
    assert calls == ["main", "freeze"]
    assert told == [True]          # the command may leave the collector paused: the end


def _python(code: str) -> subprocess.CompletedProcess:
    """``code`` run by a fresh Python in the project's folder (its modules as imported)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_building_the_parser_imports_no_numerical_library():
    code = ("import sys, topicsetsize.cli as cli; cli.build_parser(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'numpy', 'scipy', 'pandas', 'openpyxl', 'tqdm'}))")
    done = _python(code)
    assert done.stdout.strip() == "[]"


def test_a_hidden_progress_bar_imports_no_tqdm():
    """Where stderr is not a terminal the bar shows nothing, and tqdm is not imported for it
    (its version lookup reads package metadata: some 15 ms of every command)."""
    done = _python("import sys\nfrom topicsetsize.cli._common import progress\n"
                   "with progress(3, 'x') as bar:\n    bar.update(1); bar.set_postfix_str('y')\n"
                   "bar.close()\nprint('tqdm' in sys.modules)")
    assert done.stdout.strip() == "False" and done.stderr == ""


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_import_no_numerical_library(flag):
    heavy = "{'numpy', 'scipy', 'pandas'}"
    code = (f"import sys, runpy; sys.argv = ['topicsetsize', {flag!r}]\n"
            "try:\n    runpy.run_module('topicsetsize', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {heavy}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_spelled_out_choices_agree_with_the_engine():
    from topicsetsize.checks.resampling import TESTS
    from topicsetsize.checks.selection import SCORE_KINDS

    assert cli_reliability._SCORE_KINDS == SCORE_KINDS
    assert cli_reliability._TESTS == TESTS
    from topicsetsize.checks.resampling import _CHUNK_ELEMENTS

    assert cli_reliability._INDEXED_DRAWS_MAX == _CHUNK_ELEMENTS   # check-power's estimate


def test_a_bug_keeps_its_traceback(monkeypatch):
    """Only ValueError and OSError are user errors: a KeyError is a bug and propagates."""
    from topicsetsize.cli import design

    def broken(args):
        raise KeyError("internal")

    monkeypatch.setattr(design, "_n", broken)
    with pytest.raises(KeyError, match="internal"):
        main(["n", "ci", "--delta", "0.1", "--variance-t", "0.1"])


@pytest.mark.parametrize("error", [ValueError("could not broadcast"), ZeroDivisionError("x"),
                                   OSError(errno.ENOSPC, "No space left on device")])
def test_a_value_error_or_an_os_error_on_no_path_is_a_bug(monkeypatch, error):
    """A ValueError that is not an InputError, or an OSError of the OS on no path of the user,
    is a bug: it keeps its traceback (main lets it propagate)."""
    from topicsetsize.cli import design

    def broken(args):
        raise error

    monkeypatch.setattr(design, "_n", broken)
    with pytest.raises(type(error)):
        main(["n", "ci", "--delta", "0.1", "--variance-t", "0.1"])


@pytest.mark.parametrize("error, line", [
    (InputError("delta=0.1 is wrong"), "--delta 0.1 is wrong"),
    (SearchLimitError("too small"), "too small"),
    (FileNotFoundError("x.csv: no such file"), "x.csv: no such file"),
    (FileNotFoundError(errno.ENOENT, "No such file or directory", "y.csv"),
     "y.csv: No such file or directory"),
])
def test_an_input_error_or_an_os_error_on_the_users_path_is_one_line(capsys, monkeypatch,
                                                                      error, line):
    from topicsetsize.cli import design

    def refuse(args):
        raise error

    monkeypatch.setattr(design, "_n", refuse)
    err = one_line_error(capsys, "n", "ci", "--delta", "0.1", "--variance-t", "0.1")
    assert err == f"topicsetsize: error: {line}\n"


@pytest.mark.parametrize("argv, line", [
    (("n", "anova", "--min-d", "-1e-3", "--variance", "0.05", "--m", "5"),
     "--min-d -0.001 is out of range: allowed min_d > 0"),
    (("n", "ttest", "--min-dt", "0.1", "--variance-t", "-inf"),
     "--variance-t -inf is not a finite number: allowed variance_t > 0"),
    (("table", "anova", "--variance", "0.05", "--m", "2,5", "--min-d", "-1e-2,0.1"),
     "--min-d -0.01 is out of range: allowed min_d > 0"),
    (("n", "anova", "--min-d", "0.1", "--variance", "0.05", "--m", "5", "--alpha", "-.05"),
     "--alpha -0.05 is out of range: allowed 0 < alpha < 1"),
])
def test_a_negative_number_in_any_spelling_is_a_value_named_with_its_range(capsys, argv, line):
    """argparse took only -0.1-like tokens as values: "--min-d -1e-3" (or -inf, or a list
    that starts with a negative number) was an option missing its value ("expected one
    argument"), a message that names neither the value nor its range."""
    assert one_line_error(capsys, *argv) == f"topicsetsize: error: {line}\n"


def test_messages_speak_in_flags(capsys):
    """The engine says method='exact'; the command line says --method exact."""
    err = one_line_error(capsys, "guarantees", "--variance", "0.0601", "--n", "2")
    assert "--method exact" in err and "method=" not in err and "--n 2 is too small" in err
    assert "allowed n >= 3," in err          # how large n must be, not "a larger n"


@pytest.mark.slow
def test_workbook_under_a_file_is_one_line_naming_the_path(capsys, tmp_path):
    blocker = tmp_path / "FILE"
    blocker.write_text("x")
    target = blocker / "sub.xlsx"
    err = one_line_error(capsys, "workbook", "--out", str(target))
    assert err == f"topicsetsize: error: {target}: cannot write: {blocker} is not a folder\n"


@pytest.mark.slow
@pytest.mark.parametrize("fail", ["mkstemp", "replace"])
def test_unwritable_output_names_the_users_path_not_the_temporary_file(capsys, tmp_path,
                                                                       monkeypatch, fail):
    target = tmp_path / "w.xlsx"
    seen = []
    if fail == "mkstemp":
        def refuse(*args, **kwargs):
            name = os.path.join(kwargs["dir"], kwargs["prefix"] + "abc" + kwargs["suffix"])
            seen.append(name)
            raise PermissionError(errno.EACCES, "Permission denied", name)
        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    else:
        def refuse(src, dst):
            seen.append(str(src))
            raise PermissionError(errno.EACCES, "Permission denied", str(src), str(dst))
        monkeypatch.setattr(topicsetsize.atomic.os, "replace", refuse)
    err = one_line_error(capsys, "workbook", "--out", str(target))
    assert err == f"topicsetsize: error: {target}: cannot write: Permission denied\n"
    assert seen and seen[0] not in err
    assert list(tmp_path.iterdir()) == []


def test_read_only_folder_is_one_line(capsys, tmp_path):
    if os.geteuid() == 0 if hasattr(os, "geteuid") else True:
        pytest.skip("root (or Windows) ignores a folder's write permission")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        err = one_line_error(capsys, "workbook", "--out", str(folder / "w.xlsx"))
    finally:
        folder.chmod(0o755)
    assert str(folder / "w.xlsx") in err and "Permission denied" in err


@pytest.mark.parametrize("module, function, argv", [
    ("topicsetsize.estimates.summary", "summarise_many", ["variance", "--example"]),
    ("topicsetsize.report", "collection_report", ["report", "--example"]),
])
def test_a_value_error_of_the_engine_is_not_made_a_user_error(monkeypatch, module, function,
                                                              argv):
    """The commands that name the matrix in a user error re-raise only InputError: a plain
    ValueError from the engine is a bug and keeps its traceback."""
    import importlib

    def broken(*args, **kwargs):
        raise ValueError("operands could not be broadcast together")

    monkeypatch.setattr(importlib.import_module(module), function, broken)
    with pytest.raises(ValueError, match="broadcast") as info:
        main(argv)
    assert type(info.value) is ValueError
