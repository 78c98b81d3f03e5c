"""The topics of runs and qrels side by side: one rule for every command that reads both.

A run file and a qrels file name their topics independently, and a typo, another year's qrels
or a different zero padding (``0101`` against ``101``) makes them miss each other; a run then
scores 0 on every topic, silently. :func:`match_topics` says how many topics of each side
matched, refuses in one line where none did, and names the unmatched ones where some did not,
calling out ids that differ only by leading zeros. ``evaluate`` (and every command that takes
``--runs``/``--qrels``) and ``pool-depth`` use it, and keep the matched topics only: a topic
of the qrels that no run retrieved anything for (another year's qrels) would otherwise be a
row on which every run scores 0, which lowers V_E and so n.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..errors import InputError

__all__ = ["TopicMismatchWarning", "TopicMatch", "match_topics"]

#: How many unmatched ids a message names.
_SHOWN = 5
#: What becomes of the topics of the qrels that no run retrieved: every command that reads runs
#: and qrels leaves them out (no rows of zeros in the matrix, no topics in the pool).
_LEFT_OUT = " (no run retrieved anything for them: left out)"


class TopicMismatchWarning(UserWarning):
    """Some topics of the qrels or of the runs have no counterpart on the other side."""


@dataclass(frozen=True)
class TopicMatch:
    """The topics of the qrels and of the runs, matched by id.

    Attributes
    ----------
    matched : tuple of str
        The topics on both sides, sorted: the topics the callers score.
    qrels_only, runs_only : tuple of str
        The topics of one side only, sorted.
    padded : tuple of (str, str)
        ``(qrels id, run id)`` pairs among the unmatched that differ only by leading zeros.
    summary : str
        How many topics of each side matched.
    note : str
        One line: the summary, and which topics did not match.
    """

    matched: tuple
    qrels_only: tuple
    runs_only: tuple
    padded: tuple
    summary: str
    note: str


def match_topics(qrels_topics, run_topics, *, qrels_name: str = "qrels",
                 runs_name: str = "runs", warn: bool = True,
                 no_relevant=()) -> TopicMatch:
    """Match the topics of the qrels and of the runs by id; refuse where none match.

    Parameters
    ----------
    qrels_topics, run_topics : iterable of str
        The topic ids of each side.
    qrels_name, runs_name : str
        How the messages name the two sides (e.g. the file and the folder).
    warn : bool, default True
        Emit a :class:`TopicMismatchWarning` (one line) where some topics did not match.
    no_relevant : iterable of str, optional
        Topics the qrels judge but with no relevant document (left out of ``qrels_topics``):
        where the runs have them, the note says so rather than "only in" the runs.

    Returns
    -------
    TopicMatch

    Raises
    ------
    InputError
        No topic matched: one line with a few ids of each side (and the zero-padding case).

    Examples
    --------
    >>> match_topics(["1", "2"], ["1", "2"]).note
    'topics: 2 of 2 in qrels matched 2 of 2 in runs'
    >>> match_topics(["0101", "0102"], ["101", "102"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: no topic of qrels (2: 0101, 0102) is a topic of runs (2: 101, 102): ...
    """
    qrels, runs = set(map(str, qrels_topics)), set(map(str, run_topics))
    matched = tuple(sorted(qrels & runs))
    unjudged = tuple(sorted((runs - qrels) & set(map(str, no_relevant))))
    qrels_only = tuple(sorted(qrels - runs))
    runs_only = tuple(sorted(runs - qrels - set(unjudged)))
    by_digits = {t.lstrip("0"): t for t in runs_only}
    padded = tuple((q, by_digits[q.lstrip("0")]) for q in qrels_only
                   if q.lstrip("0") in by_digits)
    pad = (f"; the ids differ by leading zeros (e.g. {padded[0][0]!r} in {qrels_name}, "
           f"{padded[0][1]!r} in {runs_name}): write them alike") if padded else ""
    if not matched:
        raise InputError(f"no topic of {qrels_name} ({_ids(sorted(qrels))}) is a topic of "
                         f"{runs_name} ({_ids(sorted(runs))}): are they of the same "
                         f"collection?{pad}")
    summary = (f"topics: {len(matched)} of {len(qrels)} of the qrels matched {len(matched)} "
               f"of {len(runs)} of the runs")
    note = (f"topics: {len(matched)} of {len(qrels)} in {qrels_name} matched {len(matched)} of "
            f"{len(runs)} in {runs_name}")
    if qrels_only or runs_only or unjudged:
        parts = [f"only in {name}{left}: {_ids(ids)}" for name, ids, left in
                 ((qrels_name, qrels_only, _LEFT_OUT), (runs_name, runs_only, "")) if ids]
        if unjudged:
            parts.append(f"in {runs_name} but with no relevant document in {qrels_name}, so not "
                         f"scored (as trec_eval): {_ids(unjudged)}")
        note += f" ({'; '.join(parts)}){pad}"
        if warn:
            warnings.warn(note, TopicMismatchWarning, stacklevel=2)
    return TopicMatch(matched, qrels_only, runs_only, padded, summary, note)


def _ids(ids) -> str:
    """``3: 401, 402, 403`` (a count and the first few ids)."""
    ids = list(ids)
    shown = ", ".join(ids[:_SHOWN]) + (", ..." if len(ids) > _SHOWN else "")
    return f"{len(ids)}: {shown}" if ids else "0"
