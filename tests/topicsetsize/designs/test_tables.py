"""Tables over a grid (designs/tables.py): bad grids."""

from __future__ import annotations

import pytest

import topicsetsize as tss
from topicsetsize.errors import InputError


def test_table_bad_grid():
    with pytest.raises(InputError, match=r"^m=1 is out of range"):
        tss.anova_table(0.05, beta=0.2, variance=0.06, ms=[1, 2], min_ds=[0.1])
    with pytest.raises(InputError, match="alpha=.* must be a single number"):
        tss.anova_table([0.05, 0.01], beta=0.2, variance=0.06, ms=[2], min_ds=[0.1])
