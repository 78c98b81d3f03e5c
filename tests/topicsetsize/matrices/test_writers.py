"""Writers: trec_eval -q and long-format files, atomically, with checked labels."""

from __future__ import annotations

import pandas as pd
import pytest

from topicsetsize.errors import InputError
from topicsetsize.matrices.readers import read_matrix
from topicsetsize.matrices.writers import write_long, write_trec_eval


def test_writers_leave_no_temporary_files(tmp_path):
    scores = pd.DataFrame({"bm25": [0.1, 0.2], "dfr": [0.3, 0.4]}, index=["401", "402"])
    paths = write_trec_eval(scores, folder=tmp_path / "out", measure="ndcg_cut_10")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["bm25.txt", "dfr.txt"]
    assert [p.name for p in paths] == ["bm25.txt", "dfr.txt"]
    lines = paths[0].read_text().splitlines()
    assert [line.split() for line in lines] == [["runid", "all", "bm25"],
                                                ["ndcg_cut_10", "401", "0.1"],
                                                ["ndcg_cut_10", "402", "0.2"],
                                                ["ndcg_cut_10", "all", repr((0.1 + 0.2) / 2)]]
    long = write_long(scores, path=tmp_path / "long.tsv", measure="map")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.tsv", "out"]
    assert long.read_text().splitlines()[:2] == ["run\ttopic\tmeasure\tvalue",
                                                 "bm25\t401\tmap\t0.1"]


def test_trec_eval_writer_rejects_unwritable_labels(tmp_path):
    with pytest.raises(InputError, match=r"topic/run label 'my run' cannot be written"):
        write_trec_eval(pd.DataFrame({"my run": [0.1, 0.2]}), folder=tmp_path, measure="map")
    with pytest.raises(InputError, match=r"measure 'P 10' cannot be written"):
        write_trec_eval([[0.1, 0.2]], folder=tmp_path, measure="P 10")


def test_written_files_read_back_to_the_same_numbers(tmp_path):
    scores = pd.DataFrame({"bm25": [0.1, 1 / 3], "dfr": [0.3, 2 / 3]}, index=["401", "402"])
    write_trec_eval(scores, folder=tmp_path / "runs", measure="map")
    back = read_matrix(tmp_path / "runs", measure="map")
    assert back.to_numpy().tolist() == scores.to_numpy().tolist()
    back = read_matrix(write_long(scores, path=tmp_path / "long.csv", measure="map"))
    assert back.to_numpy().tolist() == scores.to_numpy().tolist()


@pytest.mark.parametrize("sep", [",", "\t"])
def test_csv_without_pandas_is_pandas_to_csv(sep):
    # issue 28.3: write_matrices writes CSV with the csv module, as pandas' to_csv wrote it
    # (quoting, floats in shortest exact form at every magnitude, line ends)
    import numpy as np

    from topicsetsize.matrices.writers import csv_text, long_rows, long_table, wide_rows

    rng = np.random.default_rng(3)
    values = np.concatenate([rng.random(300), rng.random(300) * 10.0 ** rng.integers(-30, 30, 300),
                             [0.0, -0.0, 1.0, 1e16, 1e15, 1e-4, 1e-5, 1e-149, -2.5, 1 / 3]])
    frame = pd.DataFrame(values[:610].reshape(-1, 5), columns=["a", "b,c", 'd"e', "f g", "h\tj"],
                         index=[f"t{i}" for i in range(122)]).rename_axis(index="topic")
    assert csv_text(wide_rows(frame), sep) == frame.to_csv(sep=sep, lineterminator="\n")
    matrices = {"AP": frame, "P@10": frame / 3}
    assert csv_text(long_rows(matrices), sep) == long_table(matrices).to_csv(
        sep=sep, index=False, lineterminator="\n")
    stacked = pd.concat([f.rename_axis(columns="run").T.stack().rename("value").reset_index()
                         .assign(measure=m) for m, f in matrices.items()], ignore_index=True)
    assert long_table(matrices).values.tolist() == \
        stacked[["run", "topic", "measure", "value"]].values.tolist()   # pandas' own reshaping


def test_a_measures_tiny_values_are_written_as_they_are(tmp_path):
    # Compat(p=0.5) on CLEF 2017 TAR gives 1.8e-228: too small to compute a variance with, but
    # a matrix written out is data (a reviewer found `evaluate` refusing to print it)
    from topicsetsize.matrices.writers import csv_text, wide_rows, write_matrices

    frame = pd.DataFrame([[1.8034e-228, 0.5], [0.25, 1e-300]], index=["1", "2"],
                         columns=["a", "b"])
    assert csv_text(wide_rows(frame)).splitlines()[1:] == ["1,1.8034e-228,0.5", "2,0.25,1e-300"]
    out = write_matrices({"Compat": frame}, tmp_path / "m.csv")
    assert "1.8034e-228" in out.read_text()
    back = read_matrix(out)
    assert back.to_numpy().tolist() == frame.to_numpy().tolist()        # read back exactly
    from topicsetsize.matrices.matrix import check_matrix

    with pytest.raises(InputError, match="too small to compute with"):
        check_matrix(back)                          # computing with it is still refused
    with pytest.raises(InputError, match="missing or non-finite value nan"):
        write_matrices({"AP": frame.assign(a=float("nan"))}, tmp_path / "n.csv")
