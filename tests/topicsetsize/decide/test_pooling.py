"""pool_depth_study: pools, re-evaluation by ir_measures, V_E, and the pooled docs per topic.

The runs and qrels in tests/data/pool_runs/ are synthetic (tests/data/make_pool_runs.py, see
tests/data/PROVENANCE.md): the qrels judge the depth-60 pool of the runs, which return 60
documents per topic, as a TREC pool is built.
"""

from __future__ import annotations

from pathlib import Path

import ir_measures
import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.decide.pooling import (
    IncompleteJudgmentsWarning,
    depth_pool,
    load_collection,
    pool_depth_study,
    trec_ranking,
)
from topicsetsize.errors import InputError
from topicsetsize.examples import example_runs
from topicsetsize.matrices.runfiles import read_qrels, read_runs

DATA = Path(__file__).resolve().parents[2] / "data" / "pool_runs"
A_RUNS, A_QRELS = DATA / "A" / "runs", DATA / "A" / "qrels.txt"
B_RUNS, B_QRELS = DATA / "B" / "runs", DATA / "B" / "qrels.txt"


def naive_pool_depth_study(runs_dir, qrels_path, depths, measure):
    """Independent reference: per depth, per run, per topic Python pooling + ir_measures.

    Reads the files with ir_measures' own readers, ranks each run per topic with a Python sort
    (score descending, then docno descending, as trec_eval does), and evaluates every run with
    ``ir_measures.iter_calc`` on the pooled qrels. Returns {depth: (pool size, topics x runs)}.
    """
    measure = ir_measures.parse_measure(measure)
    qrels = {}
    for q in ir_measures.read_trec_qrels(str(qrels_path)):
        qrels.setdefault(q.query_id, {})[q.doc_id] = q.relevance
    runs = {}
    for path in sorted(Path(runs_dir).iterdir()):
        run = {}
        for r in ir_measures.read_trec_run(str(path)):
            run.setdefault(r.query_id, {})[r.doc_id] = r.score
        runs[path.name] = run
    topics = sorted(set(qrels) & set().union(*runs.values()))
    out = {}
    for depth in depths:
        pool = {t: set() for t in topics}
        for run in runs.values():
            for t in topics:
                docs = sorted(run.get(t, {}).items(), key=lambda kv: (kv[1], kv[0]),
                              reverse=True)
                pool[t].update(doc for doc, _ in docs[:depth])
        pooled = [ir_measures.Qrel(t, d, qrels[t].get(d, 0)) for t in topics for d in pool[t]]
        matrix = pd.DataFrame(0.0, index=topics, columns=list(runs))
        for name, run in runs.items():
            for metric in ir_measures.iter_calc([measure], pooled, run):
                matrix.loc[metric.query_id, name] = metric.value
        out[depth] = (sum(len(p) for p in pool.values()), matrix)
    return out


def _frame(rows):
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def test_pool_by_hand():
    # Two runs, two topics; ties at equal score go to the larger docno (trec_eval).
    r1 = _frame([("1", "a", 3.0), ("1", "b", 2.0), ("1", "c", 2.0), ("2", "x", 1.0),
                 ("2", "y", 0.5)])
    r2 = _frame([("1", "d", 9.0), ("1", "a", 1.0), ("2", "y", 5.0), ("2", "z", 4.0)])
    runs = {"r1": r1, "r2": r2}
    pool = lambda d: sorted(map(tuple, depth_pool(runs, d).to_numpy()))
    # depth 1: r1 -> 1:a, 2:x ; r2 -> 1:d, 2:y
    assert pool(1) == [("1", "a"), ("1", "d"), ("2", "x"), ("2", "y")]
    # depth 2: r1 adds 1:c (tie with b, c > b) and 2:y ; r2 adds 1:a, 2:z
    assert pool(2) == [("1", "a"), ("1", "c"), ("1", "d"), ("2", "x"), ("2", "y"), ("2", "z")]
    assert len(pool(3)) == 7 and len(pool(100)) == 7


def test_tie_break_is_what_ir_measures_evaluates():
    # At depth 1 the pool holds the document that ir_measures ranks first among tied scores:
    # mark only the pooled document relevant, and P@1 of the run must be 1.
    run = _frame([("1", "a", 1.0), ("1", "b", 1.0), ("1", "c", 1.0)])
    (doc,) = depth_pool({"r": run}, 1)["doc_id"]
    assert doc == "c"
    qrels = [ir_measures.Qrel("1", d, int(d == doc)) for d in "abc"]
    runs = {"1": {d: 1.0 for d in "abc"}}
    assert ir_measures.calc_aggregate([ir_measures.P @ 1], qrels, runs)[ir_measures.P @ 1] == 1
    assert list(trec_ranking({"r": run})["doc_id"]) == ["c", "b", "a"]


