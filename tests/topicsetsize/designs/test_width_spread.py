"""How often one collection's CI is wider than delta (designs/width_spread.py), against Monte
Carlo: intervals computed from simulated normal scores, as a collection would give them."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.designs.width_spread import n_within, width_caveat, within_probability


def _simulated_within(key, n, alpha, delta, variance, trials=200_000, seed=7):
    """The share of simulated intervals at most delta wide: paired, t(n - 1) times the sample
    sd of n differences over sqrt(n); unpaired, t(2n - 2) times the pooled sd times sqrt(2/n)
    (n scores per system); normal scores, as the design assumes."""
    rng = np.random.default_rng(seed)
    sd = np.sqrt(variance)
    if key == "ci":
        s = rng.normal(0.0, sd, (trials, n)).std(axis=1, ddof=1)
        width = 2 * stats.t.isf(alpha / 2, n - 1) * s / np.sqrt(n)
    else:
        x, y = rng.normal(0.0, sd, (2, trials, n))
        pooled = np.sqrt((x.var(axis=1, ddof=1) + y.var(axis=1, ddof=1)) / 2)
        width = 2 * stats.t.isf(alpha / 2, 2 * n - 2) * pooled * np.sqrt(2 / n)
    return float(np.mean(width <= delta))


@pytest.mark.slow
@pytest.mark.parametrize("key, n, alpha, delta, variance", [
    ("ci", 79, 0.05, 0.1, 0.05), ("ci", 323, 0.01, 0.1, 0.1202), ("ci2", 41, 0.05, 0.1, 0.0127),
    ("ci2", 27, 0.05, 0.1, 0.0084)])
def test_the_share_within_delta_equals_monte_carlo(key, n, alpha, delta, variance):
    got = float(within_probability(key, n, alpha=alpha, delta=delta, variance=variance))
    sim = _simulated_within(key, n, alpha, delta, variance)
    assert abs(got - sim) < 4 * np.sqrt(sim * (1 - sim) / 200_000)     # 4 standard errors
    assert 0.4 < got < 0.6          # at the n sized on the expected width: about half


def test_the_n_for_a_share_is_the_smallest_and_the_caveat_says_it():
    given = dict(alpha=0.01, delta=0.1, variance=0.1202)
    n = tss.ci_n(0.01, 0.1, 0.1202)
    keep = n_within("ci", 0.8, start=n, **given)
    assert within_probability("ci", keep, **given) >= 0.8 > within_probability("ci", keep - 1,
                                                                                **given)
    wider = 1 - float(within_probability("ci", n, **given))
    text = width_caveat("ci", n, {"alpha": 0.01, "delta": 0.1, "variance_t": 0.1202})
    assert f"at the {n} topics sized, {wider:.0%} of the intervals are wider than delta = 0.1; " \
           f"{keep} topics keep 80% of them within it" in text
