"""CI-width design: worked examples, an independent Gamma computation, properties."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import topicsetsize as tss
from topicsetsize.errors import InputError


@pytest.mark.parametrize("alpha,delta,variance_t,n", [
    # docs/formulas.md §6 (IRJ 2016, Eq. 14; checked in 40 digits by the test below)
    (0.05, 0.10, 0.05, 79), (0.05, 0.05, 0.02, 125), (0.01, 0.10, 0.10, 269)])
def test_worked_examples(alpha, delta, variance_t, n):
    assert tss.ci_n(alpha, delta, variance_t) == n


def _width_plain(n, variance_t, alpha):
    # independent: the Gamma ratio in 40-digit mpmath and scipy.stats.t, written out from
    # the formula (math.lgamma differences lose ~1e-8 at n = 1e7)
    mpmath.mp.dps = 40
    ratio = float(mpmath.gamma(mpmath.mpf(n) / 2) / mpmath.gamma((mpmath.mpf(n) - 1) / 2))
    return 2 * stats.t.isf(alpha / 2, n - 1) * math.sqrt(variance_t) * math.sqrt(2 / (n - 1)) \
        * ratio / math.sqrt(n)


@pytest.mark.parametrize("n", [2, 3, 50, 341, 5000, 10**7, 10**9])
def test_width_matches_independent_formula(n):
    assert tss.ci_delta(n, variance_t=0.05, alpha=0.05) == pytest.approx(
        _width_plain(n, 0.05, 0.05), rel=1e-11)


def test_approximate_form_agrees_on_the_examples():
    # IRJ 2016, Section 6 (docs/formulas.md §6): t(n-1)(1 - 1/(4(n-1)))/sqrt(n) <= delta/(2 sigma)
    # gives the same n on all three examples
    for alpha, delta, v, n in [(0.05, 0.10, 0.05, 79), (0.05, 0.05, 0.02, 125),
                               (0.01, 0.10, 0.10, 269)]:
        f = lambda k: stats.t.isf(alpha / 2, k - 1) * (1 - 1 / (4 * (k - 1))) / math.sqrt(k)
        assert f(n) <= delta / (2 * math.sqrt(v)) < f(n - 1)


@settings(max_examples=50, deadline=None)
@given(alpha=st.floats(1e-4, 0.5), delta=st.floats(0.001, 2.0), variance_t=st.floats(1e-4, 1.0))
def test_smallest_n_with_width_at_most_delta(alpha, delta, variance_t):
    try:
        n = tss.ci_n(alpha, delta, variance_t)
    except tss.SearchLimitError:
        return
    assert tss.ci_delta(n, variance_t=variance_t, alpha=alpha) <= delta
    if n > 2:
        assert tss.ci_delta(n - 1, variance_t=variance_t, alpha=alpha) > delta


def test_bad_input():
    with pytest.raises(InputError, match=r"^delta=-0.1 is out of range: allowed delta > 0$"):
        tss.ci_n(0.05, -0.1, 0.05)


def test_ci_delta_arguments_after_n_are_keyword_only():
    with pytest.raises(TypeError):
        tss.ci_delta(79, 0.05, 0.05)
    # 79 is the smallest n whose expected width is at most .10 (alpha = .05, sigma_t^2 = .05).
    assert tss.ci_delta(79, alpha=0.05, variance_t=0.05) <= 0.10 < tss.ci_delta(
        78, variance_t=0.05, alpha=0.05)
