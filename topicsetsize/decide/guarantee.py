"""What a topic set of n topics guarantees, for every design at once.

For a fixed number of topics n, the three designs of topic set size design each give a
guarantee (Sakai, IRJ 2016, Sections 3, 5 and 6):

* one-way ANOVA over m systems: the minimum detectable range minD between the best and the
  worst system, detected with power 1 − β at level α (:func:`topicsetsize.anova_min_d`);
* paired t-test between two systems: the minimum detectable difference minDt
  (:func:`topicsetsize.ttest_min_dt`), with σ̂t² = 2σ̂² when taken from a one-way V_E;
* confidence interval: the expected width of the 100(1 − α)% CI of a difference
  (:func:`topicsetsize.ci_delta`).

This is how the NTCIR-12 STC overview reports what its 100 topics buy ("with 100 topics,
m = 10 systems: minimum detectable range ...") and how the AIRS 2016 std-AB paper reads its
Table 2 backwards.
"""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..designs.anova import anova_min_d
from ..designs.ci import ci_delta
from ..designs.registry import DESIGNS
from ..designs.ttest import ttest_min_dt
from ..errors import InputError
from ..params import check
from .anova_designs import check_design

if TYPE_CHECKING:      # pandas is imported where a table is made: round_up needs none (the
    import pandas as pd  # default workbook's Decide sheet imports no pandas, issue 28.6)

__all__ = ["Guarantees", "guarantees", "round_up", "percent_text", "DEFAULT_MS",
           "TABLE_DECIMALS"]

#: The numbers of systems reported by default (the m of the papers' tables).
DEFAULT_MS = (2, 5, 10, 20, 50, 100)

#: Decimals of the table that ``topicsetsize guarantees`` prints (rounded up); the statements
#: never show more.
TABLE_DECIMALS = 4

#: The columns of :attr:`Guarantees.table`, in order.
COLUMNS = ("n", "m", "min_d", "min_dt", "ci_delta")


def round_up(values, *, decimals: int = 2):
    """Round up to ``decimals`` decimal places, so that a shown value is never below the true one.

    A detectable difference or a CI width rounded *down* would promise more than the design
    gives; rounded up, the statement stays true. Values already on the grid (to 1e-9 of a
    step, which absorbs binary representation error) stay where they are.

    Parameters
    ----------
    values : float or array_like
        Finite real numbers.
    decimals : int
        Decimal places, 0 to 15.

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        One line naming the argument: a value that is not a finite real number (a string,
        None, NaN), or decimals out of range.

    Examples
    --------
    >>> round_up(0.13704718), round_up(0.1), round_up([0.0961, 0.2204], decimals=3)
    (0.14, 0.1, array([0.097, 0.221]))
    >>> round_up(0.0), round_up([0.0, -0.0])       # zero, not -0.0
    (0.0, array([0., 0.]))
    >>> round_up("0.1")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: values='0.1' is not a number: allowed values finite
    """
    decimals = check("decimals", decimals, allow_array=False)
    arr = np.asarray(check("values", values), float)
    scale = 10.0 ** decimals
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = arr * scale
        # From 2**52 steps a float has no fraction of a step left: it is on the grid, kept as
        # is (scaling back and forth could lose its last bit, or overflow).
        out = np.where(np.abs(scaled) < 2.0 ** 52, np.ceil(scaled - 1e-9) / scale, arr)
    out = out + 0.0             # ceil(0 - 1e-9) is -0.0: shown as "-0.0" otherwise
    return float(out) if out.ndim == 0 else out


def _decimals(x: float, decimals: int) -> int:
    """Decimals of a stated guarantee: at least ``decimals`` and two significant digits, at most
    :data:`TABLE_DECIMALS` for the significant digits (the precision of the printed table)."""
    if not 0 < abs(x) < 1e16:
        return decimals
    return max(decimals, min(TABLE_DECIMALS, 1 - math.floor(math.log10(abs(x)))))


def _number(x: float, decimals: int) -> str:
    """``x`` rounded up to :func:`_decimals` places; where rounding up reaches the next power
    of ten (0.0996 to 0.100), to that value's places (0.10: two significant digits, as said).

    >>> _number(0.0996, 2), _number(0.0312, 2), _number(0.137, 2)
    ('0.10', '0.032', '0.14')
    """
    places = _decimals(x, decimals)
    value = round_up(x, decimals=places)
    fewer = _decimals(value, decimals)
    if fewer < places:
        places, value = fewer, round_up(x, decimals=fewer)
    # From 1e16 a float has no decimals to show: its shortest exact form (5.554905259160818e+149).
    return f"{value:.{places}f}" if abs(value) < 1e16 else repr(value)


