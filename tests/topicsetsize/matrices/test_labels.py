"""Labels that say a file holds more than topics and runs are refused (a reviewer's finds,
2026-12-06: each was read without a word, and each moved V_E and the topic count).

The files are TREC 2010 Web AP (tests/data) written as users write them: with a spreadsheet's
Average row, through pandas' ``reset_index().to_csv()``, without a header line, with one topic
under two spellings.
"""

from __future__ import annotations

import pandas as pd
import pytest

from topicsetsize.errors import InputError
from topicsetsize.estimates.variance import residual_variance
from topicsetsize.matrices.readers import read_matrix


@pytest.fixture(scope="module")
def web(data_dir) -> pd.DataFrame:
    """The bundled matrix with its topics numbered 1..48 (its ids are q01..q48), as TREC's are."""
    frame = pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)
    frame.index = range(1, len(frame) + 1)
    return frame


def _refused(path, *fragments) -> str:
    with pytest.raises(InputError) as info:
        read_matrix(path)
    message = str(info.value)
    assert "\n" not in message and all(f in message for f in fragments), message
    return message


@pytest.mark.parametrize("label", ["all", "Average", "mean", "Std", "TOTAL"])
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_summary_row_is_not_a_topic(web, tmp_path, label, suffix):
    with_row = pd.concat([web, web.mean().to_frame(label).T])
    # the harm it did: a 49th "topic" with little spread, a smaller V_E
    assert residual_variance(with_row.to_numpy()) < residual_variance(web.to_numpy())
    path = tmp_path / f"web{suffix}"
    (with_row.to_csv if suffix == ".csv" else with_row.to_excel)(path, index_label="topic")
    _refused(path, f"topic {label!r} looks like a summary of the topics")


def test_a_summary_column_is_not_a_run(web, tmp_path):
    path = tmp_path / "web.csv"
    web.assign(mean=web.mean(axis=1)).to_csv(path, index_label="topic")
    _refused(path, "run 'mean' looks like a summary of the runs")


@pytest.mark.parametrize("last", [False, True])
def test_a_column_of_topic_ids_is_not_a_run(web, tmp_path, last):
    # pandas' reset_index().to_csv(): row numbers 0..47 first, then the ids under "topic"
    frame = web.rename_axis("topic").reset_index()
    if last:
        frame = frame[[*web.columns, "topic"]]
    path = tmp_path / "web.csv"
    frame.to_csv(path, index=not last)
    _refused(path, "the column 'topic' holds distinct whole numbers under a topic-id header")


def test_a_missing_header_line_is_not_run_names(web, tmp_path):
    path = tmp_path / "web.csv"
    keep = [c for c in web.columns if web[c].iloc[0] not in web[c].iloc[1:].tolist()]
    distinct = web[keep].loc[:, ~web[keep].iloc[0].duplicated()]
    distinct.to_csv(path, header=False, index=False)
    _refused(path, "the run names are numbers", "add the header line")


@pytest.mark.parametrize("first, second", [("1", "001"), ("5", "5.0")])
def test_one_topic_under_two_spellings(web, tmp_path, first, second):
    frame = web.copy()
    frame.index = frame.index.astype(str)
    twice = pd.concat([frame, frame.loc[[first]].rename(index={first: second})])
    path = tmp_path / "web.csv"
    twice.to_csv(path, index_label="topic")
    _refused(path, f"topics {first!r} and {second!r} are one topic id written two ways")


def test_padded_ids_and_run_names_like_topics_are_still_read(web, tmp_path):
    # distinct padded ids are ids; a run whose name starts with "query" is a run
    frame = web.copy()
    frame.index = [f"{t:03d}" for t in web.index]
    frame = frame.rename(columns={web.columns[0]: "query_expansion"})
    path = tmp_path / "web.csv"
    frame.to_csv(path, index_label="topic")
    read = read_matrix(path)
    assert read.shape == web.shape and read.index[0] == "001"
    assert read.columns[0] == "query_expansion"


