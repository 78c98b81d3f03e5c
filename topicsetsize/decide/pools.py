"""The depth-pd pool of past runs: each run ranked as trec_eval ranks it, each retrieved
document's best rank over the runs, and the pool of a depth (the documents of best rank at most
pd). :class:`RankedRuns` holds a collection's runs, each parsed once, compactly, in that
order. :mod:`topicsetsize.decide.pooling` re-judges and re-evaluates the runs with these pools
(the ranking rules are in its module docstring).
"""

from __future__ import annotations

import mmap
import warnings
from itertools import repeat

import numpy as np
import pandas as pd

from ..matrices.runcolumns import RunColumns
from ..matrices.runfiles import as_run, trec_order, trec_score
from ..params import check
from .vocabulary import Vocabulary

__all__ = ["trec_ranking", "best_ranks", "depth_pool", "condensed_run", "RankedRuns",
           "DeeperThanRunsWarning", "warn_deeper_than_runs", "NoRelevantWarning",
           "without_relevant", "warn_no_relevant", "JUDGED_SHARE_MIN",
           "IncompleteJudgmentsWarning", "warn_incomplete"]


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


def condensed_run(run: dict, judged: dict) -> dict:
    """A run's condensed list (Sakai, SIGIR 2007): only its documents in ``judged``
    ({topic: set of documents}), in their order (as trec_eval ``-J`` evaluates it).

    >>> condensed_run({"1": {"a": 3.0, "b": 2.0, "c": 1.0}}, {"1": {"c", "a"}})
    {'1': {'a': 3.0, 'c': 1.0}}
    """
    return {q: {d: s for d, s in docs.items() if d in judged.get(q, ())}
            for q, docs in run.items()}


class DeeperThanRunsWarning(UserWarning):
    """A pool depth beyond the deepest rank at which any document enters the pool: its pool
    is that of the shallower depth, every document the runs retrieve."""


def warn_deeper_than_runs(depths, deepest: int, where: str = "", longest: int = 0) -> None:
    """One :class:`DeeperThanRunsWarning` naming the ``depths`` beyond ``deepest``, the
    largest best rank of a pooled document (a row of :meth:`RankedRuns.best_ranks` at the
    largest depth): their pools, V_E and n are those of pd = ``deepest``. Where a run's list
    is ``longest`` > ``deepest`` documents long (:attr:`RankedRuns.longest`), the runs do reach
    deeper, and the depths only add no document: said so.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_deeper_than_runs([1000, 100, 50], 100)
    >>> str(caught[0].message).split(": ")[0]
    'pd=1000 is deeper than the runs reach'
    """
    beyond = [d for d in depths if d > deepest]
    if beyond and longest > deepest:        # a deeper document enters beyond every depth asked
        ranks = (f"is {deepest + 1}" if max(beyond) == deepest + 1
                 else f"lies between {deepest + 1} and {max(beyond)}")
        warnings.warn(DeeperThanRunsWarning(
            f"{where}{', '.join(f'pd={d}' for d in beyond)} "
            f"add{'s' if len(beyond) == 1 else ''} no document to the pool of pd={deepest} (no "
            f"document's best rank over the runs {ranks}), so "
            f"{'its pool' if len(beyond) == 1 else 'their pools'}, V_E and n are those of "
            f"pd={deepest}"), stacklevel=3)
    elif beyond:
        warnings.warn(DeeperThanRunsWarning(
            f"{where}{', '.join(f'pd={d}' for d in beyond)} "
            f"{'is' if len(beyond) == 1 else 'are'} deeper than the runs reach: every document "
            f"they retrieve is in the pool from pd={deepest} on (no run ranks a new document "
            f"below rank {deepest}), so {'its pool' if len(beyond) == 1 else 'their pools'}, "
            f"V_E and n are those of pd={deepest}"), stacklevel=3)


