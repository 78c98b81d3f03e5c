"""Tables: the published Table 2 as a grid, vectorised equals cell by cell."""

from __future__ import annotations

import pandas as pd
import pytest

import topicsetsize as tss


@pytest.mark.parametrize("method,column", [("legacy", "n_legacy"), ("exact", "n_exact")])
def test_anova_table_reproduces_table2(data_dir, method, column):
    ref = pd.read_csv(data_dir / "anova_table2_parts_I_II.csv")
    for (measure, variance), part in ref.groupby(["measure", "variance"]):
        table = tss.anova_table(0.05, beta=0.20, variance=variance, ms=sorted(part.m.unique()),
                                min_ds=sorted(part.min_d.unique()), method=method)
        expected = part.pivot(index="m", columns="min_d", values=column)
        assert (table.to_numpy() == expected.to_numpy()).all(), measure
        assert list(table.index) == list(expected.index)
        assert table.index.name == "m" and table.columns.name == "min_d"


def test_ttest_table_cells_equal_ttest_n():
    t = tss.ttest_table(0.01, beta=0.1, variance_t=[0.02, 0.2], min_dts=[0.01, 0.05, 0.1],
                        method="exact")
    for v in t.index:
        for d in t.columns:
            assert t.loc[v, d] == tss.ttest_n(0.01, 0.1, d, v, method="exact")


def test_table_bad_grid():
    with pytest.raises(ValueError, match=r"^m=1 is out of range"):
        tss.anova_table(0.05, beta=0.2, variance=0.06, ms=[1, 2], min_ds=[0.1])
    with pytest.raises(ValueError, match="alpha=.* must be a single number"):
        tss.anova_table([0.05, 0.01], beta=0.2, variance=0.06, ms=[2], min_ds=[0.1])


def test_arguments_after_alpha_are_keyword_only():
    with pytest.raises(TypeError):
        tss.anova_table(0.05, 0.20, 0.0601, [2, 10], [0.02, 0.1])
    with pytest.raises(TypeError):
        tss.ttest_table(0.05, 0.20, [0.04], [0.1])
    # AIRS 2016 Table 2, part I (MedNLPDoc raw recall, sigma^2 = .0601), legacy.
    t = tss.anova_table(0.05, min_ds=[0.02, 0.1], ms=[2, 10], variance=0.0601, beta=0.20)
    assert t.to_numpy().tolist() == [[2301, 93], [4680, 188]]
