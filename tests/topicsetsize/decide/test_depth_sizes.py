"""A pool depth study sized for the two-way ANOVA (``design="anova2"``): V_E2 at every depth,
pooled over the collections, and n against an independent exact search with scipy.

The runs and qrels in tests/data/pool_runs/ are synthetic (tests/data/PROVENANCE.md).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from topicsetsize.decide.anova_designs import check_design
from topicsetsize.decide.depth_sizes import variance_column
from topicsetsize.decide.pooling import pool_depth_study
from topicsetsize.errors import InputError

DATA = Path(__file__).resolve().parents[2] / "data" / "pool_runs"
RUNS = [str(DATA / c / "runs") for c in "AB"]
QRELS = [str(DATA / c / "qrels.txt") for c in "AB"]
ALPHA, BETA, M, MIN_D = 0.05, 0.20, 8, 0.05


def two_way_residual(x: np.ndarray) -> tuple[float, int]:
    """The two-way ANOVA's residual sum of squares and degrees of freedom, by hand."""
    x = np.asarray(x, float)
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    return float((resid ** 2).sum()), (x.shape[0] - 1) * (x.shape[1] - 1)


def scipy_two_way_n(variance: float) -> int:
    """The smallest n whose two-way ANOVA has power 1 − β, by a plain scan with scipy's
    noncentral F: df (m − 1, (m − 1)(n − 1)), λ = n·minD²/(2σ²) (Sakai, IRJ 2016, the
    least favourable configuration)."""
    n = 2
    while True:
        dfn, dfd = M - 1, (M - 1) * (n - 1)
        w = stats.f.isf(ALPHA, dfn, dfd)
        if stats.ncf.sf(w, dfn, dfd, n * MIN_D ** 2 / (2 * variance)) >= 1 - BETA:
            return n
        n += 1


@pytest.fixture(scope="module")
def studies():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {design: pool_depth_study(RUNS, qrels=QRELS, depths=[60, 10], measure="AP",
                                          m=M, min_d=MIN_D, alpha=ALPHA, beta=BETA,
                                          design=design, n_boot=400)
                for design in ("anova", "anova2")}


def test_v_e2_is_the_two_way_residual_pooled_over_the_collections(studies):
    study = studies["anova2"]
    for depth in (60, 10):
        parts = [two_way_residual(x) for x in study.scores[depth]]
        expected = sum(ss for ss, _ in parts) / sum(df for _, df in parts)
        assert study.table.loc[depth, "v_e2_raw"] == pytest.approx(expected, rel=1e-12)
    # the one-way columns are those of the default study, unchanged
    for column in ("v_e_raw", "v_e_std_ab", "judged", "docs_per_topic"):
        assert study.table[column].tolist() == studies["anova"].table[column].tolist()
    assert "v_e2_raw" not in studies["anova"].table        # the default table as before


def test_n_is_the_two_way_n_at_v_e2_by_an_independent_search(studies):
    study = studies["anova2"]
    assert study.table["n"].tolist() == [scipy_two_way_n(v) for v in study.table["v_e2_raw"]]
    assert study.note == ""                         # exact: no legacy shortfall to note
    assert (study.table["n"] < studies["anova"].table["n"]).all()    # topics as blocks
    assert study.table["cost"].tolist() == pytest.approx(
        (study.table["n"] * study.table["docs_per_topic"]).tolist())


def test_the_interval_resamples_the_two_way_variance(studies):
    table = studies["anova2"].table
    assert (table["n low"] <= table["n"]).all() and (table["n"] <= table["n high"]).all()
    assert (table["variance high"] >= table["v_e2_raw"]).all()
    # n high is the two-way n at variance high (the interval's own, as a budget plan reads it)
    assert table["n high"].tolist() == [scipy_two_way_n(v) for v in table["variance high"]]


def test_std_ab_takes_the_two_way_variance_of_std_ab_scores():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        study = pool_depth_study(RUNS[0], qrels=QRELS[0], depths=[30], measure="AP", m=M,
                                 min_d=MIN_D, design="anova2", variance_from="std-ab",
                                 n_boot=None)
    v = study.table.loc[30, variance_column("anova2", "std-ab")]
    assert study.table.loc[30, "n"] == scipy_two_way_n(v)
    assert v != study.table.loc[30, "v_e2_raw"]


def test_the_legacy_method_is_refused_before_any_run_is_read():
    with pytest.raises(InputError, match=r"^method='legacy' is the legacy Excel tools' "
                                         r"approximation of the one-way ANOVA: "
                                         r"design='anova2' is sized exactly"):
        pool_depth_study("no/such/folder", qrels="no/such/qrels", depths=[10], measure="AP",
                         m=M, min_d=MIN_D, design="anova2", method="legacy")
    with pytest.raises(InputError, match="design='anova3' is not one of"):
        check_design("anova3", None)
    assert check_design("anova", None) == ("anova", "legacy")
