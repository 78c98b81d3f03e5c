"""The effect sizes (designs/effects.py): no overflow or underflow at extreme scales."""

from __future__ import annotations

import numpy as np
import pytest

import topicsetsize as tss


def test_anova_effect_does_not_overflow_or_underflow():
    from topicsetsize.designs.effects import anova_effect

    # Delta = minD^2/(2 sigma^2) = (minD/sigma)^2/2; minD^2 overflows (or underflows) alone.
    assert anova_effect(1e200, 1e200) == pytest.approx(0.5e200, rel=1e-15)
    assert anova_effect(1e-200, 1e-300) == pytest.approx(0.5 * 1e-400 / 1e-300, rel=1e-15)
    both = anova_effect(np.array([0.1, 1e200]), np.array([0.005, 1e200]))
    assert both[0] == 0.1 * 0.1 / (2 * 0.005) and both[1] == pytest.approx(0.5e200, rel=1e-15)
    assert anova_effect(0.1, 0.005) == 0.1 * 0.1 / 0.01          # the usual formula, bit for bit
    assert tss.anova_power(10, m=3, min_d=1e200, variance=1e200, alpha=0.05,
                           method="exact") == pytest.approx(1.0)
