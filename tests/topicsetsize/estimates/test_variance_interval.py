"""σ̂²'s interval over the topics: the resamples' quantiles at Hesterberg's expanded tails."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.estimates.uncertainty import bootstrap_variances
from topicsetsize.estimates.variance_interval import variance_interval
from topicsetsize.examples import example_matrix


@pytest.mark.parametrize(("estimator", "scale"), [("one-way", "raw"), ("two-way", "std-ab")])
def test_the_limits_are_the_resamples_at_the_expanded_tails(estimator, scale):
    # the tails computed here from scipy's t and normal (Hesterberg 2015, section 4: z' =
    # sqrt(N/(N-1)) t_{N-1,.975}), the quantiles as order statistics of the same resamples
    scores = example_matrix()
    n = len(scores)
    z = np.sqrt(n / (n - 1)) * stats.t.ppf(0.975, n - 1)
    tails = stats.norm.cdf([-z, z])
    resampled = np.sort(bootstrap_variances(scores, estimator=estimator, scale=scale,
                                            n_boot=2000, seed=0))
    want = [resampled[int(np.ceil(t * 2000)) - 1] for t in tails]     # inverted_cdf
    ci = variance_interval(scores, estimator=estimator, scale=scale)
    assert (ci.low, ci.high) == pytest.approx(want, rel=1e-15)
    estimate = (tss.residual_variance if estimator == "one-way" else tss.two_way_residual_variance)(
        tss.std_ab(scores) if scale == "std-ab" else scores)
    assert ci.low < estimate < ci.high
    assert (ci.level, ci.n_boot, ci.seed) == (0.95, 2000, 0)


def test_the_same_seed_gives_the_same_interval_and_another_a_close_one():
    scores = example_matrix()
    a, b, c = (variance_interval(scores, seed=s) for s in (0, 0, 1))
    assert a == b and a != c and c.high == pytest.approx(a.high, rel=0.05)
