"""Tests of topicsetsize.report: the collection report assembles the engine's parts.

Each part is tested on its own (test_gtheory, test_differences, test_summary); here the report
must hold the same numbers for the real matrices, pass its options through, and check them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.errors import InputError
from topicsetsize.report import reliability_curves


@pytest.fixture(scope="module", params=["trec2010web_ap.csv", "trec2004robust_ap.csv",
                                        "clef2017_tar_ap.csv"])
def scores(request, data_dir):
    return pd.read_csv(data_dir / request.param, index_col=0)


@pytest.mark.slow
def test_report_holds_the_parts(scores):
    r = tss.collection_report(scores, m=8, alpha=0.01, beta=0.1, target=0.9, level=0.9)
    assert r.summary == tss.summarise(scores)
    assert r.gstudy == tss.g_study(scores)
    assert r.dstudy == tss.d_study(r.gstudy, level=0.9)
    assert (r.n_erho2, r.n_phi) == (tss.gt_n(r.gstudy, 0.9),
                                    tss.gt_n(r.gstudy, 0.9, coefficient="phi"))
    pd.testing.assert_frame_equal(r.min_d, tss.realistic_min_d(scores, top_k=8,
                                                               alpha=0.01, beta=0.1))
    assert r.m == 8 and r.differences.top_k == 8
    figures = r.figures()
    assert figures["sigma2_e"] == r.summary.var2_raw      # GT residual = two-way V_E2
    assert figures["n for Phi >= 0.9"] == r.n_phi
    ci = tss.estimates.gtheory.gt_n_interval(r.gstudy, 0.9, coefficient="phi", level=0.9)
    assert (figures["n for Phi >= 0.9 low"], figures["n for Phi >= 0.9 high"]) == (ci.low,
                                                                                   ci.high)


@pytest.mark.slow
def test_copies_are_counted_once_in_the_differences_and_kept_in_the_variances(scores):
    """All three matrices hold copies of runs (TREC 2010 Web: 10, two of them among the top 10;
    TREC 2004 Robust: sys69 = sys67, both in the top 10; CLEF 2017 TAR: the Waterloo runs in
    identical pairs). The report's differences are those of the matrix without its copies,
    recounted here with itertools on pandas' own dropping of them: no top-k pair differs by 0.
    V_E, V_E2 and the G-study are those of every run."""
    import itertools
    import warnings

    from topicsetsize.matrices.copies import IdenticalRunsWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = tss.collection_report(scores, n_boot=None)
    said = [str(w.message) for w in caught if issubclass(w.category, IdenticalRunsWarning)]
    distinct = scores.T.drop_duplicates().T
    copies = scores.shape[1] - distinct.shape[1]
    assert copies > 0 and len(said) == 1           # one warning, naming every copy
    assert said[0].startswith(f"{copies} run") and said[0].count(" = ") == copies
    means = sorted(distinct.mean().tolist(), reverse=True)
    top = [abs(a - b) for a, b in itertools.combinations(means[:10], 2)]
    every = [abs(a - b) for a, b in itertools.combinations(means, 2)]
    np.testing.assert_allclose(r.differences.top_pairs, sorted(top), rtol=0, atol=1e-15)
    np.testing.assert_allclose(r.differences.all_pairs, sorted(every), rtol=0, atol=1e-15)
    np.testing.assert_allclose(r.differences.to_best, sorted(means[0] - v for v in means[1:]),
                               rtol=0, atol=1e-15)
    assert r.differences.table.loc["min", "top-k pairs"] > 0
    assert r.summary == tss.summarise(scores) and r.summary.runs == scores.shape[1]
    assert r.gstudy == tss.g_study(scores)
    assert r.min_d.attrs["variance"] == tss.residual_variance(scores)


@pytest.mark.slow
def test_curves_agree_with_d_study_and_power(scores):
    r = tss.collection_report(scores)
    ns = [5, 20, 80]
    curves = reliability_curves(r, ns)
    for n in ns:
        d = tss.d_study(r.gstudy, n)
        assert curves.loc[n, "Phi"] == pytest.approx(d.phi, rel=1e-12)
        assert curves.loc[n, "Erho2 low"] == pytest.approx(d.erho2_low, rel=1e-12)
        min_d = r.min_d.loc["top-k range", "min_d"]
        assert curves.loc[n, "ANOVA power"] == pytest.approx(tss.anova_power(
            n, m=r.m, min_d=min_d, variance=r.summary.var_raw, alpha=0.05, method="exact"))
    assert np.all(np.diff(curves["Erho2"]) > 0)


def test_bad_options():
    x = tss.example_matrix()
    for kwargs, message in (({"target": 1}, "^target=1 is out of range"),
                            ({"alpha": 0}, "^alpha=0 is out of range"),
                            ({"top_k": 0}, "^top_k=0 is out of range"),
                            ({"b": 1.5}, r"^b=1.5 is out of range: allowed 0 < b < 1$"),
                            ({"a": 0}, r"^a=0 is out of range: allowed a > 0$"),
                            ({"top_k": 8, "m": 12}, r"^top_k=8 and m=12: .*\(k = m\)")):
        with pytest.raises(InputError, match=message):
            tss.collection_report(x, **kwargs)


@pytest.mark.slow
def test_every_n_of_the_min_d_table_has_its_bootstrap_interval(scores):
    """Each column's interval is n_interval with that column's design and σ̂² (V_E one-way,
    V_E2 two-way), every candidate at once, one seed for all; each n lies inside its own."""
    from topicsetsize.estimates.uncertainty import n_interval

    r = tss.collection_report(scores, n_boot=300, seed=12, min_d=[0.05])
    d = r.min_d["min_d"].to_numpy(float, na_value=np.nan)
    usable = d > 0          # a selection-corrected candidate can be <= 0: it has no n
    d = d[usable]
    designs = {"n one-way legacy": (lambda v: tss.anova_n(.05, .2, d[:, None], v, r.m), "one-way"),
               "n one-way exact": (lambda v: tss.anova_n(.05, .2, d[:, None], v, r.m,
                                                         method="exact"), "one-way"),
               "n two-way exact": (lambda v: tss.anova2_n(.05, .2, d[:, None], v, r.m),
                                   "two-way")}
    assert list(r.n_intervals) == list(designs)
    for name, (n_of, estimator) in designs.items():
        ci, alone = r.n_intervals[name], n_interval(scores, n_of, estimator=estimator,
                                                    n_boot=300, seed=12)
        assert ci.lower[usable].tolist() == alone.lower.tolist()
        assert ci.upper[usable].tolist() == alone.upper.tolist()
        assert np.isnan(ci.lower[~usable]).all() and np.isnan(ci.upper[~usable]).all()
        assert (ci.seed, ci.n_boot, ci.level) == (12, 300, 0.95)
        n = r.min_d[name].to_numpy(float, na_value=np.nan)[usable]
        assert ((ci.lower[usable] <= n) & (n <= ci.upper[usable])).all()
    assert tss.collection_report(scores, n_boot=None).n_intervals == {}


def test_a_candidate_at_the_search_limit_has_no_n_or_an_open_upper_end():
    """A candidate minD whose n passes the search limit (10⁹) has no n (and a note), and one
    whose point n is below it but some resamples' above has the upper end inf ("more than"),
    checked against the design's power at the limit on the same resamples; the report stands
    (it failed as a whole before)."""
    from topicsetsize.decide.realistic import min_d_notes
    from topicsetsize.estimates.uncertainty import bootstrap_variances
    from topicsetsize.examples import example_matrix
    from topicsetsize.params import N_MAX
    from topicsetsize.report import interval_end_text, interval_table

    x = example_matrix()
    v2 = tss.two_way_residual_variance(x.values)
    edge = tss.anova2_min_d(9.5e8, m=10, variance=v2, alpha=0.05, beta=0.2)   # n ≈ 9.5e8
    r = tss.collection_report(x, min_d=[edge, edge / 100], n_boot=200, seed=3)
    rows = r.min_d.loc[r.min_d["min_d"].isin([edge, edge / 100])]
    at_edge, beyond = rows.index
    assert rows.loc[beyond, ["n one-way legacy", "n one-way exact", "n two-way exact"]] \
        .isna().all()
    assert any(note.startswith(f"{beyond}: min_d") and "too small to detect" in note
               for note in min_d_notes(r.min_d))
    n = int(rows.loc[at_edge, "n two-way exact"])
    assert n <= N_MAX
    ci = r.n_intervals["n two-way exact"]
    i = list(r.min_d.index).index(at_edge)
    # the resamples' σ̂² for which no n up to the limit has power 1 - beta: the upper tail
    v = bootstrap_variances([x.values], estimator="two-way", n_boot=200, seed=3)
    short = tss.anova2_power(N_MAX, m=10, min_d=edge, variance=v, alpha=0.05) < 0.8
    assert short.any() and ci.upper[i] == np.inf and ci.lower[i] <= n
    assert interval_end_text(ci.upper[i]) == f"more than {N_MAX:,}"
    assert pd.isna(interval_table(r).loc[at_edge, "n two-way exact high"])
