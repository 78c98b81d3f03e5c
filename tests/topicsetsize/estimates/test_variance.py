"""Residual variances: published values (Sakai's book, Table 5.1) and independent computations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

import topicsetsize as tss
from topicsetsize.estimates.variance import (
    pooled_variance,
    residual_df,
    residual_variance,
    two_way_residual_variance,
)

MATRICES = ["sakai_book_table5_1.csv", "trec2010web_ap.csv", "trec2004robust_ap.csv"]


def load(data_dir, name) -> pd.DataFrame:
    return pd.read_csv(data_dir / name, index_col=0)


def loop_one_way(x) -> float:
    """V_E by plain loops over runs and topics (AIRS 2016 Eq. 1)."""
    x = np.asarray(x, dtype=float).tolist()
    n, m = len(x), len(x[0])
    total = 0.0
    for i in range(m):
        run = [x[j][i] for j in range(n)]
        mean = sum(run) / n
        total += sum((v - mean) ** 2 for v in run)
    return total / (m * (n - 1))


def loop_two_way(x) -> float:
    """V_E2 by plain loops: residual sum of squares / ((m-1)(n-1))."""
    x = np.asarray(x, dtype=float).tolist()
    n, m = len(x), len(x[0])
    run_mean = [sum(x[j][i] for j in range(n)) / n for i in range(m)]
    topic_mean = [sum(row) / m for row in x]
    grand = sum(map(sum, x)) / (n * m)
    ss = sum((x[j][i] - run_mean[i] - topic_mean[j] + grand) ** 2
             for i in range(m) for j in range(n))
    return ss / ((m - 1) * (n - 1))


# ---- the published 20 x 3 example ---------------------------------------------------------

def test_book_example_one_way(data_dir):
    # Sakai's book, Table 5.1 (docs/formulas.md §9): V_E = 0.0326491228...
    assert residual_variance(load(data_dir, "sakai_book_table5_1.csv")) == pytest.approx(
        0.0326491228, abs=1e-10)


def test_book_example_two_way(data_dir):
    # Sakai's book, Table 5.1 (docs/formulas.md §9): V_E2 = 0.0218859649..., S_E = 0.8317
    x = load(data_dir, "sakai_book_table5_1.csv")
    v2 = two_way_residual_variance(x)
    assert v2 == pytest.approx(0.0218859649, abs=1e-10)
    assert v2 * (3 - 1) * (20 - 1) == pytest.approx(0.8317, abs=5e-5)


def test_book_example_system_f_matches_published_and_scipy(data_dir):
    # Sakai's book, Table 5.1: S_A = 0.1083, F for systems = 2.475 (two-way), p = .098.
    x = load(data_dir, "sakai_book_table5_1.csv").to_numpy()
    s_a = 20 * ((x.mean(axis=0) - x.mean()) ** 2).sum()
    assert s_a == pytest.approx(0.1083, abs=5e-5)
    f = (s_a / 2) / two_way_residual_variance(x)
    assert f == pytest.approx(2.475, abs=5e-4)
    assert stats.f.sf(f, 2, 38) == pytest.approx(0.098, abs=5e-4)


# ---- independent computations on the real matrices ------------------------------------------

@pytest.mark.parametrize("name", MATRICES)
def test_one_way_matches_loop_and_scipy_f_oneway(data_dir, name):
    x = load(data_dir, name)
    v = residual_variance(x)
    assert v == pytest.approx(loop_one_way(x), rel=1e-12)
    # f_oneway's F = MS_between / MS_within, and MS_within is V_E.
    arr = x.to_numpy()
    n, m = arr.shape
    ms_between = n * ((arr.mean(axis=0) - arr.mean()) ** 2).sum() / (m - 1)
    f = stats.f_oneway(*arr.T).statistic
    assert v == pytest.approx(ms_between / f, rel=1e-10)


@pytest.mark.parametrize("name", MATRICES)
def test_two_way_matches_loop(data_dir, name):
    x = load(data_dir, name)
    assert two_way_residual_variance(x) == pytest.approx(loop_two_way(x), rel=1e-12)


def test_dataframe_and_array_agree(data_dir):
    x = load(data_dir, "trec2010web_ap.csv")
    # Only the summation order (memory layout) may differ.
    assert residual_variance(x) == pytest.approx(residual_variance(x.to_numpy()), rel=1e-14)
    assert residual_variance(x) == pytest.approx(residual_variance(x.to_numpy().tolist()),
                                                 rel=1e-14)
    assert two_way_residual_variance(x) == pytest.approx(
        two_way_residual_variance(x.to_numpy()), rel=1e-14)


# ---- pooling --------------------------------------------------------------------------------

def test_pooled_is_df_weighted(data_dir):
    a = load(data_dir, "trec2010web_ap.csv")
    b = load(data_dir, "sakai_book_table5_1.csv")
    for estimator, fn, df in (("one-way", loop_one_way, lambda n, m: m * (n - 1)),
                              ("two-way", loop_two_way, lambda n, m: (m - 1) * (n - 1))):
        wa, wb = df(*a.shape), df(*b.shape)
        expected = (wa * fn(a) + wb * fn(b)) / (wa + wb)
        assert pooled_variance([a, b], estimator=estimator) == pytest.approx(expected, rel=1e-12)
        assert residual_df(a, estimator=estimator) == wa


def test_pooled_of_one_matrix_is_its_variance(data_dir):
    a = load(data_dir, "trec2010web_ap.csv")
    assert pooled_variance([a]) == pytest.approx(residual_variance(a), rel=1e-14)
    assert pooled_variance((a,), estimator="TWO-WAY") == pytest.approx(
        two_way_residual_variance(a), rel=1e-14)


def test_pooled_bad_input():
    x = [[0.1, 0.2], [0.3, 0.5]]
    with pytest.raises(tss.InputError, match=r"^estimator='three-way' is not one of"):
        pooled_variance([x], estimator="three-way")
    with pytest.raises(tss.InputError, match="got a single matrix"):
        pooled_variance(np.array(x))
    with pytest.raises(tss.InputError, match="is empty"):
        pooled_variance([])
    with pytest.raises(tss.InputError, match=r"^matrices\[1\]: non-numeric value 'x' at row 2"):
        pooled_variance([x, [[0.1, 0.2], ["x", 0.3]]])


# ---- bad matrices ---------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [residual_variance, two_way_residual_variance])
def test_bad_matrices(fn):
    with pytest.raises(tss.InputError, match=r"missing or non-finite value nan at row 2, column 1"):
        fn([[0.1, 0.2], [np.nan, 0.3]])
    frame = pd.DataFrame({"r1": [0.1, 0.2], "r2": [0.3, np.inf]}, index=["t1", "t2"])
    with pytest.raises(tss.InputError, match=r"inf at topic 't2', run 'r2'"):
        fn(frame)
    with pytest.raises(tss.InputError, match="needs at least 2 runs"):
        fn([[0.1], [0.2]])
    with pytest.raises(tss.InputError, match="needs at least 2 topics"):
        fn([[0.1, 0.2]])
    with pytest.raises(tss.InputError, match="2-D"):
        fn([0.1, 0.2, 0.3])


# ---- properties -----------------------------------------------------------------------------

grid = hnp.arrays(float, hnp.array_shapes(min_dims=2, max_dims=2, min_side=2, max_side=12),
                  elements=st.integers(0, 10_000).map(lambda k: k / 10_000))


@settings(max_examples=60, deadline=None)
@given(grid, st.data())
def test_shift_invariance(x, data):
    """One-way V_E ignores a constant added to a run; two-way also one added to a topic."""
    n, m = x.shape
    run_shift = np.array(data.draw(st.lists(st.integers(-5, 5), min_size=m, max_size=m)))
    topic_shift = np.array(data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n)))
    assert residual_variance(x + run_shift) == pytest.approx(residual_variance(x), abs=1e-12)
    assert two_way_residual_variance(x + run_shift + topic_shift[:, None]) == pytest.approx(
        two_way_residual_variance(x), abs=1e-12)
    assert residual_variance(x) == pytest.approx(loop_one_way(x), abs=1e-12)


def _near_constant(scale: float = 1.0, noise: float = 1e-15) -> np.ndarray:
    """Scores of 0.5 (times ``scale``) that vary at ``noise`` of their size only."""
    rng = np.random.default_rng(1)
    return scale * (0.5 + rng.normal(size=(30, 5)) * noise)


@pytest.mark.parametrize("scale", [1.0, 1e-20, 1e6])
def test_rounding_level_variation_is_constant_for_v_e_and_the_g_study_alike(scale):
    # Issue 24, point 14: varying at 1e-15, the matrix gave a G-study of zeros (its mean
    # squares below the rounding floor) but a V_E of 1e-31 that Sakai's n took for signal.
    # One rule, relative to the scores' size, for both: refused as constant, saying so.
    from topicsetsize.estimates.gtheory import g_study
    from topicsetsize.estimates.summary import summarise

    x = _near_constant(scale)
    message = r"^scores vary only at rounding level .* treated as constant, by V_E and the " \
              r"G-study alike: "
    for estimate in (summarise, g_study):
        with pytest.raises(tss.InputError, match=message):
            estimate(x)


def test_variation_above_the_rounding_level_is_signal_for_both():
    from topicsetsize.estimates.gtheory import g_study
    from topicsetsize.estimates.summary import summarise

    x = _near_constant(noise=1e-9)      # a thousand times the rounding level: kept
    spread = x - x.mean(axis=0)
    expected = (spread ** 2).sum() / (x.size - x.shape[1])      # AIRS 2016 Eq. 1, by hand
    assert summarise(x).var_raw == pytest.approx(expected, rel=1e-9)
    assert g_study(x).var_e > 0
