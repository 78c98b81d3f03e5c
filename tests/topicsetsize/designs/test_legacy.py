"""The legacy approximations (designs/legacy.py): Nagata's initial estimate and the n from which
each approximation is monotone."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import topicsetsize as tss
from topicsetsize.designs.anova import anova_power_at
from topicsetsize.designs.legacy import _lambda_curve, _monotone_from
from topicsetsize.designs.ttest import ttest_power_at


def test_nagata_initial_estimate_is_far_from_the_answer():
    # AIRS 2016 Table 2 (part I): Nagata's n0 for m=2, minD=.02, var=.0601 is 2537; the answer 2301.
    assert int(tss.anova_initial_n(0.05, 0.20, 0.02, 0.0601, 2)) == 2537
    assert tss.anova_n(0.05, 0.20, 0.02, 0.0601, 2) == 2301


@pytest.mark.slow
def test_monotone_thresholds_hold():
    """The legacy power curves really are monotone from the thresholds the search relies on.

    Repeats the sweep documented in `_monotone_from`: beyond the threshold, any decrease of
    the legacy power in n happens only below the power levels the threshold covers.
    """
    n = np.arange(2, 3001, dtype=float)
    for alpha in (0.5, 0.05, 0.01, 1e-3, 1e-5, 1e-8):
        start = int(_monotone_from("anova", "legacy", alpha, 0.8))
        for m in (2, 3, 10, 100):
            for effect in np.geomspace(1e-3, 50, 40):
                p = np.nan_to_num(anova_power_at(n, m, effect, alpha, "legacy"), nan=-1.0)
                assert not (np.diff(p[start - 2:]) < -1e-13).any(), (alpha, m, effect)
        start = int(_monotone_from("ttest", "legacy", alpha, 0.8))
        for es in np.geomspace(1e-3, 20, 60):
            p = ttest_power_at(n, es, alpha, "legacy")
            drops = np.flatnonzero(np.diff(p) < 0) + 1
            drops = drops[n[drops] > start]
            assert (p[drops - 1] <= 10 * alpha).all(), (alpha, es)


@pytest.mark.parametrize("rows", [99, 140])      # every row exact; rows from φA = 100 on too
@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.20), (0.01, 0.10), (1e-4, 0.5), (0.5, 0.01)])
def test_exact_lambda_curve_matches_scipys_inverses(alpha, beta, rows):
    """The exact curve's Newton steps (issue 28.4) land where scipy's own inverses do: λ∞ from
    chndtrinc, and λ at the reference φE = 50(φA + 1) from ncfdtrinc at the exact F point
    (an independent computation); Nagata's start alone is off by up to 2.5%."""
    lam, slope = _lambda_curve(np.asarray(alpha), np.asarray(beta), np.arange(1.0, rows + 1.0),
                               "exact")
    df, lam, slope = np.arange(1.0, 100.0), lam[:99], slope[:99]      # the exact rows
    limit = special.chndtrinc(special.chdtri(df, alpha), df, beta)
    ref = 50.0 * (df + 1.0)
    at_ref = special.ncfdtrinc(df, ref, beta, special.fdtri(df, ref, 1.0 - alpha))
    np.testing.assert_allclose(lam, limit, rtol=1e-4)
    np.testing.assert_allclose(lam + slope / ref, at_ref, rtol=2e-4)
