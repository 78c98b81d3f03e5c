r"""Generalizability theory of a topics × runs matrix: G-study, D-study and their intervals.

The crossed design systems × topics with one observation per cell (Brennan, *Generalizability
Theory*, Springer 2001, ch. 3 and 6; Urbano, Marrero and Martín, "On the measurement of test
collection reliability", SIGIR 2013). The G-study splits the score variance into a system
component σ²_s, a topic component σ²_t and a residual (system-topic interaction and error)
σ²_e from the two-way mean squares; the D-study gives, for a topic set of n′ topics, the
generalizability coefficient Eρ² (stability of the *relative* order of the systems) and the
index of dependability Φ (stability of their *absolute* scores), and the smallest n′ that
reaches a target. Sakai (CIKM 2014, §2) names GT as the framework to set beside topic set size
design; :func:`topicsetsize.collection_report` puts both side by side.

Intervals (``level`` is two-sided, each tail (1 − level)/2):

* Eρ²: Feldt's (1965) exact F interval. Under the normal random-effects model
  (MS_s/MS_e)/(1 + n σ²_s/σ²_e) ~ F(m−1, (m−1)(n−1)), so the bounds of σ²_s/σ²_e are
  (MS_s/(MS_e F_{1−a}) − 1)/n and (MS_s/(MS_e F_a) − 1)/n, carried to n′ topics by
  Eρ²(n′) = n′r/(1 + n′r) (Brennan 2001, ch. 6).
* Φ: the approximate interval of Arteaga, Jeyaratnam and Graybill (1982) for the
  one-topic Φ, as given by Brennan (2001, ch. 6) and used by Urbano et al. (SIGIR 2013) in
  their R package gt4ireval (``dstudy``); carried to n′ topics by the Spearman–Brown form
  Φ(n′) = n′Φ₁/(1 + (n′−1)Φ₁).

A bound of σ²_s below zero is set to 0 (the coefficient bound is then 0), as are negative
variance components; :class:`GStudy` lists the components that were set to 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..matrices.matrix import check_matrix
from ..params import check, check_choice
from .variance import ROUNDING, check_varies

__all__ = ["GStudy", "DStudy", "GTNInterval", "COEFFICIENTS", "g_study", "d_study", "gt_n",
           "gt_n_interval"]

#: The D-study coefficients, by the name :func:`gt_n` takes.
COEFFICIENTS = ("erho2", "phi")

# Doctest matrix: Table 5.1 of Sakai's book (20 topics × 3 runs), see docs/formulas.md §9.
_BOOK = [[.7, .5, 0], [.3, .1, 0], [.2, 0, .2], [.6, .2, .1], [.4, .4, .3], [.4, .3, .3],
         [0, 0, .1], [.7, .5, .2], [.1, .3, .4], [.3, .3, .4], [.5, .4, .4], [.4, .4, .3],
         [0, .1, .3], [.6, .4, .2], [.5, .2, .2], [.3, .1, .2], [.1, .1, .1], [.5, .6, .5],
         [.2, .3, .4], [.1, .2, .3]]


@dataclass(frozen=True)
class GStudy:
    """Variance components and mean squares of a systems × topics matrix (one obs. per cell).

    Attributes
    ----------
    systems, topics : int
        The matrix's runs and topics.
    var_s, var_t, var_e : float
        The variance components σ²_s (systems), σ²_t (topics) and σ²_e (residual), from the
        two-way mean squares; a negative estimate is set to 0.
    ms_s, ms_t, ms_e : float
        The mean squares of systems, topics and the residual.
    negative : tuple of str
        The components whose estimate was below zero and was set to 0 (``"systems"``,
        ``"topics"``, ``"residual"``); empty when none was.
    """

    systems: int
    topics: int
    var_s: float
    var_t: float
    var_e: float
    ms_s: float
    ms_t: float
    ms_e: float
    negative: tuple = ()

    def shares(self) -> dict:
        """Each component's share of σ²_s + σ²_t + σ²_e."""
        total = self.var_s + self.var_t + self.var_e
        return {k: v / total for k, v in
                (("systems", self.var_s), ("topics", self.var_t), ("residual", self.var_e))}


