"""Critical values and exact power against independent references (mpmath, scipy.stats)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.numerics.distributions import f_crit, f_power, t_crit, t_power, t_power_one
from topicsetsize.numerics.search_one import Uncertain


def _mp_f_root(alpha, d1, d2, start):
    """Independent upper-alpha point of F(d1, d2): mpmath root of the beta tail at 40 digits."""
    mpmath.mp.dps = 40
    return mpmath.findroot(lambda x: mpmath.betainc(d1 / 2, d2 / 2, d1 * x / (d1 * x + d2), 1,
                                                    regularized=True) - alpha, mpmath.mpf(start))


@pytest.mark.parametrize("alpha,d1,d2", [(0.05, 2, 57), (1e-6, 3, 40), (1e-12, 9, 500),
                                         (0.01, 99, 1e11), (0.5, 1, 1)])
def test_f_crit_against_mpmath(alpha, d1, d2):
    # independent reference: solve I_x(d1/2, d2/2) upper tail = alpha at 40 digits
    mpmath.mp.dps = 40
    w = f_crit(alpha, d1, d2)
    # Pr{F >= w} computed by mpmath must be alpha ...
    y = d1 * w / (d1 * w + d2)
    upper = mpmath.betainc(d1 / 2, d2 / 2, mpmath.mpf(y), 1, regularized=True)
    assert float(upper) == pytest.approx(alpha, rel=1e-9)
    # ... and w itself must be the 40-digit root (the docstring claims ~1e-13 relative)
    assert w == pytest.approx(float(_mp_f_root(alpha, d1, d2, w)), rel=1e-12)


def test_f_crit_agrees_with_scipy_where_scipy_is_accurate():
    assert f_crit(0.05, 2, 57) == pytest.approx(stats.f.isf(0.05, 2, 57), rel=1e-13)


def test_t_crit_two_sided():
    assert t_crit(0.05, 10) == pytest.approx(stats.t.isf(0.025, 10), rel=1e-13)


@pytest.mark.parametrize("alpha,df", [(1e-10, 1), (1e-10, 100), (1e-6, 5), (0.05, 1e6), (0.99, 3)])
def test_t_crit_against_mpmath(alpha, df):
    # independent: Pr{|t| >= w} = I_{df/(df+w^2)}(df/2, 1/2) = alpha, at 40 digits
    mpmath.mp.dps = 40
    w = t_crit(alpha, df)
    tail = mpmath.betainc(df / 2, 0.5, 0, df / (df + mpmath.mpf(w) ** 2), regularized=True)
    assert float(tail) == pytest.approx(alpha, rel=1e-12)


def test_nct_lower_tail_nan_regression():
    # docs/formulas.md §5: scipy 1.17's nct.cdf(-3.30, 1199, 5.58) is NaN (true value ~1e-17).
    with np.errstate(invalid="ignore"):
        raw = stats.nct.cdf(-3.30, 1199, 5.58)
    p = t_power(0.001, 1199, 5.58)          # t(1199; .001) = 3.30
    assert np.isfinite(p)
    assert p == pytest.approx(stats.nct.sf(t_crit(0.001, 1199), 1199, 5.58), abs=1e-15)
    assert np.isnan(raw) or raw < 1e-15      # documents why the guard exists


def test_t_power_finite_over_a_wide_grid():
    df = np.unique(np.geomspace(1, 1e9, 120).astype(int)).astype(float)
    for nc in (0.0, 0.5, 5.58, 40.0, 200.0):
        for alpha in (0.05, 1e-3, 1e-6):
            p = t_power(alpha, df, nc)
            assert np.isfinite(p).all() and ((p >= alpha * (1 - 1e-6)) & (p <= 1 + 1e-12)).all()


def test_t_power_against_mpmath_integral():
    # Independent reference: Pr{|t'| >= w} by numerical integration over the chi distribution.
    mpmath.mp.dps = 30
    df, nc, alpha = 9, 1.7, 0.05
    w = float(t_crit(alpha, df))

    def integrand(v):  # density of V ~ chi2(df) times Pr{|Z + nc| >= w * sqrt(V/df)}
        c = w * mpmath.sqrt(v / df)
        tail = mpmath.ncdf(-c - nc) + 1 - mpmath.ncdf(c - nc)
        chi2_density = v ** (df / 2 - 1) * mpmath.exp(-v / 2) / (2 ** (df / 2)
                                                                * mpmath.gamma(df / 2))
        return tail * chi2_density

    ref = mpmath.quad(integrand, [0, df, 10 * df, mpmath.inf])
    assert t_power(alpha, df, nc) == pytest.approx(float(ref), rel=1e-10)


def test_f_power_equals_noncentral_chi2_limit():
    # As the denominator df grows, the noncentral F power tends to the noncentral chi-square one.
    lim = stats.ncx2.sf(stats.chi2.isf(0.05, 9), 9, 12.0)
    assert f_power(0.05, 9, 1e10, 12.0) == pytest.approx(lim, rel=1e-7)


def test_zero_noncentrality_is_the_level():
    # scipy 1.17: stats.ncf.sf(2.0, 2, 27, 0.0) == -0.845; f_power falls back to the central F
    assert f_power(0.05, 2, 27, 0.0) == pytest.approx(0.05, rel=1e-12)
    assert f_power(0.01, [1, 5], [10, 100], [0.0, 3.0]) == pytest.approx(
        [0.01, stats.ncf.sf(f_crit(0.01, 5, 100), 5, 100, 3.0)], rel=1e-12)


def test_a_t_noncentrality_whose_square_underflows_is_the_level():
    # an add-in review (2026-12-07): below lambda = 1e-162, lambda^2 underflows to 0, where Boost's
    # noncentral F tail is wrong, and the paired power came out 0.0 instead of alpha; the level
    # is the central t tail (scipy's t.sf), reached continuously from lambda = 1e-150
    level = 2 * stats.t.sf(t_crit(0.05, 49), 49)
    for nc in (1e-300, 1e-170, 1e-162, 1e-150):
        assert t_power(0.05, 49, nc) == pytest.approx(level, rel=1e-12), nc
        assert tss.ttest_power(50, min_dt=nc, variance_t=0.12, alpha=0.05,
                               method="exact") == pytest.approx(0.05, rel=1e-12), nc
    assert t_power_one(0.05, 49.0, 1e-150) == pytest.approx(level, rel=1e-12)
    with pytest.raises(Uncertain):         # the one-cell path leaves it to the vectorised one
        t_power_one(0.05, 49.0, 1e-170)

# --- regressions from the engine review ---------------------------------------------------


def test_t_power_large_noncentrality_against_mpmath():
    # Boost's nct.sf drifts from lambda ~ 1e4 and is 25-100 % off from ~3e5 (0.4815 here);
    # reference: 30-digit mpmath integral of Pr{chi2_1 <= (z + lam)^2 / w^2} over z ~ N(0, 1).
    mpmath.mp.dps = 30
    w, nc = t_crit(1e-6, 1), 6e5
    ref = mpmath.quad(lambda z: mpmath.npdf(z) * mpmath.gammainc(
        0.5, 0, (z + nc) ** 2 / (2 * mpmath.mpf(w) ** 2), regularized=True), [-30, 0, 30])
    assert t_power(1e-6, 1, nc) == pytest.approx(float(ref), rel=1e-12)


@pytest.mark.parametrize("df", [1, 5, 30, 1000])
def test_t_power_quadrature_meets_boost_where_boost_is_good(df):
    # both sides of the switch at lambda = 1000 agree with scipy's own nct
    w = t_crit(0.05, df)
    for nc in (999.0, 1000.0, 2000.0):
        assert t_power(0.05, df, nc) == pytest.approx(stats.nct.sf(w, df, nc), abs=1e-12)


def test_huge_effects_give_power_one_not_nan():
    assert t_power(0.05, 100, 1e10) == 1.0
    assert f_power(0.05, 9, 10, 1e25) == 1.0          # Boost's ncf returns NaN from ~1e20


def test_a_huge_effect_at_a_tiny_alpha_is_not_given_a_smaller_effects_power():
    """Where Boost's ncf is NaN (λ beyond ~1e19), the power at λ = 1e12 stood in for it. At
    α = 1e-100, φ = (9, 10), the F point is 2.7e20, and that power is 1.3e-46: f_power(λ = 1e20)
    returned it, while Boost's own tail at λ = 1e15 is already 5e-33 (it rises with λ), and the
    mean of F' (λ/9 over χ²₁₀/10 ≈ 1.1e19) is within a factor of 25 of the F point. Unknown is
    NaN; where the power at λ = 1e15 is 1 (α = 1e-50), the power beyond is 1 too (it was the
    0.99999 of λ = 1e12)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # Boost's series at λ = 1e12
        assert np.isnan(f_power(1e-100, 9, 10, 1e20))
        assert f_power(1e-100, 9, 10, 1e15) > 1e-40
        assert f_power(1e-50, 9, 10, 1e25) == 1.0


