"""Tests of topicsetsize.decide.realistic: the candidate minD values of real matrices, their
shares counted by hand over the run pairs and their n checked against the engine's functions.

The matrices: TREC 2010 Web AP (the bundled example, 88 runs of which 10 are copies of others)
and TREC 2004 Robust AP (tests/data, 110 runs, sys69 a copy of sys67). The candidates count each
run once: the expected values below are computed on the matrix without its copies, dropped here
by pandas (``distinct``), independently of topicsetsize.matrices.copies; V_E and V_E2 keep every
run.
"""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.decide.realistic import realistic_min_d
from topicsetsize.errors import InputError
from topicsetsize.estimates.differences import run_differences
from topicsetsize.matrices.copies import IdenticalRunsWarning

pytestmark = pytest.mark.filterwarnings("ignore::topicsetsize.matrices.copies.IdenticalRunsWarning")


@pytest.fixture
def scores(real_scores):
    """TREC 2010 Web AP and TREC 2004 Robust AP (tests/conftest.py)."""
    return real_scores


def distinct(scores: pd.DataFrame) -> pd.DataFrame:
    """The matrix without the runs that repeat an earlier run on every topic (pandas)."""
    return scores.T.drop_duplicates().T


@pytest.mark.slow
def test_candidates_and_their_n(scores):
    table = realistic_min_d(scores, top_k=10, alpha=0.05, beta=0.2)
    d = run_differences(distinct(scores), top_k=10)
    assert table.loc["top-k range", "uncorrected"] == d.top_range
    assert table.loc["top-k median", "uncorrected"] == pytest.approx(
        statistics.median(d.top_pairs))
    assert table.loc["all-pairs median", "share"] >= 0.5     # the median: half differ more
    # the n from V_E and V_E2 of every run, copies kept
    v1, v2 = tss.residual_variance(scores), tss.two_way_residual_variance(scores)
    for _, row in table.iterrows():
        assert row["n one-way legacy"] == tss.anova_n(0.05, 0.2, row["min_d"], v1, 10)
        assert row["n one-way exact"] == tss.anova_n(0.05, 0.2, row["min_d"], v1, 10,
                                                     method="exact")
        assert row["n two-way exact"] == tss.anova2_n(0.05, 0.2, row["min_d"], v2, 10)
    # smaller differences need more topics
    order = table.sort_values("min_d")
    assert np.all(np.diff(order["n one-way exact"].to_numpy(float)) <= 0)


@pytest.mark.slow
def test_own_candidates_are_added(scores):
    table = realistic_min_d(scores, candidates=[0.05, 0.1])
    assert table.index[-2:].tolist() == ["minD=0.05", "minD=0.1"]
    d = run_differences(distinct(scores)).all_pairs
    assert table.loc["minD=0.1", "share"] == sum(1 for x in d if x >= 0.1) / len(d)
    v2 = tss.two_way_residual_variance(scores)
    assert table.loc["minD=0.05", "n two-way exact"] == tss.anova2_n(0.05, 0.2, 0.05, v2, 10)
    with pytest.raises(InputError, match=r"^min_d=-1 is out of range"):
        realistic_min_d(scores, candidates=[-1])


def test_a_copy_is_counted_once_in_the_candidates_and_kept_in_the_variances():
    # the best run twice: its copy is not another system, so the top two are columns 1 and 3
    # (means .4 and 1/6), not the copy's difference of 0; V_E is that of all three columns
    x = np.array([[0.5, 0.5, 0.1], [0.3, 0.3, 0.2], [0.4, 0.4, 0.2]])
    with pytest.warns(IdenticalRunsWarning) as caught:
        table = realistic_min_d(x, top_k=2)
    assert [str(w.message) for w in caught] == [
        "1 run is a copy of another (identical scores on every topic): column 2 = column 1; "
        "counted once (a copy is not another system): in the differences between run means and "
        "the minD candidates; the variance estimates (V_E, V_E2, the G-study's components) keep "
        "every run"]
    assert table.loc["top-k range", "uncorrected"] == pytest.approx(0.4 - 1 / 6)
    assert table.loc["top-k range", "min_d"] > 0
    assert not pd.isna(table.loc["top-k range", "n one-way exact"])
    assert table.attrs["copies"] == (("column 2", "column 1"),)
    assert table.attrs["variance"] == tss.residual_variance(x)
    assert table.attrs["variance"] != tss.residual_variance(x[:, [0, 2]])
    same = np.array([[0.5, 0.5], [0.3, 0.3], [0.4, 0.4]])    # one run, twice: no difference
    with pytest.raises(InputError, match=r"^scores: the runs score alike on every topic, copies "
                                         r"of one another \(1 distinct run\): no difference "
                                         r"between runs"):
        realistic_min_d(same, candidates=[0.1])


