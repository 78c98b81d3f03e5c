"""TREC run and qrels readers: content, and one-line errors naming the file and line."""

from __future__ import annotations

import ir_measures
import pandas as pd
import pytest

from topicsetsize.runfiles import as_qrels, as_run, read_qrels, read_run, read_runs


def test_read_run_matches_ir_measures(data_dir):
    path = data_dir / "pool_runs" / "A" / "runs" / "Arun1"
    run = read_run(path)
    theirs = pd.DataFrame(ir_measures.read_trec_run(str(path)))
    assert run["query_id"].tolist() == theirs["query_id"].tolist()
    assert run["doc_id"].tolist() == theirs["doc_id"].tolist()
    assert run["score"].tolist() == pytest.approx(theirs["score"].tolist())
    assert run["rank"].tolist()[:3] == [1, 2, 3]


def test_read_qrels_matches_ir_measures(data_dir):
    path = data_dir / "pool_runs" / "B" / "qrels.txt"
    theirs = pd.DataFrame(ir_measures.read_trec_qrels(str(path)))
    ours = read_qrels(path)
    assert ours["relevance"].tolist() == theirs["relevance"].tolist()
    assert len(ours) == 3678


def test_blank_lines_and_tabs(tmp_path):
    f = tmp_path / "run"
    f.write_text("1\tQ0\td1\t1\t2.5\tr\n\n1  Q0 d2 2 1.5 r\n")
    assert read_run(f)["doc_id"].tolist() == ["d1", "d2"]


@pytest.mark.parametrize("text, match", [
    ("1 Q0 d1 1 2.5 r\n1 Q0 d2 2 r\n", r"run, line 2: expected 6 fields .*, got 5"),
    ("1 Q0 d1 1 2.5 r x\n", r"run, line 1: expected 6 fields .*, got 7"),
    ("1 Q0 d1 1 2.5 r\n\n1 Q0 d2 1 1.5 r\n", r"run, line 3: rank 1 is given twice for topic '1'"),
    ("1 Q0 d1 1 2.5 r\n1 Q0 d1 2 1.5 r\n", r"run, line 2: document 'd1' is retrieved twice"),
    ("1 Q0 d1 one 2.5 r\n", r"run, line 1: rank='one' is not a whole number"),
    ("1 Q0 d1 1 high r\n", r"run, line 1: score='high' is not a number"),
    ("1 Q0 d1 1 nan r\n", r"run, line 1: score='nan' is not a number"),
    ("", r"run: the file is empty"),
])
def test_bad_run(tmp_path, text, match):
    _assert_one_line_error(read_run, tmp_path / "run", text, match)


@pytest.mark.parametrize("text, match", [
    ("1 0 d1\n", r"qrels, line 1: expected 4 fields .*, got 3"),
    ("1 0 d1 1\n1 0 d1 0\n", r"qrels, line 2: document 'd1' is judged twice"),
    ("1 0 d1 0.5\n", r"qrels, line 1: relevance='0.5' is not a whole number"),
])
def test_bad_qrels(tmp_path, text, match):
    _assert_one_line_error(read_qrels, tmp_path / "qrels", text, match)


def _assert_one_line_error(reader, path, text, match):
    """``reader`` fails on a file holding ``text`` with one line that matches ``match``."""
    path.write_text(text)
    with pytest.raises(ValueError, match=match) as info:
        reader(path)
    assert "\n" not in str(info.value)


def test_folders(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such folder"):
        read_runs(tmp_path / "missing")
    with pytest.raises(ValueError, match="holds no run file"):
        read_runs(tmp_path)
    (tmp_path / ".hidden").write_text("junk")
    (tmp_path / "r1").write_text("1 Q0 d1 1 1 r1\n")
    assert list(read_runs(tmp_path)) == ["r1"]
    with pytest.raises(FileNotFoundError, match="no such file"):
        read_qrels(tmp_path / "nope")


def test_frames():
    run = as_run(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "score": [1, 2]}))
    assert run["query_id"].tolist() == ["1", "1"] and run["score"].dtype == float
    with pytest.raises(ValueError, match="missing column"):
        as_run(pd.DataFrame({"qid": [1]}))
    with pytest.raises(ValueError, match="retrieved twice"):
        as_run(pd.DataFrame({"qid": [1, 1], "docno": ["a", "a"], "score": [1, 2]}))
    qrels = as_qrels(pd.DataFrame({"qid": ["1"], "docno": ["a"], "rel": [2]}))
    assert qrels["relevance"].tolist() == [2]
