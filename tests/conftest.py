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


#: Doctests that take a second or more each (the report's 64,000 split halves; the pages'
#: worked examples on real matrices), by the start of their test id: ``slow`` too.
SLOW_DOCTESTS = ("docs/report.md::", "docs/deciding.md::", "docs/checks.md::",
                 "topicsetsize/report.py::",
                 "topicsetsize/decide/realistic.py::topicsetsize.decide.realistic.min_d_notes")


def pytest_collection_modifyitems(config, items):
    """Every LibreOffice test launches soffice: it is also ``slow`` (``pytest -m "not slow"``),
    and so are the doctests of :data:`SLOW_DOCTESTS`."""
    for item in items:
        if item.get_closest_marker("slow"):
            continue
        if item.get_closest_marker("libreoffice") or item.nodeid.startswith(SLOW_DOCTESTS):
            item.add_marker(pytest.mark.slow)