@pytest.mark.slow
def test_the_top_pairs_of_a_real_matrix_have_no_zero_from_a_copy():
    # TREC 2010 Web AP: sys59 = sys5 (the best run) and sys86 = sys49 are among its top 10 by
    # mean; counted once, the top 10 are ten distinct systems and no pair differs by 0
    web = tss.example_matrix()
    table = realistic_min_d(web)
    means = distinct(web).mean().sort_values(ascending=False, kind="stable")
    top = means.iloc[:10].to_numpy()
    pairs = sorted(abs(a - b) for k, a in enumerate(top) for b in top[k + 1:])
    assert "sys59" not in means.index and "sys86" not in means.index
    assert table.loc["top-k range", "uncorrected"] == pytest.approx(top[0] - top[9], abs=1e-15)
    assert table.loc["top-k median", "uncorrected"] == pytest.approx(statistics.median(pairs))
    assert table.loc["top-k 25%", "uncorrected"] == pytest.approx(np.quantile(pairs, 0.25))
    assert min(pairs) > 0 and table.loc["top-k 25%", "uncorrected"] > 0
    assert set(table.attrs["copies"]) >= {("sys59", "sys5"), ("sys86", "sys49")}


# --- Honest candidates (issue 25.3) -------------------------------------------------------------

@pytest.mark.slow
def test_each_share_counts_the_pairs_of_its_row(scores):
    """Counted here with itertools: the top-k rows over the pairs of the top 10 runs, the
    all-pairs row and the user's rows over all pairs."""
    import itertools

    table = realistic_min_d(scores, candidates=[0.05])
    means = sorted(distinct(scores).mean().tolist(), reverse=True)
    groups = {"top 10": [abs(a - b) for a, b in itertools.combinations(means[:10], 2)],
              "all": [abs(a - b) for a, b in itertools.combinations(means, 2)]}
    assert table.loc["top-k range", "pairs"] == "top 10"
    assert table.loc["minD=0.05", "pairs"] == table.loc["all-pairs median", "pairs"] == "all"
    for _, row in table.iterrows():
        if row["min_d"] > 0:
            diffs = groups[row["pairs"]]
            assert row["share"] == sum(x >= row["min_d"] for x in diffs) / len(diffs)


@pytest.mark.slow
def test_top_k_is_m(data_dir):
    """--m 20 uses the top 20 runs (190 pairs), not the top 10."""
    robust = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    table = realistic_min_d(robust, m=20)
    means = np.sort(distinct(robust).mean().to_numpy())[::-1]
    assert table.attrs["top_k"] == table.attrs["m"] == 20
    assert table.loc["top-k range", "uncorrected"] == means[0] - means[19]
    assert table.loc["top-k range", "pairs"] == "top 20"
    r = tss.collection_report(robust, m=20)
    assert r.differences.top_k == 20 and r.differences.table.loc["pairs", "top-k pairs"] == 190
    with pytest.raises(InputError, match=r"^top_k=10 and m=20"):
        realistic_min_d(robust, top_k=10, m=20)


