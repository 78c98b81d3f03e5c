r"""minD values worth designing for, read off a past matrix, with Sakai's n for each.

The differences between runs that really occur in a past matrix
(:mod:`topicsetsize.estimates.differences`) turned into candidate minD values (the range of the
top k runs, the median and first quartile of their pairwise differences, all corrected for the
selection of the top k; the median over all pairs; and the user's own), each with the share of
the run pairs it was computed on that differ by at least that much, the standard error of a
paired difference on the past topics (is the candidate above the noise of the matrix?) and the
topic set sizes of the one-way (Sakai, AIRS 2016, Eq. 1; legacy and exact) and two-way (exact)
ANOVA designs.

**Copies.** A run identical to another on every topic (a run submitted twice) is not another
system: the differences between runs, the top k and every candidate count it once
(:func:`topicsetsize.matrices.copies.identical_runs`; a copy would add differences of 0, which
no two systems show, and take a system's place in the top k). V_E and V_E2, and so every n, keep
every run, as ``topicsetsize variance`` does. :func:`realistic_min_d` says so in one warning.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from ..designs.scales import warn_scale
from ..errors import InputError
from ..estimates.differences import (
    RunDifferences,
    paired_standard_errors,
    run_differences,
    share_at_least,
    split_half_differences,
    top_order,
)
from ..estimates.variance import residual_variance, two_way_residual_variance
from ..matrices.copies import COUNTED_ONCE, identical_runs
from ..matrices.matrix import check_matrix
from ..params import N_HALVES, N_MAX, PARAMS, check
from .limit import n_or_inf

__all__ = ["cut_note", "realistic_min_d", "N_COLUMNS", "column_n", "min_d_notes", "top_k_and_m",
           "check_top_k_fits", "DEFAULT_TOP_K",
           "COPIES", "MIN_D_COLUMNS", "MC_SE_COLUMN", "SHOWN_COLUMNS", "MC_SE_SHARE",
           "mc_error_note", "noise_note", "table_notes"]

#: The start of the name of a row that is your own minD (``candidates``), not one read off the
#: data: ``minD=0.05``.
OWN_ROW = "minD="
#: The size of the top group when neither ``top_k`` nor ``m`` is given.
DEFAULT_TOP_K = 10

#: What :func:`realistic_min_d` (and so ``topicsetsize report``) does with runs that are copies
#: of others (the end of the one-line warning that names them).
COPIES = (f"{COUNTED_ONCE}: in the differences between run means and the minD candidates; the "
          "variance estimates (V_E, V_E2, the G-study's components) keep every run")

#: The columns of :func:`realistic_min_d`'s table, in order, before :data:`MC_SE_COLUMN` (the
#: workbook's Report sheet shows these).
MIN_D_COLUMNS = ("min_d", "uncorrected", "pairs", "share", "se", "above noise",
                 "n one-way legacy", "n one-way exact", "n two-way exact")
#: The last column: the Monte Carlo standard error of a selection-corrected min_d.
MC_SE_COLUMN = "mc_se"
#: The columns as ``topicsetsize report`` and the workbook's Report sheet show them:
#: :data:`MC_SE_COLUMN` before the n it moves (the n stay the last columns).
SHOWN_COLUMNS = (*(c for c in MIN_D_COLUMNS if not c.startswith("n ")), MC_SE_COLUMN,
                 *(c for c in MIN_D_COLUMNS if c.startswith("n ")))
#: A corrected min_d whose Monte Carlo standard error is above this share of it moves its n by
#: more than about 10% between seeds (n ∝ 1/minD²: a relative error ε of minD is 2ε of n), and
#: ``topicsetsize report`` says to raise ``--trials`` (:func:`mc_error_note`).
MC_SE_SHARE = 0.05


#: The n columns of :func:`realistic_min_d`'s table: (design, method, the σ̂² it is sized on).
N_COLUMNS = {"n one-way legacy": ("anova", "legacy", "one-way"),
             "n one-way exact": ("anova", "exact", "one-way"),
             "n two-way exact": ("anova2", "exact", "two-way")}


def column_n(column: str, min_d, variance, *, alpha: float, beta: float, m: int) -> np.ndarray:
    """n of the design of the n ``column`` (:data:`N_COLUMNS`) at the arrays ``min_d`` and
    ``variance`` (broadcast), inf where no n up to the search limit has power 1 − β
    (:func:`~.limit.n_or_inf`): a candidate, or a resample of the topics, beyond the limit does not
    stop the report.

    >>> column_n("n one-way exact", [0.1, 1e-6], 0.06, alpha=0.05, beta=0.2, m=10).tolist()
    [189.0, inf]
    """
    design, method, _ = N_COLUMNS[column]
    return n_or_inf(design, min_d, variance, alpha=alpha, beta=beta, m=m, method=method)


def top_k_and_m(top_k=None, m=None) -> tuple[int, int]:
    """The size k of the top group and the m of the designs: k = m (one given, or neither:
    :data:`DEFAULT_TOP_K`); both given and different is an error.

    >>> top_k_and_m(), top_k_and_m(m=20), top_k_and_m(top_k=5)
    ((10, 10), (20, 20), (5, 5))
    """
    if top_k is not None:
        top_k = check("top_k", top_k, allow_array=False)
    if m is not None:
        m = check("m", m, allow_array=False)
    if top_k is not None and m is not None and top_k != m:
        raise InputError(f"top_k={top_k} and m={m}: the top-k candidates are differences among "
                         "the m runs of the design (k = m); give one of them")
    k = top_k if top_k is not None else m if m is not None else DEFAULT_TOP_K
    return k, k


def check_top_k_fits(top_k, m, runs: int, *, names=("top_k", "m"), where="the matrix"):
    """Refuse a top group (``top_k`` or ``m``, as given) larger than the ``runs`` of the
    matrix, its distinct runs (copies counted once); neither given, the default 10 is cut to
    the runs, the designs' m with it (:func:`cut_note` says so).

    >>> check_top_k_fits(None, 90, 78)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: m=90 is out of range: allowed 2 <= m <= 78 (the distinct runs of \
the matrix)
    """
    for name, value in zip(names, (top_k, m)):
        if value is not None and value > runs:
            raise InputError(f"{name}={value} is out of range: allowed 2 <= {name} <= {runs} "
                             f"(the distinct runs of {where})")


def realistic_min_d(scores, *, top_k=None, m=None, alpha: float = 0.05, beta: float = 0.20,
                    candidates=(), differences: RunDifferences | None = None,
                    trials: int = N_HALVES, seed: int = 0):
    r"""minD values worth designing for, read off the matrix, with Sakai's n for each.

    The candidates (rows) are differences that occur between the runs of the matrix, each run
    counted once (a run identical to an earlier one on every topic is a copy, not another
    system: one :class:`~topicsetsize.matrices.copies.IdenticalRunsWarning` names the copies,
    which V_E and V_E2 keep). The top group is the k = m best runs by mean (at most every
    distinct run):

    * ``top-k range``: the best minus the k-th best run (what an ANOVA of the top k runs
      would have to detect as its range minD);
    * ``top-k median``: the median difference among the pairs of the top k runs;
    * ``top-k 25%``: the first quartile of the same (a harder target);
    * ``all-pairs median``: the median difference over all pairs of runs;
    * ``minD=<value>``: each of your own ``candidates`` (e.g. the habitual .05 and .10).

    The three top-k candidates are corrected for the selection of the top k
    (:func:`topicsetsize.estimates.differences.split_half_differences`: the top k picked on
    one random half of the topics, their differences measured on the other half, averaged over
    ``trials`` halves drawn with ``seed``); ``uncorrected`` is the same quantity on all topics.
    ``mc_se`` is the Monte Carlo standard error of a corrected min_d over the halves (how much
    another ``seed`` would move it: ``SplitHalfDifferences.mc_se``), NaN for the other rows,
    which draw nothing.
    For each row, ``pairs`` names the pairs it was computed on (``top k`` or ``all``) and
    ``share`` is the share of those pairs whose means differ by at least ``min_d``. ``se`` is
    the standard error of a paired difference on the past topics
    (:func:`~topicsetsize.estimates.differences.paired_standard_errors`): of the pair best vs
    k-th best for the range, the median over the row's pairs otherwise. ``above noise`` is
    whether min_d ≥ t(1 − α/2; n − 1)·se, i.e. whether a paired t-test on the past topics would
    tell a difference of that size from zero; a row below the noise sizes n on noise. The topic
    set sizes at α, β for m systems: ``n one-way legacy`` and ``n one-way exact``
    (:func:`topicsetsize.anova_n` with V_E, AIRS 2016 Eq. 1) and ``n two-way exact``
    (:func:`topicsetsize.anova2_n` with V_E2; the two-way design has no legacy approximation).
    A candidate of 0 or below (runs not told apart) gets no share and no n.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
    top_k, m : int, optional
        The size of the top group and the number of systems of the designs: k = m, so give one
        (both only if equal); default 10, or every distinct run where there are fewer.
    alpha, beta : float
    candidates : sequence of float
        Further minD values to check (> 0), e.g. ``[0.05, 0.1]``.
    differences : RunDifferences, optional
        Reuse :func:`run_differences` of the same matrix's distinct runs
        (:meth:`~topicsetsize.matrices.copies.RunCopies.distinct`) and top group.
    trials, seed : int
        Random halves of the selection correction, and their seed (default
        :data:`topicsetsize.params.N_HALVES` and 0: fewer halves bias the median and quartile
        rows, :func:`~topicsetsize.estimates.differences.split_half_differences`).

    Returns
    -------
    pandas.DataFrame
        Index ``candidate``; the columns :data:`MIN_D_COLUMNS`, then :data:`MC_SE_COLUMN`.
        ``attrs`` holds ``m``, ``top_k``, ``alpha``, ``beta``, ``variance``, ``variance2``
        (of every run), ``trials``, ``seed``, ``copies`` (the ``(copy, original)`` pairs
        counted once, :attr:`~topicsetsize.matrices.copies.RunCopies.copies`),
        ``cut_to_runs`` (the default 10 cut to fewer distinct runs, :func:`cut_note`) and
        ``topics`` (the past topics).

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> table = realistic_min_d(example_matrix())
    >>> row = table.loc["top-k range"]
    >>> round(float(row["min_d"]), 4), round(float(row["uncorrected"]), 4), row["pairs"]
    (0.008, 0.0241, 'top 10')
    >>> round(float(row["se"]), 4), bool(row["above noise"]), int(row["n one-way legacy"])
    (0.0178, False, 4097)
    >>> round(float(row["mc_se"]), 5), float(table.loc["all-pairs median", "mc_se"])
    (9e-05, nan)
    """
    matrix = check_matrix(scores)
    x = matrix.values                             # every run: V_E and V_E2
    copies = identical_runs(matrix)
    copies.require_two("no difference between runs to design for")
    runs = copies.distinct(x)                     # each system once: the differences
    given = top_k, m
    k, m = top_k_and_m(top_k, m)                  # checks them
    check_top_k_fits(*given, runs.shape[1])
    alpha = check("alpha", alpha, allow_array=False)
    if differences is None:
        differences = run_differences(runs, top_k=k)
    elif differences.top_k != min(k, runs.shape[1]):
        raise InputError(f"differences has a top group of {differences.top_k} runs; the "
                         f"design has m={m}")
    copies.warn(COPIES)
    k = differences.top_k
    cut = given == (None, None) and k < m    # the default 10, cut to fewer distinct runs:
    m = k if cut else m                      # the designs' m with it (k = m)
    corrected = split_half_differences(runs, top_k=k, trials=trials, seed=seed)
    extra = np.atleast_1d(check("min_d", list(candidates))) if len(candidates) else []
    order = top_order(runs.mean(axis=0))
    top_i, top_j = (order[:k][v] for v in np.triu_indices(k, k=1))
    all_i, all_j = np.triu_indices(runs.shape[1], k=1)
    se_top = float(np.median(paired_standard_errors(runs, top_i, top_j)))
    se_all = float(np.median(paired_standard_errors(runs, all_i, all_j)))
    se_range = float(paired_standard_errors(runs, [order[0]], [order[k - 1]])[0])
    top, everyone = f"top {k}", "all"
    # candidate: (min_d, uncorrected, pairs, the pairs' differences, se)
    rows = {"top-k range": (corrected.top_range, differences.top_range, top,
                            differences.top_pairs, se_range),
            "top-k median": (float(np.median(corrected.top_pairs)),
                             float(np.median(differences.top_pairs)), top,
                             differences.top_pairs, se_top),
            "top-k 25%": (float(np.quantile(corrected.top_pairs, 0.25)),
                          float(np.quantile(differences.top_pairs, 0.25)), top,
                          differences.top_pairs, se_top),
            "all-pairs median": (float(np.median(differences.all_pairs)),
                                 float(np.median(differences.all_pairs)), everyone,
                                 differences.all_pairs, se_all),
            **{f"{OWN_ROW}{float(v):g}": (float(v), np.nan, everyone, differences.all_pairs,
                                          se_all) for v in extra}}
    d = np.array([r[0] for r in rows.values()])
    usable = d > 0                               # identical (or equal) runs: no difference
    critical = float(stats.t.isf(alpha / 2, x.shape[0] - 1))
    se = np.array([r[4] for r in rows.values()])
    share = [share_at_least(r[3], r[0]) if r[0] > 0 else np.nan for r in rows.values()]
    table = pd.DataFrame({"min_d": d, "uncorrected": [r[1] for r in rows.values()],
                          "pairs": [r[2] for r in rows.values()], "share": share, "se": se,
                          "above noise": d >= critical * se},
                         index=pd.Index(list(rows), name="candidate"))
    v1, v2 = residual_variance(x), two_way_residual_variance(x)
    # the rows read off the scores are on their scale; the user's own minD may not be
    warn_scale({"min_d": np.array([float(v) for v in extra]), "variance": v1}, given=True)
    for name, (_, _, estimator) in N_COLUMNS.items():
        n = np.full(d.size, np.nan)
        if usable.any():
            n[usable] = column_n(name, d[usable], v1 if estimator == "one-way" else v2,
                                 alpha=alpha, beta=beta, m=m)
        n[np.isinf(n)] = np.nan         # beyond the search limit: no n (min_d_notes says why)
        table[name] = pd.Series(n, index=table.index).astype("Int64")
    mc_se = [corrected.mc_se[key] for key in ("range", "median", "25%")]
    table[MC_SE_COLUMN] = mc_se + [np.nan] * (d.size - len(mc_se))
    table.attrs.update(m=m, top_k=k, alpha=alpha, beta=beta, variance=v1, variance2=v2,
                       trials=corrected.trials, seed=corrected.seed, critical=critical,
                       copies=copies.copies, cut_to_runs=cut, topics=x.shape[0])
    return table


def min_d_notes(table: pd.DataFrame) -> list[str]:
    """One line per row of a :func:`realistic_min_d` table that needs saying, else nothing.

    * A row whose min_d is 0 or below (or missing): the top runs are not told apart (on the
      other half of the topics, the runs picked first are no better than those picked after
      them, or their means are equal); it has no share and no n.
    * A selection-corrected row above its uncorrected value, or with a share of 0: no pair of
      the past top runs differs by as much. The correction estimates what the top runs of the
      next collection will show, a difference not seen among these runs.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> min_d_notes(realistic_min_d(example_matrix()))
    []

    Two runs with equal means, each better on half the topics: the one picked on a random half
    is the worse on the other.

    >>> x = np.array([[.5, .3, .1], [.3, .5, .2], [.5, .3, .1], [.3, .5, .2], [.6, .2, .1],
    ...               [.2, .6, .2]])
    >>> for line in min_d_notes(realistic_min_d(x, m=2)):
    ...     print(line)
    top-k range: min_d -0.1068: the top runs are not told apart; no n
    top-k median: min_d -0.1068: the top runs are not told apart; no n
    top-k 25%: min_d -0.1068: the top runs are not told apart; no n
    """
    notes = []
    for name, row in table.iterrows():
        d, seen = float(row["min_d"]), float(row["uncorrected"])
        if not d > 0:
            notes.append(f"{name}: min_d {d:.4f}: the top runs are not told apart; no n")
            continue
        beyond = [c for c in table.columns if c.startswith("n ") and pd.isna(row[c])]
        if beyond:
            notes.append(f"{name}: min_d {d:.4g} is too small to detect against the variance of "
                         f"these scores: no n up to {N_MAX:,} topics reaches the target "
                         f"({', '.join(beyond)}); no n")
        elif seen == seen and (d > seen or row["share"] == 0):
            above = f" > {seen:.4f} uncorrected" if d > seen else ""
            none = (f", share 0%: no pair of the past {row['pairs']} runs differs by as much"
                    if row["share"] == 0 else "")
            notes.append(f"{name}: min_d {d:.4f} (corrected for selection){above}{none}; it "
                         f"is an estimate of what the next collection's top runs will show, "
                         f"not a difference seen")
    return notes


def mc_error_note(table: pd.DataFrame, *, option: str = "trials") -> str | None:
    """One line when a selection-corrected min_d of a :func:`realistic_min_d` table has a
    Monte Carlo standard error above :data:`MC_SE_SHARE` of it, else None.

    The line names those rows with their error as a share of min_d, and the ``option`` (the
    number of halves) that would bring every such row to :data:`MC_SE_SHARE`: the error falls
    about as 1/√trials (exactly for the range, a mean; about for the median and quartile), so
    ``trials`` × (share / MC_SE_SHARE)², rounded up to two significant digits (at most the
    largest ``trials`` allowed). A row whose min_d is within 2 mc_se of 0 is named apart:
    another seed may give it 0 or below (no n), and a share of a value near 0 says nothing of
    the trials it needs. Rows whose min_d is 0 or below have no n to move and are left out
    (:func:`min_d_notes` speaks of them). One half (``trials`` = 1) has no error estimate: the
    line says so.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> print(mc_error_note(realistic_min_d(example_matrix()), option="--trials"))
    Monte Carlo error of the corrected min_d (mc_se) above 5% of it: top-k median 6%, top-k 25% \
