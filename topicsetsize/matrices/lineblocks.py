"""Plain TREC run and qrels files read a block of lines at a time
(:func:`~topicsetsize.matrices.fields.plain_blocks`), so that memory holds what is kept and one
block of the text, not the whole file's fields.

Each function gives what reading the whole file gives where it can (the same values, in the
same order), and None where a block is not plain or fails a check: the caller then reads the
whole file (:mod:`topicsetsize.matrices.runfiles`), which gives the same result or says what is
wrong, naming the file and line, so which path read a file never changes an outcome.
"""

from __future__ import annotations

import numpy as np

from ..params import PARAMS
from .fields import plain_blocks
from .runcolumns import RunColumns

__all__ = ["run_in_blocks", "qrels_in_blocks"]


def run_in_blocks(path, size: int | None = None) -> tuple[RunColumns, bool, str] | None:
    """A plain run file (six fields a line) read a block of lines at a time.

    Parameters
    ----------
    path : str or Path
        The run file.
    size : int, optional
        About how many bytes of text a block holds (see
        :func:`~topicsetsize.matrices.fields.plain_blocks`).

    Returns
    -------
    tuple of (RunColumns, bool, str, set or None) or None
        The rows as the whole file gives them, in file order, before any check for documents
        retrieved twice (``tag`` unset); whether every line has the same tag; the first line's
        tag; where not, the (tag, topic code) pairs of its lines (None where it has one tag).
        None where a block is not plain, a rank is not a whole number in range or a score
        not a finite number: the whole file must then be read, which says what is wrong.
    """
    index: dict = {}
    ranks, scores, codes, docs = [], [], [], []
    one_tag, first, pairs = True, None, None
    for fields in plain_blocks(path, 6, size):
        if fields is None:
            return None
        rank, score = fields.numbers(3), fields.numbers(4)
        if not (PARAMS["rank"].contains(rank).all() and np.isfinite(score).all()):
            return None
        # Topics numbered in order of first appearance, one look-up a run of equal lines.
        seen = len(index)
        starts = np.r_[0, np.flatnonzero(~fields.same_as_previous(0)) + 1]
        block = [index.setdefault(fields.cell(0, i), len(index)) for i in starts.tolist()]
        codes.append(np.repeat(np.asarray(block, np.intp), np.diff(np.r_[starts, len(fields)])))
        first = fields.cell(5, 0) if first is None else first
        same_tag = fields.same_as_previous(5)
        if fields.cell(5, 0) != first or not same_tag.all():   # the pairs, from here on
            if pairs is None:           # the blocks before, every line tagged `first`, hold
                pairs = {(first, c) for c in range(seen)}       # the topics numbered before
            # (plain sets: numpy's set routines would run code no other read needs)
            changes = {0, *(np.flatnonzero(~same_tag) + 1).tolist(), *starts.tolist()}
            pairs.update((fields.cell(5, i), int(codes[-1][i])) for i in changes)
        elif pairs is not None:
            pairs.update((first, c) for c in block)
        one_tag = pairs is None
        ranks.append(rank.astype("int64"))
        scores.append(score)
        docs += fields.strings(2)
    if first is None:
        return None
    run = RunColumns(list(index), np.concatenate(codes), docs, np.concatenate(scores),
                     np.concatenate(ranks))
    return run, one_tag, first, pairs


def qrels_in_blocks(path, size: int | None = None) -> dict | None:
    """A plain qrels file (four fields a line) read a block of lines at a time, as
    :func:`~topicsetsize.matrices.runfiles.qrels_by_topic` gives it.

    Parameters
    ----------
    path, size
        The qrels file, and as in :func:`run_in_blocks`.

    Returns
    -------
    dict or None
        ``{qid: {docid: relevance}}``, topics in order of first appearance and documents in
        file order. None where a block is not plain, a relevance is not a whole number in
        range or a document is judged twice for a topic: the whole file must then be read,
        which says what is wrong.
    """
    spec, out = PARAMS["relevance"], {}
    for fields in plain_blocks(path, 4, size):
        if fields is None:
            return None
        relevance = fields.numbers(3)
        if not spec.contains(relevance).all():
            return None
        # Each run of lines on one topic joins that topic's judgments, in file order.
        bounds = np.r_[0, np.flatnonzero(~fields.same_as_previous(0)) + 1, len(fields)].tolist()
        docs, values = fields.strings(2), relevance.astype("int64").tolist()
        for a, b in zip(bounds[:-1], bounds[1:]):
            have = out.setdefault(fields.cell(0, a), {})
            before = len(have)
            have.update(zip(docs[a:b], values[a:b]))
            if len(have) != before + b - a:             # a document judged twice
                return None
    return out or None
