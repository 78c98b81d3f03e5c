"""Readers: the real matrices load through every format; every bad file gives its one-line error."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from topicsetsize.errors import InputError
from topicsetsize.matrices.readers import IncompleteTopicsWarning, read_matrix
from topicsetsize.matrices.writers import write_long, write_trec_eval

REAL = ["trec2010web_ap.csv", "trec2004robust_ap.csv"]


def expected_matrix(data_dir, name) -> pd.DataFrame:
    """The file as pandas reads it, with text labels: the independent reference."""
    frame = pd.read_csv(data_dir / name, index_col=0)
    frame.index = frame.index.astype(str)
    frame.columns = frame.columns.astype(str)
    return frame


def same(frame: pd.DataFrame, expected: pd.DataFrame) -> None:
    assert frame.index.tolist() == expected.index.tolist()
    assert frame.columns.tolist() == expected.columns.tolist()
    assert frame.dtypes.eq(float).all()
    np.testing.assert_array_equal(frame.to_numpy(), expected.to_numpy())


def one_line_error(exc_info, *fragments: str) -> str:
    message = str(exc_info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.fixture(scope="module", params=REAL)
def real(request, data_dir):
    return request.param, expected_matrix(data_dir, request.param)


@pytest.fixture(scope="module")
def written(real, tmp_path_factory):
    """The real matrix written out in every format the readers take."""
    name, frame = real
    out = tmp_path_factory.mktemp(name.split(".")[0])
    frame.to_csv(out / "wide.tsv", sep="\t")
    frame.T.to_csv(out / "runs_as_rows.csv")
    frame.to_excel(out / "wide.xlsx", sheet_name="AP")
    write_trec_eval(frame, folder=out / "trec_eval", measure="map")
    write_long(frame, path=out / "long.csv", measure="map")
    write_long(frame, path=out / "long.tsv", measure="map")
    # headerless long, as a script might write it
    long = frame.T.stack().reset_index()
    long.insert(2, "measure", "map")
    long.to_csv(out / "long_no_header.csv", header=False, index=False)
    return out


# ---- every reader gives the same numbers ------------------------------------------------------

def test_wide_csv(real, data_dir):
    name, expected = real
    frame = read_matrix(data_dir / name)
    same(frame, expected)
    assert frame.attrs["format"] == "wide" and frame.attrs["dropped_topics"] == []
    assert frame.index.name == "topic" and frame.columns.name == "run"


@pytest.mark.parametrize("file, kwargs", [
    ("wide.tsv", {}),
    ("runs_as_rows.csv", {"transpose": True}),
    ("wide.xlsx", {}),
    ("wide.xlsx", {"measure": "AP"}),
    ("trec_eval", {"measure": "map"}),
    ("trec_eval", {}),                    # the only measure: no need to name it
    ("long.csv", {"measure": "map"}),
    ("long.tsv", {}),
    ("long_no_header.csv", {}),
])
def test_every_reader_reads_the_same_numbers(real, written, file, kwargs):
    same(read_matrix(written / file, **kwargs), real[1])


def test_trec_eval_list_of_files(real, written):
    files = sorted((written / "trec_eval").iterdir())          # sys1, sys10, sys11, ...
    same(read_matrix(files, measure="map"), real[1][[f.stem for f in files]])


@pytest.mark.parametrize("file, fmt", [("wide.tsv", "wide"), ("wide.xlsx", "xlsx"),
                                       ("trec_eval", "trec_eval"), ("long.csv", "long"),
                                       ("long_no_header.csv", "long")])
def test_format_is_detected(written, file, fmt):
    assert read_matrix(written / file).attrs["format"] == fmt
    assert read_matrix(written / file, fmt=fmt).attrs["format"] == fmt


def test_two_run_tsv_is_not_taken_for_trec_eval(tmp_path):
    # three blank-separated fields per line, like trec_eval output, but a header and unique ids
    path = tmp_path / "two.tsv"
    path.write_text("topic\tbm25\tdfr\n401\t0.25\t0.5\n402\t0.125\t0.75\n")
    frame = read_matrix(path)
    assert frame.attrs["format"] == "wide" and frame.columns.tolist() == ["bm25", "dfr"]


def test_r_write_table_layout(tmp_path):
    # R: write.table(m) writes blank-separated, quoted names, and no corner cell in the header
    path = tmp_path / "scores.txt"
    path.write_text('"bm25" "dfr"\n"401" 0.25 0.5\n"402" 0.125 0.75\n')
    frame = read_matrix(path)
    assert frame.columns.tolist() == ["bm25", "dfr"] and frame.index.tolist() == ["401", "402"]
    assert frame.to_numpy().tolist() == [[0.25, 0.5], [0.125, 0.75]]


# ---- realistic trec_eval -q output -----------------------------------------------------------

TREC_EVAL = """runid                 	all	{run}
num_q                 	all	2
num_ret               	401	1000
num_ret               	402	1000
num_ret               	all	2000
map                   	401	0.2500
map                   	402	0.1250
map                   	all	0.1875
P_10                  	401	0.3000
P_10                  	402	0.1000
P_10                  	all	0.2000
"""


def write_trec_eval_files(folder, runs: dict[str, str]):
    folder.mkdir()
    for file, run in runs.items():
        (folder / file).write_text(TREC_EVAL.format(run=run))
    return folder


def test_trec_eval_measures_all_rows_and_runid(tmp_path):
    folder = write_trec_eval_files(tmp_path / "runs", {"a.txt": "bm25", "b.txt": "dfr"})
    frame = read_matrix(folder, measure="P_10")
    assert frame.columns.tolist() == ["bm25", "dfr"]          # from the runid lines
    assert frame.index.tolist() == ["401", "402"]             # the "all" rows are dropped
    assert frame.to_numpy().tolist() == [[0.3, 0.3], [0.1, 0.1]]
    with pytest.raises(InputError) as exc:
        read_matrix(folder, measure="ndcg_cut_10")
    one_line_error(exc, "a.txt", "no measure 'ndcg_cut_10'", "num_ret, map, P_10")
    with pytest.raises(InputError) as exc:
        read_matrix(folder)
    one_line_error(exc, "several measures", "--measure", "num_ret, map, P_10")


def test_trec_eval_run_named_by_file_without_runid(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    for run in ("first", "second"):
        (folder / f"{run}.eval").write_text("map\t1\t0.5\nmap\t2\t0.25\nmap\tall\t0.375\n")
    assert read_matrix(folder).columns.tolist() == ["first", "second"]


def test_trec_eval_duplicate_run_name(tmp_path):
    folder = write_trec_eval_files(tmp_path / "runs", {"a.txt": "bm25", "b.txt": "bm25"})
    with pytest.raises(InputError) as exc:
        read_matrix(folder, measure="map")
    one_line_error(exc, "duplicate run name 'bm25' in a.txt and b.txt")


def test_trec_eval_missing_topic_names_the_file(tmp_path):
    folder = write_trec_eval_files(tmp_path / "runs", {"a.txt": "bm25", "b.txt": "dfr"})
    text = (folder / "b.txt").read_text().replace("map                   \t402\t0.1250\n", "")
    (folder / "b.txt").write_text(text)
    with pytest.raises(InputError) as exc:
        read_matrix(folder, measure="map")
    message = one_line_error(exc, "missing scores at topic '402', run 'dfr' (no line for it in "
                             "b.txt)", "drop_incomplete_topics=True")
    # trec_eval without -c leaves out a topic a run retrieved nothing for: said how to score
    # it 0 instead of dropping it (a review, 2026-12-08); a wide file's gap is not said so
    assert message.endswith("; or, where a run retrieved nothing for a topic, score it 0 as "
                            "trec_eval -c does: rerun trec_eval -q -c (dropping the topic "
                            "favours that run)")


def test_single_trec_eval_file_is_one_run(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text(TREC_EVAL.format(run="bm25"))
    with pytest.raises(InputError) as exc:
        read_matrix(path, measure="map")
    one_line_error(exc, "has 1 run ('bm25')", "give the folder (or list) of run files")


def test_empty_folder(tmp_path):
    with pytest.raises(InputError) as exc:
        read_matrix(tmp_path)
    one_line_error(exc, "the folder has no files")


# ---- long format -----------------------------------------------------------------------------

def test_long_with_pandas_index_column_and_other_order(tmp_path):
    path = tmp_path / "long.csv"
    pd.DataFrame({"query_id": ["1", "2", "1", "2", "1"], "score": [0.5, 0.25, 0.75, 0.5, 9.0],
                  "system": ["x", "x", "y", "y", "y"],
                  "metric": ["ndcg", "ndcg", "ndcg", "ndcg", "P_10"]}).to_csv(path)
    frame = read_matrix(path, measure="ndcg")
    assert frame.columns.tolist() == ["x", "y"] and frame.index.tolist() == ["1", "2"]
    assert frame.to_numpy().tolist() == [[0.5, 0.75], [0.25, 0.5]]
    with pytest.raises(InputError) as exc:
        read_matrix(path, measure="map")
    one_line_error(exc, "no measure 'map'", "ndcg, P_10")


def test_long_without_measure_column(tmp_path):
    path = tmp_path / "long.tsv"
    path.write_text("run\ttopic\tscore\nx\t1\t0.5\nx\t2\t0.25\ny\t1\t0.75\ny\t2\t0.5\n")
    frame = read_matrix(path)
    assert frame.to_numpy().tolist() == [[0.5, 0.75], [0.25, 0.5]]
    assert frame.attrs["format"] == "long" and frame.attrs["measure"] is None


def test_long_duplicate_score(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("run,topic,measure,value\nx,1,map,0.5\nx,2,map,0.5\nx,1,map,0.6\n")
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    one_line_error(exc, "duplicate score for run 'x', topic '1', measure 'map' (line 2 and line 4)")


# ---- bad files: each gives its clear one-line error ---------------------------------------

BAD_FILES = {
    "ragged.csv": ("topic,a,b,c\n1,0.1,0.2,0.3\n2,0.1,0.2\n3,0.1,0.2,0.3\n",
                   ["ragged.csv", "ragged rows: line 3 has 3 fields but line 1 has 4"]),
    "too_many.csv": ("topic,a,b\n1,0.1,0.2\n2,0.1,0.2,0.3\n",
                     ["too_many.csv", "ragged rows: line 1 has 3 fields but line 3 has 4"]),
    "text.csv": ("topic,a,b\n1,0.1,0.2\n2,0.1,good\n",
                 ["text.csv", "non-numeric score 'good' at topic '2', run 'b' (line 3, field 3)"]),
    "duplicate_run.csv": ("topic,a,b,a\n1,0.1,0.2,0.3\n2,0.1,0.2,0.3\n",
                          ["duplicate_run.csv", "duplicate run name 'a' at line 1, field 2 and "
                           "line 1, field 4"]),
    "duplicate_topic.csv": ("topic,a,b\n1,0.1,0.2\n1,0.1,0.2\n",
                            ["duplicate topic id '1' at line 2, field 1 and line 3, field 1"]),
    "empty.csv": ("", ["empty.csv", "the file is empty"]),
    "blank.csv": ("\n  \n", ["blank.csv", "the file is empty"]),
    "infinite.csv": ("topic,a,b\n1,0.1,inf\n2,0.1,0.2\n",
                     ["non-finite score 'inf' at topic '1', run 'b' (line 2, field 3)"]),
    "one_run.csv": ("topic,a\n1,0.1\n2,0.2\n",
                    ["one_run.csv has 1 run ('a')", "at least 2 runs",
                     "if the runs are the rows, use transpose=True"]),
    "one_topic.csv": ("topic,a,b\n1,0.1,0.2\n", ["one_topic.csv has 1 topic ('1')",
                                                  "at least 2 topics"]),
    "empty_run_name.csv": ("topic,a,\n1,0.1,0.2\n2,0.1,0.2\n",
                           ["empty run name at line 1, field 3"]),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_text_files(tmp_path, name):
    text, fragments = BAD_FILES[name]
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    one_line_error(exc, *fragments)


@pytest.mark.parametrize("head, kind", [(b"\x00\x01\x02binary\xff\xfe" * 20, "binary"),
                                        (b"\x1f\x8b\x08\x00" + bytes(50), "gzip-compressed"),
                                        (bytes(range(256)), "binary")])
def test_binary_file(tmp_path, head, kind):
    path = tmp_path / "scores.csv"
    path.write_bytes(head)
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    message = one_line_error(exc, f"scores.csv: a {kind} file, not a score matrix")
    assert ("decompress it first" in message) == (kind != "binary")


@pytest.mark.parametrize("name, kind", [("decide_example.toml", "TOML"), ("plan.TOML", "TOML"),
                                        ("x.json", "JSON")])
def test_a_spec_or_plan_given_as_a_matrix_is_named_as_such(tmp_path, name, kind):
    # a review, 2026-12-07: the bundled decide_example.toml given as a matrix was refused with
    # "ragged rows: line 1 has 15 fields but line 21 has 31"
    from topicsetsize.generator import bundled_spec

    path = tmp_path / name
    path.write_bytes(bundled_spec("decide_example").read_bytes())
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    one_line_error(exc, f"{name}: a {kind} file, not a score matrix: give a CSV/TSV, .xlsx, "
                   "long-format or trec_eval -q file of topics x runs")
    with pytest.raises(InputError, match="ragged rows"):   # --format reads it all the same
        read_matrix(path, fmt="wide")


RUN = "CD007431 NF 11925550 1 0.80875 1\nCD007431 NF 11925551 2 0.75 1\n" * 3   # CLEF's AMC
QRELS = "CD007431 0 11925550 1\nCD007431 0 11925551 0\n" * 3


@pytest.mark.parametrize("text, what", [(RUN, "a TREC run file"), (QRELS, "a TREC qrels file")])
@pytest.mark.parametrize("where", ["gzipped", "in a folder"])
def test_run_files_and_qrels_get_the_evaluate_advice_gzipped_or_in_a_folder(tmp_path, text, what,
                                                                           where):
    # a review, 2026-12-07: a gzipped run file given as a matrix was told "decompress it
    # first", and a folder of runs "line 1 is not trec_eval -q output"; only a plain run file
    # got the advice that helps (evaluate it with --runs, --qrels, --measure)
    import gzip

    if where == "gzipped":
        path = tmp_path / "AMC__amc.run.res.gz"
        path.write_bytes(gzip.compress(text.encode()))
        given, named = path, f"{path} (gzip-compressed)"
    else:
        (tmp_path / "runs").mkdir()
        path = tmp_path / "runs" / "AMC__amc.run.res"
        path.write_text(text)
        given, named = tmp_path / "runs", str(path)
    with pytest.raises(InputError) as exc:
        read_matrix(given)
    one_line_error(exc, f"{named}: {what}", "not a score matrix: evaluate the runs with --runs "
                   "FOLDER --qrels FILE (and --measure)")


def test_missing_cells_listed_then_dropped_on_request(tmp_path):
    path = tmp_path / "holes.csv"
    path.write_text("topic,a,b\n1,0.1,\n2,0.1,0.2\n3,NA,0.3\n4,0.4,0.5\n5,,\n")
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    message = one_line_error(exc, "holes.csv: missing scores at topic '1', run 'b' (line 2, "
                             "field 3)",
                             "topic '3', run 'a' (line 4, field 2)", "and 1 more",
                             "drop the 3 incomplete topic(s)")
    assert message.count("topic '") == 3
    with pytest.warns(IncompleteTopicsWarning, match=r"dropped 3 of 5 topics .*: 1, 3, 5"):
        frame = read_matrix(path, drop_incomplete_topics=True)
    assert frame.attrs["dropped_topics"] == ["1", "3", "5"]
    assert frame.to_numpy().tolist() == [[0.1, 0.2], [0.4, 0.5]]      # the rest unchanged


def test_dropping_all_but_one_topic_says_so_in_the_error(tmp_path):
    # the error said "has 1 topic" alone: the warning naming the dropped topics is not shown
    # beside an error (a reviewer's find)
    path = tmp_path / "holes.csv"
    path.write_text("topic,a,b\n1,0.1,0.2\n2,0.1,\n3,NA,0.3\n")
    with pytest.raises(InputError) as exc, warnings.catch_warnings():
        warnings.simplefilter("ignore", IncompleteTopicsWarning)
        read_matrix(path, drop_incomplete_topics=True)
    one_line_error(exc, "holes.csv has 1 topic ('1'): a score matrix needs at least 2 topics "
                        "(rows); drop_incomplete_topics (--drop-incomplete-topics) dropped the "
                        "other 2 of its 3 topics, which have missing scores")


def test_complete_file_gives_no_warning(data_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_matrix(data_dir / "trec2010web_ap.csv", drop_incomplete_topics=True)


def test_a_sheet_of_a_file_without_sheets_is_said_as_a_sheet(real, written, capsys):
    """--sheet on a CSV was said as "measure='S' is not used" (the option the user did not
    give; a reviewer's finding): the reader and the command name the sheet."""
    from topicsetsize.cli import main

    with pytest.warns(UserWarning, match=r"wide.tsv: sheet='S' is not used: only an .xlsx "
                                         r"workbook has sheets"):
        frame = read_matrix(written / "wide.tsv", sheet="S")
    same(frame, real[1])
    assert main(["variance", str(written / "wide.tsv"), "--sheet", "S"]) == 0
    err = capsys.readouterr().err
    assert "sheet='S' is not used" in err and "measure=" not in err


def test_a_measure_a_wide_file_does_not_use_is_said(real, written):
    # a wide CSV/TSV holds one measure: measure= was silently ignored
    with pytest.warns(UserWarning, match=r"wide.tsv: measure='map' is not used: a wide CSV/TSV "
                                         r"file holds the scores of one measure"):
        frame = read_matrix(written / "wide.tsv", measure="map")
    same(frame, real[1])
    with warnings.catch_warnings():     # where the measure is read, or names the sheet: silent
        warnings.simplefilter("error")
        read_matrix(written / "long.csv", measure="map")
        read_matrix(written / "wide.xlsx", measure="AP")
        read_matrix(written / "wide.tsv")


def test_xlsx_errors_name_the_cell(tmp_path):
    path = tmp_path / "book.xlsx"
    pd.DataFrame({"a": [0.1, 0.2], "b": [0.3, "n/a?"]}, index=["t1", "t2"]).to_excel(path)
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    one_line_error(exc, "book.xlsx: non-numeric score 'n/a?' at topic 't2', run 'b' (row 3, "
                   "column C)")
    with pytest.raises(InputError) as exc:
        with pd.ExcelWriter(path) as writer:
            pd.DataFrame({"a": [1]}).to_excel(writer, sheet_name="one")
            pd.DataFrame({"a": [1]}).to_excel(writer, sheet_name="two")
        read_matrix(path, measure="three")
    one_line_error(exc, "no sheet named 'three'; sheets: one, two")


def test_a_true_or_false_cell_of_a_workbook_is_no_score(tmp_path):
    # an input review (2026-12-07): a TRUE cell read as the score 1.0 (the CSV reader refuses
    # the text TRUE), and the V_E of such a matrix came out without a word
    import openpyxl

    for value in (True, False):
        book = openpyxl.Workbook()
        for row in (["topic", "r0", "r1"], ["t0", value, 0.2], ["t1", 0.3, 0.4]):
            book.active.append(row)
        path = tmp_path / f"{value}.xlsx"
        book.save(path)
        with pytest.raises(InputError) as exc:
            read_matrix(path)
        one_line_error(exc, f"{value}.xlsx: non-numeric score {value} at topic 't0', run 'r0' "
                       "(row 2, column B)")


def test_xlsx_table_away_from_a1(tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["topic", "a", "b"], ["t1", 0.1, 0.2], ["t2", 0.3, "x"]):
        sheet.append([None, None] + row)
    sheet.insert_rows(1, 2)                                   # the table starts at C3
    book.save(tmp_path / "offset.xlsx")
    with pytest.raises(InputError) as exc:
        read_matrix(tmp_path / "offset.xlsx")
    one_line_error(exc, "non-numeric score 'x' at topic 't2', run 'b' (row 5, column E)")


def test_damaged_xlsx(tmp_path):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(b"PK\x03\x04" + b"not really a zip" * 10)
    with pytest.raises(InputError) as exc:
        read_matrix(path)
    one_line_error(exc, "broken.xlsx: not a readable .xlsx workbook")


def test_not_found_and_bad_options(tmp_path, data_dir):
    with pytest.raises(FileNotFoundError, match="nope.csv: no such file or folder"):
        read_matrix(tmp_path / "nope.csv")
    with pytest.raises(InputError, match=r"^fmt='json' is not one of 'wide', 'xlsx'"):
        read_matrix(data_dir / "trec2010web_ap.csv", fmt="json")
    folder = write_trec_eval_files(tmp_path / "runs", {"a.txt": "bm25", "b.txt": "dfr"})
    with pytest.raises(InputError, match="transpose applies to wide CSV/TSV and .xlsx files"):
        read_matrix(folder, measure="map", transpose=True)
    with pytest.raises(InputError, match="only trec_eval output is read from a folder"):
        read_matrix(folder, fmt="long")


# ---- files that look like something else -------------------------------------------------------

def test_semicolon_separated_file_is_read(tmp_path, data_dir):
    expected = expected_matrix(data_dir, "trec2010web_ap.csv")
    path = tmp_path / "semi.csv"
    expected.to_csv(path, sep=";")
    same(read_matrix(path), expected)


def test_decimal_commas_are_named(tmp_path):
    path = tmp_path / "semi.csv"
    path.write_text("topic;a;b\nt1;0,1;0,2\nt2;0,3;0,4\n")
    with pytest.raises(InputError) as err:
        read_matrix(path)
    one_line_error(err, "non-numeric score '0,1'", "a decimal comma?")


def test_text_named_xlsx_is_refused_unless_the_format_is_given(tmp_path):
    path = tmp_path / "scores.xlsx"
    path.write_text("topic,a,b\nt1,0.1,0.2\nt2,0.3,0.4\n")
    with pytest.raises(InputError) as err:
        read_matrix(path)
    one_line_error(err, str(path), "named .xlsx but not an Excel workbook", "--format wide")
    assert read_matrix(path, fmt="wide").shape == (2, 2)


def test_xlsx_formulas_without_saved_values_are_not_missing_scores(tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "AP"
    sheet.append(["topic", "a", "b", "c"])
    sheet.append(["t1", 0.1, 0.2, "=B2+C2"])
    sheet.append(["t2", 0.3, 0.4, None])            # a genuinely missing score
    sheet.append(["t3", 0.3, 0.5, 0.7])
    path = tmp_path / "f.xlsx"
    book.save(path)
    with pytest.raises(InputError) as err:
        read_matrix(path)
    message = one_line_error(err, "sheet 'AP': 1 cell(s) (D2) hold formulas without saved values")
    assert "missing scores" not in message


def test_unknown_sheet_is_an_error_even_in_a_one_sheet_workbook(tmp_path):
    path = tmp_path / "one.xlsx"
    pd.DataFrame({"a": [0.1, 0.2], "b": [0.3, 0.4]}, index=["t1", "t2"]).to_excel(
        path, sheet_name="AP")
    with pytest.raises(InputError) as err:
        read_matrix(path, measure="P_10")
    one_line_error(err, "no sheet named 'P_10'; sheets: AP")
    assert read_matrix(path, measure="AP").shape == (2, 2)


def _field_by_field(monkeypatch):
    """Make the reader skip pandas' C reader: every wide file is parsed field by field."""
    import topicsetsize.matrices.readers as readers

    monkeypatch.setattr(readers, "parse_wide_numbers",
                        lambda path, head, data=None, topic_ids=None: None)


@pytest.mark.parametrize("layout", ["comma", "tab", "semicolon", "quoted", "crlf-blank-lines",
                                    "integers"])
def test_clean_wide_files_read_by_pandas_equal_the_field_by_field_reader(tmp_path, monkeypatch,
                                                                       layout):
    """The fast path (pandas' C reader, issue 19) gives the matrix, labels and attrs of the
    field-by-field reader, bit for bit, and is taken for clean files."""
    from topicsetsize.matrices.formats.wide import parse_wide_numbers

    rng = np.random.default_rng(7)
    values = rng.normal(size=(30, 6)) * 10.0 ** rng.integers(-8, 8, size=(30, 6))
    if layout == "integers":                              # whole-number scores: int columns
        values = np.round(values * 1e8).clip(-2 ** 62, 2 ** 62)
    topics = [f"{i:04d}" for i in range(30)]
    topics[3], topics[4] = "NA", " 77 "                   # labels, never missing values
    runs = [f"run {j}" for j in range(6)]
    sep = {"tab": "\t", "semicolon": ";"}.get(layout, ",")
    quote = '"' if layout == "quoted" else ""
    lines = [sep.join([f"{quote}topic{quote}"] + [f"{quote}{r}{quote}" for r in runs])]
    lines += [sep.join([f"{quote}{t}{quote}"] + [str(int(v)) if layout == "integers"
                                                 else repr(float(v)) for v in row])
              for t, row in zip(topics, values)]
    newline = "\r\n" if layout == "crlf-blank-lines" else "\n"
    text = ("\n\n" if layout == "crlf-blank-lines" else "") + newline.join(lines) + newline
    path = tmp_path / "m.csv"
    path.write_text(text, newline="")
    assert parse_wide_numbers(path, path.read_bytes()) is not None      # the fast path
    fast, fast_transposed = read_matrix(path), read_matrix(path, transpose=True)
    _field_by_field(monkeypatch)
    slow = read_matrix(path)
    same(fast, slow)
    same(fast_transposed, read_matrix(path, transpose=True))
    assert fast.index.tolist()[3:5] == ["NA", "77"] and fast.attrs == slow.attrs
    np.testing.assert_array_equal(fast.to_numpy(), values)


@pytest.mark.parametrize("body", [
    "topic,a,b\n1,0.5,\n2,0.1,0.2\n",              # a missing score
    "topic,a,b\n1,0.5,NA\n2,0.1,0.2\n",            # a missing token
    "topic;a;b\n1;0,5;0,25\n2;0,1;0,2\n",          # decimal commas
    "topic,a,b\n1,0.5,0.1,0.3\n2,0.1,0.2\n",       # a ragged row
    "topic,a,b\n1,0.5,0.1\n1,0.1,0.2\n",           # a duplicate topic
    "topic,a,a\n1,0.5,0.1\n2,0.1,0.2\n",           # a duplicate run
    "topic,a,b\n1,0.5,inf\n2,0.1,0.2\n",           # a non-finite score
    "a,b\n1,0.5,0.1\n2,0.1,0.2\n",                 # R's write.table: no corner cell
    "topic,a,b\n,0.5,0.1\n2,0.1,0.2\n",            # an empty topic id
])
def test_the_fast_path_leaves_every_doubtful_file_to_the_field_by_field_reader(tmp_path, body):
    """Files with something to report (or an unusual layout) are not read by pandas' C reader,
    so that their one-line errors (tested above) name the cell as before."""
    from topicsetsize.matrices.formats.wide import parse_wide_numbers

    path = tmp_path / "m.csv"
    path.write_text(body)
    assert parse_wide_numbers(path, path.read_bytes()) is None


def test_names_with_quoted_tabs_and_stray_carriage_returns(tmp_path):
    # A tab inside a quoted run name is part of the name, not the delimiter.
    f = tmp_path / "quoted.csv"
    f.write_text('topic,"a\tb",c\nt1,0.1,0.2\nt2,0.3,0.5\n')
    assert read_matrix(f).columns.tolist() == ["a\tb", "c"]
    # A carriage return inside an unquoted name (pandas' to_csv writes one so): one line naming
    # the file and line, not a traceback from the csv module.
    f = tmp_path / "cr.csv"
    f.write_bytes(b"topic,a\rb,c\nt1,0.1,0.2\nt2,0.3,0.5\n")
    with pytest.raises(InputError) as exc:
        read_matrix(f)
    one_line_error(exc, "cr.csv: line 1")


# --- A matrix without a topic-id column (issue 25.1) ------------------------------------------


def _without_ids(data_dir, tmp_path, suffix=".csv", name="trec2004robust_ap.csv"):
    """A bundled matrix (Robust04 AP: 249 topics x 110 runs) written as R's
    ``write.csv(m, row.names = FALSE)`` writes it: quoted run names, unquoted numbers, no
    topic-id column."""
    import csv

    matrix = pd.read_csv(data_dir / name, index_col=0)
    path = tmp_path / f"no_ids{suffix}"
    if suffix == ".xlsx":
        matrix.to_excel(path, index=False)
    else:
        matrix.to_csv(path, index=False, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    return matrix, path


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
@pytest.mark.parametrize("name", ["trec2004robust_ap.csv", "clef2017_tar_ap.csv"])
def test_matrix_without_topic_ids_keeps_every_run(data_dir, tmp_path, suffix, name):
    # Old code: the first run's scores became topic ids. CLEF 2017 TAR AP (30 x 19), whose
    # first run's scores are distinct, was read as 18 runs with no word; Robust04 AP, whose
    # first run repeats a score, failed with "duplicate topic id '0.0391'".
    matrix, path = _without_ids(data_dir, tmp_path, suffix, name)
    frame = read_matrix(path)
    assert frame.shape == matrix.shape and frame.attrs["topic_ids"] is False
    assert frame.columns.tolist() == matrix.columns.tolist()
    assert frame.index.tolist() == [str(k) for k in range(1, len(matrix) + 1)]
    assert np.array_equal(frame.to_numpy(), matrix.to_numpy())


def test_matrix_without_topic_ids_field_by_field(data_dir, tmp_path, monkeypatch):
    _field_by_field(monkeypatch)            # the same reading where pandas' C reader is skipped
    matrix, path = _without_ids(data_dir, tmp_path)
    frame = read_matrix(path)
    assert frame.shape == (249, 110) and np.array_equal(frame.to_numpy(), matrix.to_numpy())


def test_matrix_with_topic_ids_is_read_as_before(data_dir):
    frame = read_matrix(data_dir / "trec2004robust_ap.csv")
    assert frame.shape == (249, 110) and frame.attrs["topic_ids"] is True
    assert frame.index[0] == "301"


def test_ambiguous_first_column_is_refused_and_the_choice_settles_it(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("a,b,c\n1,0.5,0.25\n2,0.25,0.5\n3,0.75,0.5\n")
    with pytest.raises(InputError) as info:
        read_matrix(path)
    one_line_error(info, "the first column 'a' holds distinct whole numbers",
                   "read as topic ids", "as the scores of run 'a'", "topic_ids=False")
    assert read_matrix(path, topic_ids=True).columns.tolist() == ["b", "c"]
    frame = read_matrix(path, topic_ids=False)
    assert frame.columns.tolist() == ["a", "b", "c"] and frame["a"].tolist() == [1.0, 2.0, 3.0]


def test_a_bad_score_in_the_first_column_of_a_matrix_without_ids_is_named(data_dir, tmp_path):
    matrix, path = _without_ids(data_dir, tmp_path)
    path.write_text(path.read_text().replace("\n0.0372,", "\nhigh,", 1))
    with pytest.raises(InputError) as info:
        read_matrix(path)
    one_line_error(info, "non-numeric score 'high'", "run 'sys1'")


def test_topic_ids_applies_to_wide_files_only(written):
    with pytest.raises(InputError, match="applies to wide CSV/TSV and .xlsx files"):
        read_matrix(written / "long.csv", measure="map", topic_ids=False)


@pytest.mark.parametrize("corner", ["", "topic", "Topic ID", "query_number", "qid", "run"])
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_an_id_label_or_empty_corner_means_topic_ids(tmp_path, corner, suffix):
    frame = pd.DataFrame({corner: [401, 402, 403], "a": [0.5, 0.25, 0.75],
                          "b": [0.25, 0.5, 0.5]})
    path = tmp_path / f"m{suffix}"
    if suffix == ".csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_excel(path, index=False)
    read = read_matrix(path)
    assert read.columns.tolist() == ["a", "b"] and read.index.tolist() == ["401", "402", "403"]
# Inputs that cannot be read twice (issue 24.6): a pipe is read once, then parsed from memory.


def _through_a_pipe(data: bytes):
    """A ``/dev/fd/N`` name for a pipe that a thread fills with ``data`` (as ``<(cat f)``)."""
    import os
    import threading

    read_end, write_end = os.pipe()

    def fill():
        with os.fdopen(write_end, "wb") as stream:
            stream.write(data)

    thread = threading.Thread(target=fill, daemon=True)
    thread.start()
    return f"/dev/fd/{read_end}", read_end, thread


@pytest.mark.skipif(not __import__("os").path.isdir("/dev/fd"), reason="no /dev/fd")
@pytest.mark.parametrize("name", ["trec2004robust_ap.csv", "xlsx"])
def test_a_pipe_is_read_once_in_any_format(data_dir, tmp_path, name):
    import os

    expected = expected_matrix(data_dir, "trec2004robust_ap.csv")
    if name == "xlsx":
        source = tmp_path / "m.xlsx"
        expected.rename_axis("topic").to_excel(source)
    else:
        source = data_dir / name
    path, read_end, thread = _through_a_pipe(source.read_bytes())   # more than a pipe's buffer
    try:
        scores = read_matrix(path)
    finally:
        thread.join()
        os.close(read_end)
    assert scores.shape == expected.shape
    np.testing.assert_array_equal(scores.to_numpy(), expected.to_numpy())


@pytest.mark.skipif(not __import__("os").path.isdir("/dev/fd"), reason="no /dev/fd")
def test_an_empty_pipe_is_said_to_be_empty():
    import os

    path, read_end, thread = _through_a_pipe(b"")
    try:
        with pytest.raises(InputError, match=r"the file is empty"):
            read_matrix(path)
    finally:
        thread.join()
        os.close(read_end)


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".xlsx"])
def test_a_first_column_headed_run_is_read_as_topics_with_a_warning(tmp_path, suffix):
    """A reviewer's finding: TREC 2010 Web AP written with the runs as rows (first column
    headed "run") was read with its 88 runs as topics without a word, V_E 0.0057 for 0.0084.
    One warning names the header and --transpose now; with transpose the matrix is the original
    (its V_E by residual_variance); the original file, headed "topic", gives no warning, and
    transpose on it says its rows are headed 'topic'."""
    import topicsetsize as tss
    from topicsetsize.examples import example_matrix

    web = example_matrix()
    path = tmp_path / f"runs_by_topics{suffix}"
    flipped = web.T.rename_axis("run")
    if suffix == ".xlsx":
        flipped.to_excel(path)
    else:
        flipped.to_csv(path, sep="\t" if suffix == ".tsv" else ",")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wrong = read_matrix(path)
    said = [str(w.message) for w in caught if "headed" in str(w.message)]
    assert said == [f"{path}: its first column is headed 'run', but its 88 rows are read as "
                    "topics; if they are runs, read it with transpose=True (--transpose)"]
    assert wrong.shape == (88, 48)
    assert tss.residual_variance(wrong.to_numpy()) == pytest.approx(0.0057, abs=5e-5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        right = read_matrix(path, transpose=True)
    assert not [w for w in caught if "headed" in str(w.message)]
    assert tss.residual_variance(right.to_numpy()) == pytest.approx(
        tss.residual_variance(web.to_numpy()), rel=1e-12)
    original = tmp_path / f"topics_by_runs{suffix}"
    web.rename_axis("topic").to_excel(original) if suffix == ".xlsx" else \
        web.rename_axis("topic").to_csv(original, sep="\t" if suffix == ".tsv" else ",")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_matrix(original)
    assert not [w for w in caught if "headed" in str(w.message)]
    with pytest.warns(UserWarning, match="headed 'topic', but its 48 rows are read as runs"):
        read_matrix(original, transpose=True)


@pytest.mark.parametrize("fmt", ["wide.csv", "long.csv"])
def test_a_stray_score_outside_0_1_is_warned_of_wherever_the_matrix_is_read(data_dir, tmp_path,
                                                                            fmt):
    """One AP typed in percent (31.5) among 4,224 fractions made V_E raw 29 times larger, and
    only the ``variance`` command said that the scores ran to 31.5 (a review of the wheel): the
    reader warns, so every command and the workbook do. A matrix wholly in percent, or a real
    one, is not warned of."""
    from topicsetsize.matrices.readers import StrayScoreWarning

    frame = expected_matrix(data_dir, "trec2010web_ap.csv")
    stray = frame.copy()
    stray.iat[5, 3] = 31.5
    rounding = frame.copy()
    rounding.iat[5, 3] = 1.0000000000000002        # a measure's rounding, not a stray
    for name, scores in (("stray", stray), ("percent", frame * 100), ("real", frame),
                         ("rounding", rounding)):
        path = tmp_path / f"{name}.{fmt}"
        if fmt == "wide.csv":
            scores.to_csv(path)
        else:
            write_long(scores, path=path, measure="AP")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = read_matrix(path)
        said = [str(w.message) for w in caught if w.category is StrayScoreWarning]
        if name == "stray":
            assert got.iat[5, 3] == 31.5 and len(said) == 1
            assert said[0].startswith(
                f"{path}: 1 of 4,224 scores outside [0, 1], where all the others are within it: "
                f"31.5 at topic '{frame.index[5]}', run '{frame.columns[3]}'")
            assert said[0].endswith("a score in percent, or a typo? The variances and every n "
                                    "sized on them depend on it")
        else:
            assert said == [], (name, said)


def test_a_run_without_any_score_is_named_not_every_topic_dropped(tmp_path):
    """A run with no score at all got "drop the 3 incomplete topic(s)", which drops every topic
    (a review of the wheel); and a 4-column wide file whose third column starts blank was read
    as the long format ("several measures; choose one with --measure: b, "), a blank taken for a
    measure's name (carried from earlier notes)."""
    for runs in (["a", "b", "c"], ["a", "b", "c", "d"]):
        path = tmp_path / f"{len(runs)}.csv"
        rows = [",".join(["topic", *runs])] + [
            ",".join([f"t{i}", *("" if r == "b" else f"0.{i + k}" for k, r in enumerate(runs))])
            for i in range(1, 4)]
        path.write_text("\n".join(rows) + "\n")
        for drop in (False, True):
            with pytest.raises(InputError) as exc:
                read_matrix(path, drop_incomplete_topics=drop)
            assert str(exc.value) == (f"{path}: run 'b' has no score on any topic: remove its "
                                      "column (dropping the incomplete topics would drop all 3)")
    # a blank among scores, not a whole run, is still a missing score of the wide file
    path = tmp_path / "gap.csv"
    path.write_text("topic,a,b,c\nt1,0.1,,0.3\nt2,0.2,0.3,0.5\nt3,0.3,0.2,0.1\n")
    with pytest.raises(InputError, match=r"missing scores at topic 't1', run 'b'") as exc:
        read_matrix(path)
    assert "trec_eval" not in str(exc.value)
    with pytest.warns(IncompleteTopicsWarning):
        assert read_matrix(path, drop_incomplete_topics=True).shape == (2, 3)