def _table_text(x: float) -> str:
    """A value as the table shows it (:data:`TABLE_DECIMALS` decimals; from 1e16 on its shortest
    exact form, as :func:`_number`), for the legacy note.

    >>> _table_text(0.09617), _table_text(5.554905259160886e+149)
    ('0.0962', '5.554905259160886e+149')
    """
    return f"{x:.{TABLE_DECIMALS}f}" if abs(x) < 1e16 else repr(float(x))


def percent_text(q: float) -> str:
    """100(1 − q)% with the digits it needs, never rounded to 100%: the confidence level of α, or
    the power of β.

    Computed in decimal from the shortest form of ``q`` (``repr``), so α = 1e-7 gives 99.99999%
    (a float 1 − α would show 99.99999000000000...%), and at most 21 digits after the point
    (cut, never rounded up to 100%).

    Examples
    --------
    >>> percent_text(0.05), percent_text(1e-7), percent_text(0.2), percent_text(0.001)
    ('95%', '99.99999%', '80%', '99.9%')
    """
    text = format(((1 - decimal.Decimal(repr(float(q)))) * 100).normalize(), "f")
    return f"{text[:24]}%"


@dataclass(frozen=True)
class Guarantees:
    """What n topics guarantee: the result of :func:`guarantees`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (n, m), n-major, in the order given, with the columns ``n``, ``m``,
        ``min_d`` (ANOVA over m systems), ``min_dt`` (paired t-test) and ``ci_delta`` (expected
        CI width). ``min_dt`` and ``ci_delta`` compare two systems: they depend on n only and
        repeat on every m row of that n. ``table.set_index(["n", "m"])`` gives a MultiIndex.
    variance, variance_t, alpha, beta : float
        The inputs (``variance_t`` after its default 2·variance is applied).
    method : str
        "legacy" or "exact".
    design : str
        "anova" (``min_d`` of the one-way ANOVA at V_E) or "anova2" (of the two-way ANOVA,
        topics as blocks, at V_E2).
    note : str
        With the legacy method, what the exact noncentral F and t say of it, in one sentence
        ("" where every guarantee holds under them): the legacy approximations under-size n, so
        a legacy minD or minDt (as the table shows it) can have an exact power below 1 − β.

    Examples
    --------
    >>> g = guarantees([50, 100], variance=0.0601, ms=[2, 10])
    >>> g.table.set_index(["n", "m"])["min_d"].round(3)
    n    m
    50   2     0.136
         10    0.194
    100  2     0.096
         10    0.137
    Name: min_d, dtype: float64
    """

    table: pd.DataFrame
    variance: float
    variance_t: float
    alpha: float
    beta: float
    method: str
    note: str = ""
    design: str = "anova"

    def statements(self, *, decimals: int = 2) -> list[str]:
        """The guarantees in words, one sentence per line, as the papers state them.

        Differences and widths are rounded *up*, so every sentence stays true and never
        promises more than the table: to ``decimals`` places (the papers' two, e.g. "0.14"),
        or to two significant digits where that needs more places (0.031, 0.044), at most
        :data:`TABLE_DECIMALS` (the table's). The confidence level and the power keep the
        digits they need (99.99999%, not 100%). For each n: one sentence per m (ANOVA), then
        the paired t-test, then the CI.

        Examples
        --------
        >>> g = guarantees(100, variance=0.0601, ms=(10,))
        >>> print("\\n".join(g.statements()))
        With 100 topics, m = 10 systems: minimum detectable range 0.14 (one-way ANOVA,
        alpha = 0.05, 80% power).
        With 100 topics, m = 2 systems: minimum detectable difference 0.099 (paired t-test,
        alpha = 0.05, 80% power).
        With 100 topics: expected width of the 95% confidence interval of a difference 0.14.
        """
        decimals = check("decimals", decimals, allow_array=False)
        power, conf = percent_text(self.beta), percent_text(self.alpha)
        test = f"alpha = {self.alpha:g}, {power} power"
        exact_d, exact_dt = self._exact_where_short(decimals)
        lines, anova = [], "two-way ANOVA" if self.design == "anova2" else "one-way ANOVA"
        for n, rows in self.table.groupby("n", sort=False):
            head = f"With {n} topics"
            lines += [f"{head}, m = {r.m} systems: minimum detectable range "
                      f"{_number(r.min_d, decimals)} ({anova}, "
                      f"{_test_text(test, exact_d[r.Index], decimals)})."
                      for r in rows.itertuples()]
            first = rows.iloc[0]
            lines.append(f"{head}, m = 2 systems: minimum detectable difference "
                         f"{_number(first.min_dt, decimals)} (paired t-test, "
                         f"{_test_text(test, exact_dt[rows.index[0]], decimals)}).")
            lines.append(f"{head}: expected width of the {conf} confidence interval of a "
                         f"difference {_number(first.ci_delta, decimals)}.")
        return lines

    def _exact_where_short(self, decimals: int) -> tuple[np.ndarray, np.ndarray]:
        """Per row of the table, the exact minD and minDt where the sentence's legacy value
        (rounded up to ``decimals``) has an exact power below 1 − β, NaN elsewhere (and
        everywhere for the exact method)."""
        rows = len(self.table)
        exact_d, exact_dt = np.full(rows, np.nan), np.full(rows, np.nan)
        if self.method == "exact":
            return exact_d, exact_dt
        first_m = ~self.table.duplicated("n").to_numpy()
        short_d, short_dt = _short_sentences(self.table, first_m, self.variance,
                                             self.variance_t, self.alpha, self.beta, decimals)
        n, m = self.table["n"].to_numpy(), self.table["m"].to_numpy()
        if short_d.any():
            exact_d[short_d] = anova_min_d(n[short_d], m=m[short_d], variance=self.variance,
                                           alpha=self.alpha, beta=self.beta, method="exact")
        t_rows = np.flatnonzero(first_m)[short_dt]
        if t_rows.size:
            exact_dt[t_rows] = ttest_min_dt(n[t_rows], variance_t=self.variance_t,
                                            alpha=self.alpha, beta=self.beta, method="exact")
        return exact_d, exact_dt