22%; another seed moves n by about twice that share: raise --trials (64000) to about 1300000 for \
5%
    """
    trials = int(table.attrs["trials"])
    if trials < 2:
        return (f"{option} {trials}: one random half gives no Monte Carlo error of the "
                f"corrected min_d (mc_se); raise {option} (default {N_HALVES})")
    d, se = table["min_d"], table[MC_SE_COLUMN]
    near_zero = (d > 0) & (d <= 2 * se)
    relative = (se / d).where((d > 0) & ~near_zero)
    large = relative[relative > MC_SE_SHARE]
    parts = []
    if not large.empty:
        needed = trials * (float(large.max()) / MC_SE_SHARE) ** 2
        digits = max(0, len(str(int(needed))) - 2)
        needed = min(math.ceil(needed / 10 ** digits) * 10 ** digits,
                     int(PARAMS["trials"].high))
        rows = ", ".join(f"{name} {share:.0%}" for name, share in large.items())
        parts.append(f"above {MC_SE_SHARE:.0%} of it: {rows}; another seed moves n by about "
                     f"twice that share: raise {option} ({trials}) to about {needed} for "
                     f"{MC_SE_SHARE:.0%}")
    if near_zero.any():
        rows = ", ".join(f"{name} ({d[name]:.4f} ± {se[name]:.5f})"
                         for name in near_zero[near_zero].index)
        parts.append(f"within 2 mc_se of 0: {rows}; another seed may give no n")
    if not parts:
        return None
    return "Monte Carlo error of the corrected min_d (mc_se) " + "; ".join(parts)


def noise_note(table: pd.DataFrame) -> str | None:
    """One line when some row of a :func:`realistic_min_d` table is below the noise of the past
    topics (``above noise`` false), else None. A difference read off the data below that noise
    is one these topics cannot tell from zero, so its n is sized on noise; your own minD
    (``minD=`` rows) below it is simply one these topics are too few to detect, which is what
    its n is for, and the line says so.

    >>> from topicsetsize.examples import example_matrix
    >>> print(noise_note(realistic_min_d(example_matrix())))
    rows with above noise = no are differences these topics cannot tell from zero: their n is \
