"""evaluate_runs: trec_eval's numbers (checked by hand), its topics, and library failures."""

from __future__ import annotations

import ir_measures
import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.errors import InputError
from topicsetsize.examples import example_runs
from topicsetsize.matrices.evaluation import evaluate_runs


def _ap_by_hand(ranked_docs, relevant, n_relevant):
    """Average precision of a ranked list: mean over the relevant documents of the precision at
    the rank of each (a relevant document not retrieved counts 0), as trec_eval defines it."""
    hits, total = 0, 0.0
    for k, doc in enumerate(ranked_docs, start=1):
        if doc in relevant:
            hits += 1
            total += hits / k
    return total / n_relevant


def test_ap_with_ties_is_trec_evals_by_hand(tmp_path):
    # Topic 1: scores tie at 1.0 for d2, d10, d3: trec_eval ranks ties by docno descending
    # (strcmp): d3 > d2 > d10. The rank column (1..5 in file order) is ignored.
    run = tmp_path / "runs" / "r"
    run.parent.mkdir()
    run.write_text("1 Q0 d2 1 1.0 r\n1 Q0 d10 2 1.0 r\n1 Q0 d1 3 3.0 r\n"
                   "1 Q0 d3 4 1.0 r\n1 Q0 d4 5 0.5 r\n"
                   "2 Q0 x 1 1 r\n")
    qrels = tmp_path / "qrels"
    # topic 1: relevant d10 and d3 (graded 2), d9 relevant but not retrieved, d2 judged 0,
    # d4 negative (judged, not relevant); topic 3 has no relevant document: not a row.
    qrels.write_text("1 0 d10 1\n1 0 d3 2\n1 0 d9 1\n1 0 d2 0\n1 0 d4 -1\n2 0 x 1\n3 0 y 0\n")
    order = ["d1", "d3", "d2", "d10", "d4"]
    expected = _ap_by_hand(order, {"d10", "d3"}, 3)           # (1/2 + 2/4) / 3
    assert expected == pytest.approx(1 / 3)
    matrix = evaluate_runs(run.parent, qrels, "AP")
    assert matrix.index.tolist() == ["1", "2"]
    assert matrix.loc["1", "r"] == pytest.approx(expected, abs=1e-12)
    assert matrix.loc["2", "r"] == pytest.approx(1.0)
    # P@2 = 1/2 (d1 no, d3 yes); and the relevance level: AP(rel=2) counts only d3
    assert evaluate_runs(run.parent, qrels, "P@2").loc["1", "r"] == pytest.approx(0.5)
    assert evaluate_runs(run.parent, qrels, "AP(rel=2)").loc["1", "r"] == pytest.approx(
        _ap_by_hand(order, {"d3"}, 1))


def test_missing_topic_scores_zero_and_topics_need_a_relevant_document():
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    other = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "x"], "score": [1.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["1", "2", "3"], "doc_id": ["a", "b", "c"],
                          "relevance": [1, 1, 0]})
    matrix = evaluate_runs({"r": run, "s": other}, qrels, "P@1")  # r retrieves nothing for 2
    assert matrix.index.tolist() == ["1", "2"] and matrix["r"].tolist() == [1.0, 0.0]
    with pytest.raises(InputError, match="no topic has a relevant document"):
        evaluate_runs({"r": run}, qrels.assign(relevance=0), "AP")


def test_a_relevance_level_above_every_grade_is_refused_not_scored_zero():
    # an input review (2026-12-07): AP(rel=2) on binary qrels printed a matrix of zeros; with a
    # grade 2 in the qrels it is ir_measures' own AP(rel=2), computed here by it
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [1, 1]})
    with pytest.raises(InputError, match=r"^measure='AP\(rel=2\)': no document of the qrels has "
                                         r"relevance 2 or more \(the highest is 1\)"):
        evaluate_runs({"r": run}, qrels, "AP(rel=2)")
    graded = qrels.assign(relevance=[1, 2])
    got = evaluate_runs({"r": run}, graded, "AP(rel=2)")["r"].tolist()
    want = [m.value for m in ir_measures.iter_calc([ir_measures.parse_measure("AP(rel=2)")],
                                                   graded, run)]
    assert got == want == [0.5]


def test_real_runs_equal_ir_measures_on_trec_eval_order():
    runs, qrels = example_runs()
    with pytest.warns(UserWarning):
        matrix = tss.evaluate_runs(runs, qrels, "nDCG@10", duplicates="first")
    assert matrix.shape == (30, 20)
    q = pd.read_csv(qrels, sep=r"\s+", header=None, names=["qid", "it", "doc", "rel"],
                    dtype={"qid": str, "doc": str})
    qrels_list = [ir_measures.Qrel(a, b, int(c)) for a, b, c in q[["qid", "doc", "rel"]].values]
    for k, path in enumerate(sorted(runs.iterdir())[:3]):      # columns in file-name order
        r = pd.read_csv(path, sep=r"\s+", header=None, dtype=str,
                        names=["qid", "Q0", "doc", "rank", "score", "tag"])
        scored = [ir_measures.ScoredDoc(a, b, float(c))
                  for a, b, c in r[["qid", "doc", "score"]].values]
        per_topic = {m.query_id: m.value
                     for m in ir_measures.iter_calc([ir_measures.nDCG @ 10], qrels_list, scored)}
        expected = np.array([per_topic.get(t, 0.0) for t in matrix.index])
        assert matrix.iloc[:, k].to_numpy() == pytest.approx(expected, abs=1e-12)


