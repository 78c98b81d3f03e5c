"""Work done once per test run, however many pytest-xdist workers ask for it.

The suite runs on every core (``-n auto`` in pyproject.toml's pytest options). A session
fixture then runs once per worker; :func:`once` makes an expensive one (the LibreOffice
recalculation of the generator's workbooks) run in the first worker that asks, while the
others wait for it and read its result. A plain ``pytest -n 0`` run computes it itself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["shared_folder", "once"]


def shared_folder(tmp_path_factory, name: str) -> Path:
    """A folder that every worker of this run sees: pytest-xdist gives each worker a base
    temporary folder (``popen-gw0``...) inside the run's own, which is shared."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def once(tmp_path_factory, name: str, compute: Callable[[Path], dict]) -> dict:
    """``compute(folder)``'s result (a JSON-able dict), computed by the first worker that asks
    and read back by the others, which wait on a lock while it works."""
    folder = shared_folder(tmp_path_factory, name)
    result = folder / "result.json"
    with open(folder / "lock", "w") as lock:
        if os.name == "posix":       # Windows has no fcntl: there, every worker computes
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        if result.exists():
            return json.loads(result.read_text(encoding="utf-8"))
        value = compute(folder)
        partial = result.with_suffix(".partial")
        partial.write_text(json.dumps(value), encoding="utf-8")
        partial.replace(result)      # a worker that reads it reads it whole
        return value
