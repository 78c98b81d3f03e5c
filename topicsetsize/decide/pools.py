"""The depth-pd pool of past runs: each run ranked as trec_eval ranks it, each retrieved
document's best rank over the runs, and the pool of a depth (the documents of best rank at most
pd). :mod:`topicsetsize.decide.pooling` re-judges and re-evaluates the runs with these pools
(the ranking rules are in its module docstring).
"""

from __future__ import annotations

import pandas as pd

from ..matrices.runfiles import as_run, trec_order
from ..params import check

__all__ = ["trec_ranking", "best_ranks", "depth_pool"]


def trec_ranking(runs: dict) -> pd.DataFrame:
    """All runs in one frame, each ranked per topic as trec_eval ranks it.

    Parameters
    ----------
    runs : dict
        ``{run name: frame with query_id, doc_id, score}``.

    Returns
    -------
    pandas.DataFrame
        Columns ``run``, ``query_id``, ``doc_id``, ``score`` and ``trec_rank`` (1, 2, ... per
        run and topic): score descending, ties by doc_id descending.

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["a", "b", "c"],
    ...                     "score": [1.0, 1.0, 2.0]})
    >>> trec_ranking({"r": run})[["doc_id", "trec_rank"]].to_numpy().tolist()
    [['c', 1], ['b', 2], ['a', 3]]
    """
    frame = pd.concat([r[["query_id", "doc_id", "score"]].assign(run=name)
                       for name, r in runs.items()], ignore_index=True)
    frame = trec_order(frame, columns=("run", "query_id", "score", "doc_id")).reset_index(
        drop=True)
    frame["trec_rank"] = frame.groupby(["run", "query_id"], sort=False).cumcount() + 1
    return frame[["run", "query_id", "doc_id", "score", "trec_rank"]]


#: Rows of per-run top documents kept before they are merged into best ranks (pass 1).
_REDUCE_ROWS = 200_000


def _best(tops: list) -> pd.DataFrame:
    """The best ``trec_rank`` of each (topic, document) over several runs' top documents."""
    return pd.concat(tops, ignore_index=True).groupby(
        ["query_id", "doc_id"], sort=False, as_index=False)["trec_rank"].min()


def _top(run: pd.DataFrame, depth: int) -> pd.DataFrame:
    """One run's top ``depth`` documents per topic in trec_eval order, with ``trec_rank``."""
    ranked = trec_order(run[["query_id", "doc_id", "score"]])
    rank = ranked.groupby("query_id", sort=False).cumcount().to_numpy() + 1
    keep = rank <= depth
    return pd.DataFrame({"query_id": ranked["query_id"].to_numpy()[keep],
                         "doc_id": ranked["doc_id"].to_numpy()[keep], "trec_rank": rank[keep]})


def best_ranks(runs: dict) -> pd.Series:
    """For every retrieved (topic, document), its best trec_eval rank over the runs.

    The depth-pd pool is exactly the pairs whose best rank is at most pd (:func:`depth_pool`).
    """
    ranked = trec_ranking(runs)
    return ranked.groupby(["query_id", "doc_id"], sort=True)["trec_rank"].min()


def depth_pool(runs: dict, depth: int) -> pd.DataFrame:
    """The depth-pd pool: the union of every run's top ``depth`` documents per topic.

    Parameters
    ----------
    runs : dict
        ``{run name: frame with query_id, doc_id, score}`` or ``{run name: path}``.
    depth : int
        Pool depth pd, at least 1.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, sorted.

    Examples
    --------
    >>> r1 = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"],
    ...                    "score": [3.0, 2.0, 1.0]})
    >>> r2 = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["c", "d", "a"],
    ...                    "score": [3.0, 2.0, 1.0]})
    >>> depth_pool({"r1": r1, "r2": r2}, 1).to_numpy().tolist()
    [['1', 'a'], ['1', 'c']]
    """
    depth = check("depth", depth, allow_array=False)
    best = best_ranks({name: as_run(r, name) for name, r in runs.items()})
    return best[best <= depth].index.to_frame(index=False)
