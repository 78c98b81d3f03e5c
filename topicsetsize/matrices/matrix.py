"""In-memory score matrices: check a topics x runs matrix and keep its labels.

A score matrix has the **topics as rows** and the **runs as columns**. Every estimate in the
package takes one, as a :class:`pandas.DataFrame` or a 2-D array-like, and checks it with
:func:`check_matrix`: only finite real numbers, at least 2 topics and 2 runs, one-line
:class:`ValueError` messages that name the offending cell.
"""

from __future__ import annotations

import math
import numbers
import sys
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..errors import InputError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ScoreMatrix", "check_matrix", "check_shape", "is_frame"]


class ScoreMatrix(NamedTuple):
    """A checked score matrix: float ``values`` (topics × runs) and its labels (a DataFrame's
    index and columns, or lists; None for an array)."""

    values: np.ndarray
    topics: pd.Index | list | None
    runs: pd.Index | list | None

    def like_input(self, values: np.ndarray):
        """``values`` (same shape) as a DataFrame with these labels, or as an ndarray."""
        if self.topics is None:
            return values
        import pandas as pd

        return pd.DataFrame(values, index=self.topics, columns=self.runs)


#: The largest |score| accepted: squares stay below 1e300, so sums of squares over up to 10⁸
#: cells are finite (scores of IR and NLP measures are in [0, 1], or a few units).
MAX_SCORE = 1e150
#: The smallest nonzero |score| accepted: smaller ones square to subnormal numbers or 0, so a
#: variance would lose its digits or vanish.
MIN_SCORE = 1e-150


def check_matrix(scores, *, name: str = "scores", min_topics: int = 2,
                 min_runs: int = 2, computed: bool = True) -> ScoreMatrix:
    """Check a topics × runs score matrix and return its float values (and labels).

    Parameters
    ----------
    scores : pandas.DataFrame, ScoreMatrix or 2-D array-like
        Topics as rows, runs as columns.
    name : str
        The argument's name, used in error messages.
    min_topics, min_runs : int
        The smallest acceptable number of topics (rows) and runs (columns).
    computed : bool
        Whether the scores are to be computed with: then each nonzero |score| must lie in
        [``MIN_SCORE``, ``MAX_SCORE``]. False (a matrix only written out) checks finiteness only.

    Returns
    -------
    ScoreMatrix
        ``values`` (a float ndarray), and ``topics``/``runs`` (the DataFrame's index and
        columns, a ScoreMatrix's labels; None for an array).

    Raises
    ------
    ValueError
        One line: a value that is not a finite number (with its topic and run), or too few
        topics or runs.

    Examples
    --------
    >>> check_matrix([[0.1, 0.2], [0.3, 0.4]]).values.shape
    (2, 2)
    >>> check_matrix([[0.1, float("nan")], [0.3, 0.4]])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: scores: missing or non-finite value nan at row 1, column 2
    >>> import pandas as pd
    >>> check_matrix(pd.DataFrame({"runA": [0.1, 0.2]}, index=["t1", "t2"]))
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: scores has 1 run ('runA'): a score matrix needs at least 2 runs
    (columns)
    """
    topics = runs = None
    if isinstance(scores, ScoreMatrix):
        topics, runs, raw = scores.topics, scores.runs, np.asarray(scores.values)
    elif is_frame(scores):
        topics, runs, raw = scores.index, scores.columns, scores.to_numpy()
    elif isinstance(scores, np.ndarray):
        raw = scores
    else:                                   # lists: keep each cell's own type
        raw = np.asarray(scores, dtype=object)
        if raw.ndim == 2 and all(type(v) is float for v in raw.flat):
            raw = raw.astype(float)
    if raw.dtype.kind in "biuf":
        values = raw.astype(float)
    else:
        # Text, None or mixed cells: only real numbers count. Numbers stored as text ('0.5')
        # are refused rather than parsed, so the data is never silently changed.
        raw = raw.astype(object)
        values = np.vectorize(_to_float, otypes=[float])(raw) if raw.ndim == 2 else raw
    if values.ndim != 2:
        raise InputError(f"{name} must be a 2-D matrix (topics as rows, runs as columns); "
                         f"got {values.ndim} dimension(s)")
    bad = ~np.isfinite(values)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        where = (f"topic {topics[i]!r}, run {runs[j]!r}" if topics is not None
                 else f"row {i + 1}, column {j + 1}")
        cell = raw[i, j]
        cell = float(cell) if isinstance(cell, np.floating) else cell
        kind = "missing or non-finite value" if _is_number(cell) else "non-numeric value"
        raise InputError(f"{name}: {kind} {cell!r} at {where}")
    size = np.abs(values) if computed else np.zeros(0)
    for bad, what in ((size > MAX_SCORE, "too large to compute with (its square and the sums "
                                         "of squares overflow)"),
                      ((size < MIN_SCORE) & (size > 0), "too small to compute with (its square "
                                                        "underflows)")):
        if bad.any():
            i, j = np.argwhere(bad)[0]
            where = (f"topic {topics[i]!r}, run {runs[j]!r}" if topics is not None
                     else f"row {i + 1}, column {j + 1}")
            raise InputError(f"{name}: the score {values[i, j]:g} at {where} is {what}: allowed "
                             f"0 or {MIN_SCORE:g} <= |score| <= {MAX_SCORE:g}")
    check_shape(values.shape, name, topics, runs, min_topics, min_runs)
    return ScoreMatrix(values, topics, runs)


def _to_float(value) -> float:
    """A real number as float; anything else (text, None, a bool) as NaN, reported later."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        return math.nan
    return float(value)


def is_frame(value) -> bool:
    """Whether ``value`` is a pandas DataFrame, asked without importing pandas (where it is not
    loaded, no DataFrame exists): so ``topicsetsize evaluate`` runs without pandas (issue 28.3).

    >>> is_frame([[0.1]])
    False
    """
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(value, pd.DataFrame)


def _is_number(value) -> bool:
    pd = sys.modules.get("pandas")
    return value is None or (pd is not None and value is pd.NA) \
        or isinstance(value, (int, float, np.number))


def check_shape(shape, name, topics, runs, min_topics=2, min_runs=2, hint="") -> None:
    n_topics, n_runs = shape
    for count, least, what, axis, labels in ((n_runs, min_runs, "run", "columns", runs),
                                             (n_topics, min_topics, "topic", "rows", topics)):
        if count < least:
            shown = f" ({labels[0]!r})" if count == 1 and labels is not None else ""
            raise InputError(f"{name} has {count} {what}{'' if count == 1 else 's'}{shown}: "
                             f"a score matrix needs at least {least} {what}s ({axis}){hint}")