def test_the_default_cut_to_fewer_runs_cuts_m_too(data_dir):
    """Six distinct runs and neither k nor m given: the top group is all six, and so is the
    designs' m (k = m), with a note; it was m = 10 on a six-run range (a reviewer's finding).
    The n is anova_n's at m = 6 for the table's own minD and V_E."""
    from topicsetsize.decide.realistic import table_notes

    six = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0).iloc[:, :6]
    table = realistic_min_d(six, trials=200)
    assert table.attrs["top_k"] == table.attrs["m"] == 6 and table.attrs["cut_to_runs"]
    row = table.loc["top-k range"]
    assert int(row["n one-way exact"]) == tss.anova_n(0.05, 0.2, float(row["min_d"]),
                                                      table.attrs["variance"], 6,
                                                      method="exact")
    assert table_notes(table)[0].startswith("the matrix has 6 distinct runs, fewer than the "
                                            "default 10")
    given = realistic_min_d(six, m=6, trials=200)          # m given: no note, the same n
    assert not given.attrs["cut_to_runs"] and not any("distinct runs" in line
                                                      for line in table_notes(given))
    assert given["n one-way exact"].equals(table["n one-way exact"])


@pytest.mark.slow
def test_standard_errors_and_the_noise_mark(data_dir):
    """se by hand (numpy, per pair: sd of the per-topic differences / sqrt(n)); above noise =
    min_d >= t(1 - alpha/2; n - 1) se (scipy). On TREC 2004 Robust the top-10 median and
    quartile are below the noise of 249 topics, the all-pairs median far above it."""
    from scipy import stats

    robust = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    table = realistic_min_d(robust)
    x = distinct(robust).to_numpy()
    n = x.shape[0]
    order = np.argsort(-x.mean(axis=0), kind="stable")

    def se(a, b):
        return np.std(x[:, a] - x[:, b], ddof=1) / np.sqrt(n)

    top = order[:10]
    top_se = np.median([se(a, b) for k, a in enumerate(top) for b in top[k + 1:]])
    assert table.loc["top-k range", "se"] == pytest.approx(se(order[0], order[9]), rel=1e-9)
    assert table.loc["top-k median", "se"] == pytest.approx(top_se, rel=1e-9)
    all_se = np.median([se(a, b) for a in range(x.shape[1]) for b in range(a + 1, x.shape[1])])
    assert table.loc["all-pairs median", "se"] == pytest.approx(all_se, rel=1e-9)
    t = stats.t.isf(0.025, n - 1)
    np.testing.assert_array_equal(table["above noise"].to_numpy(),
                                  (table["min_d"] >= t * table["se"]).to_numpy())
    assert not table.loc["top-k median", "above noise"]
    assert not table.loc["top-k 25%", "above noise"]
    assert table.loc["all-pairs median", "above noise"]


@pytest.mark.slow
def test_notes_name_rows_not_told_apart_and_corrections_above_what_was_seen(data_dir):
    from topicsetsize.decide.realistic import min_d_notes

    # TREC 2004 Robust: the corrected top-10 range (.0323) exceeds the uncorrected one (.0311),
    # so no pair of the top 10 differs by as much (share 0): a note says so
    robust = realistic_min_d(pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0))
    row = robust.loc["top-k range"]
    assert row["min_d"] > row["uncorrected"] and row["share"] == 0
    notes = min_d_notes(robust)
    assert [line.split(":")[0] for line in notes] == ["top-k range"]
    assert "share 0%: no pair of the past top 10 runs differs by as much" in notes[0]
    assert "not a difference seen" in notes[0]
    # top runs not told apart: min_d <= 0 and no n, said in one line per such row (Robust's
    # best two, sys74 and sys75: the one picked on a random half is the worse on the other,
    # -.0005 on average)
    table = realistic_min_d(pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0), m=2)
    bad = table.index[~(table["min_d"] > 0)]
    assert len(bad) == 3 and table.loc[bad, "n one-way exact"].isna().all()
    assert min_d_notes(table) == [f"{name}: min_d {table.loc[name, 'min_d']:.4f}: the top runs "
                                  f"are not told apart; no n" for name in bad]
    # a matrix whose corrections stay below what was seen: nothing to say
    assert min_d_notes(realistic_min_d(tss.example_matrix())) == []


