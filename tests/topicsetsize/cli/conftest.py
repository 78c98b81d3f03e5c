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
