"""One checked TREC run held as columns: what :func:`topicsetsize.matrices.runfiles.parse_run`
returns, and what evaluating a run or pooling runs reads, without a data frame in between.

Topics are held as codes into the list of distinct topic ids in order of first appearance (as
:func:`pandas.factorize` numbers them); documents as the list of their ids, scores and ranks as
arrays, all in the order of the file.
"""

from __future__ import annotations

import operator

import numpy as np
import pandas as pd

__all__ = ["RunColumns", "factorize"]


def factorize(values: list) -> tuple[list, np.ndarray]:
    """``(uniques, codes)`` of a list of ids, as :func:`pandas.factorize` gives them (uniques in
    order of first appearance), found from the runs of equal neighbours (a run or qrels file
    lists a topic's lines together, so there are few).

    >>> factorize(["b", "b", "a", "b"])
    (['b', 'a'], array([0, 0, 1, 0]))
    """
    n = len(values)
    change = np.fromiter(map(operator.ne, values[1:], values[:-1]), bool, max(n - 1, 0))
    starts = np.r_[0, np.flatnonzero(change) + 1] if n else np.zeros(0, np.intp)
    index: dict = {}
    block = np.fromiter((index.setdefault(values[i], len(index)) for i in starts.tolist()),
                        np.intp, len(starts))
    return list(index), np.repeat(block, np.diff(np.r_[starts, n]))


class RunColumns:
    """One checked run: ``topics`` (distinct ids, first appearance first), ``topic`` (each
    row's code into them), ``docs`` (list of document ids), ``score`` (float), ``rank`` (int,
    the file's; None for a run given as a frame), ``tag`` (the run tag, or None).

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
        codes, uniques = pd.factorize(frame["query_id"].to_numpy(object))
        rank = frame["rank"].to_numpy() if "rank" in frame else None
        return cls(list(uniques), codes.astype(np.intp), frame["doc_id"].tolist(),
                   frame["score"].to_numpy(float), rank, frame.attrs.get("tag"))

    def frame(self) -> pd.DataFrame:
        """The run as :func:`~topicsetsize.matrices.runfiles.read_run` returns it."""
        run = pd.DataFrame({"query_id": np.asarray(self.topics, object)[self.topic],
                            "doc_id": np.asarray(self.docs, object), "rank": self.rank,
                            "score": self.score})
        run.attrs["tag"] = self.tag
        return run

    def grouped(self) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """``(order, starts, codes)``: the rows by topic, in order of first appearance, each
        topic's rows in file order (``order`` is None where the file already lists them so),
        the first row of each topic's block in that order, and each block's topic code."""
        topic, order = self.topic, None
        if len(topic) and (np.diff(topic) < 0).any():    # a topic listed in pieces
            order = np.argsort(topic, kind="stable")
            topic = topic[order]
        starts = np.flatnonzero(np.r_[True, topic[1:] != topic[:-1]]) if len(topic) else \
            np.zeros(0, np.intp)
        return order, starts, topic[starts]

    def as_dict(self, topics=None) -> dict:
        """``{qid: {docid: score}}`` (ir_measures' run format) of the rows on ``topics`` (all
        where None), topics in order of first appearance and documents in file order."""
        order, starts, codes = self.grouped()
        docs, score = self.docs, self.score
        if order is not None:
            docs, score = np.asarray(docs, object)[order].tolist(), score[order]
        score = score.tolist()
        wanted = None if topics is None else set(topics)
        bounds = np.r_[starts, len(docs)].tolist()
        out = {}
        for k, code in enumerate(codes.tolist()):
            qid = self.topics[code]
            if wanted is None or qid in wanted:
                a, b = bounds[k], bounds[k + 1]
                out[qid] = dict(zip(docs[a:b], score[a:b]))
        return out
