"""Build the 40-digit references of the F point and of the ANOVA powers at n = 10⁸–10⁹.

Run by hand from the repository root (``python tests/data/make_f_precision_reference.py``;
needs mpmath, a few minutes). The tests never run it: they read the two CSV files it writes.

* ``f_point_reference.csv``: the upper α point F(φA, φE; α) on a grid (φE from 10⁵ to 10¹²,
  φA from 1 to 999, α from 1e-7 to .5) and at 60 seeded random points like those of the audit of
  issue 29 (φE = m(n − 1) with n from 10⁸ to 10⁹, φA = 4 and others, α from 1e-7 to .5).
* ``anova_large_n_reference.csv``: cells (design, method, α, β, minD, σ², m) whose required n lies
  between 10⁸ and 10⁹, with the smallest n certified by these 40-digit powers,
  power(n − 1) < 1 − β ≤ power(n), and those two powers.

How (mpmath at 50 digits, 40 kept):

* the F point: Newton's iteration on the upper tail 1 − I_y(φA/2, φE/2), y = φA·x/(φA·x + φE)
  (``mpmath.betainc``, regularised), with the F density, from scipy's double value, until the
  step is below 1e-45 relative;
* the exact power: Pr{F'(φA, φE, λ) ≥ w} as its Poisson mixture of central beta tails,
  Σ_k e^(−λ/2) (λ/2)^k / k! · (1 − I_y(φA/2 + k, φE/2)), summed until a Poisson weight past the
  mode is below 1e-55, each term by ``mpmath.betainc``;
* the legacy power: Nagata's approximation as the samplesizeANOVA sheet computes it (with its
  √(cA − a)), ``docs/formulas.md`` §4, each operation in mpmath with the 40-digit F point;
* the smallest n: from a start near the answer, n is moved down while power(n − 1) ≥ 1 − β and up
  while power(n) < 1 − β (the powers rise with n at these sizes).
"""

from __future__ import annotations

import csv
from pathlib import Path

import mpmath
import numpy as np
from scipy import special

HERE = Path(__file__).parent
mpmath.mp.dps = 50
DIGITS = 40


def f_tail(x, d1, d2):
    """Pr{F(d1, d2) ≥ x} = 1 − I_y(d1/2, d2/2), y = d1·x/(d1·x + d2)."""
    y = d1 * x / (d1 * x + d2)
    return 1 - mpmath.betainc(d1 / 2, d2 / 2, 0, y, regularized=True)


def f_density(x, d1, d2):
    """The F(d1, d2) density at x, y^(d1/2) (1 − y)^(d2/2) / (x B(d1/2, d2/2))."""
    y = d1 * x / (d1 * x + d2)
    return mpmath.exp(d1 / 2 * mpmath.log(y) + d2 / 2 * mpmath.log1p(-y) - mpmath.log(x)
                      - mpmath.log(mpmath.beta(d1 / 2, d2 / 2)))


def f_point(alpha, d1, d2):
    """The upper alpha point of F(d1, d2) by Newton's iteration at 50 digits."""
    alpha, d1, d2 = mpmath.mpf(alpha), mpmath.mpf(d1), mpmath.mpf(d2)
    x = mpmath.mpf(float(special.fdtri(float(d1), float(d2), 1.0 - float(alpha))))
    for _ in range(50):
        step = (f_tail(x, d1, d2) - alpha) / f_density(x, d1, d2)
        x += step
        if abs(step) < mpmath.mpf(10) ** -45 * x:
            return x
    raise RuntimeError(f"no convergence at alpha={alpha}, d1={d1}, d2={d2}")


def ncf_tail(x, d1, d2, lam):
    """Pr{F'(d1, d2, lam) ≥ x}: the Poisson mixture of central beta tails, to convergence."""
    y = d1 * x / (d1 * x + d2)
    h = lam / 2
    total, k = mpmath.mpf(0), 0
    while True:
        weight = mpmath.exp(-h + k * mpmath.log(h) - mpmath.loggamma(k + 1))
        total += weight * (1 - mpmath.betainc(d1 / 2 + k, d2 / 2, 0, y, regularized=True))
        if k > h and weight < mpmath.mpf(10) ** -55:
            return total
        k += 1


def dfs(design, m, n):
    d1 = mpmath.mpf(m) - 1
    return d1, (mpmath.mpf(m) * (n - 1) if design == "anova" else d1 * (n - 1))