def test_mc_se_is_the_last_column_and_that_of_the_split_halves(scores):
    """mc_se: the Monte Carlo standard errors of split_half_differences with the same top
    group, trials and seed, for the three corrected rows (range, median, 25%); NaN for the
    rows that draw nothing. The other columns are MIN_D_COLUMNS, in order."""
    from topicsetsize.decide.realistic import MC_SE_COLUMN, MIN_D_COLUMNS
    from topicsetsize.estimates.differences import split_half_differences

    table = realistic_min_d(scores, m=10, candidates=[0.05], trials=300, seed=3)
    assert list(table.columns) == [*MIN_D_COLUMNS, MC_SE_COLUMN]
    mc = split_half_differences(distinct(scores), top_k=10, trials=300, seed=3).mc_se
    assert table[MC_SE_COLUMN].iloc[:3].tolist() == [mc["range"], mc["median"], mc["25%"]]
    assert table[MC_SE_COLUMN].iloc[3:].isna().all()


def test_mc_error_note_names_the_rows_and_the_trials_for_five_percent(data_dir):
    """On TREC 2004 Robust at 1000 halves the corrected median and 25% rows are above 5% (7%
    and 12%: realistic_min_d's mc_se over min_d, seed 0), the range below (1%); the trials
    named are the 1000 times (largest share / 5%)², rounded up to two significant digits. The
    range's error, a mean's, halves with four times the halves (within 10%: each estimate is
    off by about 1/√(2·trials) of itself)."""
    from topicsetsize.decide.realistic import MC_SE_SHARE, mc_error_note

    x = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    table = realistic_min_d(x, trials=1000)        # the default until it became N_HALVES
    share = (table["mc_se"] / table["min_d"]).iloc[:3]
    line = mc_error_note(table, option="--trials")
    assert line.startswith("Monte Carlo error of the corrected min_d (mc_se) above 5% of it: ")
    large = share[share > MC_SE_SHARE]
    assert list(large.index) == ["top-k median", "top-k 25%"]
    assert f"of it: {', '.join(f'{n} {s:.0%}' for n, s in large.items())};" in line
    needed = int(line.split("to about ")[1].split()[0])
    exact = 1000 * (share.max() / MC_SE_SHARE) ** 2
    assert exact <= needed < 1.1 * exact
    quadruple = realistic_min_d(x, trials=4000)
    ratio = 2 * quadruple.loc["top-k range", "mc_se"] / table.loc["top-k range", "mc_se"]
    assert 0.9 < ratio < 1.1
    # below the share: no line; one half: no estimate, said
    assert mc_error_note(table.assign(mc_se=table["min_d"] * 0.04)) is None
    one = realistic_min_d(x, trials=1)
    assert one["mc_se"].isna().all()
    assert mc_error_note(one) == ("trials 1: one random half gives no Monte Carlo error of the "
                                  "corrected min_d (mc_se); raise trials (default 64000)")


def test_mc_error_note_names_a_min_d_within_two_mc_se_of_zero_apart():
    """TREC 2010 Web AP (48 topics x 78 distinct runs), m = 9, 1000 halves: the corrected
    top-9 25% is 0.00045 with an mc_se of 0.00030 (realistic_min_d, seed 0); its share of min_d
    (67%) would ask for hundreds of thousands of halves, so it is named apart, and the trials
    come from the other rows."""
    from topicsetsize.decide.realistic import mc_error_note

    # at 1000 halves (the default until it became N_HALVES; at 64,000 this row is 0.00032
    # with an mc_se of 0.00006)
    table = realistic_min_d(tss.example_matrix(), m=9, trials=1000)
    d, se = table.loc["top-k 25%", "min_d"], table.loc["top-k 25%", "mc_se"]
    assert 0 < d <= 2 * se
    line = mc_error_note(table)
    assert line.endswith(f"within 2 mc_se of 0: top-k 25% ({d:.4f} ± {se:.5f}); another seed "
                         "may give no n")
    others = (table["mc_se"] / table["min_d"]).iloc[:2]
    needed = int(line.split("to about ")[1].split()[0])
    assert 1000 * (others.max() / 0.05) ** 2 <= needed < 1.1 * 1000 * (others.max() / 0.05) ** 2


