"""summarise: one Table-1 row, checked on the bundled TREC 2010 Web matrix by independent means."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tests.topicsetsize.estimates.test_standardise import pandas_z
from topicsetsize.errors import InputError
from topicsetsize.estimates.summary import VarianceSummary, summarise, summarise_many


@pytest.fixture(scope="module")
def web(data_dir) -> pd.DataFrame:
    return pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)


def independent_row(frame: pd.DataFrame, a: float = 0.15, b: float = 0.5) -> dict:
    """Table 1 row from pandas and scipy only.

    V_E (AIRS 2016 Eq. 1) is the mean over runs of each run's sample variance over topics;
    std-AB is A*(x - topic mean)/topic SD + B clipped to [0, 1]; tau is scipy's, between the
    rankings by mean raw and mean std-AB score; CI = tau -+ z_.025 sqrt(2(2m+5)/(9m(m-1))).
    """
    std = (a * pandas_z(frame) + b).clip(0, 1)
    m = frame.shape[1]
    tau = stats.kendalltau(frame.mean(), std.mean()).statistic
    half = stats.norm.ppf(0.975) * math.sqrt(2 * (2 * m + 5) / (9 * m * (m - 1)))
    return dict(runs=m, topics=frame.shape[0], var_raw=frame.var().mean(),
                var_std_ab=std.var().mean(), tau=tau, tau_ci_low=tau - half,
                tau_ci_high=tau + half)


@pytest.mark.parametrize("a, b", [(0.15, 0.5), (0.3, 0.4)])
def test_bundled_matrix_against_independent_computation(web, a, b):
    row = summarise(web, a=a, b=b)
    expected = independent_row(web, a, b)
    assert (row.runs, row.topics) == (88, 48)
    for key, value in expected.items():
        assert getattr(row, key) == pytest.approx(value, rel=1e-10), key


def test_robust04_against_independent_computation(data_dir):
    frame = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    row = summarise(frame.to_numpy())                     # an ndarray works the same
    for key, value in independent_row(frame).items():
        assert getattr(row, key) == pytest.approx(value, rel=1e-10), key


def test_standardisation_suppresses_the_variance_of_a_scaled_matrix(web):
    # The M-measure case of the paper: an unnormalised measure has a huge raw V_E but the
    # same std-AB V_E and ranking as its normalised version.
    scaled = web * 100 + 7
    raw, big = summarise(web), summarise(scaled)
    assert big.var_raw == pytest.approx(raw.var_raw * 100 ** 2, rel=1e-12)
    assert big.var_std_ab == pytest.approx(raw.var_std_ab, rel=1e-9)
    assert big.tau == pytest.approx(raw.tau, rel=1e-12)


def test_named_result(web):
    row = summarise(web)
    assert isinstance(row, VarianceSummary)
    assert (row.runs, row.topics) == (88, 48)
    assert row.to_dict()["var_raw"] == row.var_raw == row.as_dict()["var_raw"]
    frame = row.to_frame("web")
    assert frame.index.tolist() == ["web"] and frame.index.name == "matrix"
    assert frame.columns.tolist() == [f.name for f in dataclasses.fields(VarianceSummary)]
    assert frame.loc["web", "tau_ci_high"] == row.tau_ci_high


def test_summarise_many(web, data_dir):
    book = pd.read_csv(data_dir / "sakai_book_table5_1.csv", index_col=0)
    table = summarise_many({"web": web, "book": book})
    assert table.index.tolist() == ["web", "book"]
    assert table.loc["book", "var_raw"] == pytest.approx(book.var().mean(), rel=1e-12)
    assert table.loc["web", "tau"] == summarise(web).tau
    unnamed = summarise_many([book, book.to_numpy()])
    assert unnamed.index.tolist() == ["0", "1"]
    np.testing.assert_allclose(unnamed.iloc[0], unnamed.iloc[1], rtol=1e-12)
    with pytest.raises(InputError, match="matrices is empty"):
        summarise_many({})
    with pytest.raises(InputError, match=r"^a=0 is out of range: allowed a > 0$"):
        summarise(book, a=0)


@pytest.mark.slow          # statsmodels' formula ANOVA of 4,224 rows: 3-6 s
def test_two_way_variances_against_statsmodels(web):
    # the residual mean square of statsmodels' two-way ANOVA (runs + topics, no interaction)
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    from topicsetsize.estimates.standardise import std_ab

    row = summarise(web)
    for frame, value in [(web, row.var2_raw), (std_ab(web), row.var2_std_ab)]:
        frame = pd.DataFrame(frame, index=web.index, columns=web.columns)
        long = frame.stack().rename("y").rename_axis(["topic", "run"]).reset_index()
        table = anova_lm(ols("y ~ C(run) + C(topic)", data=long).fit())
        assert value == pytest.approx(table.loc["Residual", "mean_sq"], rel=1e-9)
    assert row.var2_raw < row.var_raw          # AP: topics differ much in difficulty


def test_old_seven_field_rows_still_construct():
    row = VarianceSummary(14, 78, 0.0597, 0.0139, 0.978, 0.585, 1.371)
    assert math.isnan(row.var2_raw) and math.isnan(row.var2_std_ab)


@pytest.mark.parametrize("a, warned", [(0.15, False), (0.5, True), (5.0, True)])
def test_a_std_ab_that_clips_most_scores_says_so(web, a, warned):
    """A review (2026-12-07): ``variance --a 5`` printed V_E std-AB .1973 of TREC 2010 Web AP
    without a word, 93% of its scores clipped. The share stated is recomputed with pandas: the
    z-scores' A·z + B outside (0, 1), which std-AB clips to 0 or 1."""
    import re
    import warnings

    from topicsetsize.estimates.standardise import CLIPPED_SHARE, ClippedScoresWarning

    linear = a * pandas_z(web) + 0.5
    share = float(((linear <= 0) | (linear >= 1)).to_numpy().mean())
    assert (share > CLIPPED_SHARE) == warned                # the threshold decides, as stated
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        summarise(web, a=a)
    said = [str(w.message) for w in caught if w.category is ClippedScoresWarning]
    assert len(said) == int(warned)
    if warned:
        assert re.search(rf"A={a:g}, B=0.5 clips {share:.0%} of ", said[0]), said[0]
    if a == 5.0:
        assert f"{share:.0%}" == "93%"                          # the review's figure
    # a B near an end of [0, 1] clips too, at the paper's A: the warning names both
    with pytest.warns(ClippedScoresWarning, match=r"A=0.15, B=0.95 clips \d+% of "):
        summarise(web, b=0.95)


