"""RankedRuns: runs parsed once, kept compactly in trec_eval's order; pools built from them.

Checked against the pandas reference of the same module (trec_ranking, best_ranks: pandas sorts
of the full frames) and against trec_order, on the bundled CLEF 2017 TAR runs (their quirks:
non-Q0 second column, repeated ranks, constant scores, duplicates kept first) and on synthetic
runs full of ties.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from topicsetsize.decide.pools import RankedRuns, best_ranks, trec_ranking
from topicsetsize.examples import example_runs
from topicsetsize.matrices.runfiles import read_runs, trec_order


@pytest.fixture(scope="module")
def clef_runs():
    runs_dir, _ = example_runs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_runs(runs_dir, duplicates="first")


def _tied_runs(seed=7):
    """Synthetic runs with many ties (scores on a coarse grid, some equal only in single
    precision) and ids whose byte order is not their numeric order ("10" < "9")."""
    rng = np.random.default_rng(seed)
    runs = {}
    for r in range(4):
        rows = []
        for t in ("2", "10", "1"):
            docs = rng.choice(40, 25, replace=False)
            score = rng.integers(0, 4, 25).astype(float)
            score[::5] += 1e-12            # a tie with the grid value for trec_eval
            rows += [(t, f"{d}" if d % 3 else f"é{d}", s) for d, s in zip(docs, score)]
        runs[f"r{r}"] = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    return runs


@pytest.mark.parametrize("which", ["clef", "tied"])
def test_each_run_is_kept_in_trec_eval_order(which, clef_runs):
    runs = clef_runs if which == "clef" else _tied_runs()
    ranked = RankedRuns()
    for run in runs.values():
        ranked.add(run)
    assert len(ranked) == len(runs)
    for j, run in enumerate(runs.values()):
        topics = sorted(run["query_id"].unique())
        got = ranked.run_dict(j, topics)
        want = trec_order(run)
        assert sorted(got) == topics
        for t in topics:
            rows = want[want["query_id"] == t]
            assert list(got[t]) == rows["doc_id"].tolist()             # trec_eval's order
            scores = list(got[t].values())                # distinct and descending
            assert scores == sorted(set(scores), reverse=True)


@pytest.mark.parametrize("measure", ["AP", "nDCG", "P@10", "RR", "nDCG@5"])
@pytest.mark.slow
def test_trec_evals_measures_are_those_of_the_runs_as_read(measure, clef_runs):
    # The ranking kept (scores not kept) gives pytrec_eval's values of the runs as read, ties
    # and single-precision ties included (independent: ir_measures on the frames' own scores).
    import ir_measures

    from topicsetsize.examples import example_runs
    from topicsetsize.matrices.runfiles import read_qrels

    qrels = read_qrels(example_runs()[1])
    qrels = [ir_measures.Qrel(*row) for row in qrels.itertuples(index=False)]
    parsed = ir_measures.parse_measure(measure)
    ranked = RankedRuns()
    for run in clef_runs.values():
        ranked.add(run)
    for j, run in enumerate(clef_runs.values()):
        as_read = [ir_measures.ScoredDoc(*row)
                   for row in run[["query_id", "doc_id", "score"]].itertuples(index=False)]
        want = {m.query_id: m.value for m in ir_measures.iter_calc([parsed], qrels, as_read)}
        got = {m.query_id: m.value for m in ir_measures.iter_calc(
            [parsed], qrels, ranked.run_dict(j, sorted(run["query_id"].unique())))}
        assert got == want


@pytest.mark.parametrize("which", ["clef", "tied"])
@pytest.mark.parametrize("depth", [1, 3, 10, 100])
def test_best_ranks_equal_the_pandas_reference(which, depth, clef_runs):
    runs = clef_runs if which == "clef" else _tied_runs()
    ranked = RankedRuns()
    for run in runs.values():
        ranked.add(run)
    got = ranked.best_ranks(depth).set_index(["query_id", "doc_id"])["rank"].sort_index()
    reference = best_ranks(runs)
    reference = reference[reference <= depth]
    assert got.index.tolist() == reference.index.tolist()
    assert got.tolist() == reference.tolist()


def test_only_the_wanted_topics_are_given():
    ranked = RankedRuns()
    ranked.add(pd.DataFrame({"query_id": ["1", "2", "2"], "doc_id": ["a", "b", "c"],
                             "score": [1.0, 2.0, 3.0]}))
    assert ranked.run_dict(0, ["2", "3"]) == {"2": {"c": 2.0, "b": 1.0}}
    assert ranked.topics == ["1", "2"]
    # the reference ranking of the module agrees on the order
    assert trec_ranking({"r": pd.DataFrame({"query_id": ["2", "2"], "doc_id": ["b", "c"],
                                            "score": [2.0, 3.0]})})["doc_id"].tolist() == ["c", "b"]


@pytest.mark.parametrize("depth", [1, 10, 100])
def test_pool_relevance_is_the_qrels_join(depth, clef_runs):
    # Independent: the pandas best ranks merged with the qrels frame on (topic, document).
    from topicsetsize.matrices.runfiles import read_qrels

    qrels = read_qrels(example_runs()[1])
    ranked = RankedRuns()
    ranked.add_qrels(qrels)
    for run in clef_runs.values():
        ranked.add(run)
    topics = sorted(set(qrels["query_id"]) & set(ranked.topics))[::2]     # some of them
    got = ranked.pool(depth, topics).sort_values(["query_id", "doc_id"], ignore_index=True)
    best = best_ranks(clef_runs)
    best = best[best <= depth].rename("rank").reset_index()
    want = best[best["query_id"].isin(topics)].merge(qrels, how="left",
                                                    on=["query_id", "doc_id"])
    want = want.sort_values(["query_id", "doc_id"], ignore_index=True)
    assert got["doc_id"].tolist() == want["doc_id"].tolist()
    assert got["rank"].tolist() == want["rank"].tolist()
    assert got["in_qrels"].tolist() == want["relevance"].notna().tolist()
    assert got["relevance"].tolist() == want["relevance"].fillna(0).astype(int).tolist()
    assert set(ranked.topics) == {t for r in clef_runs.values() for t in r["query_id"]}
