"""Work done once per test run, however many pytest-xdist workers ask for it.

The suite runs on every core (``-n auto`` in pyproject.toml's pytest options). A session
fixture then runs once per worker; :func:`share` makes an expensive one (the LibreOffice
recalculation of the generator's workbooks) run once for the whole run, its parts shared out
among the workers that ask for it: each takes the parts nobody has taken yet, then waits for
the parts the others are still doing and reads their results. A plain ``pytest -n 0`` run
does every part itself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["shared_folder", "share"]


def shared_folder(tmp_path_factory, name: str) -> Path:
    """A folder that every worker of this run sees: pytest-xdist gives each worker a base
    temporary folder (``popen-gw0``...) inside the run's own, which is shared."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def _locked(path: Path, *, wait: bool):
    """Hold the lock file ``path`` (True), or yield False where another process holds it and
    ``wait`` is false. Without POSIX's flock (Windows) every lock is granted at once."""
    with open(path, "w") as handle:
        if os.name != "posix":
            yield True
            return
        import fcntl

        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True              # closing the file releases the lock


def share(tmp_path_factory, name: str, parts: Sequence,
          compute: Callable[[object, Path], dict]) -> list[dict]:
    """``[compute(part, folder) for part in parts]`` (each a JSON-able dict), every part
    computed once in the run: by this worker where no other has taken it, else read back
    once the worker doing it is done."""
    folder = shared_folder(tmp_path_factory, name)
    results: dict[int, dict] = {}

    def take(k: int, *, wait: bool) -> bool:
        done = folder / f"{k}.json"
        with _locked(folder / f"{k}.lock", wait=wait) as held:
            if not held:
                return False
            if not done.exists():
                partial = done.with_suffix(".partial")
                partial.write_text(json.dumps(compute(parts[k], folder)), encoding="utf-8")
                partial.replace(done)       # a worker that reads it reads it whole
            results[k] = json.loads(done.read_text(encoding="utf-8"))
            return True

    left = [k for k in range(len(parts)) if not take(k, wait=False)]
    for k in left:                          # taken by another worker: wait for it
        take(k, wait=True)
    return [results[k] for k in range(len(parts))]
