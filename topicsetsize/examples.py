"""The bundled example: per-topic AP of the TREC 2010 Web track ad hoc runs (48 topics × 88 runs).

Shipped as ``topicsetsize/data/trec2010web_ap.csv`` (MIT, from the R package simIReff by Julián
Urbano; see ``topicsetsize/data/PROVENANCE.md``), so that a new user can see real output
(``topicsetsize variance --example``) before they have data of their own.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # the command line's parser reads EXAMPLE_RUNS_DEPTH without pandas
    import pandas as pd

__all__ = ["EXAMPLE_FILE", "example_matrix", "EXAMPLE_RUNS", "EXAMPLE_RUNS_DEPTH",
           "example_runs"]

#: The bundled file, inside the package ``topicsetsize.data``.
EXAMPLE_FILE = "trec2010web_ap.csv"


def example_matrix() -> pd.DataFrame:
    """The bundled TREC 2010 Web track AP matrix: 48 topics (q01..q48) × 88 runs (sys1..sys88).

    Read with :func:`~topicsetsize.matrices.readers.read_matrix` from the package data
    (:mod:`importlib.resources`). Quirks kept on purpose: several runs are identical (e.g. sys4
    and sys5) and sys28 and sys34 have a mean AP below 0.01.

    Returns
    -------
    pandas.DataFrame
        Topics as the index, runs as the columns, AP values in [0, 1].

    Examples
    --------
    >>> scores = example_matrix()
    >>> scores.shape
    (48, 88)
    >>> scores.index[:3].tolist(), scores.columns[:3].tolist()
    (['q01', 'q02', 'q03'], ['sys1', 'sys2', 'sys3'])
    """
    from .matrices.readers import read_matrix

    source = resources.files("topicsetsize.data") / EXAMPLE_FILE
    with resources.as_file(source) as path:
        frame = read_matrix(path, fmt="wide")
    frame.attrs.update(source=f"topicsetsize.data/{EXAMPLE_FILE}", measure="AP")
    return frame


#: The bundled CLEF 2017 eHealth TAR runs and qrels, inside ``topicsetsize.data``.
EXAMPLE_RUNS = "clef2017_tar"
#: The documents per topic each bundled run keeps (its top ones in trec_eval order): pools and
#: scores of the bundled runs are those of runs submitted at this depth.
EXAMPLE_RUNS_DEPTH = 100


def example_runs() -> tuple[Path, Path]:
    """The bundled real runs and qrels: ``(runs folder, qrels file)`` of CLEF 2017 eHealth TAR.

    20 runs × 30 topics (IIIT: 27), trimmed to the top 100 documents per topic in trec_eval
    order, with their quirks (see ``topicsetsize/data/clef2017_tar/README.md``; MIT, Copyright
    (c) 2017 Leif Azzopardi). One run (UOS TMAL30Q_BM25) retrieves documents twice: read it
    with ``duplicates="first"``.

    Examples
    --------
    >>> runs, qrels = example_runs()
    >>> len(list(runs.iterdir())), qrels.name
    (20, 'qrels.gz')
    """
    folder = Path(str(resources.files("topicsetsize.data") / EXAMPLE_RUNS))
    return folder / "runs", folder / "qrels.gz"
