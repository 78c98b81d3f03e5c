"""The noncentral tails summed or integrated where Boost's drift (issue 29; ``docs/formulas.md``
§4 and §5, numerical precision): the noncentral F from φ2 = 10⁶ on, as its Poisson mixture of
beta tails, and the upper noncentral t tail from λ = 1000 on, by Gauss–Hermite quadrature.
Used by :mod:`topicsetsize.numerics.distributions`.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import special

__all__ = ["SERIES_FROM", "SERIES_NC_MAX", "SERIES_DFN_MAX", "ncf_sf_series",
           "ncf_sf_series_points", "series_terms", "terms_for", "t_upper_quadrature"]


#: Denominator degrees of freedom from which ``f_power`` sums the noncentral F tail itself
#: (Boost's is off by up to ~1e-9 there, e.g. 1.1e-9 at φ1 = 2, φ2 = 8.7e8, λ = 17.4; 3e-11 at
#: 4e6, 9e-12 at 1e6, 7e-13 at 1e5), and the largest λ it sums (Poisson terms up to
#: λ/2 + 8·√(λ/2) + 24, beyond which they add < 1e-16; Boost's beyond).
SERIES_FROM = 1e6
SERIES_NC_MAX = 4000.0
#: ... and the largest φ1 (so that t_0, of the order of a Poisson probability at φ1/2, stays far
#: from underflow in the products of the series).
SERIES_DFN_MAX = 10_000.0


def ncf_sf_series(w, dfn, dfd, nc):
    """Pr{F'(φ1, φ2, λ) ≥ w} = Σ_k P_k S_k for arrays, with φ2 large (≥ ``SERIES_FROM``).

    P_k = e^(−λ/2) (λ/2)^k / k! (Poisson) and S_k = 1 − I_y(φ1/2 + k, φ2/2), y = φ1w/(φ1w + φ2):
    S_0 from ``betaincc``, then S_(k+1) = S_k + t_k with the positive beta terms
    t_k = y^(a+k) (1 − y)^b / ((a + k) B(a + k, b)), a = φ1/2, b = φ2/2, by the products
    t_(k+1) = t_k·y(a + b + k)/(a + k + 1). log t_0 takes log Γ(a + b) − log Γ(b) from
    Stirling's series, (a + b − ½)·log1p(a/b) + a·log b − a + δ(a + b) − δ(b) with
    δ(x) = 1/(12x) − 1/(360x³), because ``scipy.special.betaln`` is off by up to 2e-7 at such b.
    Every term is positive: nothing cancels. NaN where t_0 would underflow (log t_0 < −700,
    far outside the designs' range): the caller keeps Boost's value there.
    """
    a, b, h = dfn / 2.0, dfd / 2.0, nc / 2.0
    t = dfn * w
    y = t / (t + dfd)
    log_poch = ((a + b - 0.5) * special.log1p(a / b) - a + special.xlogy(a, b)
                + (_stirling(a + b) - _stirling(b)))
    log_t0 = (special.xlogy(a, y) + special.xlog1py(b, -y) + log_poch
              - special.gammaln(a + 1.0))
    return _series_sum(y[:, None], (a + b)[:, None], a[:, None], log_t0[:, None],
                       special.betaincc(a, b, y)[:, None], h[:, None], series_terms(nc))


def ncf_sf_series_points(w: list, dfn: float, dfd: list, nc: list, terms: int) -> np.ndarray:
    """:func:`ncf_sf_series` at a few points of one cell (φ1 the same), summing ``terms`` terms
    (those of the call the points belong to, :func:`series_terms`).

    What depends on one point only (y, log t_0, S_0, log(λ/2)) is computed on floats, the
    same operations in the same order, the transcendental ones by the same ufuncs (scipy's, and
    numpy's ``exp``, ``log`` and ``power``, which give the same bits on a float as in an array);
    the terms are the same array operations. So each point has the bits of its row of
    :func:`ncf_sf_series`, at a third of its numpy calls. NaN where t_0 would underflow.

    >>> dfd, nc = np.array([5e7, 5e7 + 4]), np.array([30.0, 30.0000024])
    >>> rows = ncf_sf_series(np.full(2, 1.2), np.full(2, 4.0), dfd, nc)
    >>> bool((ncf_sf_series_points([1.2, 1.2], 4.0, dfd.tolist(), nc.tolist(),
    ...                            series_terms(nc)) == rows).all())
    True
    """
    a = dfn / 2.0
    gamma_a = float(special.gammaln(a + 1.0))
    columns = []
    for w_, dfd_, nc_ in zip(w, dfd, nc):
        b, h = dfd_ / 2.0, nc_ / 2.0
        t = dfn * w_
        y = t / (t + dfd_)
        log_poch = ((a + b - 0.5) * float(special.log1p(a / b)) - a + float(special.xlogy(a, b))
                    + float(_stirling(a + b) - _stirling(b)))
        log_t0 = (float(special.xlogy(a, y)) + float(special.xlog1py(b, -y)) + log_poch
                  - gamma_a)
        columns.append((y, a + b, log_t0, float(special.betaincc(a, b, y)), h))
    y, a_b, log_t0, start, h = (np.array(c)[:, None] for c in zip(*columns))
    return _series_sum(y, a_b, a, log_t0, start, h, terms)


def _stirling(x):
    """δ(x) = 1/(12x) − 1/(360x³), the first terms of Stirling's series for log Γ (an array or
    a float: ``np.power`` gives the same bits on either)."""
    return 1.0 / (12.0 * x) - 1.0 / (360.0 * np.power(x, 3))


def _series_sum(y, a_b, a, log_t0, start, h, terms: int) -> np.ndarray:
    """Σ_k P_k S_k of :func:`ncf_sf_series` for rows given as columns (shape (rows, 1)): y,
    a + b, a, log t_0, S_0 and λ/2, summing ``terms`` terms; NaN where t_0 would underflow.
    The ratios r_k = y(a + b + k)/(a + k + 1) are multiplied up in place, then summed."""
    k, log_factorial = _poisson_table(terms)
    products = np.empty((y.shape[0], terms - 1))
    products[:, 0] = 1.0
    products[:, 1:] = y * (a_b + k[:terms - 2]) / (a + k[:terms - 2] + 1.0)
    tail = np.empty((y.shape[0], terms))
    tail[:, 0] = 0.0
    np.cumsum(np.exp(log_t0) * np.cumprod(products, axis=1, out=products), axis=1,
              out=tail[:, 1:])
    tail += start
    weights = np.exp(np.log(h) * k - h - log_factorial)
    power = np.minimum(np.sum(weights * tail, axis=1), 1.0)
    return np.where(log_t0[:, 0] > -700.0, power, np.nan)


def series_terms(nc) -> int:
    """The number of Poisson terms that :func:`ncf_sf_series` sums for the noncentralities
    ``nc`` (an array; the most that any of them needs, λ/2 + 8·√(λ/2) + 24, rounded up).

    >>> series_terms(np.array([10.0, 40.0]))
    80
    """
    if nc.size <= 8:    # a few points of one cell: the same operations on floats, same bits
        return max(terms_for(x) for x in nc.tolist())
    h = nc / 2.0
    return int(np.ceil(np.max(h + 8.0 * np.sqrt(h) + 24.0)))


def terms_for(nc: float) -> int:
    """:func:`series_terms` of one noncentrality, on floats (the same operations).

    >>> terms_for(40.0)
    80
    """
    h = nc / 2.0
    return math.ceil(h + 8.0 * math.sqrt(h) + 24.0)


#: Poisson terms tabulated once (the most that :func:`ncf_sf_series` sums below SERIES_NC_MAX).
_TABLE_SIZE = 2400


def _poisson_table(size: int) -> tuple[np.ndarray, np.ndarray]:
    """k = 0, …, size − 1 and log k! (``gammaln(k + 1)``), the same values for every call: a
    slice of a table computed on first use (up to :data:`_TABLE_SIZE` terms)."""
    if size > _TABLE_SIZE:
        k = np.arange(size, dtype=float)
        return k, special.gammaln(k + 1.0)
    k, log_factorial = _full_poisson_table()
    return k[:size], log_factorial[:size]


@functools.cache
def _full_poisson_table() -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(_TABLE_SIZE, dtype=float)
    log_factorial = special.gammaln(k + 1.0)
    k.flags.writeable = log_factorial.flags.writeable = False
    return k, log_factorial


@functools.cache
def _gauss_hermite() -> tuple[np.ndarray, np.ndarray]:
    """The 200 nodes and weights (for the standard normal) of :func:`t_upper_quadrature`,
    computed on first use: an eigenvalue problem of 45 ms that no other answer needs."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(200)
    return nodes, weights / np.sqrt(2.0 * np.pi)


def t_upper_quadrature(w, df, nc):
    """Pr{t'(φ, λ) ≥ w} = E_Z[Pr{χ²_φ ≤ φ(Z + λ)²/w²}] by 200-point Gauss–Hermite quadrature.

    Valid for λ ≥ 1000: Z + λ > 0 at every node, and the lower tail, at most Φ(−λ), is 0.
    Agrees with a 30-digit mpmath integral (e.g. 0.6540519261843567 at φ = 1, λ = 6e5,
    α = 1e-6, where Boost gives 0.48).
    """
    nodes, weights = _gauss_hermite()
    shifted = nc[:, None] + nodes[None, :]
    with np.errstate(over="ignore"):    # (Z + λ)² beyond the float range: inf, and the cdf is 1
        cdf = special.chdtr(df[:, None], df[:, None] * shifted * shifted / (w[:, None] ** 2))
    return cdf @ weights