@pytest.mark.parametrize("alpha,d1,d2", [(1e-12, 1, 2), (1e-12, 9, 2), (1e-9, 3, 4)])
def test_f_crit_tiny_alpha_few_denominator_df(alpha, d1, d2):
    mpmath.mp.dps = 40
    w = float(f_crit(alpha, d1, d2))
    upper = mpmath.betainc(d1 / 2, d2 / 2, d1 * mpmath.mpf(w) / (d1 * mpmath.mpf(w) + d2), 1,
                           regularized=True)
    assert float(upper) == pytest.approx(alpha, rel=1e-9)
    assert w == pytest.approx(float(_mp_f_root(alpha, d1, d2, w)), rel=1e-12)


def test_t_power_huge_noncentrality_is_silent():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        power = t_power(np.array([0.05, 0.05]), np.array([49.0, 49.0]),
                        np.array([1e160, 2000.0]))
    assert power[0] == 1.0 and power[1] == pytest.approx(1.0)


# --- issue 29: the F point and the noncentral F tail at phi_E up to 1e12 ----------------------
# References: tests/data/f_point_reference.csv and anova_large_n_reference.csv, 40-digit mpmath
# values written by tests/data/make_f_precision_reference.py (see tests/data/PROVENANCE.md).

def _f_point_reference(data_dir):
    import pandas as pd

    return pd.read_csv(data_dir / "f_point_reference.csv", dtype={"f_point": str})