def power(design, method, alpha, m, n, effect):
    """The 50-digit power of a cell at n (effect = minD²/(2σ²), λ = n·effect)."""
    d1, d2 = dfs(design, m, mpmath.mpf(n))
    lam = mpmath.mpf(n) * effect
    w = f_point(alpha, d1, d2)
    if method == "exact":
        return ncf_tail(w, d1, d2, lam)
    c_a = (d1 + 2 * lam) / (d1 + lam)
    phi_a_star = (d1 + lam) ** 2 / (d1 + 2 * lam)
    a = w * d1 / d2
    u = (mpmath.sqrt(a * (2 * d2 - 1)) - mpmath.sqrt(c_a * (2 * phi_a_star - 1))) \
        / mpmath.sqrt(c_a - a)
    return mpmath.ncdf(-u)


def smallest_n(design, method, alpha, beta, m, effect, start):
    """The smallest n with power(n − 1) < 1 − β ≤ power(n), by walking from ``start``."""
    target = 1 - mpmath.mpf(beta)
    n = int(start)
    at = {}

    def p(k):
        if k not in at:
            at[k] = power(design, method, alpha, m, k, effect)
        return at[k]

    while p(n) < target:
        n += 1
    while p(n - 1) >= target:
        n -= 1
    return n, p(n - 1), p(n)


def fmt(x):
    return mpmath.nstr(x, DIGITS, min_fixed=-5, max_fixed=5)


def f_points():
    rows = []
    for d2 in (1e5, 1e6, 1e7, 1e8, 4e8, 1e9, 4e9, 1e10, 1e11, 1e12):
        for d1 in (1, 2, 3, 4, 6, 9, 20, 99, 999):
            for alpha in (1e-7, 1e-4, 0.01, 0.05, 0.5):
                rows.append((alpha, d1, d2))
    rng = np.random.default_rng(29)
    for _ in range(60):
        m = int(rng.choice([2, 3, 5, 7, 11, 21]))
        n = int(10 ** rng.uniform(8, 9))
        rows.append((float(f"{10 ** rng.uniform(-7, np.log10(0.5)):.3g}"), m - 1, m * (n - 1)))
    with open(HERE / "f_point_reference.csv", "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["alpha", "dfn", "dfd", "f_point"])
        for alpha, d1, d2 in rows:
            out.writerow([repr(alpha), int(d1), int(d2), fmt(f_point(alpha, d1, d2))])


def cells():
    """Cells whose n lands between 1.2e8 and 9.9e8: σ² = .05, minD from λ∞/n at a drawn n."""
    rng = np.random.default_rng(2029)
    rows = []
    for design, method in (("anova", "exact"), ("anova", "legacy"), ("anova2", "exact")):
        for _ in range(12):
            alpha, beta = 0.5, 0.5
            while alpha + beta >= 0.9:      # a power well above the level
                alpha = float(rng.choice([1e-7, 1e-4, 0.01, 0.05, 0.2, 0.5]))
                beta = float(rng.choice([0.01, 0.1, 0.2, 0.5]))
            m = int(rng.choice([2, 3, 5, 6, 11, 31]))
            n_goal = 10 ** rng.uniform(np.log10(1.2e8), np.log10(9.9e8))
            d1 = m - 1.0
            lam = float(special.chndtrinc(special.chdtri(d1, alpha), d1, beta))
            variance = 0.05
            min_d = float(f"{np.sqrt(2 * variance * lam / n_goal):.6g}")
            effect = mpmath.mpf(min_d) ** 2 / (2 * mpmath.mpf(variance))
            n, p0, p1 = smallest_n(design, method, alpha, beta, m, effect,
                                   _start(design, method, alpha, beta, m, min_d, variance))
            rows.append([design, method, repr(alpha), repr(beta), repr(min_d), repr(variance), m,
                         n, fmt(p0), fmt(p1)])
            print(rows[-1], flush=True)
    with open(HERE / "anova_large_n_reference.csv", "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["design", "method", "alpha", "beta", "min_d", "variance", "m", "n",
                      "power_n_minus_1", "power_n"])
        out.writerows(rows)


def _start(design, method, alpha, beta, m, min_d, variance):
    """A start for the walk: the package's answer (only a start; mpmath decides)."""
    import warnings

    import topicsetsize as tss

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if design == "anova":
            return tss.anova_n(alpha, beta, min_d, variance, m, method=method)
        return tss.anova2_n(alpha, beta, min_d, variance, m)


if __name__ == "__main__":
    f_points()
    cells()
