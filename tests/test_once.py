"""tests/_once.py: a run's expensive fixture is computed by one pytest-xdist worker only."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ._once import once, shared_folder

ROOT = Path(__file__).resolve().parents[1]

#: One "worker": its base temporary folder inside the run's, as pytest-xdist lays them out.
WORKER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tests._once import once

    class Factory:
        def getbasetemp(self):
            return Path(sys.argv[1]) / ("popen-" + sys.argv[2])

    def compute(folder):
        with open(folder / "computed", "a") as f:   # one line per computation
            f.write(sys.argv[2] + "\\n")
        time.sleep(1.0)                             # the other worker asks meanwhile
        return {"by": sys.argv[2]}

    print(once(Factory(), "work", compute)["by"])
""")


@pytest.mark.skipif(os.name != "posix", reason="the lock is POSIX's flock")
@pytest.mark.slow
def test_two_workers_compute_once_and_read_the_same_result(tmp_path):
    procs = []
    for worker in ("gw0", "gw1"):
        (tmp_path / f"popen-{worker}").mkdir()
        env = dict(os.environ, PYTEST_XDIST_WORKER=worker,
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")])))
        procs.append(subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), worker],
                                      stdout=subprocess.PIPE, text=True, env=env))
    answers = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    computed = (tmp_path / "work" / "computed").read_text().split()
    assert len(computed) == 1                       # computed once...
    assert answers == computed * 2                  # ...and both workers got that result


def test_without_xdist_the_folder_is_the_runs_own(tmp_path_factory, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    folder = shared_folder(tmp_path_factory, "alone")
    assert folder.parent == tmp_path_factory.getbasetemp()
    calls = []
    first = once(tmp_path_factory, "alone", lambda f: calls.append(f) or {"n": len(calls)})
    again = once(tmp_path_factory, "alone", lambda f: calls.append(f) or {"n": len(calls)})
    assert first == again == {"n": 1} and calls == [folder]
