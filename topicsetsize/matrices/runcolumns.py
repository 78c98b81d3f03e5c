"""One checked TREC run held as columns: what :func:`topicsetsize.matrices.runfiles.parse_run`
returns, and what evaluating a run or pooling runs reads, without a data frame in between.

Topics are held as codes into the list of distinct topic ids in order of first appearance (as
:func:`pandas.factorize` numbers them); documents as the list of their ids, scores and ranks as
arrays, all in the order of the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RunColumns", "topic_blocks", "by_topic", "whole_runs"]


def topic_blocks(topic: np.ndarray) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """``(order, starts, codes)`` of rows with topic codes ``topic`` (numbered in order of first
    appearance): the rows by topic, each topic's rows in their order (``order`` is None where
    they are so already), the first row of each topic's block in that order, and each block's
    topic code.

    >>> topic_blocks(np.array([0, 0, 1, 0]))
    (array([0, 1, 3, 2]), array([0, 3]), array([0, 1]))
    """
    order = None
    if len(topic) and (np.diff(topic) < 0).any():    # a topic listed in pieces
        order = np.argsort(topic, kind="stable")
        topic = topic[order]
    starts = np.flatnonzero(np.r_[True, topic[1:] != topic[:-1]]) if len(topic) else \
        np.zeros(0, np.intp)
    return order, starts, topic[starts]


def whole_runs(pairs, n_topics: int) -> list:
    """The run tags, of a file's (tag, topic code) ``pairs`` over ``n_topics``, that each
    retrieve for every topic: two or more of them are runs concatenated in one file, which
    trec_eval would read, and evaluate, as one run. A tag per topic (CLEF 2017 TAR's AMC run
    writes a number there) covers one topic each; a file of one topic says nothing.

    >>> whole_runs({("X", 0), ("X", 1), ("Y", 0), ("Y", 1)}, 2)
    ['X', 'Y']
    >>> whole_runs({("7", 0), ("9", 1)}, 2)
    []
    """
    if n_topics < 2:
        return []
    covered: dict = {}
    for tag, _ in pairs:
        covered[tag] = covered.get(tag, 0) + 1
    return sorted(str(tag) for tag, count in covered.items() if count == n_topics)


def by_topic(topics: list, topic: np.ndarray, keys: list, values: np.ndarray,
             wanted=None) -> dict:
    """``{topic id: {key: value}}`` of rows (topic codes ``topic`` into ``topics``), topics in
    order of first appearance and keys in row order; only the topics in ``wanted`` unless None.

    >>> by_topic(["1", "2"], np.array([0, 1, 0]), ["a", "b", "c"], np.array([1, 2, 3]))
    {'1': {'a': 1, 'c': 3}, '2': {'b': 2}}
    """
    order, starts, codes = topic_blocks(topic)
    if order is not None:
        keys, values = np.asarray(keys, object)[order].tolist(), values[order]
    values = values.tolist()
    wanted = None if wanted is None else set(wanted)
    bounds = np.r_[starts, len(keys)].tolist()
    out = {}
    for k, code in enumerate(codes.tolist()):
        qid = topics[code]
        if wanted is None or qid in wanted:
            out[qid] = dict(zip(keys[bounds[k]:bounds[k + 1]], values[bounds[k]:bounds[k + 1]]))
    return out


class RunColumns:
    """One checked run: ``topics`` (distinct ids, first appearance first), ``topic`` (each
    row's code into them), ``docs`` (list of document ids), ``score`` (float), ``rank`` (int,
    the file's; None for a run given as a frame), ``tag`` (the run tag, or None).

    >>> import pandas as pd
    >>> run = RunColumns.from_frame(pd.DataFrame({"query_id": ["1", "2", "1"],
    ...                                           "doc_id": ["a", "b", "c"],
    ...                                           "score": [1.0, 2.0, 3.0]}))
    >>> run.topics, run.topic.tolist(), run.as_dict(["1"])
    (['1', '2'], [0, 1, 0], {'1': {'a': 1.0, 'c': 3.0}})
    """

    def __init__(self, topics: list, topic: np.ndarray, docs: list, score: np.ndarray,
                 rank: np.ndarray | None = None, tag: str | None = None) -> None:
        self.topics, self.topic, self.docs = topics, topic, docs
        self.score, self.rank, self.tag = score, rank, tag

    def __len__(self) -> int:
        return len(self.docs)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> RunColumns:
        """A checked frame's columns (``query_id``, ``doc_id``, ``score``; ``rank`` if there;
        the tag from ``attrs["tag"]``)."""
        import pandas as pd
        codes, uniques = pd.factorize(frame["query_id"].to_numpy(object))
        rank = frame["rank"].to_numpy() if "rank" in frame else None
        return cls(list(uniques), codes.astype(np.intp), frame["doc_id"].tolist(),
                   frame["score"].to_numpy(float), rank, frame.attrs.get("tag"))

    def frame(self) -> pd.DataFrame:
        """The run as :func:`~topicsetsize.matrices.runfiles.read_run` returns it."""
        import pandas as pd
        run = pd.DataFrame({"query_id": np.asarray(self.topics, object)[self.topic],
                            "doc_id": np.asarray(self.docs, object), "rank": self.rank,
                            "score": self.score})
        run.attrs["tag"] = self.tag
        return run

    def grouped(self) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """:func:`topic_blocks` of the run's rows."""
        return topic_blocks(self.topic)

    def as_dict(self, topics=None) -> dict:
        """``{qid: {docid: score}}`` (ir_measures' run format) of the rows on ``topics`` (all
        where None), topics in order of first appearance and documents in file order."""
        return by_topic(self.topics, self.topic, self.docs, self.score, topics)