def test_pool_compares_scores_in_single_precision():
    # trec_eval stores scores as C floats: 1 + 1e-12 ties with 1, and the larger id wins.
    run = _frame([("1", "a", 1.0 + 1e-12), ("1", "b", 1.0)])
    assert depth_pool({"r": run}, 1)["doc_id"].tolist() == ["b"]
    qrels = [ir_measures.Qrel("1", "b", 1)]
    runs = {"1": {"a": 1.0 + 1e-12, "b": 1.0}}
    assert ir_measures.calc_aggregate([ir_measures.P @ 1], qrels, runs)[ir_measures.P @ 1] == 1


@pytest.fixture(scope="module")
def study_a():
    return pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[60, 20, 5], measure="AP", m=8,
                            min_d=0.05)


def test_full_depth_reproduces_full_qrels(study_a):
    # Depth 60 >= every run's length: the pool is every retrieved document, and the qrels were
    # built from that pool, so AP equals ir_measures on the full qrels and the original files.
    matrix = study_a.scores[60][0]
    qrels = list(ir_measures.read_trec_qrels(str(A_QRELS)))
    for path in sorted(A_RUNS.iterdir()):
        run = list(ir_measures.read_trec_run(str(path)))
        per_topic = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.AP],
                                                                         qrels, run)}
        assert matrix[path.name].to_dict() == pytest.approx(per_topic, abs=1e-12)


def test_matches_naive_loop_and_judged_is_pool_size(study_a):
    naive = naive_pool_depth_study(A_RUNS, A_QRELS, [60, 20, 5], "AP")
    for depth, (pool_size, matrix) in naive.items():
        assert study_a.table.loc[depth, "judged"] == pool_size
        runs = read_runs(A_RUNS)
        assert len(depth_pool(runs, depth)) == pool_size
        assert study_a.table.loc[depth, "docs_per_topic"] == pool_size / 25
        got = study_a.scores[depth][0]
        assert np.allclose(got.loc[matrix.index, matrix.columns].to_numpy(), matrix.to_numpy(),
                           atol=1e-12)
    # shallower pools judge fewer documents and change the scores
    assert study_a.table["judged"].is_monotonic_decreasing
    assert not np.allclose(study_a.scores[5][0], study_a.scores[60][0])


def test_ve_and_n_come_from_the_engine(study_a):
    for depth in (60, 20, 5):
        matrix = study_a.scores[depth][0]
        row = study_a.table.loc[depth]
        assert row["v_e_raw"] == pytest.approx(tss.residual_variance(matrix), rel=1e-12)
        assert row["v_e_std_ab"] == pytest.approx(
            tss.residual_variance(tss.std_ab(matrix)), rel=1e-12)
        assert row["n"] == tss.anova_n(0.05, 0.20, 0.05, row["v_e_raw"], 8)
        assert row["cost"] == pytest.approx(row["n"] * row["docs_per_topic"])


def test_ir_measures_computes_the_measure(study_a):
    # The mean of one run's column at depth 20 equals ir_measures.calc_aggregate on the depth-20
    # pooled qrels built independently here (every topic has retrieved documents).
    runs = read_runs(A_RUNS)
    qrels = read_qrels(A_QRELS).set_index(["query_id", "doc_id"])["relevance"]
    pool = depth_pool(runs, 20)
    pooled = [ir_measures.Qrel(q, d, int(qrels.get((q, d), 0))) for q, d in pool.to_numpy()]
    run = list(ir_measures.read_trec_run(str(A_RUNS / "Arun3")))
    expected = ir_measures.calc_aggregate([ir_measures.AP], pooled, run)[ir_measures.AP]
    assert study_a.scores[20][0]["Arun3"].mean() == pytest.approx(expected, abs=1e-12)
    # and another measure goes through the same path
    study = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[20], measure="nDCG@10")
    ndcg = study.scores[20][0]["Arun3"].mean()
    expected = ir_measures.calc_aggregate([ir_measures.nDCG @ 10], pooled, run)
    assert ndcg == pytest.approx(expected[ir_measures.nDCG @ 10], abs=1e-12)


def test_a_depth_beyond_the_runs_is_named_and_pools_what_the_deepest_rank_pools():
    """The deepest best rank of a retrieved document (pandas over the runs as read,
    :func:`best_ranks`' frame path, not RankedRuns): a depth beyond it pools the same
    documents and gives the same V_E as that rank, and the warning names it; at that rank
    itself, nothing is said."""
    import warnings

    from topicsetsize.decide.pools import DeeperThanRunsWarning, best_ranks

    deepest = int(best_ranks(read_runs(A_RUNS)).max())
    with pytest.warns(DeeperThanRunsWarning, match=f"^pd={10 * deepest} is deeper than the "
                      f"runs reach: .* from pd={deepest} on"):
        study = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10 * deepest, deepest],
                                 measure="AP")
    table = study.table
    assert table.loc[10 * deepest].tolist() == table.loc[deepest].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeeperThanRunsWarning)
        pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[deepest], measure="AP")


