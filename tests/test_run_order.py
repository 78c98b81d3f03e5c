"""tests/conftest.py's run_order: the order in which the pytest-xdist workers take the files."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from .conftest import QUICK_COST, SLOW_COST, run_order


@dataclass
class Item:
    """What run_order reads of a pytest item."""

    nodeid: str
    slow: bool = False
    fixturenames: tuple = ()

    def get_closest_marker(self, name):
        return pytest.mark.slow if name == "slow" and self.slow else None


def test_run_order_starts_the_batch_then_runs_the_rest_heaviest_first():
    items = [Item("a.py::t1"), Item("a.py::t2", slow=True),                    # 1.05
             Item("b.py::t1", fixturenames=("batch",)),                        # 0.05, batch
             Item("c.py::t1", slow=True), Item("c.py::t2", slow=True),         # 2.0
             Item("d.py::t1", slow=True, fixturenames=("built", "batch")),     # 1.0, batch
             Item("d.py::t2"),
             Item("e.py::t1")]                                                 # 0.05
    order = [i.nodeid for i in run_order(items)]
    # the costliest file that reads the batch first, the files without it by cost, the rest
    assert order == ["d.py::t1", "d.py::t2", "c.py::t1", "c.py::t2", "a.py::t1", "a.py::t2",
                     "e.py::t1", "b.py::t1"]
    assert SLOW_COST > QUICK_COST > 0


def test_run_order_keeps_every_test_once_and_each_file_whole():
    items = [Item(f"f{k % 4}.py::t{k}", slow=k % 3 == 0,
                  fixturenames=("batch",) if k % 5 == 0 else ()) for k in range(40)]
    ordered = run_order(items)
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)
    files = [i.nodeid.split("::")[0] for i in ordered]
    assert all(files.index(f) + files.count(f) - 1 == len(files) - 1 - files[::-1].index(f)
               for f in set(files))                        # contiguous
    for name in set(files):                                # a file's tests in their order
        assert [i.nodeid for i in ordered if i.nodeid.startswith(name)] == \
               [i.nodeid for i in items if i.nodeid.startswith(name)]