def _test_text(test: str, exact: float, decimals: int) -> str:
    """A sentence's test, and where its legacy value falls short under the exact test, what the
    exact test detects (rounded up as the sentence's value): a sentence copied alone stays
    true (a reviewer's find, 2026-12-06: "0.097 ... 80% power" had 79% under the exact F).

    >>> _test_text("alpha = 0.05, 80% power", 0.09771, 2)
    'alpha = 0.05, 80% power by the legacy approximation; 0.098 by the exact test'
    """
    if math.isnan(exact):
        return test
    return f"{test} by the legacy approximation; {_number(exact, decimals)} by the exact test"


def _list(name: str, values) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(check(name, values), float))
    if arr.ndim != 1:
        raise InputError(f"{name} must be a number or a list of numbers, "
                         f"got an array of shape {arr.shape}")
    return arr.astype(np.int64)


def guarantees(n, *, variance, ms=DEFAULT_MS, alpha=0.05, beta=0.20, variance_t=None,
               method=None, design="anova") -> Guarantees:
    """What n topics guarantee for the ANOVA, paired t-test and CI designs.

    For each n and each m: minD = √(2σ̂²λ/n), with λ solving the one-way ANOVA power
    power(λ; φA = m − 1, φE = m(n − 1), α) = 1 − β (Sakai, IRJ 2016, Section 5); for each n,
    minDt = σ̂t·λt/√n with λt solving the paired t-test power at φ = n − 1 (Section 3), and
    the expected CI width 2√2·σ̂t·t(n − 1; α)·Γ(n/2)/(√(n(n − 1))·Γ((n − 1)/2)) (Section 6,
    Eq. 14). α is the test level and the CI's 1 − confidence.

    All (n, m) cells are computed in one vectorised call per design.

    Parameters
    ----------
    n : int or sequence of int
        Numbers of topics (each ≥ 2).
    variance : float
        Within-system variance σ̂² (V_E, > 0; V_E2 with ``design="anova2"``).
    ms : int or sequence of int
        Numbers of systems (each ≥ 2); default 2, 5, 10, 20, 50, 100.
    alpha, beta : float
        Error probabilities in (0, 1); the power is 1 − β.
    variance_t : float, optional
        Variance σ̂t² of the per-topic differences; default 2·variance (Sakai, IRJ 2016).
    method : {"legacy", "exact"}, optional
        As in :func:`topicsetsize.anova_n`; by default the design's own ("legacy" for the
        one-way ANOVA, "exact" for the two-way). The CI width does not depend on it.
    design : {"anova", "anova2"}
        ``min_d`` of the one-way ANOVA, or of the two-way ANOVA with topics as blocks
        (:func:`topicsetsize.anova2_min_d`), the test for runs that share one topic set,
        ``variance`` then V_E2, whose 2·V_E2 is the mean variance of the per-topic
        differences of the past runs' pairs (the default ``variance_t``).

    Returns
    -------
    Guarantees
        ``.table`` (a long DataFrame: n, m, min_d, min_dt, ci_delta) and ``.statements()``.

    Raises
    ------
    ValueError
        One line naming the argument, or where the legacy approximation cannot reach the
        power at this n (the message says from which n it can; or use ``method="exact"``).

    Examples
    --------
    MedNLPDoc raw recall (σ̂² = .0601, AIRS 2016 Table 2 part I): 93 topics are what m = 2,
    minD = .10 needs, so 93 topics detect a range just under .10.

    >>> g = guarantees([93, 100], variance=0.0601, ms=[2, 50])
    >>> g.table.round(4)
         n   m   min_d  min_dt  ci_delta
    0   93   2  0.0997  0.1018    0.1424
    1   93  50  0.1969  0.1018    0.1424
    2  100   2  0.0961  0.0981    0.1372
    3  100  50  0.1898  0.0981    0.1372
    """
    design, method = check_design(design, method)
    variance = check("variance", variance, allow_array=False)
    alpha = check("alpha", alpha, allow_array=False)
    beta = check("beta", beta, allow_array=False)
    variance_t = 2.0 * variance if variance_t is None else check("variance_t", variance_t,
                                                                 allow_array=False)
    if not math.isfinite(variance_t):       # the default 2·σ² of a σ² near the float limit
        raise InputError(f"variance={variance:g}: its default variance_t = 2 x variance is "
                         "beyond the float range; give variance_t")
    n_grid, m_grid = _list("n", n), _list("m", ms)
    min_d = DESIGNS[design].function("min_effect")(
        n_grid[:, None], m=m_grid[None, :], variance=variance, alpha=alpha, beta=beta,
        method=method)
    min_dt = ttest_min_dt(n_grid, variance_t=variance_t, alpha=alpha, beta=beta, method=method)
    width = ci_delta(n_grid, variance_t=variance_t, alpha=alpha)
    k = m_grid.size
    import pandas as pd

    table = pd.DataFrame({
        "n": np.repeat(n_grid, k), "m": np.tile(m_grid, n_grid.size),
        "min_d": np.asarray(min_d, float).ravel(),
        "min_dt": np.repeat(np.asarray(min_dt, float), k),
        "ci_delta": np.repeat(np.asarray(width, float), k)}, columns=list(COLUMNS))
    note = "" if method == "exact" else _legacy_note(table, variance, variance_t, alpha, beta)
    return Guarantees(table, variance, float(variance_t), alpha, beta, method, note, design)