def test_two_collections_pool_the_variance():
    study = pool_depth_study([A_RUNS, B_RUNS], qrels=[A_QRELS, B_QRELS], depths=[60, 10],
                             measure="AP")
    a = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[60, 10], measure="AP")
    b = pool_depth_study(B_RUNS, qrels=B_QRELS, depths=[60, 10], measure="AP")
    for d in (60, 10):
        assert study.table.loc[d, "judged"] == a.table.loc[d, "judged"] + b.table.loc[d, "judged"]
        assert study.table.loc[d, "docs_per_topic"] == pytest.approx(
            study.table.loc[d, "judged"] / 45)
        assert study.table.loc[d, "v_e_raw"] == pytest.approx(
            tss.pooled_variance([a.scores[d][0], b.scores[d][0]]), rel=1e-12)


def _contiguous_runs(topics, sizes, prefix, seed):
    """8 runs of 100 documents per topic whose depth-100 pool has ``sizes[t]`` documents.

    Run r retrieves the documents s_r .. s_r + 99 with s_r = round(r (S - 100) / 7), so the
    union of the 8 ranges (each gap at most 100) is 0 .. S - 1: S documents.
    """
    rng = np.random.default_rng(seed)
    runs = {f"{prefix}{r}": [] for r in range(8)}
    qrels = []
    for t, size in zip(topics, sizes):
        for r, rows in enumerate(runs.values()):
            start = round(r * (size - 100) / 7)
            for doc in range(start, start + 100):
                rows.append((t, f"d{doc}", float(rng.normal() + (doc % 9 == 0))))
        qrels += [(t, f"d{doc}", int(doc % 9 == 0)) for doc in range(size)]
    frames = {name: pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
              for name, rows in runs.items()}
    return frames, pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])


@pytest.mark.slow
def test_cikm2014_robust_docs_per_topic():
    # Sakai, CIKM 2014, 6.3: at depth 100 the two TREC Robust collections judge 37,605 documents
    # over 50 topics and 34,792 over 49: (37,605 + 34,792) / (50 + 49) = 731 per topic.
    sizes1 = [752] * 45 + [753] * 5            # 37,605
    sizes2 = [710] * 47 + [711] * 2            # 34,792
    runs1, qrels1 = _contiguous_runs([str(t) for t in range(301, 351)], sizes1, "a", 1)
    runs2, qrels2 = _contiguous_runs([str(t) for t in range(651, 700)], sizes2, "b", 2)
    study = pool_depth_study([runs1, runs2], qrels=[qrels1, qrels2], depths=[100], measure="P@10")
    row = study.table.loc[100]
    assert (sum(sizes1), sum(sizes2)) == (37_605, 34_792)
    assert row["judged"] == 37_605 + 34_792 and row["topics"] == 99
    assert round(row["docs_per_topic"]) == 731


def test_progress_is_called_per_run_and_depth():
    calls = []
    pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10, 5], measure="P@5",
                     progress=calls.append)
    assert calls == [1] * (2 * 8)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(depths=[0]), InputError, "depth=0 is out of range"),
    (dict(runs="no/such/folder"), FileNotFoundError, "no/such/folder: no such folder"),
    (dict(measure="NoSuchMeasure"), InputError, "measure='NoSuchMeasure' is not"),
    (dict(m=8), InputError, "give both m and min_d"),
    (dict(m=8, min_d=0.1, budget=-3), InputError, "budget=-3 is out of range"),
])
def test_bad_arguments(kwargs, error, match):
    args = dict(runs=A_RUNS, qrels=A_QRELS, depths=[10], measure="AP")
    args.update(kwargs)
    with pytest.raises(error, match=match):
        pool_depth_study(args.pop("runs"), **args)


def test_qrels_without_overlap(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("999 0 X-1 1\n999 0 X-2 0\n")
    with pytest.raises(InputError,
                       match=r"no topic of \S*qrels.txt \(1: 999\) is a topic of the runs"):
        pool_depth_study(A_RUNS, qrels=qrels, depths=[10], measure="AP")
    one = Path(A_QRELS).read_text().splitlines()[0]           # a judgment of one topic
    qrels.write_text(one + "\n")
    with pytest.raises(InputError, match=r"qrels.txt: 1 topic in common with the runs \('\w+'\); "
                                         "V_E needs at least 2 topics"):
        pool_depth_study(A_RUNS, qrels=qrels, depths=[10], measure="AP")
    qrels.write_text("401 0 X-1 1\n402 0 X-2 1\n")   # common topics, no retrieved doc judged
    with pytest.raises(InputError, match=r"qrels.txt: none of the documents"):
        pool_depth_study(A_RUNS, qrels=qrels, depths=[10], measure="AP")


def test_too_few_runs_name_the_runs_not_the_qrels(tmp_path):
    # a folder of one run was said as "<qrels>: runs: 1 run(s)"
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "only").write_text("401 Q0 A401-0001 1 2.0 only\n")
    for study in (lambda: pool_depth_study(runs, qrels=A_QRELS, depths=[10], measure="AP"),
                  lambda: load_collection(runs, A_QRELS, name="A")):
        with pytest.raises(InputError, match=rf"^{runs}: 1 run\(s\); V_E needs at least 2 runs$"):
            study()
    # runs given as a mapping have no folder: the collection (its qrels) names them
    one = {"only": runs / "only"}
    with pytest.raises(InputError, match=r"^\S*qrels.txt: runs: 1 run\(s\); V_E needs at least "):
        pool_depth_study(one, qrels=A_QRELS, depths=[10], measure="AP")
    with pytest.raises(InputError, match=r"^A: runs: 1 run\(s\)"):
        load_collection(one, A_QRELS, name="A")


