"""One row of Table 1 of the std-AB paper per score matrix: size, V_E raw and std-AB, and τ.

Beside the paper's one-way V_E, each row also gives the two-way (runs × topics) residual
variance of the raw and of the std-AB matrix, the σ̂² of the randomised block design
(:mod:`topicsetsize.designs.anova2`).

T. Sakai, "A simple and effective approach to score standardisation", AIRS 2016, Table 1: for
each past data set, the number of runs and topics, the one-way residual variance V_E of the raw
and of the std-AB matrix (Eq. 1), and Kendall's τ, with its 95% confidence interval, between the
run rankings by mean raw and by mean std-AB score.

Runs that are copies of others (equal scores on every topic, a run submitted twice) are kept:
V_E is the within-system variance pooled over the runs of the matrix as it is, as the published
tables give it, and a copy only weighs its system's residuals twice (TREC 2010 Web AP, 10
copies among 88 runs: V_E .0084 with them, .0081 without). ``topicsetsize variance`` names the
copies (:data:`COPIES`; :func:`topicsetsize.matrices.copies.identical_runs` finds them).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import asdict, dataclass

import pandas as pd

from ..errors import InputError
from ..matrices.copies import identical_runs
from ..matrices.matrix import check_matrix
from .ranking import kendall_tau_ci
from .standardise import std_ab, warn_if_clipped
from .variance import check_varies, residual_variance, two_way_residual_variance

__all__ = ["VarianceSummary", "summarise", "summarise_many", "COPIES", "UndefinedTauWarning"]

#: What the variance estimates do with runs that are copies of others (the end of the one-line
#: warning of ``topicsetsize variance`` that names them).
COPIES = "kept: V_E, V_E2 and tau use every run, each copy as a run of its own"


@dataclass(frozen=True)
class VarianceSummary:
    """One row of Table 1 of the AIRS 2016 paper (field names as in its transcription).

    Attributes
    ----------
    runs, topics : int
        The size of the matrix.
    var_raw, var_std_ab : float
        V_E of the raw and of the std-AB scores.
    tau, tau_ci_low, tau_ci_high : float
        Kendall's τ between the run rankings by raw and by std-AB mean, and its CI.
    var2_raw, var2_std_ab : float
        The two-way residual variances V_E2 (not in the paper; NaN when not computed).

    Examples
    --------
    >>> row = VarianceSummary(14, 78, 0.0597, 0.0139, 0.978, 0.585, 1.371)   # MedNLPDoc P
    >>> row.to_dict()["var_std_ab"]
    0.0139
    >>> row.to_frame("MedNLPDoc precision")[["runs", "topics", "tau"]]
                         runs  topics    tau
    matrix
    MedNLPDoc precision    14      78  0.978
    """

    runs: int
    topics: int
    var_raw: float
    var_std_ab: float
    tau: float
    tau_ci_low: float
    tau_ci_high: float
    var2_raw: float = math.nan
    var2_std_ab: float = math.nan

    def to_dict(self) -> dict:
        """The fields as a plain ``dict``."""
        return asdict(self)

    #: The older name of :meth:`to_dict`.
    as_dict = to_dict

    def to_frame(self, name: str = "scores") -> pd.DataFrame:
        """The row as a one-row DataFrame whose index is ``name``."""
        return pd.DataFrame([self.to_dict()], index=pd.Index([name], name="matrix"))


def summarise(scores, *, a: float = 0.15, b: float = 0.5) -> VarianceSummary:
    r"""Summarise a score matrix as one row of Table 1 of the std-AB paper (Sakai, AIRS 2016).

    * ``var_raw``: the one-way residual variance V_E of the raw scores (Eq. 1,
      :func:`~topicsetsize.estimates.variance.residual_variance`);
    * ``var_std_ab``: the same of the std-AB matrix, the runs standardising themselves
      (Eqs. 2–3, clipped, :func:`~topicsetsize.estimates.standardise.std_ab`);
    * ``tau, tau_ci_low, tau_ci_high``: Kendall's τ between the run rankings by mean raw and by
      mean std-AB score, τ ± z_{α/2}√(2(2m+5)/(9m(m−1))) with α = .05, not clipped
      (:func:`~topicsetsize.estimates.ranking.kendall_tau_ci`; Table 1 column g); NaN, with an
      :class:`UndefinedTauWarning`, where the runs' means tie in one of the rankings;
    * ``var2_raw, var2_std_ab``: the two-way (runs × topics, without replication) residual
      variance of the raw and of the std-AB matrix
      (:func:`~topicsetsize.estimates.variance.two_way_residual_variance`), for the randomised block
      design of :mod:`topicsetsize.designs.anova2`.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    a, b : float
        std-AB's A and B (defaults .15 and .5, as in the paper).

    Returns
    -------
    VarianceSummary
        ``(runs, topics, var_raw, var_std_ab, tau, tau_ci_low, tau_ci_high, var2_raw,
        var2_std_ab)``, with
        ``to_dict()`` and ``to_frame()``.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> row = summarise(example_matrix())
    >>> row.runs, row.topics, round(row.var_raw, 4), round(row.var_std_ab, 4), round(row.tau, 3)
    (88, 48, 0.0084, 0.0165, 0.888)
    >>> round(row.var2_raw, 4), round(row.var2_std_ab, 4)
    (0.0045, 0.0167)
    """
    matrix = check_matrix(scores)
    raw = matrix.values
    check_varies(raw, what="there is no variance to estimate (V_E) and no run to rank "
                           "(Kendall's tau), so the matrix gives no figure to design for")
    unranked = ("the runs cannot be ranked, so Kendall's tau between the raw and the std-AB "
                "rankings is undefined, and the matrix shows no difference between runs to "
                "design for")      # every run a copy of one: one system, not m
    identical_runs(raw).require_two(unranked, name=None)   # copies: say so
    standardised = std_ab(raw, a=a, b=b)
    warn_if_clipped(standardised, a, b)
    means = {"raw": raw.mean(axis=0), "std-AB": standardised.mean(axis=0)}
    tau = _tau_or_undefined(means)
    topics, runs = raw.shape
    return VarianceSummary(runs, topics, residual_variance(raw), residual_variance(standardised),
                           *tau, two_way_residual_variance(raw),
                           two_way_residual_variance(standardised))


class UndefinedTauWarning(UserWarning):
    """Kendall's τ between the raw and the std-AB run rankings is undefined: the runs' means
    tie in one of them (two runs' std-AB means tie wherever each wins on as many topics as it
    loses). τ and its interval are NaN; the variances do not need them."""


def _tau_or_undefined(means: dict) -> tuple[float, float, float]:
    """:func:`~topicsetsize.estimates.ranking.kendall_tau_ci` of the run means by kind, or
    NaN three times, with an :class:`UndefinedTauWarning`, where the means of a kind are all
    equal (:func:`~topicsetsize.estimates.variance.check_varies`). Until 2026-12-07 the matrix
    was refused there, V_E and all: a review's 6 × 2 matrix of raw means .350 and .208."""
    for kind, mean in means.items():
        try:
            check_varies(mean, name=f"the runs' mean {kind} scores", plural=True,
                         what="Kendall's tau between the raw and the std-AB rankings is "
                              "undefined (given as nan); V_E and V_E2 do not need it")
        except InputError as exc:
            warnings.warn(str(exc) + (" (two runs' std-AB means tie wherever each wins on as "
                                      "many topics as it loses)" if kind == "std-AB" and
                                      len(mean) == 2 else ""), UndefinedTauWarning, stacklevel=3)
            return (math.nan,) * 3
    return tuple(kendall_tau_ci(*means.values()))


