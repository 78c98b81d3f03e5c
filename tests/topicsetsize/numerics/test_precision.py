"""The certification of an F design's n by its precise power (issue 29)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import topicsetsize as tss
from topicsetsize.numerics.precision import (
    CHECK_FROM,
    PrecisionWarning,
    certify,
    certify_from,
    certify_one,
)


def _power(x, i):
    # a line rising by 1e-9 per topic, 0.8 at n = 1e8 exactly
    return 0.8 + (x - 1e8) * 1e-9


def test_moves_to_the_certified_n_and_warns_within_the_tolerance():
    n = np.array([100_000_003, 99_999_990, 100_000_020, 5])
    target = np.array([0.8, 0.8, 0.8 + 15.5e-9, 0.8])
    with pytest.warns(PrecisionWarning, match=r"n=100,000,000 for cell 0 .* \(and 2 more cells\)"):
        got = certify(_power, target, n, tolerance=1.5e-9, check_from=CHECK_FROM,
                      describe=lambda i: f"cell {i}")
    # down from above, up from below (both end where power(n) is the target itself), and
    # 1e8 + 16, whose power is 0.5e-9 above its target: all three within the tolerance, flagged;
    # below check_from untouched
    assert got.tolist() == [100_000_000, 100_000_000, 100_000_016, 5]


def test_silent_where_the_margin_is_wide():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = certify(_power, 0.8 - 0.5e-9, np.array([100_000_000]), tolerance=1e-10,
                      check_from=CHECK_FROM, describe=str)
        assert got.tolist() == [100_000_000]
        # below check_from nothing is evaluated at all
        assert certify(lambda x, i: 1 / 0, 0.8, np.array([CHECK_FROM - 1]), tolerance=1.0,
                       check_from=CHECK_FROM, describe=str).tolist() == [CHECK_FROM - 1]
        assert certify_one(lambda x: 1 / 0, 0.8, CHECK_FROM - 1, str, dfe_per_topic=2.0,
                           fast=lambda x: 1 / 0) == CHECK_FROM - 1
        assert certify_one(lambda x: 1 / 0, 0.8, None, str, dfe_per_topic=2.0,
                           fast=lambda x: 1 / 0) is None


def test_certified_below_check_from_where_the_fast_power_differs_but_never_flagged():
    # n = 2000 with phi_E >= 1e5 per certify_from(100): moved, and within the tolerance but
    # below warn_from: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = certify(lambda x, i: 0.8 + (x - 1990) * 1e-12, 0.8, np.array([2000]),
                      tolerance=1e-9, check_from=certify_from(100.0), describe=str)
    assert got.tolist() == [1990]


def test_a_power_that_does_not_settle_is_flagged():
    # power(n - 1) >= target and power(n) < target at once (not monotone): stop and flag
    with pytest.warns(PrecisionWarning):
        got = certify(lambda x, i: np.where(x % 2 == 0, 0.9, 0.7), 0.8, np.array([1_000_001]),
                      tolerance=1e-12, check_from=CHECK_FROM, describe=str)
    assert got.tolist() == [1_000_001]


def test_a_crossing_beyond_the_walk_is_bracketed_and_bisected():
    # a hypothesis find (2026-12-08): at n ~ 6e8 the fast power was 8 topics off, the walk of
    # 16 one-topic moves began farther away and stopped short with a warning ("a topic or two
    # away"), 8 topics below the answer. Now past the walk the crossing is bracketed by doubling
    # steps and bisected, up or down, with no warning where its powers are clear of the target.
    def power(x, i=None):
        return 0.8 + (np.asarray(x, float) - 500_000_000.5) * 1e-9     # crossing at 5e8 + 1

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for start in (499_999_000, 500_000_900, 500_000_010, 499_999_990):
            got = certify(power, 0.8, np.array([start]), tolerance=3e-11, check_from=CHECK_FROM,
                          describe=str)
            assert got.tolist() == [500_000_001], start
            assert certify_one(power, 0.8, start, str, dfe_per_topic=2.0,
                               fast=lambda x: 0.8) == 500_000_001, start


def test_public_name():
    assert tss.PrecisionWarning is PrecisionWarning and issubclass(PrecisionWarning, UserWarning)


def test_the_fast_power_settles_cells_far_from_the_target():
    from topicsetsize.numerics.precision import (
        F_POWER_TOLERANCE,
        FAST_POWER_ERROR,
        undecided_by_fast,
    )

    edge = FAST_POWER_ERROR + F_POWER_TOLERANCE
    below = np.array([0.8 - 2 * edge, 0.8 - edge / 2, np.nan, 0.8 - 2 * edge])
    at = np.array([0.8 + 2 * edge, 0.8 + 2 * edge, 0.9, 0.8 + edge / 2])
    assert undecided_by_fast(0.8, below, at).tolist() == [False, True, True, True]


def _outcome(func):
    """(answer, warning messages) of ``func()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = func()
    return got, [str(w.message) for w in caught if issubclass(w.category, PrecisionWarning)]