def test_f_crit_against_40_digit_grid(data_dir):
    from topicsetsize.numerics.distributions import f_crit_one

    ref = _f_point_reference(data_dir)
    exact = np.array([mpmath.mpf(x) for x in ref.f_point], dtype=object)
    got = f_crit(ref.alpha.to_numpy(), ref.dfn.to_numpy(), ref.dfd.to_numpy())
    rel = np.array([float(abs((mpmath.mpf(g) - e) / e)) for g, e in zip(got, exact)])
    # what docs/formulas.md states: within 2e-13 below phi_E = 1e7, 1e-11 up to 1e12
    # (Boost's inverse alone, the old f_crit, was off by up to 6e-9 on this grid)
    small = ref.dfd.to_numpy() < 1e7
    assert rel[small].max() < 2e-13 and rel.max() < 1e-11, rel.max()
    # the one-cell searches' fast point is Boost's inverse alone, bit for bit
    fast = f_crit(ref.alpha.to_numpy(), ref.dfn.to_numpy(), ref.dfd.to_numpy(), precise=False)
    assert all(f_crit_one(a, p, q) == g for a, p, q, g in zip(ref.alpha, ref.dfn * 1.0,
                                                               ref.dfd * 1.0, fast))


def test_f_power_against_40_digit_powers(data_dir):
    # the powers at n - 1 and n of cells with n = 1.2e8 .. 9.9e8 (exact one- and two-way);
    # Boost's noncentral F alone was off by 1.1e-9 at the first cell (phi_A = 2, lambda = 17.4)
    import pandas as pd

    from topicsetsize.numerics.precision import F_POWER_TOLERANCE

    ref = pd.read_csv(data_dir / "anova_large_n_reference.csv", dtype=str)
    ref = ref[ref.method == "exact"]
    worst = 0.0
    for row in ref.itertuples():
        m, n = int(row.m), float(row.n)
        effect = float(mpmath.mpf(row.min_d) ** 2 / (2 * mpmath.mpf(row.variance)))
        dfe = m * (np.array([n - 1, n]) - 1) if row.design == "anova" else \
            (m - 1) * (np.array([n - 1, n]) - 1)
        got = f_power(float(row.alpha), m - 1.0, dfe, np.array([n - 1, n]) * effect)
        for g, e in zip(got, (row.power_n_minus_1, row.power_n)):
            worst = max(worst, abs(float(mpmath.mpf(g) - mpmath.mpf(e))))
    assert worst < F_POWER_TOLERANCE / 2, worst


# --- issue 28.4: the paired t power as one noncentral F tail, and the bound shortcut ------------