def test_table_notes_are_every_note_in_the_commands_order(data_dir):
    """table_notes (what ``topicsetsize report`` prints under a minD table and the workbook's
    Report sheet writes): min_d_notes' lines, then mc_error_note's, then the noise note, each
    where it has something to say. TREC 2004 Robust at 1000 halves has all three kinds (its
    corrected range above the uncorrected one, test above; its median and 25% rows above 5%
    and below the noise: realistic_min_d, seed 0)."""
    from topicsetsize.decide.realistic import mc_error_note, min_d_notes, noise_note, table_notes

    table = realistic_min_d(pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0),
                            trials=1000)
    assert len(min_d_notes(table)) == 1 and mc_error_note(table) is not None
    noise = ("rows with above noise = no are differences these topics cannot tell from zero: "
             "their n is sized on noise")
    assert not table["above noise"].all() and noise_note(table) == noise
    assert table_notes(table, option="--trials") == [
        *min_d_notes(table), mc_error_note(table, option="--trials"), noise]
    assert "raise --trials (1000)" in table_notes(table, option="--trials")[-2]
    # every row above the noise, no corrected row too uncertain, none corrected above what
    # was seen: nothing to say
    quiet = table.assign(**{"above noise": True, "mc_se": 0.0})
    quiet["uncorrected"] = quiet["min_d"].abs() + 1
    quiet["min_d"] = quiet["min_d"].abs() + 0.01
    quiet["share"] = 0.5
    assert noise_note(quiet) is None and table_notes(quiet) == []


def test_your_own_min_d_below_the_noise_is_not_called_noise(data_dir):
    """A minD you give (``candidates``) that the past topics cannot tell from zero is what its
    n is for: the note said its "n is sized on noise" (a reviewer's finding on CLEF 2017 TAR,
    30 topics, minD = .05: n = 527 exact). The note now names it apart; a row read off the data
    below the noise keeps the old sentence. "above noise" itself is the paired t-test of the
    past topics: min_d >= t(alpha/2; n' - 1) * se (scipy)."""
    from scipy import stats

    from topicsetsize.decide.realistic import noise_note

    clef = pd.read_csv(data_dir / "clef2017_tar_ap.csv", index_col=0)
    table = realistic_min_d(clef, m=15, candidates=[0.05, 0.1], trials=200)
    critical = stats.t.isf(0.025, clef.shape[0] - 1)
    assert list(table["above noise"]) == list(table["min_d"] >= critical * table["se"])
    own_below = [name for name in ("minD=0.05", "minD=0.1")
                 if not table.loc[name, "above noise"]]
    assert own_below == ["minD=0.05"]
    note = noise_note(table)
    assert ("minD=0.05: your own minD, which these 30 topics cannot tell from zero (above noise "
            "= no): its n is how many topics can") in note
    assert "minD=0.1" not in note
    found_below = not table.drop(index=["minD=0.05", "minD=0.1"])["above noise"].all()
    assert note.startswith("rows read off the data with above noise = no") == found_below


def test_a_matrix_on_another_scale_gets_no_scale_note_and_the_same_n():
    # the candidates' minD and V_E come from the same scores: in percent (x 100) they are on
    # one scale, so no ScaleWarning (topicsetsize.designs.scales), and every n is the same
    import warnings

    from topicsetsize.examples import example_matrix

    scores = example_matrix()
    with warnings.catch_warnings():
        warnings.simplefilter("error", tss.ScaleWarning)
        base = tss.realistic_min_d(scores, trials=200)
        percent = tss.realistic_min_d(scores * 100, trials=200)
    n_columns = [c for c in base.columns if c.startswith("n ")]
    assert n_columns and (percent[n_columns] == base[n_columns]).all().all()
    assert np.allclose(percent["min_d"], 100 * base["min_d"])
