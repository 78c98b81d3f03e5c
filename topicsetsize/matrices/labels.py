"""What a score matrix's labels say it is not: a summary row, a run of topic ids, a lost header.

A file read as it is can hold more than topics and runs. Each of these was read without a word
(a reviewer's finds, 2026-12-06), and each changes V_E and the topic count every report quotes:

* a **summary row or column** (``all``, ``mean``, ``Average``, ``std``, ...): a spreadsheet's
  average row has little spread, so it shrank TREC 2010 Web AP's V_E (0.00844 to 0.00827) and
  counted a 49th topic; the trec_eval and long readers drop ``all`` (trec_eval writes it), a wide
  file kept it;
* **a column of topic ids read as a run** (pandas' ``reset_index().to_csv()`` writes the row
  numbers first, then ``topic``): TREC 2004 Robust AP read with 111 runs and V_E 176.85;
* **a header of numbers**: a file without its header line gives the first topic's scores as
  run names, and loses that topic;
* **one topic under two spellings** (``1`` and ``001``, ``5`` and ``5.0``), counted twice.

:func:`check_spellings` (before the scores are checked) and :func:`check_labels` refuse each
in one line, naming the label and what to do.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ..errors import InputError
from .formats.common import LABEL_NOISE, label_key

__all__ = ["SUMMARY_LABELS", "check_labels", "check_spellings", "warn_numbered_runs"]

#: Labels (:func:`~.formats.common.label_key`'s form) of a row or column that
#: summarises the others rather than holding a topic or a run.
SUMMARY_LABELS = frozenset({"all", "mean", "means", "average", "avg", "std", "sd", "stdev",
                            "stddev", "standarddeviation", "total", "sum", "median", "min", "max",
                            "var", "variance", "count", "overall"})

#: Labels (normalised as above) of a column of topic ids.
_ID_LABELS = frozenset({"topic", "topics", "topicid", "topicno", "topicnumber", "qid", "query",
                        "queryid", "queries", "qno"})


#: What can make two distinct topic ids one number: a leading 0 or +, a decimal point, an
#: exponent, a blank around it (one search over all the ids, before any is parsed).
_SPELLED = re.compile(r"(?m)^\s*[+0]|[.eE]|^\s|\s$")


def _summary(labels):
    """The first of ``labels`` that is a summary's (:data:`SUMMARY_LABELS`), or None: one
    search over them all first (a 14,000-topic matrix has none)."""
    joined = re.sub(f"[{re.escape(LABEL_NOISE)}]", "", "\n".join(map(str, labels)).lower())
    if not any(word in joined for word in SUMMARY_LABELS):
        return None
    return next((label for label in labels if label_key(label) in SUMMARY_LABELS), None)


def _number(label) -> float | None:
    try:
        value = float(str(label).strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _whole(label) -> bool:
    """Whether ``label`` reads as a whole number."""
    x = _number(label)
    return x is not None and x == round(x)


def check_labels(frame: pd.DataFrame, source, *, header_runs: bool, run_ids: bool) -> None:
    """Refuse, in one line, a matrix (topics × runs) whose labels say it holds more than topics
    and runs (see the module docstring).

    ``header_runs``: the run names came from the file's header line (a wide file read as it
    is), so a header of numbers means a missing header. ``run_ids``: a run column can be a
    column of topic ids (a wide or .xlsx file), whose values are then distinct whole numbers.

    >>> scores = pd.DataFrame({"a": [0.1, 0.2, 0.15], "b": [0.3, 0.1, 0.2]},
    ...                       index=["401", "402", "Average"])
    >>> check_labels(scores, "f.csv", header_runs=True, run_ids=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: f.csv: topic 'Average' looks like a summary of the topics ...
    """
    for labels, kind, of in ((frame.index, "topic", "topics"), (frame.columns, "run", "runs")):
        summary = _summary(labels)
        if summary is not None:
            raise InputError(f"{source}: {kind} {str(summary)!r} looks like a summary of the "
                             f"{of} (all, mean, average, std, ...), not a {kind}: remove it "
                             f"from the file, or rename it if it is a {kind}")
    if run_ids:
        for run in (run for run in frame.columns if label_key(run) in _ID_LABELS):
            values = frame[run].to_numpy()
            if len(values) > 2 and (values == values.round()).all() \
                    and len(set(values.tolist())) == len(values):
                raise InputError(f"{source}: the column {str(run)!r} holds distinct whole "
                                 "numbers under a topic-id header: it is the topic ids, not a "
                                 "run; make it the first column (and drop a column of row "
                                 "numbers before it, as pandas' to_csv writes without "
                                 "index=False)")
    if header_runs:
        numbers = [_number(run) for run in frame.columns]
        if all(x is not None for x in numbers) and any(x != round(x) for x in numbers):
            raise InputError(f"{source}: the run names are numbers ({str(frame.columns[0])!r}, "
                             f"...): the file's first line is a topic's scores, not a header of "
                             "run names; add the header line (that topic is lost otherwise)")


def check_spellings(topics, source) -> None:
    """Refuse one topic id under two spellings (``1`` and ``001``, ``5`` and ``5.0``), before
    the scores are checked: in a folder of trec_eval files, one run writing ``001`` and the
    others ``01`` left each topic incomplete, and the message offered to drop them all.

    >>> check_spellings(["401", "0401"], "f.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: f.csv: topics '401' and '0401' are one topic id written two ways ...
    """
    if not _SPELLED.search("\n".join(map(str, topics))):   # no 0-padding, sign, point, exponent
        return
    texts = pd.Series(topics, dtype=str).str.strip()
    numbers = pd.to_numeric(texts, errors="coerce").to_numpy(float)
    whole = np.isfinite(numbers) & (numbers == np.round(numbers)) & (np.abs(numbers) < 2.0 ** 53)
    twice = pd.Series(numbers[whole]).duplicated().to_numpy()     # (the names are distinct)
    if twice.any():
        value = numbers[whole][twice][0]
        first, second = [str(t) for t, x in zip(np.asarray(topics, dtype=object)[whole],
                                                numbers[whole]) if x == value][:2]
        raise InputError(f"{source}: topics {first!r} and {second!r} are one topic id written "
                         "two ways (as numbers they are equal): give each topic once, under "
                         "one spelling")


def warn_numbered_runs(frame: pd.DataFrame, source, *, transpose: bool) -> None:
    """Warn where a wide file's runs are named by whole numbers and its topics are not: the
    labels of a matrix read the wrong way round (runs as rows, topic numbers as the header).

    TREC 2004 Robust AP written runs by topics (``sys1``, ... over ``301``, ..., ``700``) was
    read without a word as 110 topics of 249 runs: V_E .0169 where its own is .0451, and 212
    topics where 566 are needed (m = 10, minD = .05, exact; a reviewer's find, 2026-12-06). Topic
    ids are numbers in TREC and NTCIR and run names seldom are; runs numbered 1 to m with topic
    ids that are not numbers (CLEF's ``CD007431``) would be noted too, hence a warning that says
    how to read the file either way, not a refusal.

    >>> import warnings
    >>> runs_by_topics = pd.DataFrame([[0.1, 0.2, 0.3], [0.2, 0.4, 0.1]], index=["sysA", "sysB"],
    ...                               columns=["301", "302", "303"])
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_numbered_runs(runs_by_topics, "f.csv", transpose=False)
    >>> print(w[0].message)  # doctest: +ELLIPSIS
    f.csv: its 3 runs are named by whole numbers (301, 302, ...) and its 2 topics are not \
(sysA, ...): if its rows are runs ...
    """
    import warnings

    if frame.shape[1] < 2 or not all(_whole(run) for run in frame.columns):  # stops at "sys1"
        return
    word = next((topic for topic in frame.index if _number(topic) is None), None)
    if word is None:
        return
    fix = "read it without transpose (no --transpose)" if transpose else \
        "read it with transpose=True (--transpose)"
    warnings.warn(f"{source}: its {frame.shape[1]} runs are named by whole numbers "
                  f"({frame.columns[0]}, {frame.columns[1]}, ...) and its {frame.shape[0]} "
                  f"topics are not ({word}, ...): if its rows are runs and its header the "
                  f"topic ids, {fix}; as it is read, V_E is that of the wrong axis",
                  stacklevel=3)