#: Below this share of pooled documents judged by the qrels the study warns. Buckley & Voorhees
#: (SIGIR 2004) show that AP and P@10 are not robust to substantially incomplete judgments, and
#: Sakai (SIGIR 2007) that AP and nDCG on condensed lists are; neither gives a sharp threshold.
#: 90% (at most one pooled document in ten unjudged) is this project's convention.
JUDGED_SHARE_MIN = 0.90


class IncompleteJudgmentsWarning(UserWarning):
    """The qrels judge less than :data:`JUDGED_SHARE_MIN` of the pooled documents at a depth."""


def warn_incomplete(depths: list, share: np.ndarray, condensed: bool) -> None:
    """One :class:`IncompleteJudgmentsWarning` naming the depths whose pools the qrels judge
    less than :data:`JUDGED_SHARE_MIN` of."""
    low = [f"{share[k]:.0%} at pd={d}" for k, d in enumerate(depths)
           if share[k] < JUDGED_SHARE_MIN]
    if not low:
        return
    then = ("the condensed lists leave the others out, so the runs are compared on the judged "
            "documents only" if condensed else
            "the others count as non-relevant, so V_E and n there reflect the missing judgments "
            "as well as the pool depth (condensed lists evaluate on the judged documents only)")
    warnings.warn(IncompleteJudgmentsWarning(
        f"the qrels judge only {', '.join(low)} of the pooled documents (below "
        f"{JUDGED_SHARE_MIN:.0%}): {then}"), stacklevel=3)


class NoRelevantWarning(UserWarning):
    """Topics with no relevant document in a depth's pool: every run scores 0 on them there."""


def without_relevant(pool: pd.DataFrame, topics) -> list:
    """The ``topics`` with no relevant document (relevance at least 1) in ``pool`` (a depth's
    rows of :meth:`RankedRuns.pool`), in order.

    >>> pool = pd.DataFrame({"query_id": ["a", "a", "b"], "relevance": [0, 1, 0]})
    >>> without_relevant(pool, ["a", "b", "c"])
    ['b', 'c']
    """
    found = set(pool["query_id"][pool["relevance"].to_numpy() >= 1])
    return [t for t in topics if t not in found]


def warn_no_relevant(depths, lost: list[list], scores: dict, total: int, variance_of,
                     label: str) -> None:
    """One :class:`NoRelevantWarning` where some depth's pool leaves topics without a relevant
    document. ``lost[k]`` holds, per collection, the topics :func:`without_relevant` found at
    ``depths[k]``; ``scores`` the study's matrices by depth (one per collection, topics as
    rows). Every run scores 0 on such a topic, which stays in V_E and n (the topics are the
    same at every depth); trec_eval on that depth's qrels, and ``evaluate``, leave it out, so
    the warning gives ``variance_of`` (``label``, e.g. V_E raw) of the matrices without them.
    """
    counts = [sum(len(c) for c in per_collection) for per_collection in lost]
    if not any(counts):
        return
    parts = []
    for k, depth in enumerate(depths):
        if counts[k]:
            kept = [s.drop(index=c) for s, c in zip(scores[depth], lost[k])]
            without = (f"{label} without them {variance_of(kept):.4g}"
                       if min(len(x) for x in kept) >= 2 else "fewer than 2 topics without them")
            parts.append(f"{counts[k]}{f' of the {total}' if not parts else ''} at pd={depth} "
                         f"({without})")
    warnings.warn(NoRelevantWarning(
        f"topics with no relevant document in a depth's pool: {', '.join(parts)}; every run "
        "scores 0 on such a topic there, and it is kept in V_E and n, as at every depth "
        "(trec_eval on that depth's qrels, and evaluate, would leave it out; a collection "
        "judged that shallow may have to replace it)"), stacklevel=3)


