"""tests/_once.py: a run's expensive fixture is shared out among the pytest-xdist workers."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ._once import share, shared_folder

ROOT = Path(__file__).resolve().parents[1]

#: One "worker": its base temporary folder inside the run's, as pytest-xdist lays them out.
WORKER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tests._once import share

    class Factory:
        def getbasetemp(self):
            return Path(sys.argv[1]) / ("popen-" + sys.argv[2])

    def compute(part, folder):
        with open(folder / "computed", "a") as f:   # one line per part computed
            f.write(f"{part} {sys.argv[2]}\\n")
        time.sleep(0.3)                             # the other worker asks meanwhile
        return {"part": part, "by": sys.argv[2]}

    print(" ".join(f"{r['part']}:{r['by']}" for r in share(Factory(), "work", [0, 1, 2, 3, 4, 5],
                                                            compute)))
""")


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="the locks are POSIX's flock")
def test_two_workers_share_the_parts_and_read_the_same_results(tmp_path):
    procs = []
    for worker in ("gw0", "gw1"):
        (tmp_path / f"popen-{worker}").mkdir()
        env = dict(os.environ, PYTEST_XDIST_WORKER=worker,
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")])))
        procs.append(subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), worker],
                                      stdout=subprocess.PIPE, text=True, env=env))
    answers = [p.communicate(timeout=60)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    computed = (tmp_path / "work" / "computed").read_text().splitlines()
    assert sorted(int(line.split()[0]) for line in computed) == list(range(6))  # each part once
    assert answers[0] == answers[1]              # both workers read the same results, in order
    assert answers[0] == [f"{line.split()[0]}:{line.split()[1]}"
                          for line in sorted(computed, key=lambda s: int(s.split()[0]))]


def test_without_xdist_every_part_is_computed_here_once(tmp_path_factory, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    folder = shared_folder(tmp_path_factory, "alone")
    assert folder.parent == tmp_path_factory.getbasetemp()
    calls = []
    compute = lambda part, f: calls.append((part, f)) or {"part": part}
    first = share(tmp_path_factory, "alone", ["a", "b"], compute)
    again = share(tmp_path_factory, "alone", ["a", "b"], compute)
    assert first == again == [{"part": "a"}, {"part": "b"}]
    assert calls == [("a", folder), ("b", folder)]