def test_bad_run_file_names_file_and_line(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "good").write_text("401 Q0 A401-0001 1 2.0 good\n401 Q0 A401-0002 2 1.0 good\n")
    (runs / "bad").write_text("401 Q0 A401-0001 1 2.0 bad\n401 Q0 A401-0001 2 1.0 bad\n")
    with pytest.raises(InputError, match=r"runs/bad, line 2: document 'A401-0001' is retrieved "
                                         r"twice for topic '401'"):
        pool_depth_study(runs, qrels=A_QRELS, depths=[10], measure="AP")


@pytest.mark.parametrize("key, value", [("alpha", [0.05, 0.01]), ("beta", [0.2, 0.1]),
                                        ("m", [2, 8]), ("min_d", [0.05, 0.1])])
def test_design_lists_fail_before_the_long_work(key, value):
    calls = []
    kwargs = dict(m=8, min_d=0.05, alpha=0.05, beta=0.2)
    kwargs[key] = value
    with pytest.raises(InputError, match=f"^{key}=.*single number"):
        pool_depth_study(str(DATA / "A" / "runs"), qrels=str(DATA / "A" / "qrels.txt"),
                         depths=[10], measure="AP", progress=calls.append, **kwargs)
    assert calls == []      # no run was evaluated


@pytest.mark.parametrize("value", ["no", "False", 1, None])
def test_condensed_must_be_a_bool_and_fails_before_the_long_work(value):
    # "no" is truthy: it evaluated the condensed lists without a word
    calls = []
    with pytest.raises(InputError, match=r"^condensed=.* is not one of True, False$"):
        pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10], measure="AP", condensed=value,
                         progress=calls.append)
    assert calls == []      # no run was evaluated


def test_condensed_takes_a_numpy_bool():
    study = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10], measure="AP",
                             condensed=np.bool_(True))
    assert study.condensed is True
    alike = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10], measure="AP", condensed=True)
    pd.testing.assert_frame_equal(study.table, alike.table)


def _trec_eval_order_reference(runs_dir, qrels_path, depths, measure):
    """Independent reference on real files: pandas reads each run (first line of a duplicated
    document kept), sorts it by (score desc, docid desc) per topic, cuts it at each depth, pools
    the cuts of all runs, and ir_measures evaluates each run on the pooled qrels (unpooled
    documents absent, i.e. non-relevant). Topics: those of the qrels that the runs retrieve.
    Returns {depth: (pool size, topics x runs)}."""
    names = ["qid", "Q0", "doc", "rank", "score", "tag"]
    runs = {}
    for path in sorted(Path(runs_dir).iterdir()):
        r = pd.read_csv(path, sep=r"\s+", header=None, names=names, dtype=str)
        r = r.drop_duplicates(["qid", "doc"], keep="first").assign(score=lambda f:
                                                                   f["score"].astype(float))
        # trec_eval keeps a score as a C float: the order compares scores in single precision
        r = r.assign(key=r["score"].astype(np.float32)).sort_values(
            ["qid", "key", "doc"], ascending=[True, False, False])
        runs[path.name] = r.assign(pos=r.groupby("qid").cumcount() + 1)
    q = pd.read_csv(qrels_path, sep=r"\s+", header=None, names=["qid", "it", "doc", "rel"],
                    dtype={"qid": str, "doc": str})
    topics = sorted(set(q["qid"]) & set(pd.concat(runs.values())["qid"]))
    rel = q.set_index(["qid", "doc"])["rel"]
    measure = ir_measures.parse_measure(measure)
    out = {}
    for depth in depths:
        cut = pd.concat([r[r["pos"] <= depth] for r in runs.values()])
        pool = cut[cut["qid"].isin(topics)][["qid", "doc"]].drop_duplicates()
        pooled = [ir_measures.Qrel(t, d, int(rel.get((t, d), 0)))
                  for t, d in pool.itertuples(index=False)]
        matrix = pd.DataFrame(0.0, index=topics, columns=list(runs))
        for name, r in runs.items():
            scored = [ir_measures.ScoredDoc(t, d, s)
                      for t, d, s in r[["qid", "doc", "score"]].itertuples(index=False)]
            for metric in ir_measures.iter_calc([measure], pooled, scored):
                matrix.loc[metric.query_id, name] = metric.value
        out[depth] = (len(pool), matrix)
    return out