sized on noise
    >>> print(noise_note(realistic_min_d(example_matrix(), candidates=[0.01, 0.05])))
    rows read off the data with above noise = no are differences these topics cannot tell from \
zero: their n is sized on noise; minD=0.01: your own minD, which these 48 topics cannot tell from \
zero (above noise = no): its n is how many topics can
    """
    below = [name for name, above in table["above noise"].items() if not above]
    if not below:
        return None
    found = [name for name in below if not str(name).startswith(OWN_ROW)]
    own = [name for name in below if str(name).startswith(OWN_ROW)]
    rows = "rows read off the data" if own else "rows"
    parts = [f"{rows} with above noise = no are differences these topics cannot tell from "
             "zero: their n is sized on noise"] if found else []
    if own:
        parts.append(f"{', '.join(own)}: your own minD, which these {table.attrs['topics']} "
                     "topics cannot tell from zero (above noise = no): its n is how many "
                     "topics can")
    return "; ".join(parts)


def table_notes(table: pd.DataFrame, *, option: str = "--trials") -> list[str]:
    """Every note on a :func:`realistic_min_d` table, in the order ``topicsetsize report``
    prints them and the workbook's Report sheet writes them: :func:`min_d_notes`, then
    :func:`mc_error_note` (naming ``option``, the command's ``--trials``) and
    :func:`noise_note` where they have something to say.

    >>> from topicsetsize.examples import example_matrix
    >>> for line in table_notes(realistic_min_d(example_matrix())):
    ...     print(line)
    Monte Carlo error of the corrected min_d (mc_se) above 5% of it: top-k median 6%, top-k 25% \
22%; another seed moves n by about twice that share: raise --trials (64000) to about 1300000 for \
5%
    rows with above noise = no are differences these topics cannot tell from zero: their n is \
sized on noise
    """
    lines = [cut_note(table), *min_d_notes(table), mc_error_note(table, option=option),
             noise_note(table)]
    return [line for line in lines if line is not None]


def cut_note(table: pd.DataFrame) -> str | None:
    """Where the default top group of :data:`DEFAULT_TOP_K` runs was cut to the fewer distinct
    runs of the matrix, a line that says so: the designs' m is then that number too (k = m),
    and a design of more systems is asked for with ``--m`` on a matrix of as many runs.

    >>> from topicsetsize.examples import example_matrix
    >>> note = cut_note(realistic_min_d(example_matrix().iloc[:, :6]))
    >>> note.split(": ")[0], note.split(": ")[1][-29:]
    ('the matrix has 6 distinct runs, fewer than the default 10', 'are all 6 of them (k = m = 6)')
    """
    if not table.attrs.get("cut_to_runs"):
        return None
    k = table.attrs["top_k"]
    return (f"the matrix has {k} distinct runs, fewer than the default {DEFAULT_TOP_K}: the top "
            f"group and the designs' m are all {k} of them (k = m = {k})")
