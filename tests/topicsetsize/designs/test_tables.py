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


def test_a_repeated_row_or_column_value_is_refused():
    # a table's rows and columns are labels: anova_table (and TSS_TABLE_ANOVA) gave two rows
    # m = 2 where the command line refuses the repeat (a reviewer's find)
    import topicsetsize as tss
    from topicsetsize.errors import InputError

    with pytest.raises(InputError, match="^m=2 is given twice: give each value once$"):
        tss.anova_table(0.05, beta=0.2, variance=0.1, ms=[2, 10, 2], min_ds=[0.1])
    with pytest.raises(InputError, match="^min_dt=0.1 is given twice"):
        tss.ttest_table(0.05, beta=0.2, variance_t=[0.1], min_dts=[0.1, 0.1])