def test_a_folder_of_trec_eval_files_with_a_sub_folder_is_refused(web, tmp_path):
    from topicsetsize.matrices.writers import write_trec_eval

    write_trec_eval(web.iloc[:, :3], folder=tmp_path, measure="map")
    (tmp_path / "more").mkdir()
    write_trec_eval(web.iloc[:, 3:4], folder=tmp_path / "more", measure="map")
    _refused(tmp_path, "holds the folder more, whose trec_eval files would not be read")


def test_trec_eval_files_that_pad_topics_differently_are_one_refusal(web, tmp_path):
    # One run writes 001, the others 01: each topic was incomplete, and the message offered to
    # drop all 96 "incomplete topics" of a 48-topic file (a reviewer's find, 2026-12-06).
    from topicsetsize.matrices.writers import write_trec_eval

    padded = web.copy()
    padded.index = [f"{t:02d}" for t in web.index]
    write_trec_eval(padded.iloc[:, 1:3], folder=tmp_path, measure="map")
    padded.index = [f"{t:03d}" for t in web.index]
    write_trec_eval(padded.iloc[:, :1], folder=tmp_path, measure="map")
    _refused(tmp_path, "are one topic id written two ways")


@pytest.mark.parametrize("topics, pair", [(["1", "2", "01", "02"], ("1", "01")),
                                          (["7", "2", "002", "x"], ("2", "002")),
                                          (["a", " 5", "5.0"], (" 5", "5.0"))])
def test_the_two_spellings_named_are_one_number(topics, pair):
    from topicsetsize.matrices.labels import check_spellings

    with pytest.raises(InputError) as info:
        check_spellings(topics, "f.csv")
    assert str(info.value).startswith(f"f.csv: topics {pair[0]!r} and {pair[1]!r} are one")
    check_spellings(["1", "2", "1.5", "1.50", "9007199254740993", "9007199254740992"], "f.csv")


def test_a_run_or_qrels_file_given_as_a_matrix_says_what_it_is(tmp_path):
    # A qrels file read as a matrix said "several measures: D8, D36, ..." and a run "duplicate
    # run name '1'" (a reviewer's find); the bundled real CLEF 2017 TAR files, decompressed.
    import gzip

    from topicsetsize.examples import example_runs

    runs, qrels = example_runs()
    for source, kind in ((qrels, "qrels"), (sorted(runs.iterdir())[0], "run")):
        path = tmp_path / f"{kind}.txt"
        path.write_bytes(gzip.decompress(source.read_bytes()))
        _refused(path, f"a TREC {kind} file", "not a score matrix", "--runs FOLDER --qrels FILE")


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_runs_by_topics_with_a_blank_corner_are_read_with_a_warning(data_dir, tmp_path, suffix):
    """A reviewer's find (2026-12-06, item 2): TREC 2004 Robust AP written runs by topics with a
    blank corner cell (pandas' ``.T.to_csv()``) was read as 110 topics of 249 runs without a
    word: V_E .0169 for .0451, and 212 topics where 566 are needed (m = 10, minD = .05,
    exact). Its header is whole numbers (the topic ids 301..700) and its rows are not
    (sys1..sys110): one warning says how to read it; read with transpose it is the original
    matrix, and the original file says nothing."""
    import warnings

    robust = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    flipped = robust.T
    path = tmp_path / f"runs_by_topics{suffix}"
    flipped.to_excel(path) if suffix == ".xlsx" else flipped.to_csv(path)

    def read(p, **options):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = read_matrix(p, **options)
        return frame, [str(w.message) for w in caught if "named by whole numbers" in
                       str(w.message)]

    wrong, said = read(path)
    assert wrong.shape == (110, 249)
    assert said == [f"{path}: its 249 runs are named by whole numbers (301, 302, ...) and its "
                    "110 topics are not (sys1, ...): if its rows are runs and its header the "
                    "topic ids, read it with transpose=True (--transpose); as it is read, V_E "
                    "is that of the wrong axis"]
    assert residual_variance(wrong.to_numpy()) == pytest.approx(0.0169, abs=5e-5)
    right, said = read(path, transpose=True)
    assert not said
    assert residual_variance(right.to_numpy()) == pytest.approx(
        residual_variance(robust.to_numpy()), rel=1e-12)
    assert not read(data_dir / "trec2004robust_ap.csv")[1]
