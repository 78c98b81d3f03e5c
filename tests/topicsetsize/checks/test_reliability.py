"""Split-half reliability: Voorhees' published Table 1 row; a loop over scipy.stats.ttest_rel."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import topicsetsize.checks.reliability as rel
from topicsetsize.checks.reliability import (
    SplitHalfResult,
    random_splits,
    split_half,
    split_half_curve,
)
from topicsetsize.checks.selection import select_topics, top_runs
from topicsetsize.errors import InputError


@pytest.fixture(scope="module")
def robust(data_dir) -> pd.DataFrame:
    """TREC 2004 Robust AP, 249 topics x 110 runs (tests/data/PROVENANCE.md)."""
    return pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)


@pytest.fixture(scope="module")
def voorhees(robust) -> pd.DataFrame:
    """Voorhees' set-up: the top 75% of runs by MAP over all 249 topics, then topics 351-450."""
    return select_topics(top_runs(robust, fraction=0.75), spec="351-450")


def loop_split_half(x: np.ndarray, splits: np.ndarray, alpha: float) -> tuple[int, int, int]:
    """(significant, major, minor) by one scipy.stats.ttest_rel call per pair and half.

    Direct transcription of Voorhees (SIGIR 2009; docs/formulas.md §7); the direction of a half
    is the sign of its mean difference rounded to 12 decimals (a tie favours neither run).
    """
    h = splits.shape[1] // 2
    sig = major = minor = 0
    for row in splits:
        halves = (x[row[:h]], x[row[h:]])
        for a, b in itertools.combinations(range(x.shape[1]), 2):
            outcome = []
            for part in halves:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)   # constant differences
                    p = stats.ttest_rel(part[:, a], part[:, b]).pvalue
                outcome.append((bool(p < alpha), np.sign(round(np.mean(part[:, a] - part[:, b]),
                                                               12))))
            (sig_a, dir_a), (sig_b, dir_b) = outcome
            sig += sig_a + sig_b
            opposite = dir_a * dir_b < 0
            major += sig_a and sig_b and opposite
            minor += (sig_a != sig_b) and opposite
    return int(sig), int(major), int(minor)


# --------------------------------------------------------------------------------------------
# The published row: Voorhees, "Topic set size redux", SIGIR 2009, Table 1, MAP
# --------------------------------------------------------------------------------------------

PUBLISHED = dict(comparisons=6_806_000, significant=3_223_017, major=1_280, minor=86_364)

# Seed-to-seed standard deviation of each count, measured over seeds 0..19 of this
# implementation on the same set-up (1000 splits each); mean [min, max] in brackets:
#   significant 1,263 (3,223,867 [3,220,940, 3,226,349])
#   major          91 (1,188 [1,041, 1,403])
#   minor       1,806 (84,608 [80,780, 87,471])
#   % conflicted 0.058 (2.70 [2.58, 2.80])
# The published counts are a single random realisation too, so ours minus theirs has a standard
# deviation of sqrt(2) times these; the tolerance is 3 such standard deviations. (The published
# numbers sit at z = -0.7, +1.0, +1.0 and +1.0 from our 20-seed means.)
SEED_SD = dict(significant=1263, major=91, minor=1806, conflicted_pct=0.058)


def tolerance(name: str) -> float:
    return 3 * math.sqrt(2) * SEED_SD[name]


def test_voorhees_setup_sizes(robust, voorhees):
    # Voorhees (2009): 110 Robust 2004 runs, the top 75% = 83 runs, topics 351-450.
    assert robust.shape == (249, 110)
    assert voorhees.shape == (100, 83)
    assert voorhees.index.min() == 351 and voorhees.index.max() == 450
    means = robust.mean()
    assert means[voorhees.columns].min() > means.drop(voorhees.columns).max()


def test_published_conflicted_pct_is_2_major_plus_minor_over_significant():
    # The definition (Voorhees, SIGIR 2009) reproduces the published 2.8% from the published counts.
    pct = 100 * (2 * PUBLISHED["major"] + PUBLISHED["minor"]) / PUBLISHED["significant"]
    assert round(pct, 1) == 2.8


def test_voorhees_table1_map_row(voorhees):
    r = split_half(voorhees, trials=1000, alpha=0.05, seed=2009)
    # comparisons = 1000 splits x C(83, 2) pairs x 2 halves: exact
    assert r.comparisons == PUBLISHED["comparisons"] == 1000 * math.comb(83, 2) * 2
    for name in ("significant", "major", "minor"):
        assert abs(getattr(r, name) - PUBLISHED[name]) <= tolerance(name), name
    published_pct = 100 * (2 * 1280 + 86364) / 3223017
    assert abs(r.conflicted_pct - published_pct) <= tolerance("conflicted_pct")
    assert r.conflicted_pct == pytest.approx(100 * (2 * r.major + r.minor) / r.significant)
    assert (r.half, r.trials, r.topics, r.runs, r.pairs) == (50, 1000, 100, 83, 3403)


# --------------------------------------------------------------------------------------------
# Exact agreement with a loop over scipy.stats.ttest_rel
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("half", [15, 8])          # all 30 topics used / 14 topics left out
def test_counts_equal_scipy_loop_on_robust(voorhees, half):
    # 6 runs including sys67 and sys69, which are identical (differences all 0: never significant)
    runs = ["sys67", "sys69"] + [c for c in voorhees.columns if c not in ("sys67", "sys69")][:4]
    x = voorhees[runs].iloc[:30]
    splits = random_splits(30, trials=20, half=half, seed=11)
    r = split_half(x, trials=20, half=half, seed=11)
    assert (r.significant, r.major, r.minor) == loop_split_half(x.to_numpy(), splits, 0.05)
    assert r.significant > 0 and r.minor > 0