@pytest.mark.slow
def test_real_quirky_runs_equal_trec_eval_order_reference_at_every_depth():
    # The bundled CLEF 2017 TAR runs: non-Q0 second column, repeated ranks (Padua), constant
    # scores (UOS), duplicate documents (UOS TMAL, first line kept).
    runs, qrels = example_runs()
    depths = [100, 50, 20, 10, 5, 1]
    with pytest.warns(UserWarning):
        study = pool_depth_study(runs, qrels=qrels, depths=depths, measure="AP",
                                 duplicates="first")
    reference = _trec_eval_order_reference(runs, qrels, depths, "AP")
    # the runs named as evaluate names them: a file's tag where it has one tag and no other
    # file has it, else the file name (the tags read here with pandas, independently)
    tags = {}
    for path in sorted(Path(runs).iterdir()):
        seen = set(pd.read_csv(path, sep=r"\s+", header=None, usecols=[5], dtype=str)[5])
        tags[path.name] = seen.pop() if len(seen) == 1 else None
    alone = [t for t in tags.values() if t and list(tags.values()).count(t) == 1]
    names = {f: t if t in alone else f for f, t in tags.items()}
    assert names["IIIT__run1.res.txt.gz"] == "pubmed"
    for depth, (pool_size, matrix) in reference.items():
        assert study.table.loc[depth, "judged"] == pool_size
        got = study.scores[depth][0]
        assert got.index.tolist() == matrix.index.tolist()
        assert got.columns.tolist() == [names[f] for f in matrix.columns]
        assert np.allclose(got.to_numpy(), matrix.to_numpy(), atol=1e-12), depth
    with pytest.raises(InputError, match="TMAL30Q_BM25.res.gz, line 2: document '8855462' is "
                                         "retrieved twice for topic 'CD007431'"):
        pool_depth_study(runs, qrels=qrels, depths=[10], measure="AP")


def test_no_within_budget_column_without_a_budget():
    study = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10, 5], measure="P@5", m=8,
                             min_d=0.1)
    assert "within_budget" not in study.table and "within_budget" not in study.cheapest
    with_budget = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10, 5], measure="P@5", m=8,
                                   min_d=0.1, budget=1e9)
    assert with_budget.table["within_budget"].all()
    assert with_budget.cheapest.name == study.cheapest.name


@pytest.mark.parametrize("measure", ["nDCG@0", "P@0", "AP@0", "nDCG@1.5", "Judged@0"])
def test_bad_measure_parameters_fail_first(measure):
    with pytest.raises(InputError, match=f"measure='{measure}': the cutoff"):
        pool_depth_study(A_RUNS, qrels=A_QRELS, depths=[10], measure=measure)


@pytest.mark.slow
def test_decide_example_budget_rows_are_the_real_study():
    # workbook_templates/decide_example.toml: [[pool_depths]] from the bundled CLEF 2017 TAR
    # study (AP), rounded there to 4 significant digits (variance) and 1 decimal (documents).
    try:
        import tomllib
    except ImportError:                 # Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parents[3]
    spec = tomllib.loads((root / "workbook_templates" / "decide_example.toml").read_text())
    rows = spec["pool_depths"]
    runs, qrels = example_runs()
    with pytest.warns(UserWarning):
        study = pool_depth_study(runs, qrels=qrels, depths=[r["pd"] for r in rows],
                                 measure="AP", duplicates="first")
    for row in rows:
        got = study.table.loc[row["pd"]]
        assert row["docs_per_topic"] == round(got["docs_per_topic"], 1)
        assert row["variance"] == float(f"{got['v_e_raw']:.4g}")


# --- Incomplete judgments and condensed lists (issue 25.2) --------------------------------------

@pytest.fixture(scope="module")
def clef():
    """The bundled CLEF 2017 TAR runs (duplicates kept first), their qrels, and the qrels of a
    shallower collection: only the judgments of the depth-20 pool of the same runs (real runs,
    real judgments; the deeper pools are then mostly unjudged)."""
    import warnings

    runs_dir, qrels_path = example_runs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runs = read_runs(runs_dir, duplicates="first")
    qrels = read_qrels(qrels_path)
    shallow = qrels.merge(depth_pool(runs, 20), on=["query_id", "doc_id"])
    return runs, qrels, shallow


def _judged_share(runs, qrels, depth):
    """Independent count: pooled (topic, document) pairs that have a qrels line, over the
    pooled pairs, on the topics that both the runs and the qrels have."""
    pool = depth_pool(runs, depth)
    pool = pool[pool["query_id"].isin(set(qrels["query_id"]))]
    keys = set(zip(qrels["query_id"], qrels["doc_id"]))
    return sum((q, d) in keys for q, d in zip(pool["query_id"], pool["doc_id"])) / len(pool)