class RankedRuns:
    """The runs of one collection, each read once and held compactly in trec_eval's order.

    Each run is kept as blocks, one per topic, of document codes (``int32``, into one vocabulary
    of document ids shared by the runs) sorted as trec_eval ranks them: score descending,
    compared in single precision as trec_eval stores a score, then document id descending
    (:func:`~topicsetsize.matrices.runfiles.trec_order`). The scores themselves are not kept:
    once ranked, a run's measures depend on its ranking only, which :meth:`run_dict` gives
    ir_measures as distinct descending scores. That is 4 bytes a retrieved document (about a
    seventh of a run file's line) plus each distinct document id once (while runs are added,
    some 30 bytes an id in a :class:`~topicsetsize.decide.vocabulary.Vocabulary`; Python
    strings made at once by :meth:`done`), from which the pool of every depth
    (:meth:`best_ranks`) and every run's ir_measures input (:meth:`run_dict`) are built without
    reading the files again.

    Examples
    --------
    >>> ranked = RankedRuns()
    >>> ranked.add(pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["a", "b", "c"],
    ...                          "score": [1.0, 1.0, 2.0]}))
    >>> ranked.run_dict(0, ["1"])       # c first (score 2), then b before a (a tie: ids decide)
    {'1': {'c': 3.0, 'b': 2.0, 'a': 1.0}}
    >>> ranked.best_ranks(2)
      query_id doc_id  rank
    0        1      b     2
    1        1      c     1
    >>> ranked.add_qrels(pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["b", "x"],
    ...                                "relevance": [2, 1]}))
    >>> ranked.pool(1, ["1"])          # the depth-1 pool (c), unjudged: relevance 0
      query_id doc_id  rank  relevance  in_qrels
    0        1      c     1          0     False
    """

    def __init__(self) -> None:
        self._topics: list[str] = []           # topic ids, a topic's code is its position
        self._topic_code: dict[str, int] = {}
        self._docs = Vocabulary()              # document ids, likewise (held compactly)
        self._runs: list[tuple] = []           # (block topics, block starts, docs, ties)
        self._tying = np.zeros(0, bool)        # the document codes that tie in some run
        self._retrieved: set[int] = set()      # the topics some run retrieves for
        self._qrels = (np.zeros(0, np.int64), np.zeros(0, np.int64))   # (keys, relevance)

    def __len__(self) -> int:
        return len(self._runs)

    def add(self, run) -> None:
        """Add one checked run (:class:`~topicsetsize.matrices.runcolumns.RunColumns`, e.g. from
        :func:`~topicsetsize.matrices.runfiles.parse_run`, or a frame ``query_id``, ``doc_id``,
        ``score``), ranked as trec_eval ranks it."""
        if isinstance(run, pd.DataFrame):
            run = RunColumns.from_frame(run)
        topic, docs = run.topic, run.docs
        score = trec_score(run.score).astype(np.float32)
        same = topic[1:] == topic[:-1]
        if (topic[1:] >= topic[:-1]).all() and not (same & (score[1:] > score[:-1])).any():
            order = np.arange(len(topic))       # the file lists the run in that order already
        else:
            order = np.lexsort((-score, topic))
        topic, score = topic[order], score[order]
        tied = (topic[1:] == topic[:-1]) & (score[1:] == score[:-1])
        starts = np.flatnonzero(np.r_[True, topic[1:] != topic[:-1]]) if len(topic) else \
            np.zeros(0, np.int64)
        block_topics = self._codes(np.asarray(run.topics, object), self._topics,
                                   self._topic_code)[topic[starts]]
        self._retrieved.update(block_topics.tolist())
        docs = self._docs.codes(docs)[order]
        # Ties (equal scores in a topic) are put in the order of their document ids, descending
        # (byte order, strcmp), once every run is in (:meth:`_settle`): one sort of the ids
        # that tie anywhere, instead of one a run.
        ties = None
        if tied.any():
            ties = _lasting(np.packbits(tied))
            self._tying = np.concatenate([self._tying, np.zeros(max(len(self._docs) -
                                                                   len(self._tying), 0), bool)])
            self._tying[docs[np.r_[tied, False] | np.r_[False, tied]]] = True
        self._runs.append((block_topics, np.r_[starts, len(order)], _lasting(docs), ties))

    def _settle(self) -> None:
        """Put every run's ties in trec_eval's order (document id descending): the ids that tie
        somewhere sorted once, as Python compares strings (code points: the byte order of
        UTF-8, trec_eval's strcmp), and each run's tied rows ordered by it."""
        if not any(run[3] is not None for run in self._runs):
            return
        tying = np.flatnonzero(self._tying)
        by_id = np.zeros(len(self._docs), np.int32)
        by_id[tying[np.argsort(np.array(self._docs.strings(tying), object), kind="stable")]] = \
            np.arange(1, len(tying) + 1, dtype=np.int32)
        for k, (block_topics, starts, docs, ties) in enumerate(self._runs):
            if ties is None:
                continue
            tied = np.unpackbits(ties, count=len(docs) - 1).view(bool)
            group = np.r_[0, np.cumsum(~tied, dtype=np.int64)]     # a tie's rows share one
            # By group, then document id descending: one int64 key (the group in the high
            # bits, 2**31 - by_id below, which is positive), sorted stably as lexsort sorts,
            # and much faster on keys already in order but for the ties.
            key = (group << 32) | (np.int64(2 ** 31) - by_id[docs])
            self._runs[k] = (block_topics, starts,
                             _lasting(docs[np.argsort(key, kind="stable")]), None)
        self._tying = np.zeros(0, bool)

    @staticmethod
    def _codes(ids: np.ndarray, names: list, code: dict) -> np.ndarray:
        """The codes of ``ids`` (distinct topic ids), new ones appended to ``names`` and
        ``code``.

        A new id is kept as a copy made now, not as the string the run's frame holds: copies
        made together sit together in memory, where the frame's strings, once freed, would
        leave each kept id pinning a block of the frame's memory.
        """
        out = np.fromiter(map(code.get, ids.tolist(), repeat(-1)), np.int32, len(ids))
        new = np.flatnonzero(out < 0)
        if len(new):
            fresh = [(i + " ")[:-1] for i in ids[new].tolist()]
            out[new] = np.arange(len(names), len(names) + len(new))
            code.update(zip(fresh, out[new].tolist()))
            names.extend(fresh)
        return out

    @property
    def longest(self) -> int:
        """The most documents a run retrieves for a topic (how deep the runs reach)."""
        self._settle()
        return max((int(np.diff(starts).max()) for _, starts, _, _ in self._runs
                    if len(starts) > 1), default=0)

    @property
    def topics(self) -> list[str]:
        """The topics some run retrieves for (not those only the qrels have)."""
        return [t for k, t in enumerate(self._topics) if k in self._retrieved]

    def add_qrels(self, qrels: pd.DataFrame) -> None:
        """Keep checked qrels (``query_id``, ``doc_id``, ``relevance``) as codes into the same
        vocabularies (a judged document is mostly one the runs retrieve: its id is then kept
        once), for :meth:`pool`."""
        topic, topics = pd.factorize(qrels["query_id"].to_numpy(object))
        doc, docs = pd.factorize(qrels["doc_id"].to_numpy(object))
        key = _key(self._codes(topics, self._topics, self._topic_code)[topic],
                   self._docs.codes(docs)[doc])
        order = np.argsort(key, kind="stable")
        self._qrels = (key[order], qrels["relevance"].to_numpy(np.int64)[order])

    def pool(self, depth: int, topics) -> pd.DataFrame:
        """:meth:`best_ranks` on ``topics``, with each document's ``relevance`` in the qrels
        (:meth:`add_qrels`; 0 where they do not judge it) and ``in_qrels`` (whether they do)."""
        topic, doc, rank = self._best(depth)
        wanted = np.zeros(len(self._topics), bool)
        wanted[[self._topic_code[t] for t in topics]] = True
        keep = wanted[topic]
        topic, doc, rank = topic[keep], doc[keep], rank[keep]
        keys, relevance = self._qrels
        at = np.minimum(np.searchsorted(keys, _key(topic, doc)), max(len(keys) - 1, 0))
        judged = (keys[at] == _key(topic, doc)) if len(keys) else np.zeros(len(doc), bool)
        return pd.DataFrame({"query_id": np.asarray(self._topics, object)[topic],
                             "doc_id": self._docs.ids()[doc], "rank": rank,
                             "relevance": np.where(judged, relevance[at] if len(keys) else 0,
                                                   0).astype(np.int64),
                             "in_qrels": judged})

    def done(self) -> None:
        """Every run is added: drop what only adding needed (the lookup of ids' codes), the
        document ids made Python strings at once (:meth:`Vocabulary.done
        <topicsetsize.decide.vocabulary.Vocabulary.done>`)."""
        self._docs.done()

    def run_dict(self, run: int, topics) -> dict:
        """``{qid: {docid: score}}`` (ir_measures' run format) of run number ``run`` on
        ``topics``: each topic's documents in trec_eval's order with the scores n, n - 1, ...,
        1 (distinct, and exact in single precision up to 2**24 documents a topic), so that any
        evaluator ranks them in that order; trec_eval's measures (pytrec_eval) are those of the
        run as read."""
        wanted = {self._topic_code[t] for t in topics if t in self._topic_code}
        self._settle()
        block_topics, starts, docs, _ = self._runs[run]
        ids = self._docs.ids()
        longest = int(np.diff(starts).max()) if len(starts) > 1 else 0
        descending = [float(k) for k in range(longest, 0, -1)]
        out = {}
        for k, t in enumerate(block_topics.tolist()):
            if t in wanted:
                a, b = starts[k], starts[k + 1]
                out[self._topics[t]] = dict(zip(ids[docs[a:b]].tolist(),
                                               descending[longest - (b - a):]))
        return out

    def best_ranks(self, depth: int) -> pd.DataFrame:
        """The union over the runs of each one's top ``depth`` documents per topic: columns
        ``query_id``, ``doc_id`` and ``rank``, the best trec_eval rank of the document over the
        runs (so the depth-pd pool of any pd up to ``depth`` is the rows of rank at most pd);
        sorted by topic code, then document code."""
        topic, doc, rank = self._best(depth)
        return pd.DataFrame({"query_id": np.asarray(self._topics, object)[topic],
                             "doc_id": self._docs.ids()[doc], "rank": rank})

    def _best(self, depth: int) -> tuple:
        """:meth:`best_ranks` as codes: (topic codes, document codes, ranks)."""
        self._settle()
        blocks: dict[int, list] = {}
        for block_topics, starts, docs, _ in self._runs:
            for k, t in enumerate(block_topics.tolist()):
                a = starts[k]
                blocks.setdefault(t, []).append(docs[a:min(starts[k + 1], a + depth)])
        topic_parts, doc_parts, rank_parts = [], [], []
        for t, tops in sorted(blocks.items()):
            doc = np.concatenate(tops)
            rank = np.concatenate([np.arange(1, len(d) + 1, dtype=np.int32) for d in tops])
            # By document, then rank: one int64 key a row (the code in the high bits), sorted.
            key = np.sort((doc.astype(np.int64) << 32) | rank)
            doc, rank = (key >> 32).astype(np.int32), (key & 0xFFFFFFFF).astype(np.int32)
            first = np.r_[True, doc[1:] != doc[:-1]]
            doc_parts.append(doc[first])
            rank_parts.append(rank[first])
            topic_parts.append(np.full(int(first.sum()), t, np.int32))
        if not topic_parts:
            return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int32)
        return np.concatenate(topic_parts), np.concatenate(doc_parts), np.concatenate(rank_parts)


def _key(topic: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """One int64 per (topic code, document code)."""
    return (topic.astype(np.int64) << 32) | doc.astype(np.int64)


def _lasting(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` in memory of its own (an anonymous map), for arrays kept while many
    short-lived ones come and go: on the allocator's heap each kept array would pin the memory
    freed below it (a run's parse, some 15 times the size of its file), and the process would
    hold that memory to the end; a map is given back when its array goes."""
    if array.nbytes < mmap.PAGESIZE:
        return array.copy()
    out = np.frombuffer(mmap.mmap(-1, array.nbytes), dtype=array.dtype)
    out[:] = array
    return out
