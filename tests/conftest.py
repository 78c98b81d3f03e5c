"""Shared test fixtures. Test data lives in tests/data/ with its provenance."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from topicsetsize.examples import EXAMPLE_FILE

if TYPE_CHECKING:
    import pandas as pd

#: The package's own data folder: the bundled example matrix is stored there only.
BUNDLED = Path(__file__).resolve().parents[1] / "topicsetsize" / "data"


class TestData(type(Path())):
    """``tests/data``, where the bundled example matrix's name resolves to the package's copy."""

    __test__ = False  # not a test class

    def __truediv__(self, name):
        if str(name) == EXAMPLE_FILE:
            return BUNDLED / EXAMPLE_FILE
        return super().__truediv__(name)


DATA = TestData(Path(__file__).parent / "data")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="module", params=["web2010", "robust2004"])
def real_scores(request) -> pd.DataFrame:
    """Two real topic-by-run matrices: TREC 2010 Web AP (the bundled example, 88 runs) and
    TREC 2004 Robust AP (tests/data, 110 runs; provenance in tests/data/PROVENANCE.md)."""
    import pandas as pd

    from topicsetsize.examples import example_matrix

    if request.param == "web2010":
        return example_matrix()
    return pd.read_csv(DATA / "trec2004robust_ap.csv", index_col=0)


#: The run of :func:`runs_lacking_topics` that retrieves nothing for :data:`LACKED_TOPICS`.
LACKING_RUN, LACKED_TOPICS = "Arun3", ("401", "402")


@pytest.fixture(scope="session")
def runs_lacking_topics(tmp_path_factory) -> Path:
    """A copy of tests/data/pool_runs/A/runs (8 runs, 25 topics, judged by its qrels.txt) in
    which :data:`LACKING_RUN` has no line for the topics :data:`LACKED_TOPICS`: a run that
    retrieved nothing for some topics, as IIIT's CLEF 2017 TAR run for 3 of the 30."""
    folder = tmp_path_factory.mktemp("lacking") / "runs"
    folder.mkdir()
    for path in sorted((DATA / "pool_runs" / "A" / "runs").iterdir()):
        lines = path.read_text().splitlines(keepends=True)
        if path.name == LACKING_RUN:
            lines = [line for line in lines if line.split()[0] not in LACKED_TOPICS]
        (folder / path.name).write_text("".join(lines))
    return folder


#: Doctests that take a second or more each (the report's 64,000 split halves; the pages'
#: worked examples on real matrices), by the start of their test id: ``slow`` too.
SLOW_DOCTESTS = ("docs/report.md::", "docs/deciding.md::", "docs/checks.md::",
                 "topicsetsize/report.py::",
                 "topicsetsize/decide/realistic.py::topicsetsize.decide.realistic.min_d_notes")


#: The rough cost of a test, in seconds, for the order of the files: ``slow`` (a second or
#: more, by its marker) or not (2,607 quick tests take about 2 minutes of CPU).
SLOW_COST, QUICK_COST = 1.0, 0.05


def pytest_collection_modifyitems(config, items):
    """Every LibreOffice test launches soffice: it is also ``slow`` (``pytest -m "not slow"``),
    and so are the doctests of :data:`SLOW_DOCTESTS`. Then the files are put in the order in
    which the workers take them (:func:`run_order`)."""
    for item in items:
        if item.get_closest_marker("slow"):
            continue
        if item.get_closest_marker("libreoffice") or item.nodeid.startswith(SLOW_DOCTESTS):
            item.add_marker(pytest.mark.slow)
    items[:] = run_order(items)


def run_order(items: list) -> list:
    """The tests file by file, in the order that keeps both pytest-xdist workers busy.

    pytest-xdist (``--dist loadfile --no-loadscope-reorder``, in pyproject.toml) hands out
    whole files in this order. The LibreOffice batch (the ``batch`` fixture) is recalculated
    once per run, in the worker that first asks, for about three minutes; a second worker that
    asked meanwhile would wait for it. So one file that reads the batch goes first (its worker
    starts the batch at once), then the files that do not, the most expensive first (a long
    file last would leave a worker idle at the end), then the other files that read the batch,
    ready by then. A file's tests keep their order; the cost of a file is estimated from its
    ``slow`` markers (:data:`SLOW_COST`, :data:`QUICK_COST`).
    """
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def cost(name: str) -> float:
        return sum(SLOW_COST if i.get_closest_marker("slow") else QUICK_COST
                   for i in files[name])

    readers = {name for name, tests in files.items()
               if any("batch" in getattr(i, "fixturenames", ()) for i in tests)}
    by_cost = sorted(files, key=lambda name: (-cost(name), name))
    batch = [name for name in by_cost if name in readers]
    order = batch[:1] + [name for name in by_cost if name not in readers] + batch[1:]
    return [item for name in order for item in files[name]]