@pytest.mark.slow
def test_judged_share_per_depth_and_warning_below_90_percent(clef):
    import warnings

    runs, qrels, shallow = clef
    depths = [100, 50, 20, 10]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = pool_depth_study(runs, qrels=shallow, depths=depths, measure="AP")
    for d in depths:
        assert study.table.loc[d, "judged_share"] == pytest.approx(
            _judged_share(runs, shallow, d), abs=1e-12)
    # the depth-20 qrels judge about a quarter of the depth-100 pool, and (nearly) all of the
    # depth-20 and depth-10 pools (a few pooled documents are unjudged upstream: 98%)
    assert study.table.loc[100, "judged_share"] < 0.3 < 0.9 < study.table.loc[20, "judged_share"]
    found = [w for w in caught if issubclass(w.category, IncompleteJudgmentsWarning)]
    assert len(found) == 1
    text = str(found[0].message)
    assert "pd=100" in text and "pd=50" in text and "pd=20" not in text and "\n" not in text
    # the complete qrels: every share above 90%, no warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        full = pool_depth_study(runs, qrels=qrels, depths=[100, 5], measure="AP")
    assert (full.table["judged_share"] > 0.9).all()
    assert full.table.loc[100, "judged_share"] == pytest.approx(_judged_share(runs, qrels, 100))
    assert not [w for w in caught if "qrels judge" in str(w.message)]


def test_condensed_lists_equal_ir_measures_judged_only(clef):
    """condensed=True against ir_measures' own judged_only (trec_eval -J), run by run, on the
    qrels of the depth-d pool: each run's full ranked list is given to ir_measures, which drops
    the unjudged documents itself."""
    runs, _, shallow = clef
    depth = 100
    study = pool_depth_study(runs, qrels=shallow, depths=[depth], measure="AP", condensed=True)
    plain = pool_depth_study(runs, qrels=shallow, depths=[depth], measure="AP")
    got = study.scores[depth][0]
    pool = depth_pool(runs, depth)
    pooled = shallow.merge(pool, on=["query_id", "doc_id"])
    qrels = [ir_measures.Qrel(q, d, int(r)) for q, d, r in
             zip(pooled["query_id"], pooled["doc_id"], pooled["relevance"])]
    measure = ir_measures.AP(judged_only=True)
    checked = 0
    for name, run in runs.items():
        want = {m.query_id: m.value for m in ir_measures.iter_calc(
            [measure], qrels, [ir_measures.ScoredDoc(q, d, float(s)) for q, d, s in
                               zip(run["query_id"], run["doc_id"], run["score"])])}
        values = np.array([want.get(t, 0.0) for t in got.index])
        np.testing.assert_allclose(got[name].to_numpy(), values, atol=1e-12)
        checked += 1
    assert checked == 20 and study.condensed and not plain.condensed
    # condensing changes the scores: the unjudged documents no longer push judged ones down
    assert (got.to_numpy() >= plain.scores[depth][0].to_numpy() - 1e-12).all()
    assert (got.to_numpy() > plain.scores[depth][0].to_numpy() + 1e-6).any()


def test_n_interval_per_depth_is_the_bootstrap_of_each_depths_matrix():
    """The interval at each depth equals n_interval on that depth's matrix with the same seed:
    the study resamples the same topics at every depth and calls anova_n once."""
    from topicsetsize.designs.anova import anova_n
    from topicsetsize.estimates.uncertainty import n_interval

    study = pool_depth_study("tests/data/pool_runs/A/runs",
                             qrels="tests/data/pool_runs/A/qrels.txt", depths=[60, 10],
                             measure="AP", m=8, min_d=0.05, n_boot=300, seed=4,
                             variance_from="std-ab")
    assert study.n_interval.seed == 4 and study.n_interval.estimator == "one-way std-ab"
    for k, depth in enumerate([60, 10]):
        alone = n_interval(study.scores[depth][0],
                           lambda v: anova_n(0.05, 0.20, 0.05, v, 8), scale="std-ab",
                           n_boot=300, seed=4)
        assert (study.table.loc[depth, "n low"], study.table.loc[depth, "n high"]) == (
            alone.lower, alone.upper)
        assert study.n_interval.lower[k] == alone.lower
    without = pool_depth_study("tests/data/pool_runs/A/runs",
                               qrels="tests/data/pool_runs/A/qrels.txt", depths=[60],
                               measure="AP", m=8, min_d=0.05, n_boot=None)
    assert without.n_interval is None and "n low" not in without.table


# --- Cost: each run read once, each depth evaluated once (issue 28.2) -------------------------