def summarise_many(matrices, *, a: float = 0.15, b: float = 0.5) -> pd.DataFrame:
    """:func:`summarise` several matrices into a Table-1-style DataFrame, one row each.

    Parameters
    ----------
    matrices : mapping of name -> matrix, or sequence of matrices
        A sequence is named ``0, 1, ...``, a DataFrame in it by its ``attrs["source"]`` when it
        came from :func:`~topicsetsize.matrices.readers.read_matrix`.
    a, b : float
        std-AB's A and B.

    Returns
    -------
    pandas.DataFrame
        Index ``matrix``; columns the fields of :class:`VarianceSummary`.

    Examples
    --------
    >>> import numpy as np
    >>> table = summarise_many({"tiny": [[.1, .2, .4], [.3, .2, .5], [.2, .6, .4]]})
    >>> table[["runs", "topics"]].loc["tiny"].tolist()
    [3, 3]
    """
    if not isinstance(matrices, Mapping):
        matrices = {_name(k, m): m for k, m in enumerate(matrices)}
    if not matrices:
        raise InputError("matrices is empty: give at least one score matrix")
    frames = [summarise(m, a=a, b=b).to_frame(str(name)) for name, m in matrices.items()]
    return pd.concat(frames)


def _name(k: int, scores) -> str:
    attrs = getattr(scores, "attrs", None) or {}
    return str(attrs.get("source", k))