def _legacy_note(table: pd.DataFrame, variance: float, variance_t: float, alpha: float,
                 beta: float) -> str:
    """What the exact noncentral F (ANOVA) and t (paired t-test) say of legacy guarantees: the
    cells whose minD or minDt, as the table shows it (rounded up to :data:`TABLE_DECIMALS`), is
    below the exact one, i.e. has an exact power below 1 − β; the first of them named with
    that power (rounded down) and the exact value. "" where there is none.

    >>> g = guarantees([100], variance=0.0601, ms=[2, 50])
    >>> print(g.note)
    Under the exact tests the legacy guarantees promise more than they give in 2 of the
    table's 3 minimum differences (2 min_d, 1 min_dt): with 100 topics, m = 2 systems, a
    minimum detectable range of 0.0962 has a power of only 0.7885 (one-way ANOVA, below 80%;
    exactly 0.0977); of the sentences, rounded up further, 2 still promise more than the exact
    tests give and say the exact value too; method="exact" (--method exact) gives the exact
    guarantees.
    """
    from ..designs.anova import anova_power
    from ..designs.ttest import ttest_power

    n, m = table["n"].to_numpy(), table["m"].to_numpy()
    first_m = ~table.duplicated("n").to_numpy()          # minDt: one per n
    shown_d = round_up(table["min_d"].to_numpy(), decimals=TABLE_DECIMALS)
    shown_dt = round_up(table["min_dt"].to_numpy()[first_m], decimals=TABLE_DECIMALS)
    # Below the exact minD (minDt) is the power at the shown value below 1 − β: one vectorised
    # power per design, the exact minimum only for the cell named (the power rises with the
    # difference). 0 where 1 − β ≤ α: any difference has the power, in both methods.
    with np.errstate(divide="ignore", invalid="ignore"):
        power_d = np.asarray(anova_power(n, m=m, min_d=np.where(shown_d > 0, shown_d, 1.0),
                                         variance=variance, alpha=alpha, method="exact"), float)
        power_dt = np.asarray(ttest_power(n[first_m],
                                          min_dt=np.where(shown_dt > 0, shown_dt, 1.0),
                                          variance_t=variance_t, alpha=alpha, method="exact"),
                              float)
    short_d = (shown_d > 0) & (power_d < 1.0 - beta)
    short_dt = (shown_dt > 0) & (power_dt < 1.0 - beta)
    cells = int(short_d.sum() + short_dt.sum())
    if not cells:
        return ""
    said = int(sum(x.sum() for x in _short_sentences(table, first_m, variance, variance_t,
                                                     alpha, beta, 2)))
    if short_d.any():
        i = int(np.argmax(short_d))
        power = power_d[i]
        where = (f"with {n[i]} topics, m = {m[i]} systems, a minimum detectable range of "
                 f"{_table_text(shown_d[i])}")
        test = "one-way ANOVA"
        exact = anova_min_d(int(n[i]), m=int(m[i]), variance=variance, alpha=alpha, beta=beta,
                            method="exact")
    else:
        i = int(np.argmax(short_dt))
        k = int(n[first_m][i])
        power = power_dt[i]
        where = (f"with {k} topics, a minimum detectable difference of "
                 f"{_table_text(shown_dt[i])}")
        test = "paired t-test"
        exact = ttest_min_dt(k, variance_t=variance_t, alpha=alpha, beta=beta, method="exact")
    floor = math.floor(float(power) * 1e4) / 1e4
    # which 8 of "6 of 8" (a review, 2026-12-08: 6 rows of min_d, 2 of min_dt, unsaid)
    return (f"Under the exact tests the legacy guarantees promise more than they give in "
            f"{cells} of the table's {short_d.size + short_dt.size} minimum differences "
            f"({short_d.size} min_d, {short_dt.size} min_dt): {where} has a power of only "
            f"{floor:.4f} ({test}, below {percent_text(beta)}; exactly "
            f"{_table_text(round_up(exact, decimals=TABLE_DECIMALS))}); "
            + (f"of the sentences, rounded up further, {said} still "
               f"promise{'s' if said == 1 else ''} more than the exact tests give and say the "
               "exact value too; " if said else
               "the sentences, rounded up further, hold under the exact tests; ")
            + 'method="exact" (--method exact) gives the exact guarantees.')