def test_tied_std_ab_means_leave_tau_undefined_not_the_variances():
    # a review, 2026-12-07: a 6 x 2 matrix whose runs each win on 3 topics (raw means .350 and
    # .208) was refused, V_E and all, as "the matrix shows no difference between runs": two
    # runs' std-AB z-scores are +-1/sqrt(2) on every topic, so their means tie whenever wins
    # equal losses. Only Kendall's tau needs ranked means: it is NaN, with a warning, and
    # the variances are those of the independent computation
    from topicsetsize.estimates.summary import UndefinedTauWarning

    scores = pd.DataFrame({"a": [0.1, 0.3, 0.5, 0.6, 0.2, 0.4],
                           "b": [0.2, 0.35, 0.1, 0.2, 0.3, 0.1]})
    with pytest.warns(UndefinedTauWarning, match=r"mean std-AB scores are all equal .*: "
                      r"Kendall's tau .* is undefined .*each wins on as many topics as it"):
        row = summarise(scores)
    assert math.isnan(row.tau) and math.isnan(row.tau_ci_low) and math.isnan(row.tau_ci_high)
    want = ((scores - scores.mean()) ** 2).to_numpy().sum() / (6 * 2 - 2)  # V_E, phi_E = m(n-1)
    assert row.var_raw == pytest.approx(want, rel=1e-12) and row.runs == 2
    z = pandas_z(scores)
    assert np.allclose(np.abs(z.to_numpy()), 1 / math.sqrt(2))     # why the means tie
    # every run a copy of one is still refused: one system, not two
    with pytest.raises(InputError, match="no difference between runs to design for"):
        summarise(pd.DataFrame({"a": [0.1, 0.3, 0.5], "b": [0.1, 0.3, 0.5]}))
