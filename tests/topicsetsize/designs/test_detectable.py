"""The minimum detectable effect (designs/detectable.py) against scipy's root finders: the
vectorised ``find_root`` (where scipy has it) and brentq on the power, cell by cell."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

import topicsetsize as tss
from topicsetsize.designs import detectable

_GRID = dict(n=np.array([20, 34, 188, 1000, 10**6]), m=np.array([[2], [10], [1000]]))


_ERRORS = [(0.05, 0.20), (0.01, 0.10), (1e-4, 0.05), (0.3, 0.6)]


def _both_designs(method, alpha, beta):
    d = tss.anova_min_d(_GRID["n"], m=_GRID["m"], variance=0.0601, alpha=alpha, beta=beta,
                        method=method)
    dt = tss.ttest_min_dt(_GRID["n"], variance_t=0.1, alpha=alpha, beta=beta, method=method)
    return d, dt


def _scipy_smallest_reaching(f, args, *, first_step, tol=1e-13, limit=np.inf):
    """roots.smallest_reaching with scipy's bracket_root and find_root (what the engine used
    before it kept its own search only), as an independent reference."""
    elementwise = pytest.importorskip("scipy.optimize.elementwise")
    args = tuple(np.asarray(x, float) for x in args)
    x = np.zeros(np.broadcast(*args).shape)
    args = tuple(np.broadcast_to(a, x.shape) for a in args)
    todo = ~(f(x, *args) >= 0)
    sub = tuple(a[todo] for a in args)
    step = np.broadcast_to(np.asarray(first_step, float), x.shape)[todo]
    bracket = elementwise.bracket_root(f, np.zeros(step.size), step, xmin=0.0, xmax=limit,
                                       args=sub)
    root = elementwise.find_root(f, bracket.bracket, args=sub,
                                 tolerances=dict(xrtol=tol, xatol=tol))
    found = np.where(f(root.x, *sub) >= 0, root.x, root.bracket[1])
    x[todo] = np.where(bracket.success & root.success, found, np.nan)
    return x


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_min_d_equals_scipy_find_root(monkeypatch, method):
    for alpha, beta in _ERRORS:
        got = _both_designs(method, alpha, beta)
        with monkeypatch.context() as patch:
            patch.setattr(detectable, "smallest_reaching", _scipy_smallest_reaching)
            want = _both_designs(method, alpha, beta)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_min_d_against_brentq(method):
    # Independent: scipy.optimize.brentq (in every scipy) on the power in lambda, cell by cell.
    for alpha, beta in _ERRORS:
        d, dt = _both_designs(method, alpha, beta)
        for i, n in enumerate(_GRID["n"]):
            for j, m in enumerate(_GRID["m"].ravel()):
                def gap(lam):
                    return tss.anova_power(n, m=m, min_d=np.sqrt(2 * 0.0601 * lam / n),
                                           variance=0.0601, alpha=alpha,
                                           method=method) - (1 - beta)
                lam = optimize.brentq(lambda x: np.nan_to_num(gap(x), nan=-1.0), 1e-9, 1e7,
                                      xtol=1e-14, rtol=1e-14)
                assert d[j, i] == pytest.approx(np.sqrt(2 * 0.0601 * lam / n), rel=1e-10)
            power = tss.ttest_power(n, min_dt=dt[i], variance_t=0.1, alpha=alpha, method=method)
            below = tss.ttest_power(n, min_dt=dt[i] * (1 - 1e-9), variance_t=0.1, alpha=alpha,
                                    method=method)
            assert power >= 1 - beta > below


def test_an_unreachable_exact_power_is_not_called_an_approximation():
    """A reviewer's find (2026-12-06): anova_min_d(3, m=2, alpha=1e-50, method="exact") ends
    "n=3 is too small for the exact approximation ... or method='exact'", where the exact
    method was given and it is the noncentrality (beyond Boost's 1e20) that cannot be reached.
    A power that no λ lifts above 0 at n = 3 but does from n = 4 stands in for it here."""
    import numpy as np
    from scipy import special

    from topicsetsize.designs.detectable import raise_unreachable
    from topicsetsize.errors import InputError

    def power(lam, alpha, df_a, n):
        return np.where(np.asarray(n) >= 4, special.ndtr(np.sqrt(lam) - 3.0), 0.0)

    for method, expected in (
            ("exact", "n=3 is too small to reach the power at alpha=1e-50 with any difference "
                      "the exact noncentral distributions can compute: allowed n >= 4, or a "
                      "larger alpha"),
            ("legacy", "n=3 is too small for the legacy approximation to reach the power at any "
                       "difference: allowed n >= 4, or method='exact'")):
        with pytest.raises(InputError) as info:
            raise_unreachable(np.array([np.nan]), power, method, 1e-50, 0.2, 1.0, 3.0)
        assert str(info.value) == expected


@pytest.mark.slow
def test_an_f_minimum_difference_beyond_boosts_reach_is_refused_not_searched_for_minutes():
    """An input review (2026-12-07): ``min-d anova --n 2 --alpha 1e-300 --method exact`` ran
    696 s without an answer, and α = 1e-70 took 19 s: the bracket doubled λ up to Boost's NaN at
    ~1e19, where each noncentral F tail costs seconds. The F designs search λ up to
    F_LAMBDA_MAX (α = 1e-50 needs 2.5e11 and is answered) and refuse beyond it in one line; the
    t designs, whose powers integrate at any λ, still answer (minDt ∝ t(1; α) at n = 2)."""
    import warnings

    from topicsetsize.designs.detectable import F_LAMBDA_MAX
    from topicsetsize.errors import InputError
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # Boost's series at these λ
        for function in (tss.anova_min_d, tss.anova2_min_d):
            d = function(2, m=10, variance=0.0601, alpha=1e-50, beta=0.2, method="exact")
            assert 2 * d * d / (2 * 0.0601) < F_LAMBDA_MAX        # λ = n·minD²/(2σ²)
            with pytest.raises(InputError, match="n=2 is too small to reach the power at "
                               "alpha=1e-70 .* or a larger alpha"):
                function(2, m=10, variance=0.0601, alpha=1e-70, beta=0.2, method="exact")
    dt = tss.ttest_min_dt(2, variance_t=0.1, alpha=1e-100, beta=0.2, method="exact")
    assert tss.ttest_power(2, min_dt=dt, variance_t=0.1, alpha=1e-100, method="exact") >= 0.8
    # independently: at n = 2 (φ = 1), t' = (Z + λ)/|Y| with Z, Y standard normal, and Z is
    # nothing beside λ ≈ 8e99, so the power is Pr{|Y| ≤ λ/w} = 2Φ(λ/w) − 1, with the Cauchy
    # point w = cot(πα/2) = 2/(πα): λ = w·Φ⁻¹(0.9), minDt = σt·λ/√2
    from scipy import special
    lam = 2.0 / (np.pi * 1e-100) * special.ndtri(0.9)
    assert dt == pytest.approx(np.sqrt(0.1) * lam / np.sqrt(2.0), rel=1e-9)


@pytest.mark.parametrize("function, args", [
    # a statistics audit's find (2026-12-07): the docstrings said 0.0 came only where 1 - beta
    # <= alpha; here 1 - beta = .25 > alpha = .001, and the legacy t power at no difference is
    # .289 (IRJ 2016, Eq. 4 at phi = 1), already above .25
    (tss.ttest_min_dt, dict(n=2, variance_t=1.0, alpha=0.001, beta=0.75)),
    # the Excel functions' refusal case (TSS_MIND_ANOVA(100,10,0.0601,0.5,0.49))
    (tss.anova_min_d, dict(n=100, m=10, variance=0.0601, alpha=0.5, beta=0.49)),
])
def test_a_legacy_zero_is_the_approximations_own_error(function, args):
    """Where the legacy minimum is 0 with 1 - beta > alpha, the legacy power at (almost) no
    difference already reaches 1 - beta, and the exact minimum is above 0 (as documented)."""
    assert 1 - args["beta"] > args["alpha"]
    assert function(**args, method="legacy") == 0.0
    effect = "min_dt" if function is tss.ttest_min_dt else "min_d"
    power = tss.ttest_power if function is tss.ttest_min_dt else tss.anova_power
    given = {k: v for k, v in args.items() if k != "beta"}
    assert power(**given, **{effect: 1e-9}, method="legacy") >= 1 - args["beta"]
    assert function(**args, method="exact") > 0
    assert power(**given, **{effect: 1e-9}, method="exact") < 1 - args["beta"]


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_a_huge_variance_gives_a_finite_min_d_without_a_warning(method):
    # an add-in review (2026-12-07): at sigma^2 = 1e308, 2 sigma^2 lambda overflowed and minD came
    # out inf with a RuntimeWarning; minD = sqrt(2 lambda / n) sigma is finite (about 8e153).
    # It scales as sigma: 1e154 times the minD at sigma^2 = 1, to rounding, and reaches the power
    # at sigma^2 = 1e308 itself
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        designs = [(tss.anova_min_d, tss.anova_power)] + (
            [(tss.anova2_min_d, tss.anova2_power)] if method == "exact" else [])  # exact only
        for min_d, power in designs:
            d = min_d(50, m=10, variance=1e308, alpha=0.05, beta=0.2, method=method)
            unit = min_d(50, m=10, variance=1.0, alpha=0.05, beta=0.2, method=method)
            assert np.isfinite(d) and d == pytest.approx(unit * 1e154, rel=1e-12)
            assert power(50, m=10, min_d=d, variance=1e308, alpha=0.05, method=method) >= 0.8
