"""One report on a past collection: variances, generalizability theory and realistic minD.

:func:`collection_report` puts side by side, for one topics × runs matrix, what topic set size
design needs (V_E and V_E2 of the raw and std-AB scores, :mod:`topicsetsize.estimates.summary`), the
G-study and D-study of generalizability theory (:mod:`topicsetsize.estimates.gtheory`) and the
differences between runs that occur in it with Sakai's n for each
(:mod:`topicsetsize.estimates.differences`). The command ``topicsetsize report`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .decide.realistic import check_top_k_fits, realistic_min_d, top_k_and_m
from .estimates.differences import RunDifferences, run_differences
from .estimates.gtheory import DStudy, GStudy, d_study, g_study, gt_n, gt_n_interval
from .estimates.summary import VarianceSummary, summarise
from .estimates.variance import check_varies, require_sizeable
from .matrices.copies import identical_runs
from .matrices.matrix import check_matrix
from .params import N_BOOT, N_HALVES, N_MAX, check

__all__ = ["CollectionReport", "collection_report", "reliability_curves", "min_d_intervals",
           "interval_end_text",
           "interval_table", "MIN_D_HELD_FIXED"]


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
        The differences between run means, each run counted once (a copy of another run on
        every topic is not another system; the variances keep every run).
    min_d : pandas.DataFrame
        Realistic minD values with Sakai's n
        (:func:`~topicsetsize.decide.realistic.realistic_min_d`).
    target, level, alpha, beta : float
    m : int
        Number of systems of the ANOVA designs.
    n_intervals : dict of str to NInterval
        Per n column of ``min_d`` (``"n one-way legacy"``, ...), the bootstrap interval of its
        n over the past topics (:func:`min_d_intervals`): ``lower`` and ``upper`` are arrays
        aligned with the rows of ``min_d`` (NaN where the row has no n). Empty when
        ``n_boot=None``.
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
    n_intervals: dict = field(default_factory=dict)

    def gt_n_intervals(self) -> dict:
        """The ``level`` intervals of ``n_erho2`` and ``n_phi``
        (:func:`~topicsetsize.estimates.gtheory.gt_n_interval`): ``{"erho2": ..., "phi": ...}``.
        """
        return {c: gt_n_interval(self.gstudy, self.target, coefficient=c, level=self.level)
                for c in ("erho2", "phi")}

    def figures(self) -> pd.Series:
        """The scalar figures of the report as one Series (the CSV and the workbook use it)."""
        s, g, d, gt = self.summary, self.gstudy, self.dstudy, self.gt_n_intervals()
        items = {
            "runs": s.runs, "topics": s.topics,
            "V_E raw": s.var_raw, "V_E std-AB": s.var_std_ab,
            "V_E2 raw": s.var2_raw, "V_E2 std-AB": s.var2_std_ab,
            "sigma2_s": g.var_s, "sigma2_t": g.var_t, "sigma2_e": g.var_e,
            "negative components set to 0": ", ".join(g.negative) or "none",
            "Erho2": d.erho2, "Erho2 low": d.erho2_low, "Erho2 high": d.erho2_high,
            "Phi": d.phi, "Phi low": d.phi_low, "Phi high": d.phi_high,
        }
        for label, n, ci in ((f"n for Erho2 >= {self.target:g}", self.n_erho2, gt["erho2"]),
                             (f"n for Phi >= {self.target:g}", self.n_phi, gt["phi"])):
            items.update({label: n, f"{label} low": ci.low, f"{label} high": ci.high})
        return pd.Series(items, dtype=object, name="value")


def require_run_differences(values: np.ndarray) -> None:
    """Refuse a matrix (topics × runs) whose runs' mean raw scores all tie: τ is then undefined
    (:func:`~topicsetsize.estimates.summary.summarise` warns and goes on) and the report's minD,
    the differences that occur between runs, has nothing to go on; said in words, not as an
    empty list of minD.

    >>> require_run_differences(np.array([[0.1, 0.3], [0.3, 0.1]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: the runs' mean raw scores are all equal (every value is 0.2): no ...
    """
    check_varies(np.asarray(values, float).mean(axis=0), name="the runs' mean raw scores",
                 plural=True, what="no difference occurs between its runs, so the report has "
                                   "no minD to size for (`topicsetsize variance` gives its V_E)")


def collection_report(scores, *, top_k=None, m=None, alpha: float = 0.05,
                      beta: float = 0.20, target: float = 0.95, level: float = 0.95,
                      a: float = 0.15, b: float = 0.5, min_d=(), trials: int = N_HALVES,
                      seed: int = 0, n_boot=N_BOOT) -> CollectionReport:
    """Know a past collection before designing the next: Sakai's inputs beside GT.

    Runs that are copies of others (equal scores on every topic) are counted once in the
    differences between runs and the minD candidates, and kept in V_E, V_E2 and the G-study:
    one :class:`~topicsetsize.matrices.copies.IdenticalRunsWarning` names them
    (:func:`~topicsetsize.decide.realistic.realistic_min_d`).

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
        their selection (:func:`~topicsetsize.decide.realistic.realistic_min_d`); the seed
        also seeds the bootstrap of ``n_boot``.
    n_boot : int or None
        Bootstrap resamples of the topics for the ``level`` interval of every n of the minD
        table (:func:`min_d_intervals`, with ``seed``); None skips them.

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
    >>> ci = r.n_intervals["n one-way exact"]        # the top-k range's n, seed 0 (the default)
    >>> int(ci.lower[0]), int(ci.upper[0]), ci.level, ci.n_boot, ci.seed
    (2905, 5541, 0.95, 2000, 0)
    """
    for name, value in (("alpha", alpha), ("beta", beta), ("target", target), ("level", level),
                        ("a", a), ("b", b)):        # before the long work
        check(name, value, allow_array=False)
    x = check_matrix(scores)
    frame = x.like_input(x.values)
    summary = summarise(frame, a=a, b=b)
    require_sizeable(summary.var_raw, x.values)
    require_run_differences(x.values)
    g = g_study(x.values)
    k, _ = top_k_and_m(top_k, m)                  # checks them
    runs = identical_runs(x).distinct(x.values)   # a copy of a run is not another system
    check_top_k_fits(top_k, m, runs.shape[1])
    differences = run_differences(runs, top_k=k)
    table = realistic_min_d(frame, top_k=top_k, m=m, alpha=alpha, beta=beta, candidates=min_d,
                            differences=differences, trials=trials, seed=seed)
    intervals = ({} if n_boot is None else
                 min_d_intervals(x.values, table, alpha=alpha, beta=beta, level=level,
                                 n_boot=n_boot, seed=seed))
    return CollectionReport(summary, g, d_study(g, level=level),
                            gt_n(g, target), gt_n(g, target, coefficient="phi"), differences,
                            table, target, level, alpha, beta, int(table.attrs["m"]), intervals)


#: What the intervals of :func:`min_d_intervals` leave out, in the words ``topicsetsize report``
#: prints under them and the workbook's Report sheet writes under its own (plain ASCII, for
#: the command's output).
MIN_D_HELD_FIXED = ("min_d is held fixed: the intervals cover the sampling of the past topics "
                    "in V_E and V_E2 only, not the uncertainty of min_d, read off the same "
                    "topics (neither its Monte Carlo error, mc_se above, nor the error of its "
                    "correction for selection)")


def min_d_intervals(scores, table: pd.DataFrame, *, alpha: float = 0.05, beta: float = 0.20,
                    level: float = 0.95, n_boot: int = N_BOOT, seed=None) -> dict:
    """The bootstrap interval of every n of a realistic-minD table, over the past topics.

    For each n column of ``table`` (:func:`~topicsetsize.decide.realistic.realistic_min_d`),
    :func:`~topicsetsize.estimates.uncertainty.n_interval` with the σ̂² it was sized on (V_E for
    the one-way designs, V_E2 for the two-way one), every candidate minD at once, the
    same resamples of the topics for every column (one seed). Each minD is held fixed
    (:data:`MIN_D_HELD_FIXED`).

    Returns
    -------
    dict of str to NInterval
        ``lower``/``upper`` aligned with the rows of ``table``; NaN where a row has no n.

    Examples
    --------
    >>> from topicsetsize.decide.realistic import realistic_min_d
    >>> from topicsetsize.examples import example_matrix
    >>> x = example_matrix()
    >>> table = realistic_min_d(x)
    >>> ci = min_d_intervals(x, table, seed=1)["n two-way exact"]
    >>> int(table.loc["top-k range", "n two-way exact"]), int(ci.lower[0]), int(ci.upper[0])
    (2191, 1692, 2712)
    """
    from .decide.realistic import N_COLUMNS, column_n
    from .estimates.uncertainty import fresh_seed, n_interval

    seed = fresh_seed(seed)
    m = int(table.attrs["m"])
    d = table["min_d"].to_numpy(float, na_value=np.nan)
    out = {}
    for column, (_, _, estimator) in N_COLUMNS.items():
        if column not in table:
            continue
        # the rows with an n: a minD above 0 whose n is within the search limit; a resample
        # beyond it has n = inf, the interval's upper end then "more than" the limit
        usable = table[column].notna().to_numpy() & np.isfinite(d) & (d > 0)

        def n_of(v, column=column, usable=usable):
            return column_n(column, d[usable][:, None], v, alpha=alpha, beta=beta, m=m)

        ci = n_interval(scores, n_of, estimator=estimator, level=level, n_boot=n_boot, seed=seed)
        lower, upper = np.full(d.size, np.nan), np.full(d.size, np.nan)
        lower[usable], upper[usable] = ci.lower, ci.upper
        out[column] = replace(ci, lower=lower, upper=upper)
    return out


def interval_table(report: CollectionReport) -> pd.DataFrame:
    """The minD table's n beside their bootstrap intervals: per candidate, ``min_d`` and, per
    n column, the n, its ``low`` and its ``high`` (what ``topicsetsize report`` prints).

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> t = interval_table(collection_report(example_matrix()))
    >>> [int(t.loc["top-k range", c]) for c in ("n one-way exact", "n one-way exact low",
    ...                                          "n one-way exact high")]
    [4118, 2905, 5541]
    """
    columns = {"min_d": report.min_d["min_d"]}
    for name, ci in report.n_intervals.items():
        columns[name] = report.min_d[name]
        for end, values in (("low", ci.lower), ("high", ci.upper)):
            # an end beyond the search limit (inf in the NInterval) has no whole number: NA
            # here; interval_end_text says "more than" the limit
            finite = np.where(np.isfinite(values), values, np.nan)
            columns[f"{name} {end}"] = pd.Series(finite, index=report.min_d.index).astype("Int64")
    return pd.DataFrame(columns)


def interval_end_text(value) -> str:
    """An end of an interval of n as text: the whole number, "more than" the search limit
    where it lies beyond it (inf), or "" where the row has none (NaN).

    >>> interval_end_text(5541.0), interval_end_text(float("inf")), interval_end_text(np.nan)
    ('5541', 'more than 1,000,000,000', '')
    """
    value = float(value)
    if value != value:
        return ""
    return f"more than {N_MAX:,}" if value == np.inf else str(int(value))


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
