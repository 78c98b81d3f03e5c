"""One report on a past collection: variances, generalizability theory and realistic minD.

:func:`collection_report` puts side by side, for one topics × runs matrix, what topic set size
design needs (V_E and V_E2 of the raw and std-AB scores, :mod:`topicsetsize.estimates.summary`), the
G-study and D-study of generalizability theory (:mod:`topicsetsize.estimates.gtheory`) and the
differences between runs that occur in it with Sakai's n for each
(:mod:`topicsetsize.estimates.differences`). The command ``topicsetsize report`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .decide.realistic import realistic_min_d, top_k_and_m
from .estimates.differences import RunDifferences, run_differences
from .estimates.gtheory import DStudy, GStudy, d_study, g_study, gt_n
from .matrices.matrix import check_matrix
from .params import check
from .estimates.summary import VarianceSummary, summarise

__all__ = ["CollectionReport", "collection_report", "reliability_curves"]


@dataclass(frozen=True)
class CollectionReport:
    """Everything :func:`collection_report` found about one matrix.

    Attributes
    ----------
    summary : VarianceSummary
        Runs, topics, V_E and V_E2 raw and std-AB, Kendall's τ.
    gstudy : GStudy
        σ²_s, σ²_t, σ²_e (and which were negative, set to 0).
    dstudy : DStudy
        Eρ² and Φ at the matrix's own number of topics, with ``level`` intervals.
    n_erho2, n_phi : int or float
        Smallest n′ with Eρ² ≥ ``target`` and Φ ≥ ``target`` (``inf`` when σ²_s = 0).
    differences : RunDifferences
        The differences between run means.
    min_d : pandas.DataFrame
        Realistic minD values with Sakai's n
        (:func:`~topicsetsize.decide.realistic.realistic_min_d`).
    target, level, alpha, beta : float
    m : int
        Number of systems of the ANOVA designs.
    """

    summary: VarianceSummary
    gstudy: GStudy
    dstudy: DStudy
    n_erho2: object
    n_phi: object
    differences: RunDifferences
    min_d: pd.DataFrame
    target: float
    level: float
    alpha: float
    beta: float
    m: int

    def figures(self) -> pd.Series:
        """The scalar figures of the report as one Series (the CSV and the workbook use it)."""
        s, g, d = self.summary, self.gstudy, self.dstudy
        items = {
            "runs": s.runs, "topics": s.topics,
            "V_E raw": s.var_raw, "V_E std-AB": s.var_std_ab,
            "V_E2 raw": s.var2_raw, "V_E2 std-AB": s.var2_std_ab,
            "sigma2_s": g.var_s, "sigma2_t": g.var_t, "sigma2_e": g.var_e,
            "negative components set to 0": ", ".join(g.negative) or "none",
            "Erho2": d.erho2, "Erho2 low": d.erho2_low, "Erho2 high": d.erho2_high,
            "Phi": d.phi, "Phi low": d.phi_low, "Phi high": d.phi_high,
            f"n for Erho2 >= {self.target:g}": self.n_erho2,
            f"n for Phi >= {self.target:g}": self.n_phi,
        }
        return pd.Series(items, dtype=object, name="value")


def collection_report(scores, *, top_k=None, m=None, alpha: float = 0.05,
                      beta: float = 0.20, target: float = 0.95, level: float = 0.95,
                      a: float = 0.15, b: float = 0.5, min_d=(), trials: int = 1000,
                      seed: int = 0) -> CollectionReport:
    """Know a past collection before designing the next: Sakai's inputs beside GT.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    top_k, m : int, optional
        Size of the group of best runs for the realistic minD and number of systems of the
        ANOVA designs: the same k = m, so give one (default 10).
    alpha, beta : float
        Type I and II error probabilities of the designs (defaults .05, .20).
    target : float
        Eρ² and Φ to reach (default .95).
    level : float
        Confidence level of the intervals of Eρ² and Φ (default .95).
    a, b : float
        std-AB's A and B.
    min_d : sequence of float
        Your own candidate minD values, added to the realistic ones (their share of run pairs
        and Sakai's n).
    trials, seed : int
        Random halves of the topics (and their seed) that correct the top-k candidates for
        their selection (:func:`~topicsetsize.decide.realistic.realistic_min_d`).

    Returns
    -------
    CollectionReport

    Examples
    --------
    The bundled TREC 2010 Web AP matrix:

    >>> from topicsetsize.examples import example_matrix
    >>> r = collection_report(example_matrix())
    >>> r.summary.runs, r.summary.topics, r.n_erho2, r.n_phi
    (88, 48, 69, 130)
    >>> round(r.dstudy.erho2, 3), round(r.dstudy.phi, 3)
    (0.93, 0.876)
    """
    for name, value in (("alpha", alpha), ("beta", beta), ("target", target), ("level", level)):
        check(name, value, allow_array=False)
    x = check_matrix(scores)
    frame = x.like_input(x.values)
    g = g_study(x.values)
    k, m = top_k_and_m(top_k, m)
    differences = run_differences(x.values, top_k=k)
    table = realistic_min_d(x.values, m=m, alpha=alpha, beta=beta, candidates=min_d,
                            differences=differences, trials=trials, seed=seed)
    return CollectionReport(summarise(frame, a=a, b=b), g, d_study(g, level=level),
                            gt_n(g, target), gt_n(g, target, coefficient="phi"), differences,
                            table, target, level, alpha, beta, int(table.attrs["m"]))


def reliability_curves(report: CollectionReport, ns) -> pd.DataFrame:
    """Eρ², Φ and the one-way ANOVA power (exact, at the ``top-k range`` minD and V_E) per n.

    The data of ``topicsetsize report --plot``.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> curves = reliability_curves(collection_report(example_matrix()), [10, 48, 100])
    >>> curves.round(3).loc[48, ["Erho2", "Phi"]].tolist()
    [0.93, 0.876]
    """
    from .designs.anova import anova_power

    ns = np.asarray(ns)
    d = d_study(report.gstudy, ns, level=report.level)
    min_d = report.min_d.loc["top-k range", "min_d"]
    power = (anova_power(ns, m=report.m, min_d=min_d, variance=report.summary.var_raw,
                         alpha=report.alpha, method="exact") if min_d > 0
             else np.full(ns.shape, np.nan))
    return pd.DataFrame({"Erho2": d.erho2, "Erho2 low": d.erho2_low, "Erho2 high": d.erho2_high,
                         "Phi": d.phi, "Phi low": d.phi_low, "Phi high": d.phi_high,
                         "ANOVA power": power}, index=pd.Index(ns, name="n"))