def test_each_run_is_read_once_and_each_depth_evaluated_once(monkeypatch):
    # Before, every run was read and checked twice (once for the pools, once to evaluate it):
    # 16 reads of the 8 runs here. Now once; one ir_measures evaluator per depth, and each run
    # evaluated once at each depth.
    import topicsetsize.decide.pooling as pooling
    import topicsetsize.matrices.evaluation as evaluation

    calls = {"read": [], "evaluator": 0, "score": 0}
    parse_run, evaluator_for, score_run = (evaluation.parse_run, pooling.evaluator_for,
                                           pooling.score_run)

    def counted_read(path, **kw):
        calls["read"].append(Path(path).name)
        return parse_run(path, **kw)

    def counted_evaluator(*args, **kw):
        calls["evaluator"] += 1
        return evaluator_for(*args, **kw)

    def counted_score(*args, **kw):
        calls["score"] += 1
        return score_run(*args, **kw)

    monkeypatch.setattr(evaluation, "parse_run", counted_read)
    monkeypatch.setattr(pooling, "evaluator_for", counted_evaluator)
    monkeypatch.setattr(pooling, "score_run", counted_score)
    depths = [60, 20, 5]
    study = pool_depth_study(A_RUNS, qrels=A_QRELS, depths=depths, measure="AP")
    files = sorted(p.name for p in A_RUNS.iterdir())
    assert sorted(calls["read"]) == files                     # each of the 8 runs once
    assert calls["evaluator"] == len(depths)
    assert calls["score"] == len(depths) * len(files)
    # ... and the numbers are those of the independent per-depth loop.
    naive = naive_pool_depth_study(A_RUNS, A_QRELS, depths, "AP")
    for depth, (_, matrix) in naive.items():
        got = study.scores[depth][0]
        assert np.allclose(got.loc[matrix.index, matrix.columns], matrix, atol=1e-12)


def test_runs_given_as_frames_are_checked_once(monkeypatch):
    import topicsetsize.matrices.evaluation as evaluation

    names = []
    as_run = evaluation.as_run

    def counted(run, name, **kw):
        names.append(name)
        return as_run(run, name, **kw)

    monkeypatch.setattr(evaluation, "as_run", counted)
    runs = read_runs(A_RUNS)
    pool_depth_study(runs, qrels=A_QRELS, depths=[10, 5], measure="P@5")
    # the collection's label (its qrels) then the run: each run once (twice before)
    assert sorted(names) == sorted(f"{A_QRELS}: run {k}" for k in runs)


def _lacking_warnings(caught) -> list[str]:
    """The lines of the warnings that some run retrieved nothing for some topics."""
    return [str(w.message) for w in caught if "retrieved nothing" in str(w.message)]


def test_a_run_lacking_topics_is_named_once_a_study_as_evaluate_names_it(runs_lacking_topics):
    # Arun3 has no line for topics 401 and 402: scored 0 there at every depth, and the study
    # says so once (not once a depth), in the words of evaluate's warning on the same runs.
    import warnings

    from tests.conftest import LACKED_TOPICS, LACKING_RUN
    from topicsetsize.matrices.evaluation import evaluate_runs

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = pool_depth_study(runs_lacking_topics, qrels=A_QRELS, depths=[60, 20, 5],
                                 measure="AP")
    said = _lacking_warnings(caught)
    assert said == ["1 of 8 runs retrieved nothing for some of the 25 matched topics, scored 0 "
                    "there (as trec_eval -c does): Arun3 lacks 2 (401, 402)"]
    for depth in (60, 20, 5):
        assert (study.scores[depth][0].loc[list(LACKED_TOPICS), LACKING_RUN] == 0).all()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate_runs(runs_lacking_topics, A_QRELS, "AP")
    assert _lacking_warnings(caught) == said


def test_no_lacking_warning_where_every_run_has_every_topic():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = pool_depth_study([A_RUNS, B_RUNS], qrels=[A_QRELS, B_QRELS], depths=[20, 5],
                                 measure="AP")
    assert study.table["topics"].iloc[0] == 45            # the study ran: 25 + 20 topics
    assert _lacking_warnings(caught) == []


def test_several_collections_name_the_one_with_the_lacking_run(runs_lacking_topics):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pool_depth_study([runs_lacking_topics, B_RUNS], qrels=[A_QRELS, B_QRELS], depths=[10],
                         measure="AP")
    (line,) = _lacking_warnings(caught)
    assert line.startswith(f"{A_QRELS}: 1 of 8 runs retrieved nothing") and "Arun3 lacks 2" in line


@pytest.mark.slow
def test_the_bundled_iiit_run_lacks_three_topics():
    # The real CLEF 2017 TAR data: IIIT's run (tag pubmed) has no result for 3 of the 30
    # topics (topicsetsize/data/clef2017_tar/README.md: "30 topics (IIIT: 27)").
    import warnings

    runs, qrels = example_runs()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = pool_depth_study(runs, qrels=qrels, depths=[20, 10], measure="AP",
                                 duplicates="first")
    assert _lacking_warnings(caught) == [
        "1 of 20 runs retrieved nothing for some of the 30 matched topics, scored 0 there (as "
        "trec_eval -c does): pubmed lacks 3 (CD009135, CD010276, CD011145)"]
    lacked = ["CD009135", "CD010276", "CD011145"]
    assert (study.scores[10][0].loc[lacked, "pubmed"] == 0).all()
    assert "runs named by their run tags" in study.scores[10][0].attrs["run_names_note"]