@pytest.mark.parametrize("n, target, slope", [
    (100_000_003, 0.8, 1e-9),                # walks down to a power on the target: warns
    (100_000_001, 0.8 + 0.5e-7, 1e-9),       # 49 topics away: past the walk's 16 moves,
    #                                          bracketed and bisected (on the target: warns)
    (100_000_002, 0.8 + 0.55e-9, 1e-10),     # four topics up, 5e-11 off the target: clean
    (100_000_001, 0.8 + 1.5e-9, 1e-9),       # one topic up, clean
    (100_000_001, 0.8 - 2.5e-9, 1e-9),       # three topics down, clean
    (1_000_001, 0.8, 0.0),                   # flat: contradictory, warns
])
def test_certify_one_walks_as_certify(n, target, slope):
    # issue 28.5: certify_one walks on floats (n's neighbours in the first call of the power)
    # and warns itself; answers and warnings are certify's, call for call
    calls = []

    def power(x):
        calls.append(len(x))
        return 0.8 + (np.asarray(x) - 1e8) * slope

    def describe(i):
        return f"cell {i}"

    one, one_warned = _outcome(lambda: certify_one(power, target, n, describe, dfe_per_topic=2.0,
                                                   fast=lambda x: target))
    many, many_warned = _outcome(lambda: certify(lambda x, i: power(x), target, np.array([n]),
                                                 tolerance=3e-11, check_from=certify_from(2.0),
                                                 describe=describe))
    assert one == int(many[0]) and one_warned == many_warned
    if slope and abs(one - n) <= 1:
        assert calls[0] == 4          # n - 2 .. n + 1: a walk of one topic in one call


@pytest.mark.parametrize("n, target, slope", [
    (100_000_003, 0.8, 1e-9),
    (100_000_001, 0.8 + 0.5e-7, 1e-9),
    (100_000_002, 0.8 + 0.55e-9, 1e-10),
    (100_000_001, 0.8 + 1.5e-9, 1e-9),
    (100_000_001, 0.8 - 2.5e-9, 1e-9),
    (1_000_001, 0.8, 0.0),
])
def test_certify_one_with_some_points_walks_as_with_all(n, target, slope):
    # issue 28.5: with power_some, only the points the walk compares are computed (the rest of
    # a call's points once it moves): the same answer and warnings as with all of them
    asked = []

    def power(x):
        return 0.8 + (np.asarray(x) - 1e8) * slope

    def power_some(x, use):
        asked.extend(np.asarray(x)[use].tolist())
        return power(np.asarray(x)[use])

    def certified(**some):
        return _outcome(lambda: certify_one(power, target, n, lambda i: f"cell {i}",
                                            dfe_per_topic=2.0, fast=lambda x: target, **some))

    assert certified(power_some=power_some) == certified()
    if slope and abs(certified()[0] - n) <= 1:          # one call, of n - 2, ..., n + 1
        assert sorted(asked) == [n - 2.0, n - 1.0, n, n + 1.0]


def test_certify_one_leaves_out_the_side_the_fast_power_settles():
    # n - 1 is 9e-7 below the target by the fast power (beyond FAST_POWER_ERROR + tolerance):
    # only n is computed precisely, and the answer is the one with both
    n, target = 1_000_001, 0.8
    asked = []

    def power(x):
        return target + (np.asarray(x, float) - n + 0.1) * 1e-6

    def power_some(x, use):
        asked.extend(np.asarray(x)[use].tolist())
        return power(np.asarray(x)[use])

    def fast(x):
        return float(power(x))

    some = _outcome(lambda: certify_one(power, target, n, str, dfe_per_topic=2.0, fast=fast,
                                        power_some=power_some))
    assert some == _outcome(lambda: certify_one(power, target, n, str, dfe_per_topic=2.0,
                                                fast=fast)) == (n, [])
    assert asked == [float(n), n + 1.0]         # n - 1 left out, n + 1 beside n