def _mp_t_power(alpha, df, nc):
    """Independent 40-digit reference: Pr{|t'(df, nc)| >= w} as the Poisson mixture of central
    beta tails of t'^2 ~ F'(1, df, nc^2): sum_k e^(-h) h^k / k! (1 - I_y(1/2 + k, df/2)),
    h = nc^2/2, y = w^2/(w^2 + df), w the double t(df; alpha) (mpmath's betainc, summed from
    the Poisson mode both ways until a term is below 1e-45 of the sum)."""
    mpmath.mp.dps = 40
    w = mpmath.mpf(float(t_crit(alpha, df)))
    h, y = mpmath.mpf(nc) ** 2 / 2, w * w / (w * w + df)

    def term(k):
        return mpmath.exp(-h + k * mpmath.log(h) - mpmath.loggamma(k + 1)) * mpmath.betainc(
            mpmath.mpf(1) / 2 + k, mpmath.mpf(df) / 2, y, 1, regularized=True)

    mode = int(h)
    total = term(mode)
    for step in (1, -1):
        k = mode + step
        while k >= 0:
            t = term(k)
            total += t
            if t < total * mpmath.mpf(10) ** -45:
                break
            k += step
    return total


@pytest.mark.parametrize("alpha,df,nc", [
    (0.05, 1, 0.5), (0.05, 1, 6.0), (1e-6, 1, 40.0), (0.01, 2, 3.0), (1e-7, 2, 25.0),
    (0.2, 3, 1.0), (1e-4, 3, 15.0), (0.05, 33, 2.9155), (1e-3, 1199, 5.58), (0.05, 1e4, 2.8),
    (1e-7, 1e6, 6.0), (0.05, 1e8, 2.8), (0.3, 9.9e8, 0.01), (1e-7, 5, 0.1), (0.05, 9, 90.0),
    (1.95257433e-06, 3941048, 3.22045616)])
@pytest.mark.slow
def test_t_power_identity_against_40_digits(alpha, df, nc):
    # the identity Pr{|t'(df, nc)| >= w} = Pr{F'(1, df, nc^2) >= w^2}, small df (1..3) included,
    # tails down to ~1e-7: within 1e-14 absolute and 1e-12 relative of the 40-digit sum
    ref = _mp_t_power(alpha, df, nc)
    got = t_power(alpha, df, nc)
    assert abs(float(mpmath.mpf(float(got)) - ref)) < 1e-14
    assert float(abs(mpmath.mpf(float(got)) / ref - 1)) < 1e-12


def test_t_power_identity_against_two_noncentral_t_tails():
    # scipy's nct (Boost), both tails, the method before issue 28, on a seeded grid with phi from
    # 1 to 1e9 and lambda up to 999 (the largest before the quadrature): within 5e-12 (the
    # largest differences, 1.8e-12 at phi = 5.2e7, are Boost's nct's: e.g. at alpha = 1.95e-6,
    # phi = 3.94e6, lambda = 3.22, nct is 3.4e-13 off the 40-digit sum and the F tail 3e-17)
    rng = np.random.default_rng(28)
    alpha = np.exp(rng.uniform(np.log(1e-7), np.log(0.5), 400))
    df = np.floor(np.exp(rng.uniform(0, np.log(1e9), 400)))
    nc = np.exp(rng.uniform(np.log(0.01), np.log(999), 400))
    w = t_crit(alpha, df)
    old = stats.nct.sf(w, df, nc) + stats.nct.sf(w, df, -nc)
    assert np.abs(t_power(alpha, df, nc) - old).max() < 5e-12


def test_t_power_one_is_the_vectorised_power_bit_for_bit():
    from topicsetsize.numerics.distributions import t_power_one

    rng = np.random.default_rng(7)
    for a, d, c in zip(rng.uniform(1e-6, 0.5, 50), np.floor(np.exp(rng.uniform(0, 20, 50))),
                       rng.uniform(0.01, 900, 50)):
        assert t_power_one(a, d, c) == float(t_power(a, d, c))


