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
from topicsetsize.matrices.runfiles import read_runs, trec_order, trec_score


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
            # the score as trec_eval holds it (a C float)
            assert list(got[t].values()) == trec_score(rows["score"]).tolist()


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
    assert ranked.run_dict(0, ["2", "3"]) == {"2": {"c": 3.0, "b": 2.0}}
    assert ranked.topics == ["1", "2"]
    # the reference ranking of the module agrees on the order
    assert trec_ranking({"r": pd.DataFrame({"query_id": ["2", "2"], "doc_id": ["b", "c"],
                                            "score": [2.0, 3.0]})})["doc_id"].tolist() == ["c", "b"]