@dataclass(frozen=True)
class DStudy:
    """Eρ² and Φ for n′ topics with their confidence intervals (floats, or arrays over n′).

    Attributes
    ----------
    n : int or ndarray
        The numbers of topics n′ of the D-study.
    erho2, erho2_low, erho2_high : float or ndarray
        Eρ² = σ²_s/(σ²_s + σ²_e/n′) and its confidence interval (Feldt).
    phi, phi_low, phi_high : float or ndarray
        Φ = σ²_s/(σ²_s + (σ²_t + σ²_e)/n′) and its confidence interval
        (Arteaga, Jeyaratnam and Graybill).
    level : float
        The confidence level of the intervals.
    """

    n: object
    erho2: object
    erho2_low: object
    erho2_high: object
    phi: object
    phi_low: object
    phi_high: object
    level: float


def g_study(scores, *, name: str = "scores") -> GStudy:
    r"""G-study of the crossed systems × topics design, one score per cell.

    With m systems (columns), n topics (rows) and x̄_s, x̄_t, x̄ the system, topic and grand
    means, the mean squares are MS_s = n Σ(x̄_s − x̄)²/(m−1), MS_t = m Σ(x̄_t − x̄)²/(n−1)
    and MS_e the two-way residual mean square (:func:`~topicsetsize.two_way_residual_variance`),
    and the ANOVA estimates of the components (Brennan 2001, ch. 3)

    .. math:: \hat\sigma^2_s = \frac{MS_s - MS_e}{n},\quad
              \hat\sigma^2_t = \frac{MS_t - MS_e}{m},\quad \hat\sigma^2_e = MS_e

    a negative estimate being set to 0 (and named in ``negative``). A mean square below
    (10⁻¹² max|x|)², rounding error only (an exactly additive matrix has MS_e ≈ 1e-33), is 0.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (at least 2 of each), not all equal.
    name : str
        How an error names ``scores`` (the Excel function's ``range``).

    Returns
    -------
    GStudy

    Examples
    --------
    Table 5.1 of Sakai's book (20 topics × 3 runs); σ²_e is its V_E2 = .0218859649:

    >>> g = g_study(_BOOK)
    >>> g.systems, g.topics, round(g.var_s, 6), round(g.var_t, 6), round(g.var_e, 10)
    (3, 20, 0.001614, 0.010763, 0.0218859649)
    """
    x = check_matrix(scores, name=name).values
    n, m = x.shape
    check_varies(x, name=name, what="the G-study needs scores that vary")
    grand = x.mean()
    ms_s = n * ((x.mean(axis=0) - grand) ** 2).sum() / (m - 1)
    ms_t = m * ((x.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + grand
    ms_e = (resid ** 2).sum() / ((m - 1) * (n - 1))
    # A mean square that is only rounding error (e.g. the residual of an exactly additive
    # matrix, ~1e-33) is 0: left in, it would turn 0/0 into an arbitrary coefficient.
    tiny = (ROUNDING * np.abs(x).max()) ** 2
    ms_s, ms_t, ms_e = (v if v > tiny else 0.0 for v in (ms_s, ms_t, ms_e))
    raw = {"systems": (ms_s - ms_e) / n, "topics": (ms_t - ms_e) / m, "residual": ms_e}
    negative = tuple(k for k, v in raw.items() if v < 0)
    var_s, var_t, var_e = (max(float(v), 0.0) for v in raw.values())
    return GStudy(m, n, var_s, var_t, var_e, float(ms_s), float(ms_t), float(ms_e), negative)


def _spearman_brown(one, n):
    """A one-topic coefficient carried to n topics: nρ₁/(1 + (n−1)ρ₁)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(one > 0, n * one / (1 + (n - 1) * one), 0.0)


def _erho2_one(g: GStudy, f):
    """One-topic Eρ² from Feldt's bound of σ²_s/σ²_e at the F quantile f."""
    ratio = np.maximum((g.ms_s / (g.ms_e * f) - 1) / g.topics, 0.0)
    return np.where(np.isinf(ratio), 1.0, ratio / (1 + ratio))     # MS_e = 0: Eρ² = 1


def _phi_one(g: GStudy, q):
    """One-topic Φ bound of Arteaga, Jeyaratnam and Graybill (1982) at the probability q."""
    df_s, df_t = g.systems - 1, g.topics - 1
    f_inf = stats.chi2.ppf(q, df_s) / df_s               # F(df_s, ∞) quantile
    f_e = stats.f.ppf(q, df_s, df_s * df_t)
    f_t = stats.f.ppf(q, df_s, df_t)
    top = g.ms_s ** 2 - f_inf * g.ms_s * g.ms_e + (f_inf - f_e) * f_e * g.ms_e ** 2
    bottom = (g.systems - 1) * f_inf * g.ms_s * g.ms_e + f_t * g.ms_s * g.ms_t
    ratio = np.maximum(g.systems * top / bottom, 0.0)
    return np.where(np.isinf(ratio), 1.0, ratio / (ratio + g.topics))  # MS_t = MS_e = 0


def d_study(g: GStudy, n=None, *, level: float = 0.95) -> DStudy:
    r"""D-study: Eρ² and Φ for n′ topics, with ``level`` confidence intervals.

    .. math:: E\rho^2 = \frac{\sigma^2_s}{\sigma^2_s + \sigma^2_e/n'},\qquad
              \Phi = \frac{\sigma^2_s}{\sigma^2_s + (\sigma^2_t + \sigma^2_e)/n'}

    (Brennan 2001, ch. 4, the p × I design; Urbano et al., SIGIR 2013). The interval of Eρ²
    is Feldt's, that of Φ Arteaga, Jeyaratnam and Graybill's
    (see the module docstring).

    Parameters
    ----------
    g : GStudy
        From :func:`g_study`.
    n : int or array_like, optional
        Topic set sizes n′ (whole numbers ≥ 1, as :func:`gt_n` may answer 1); default the
        matrix's own number of topics.
    level : float
        Two-sided confidence level, in (0, 1).

    Returns
    -------
    DStudy
        Floats for a scalar ``n``, arrays for an array.

    Examples
    --------
    The bundled TREC 2010 Web AP matrix (48 topics × 88 runs):

    >>> from topicsetsize.examples import example_matrix
    >>> d = d_study(g_study(example_matrix()))
    >>> round(d.erho2, 4), round(d.erho2_low, 4), round(d.erho2_high, 4)
    (0.9299, 0.9073, 0.9493)
    >>> round(d.phi, 4), round(d.phi_low, 4), round(d.phi_high, 4)
    (0.8759, 0.8216, 0.9146)
    >>> d_study(g_study(example_matrix()), [25, 100]).erho2.round(4).tolist()
    [0.8736, 0.9651]
    """
    level = check("level", level, allow_array=False)
    n = g.topics if n is None else check("n", n, key="n_dstudy")
    n_ = np.asarray(n, float)
    tail = (1 - level) / 2
    f_e = stats.f.ppf([1 - tail, tail], g.systems - 1, (g.systems - 1) * (g.topics - 1))
    # σ²_s = 0 (or MS_e = 0) makes 0/0 and x/0 below: the np.where's pick the limits
    with np.errstate(invalid="ignore", divide="ignore"):
        erho2 = np.where(g.var_s > 0, g.var_s / (g.var_s + g.var_e / n_), 0.0)
        phi = np.where(g.var_s > 0, g.var_s / (g.var_s + (g.var_t + g.var_e) / n_), 0.0)
        values = (erho2, _spearman_brown(_erho2_one(g, f_e[0]), n_),
                  _spearman_brown(_erho2_one(g, f_e[1]), n_), phi,
                  _spearman_brown(_phi_one(g, 1 - tail), n_),
                  _spearman_brown(_phi_one(g, tail), n_))
    if n_.ndim == 0:
        values = tuple(float(v) for v in values)
    return DStudy(n, *values, level)


def gt_n(g: GStudy, target=0.95, *, coefficient: str = "erho2"):
    r"""The smallest number of topics n′ with Eρ² (or Φ) at least ``target``: closed form.

    Solving the D-study formulas for n′ (Brennan 2001, ch. 4; gt4ireval's ``dstudy``):

    .. math:: n'_{E\rho^2} = \left\lceil \frac{t\,\sigma^2_e}{(1-t)\,\sigma^2_s}\right\rceil,
              \qquad
              n'_{\Phi} = \left\lceil \frac{t\,(\sigma^2_t+\sigma^2_e)}{(1-t)\,\sigma^2_s}
              \right\rceil

    at least 1; infinite (``inf``) when σ²_s = 0.

    Parameters
    ----------
    g : GStudy
    target : float or array_like
        The coefficient to reach, in (0, 1).
    coefficient : {"erho2", "phi"}

    Returns
    -------
    int (or ``inf``) for a scalar target; a float ndarray for an array.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> g = g_study(example_matrix())
    >>> gt_n(g, 0.95), gt_n(g, 0.95, coefficient="phi"), gt_n(g, [0.8, 0.9]).tolist()
    (69, 130, [15.0, 33.0])
    """
    coefficient = check_choice("coefficient", coefficient, COEFFICIENTS)
    t = np.asarray(check("target", target), float)
    noise = g.var_e if coefficient == "erho2" else g.var_t + g.var_e
    with np.errstate(divide="ignore", invalid="ignore"):
        exact = t * noise / ((1 - t) * g.var_s)
    # a relative 1e-12 guards ceil against rounding just above a whole number
    n = np.where(g.var_s > 0, np.maximum(np.ceil(exact * (1 - 1e-12)), 1.0), np.inf)
    if n.ndim == 0:
        return int(n) if np.isfinite(n) else float(n)
    return n


@dataclass(frozen=True)
class GTNInterval:
    """The ``level`` interval of :func:`gt_n`'s n′: ``low`` and ``high`` (int, or ``inf``)."""

    low: object
    high: object
    level: float


def _ceil_n(exact):
    """⌈exact⌉ at least 1, with :func:`gt_n`'s guard; ``inf`` stays ``inf``."""
    if not np.isfinite(exact):
        return float("inf")
    return int(max(np.ceil(exact * (1 - 1e-12)), 1.0))


def gt_n_interval(g: GStudy, target: float = 0.95, *, coefficient: str = "erho2",
                  level: float = 0.95) -> GTNInterval:
    r"""The ``level`` interval of the n′ of :func:`gt_n`, from the interval of the coefficient.

    The coefficient ρ at the matrix's own n topics (Eρ²: Feldt; Φ: Arteaga, Jeyaratnam and
    Graybill; :func:`d_study`) carried to the n′ where it reaches the target t by the
    Spearman–Brown form that both intervals use:

    .. math:: n' = n \left(\frac{1}{\rho} - 1\right)\frac{t}{1-t}

    n′ falls as ρ rises, so the upper end of n′ comes from the lower end of ρ and the lower end
    from the upper; each end is rounded up as :func:`gt_n` rounds (at least 1). A lower end of
    ρ at 0 gives ``inf``. The point n′ of :func:`gt_n` is this map at the point ρ.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> ci = gt_n_interval(g_study(example_matrix()))
    >>> ci.low, ci.high, gt_n_interval(g_study(example_matrix()), coefficient="phi").high
    (49, 94, 199)
    """
    coefficient = check_choice("coefficient", coefficient, COEFFICIENTS)
    t = check("target", target, allow_array=False)
    d = d_study(g, level=level)
    low, high = ((d.erho2_low, d.erho2_high) if coefficient == "erho2"
                 else (d.phi_low, d.phi_high))

    def n_at(rho):
        if rho <= 0:
            return float("inf")
        return _ceil_n(g.topics * (1 / rho - 1) * t / (1 - t))

    return GTNInterval(n_at(high), n_at(low), d.level)
