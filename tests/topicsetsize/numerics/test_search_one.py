"""The one-cell fast path (smallest_n_one) against the vectorised search: the same n, the same
error, for every design and method (hypothesis draws the cells)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import topicsetsize as tss
from topicsetsize.designs.anova import _anova_n_one
from topicsetsize.designs.anova2 import _anova2_n_one
from topicsetsize.designs.ttest import _ttest_n_one
from topicsetsize.numerics.search import smallest_n
from topicsetsize.numerics.search_one import smallest_n_one


def _answer(call):
    """The result of ``call()``, or its error (type and message) for comparison."""
    try:
        return call()
    except ValueError as error:
        return type(error).__name__, str(error)


_alpha = st.one_of(st.sampled_from([0.05, 0.01]), st.floats(-9.0, -0.31).map(lambda x: 10 ** x))
_beta = st.one_of(st.sampled_from([0.2, 0.1]), st.floats(0.001, 0.95))
_scale = st.floats(-5.0, 3.0).map(lambda x: 10 ** x)    # minD or delta and sigma: n from 2 to > 1e9
_m = st.one_of(st.integers(2, 30), st.integers(2, 2000), st.sampled_from([10**6]))
_method = st.sampled_from(["legacy", "exact"])


def _one_vs_table(func, scalars: dict, listed: str, **options):
    """A scalar call equals the same cell through the vectorised search (a 1-element list).

    Not where 1 − β lies within 1e-9 of α (β = .95 at α = .05 is 1 − β = α + 4.4e-17): any
    effect's power exceeds α, and by less than the powers' precision (3e-11) for tiny ones, so
    the crossing is not determined by the computation (minD = 1e-5, σ = 10, m = 10⁶, two-way:
    377 one way, 150 the other, neither certified). The closing note of 2026-12-06 keeps it.
    """
    beta = scalars.get("beta")
    assume(beta is None or abs((1.0 - beta) - scalars["alpha"]) > 1e-9)
    one = _answer(lambda: func(**scalars, **options))
    table = _answer(lambda: func(**{**scalars, listed: [scalars[listed]]}, **options))
    table = table if isinstance(table, tuple) else table.tolist()[0]
    assert one == table, (scalars, options)


@settings(max_examples=300, deadline=None)
@given(_alpha, _beta, _scale, _scale, _m, _method)
@pytest.mark.slow
def test_one_cell_anova_n_is_the_tables(alpha, beta, min_d, sd, m, method):
    _one_vs_table(tss.anova_n, dict(alpha=alpha, beta=beta, min_d=min_d, variance=sd * sd, m=m),
                  "m", method=method)


@settings(max_examples=300, deadline=None)
@given(_alpha, _beta, _scale, _scale, _method)
@pytest.mark.slow
def test_one_cell_ttest_n_is_the_tables(alpha, beta, min_dt, sd, method):
    _one_vs_table(tss.ttest_n, dict(alpha=alpha, beta=beta, min_dt=min_dt, variance_t=sd * sd),
                  "min_dt", method=method)


@settings(max_examples=200, deadline=None)
@given(_alpha, _beta, _scale, _scale, _m)
@example(10 ** -0.5, 0.2, 10 ** -3.75, 10 ** 0.125, 5)
def test_one_cell_two_way_and_unpaired_are_the_tables(alpha, beta, min_d, sd, m):
    # hypothesis found (2026-12-08, CI on the oldest scipy, newest alike) alpha = 10^-0.5,
    # min_d = 10^-3.75, sd = 10^0.125, m = 5: the table said 609,322,311 and the scalar call
    # 609,322,319; the precise power crosses at 319 (the certificate's walk stopped short):
    # tests/topicsetsize/numerics/test_precision.py has the bisection that mends it
    cell = dict(alpha=alpha, beta=beta, min_d=min_d, variance=sd * sd)
    _one_vs_table(tss.anova2_n, {**cell, "m": m}, "m")
    _one_vs_table(tss.ttest2_n, cell, "min_d")


@settings(max_examples=200, deadline=None)
@given(_alpha, _scale, _scale)
def test_one_cell_ci_n_is_the_tables(alpha, delta, sd):
    _one_vs_table(tss.ci_n, dict(alpha=alpha, delta=delta, variance_t=sd * sd), "delta")
    _one_vs_table(tss.ci2_n, dict(alpha=alpha, delta=delta, variance=sd * sd), "delta")


@pytest.mark.parametrize("call, expected", [
    # the README's and the docstrings' examples: certified by the one-cell search itself
    (lambda: _anova_n_one(0.05, 0.2, 0.1, 0.0601, 10, "exact"), 189),
    (lambda: _anova_n_one(0.05, 0.2, 0.1, 0.0601, 10, "legacy"), 188),
    (lambda: _anova_n_one(0.05, 0.2, 0.02, 0.0601, 2, "legacy"), 2301),
    (lambda: _anova_n_one(0.05, 0.2, 0.02, 0.0601, 2, "exact"), 2360),
    (lambda: _ttest_n_one(0.05, 0.2, 0.5, "legacy"), 34),
    (lambda: _ttest_n_one(0.05, 0.2, 0.2, "exact"), 199),
    (lambda: _anova2_n_one(0.05, 0.2, 0.1, 0.0601, 10), 190),
])
def test_the_fast_path_certifies_ordinary_cells(call, expected):
    assert call() == expected


@pytest.mark.parametrize("call, table", [
    # tiny n, at or below the monotone start (legacy ANOVA 9, legacy t-test 17 at alpha = .05):
    # scanned below it as the vectorised search scans
    (lambda: _anova_n_one(0.05, 0.2, 1.0, 0.01, 10, "legacy"),
     lambda: tss.anova_n(0.05, 0.2, 1.0, 0.01, [10])),
    (lambda: _anova_n_one(0.05, 0.2, 0.5, 0.0601, 10, "legacy"),
     lambda: tss.anova_n(0.05, 0.2, 0.5, 0.0601, [10])),
    (lambda: _ttest_n_one(0.05, 0.2, 1.5, "legacy"), lambda: tss.ttest_n_effect(0.05, 0.2, [1.5])),
    (lambda: _ttest_n_one(0.05, 0.2, 30.0, "exact"),
     lambda: tss.ttest_n_effect(0.05, 0.2, [30.0], method="exact")),
    (lambda: _anova_n_one(1e-12, 0.2, 0.3, 0.0601, 3, "legacy"),    # start 129, n ≈ 100
     lambda: tss.anova_n(1e-12, 0.2, 0.3, 0.0601, [3])),
    # a long scan (tiny n below the start 129): one cell's scan takes every n below the start
    # in two vectorised calls (it declined, and the call ran the whole vectorised search)
    (lambda: _anova_n_one(1e-12, 0.2, 5.0, 0.0601, 3, "legacy"),
     lambda: tss.anova_n(1e-12, 0.2, 5.0, 0.0601, [3])),
    (lambda: _ttest_n_one(5.8e-4, 0.15, 1.5, "legacy"),              # start 65, n = 15
     lambda: tss.ttest_n_effect(5.8e-4, 0.15, [1.5])),
    (lambda: _ttest_n_one(1e-11, 0.2, 4.0, "legacy"),                # start 2049
     lambda: tss.ttest_n_effect(1e-11, 0.2, [4.0])),
])
def test_the_fast_path_scans_below_the_monotone_start(call, table):
    assert call() == table().tolist()[0]


@pytest.mark.parametrize("call", [
    lambda: _ttest_n_one(0.05, 0.2, 1e-7, "exact"),             # n > 1e9: no pass in range
])
def test_the_fast_path_declines_what_it_cannot_certify(call):
    assert call() is None


@pytest.mark.parametrize("call, table", [
    # issue 28.5: large answers (up to the search limit) are the fast path's too (it declined
    # them from 1e6 on, and a scalar call ran the vectorised search: 0.6-2 ms)
    (lambda: _ttest_n_one(0.05, 0.2, 1e-3, "exact"),             # n ≈ 7.8e6
     lambda: tss.ttest_n_effect(0.05, 0.2, [1e-3], method="exact")),
    (lambda: _ttest_n_one(1e-4, 0.1, 2e-4, "legacy"),            # n ≈ 5e8
     lambda: tss.ttest_n_effect(1e-4, 0.1, [2e-4])),
])
def test_the_fast_path_answers_large_n_as_the_table(call, table):
    n = call()
    assert n is not None and n > 10**6 and n == table().tolist()[0]


def test_smallest_n_one_agrees_with_smallest_n_on_a_wobbly_curve():
    # passes at 5 and from 31 on: above the monotone start 10, n = 31; at the start, no answer
    def value(n):
        return 1.0 if n == 5 or n >= 31 else 0.0
    for guess in (3.0, 30.0, 31.4, 100.0, 1000.0):
        assert smallest_n_one(value, 0.5, guess, 10) == 31
        assert smallest_n_one(value, 0.5, guess, 40) == 31     # met at the start: scanned
        assert smallest_n(lambda n, i: np.vectorize(value)(n), [0.5], [guess],
                          monotone_from=40).tolist() == [31]
    assert smallest_n_one(value, 0.5, 20.0, 40, scan=5) is None


@pytest.mark.parametrize("func, arguments", [
    (tss.anova_n, (0.0, 0.2, 0.1, 0.06, 10)), (tss.anova_n, (0.05, 0.2, 0.1, 0.06, 10.5)),
    (tss.anova_n, (0.05, 0.2, -0.1, 0.06, 10)), (tss.ttest_n, (0.05, 1.0, 0.1, 0.06)),
    (tss.ttest_n, (0.05, 0.2, 1e-300, 1e300)), (tss.ci_n, (0.05, float("nan"), 0.05)),
    (tss.anova2_n, (0.05, 0.2, 0.1, 0.06, 1)), (tss.ttest2_n, (0.05, 0.2, float("inf"), 0.06)),
    (tss.ci2_n, (1.5, 0.1, 0.05)), (tss.ttest_n_effect, (0.05, 0.2, 0.0)),
])
def test_bad_scalars_get_the_tables_message(func, arguments):
    one = _answer(lambda: func(*arguments))
    table = _answer(lambda: func(*arguments[:-1], [arguments[-1]]))
    assert isinstance(one, tuple) and one == table