@pytest.mark.slow
def test_topics_without_a_relevant_document_in_a_shallow_pool_are_named(clef):
    """A reviewer's finding: at pd = 1 five of the 30 CLEF 2017 TAR topics have no relevant
    document in the pool, so every run scores 0 on them, and they stayed in V_E and n without a
    word (trec_eval on that depth's qrels, and `evaluate`, leave such topics out). One warning
    names each depth's count, the first against the topics in all, and the V_E without them.
    Independent count: the depth pool built by pandas (depth_pool, tested against a Python loop
    above) joined with the qrels; V_E without them by residual_variance of the study's own
    matrix with those rows dropped."""
    import re
    import warnings

    from topicsetsize.decide.pools import NoRelevantWarning

    runs, qrels, _ = clef
    relevant = qrels[qrels["relevance"] >= 1]
    topics = sorted(set(qrels["query_id"]).intersection(
        set().union(*(set(r["query_id"]) for r in runs.values()))))
    expected = {}
    for depth in (5, 1):
        pool = depth_pool(runs, depth).merge(relevant, on=["query_id", "doc_id"])
        expected[depth] = [t for t in topics if t not in set(pool["query_id"])]
    assert [len(expected[5]), len(expected[1])] == [1, 5]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = pool_depth_study(runs, qrels=qrels, depths=[20, 5, 1], measure="AP")
    found = [str(w.message) for w in caught if issubclass(w.category, NoRelevantWarning)]
    assert len(found) == 1
    counts = re.findall(r"(\d+)(?: of the (\d+))? at pd=(\d+) \(V_E raw without them ([\d.]+)\)",
                        found[0])
    assert [(int(c), int(d)) for c, _, d, _ in counts] == [(1, 5), (5, 1)]
    assert counts[0][1] == str(len(topics)) == "30"
    for (_, _, depth, shown), lost in zip(counts, (expected[5], expected[1])):
        matrix = study.scores[int(depth)][0]
        assert (matrix.loc[lost] == 0).all().all()          # every run scores 0 there
        assert float(shown) == pytest.approx(
            tss.residual_variance(matrix.drop(index=lost).to_numpy()), rel=1e-3)
    assert "pd=20" not in found[0]


def test_a_depth_that_adds_no_document_is_not_said_beyond_the_runs(tmp_path):
    """pd=2 adds nothing to pd=1's pool here (every rank-2 document is another run's rank 1),
    but run r1 ranks a new document, c, at rank 3: "pd=2 is deeper than the runs reach (no run
    ranks a new document below rank 1)" was false (a reviewer's find). It says that pd=2 adds
    no document, and the table agrees; with pd=3, c enters and nothing is said."""
    import warnings

    from topicsetsize.decide.pools import DeeperThanRunsWarning

    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "r1").write_text("".join(f"{t} Q0 {d} {k} {9 - k} r1\n" for t in (1, 2)
                                     for k, d in enumerate("abc", start=1)))
    (runs / "r2").write_text("".join(f"{t} Q0 {d} {k} {9 - k} r2\n" for t in (1, 2)
                                     for k, d in enumerate("ba", start=1)))
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n2 0 a 0\n2 0 b 1\n2 0 c 1\n")
    with pytest.warns(DeeperThanRunsWarning) as caught:
        study = pool_depth_study(str(runs), qrels=str(qrels), depths=[2, 1], measure="AP")
    message = str(caught[0].message)
    assert message.startswith("pd=2 adds no document to the pool of pd=1 (no document's best "
                              "rank over the runs is 2), so its pool, V_E and n are those of "
                              "pd=1")
    assert "deeper than the runs reach" not in message
    assert study.table.loc[2, "judged"] == study.table.loc[1, "judged"] == 4
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeeperThanRunsWarning)
        deeper = pool_depth_study(str(runs), qrels=str(qrels), depths=[3, 1], measure="AP")
    assert deeper.table.loc[3, "judged"] == 6              # c enters at pd = 3, both topics


def test_too_few_topics_give_no_interval_of_n(tmp_path):
    """With 2 past topics the interval of n lay above the point (n = 6 in [12, 12]; a
    reviewer's find): below MIN_BOOT_TOPICS topics the study says so and makes none."""
    from topicsetsize.decide.depth_sizes import MIN_BOOT_TOPICS

    runs = tmp_path / "runs"
    runs.mkdir()
    for r, order in (("r1", "abcd"), ("r2", "badc"), ("r3", "cadb")):
        (runs / r).write_text("".join(f"{t} Q0 {d} {k} {9 - k} {r}\n" for t in (1, 2)
                                      for k, d in enumerate(order, start=1)))
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n1 0 d 0\n2 0 a 0\n2 0 b 1\n2 0 c 0\n2 0 d 1\n")
    assert MIN_BOOT_TOPICS > 2
    with pytest.warns(UserWarning, match="no interval of n: 2 past topics are too few to "
                                         f"resample \\(at least {MIN_BOOT_TOPICS}\\)"):
        study = pool_depth_study(str(runs), qrels=str(qrels), depths=[4, 2], measure="AP", m=3,
                                 min_d=0.2)
    assert study.n_interval is None and "n low" not in study.table
    assert study.table["n"].notna().all()
