"""Runs that are copies of others: columns of a score matrix equal on every topic.

TREC matrices often hold the same run twice under two names (in TREC 2010 Web AP, sys59 is
sys5 and sys86 is sys49; in TREC 2004 Robust AP, sys69 is sys67). A copy is not another system:
where runs are compared (the differences between run means and the minD candidates of the
report, the resampled power's best runs, the randomised Tukey HSD and its V_E2) it is counted
once, as the first of its group in column order; the variances estimated for a design (V_E,
V_E2, the G-study) keep it, and so does the split-half experiment, as Voorhees' did.
:func:`identical_runs` finds them, once, for every command; :meth:`RunCopies.warn` says, in one
line, which runs are copies of which and what the caller does with them
(:class:`IdenticalRunsWarning`), in the same words wherever it is said (docs/variance.md).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .matrix import ScoreMatrix, check_matrix

__all__ = ["IdenticalRunsWarning", "RunCopies", "identical_runs", "COUNTED_ONCE"]

#: How many copies the warning names (the rest are counted).
_SHOWN = 10

#: The start of what a comparison of runs does with copies (:meth:`RunCopies.warn`'s
#: ``doing``; the caller says where): the same words in every command that drops them.
COUNTED_ONCE = "counted once (a copy is not another system)"


class IdenticalRunsWarning(UserWarning):
    """Some runs of a score matrix are copies of others (equal scores on every topic)."""


@dataclass(frozen=True, eq=False)
class RunCopies:
    """The runs of a score matrix that are copies of others.

    Attributes
    ----------
    keep : numpy.ndarray
        The column positions of the distinct runs, ascending: of each group of identical runs,
        the first.
    copies : tuple of (str, str)
        ``(copy, original)``: each run that repeats an earlier one, in column order, with the
        first run of its group (the one kept).
    runs : int
        The number of runs (columns) of the matrix.
    """

    keep: np.ndarray
    copies: tuple
    runs: int

    def __len__(self) -> int:
        return len(self.copies)

    def distinct(self, scores):
        """The columns of ``scores`` (this matrix, a DataFrame or an array) of the distinct
        runs, in column order."""
        if hasattr(scores, "iloc"):
            return scores.iloc[:, self.keep]
        return np.asarray(scores)[:, self.keep]

    def require_two(self, what: str, *, name: str | None = "scores") -> None:
        """Refuse, in one line, a matrix whose runs are all alike (one distinct run): ``what``
        says what that leaves undone, ``name`` names the matrix (None: the caller's caller does).

        >>> identical_runs([[0.1, 0.1], [0.3, 0.3]]).require_two("no two runs to compare")
        Traceback (most recent call last):
        ...
        topicsetsize.InputError: scores: the runs score alike on every topic, copies of one \
another (1 distinct run): no two runs to compare
        >>> identical_runs([[0.1], [0.3]]).require_two("no two runs to compare")
        Traceback (most recent call last):
        ...
        topicsetsize.InputError: scores: it has 1 run: no two runs to compare
        """
        said = f"{name}: " if name else ""
        if self.runs < 2:           # one run is no copy of another
            raise InputError(f"{said}it has {self.runs} run: {what}")
        if len(self.keep) < 2:
            raise InputError(f"{said}the runs score alike on every topic, copies of one another "
                             f"(1 distinct run): {what}")

    def message(self, doing: str) -> str:
        """The one line that names the copies, then ``doing`` (what is done with them).

        >>> copies = identical_runs([[0.1, 0.2, 0.1, 0.1], [0.3, 0.4, 0.3, 0.3]])
        >>> copies.message("counted once")
        '2 runs are copies of others (identical scores on every topic): column 3 = column 1, \
column 4 = column 1; counted once'
        """
        k = len(self.copies)
        named = ", ".join(f"{copy} = {original}" for copy, original in self.copies[:_SHOWN])
        more = f", and {k - _SHOWN} more" if k > _SHOWN else ""
        what = "run is a copy of another" if k == 1 else "runs are copies of others"
        return f"{k} {what} (identical scores on every topic): {named}{more}; {doing}"

    def warn(self, doing: str, *, stacklevel: int = 2) -> None:
        """Emit :meth:`message` as an :class:`IdenticalRunsWarning` where there are copies;
        nothing where every run is distinct. ``stacklevel`` counts from the caller."""
        if self.copies:
            warnings.warn(IdenticalRunsWarning(self.message(doing)), stacklevel=stacklevel + 1)


def identical_runs(scores, *, name: str = "scores") -> RunCopies:
    """The runs (columns) of a topics × runs matrix that equal an earlier run on every topic.

    Two runs are identical when their scores are equal on every topic (exactly: the same
    numbers, as a run submitted twice gives). Each group of identical runs is kept as its first
    run in column order; the others are its copies. A run identical to two others is one group
    of three: two copies of the first.

    Parameters
    ----------
    scores : pandas.DataFrame, 2-D array-like or ScoreMatrix
        Topics as rows, runs as columns (checked by
        :func:`~topicsetsize.matrices.matrix.check_matrix`). The runs are named by the columns
        of a DataFrame, ``column 1``, ``column 2``, ... otherwise.
    name : str
        How an error message names the matrix (e.g. its file).

    Returns
    -------
    RunCopies

    Examples
    --------
    >>> import pandas as pd
    >>> x = pd.DataFrame({"a": [.1, .5], "b": [.2, .4], "c": [.1, .5], "d": [.2, .4],
    ...                   "e": [.1, .5]})
    >>> copies = identical_runs(x)
    >>> copies.keep.tolist(), copies.copies, len(copies)
    ([0, 1], (('c', 'a'), ('d', 'b'), ('e', 'a')), 3)
    >>> list(copies.distinct(x).columns)
    ['a', 'b']
    """
    matrix = scores if isinstance(scores, ScoreMatrix) else check_matrix(
        scores, name=str(name), min_topics=1, min_runs=1)
    x = matrix.values
    _, first, group = np.unique(x, axis=1, return_index=True, return_inverse=True)
    group = np.asarray(group).reshape(-1)
    original = first[group]                     # each column's group, as its first column
    labels = (list(map(str, matrix.runs)) if matrix.runs is not None
              else [f"column {j + 1}" for j in range(x.shape[1])])
    copies = tuple((labels[j], labels[original[j]]) for j in range(x.shape[1])
                   if original[j] != j)
    return RunCopies(np.sort(first), copies, x.shape[1])
