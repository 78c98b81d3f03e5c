"""Fixtures of the command-line tests: the installed console script, found without PATH."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

#: The repository root: the console script must import this checkout's package.
ROOT = Path(__file__).resolve().parents[3]


def console_script() -> Path:
    """The ``topicsetsize`` script installed next to this Python (``Scripts\\`` on Windows).

    A virtual environment that is not activated is not on PATH, so ``shutil.which`` would miss
    it; pip puts console scripts in the folder of ``sys.executable`` (bin/ or Scripts/).
    """
    folder = Path(sys.executable).parent
    if os.name == "nt":
        names = [folder / "topicsetsize.exe", folder / "Scripts" / "topicsetsize.exe"]
    else:
        names = [folder / "topicsetsize"]
    for path in names:
        if path.is_file():
            return path
    pytest.fail(f"the topicsetsize console script is not installed next to {sys.executable} "
                "(pip install -e .)")


@pytest.fixture(scope="session")
def script() -> list[str]:
    """The console script as a command list."""
    return [str(console_script())]


@pytest.fixture(scope="session")
def script_env() -> dict[str, str]:
    """The environment for the script: this checkout's package first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """Run the command in-process: (exit status, stdout, stderr); argparse's exits included."""
    from topicsetsize.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:       # argparse errors
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line_error(capsys, *argv) -> str:
    """Run the command and check that it fails as a user error should: exit status 2, nothing
    on stdout, one line on stderr from the command, no traceback. Returns that line."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("topicsetsize: error: ") or \
        err.startswith("topicsetsize "), err
    assert "Traceback" not in err
    return err