def test_counts_equal_scipy_loop_on_boolean_scores():
    # 0/1 scores with halves of 4: many halves have constant differences (zero variance):
    # scipy gives t = inf (significant) for constant non-zero and NaN for all-zero differences.
    rng = np.random.default_rng(5)
    x = (rng.random((12, 6)) < [0.2, 0.5, 0.5, 0.8, 0.9, 0.95]).astype(float)
    splits = random_splits(12, trials=20, half=4, seed=3)
    r = split_half(x, trials=20, half=4, seed=3, alpha=0.1)
    assert (r.significant, r.major, r.minor) == loop_split_half(x, splits, 0.1)
    d = x[splits[:, :4]][:, :, 4] - x[splits[:, :4]][:, :, 0]    # runs 5 vs 1 in half A
    constant = (d == d[:, :1]).all(axis=1)
    assert constant.any() and (d[constant, 0] != 0).any()       # the degenerate path is used


def test_all_zero_differences_in_a_half_are_never_significant():
    # Runs that differ from a base run on one topic only: every split has a half whose
    # differences are all 0 (t undefined, as in scipy), while the shifted sums that the
    # vectorised test uses round to tiny non-zero values there. A comparison without the
    # zero-variance rule (num > crit * den) finds 72 "significant" results here; scipy none.
    rng = np.random.default_rng(1)
    base = np.round(rng.random(16), 4)
    cols = [base]
    for v in (0.1234, 0.3, 0.77, 0.0457, 0.9, 0.61, 0.2718):
        c = base.copy()
        c[int(rng.integers(16))] += v
        cols.append(np.round(c, 4))
    x = np.column_stack(cols)
    r = split_half(x, trials=10, seed=1)
    assert (r.significant, r.major, r.minor) == loop_split_half(
        x, random_splits(16, trials=10, seed=1), 0.05) == (0, 0, 0)


def test_random_splits_are_disjoint_and_uniform():
    s = random_splits(10, trials=4000, half=3, seed=8)
    assert s.shape == (4000, 6)
    assert all(len(set(row)) == 6 for row in s.tolist())
    share = np.bincount(s[:, :3].ravel(), minlength=10) / 4000   # each topic is in A w.p. 0.3
    assert np.all(np.abs(share - 0.3) < 4 * math.sqrt(0.3 * 0.7 / 4000))


def test_chunking_and_pair_blocks_do_not_change_counts(voorhees, monkeypatch):
    x = voorhees.iloc[:, :20]
    want = split_half(x, trials=50, seed=4)
    monkeypatch.setattr(rel, "_CHUNK_ELEMENTS", 64)      # 1 trial per chunk
    monkeypatch.setattr(rel, "_BLOCK_ELEMENTS", 700)     # 7 pairs per block, not cached
    assert split_half(x, trials=50, seed=4) == want


def test_seed_reproducibility_and_progress(voorhees):
    calls = []
    a = split_half(voorhees, trials=30, seed=1, progress=calls.append)
    assert split_half(voorhees, trials=30, seed=1) == a
    assert split_half(voorhees, trials=30, seed=2) != a
    assert sum(calls) == 30 and all(c > 0 for c in calls)


def test_curve_rows_equal_split_half_and_conflicts_fall_with_n(voorhees):
    curve = split_half_curve(voorhees, halves=[10, 25, 50], trials=100, seed=6)
    for h in (10, 25, 50):
        r = split_half(voorhees, trials=100, half=h, seed=6)
        assert curve.loc[h, "major"] == r.major and curve.loc[h, "minor"] == r.minor
    # More topics per half: more significant results and a smaller share of them conflicted.
    assert curve["conflicted_pct"].is_monotonic_decreasing
    assert curve["significant"].is_monotonic_increasing


def test_no_significant_result_gives_nan_pct():
    x = np.tile(np.arange(8.0)[:, None], (1, 3))              # three identical runs
    r = split_half(x, trials=5, seed=0)
    assert (r.significant, r.major, r.minor) == (0, 0, 0) and math.isnan(r.conflicted_pct)


@pytest.mark.parametrize("kwargs, message", [
    (dict(half=51), "half=51 is out of range: allowed 2 <= half <= 50"),
    (dict(half=1), "half=1 is out of range"),
    (dict(trials=0), "trials=0 is out of range"),
    (dict(alpha=1.5), "alpha=1.5 is out of range"),
])
def test_split_half_errors_name_the_argument(voorhees, kwargs, message):
    with pytest.raises(InputError, match=message) as err:
        split_half(voorhees, **kwargs)
    assert "\n" not in str(err.value)


def test_split_half_rejects_missing_values_and_tiny_matrices():
    with pytest.raises(InputError, match="non-finite value"):
        split_half([[0.1, 0.2], [np.nan, 0.3], [0.1, 0.1], [0.2, 0.3]])
    with pytest.raises(InputError, match="at least 4 topics"):
        split_half([[0.1, 0.2], [0.3, 0.3], [0.1, 0.4]])


def test_result_is_frozen():
    r = SplitHalfResult(20, 5, 1, 1, 60.0, 2, 2, 0.05, 4, 3)
    with pytest.raises(AttributeError):
        r.major = 2
