"""std-AB and std-CDF: the properties of AIRS 2016 Eqs. 2-3, and an independent pandas check."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from topicsetsize.errors import InputError
from topicsetsize.estimates.standardise import (
    StandardisationFactors,
    standardisation_factors,
    std_ab,
    std_cdf,
    z_scores,
)

# Scores on a 4-decimal grid, as evaluation tools print them (keeps float noise out of the
# "all scores equal" test that the zero-SD policy relies on).
grid = hnp.arrays(float, hnp.array_shapes(min_dims=2, max_dims=2, min_side=2, max_side=12),
                  elements=st.integers(0, 10_000).map(lambda k: k / 10_000))


def pandas_z(frame: pd.DataFrame, standardising: pd.DataFrame | None = None) -> pd.DataFrame:
    """z-scores from pandas: (x - topic mean) / topic sample SD over the standardising runs."""
    base = frame if standardising is None else standardising
    return frame.sub(base.mean(axis=1), axis=0).div(base.std(axis=1, ddof=1), axis=0)


@pytest.fixture(scope="module")
def web(data_dir) -> pd.DataFrame:
    return pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)


# ---- against an independent computation ---------------------------------------------------

def test_std_ab_matches_pandas(web):
    expected = (0.15 * pandas_z(web) + 0.5).clip(0, 1)
    pd.testing.assert_frame_equal(std_ab(web), expected, rtol=1e-12)


def test_std_cdf_matches_scipy_norm_cdf(web):
    z = pandas_z(web)
    expected = pd.DataFrame(stats.norm.cdf(z), index=web.index, columns=web.columns)
    pd.testing.assert_frame_equal(std_cdf(web), expected, rtol=1e-12)


def test_factors_are_topic_mean_and_sample_sd(web):
    f = standardisation_factors(web)
    pd.testing.assert_series_equal(f.mean, web.mean(axis=1), check_names=False, rtol=1e-14)
    pd.testing.assert_series_equal(f.sd, web.std(axis=1, ddof=1), check_names=False, rtol=1e-14)
    mean, sd = f                                   # a NamedTuple unpacks
    assert mean is f.mean and sd is f.sd


def test_new_runs_use_the_standardising_runs_factors(web):
    standardising, new = web.iloc[:, :60], web.iloc[:, 60:]
    f = standardisation_factors(standardising)
    expected = (0.15 * pandas_z(new, standardising) + 0.5).clip(0, 1)
    pd.testing.assert_frame_equal(std_ab(new, factors=f), expected, rtol=1e-12)
    # a plain (mean, sd) pair works too, and so do ndarrays for an ndarray matrix
    pd.testing.assert_frame_equal(std_ab(new, factors=(f.mean, f.sd)), expected, rtol=1e-12)
    out = std_ab(new.to_numpy(), factors=(f.mean.to_numpy(), f.sd.to_numpy()))
    np.testing.assert_allclose(out, expected.to_numpy(), rtol=1e-12)
    # a single new run is fine
    one = std_cdf(new.iloc[:, [0]], factors=f)
    np.testing.assert_allclose(one.iloc[:, 0], stats.norm.cdf(pandas_z(new, standardising)
                                                              .iloc[:, 0]), rtol=1e-12)


def test_series_factors_are_aligned_by_topic(web):
    f = standardisation_factors(web)
    shuffled = web.sample(frac=1.0, random_state=1)
    pd.testing.assert_frame_equal(std_ab(shuffled, factors=f), std_ab(web).loc[shuffled.index],
                                  rtol=1e-14)


# ---- types ----------------------------------------------------------------------------------

def test_same_type_out(web):
    assert isinstance(std_ab(web), pd.DataFrame)
    assert std_ab(web).index.equals(web.index) and std_ab(web).columns.equals(web.columns)
    assert isinstance(std_cdf(web.to_numpy()), np.ndarray)
    assert isinstance(std_ab(web.to_numpy().tolist()), np.ndarray)
    assert isinstance(standardisation_factors(web.to_numpy()).sd, np.ndarray)
    np.testing.assert_allclose(std_ab(web.to_numpy()), std_ab(web).to_numpy(), rtol=1e-14)


# ---- zero-SD policy -------------------------------------------------------------------------

def test_zero_sd_topic_scores_b_and_half():
    x = pd.DataFrame([[0.3, 0.3, 0.3], [0.1, 0.5, 0.9], [0.1, 0.1, 0.1]],
                     index=["same", "spread", "also same"], columns=["r1", "r2", "r3"])
    f = standardisation_factors(x)
    assert f.sd["same"] == 0.0 and f.sd["also same"] == 0.0
    ab = std_ab(x, b=0.4)
    cdf = std_cdf(x)
    assert not ab.isna().any().any() and not cdf.isna().any().any()
    assert (ab.loc[["same", "also same"]] == 0.4).all().all()
    assert (cdf.loc[["same", "also same"]] == 0.5).all().all()
    # a new run that differs from the (constant) standardising runs also gets z = 0 there
    new = pd.DataFrame({"new": [0.9, 0.5, 0.0]}, index=x.index)
    with np.errstate(all="raise"):               # no division by zero anywhere
        z = z_scores(new, factors=f)
    assert z.loc["same", "new"] == 0.0 and z.loc["also same", "new"] == 0.0
    assert z.loc["spread", "new"] == pytest.approx(0.0)


def test_repeated_decimal_topic_counts_as_zero_sd():
    # 0.1 three times: the float mean is not exactly 0.1, but every run scores the same.
    x = np.array([[0.1, 0.1, 0.1], [0.2, 0.4, 0.9]])
    assert standardisation_factors(x).sd[0] == 0.0
    assert (std_ab(x)[0] == 0.5).all()


# ---- bad input ------------------------------------------------------------------------------

def test_bad_parameters_and_factors(web):
    with pytest.raises(InputError, match=r"^a=-0.1 is out of range: allowed a > 0$"):
        std_ab(web, a=-0.1)
    with pytest.raises(InputError, match=r"^b='x' is not a number"):
        std_ab(web, b="x")
    # B outside (0, 1) once ran (B = -0.5, B = 1) or failed far from std_ab (B = 2: every score
    # clipped to 1, and Kendall's tau undefined)
    for b in (-0.5, 0, 1, 2, float("nan")):
        what = "out of range" if b == b else "not a finite number"
        with pytest.raises(InputError, match=rf"^b={b:g} is {what}: allowed 0 < b < 1$"):
            std_ab(web, b=b)
    with pytest.raises(InputError, match=r"^a=0 is out of range: allowed a > 0$"):
        std_ab(web, a=0)
    f = standardisation_factors(web)
    with pytest.raises(InputError, match=r"factors.mean has no value for topic 'q48'"):
        std_ab(web, factors=(f.mean.iloc[:-1], f.sd))
    with pytest.raises(InputError, match=r"factors.sd has 3 values but scores has 48 topics"):
        std_ab(web, factors=(f.mean, np.ones(3)))
    with pytest.raises(InputError, match=r"factors.sd=-1.0 at topic 'q01'"):
        std_ab(web, factors=(f.mean, f.sd.where(f.sd.index != "q01", -1.0)))
    with pytest.raises(InputError, match="factors must be a StandardisationFactors"):
        std_cdf(web, factors=0.5)
    with pytest.raises(InputError, match="needs at least 2 runs"):
        standardisation_factors(web.iloc[:, :1])


# ---- properties (hypothesis) ----------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(grid, st.floats(0.01, 2.0), st.floats(0.0, 1.0, exclude_min=True, exclude_max=True))
def test_before_clipping_topic_mean_is_b_and_sd_is_a(x, a, b):
    lin = std_ab(x, a=a, b=b, clip=False)
    varied = np.ptp(x, axis=1) > 0
    np.testing.assert_allclose(lin[varied].mean(axis=1), b, atol=1e-9)
    np.testing.assert_allclose(lin[varied].std(axis=1, ddof=1), a, rtol=1e-9)
    np.testing.assert_array_equal(lin[~varied], b)


@settings(max_examples=80, deadline=None)
@given(grid, st.data())
def test_invariant_to_positive_affine_change_per_topic(x, data):
    n = x.shape[0]
    scale = np.array(data.draw(st.lists(st.sampled_from([0.5, 2.0, 3.0, 100.0]), min_size=n,
                                        max_size=n)))
    shift = np.array(data.draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n)))
    np.testing.assert_allclose(std_ab(x * scale[:, None] + shift[:, None]), std_ab(x), atol=1e-9)
    np.testing.assert_allclose(std_ab(x * 100 + 7), std_ab(x), atol=1e-9)       # "unnormalised"
    np.testing.assert_allclose(std_cdf(x * 100 + 7), std_cdf(x), atol=1e-9)


@settings(max_examples=80, deadline=None)
@given(grid, st.floats(0.01, 5.0), st.floats(0.0, 1.0, exclude_min=True, exclude_max=True))
def test_clipped_values_stay_in_unit_interval(x, a, b):
    out = std_ab(x, a=a, b=b)
    assert np.isfinite(out).all() and (out >= 0).all() and (out <= 1).all()
    cdf = std_cdf(x)
    assert np.isfinite(cdf).all() and (cdf > 0).all() and (cdf < 1).all()


@settings(max_examples=60, deadline=None)
@given(grid)
def test_own_factors_reproduce_std_ab(x):
    f = standardisation_factors(x)
    np.testing.assert_array_equal(std_ab(x, factors=f), std_ab(x))
    np.testing.assert_array_equal(std_cdf(x, factors=StandardisationFactors(*f)), std_cdf(x))
    frame = pd.DataFrame(x, index=[f"t{k}" for k in range(x.shape[0])])
    pd.testing.assert_frame_equal(std_ab(frame, factors=standardisation_factors(frame)),
                                  std_ab(frame))