def test_pairs_bound_the_power_below_with_one_critical_value():
    from topicsetsize.numerics.distributions import PRECISE_FROM, f_power_pair, t_power_pair
    from topicsetsize.numerics.precision import F_POWER_TOLERANCE, FAST_POWER_ERROR

    # F: the power at phi_E = m(n - 1), lambda = n*effect; the bound at n - 1 taken at n's F point
    rng = np.random.default_rng(5)
    alpha = np.exp(rng.uniform(np.log(1e-7), np.log(0.5), 300))
    m = np.floor(np.exp(rng.uniform(np.log(2), np.log(1000), 300)))
    n = np.floor(np.exp(rng.uniform(np.log(3), np.log(1e9), 300)))
    effect = rng.uniform(1, 30, 300) / n
    # A bound in exact arithmetic; in floating point, up to the powers' own error where the F
    # point moves less than that per topic (phi_E from ~1e7 on): there the fast powers leave the
    # answer open and the precise power certifies it (numerics/precision.py), so a search's
    # decision from the bound is the one the powers would take.
    for precise, noise in ((False, FAST_POWER_ERROR), (True, F_POWER_TOLERANCE)):
        at, bound = f_power_pair(alpha, m - 1, m * (n - 1), n * effect, m * (n - 2),
                                 (n - 1) * effect, precise=precise)
        assert (at == f_power(alpha, m - 1, m * (n - 1), n * effect, precise=precise)).all()
        below = f_power(alpha, m - 1, m * (n - 2), (n - 1) * effect, precise=precise)
        small = m * (n - 1) < PRECISE_FROM
        assert (bound[small] >= below[small]).all() and (bound > below).any()
        assert (bound >= below - noise).all()
    # t: the same with phi = n - 1, lambda = sqrt(n)*effect
    effect = rng.uniform(0.5, 10, 300) / np.sqrt(n)
    at, bound = t_power_pair(alpha, n - 1, np.sqrt(n) * effect, n - 2, np.sqrt(n - 1) * effect)
    assert (at == t_power(alpha, n - 1, np.sqrt(n) * effect)).all()
    below = t_power(alpha, n - 2, np.sqrt(n - 1) * effect)
    assert (bound >= below - 1e-15).all() and (bound > below).any()


def test_pair_against_40_digit_powers(data_dir):
    # the precise pair at the 40-digit certified n of tests/data/anova_large_n_reference.csv:
    # the power at n within the tolerance, the bound at n - 1 at least the 40-digit power there
    import pandas as pd

    from topicsetsize.numerics.distributions import f_power_pair
    from topicsetsize.numerics.precision import F_POWER_TOLERANCE

    ref = pd.read_csv(data_dir / "anova_large_n_reference.csv", dtype=str)
    ref = ref[(ref.method == "exact") & (ref.design == "anova")]
    for row in ref.itertuples():
        m, n = int(row.m), float(row.n)
        effect = float(mpmath.mpf(row.min_d) ** 2 / (2 * mpmath.mpf(row.variance)))
        at, bound = f_power_pair(float(row.alpha), m - 1.0, m * (n - 1), n * effect,
                                 m * (n - 2), (n - 1) * effect)
        assert abs(float(mpmath.mpf(float(at)) - mpmath.mpf(row.power_n))) < F_POWER_TOLERANCE
        assert float(bound) > float(mpmath.mpf(row.power_n_minus_1)) - F_POWER_TOLERANCE


def test_t_power_beyond_the_float_range_of_its_critical_value_is_zero_not_an_error():
    """A reviewer's find (2026-12-06): ttest_power at alpha = 1e-200 (phi = 1) and ttest2_power
    at 1e-300 raised FloatingPointError: the critical t's square overflows to inf, and Boost
    gives NaN for Pr{F' >= inf}. That tail is 0 (the power is of the order of alpha, below
    1e-150); where the square is finite the power is still Boost's, checked here against
    mpmath's noncentral t by the sum of its two tails at alpha = 1e-100."""
    import warnings

    import topicsetsize as tss

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        tiny = tss.ttest_power(2, min_dt=0.1, variance_t=0.1, alpha=1e-200, method="exact")
        two = tss.ttest2_power(5, min_d=0.05, variance=0.01, alpha=1e-300)
    # 0 on scipy 1.17; scipy 1.14's stdtrit stops at 1e100 (t(1; 1e-200) is 6.4e199), so the
    # oldest-dependencies job finds a finite critical value and a power of 7e-101 (the limit of
    # scipy's quantile, not of this fallback): both are far below any power a design asks for
    assert 0.0 <= tiny < 1e-90 and 0.0 <= two < 1e-90
    # Where w^2 is finite the power is still Boost's: at phi = 1 and alpha = 1e-100, against
    # Pr{|Z + lam| >= w*sqrt(V)}, V ~ chi2_1, integrated by mpmath with V = (s/w)^2:
    # (2/w) * int_0^inf phi(s/w) * (Q(s - lam) + Phi(-s - lam)) ds.
    lam = np.sqrt(2.0) * 0.1 / np.sqrt(0.1)
    power = float(t_power(1e-100, 1.0, lam))
    w = abs(float(t_crit(1e-100, 1.0)))
    with mpmath.workdps(40):
        wm, lm = mpmath.mpf(w), mpmath.mpf(lam)
        exact = 2 / wm * mpmath.quad(lambda s: mpmath.npdf(s / wm) * (
            mpmath.ncdf(-(s - lm)) + mpmath.ncdf(-s - lm)), [0, 1, 10, mpmath.inf])
    assert 0 < power < 1e-98
    assert power == pytest.approx(float(exact), rel=1e-9)
