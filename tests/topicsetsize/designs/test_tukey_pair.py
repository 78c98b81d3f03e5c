"""one_pair_n: the n of allpairs_n without simulation where the target is one pair, against the
simulation of topicsetsize.designs.allpairs and scipy's noncentral t."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from topicsetsize.designs.allpairs import allpairs_power
from topicsetsize.designs.tukey_pair import one_pair_n


@pytest.mark.slow    # a second or more (several on a slower machine)
def test_one_pair_n_is_the_simulated_answer_without_monte_carlo_error():
    """one_pair_n: where the target is one pair (all pairs under least-favourable, or the
    best-worst pair), its power is the noncentral t tail at Tukey's critical value. Checked
    against this module's simulation at 400,000 trials (SE about 6e-4): at the exact n and
    n - 1 the simulated power is within 4 SE of the closed form; and the closed form's n is the
    one a reviewer computed for minD = .05, sigma^2 = .0132, m = 10 (170), where the default
    simulation answered 166 to 172 by seed."""
    r = one_pair_n(0.05, 0.20, 0.05, 0.0132, 10)
    assert r.n == 170 and r.power_below < 0.8 <= r.power
    for n, exact in ((r.n - 1, r.power_below), (r.n, r.power)):
        sim = allpairs_power(n, m=10, min_d=0.05, variance=0.0132, trials=400_000, seed=7)
        assert abs(sim.all_pairs - exact) < 4 * sim.all_pairs_se, (n, sim.all_pairs, exact)
        assert sim.all_pairs == sim.best_worst            # one pair: the same event
    # equally spaced: the best-worst pair is (m - 1) minD apart; all pairs is m - 1 pairs at once
    spaced = one_pair_n(0.05, 0.20, 0.05, 0.0132, 10, configuration="equally-spaced",
                        target="best-worst")
    sim = allpairs_power(spaced.n, m=10, min_d=0.05, variance=0.0132,
                         configuration="equally-spaced", trials=400_000, seed=7)
    assert abs(sim.best_worst - spaced.power) < 4 * sim.best_worst_se
    assert one_pair_n(0.05, 0.20, 0.05, 0.0132, 10, configuration="equally-spaced") is None


def test_one_pair_n_at_two_systems_is_the_t_tests_upper_tail():
    """m = 2: q(1 - alpha; 2, phi)/sqrt(2) is t(1 - alpha/2; phi), so the power is the paired
    t-test's upper tail for minDt = minD and sigma_t^2 = 2 sigma^2 (scipy.stats.nct directly)."""
    r = one_pair_n(0.05, 0.20, 0.1, 0.02, 2)
    for n, power in ((r.n - 1, r.power_below), (r.n, r.power)):
        df = n - 1
        upper = stats.nct.sf(stats.t.isf(0.025, df), df, 0.1 * np.sqrt(n / 0.04))
        assert power == pytest.approx(upper, abs=1e-7)