def _short_sentences(table, first_m, variance, variance_t, alpha, beta,
                     decimals: int) -> tuple[np.ndarray, np.ndarray]:
    """Which sentences (:meth:`Guarantees.statements`: minD and minDt rounded up to ``decimals``
    or two significant digits) state a difference whose exact power is below 1 − β: per row of
    the table (minD) and per n (minDt). The note names a table cell, and a sentence rounds it
    up, often past the exact value (0.0962 is said 0.097, still below the exact 0.0977; 0.1362
    is said 0.14, above 0.1387)."""
    from ..designs.anova import anova_power
    from ..designs.ttest import ttest_power

    said_d = np.array([float(_number(x, decimals)) for x in table["min_d"]])
    said_dt = np.array([float(_number(x, decimals))
                        for x in table["min_dt"].to_numpy()[first_m]])
    n = table["n"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        power_d = anova_power(n, m=table["m"].to_numpy(), min_d=np.where(said_d > 0, said_d, 1.0),
                              variance=variance, alpha=alpha, method="exact")
        power_dt = ttest_power(n[first_m], min_dt=np.where(said_dt > 0, said_dt, 1.0),
                               variance_t=variance_t, alpha=alpha, method="exact")
    return ((said_d > 0) & (np.asarray(power_d) < 1.0 - beta),
            (said_dt > 0) & (np.asarray(power_dt) < 1.0 - beta))