def test_library_failure_is_one_line_naming_the_measure(monkeypatch):
    class Broken:
        def iter_calc(self, run):
            raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(ir_measures, "evaluator", lambda measures, qrels: Broken())
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    with pytest.raises(InputError, match=r"^measure='AP': ir_measures failed: boom$"):
        evaluate_runs({"r": run}, qrels, "AP")


def test_a_missing_required_parameter_names_it():
    # ir_measures says "invalid param cutoff=<object object at 0x...>" for P without @k.
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    with pytest.raises(InputError, match=r"^measure='P': ir_measures cannot evaluate it: the "
                                         r"parameter cutoff is required \(e.g. P@10"):
        evaluate_runs({"r": run}, qrels, "P")


def test_a_run_that_lacks_matched_topics_is_named_in_one_warning(tmp_path):
    """Review item 4: the IIIT CLEF 2017 run retrieves nothing for 3 of the 30 topics and scored
    0 there without a word (the stderr summary said 30 of 30 matched). Which topics it lacks is
    read here independently, with pandas, from the run file and the qrels."""
    import shutil
    import warnings

    from topicsetsize.matrices.topics import TopicMismatchWarning

    runs, qrels = example_runs()
    folder = tmp_path / "runs"
    folder.mkdir()
    for name in ("IIIT__run1.res.txt.gz", "ECNU__run2.res.txt.gz"):
        shutil.copy(runs / name, folder / name)
    read = dict(sep=r"\s+", header=None, dtype=str)
    iiit = pd.read_csv(runs / "IIIT__run1.res.txt.gz", **read)
    judged = pd.read_csv(qrels, **read)
    relevant = set(judged.loc[judged[3].astype(int) >= 1, 0])
    lacking = sorted(relevant - set(iiit[0]))
    assert len(lacking) == 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        matrix = evaluate_runs(folder, qrels, "AP")
    texts = [str(w.message) for w in caught if issubclass(w.category, TopicMismatchWarning)]
    expected = (f"1 of 2 runs retrieved nothing for some of the {len(relevant)} matched topics, "
                f"scored 0 there (as trec_eval -c does): {iiit[5].iloc[0]} lacks 3 "
                f"({', '.join(lacking)})")
    assert texts == [expected]
    assert (matrix.loc[lacking, iiit[5].iloc[0]] == 0).all()


def test_a_run_topic_without_relevant_documents_is_not_called_only_in_the_runs(tmp_path):
    """Review item 10: a qrels topic with no relevant document that a run retrieves was
    reported as "only in" the runs."""
    import warnings

    run = tmp_path / "r"
    run.write_text("1 Q0 a 1 2.0 r\n2 Q0 b 1 1.0 r\n")
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n2 0 b 0\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate_runs({"r": run}, qrels, "AP")
    text = " ".join(str(w.message) for w in caught)
    assert "only in" not in text
    assert (f"in runs but with no relevant document in {qrels}, so not scored (as trec_eval): "
            "1: 2") in text


def test_scores_of_any_real_type_are_read_as_float_reads_them():
    # pd.read_sql gives Decimal for NUMERIC columns; float() reads them (a reviewer found them
    # refused as "not a finite number" after the parse without pandas)
    from decimal import Decimal
    from fractions import Fraction

    qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["b", "c"], "relevance": [1, 1]})
    floats = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"],
                           "score": [2.5, 1.0, 1.0]})
    expected = evaluate_runs({"r": floats}, qrels, "AP")
    for scores in ([Decimal("2.5"), Decimal("1.0"), Decimal("1")],
                   [Fraction(5, 2), 1, np.float32(1.0)]):
        got = evaluate_runs({"r": floats.assign(score=scores)}, qrels, "AP")
        assert got.equals(expected)


def test_the_measures_functions_are_still_importable_from_evaluation():
    from topicsetsize.matrices import evaluation, measures

    for name in ("require_ir_measures", "parse_measure", "evaluator_for"):
        assert getattr(evaluation, name) is getattr(measures, name) and name in evaluation.__all__


def test_qrels_topics_that_no_run_retrieved_are_left_out(tmp_path):
    """Review (2026-12-06, item 1): a qrels file of two years (the CLEF 2017 qrels and a copy
    whose topics are renamed, as another year's would be) made the 30 topics no run retrieved
    rows of 0 for every run: 60 topics, V_E2 .0072 where the runs' own qrels give .0104, and
    two-way n (m = 10, minD = .05) from 132 down to 92, with only "30 of 60 matched" said. The
    matrix must be the one of the runs' own qrels, and the warning must say the others are left
    out."""
    import gzip
    import shutil
    import warnings

    from topicsetsize.matrices.topics import TopicMismatchWarning

    runs, qrels = example_runs()
    folder = tmp_path / "runs"
    folder.mkdir()
    for name in ("IIIT__run1.res.txt.gz", "ECNU__run2.res.txt.gz", "Waterloo__A-rank-cost.txt.gz"):
        shutil.copy(runs / name, folder / name)
    opener = gzip.open if str(qrels).endswith(".gz") else open
    with opener(qrels, "rt") as f:
        lines = f.read().splitlines()
    other_year = [f"X{line}" for line in lines]     # topic CD... becomes XCD...
    both = tmp_path / "two_years.qrels"
    both.write_text("\n".join(lines + other_year) + "\n")
    own = evaluate_runs(folder, qrels, "AP")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = evaluate_runs(folder, both, "AP")
    pd.testing.assert_frame_equal(got, own, check_like=False)
    texts = [str(w.message) for w in caught if issubclass(w.category, TopicMismatchWarning)]
    assert any(f"only in {both} (no run retrieved anything for them: left out): "
               f"{len(own)}: X" in t for t in texts)
    assert np.isclose(tss.two_way_residual_variance(got), tss.two_way_residual_variance(own))
