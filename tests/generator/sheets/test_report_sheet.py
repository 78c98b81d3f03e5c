"""The Report sheet: precomputed figures equal the engine's; live formulas recalculate like it.

Matrices: the bundled TREC 2010 Web AP and TREC 2004 Robust AP (tests/data). The precomputed
cells are compared with :func:`topicsetsize.collection_report` (itself checked against a
gt4ireval re-implementation and Monte Carlo in tests/topicsetsize/estimates/test_gtheory.py) and
the differences between run means with :func:`topicsetsize.run_differences`; the live cells,
after LibreOffice recalculates a workbook whose inputs were retyped, with
:func:`topicsetsize.d_study` and :func:`topicsetsize.gt_n` at the typed values, and with bad
inputs (37.5, blank, 0, −3, text in n′; text as the target) as CHECK_INPUTS ("see Status").
"""

from __future__ import annotations

import math

import openpyxl
import pandas as pd
import pytest
from topicsetsize.generator import spec_from_dict, write_workbook
from topicsetsize.generator.content.inputs import reader_range
from topicsetsize.generator.sheets.report_sheet import FIGURES, MIN_D_HEADINGS, SHEET
from topicsetsize.generator.spreadsheet.cells import STYLE, fixed_format
from topicsetsize.generator.spreadsheet.layout import CHECK_INPUTS, STATUS_OK

import topicsetsize as tss

from ..conftest import named

NAMES = ("TREC 2010 Web AP", "=1+1 Robust")          # the second would be a formula if careless


@pytest.fixture(scope="module")
def report_book(tmp_path_factory, data_dir):
    folder = tmp_path_factory.mktemp("report")
    spec = spec_from_dict({"title": "report", "m": [10], "min_d": [0.05], "matrices": [
        {"name": NAMES[0], "path": "example"},
        {"name": NAMES[1], "path": str(data_dir / "trec2004robust_ap.csv")}]})
    return write_workbook(spec, folder / "report.xlsx")


LIVE = ("Eρ² at n′", "Φ at n′", "n′ for Eρ² ≥ target", "n′ for Φ ≥ target")


def _blocks(ws):
    """{matrix name: {label: (value, how)}} read back from the sheet."""
    out, current = {}, None
    for row in ws.iter_rows(min_row=5):
        a, b, c = (cell.value for cell in row[:3])
        if a in NAMES:
            current = out.setdefault(a, {})
        elif isinstance(a, str) and ": Sakai's n above, " in a:
            current = None                  # the intervals on n: read by their own test
        elif current is not None and a is not None:
            current[a] = (b, c)
    return out


def _differences(ws, name):
    """The differences table of matrix ``name``: (header cells, [(label cell, value cells)])."""
    rows = list(ws.iter_rows())
    top = next(i for i, row in enumerate(rows)
               if row[0].value == f"{name}: differences between run means (all pairs of runs, "
                                  "pairs among the top 10 runs, the best run minus each other "
                                  "run); precomputed")
    assert rows[top][0].data_type == "s"            # the name is text, never a formula
    header = rows[top + 1][:4]
    body = [(row[0], row[1:4]) for row in rows[top + 2:top + 9]]
    assert rows[top + 9][0].value is None            # seven rows, then a blank one
    return header, body


def _input_cell(wb, name):
    sheet, coord = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][coord.replace("$", "")]


def _scores(data_dir):
    return {NAMES[0]: tss.example_matrix(),
            NAMES[1]: pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)}


@pytest.mark.slow
def test_precomputed_figures(report_book, data_dir):
    wb = openpyxl.load_workbook(report_book)
    ws = wb[SHEET]
    blocks = _blocks(ws)
    assert set(blocks) == set(NAMES)
    for name, scores in _scores(data_dir).items():
        report = tss.collection_report(scores)
        figures = report.figures()
        got = blocks[name]
        assert {"n for Erho2 >= 0.95 low", "n for Phi >= 0.95 high"} <= {f for _, f, _ in FIGURES}
        for label, field, _ in FIGURES:
            value, how = got[label]
            assert how == "precomputed"
            assert value == pytest.approx(float(figures[field]), rel=1e-12), (name, label)
        assert got["negative components set to 0"] == ("none", "precomputed")
        for candidate, row in report.min_d.iterrows():
            assert got[candidate][0] == pytest.approx(row["min_d"], rel=1e-12)
        for label in LIVE:
            formula, how = got[label]
            assert how == "live" and formula.startswith("=IF(report_inputs_ok,")
    # user names are text, never formulas
    cells = [c for r in ws.iter_rows() for c in r if c.value == NAMES[1]]
    assert cells and all(c.data_type == "s" for c in cells)
    about = {c.value for row in wb["About"].iter_rows() for c in row}
    assert SHEET in about


def _check_differences(ws, data_dir):
    """The differences tables of ``ws`` equal run_differences' (and collection_report's) of the
    matrix without its copies of runs (pandas drops them: a copy is counted once)."""
    for name, scores in _scores(data_dir).items():
        table = tss.run_differences(scores.T.drop_duplicates().T, top_k=10).table
        pd.testing.assert_frame_equal(table, tss.collection_report(scores).differences.table)
        header, body = _differences(ws, name)
        assert [c.value for c in header] == ["statistic", *table.columns]
        assert [label.value for label, _ in body] == list(table.index)
        for label, cells in body:
            for cell, want in zip(cells, table.loc[label.value]):
                assert isinstance(cell.value, (int, float)), (name, label.value, cell.value)
                assert cell.value == pytest.approx(want, rel=1e-12), (name, label.value)


@pytest.mark.slow
def test_differences_between_run_means(report_book, data_dir):
    """The precomputed distribution of the differences, as `topicsetsize report` prints it:
    numbers (with number formats) equal to the API's in the saved values."""
    saved = openpyxl.load_workbook(report_book, data_only=True)
    _check_differences(saved[SHEET], data_dir)
    ws = openpyxl.load_workbook(report_book)[SHEET]
    for name in NAMES:
        _, body = _differences(ws, name)
        for label, cells in body:
            # 4 decimals, a non-zero value below 0.001 (6.25e-06 in TREC 2010 Web) as 6.25E-06
            fmt = "#,##0" if label.value == "pairs" else fixed_format()
            assert all(c.number_format == fmt and c.data_type == "n" for c in cells)


@pytest.mark.slow
def test_inputs_are_guarded_like_the_calculators(report_book):
    from topicsetsize.generator.content.inputs import allowed
    from topicsetsize.generator.spreadsheet.layout import validation_formula

    wb = openpyxl.load_workbook(report_book)
    saved = openpyxl.load_workbook(report_book, data_only=True)
    assert named(saved, "report_status") == STATUS_OK
    validations = {str(dv.sqref): dv for dv in wb[SHEET].data_validations.dataValidation}
    for name, key in (("report_n", "n_dstudy"), ("report_target", "target")):
        cell = _input_cell(wb, name)
        assert cell.parent.title == SHEET and not cell.protection.locked
        dv = validations[cell.coordinate]
        assert dv.formula1 == validation_formula(cell.coordinate, allowed(key))
        assert wb[SHEET].cell(cell.row, 3).value == reader_range(key)
    assert "INT(" in validations[_input_cell(wb, "report_n").coordinate].formula1
    assert _input_cell(wb, "report_n").number_format == "General"     # 37.5 shows as 37.5
    about = {c.value for row in wb["About"].iter_rows() for c in row}
    assert {"report_n", "report_target"} <= about


#: Bad values typed into n′: (value, what its check cell says).
BAD_N = ((37.5, "out of range"), (None, "blank"), (0, "out of range"), (-3, "out of range"),
         ("abc", "not a number"))


@pytest.mark.libreoffice
def test_live_cells_recalculate_like_the_engine(report_book, data_dir, tmp_path):
    from .._edit import edited_copy
    from .._libreoffice import filled_cells_without_errors, recalculate_batch

    (tmp_path / "in").mkdir()
    edits = {"edited": (37, 0.9), "target_text": (100, "x")}
    edits.update({f"n_{k}": (value, 0.95) for k, (value, _) in enumerate(BAD_N)})
    books = {"as_built": report_book}
    for name, (n, target) in edits.items():             # n′ and the target, retyped
        books[name] = edited_copy(report_book, tmp_path / "in" / f"{name}.xlsx",
                                  {"report_n": n, "report_target": target})
    done, _ = recalculate_batch(list(books.values()), tmp_path / "out")
    recalculated = {k: openpyxl.load_workbook(done[p.resolve()], data_only=True)
                    for k, p in books.items()}
    for name, wb in recalculated.items():
        assert filled_cells_without_errors(wb, name) > 100
    # as built: every saved value of the sheet is LibreOffice's, and the precomputed table stays
    formulas = openpyxl.load_workbook(report_book)[SHEET]
    saved = openpyxl.load_workbook(report_book, data_only=True)[SHEET]
    computed = recalculated["as_built"][SHEET]
    cells = [c.coordinate for row in formulas.iter_rows() for c in row if c.data_type == "f"]
    assert len(cells) == 3 + 4 * len(NAMES)         # 2 checks, the status, 4 live per matrix
    for coord in cells:
        got, want = saved[coord].value, computed[coord].value
        if isinstance(want, (int, float)):
            assert math.isclose(got, want, rel_tol=1e-9), (coord, got, want)
        else:
            assert got == want, (coord, got, want)
    _check_differences(computed, data_dir)
    # bad inputs: the status names the input and its range; no number in any live cell
    for k, (value, says) in enumerate(BAD_N):
        wb = recalculated[f"n_{k}"]
        assert named(wb, "report_status") == (
            f"Check the inputs: n′ is {says} (allowed: {reader_range('n_dstudy')})."), value
        for name, got in _blocks(wb[SHEET]).items():
            assert [got[label][0] for label in LIVE] == [CHECK_INPUTS] * 4, (value, name)
    wb = recalculated["target_text"]
    assert named(wb, "report_status") == (
        f"Check the inputs: target is not a number (allowed: {reader_range('target')}).")
    for got in _blocks(wb[SHEET]).values():
        assert [got[label][0] for label in LIVE] == [CHECK_INPUTS] * 4
    wb = recalculated["edited"]
    assert named(wb, "report_status") == STATUS_OK
    blocks = _blocks(wb[SHEET])
    for name, scores in _scores(data_dir).items():
        g = tss.g_study(scores)
        d = tss.d_study(g, 37)
        got = blocks[name]
        assert math.isclose(got["Eρ² at n′"][0], d.erho2, rel_tol=1e-12)
        assert math.isclose(got["Φ at n′"][0], d.phi, rel_tol=1e-12)
        assert got["n′ for Eρ² ≥ target"][0] == tss.gt_n(g, 0.9)
        assert got["n′ for Φ ≥ target"][0] == tss.gt_n(g, 0.9, coefficient="phi")


@pytest.mark.slow
def test_min_d_table_has_the_command_columns(report_book, data_dir):
    """The minD table: the columns of realistic_min_d (the share of each row's own pairs, the
    selection-corrected and uncorrected values, se and the noise mark, mc_se), in the order
    the command prints them (SHOWN_COLUMNS), equal to the API."""
    from topicsetsize.decide.realistic import SHOWN_COLUMNS

    ws = openpyxl.load_workbook(report_book)[SHEET]
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    first_n = 1 + SHOWN_COLUMNS.index("n one-way legacy")
    for name, scores in _scores(data_dir).items():
        table = tss.collection_report(scores).min_d
        top = next(i for i, row in enumerate(rows)
                   if isinstance(row[0], str) and row[0].startswith(f"{name}: minD values"))
        # headed in words (issue 26.7: not the code's min_d, se, share), in the API's order
        assert rows[top + 1][:1 + len(SHOWN_COLUMNS)] == ["candidate", *MIN_D_HEADINGS]
        assert len(MIN_D_HEADINGS) == len(SHOWN_COLUMNS)
        for offset, (candidate, want) in enumerate(table.iterrows(), start=2):
            got = dict(zip(SHOWN_COLUMNS, rows[top + offset][1:]))
            assert rows[top + offset][0] == candidate
            assert got["pairs"] == want["pairs"]
            assert got["above noise"] == ("yes" if want["above noise"] else "no")
            for column in ("min_d", "se", "n one-way exact"):
                assert got[column] == pytest.approx(float(want[column]), rel=1e-12)
            assert (got["share"] is None) == pd.isna(want["share"])
            # the n with thousands separators, as every n of the workbook (a review: 4089)
            assert {c.number_format for c in ws[top + offset + 1][first_n:first_n + 3]} \
                == {"#,##0"}


@pytest.mark.slow
def test_n_intervals_equal_the_engine_with_the_stated_seed(report_book, data_dir):
    """The interval table below each minD table: the engine's limits with the seed the sheet
    states (sheets.report_sheet.INTERVAL_SEED), each n of the minD table inside its own."""
    from topicsetsize.generator.sheets.report_sheet import INTERVAL_SEED

    from topicsetsize.report import collection_report, interval_table

    ws = openpyxl.load_workbook(report_book)[SHEET]
    rows = list(ws.iter_rows(values_only=True))
    for name, scores in ((NAMES[0], tss.example_matrix()),
                         (NAMES[1], pd.read_csv(data_dir / "trec2004robust_ap.csv",
                                                index_col=0))):
        table = interval_table(collection_report(scores, seed=INTERVAL_SEED))
        top = next(i for i, row in enumerate(rows) if str(row[0]).startswith(
            f"{name}: Sakai's n above, 95% interval over its"))
        assert rows[top + 1][:3] == ("candidate", "one-way legacy low", "one-way legacy high")
        for k, (candidate, want) in enumerate(table.iterrows()):
            got = rows[top + 2 + k]
            assert got[0] == candidate
            assert list(got[1:7]) == [int(want[f"{d} {end}"]) for d in
                                      ("n one-way legacy", "n one-way exact", "n two-way exact")
                                      for end in ("low", "high")]
            assert got[3] <= int(want["n one-way exact"]) <= got[4]
            assert {c.number_format for c in ws[top + 3 + k][1:7]} == {"#,##0"}
        note = rows[top + 2 + len(table)][0]
        assert f"seed {INTERVAL_SEED}" in note and "2000 times" in note


def test_min_d_columns_mirror_the_engine():
    """The sheet's own list of the minD table's columns (kept light: the engine's module loads
    scipy.stats) is the engine's SHOWN_COLUMNS, the order of ``topicsetsize report``: every
    column of realistic_min_d, mc_se before the n; one heading each."""
    from topicsetsize.generator.sheets.report_sheet import _MIN_D_COLUMNS, WIDTHS

    from topicsetsize.decide.realistic import MC_SE_COLUMN, MIN_D_COLUMNS, SHOWN_COLUMNS

    assert _MIN_D_COLUMNS == SHOWN_COLUMNS
    assert sorted(SHOWN_COLUMNS) == sorted((*MIN_D_COLUMNS, MC_SE_COLUMN))
    assert SHOWN_COLUMNS.index(MC_SE_COLUMN) == SHOWN_COLUMNS.index("n one-way legacy") - 1
    assert len(MIN_D_HEADINGS) == len(SHOWN_COLUMNS)
    assert MIN_D_HEADINGS[SHOWN_COLUMNS.index(MC_SE_COLUMN)] == (
        "Monte Carlo standard error of minD (another seed)")
    assert len(WIDTHS) == 1 + len(SHOWN_COLUMNS)       # candidate, then one width per column


@pytest.fixture(scope="module")
def reports(data_dir):
    """{matrix name: collection_report} with the sheet's seed, each computed once."""
    from topicsetsize.generator.sheets.report_sheet import INTERVAL_SEED

    return {name: tss.collection_report(scores, seed=INTERVAL_SEED)
            for name, scores in _scores(data_dir).items()}


def _min_d_rows(ws, name):
    """The cells of the minD table of ``name``: (header row, body rows, the rows after it up
    to the next blank one)."""
    rows = list(ws.iter_rows())
    top = next(i for i, row in enumerate(rows)
               if isinstance(row[0].value, str) and row[0].value.startswith(f"{name}: minD values"))
    end = next((i for i in range(top, len(rows)) if rows[i][0].value is None), len(rows))
    body = [row for row in rows[top + 2:end] if row[0].value in
            ("top-k range", "top-k median", "top-k 25%", "all-pairs median")]
    return rows[top + 1], body, rows[top + 2 + len(body):end]


@pytest.mark.slow
def test_mc_se_is_the_engines_for_the_same_seed(report_book, reports):
    """The Monte Carlo standard error of each corrected minD: the engine's (seed 0, 64,000
    halves), with one digit more than minD as the command prints it; blank where the row
    draws nothing (all-pairs median)."""
    from topicsetsize.decide.realistic import MC_SE_COLUMN, SHOWN_COLUMNS

    ws = openpyxl.load_workbook(report_book)[SHEET]
    column = 1 + SHOWN_COLUMNS.index(MC_SE_COLUMN)
    for name, report in reports.items():
        header, body, _ = _min_d_rows(ws, name)
        assert header[column].value == "Monte Carlo standard error of minD (another seed)"
        assert [row[0].value for row in body] == list(report.min_d.index)
        for row in body:
            want, cell = report.min_d.loc[row[0].value, MC_SE_COLUMN], row[column]
            assert cell.number_format == fixed_format(5)
            if pd.isna(want):
                assert cell.value is None, (name, row[0].value)
            else:
                # the file keeps 15 or more significant digits (as the other figures' tests)
                assert isinstance(cell.value, float), (name, row[0].value)
                assert cell.value == pytest.approx(want, rel=1e-12), (name, row[0].value)
        corrected = report.min_d[MC_SE_COLUMN].iloc[:3]
        assert corrected.notna().all() and (corrected > 0).all()


@pytest.mark.slow
def test_the_notes_are_the_engines_as_text(report_book, reports, data_dir):
    """Under each minD table, the lines the command prints under it (table_notes: min_d_notes,
    the Monte Carlo note, the noise note), then the copies of runs as its warning names them,
    in the engine's words, as text cells: never a formula. Web has the Monte Carlo note (its
    median and 25% rows, 6% and 22%), Robust min_d_notes' note (its corrected range above the
    uncorrected one); both have copies."""
    from topicsetsize.decide.realistic import COPIES, mc_error_note, min_d_notes, table_notes
    from topicsetsize.matrices.copies import identical_runs

    ws = openpyxl.load_workbook(report_book)[SHEET]
    for name, report in reports.items():
        _, _, after = _min_d_rows(ws, name)
        want = table_notes(report.min_d, option="--trials") + [
            identical_runs(_scores(data_dir)[name]).message(COPIES)]
        cells = [row[0] for row in after[-len(want):]]
        assert [c.value for c in cells] == want
        assert all(c.data_type == "s" and c.quotePrefix for c in cells)
        # the explanations before them: labels of the sheet, in its words
        assert [row[0].value.split(":")[0] for row in after[:-len(want)]] == [
            "top-k", "Corrected for selection"]
    web, robust = (reports[name].min_d for name in NAMES)
    assert mc_error_note(web, option="--trials") in table_notes(web)
    assert min_d_notes(robust) and set(min_d_notes(robust)) <= set(table_notes(robust))
    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and ("mc_se" in cell.value or "min_d" in cell.value):
                assert cell.data_type == "s", (cell.coordinate, cell.value)


@pytest.mark.slow
def test_the_intervals_say_they_hold_min_d_fixed(report_book):
    """Under each table of intervals on n, after the bootstrap's note: the engine's sentence
    (the command prints it too), as text; then, from fewer than 50 topics, that the upper ends
    run low (the commands' note, in red)."""
    from topicsetsize.estimates.interval_coverage import few_topics_note
    from topicsetsize.report import MIN_D_HELD_FIXED

    ws = openpyxl.load_workbook(report_book)[SHEET]
    rows = list(ws.iter_rows())
    seen = set()
    for name in NAMES:
        top = next(i for i, row in enumerate(rows) if str(row[0].value).startswith(
            f"{name}: Sakai's n above, 95% interval over its"))
        topics = int(rows[top][0].value.split("over its ")[1].split()[0])
        few = few_topics_note(topics)
        end = next((i for i in range(top, len(rows)) if rows[i][0].value is None), len(rows))
        if few:
            last = rows[end - 1][0]
            assert last.value == few[0].upper() + few[1:] + "." and last.data_type == "s"
            assert last.font.color.rgb == STYLE.warning_font.color.rgb
            end -= 1
        seen.add(bool(few))
        note, held = rows[end - 2][0], rows[end - 1][0]
        assert note.value.startswith("Expanded percentile bootstrap:")
        assert held.value == MIN_D_HELD_FIXED and held.data_type == "s"
    assert "not the uncertainty of min_d" in MIN_D_HELD_FIXED
    assert seen == {True, False}        # the 48 topics of the Web example, and Robust's 249


@pytest.mark.slow
def test_the_copies_of_runs_are_named_under_each_min_d_table(report_book, data_dir):
    """The minD candidates count a copy of a run once: under each matrix's table the sheet
    names the copies as the report's warning does, and the warning names the matrix."""
    from topicsetsize.generator import build_workbook

    from topicsetsize.decide.realistic import COPIES
    from topicsetsize.matrices.copies import IdenticalRunsWarning, identical_runs

    ws = openpyxl.load_workbook(report_book)[SHEET]
    texts = [c.value for row in ws.iter_rows(max_col=1) for c in row if isinstance(c.value, str)]
    for scores in _scores(data_dir).values():
        assert texts.count(identical_runs(scores).message(COPIES)) == 1
    # Robust's one copy (tests/data/PROVENANCE.md: sys69 = sys67)
    assert any(t.startswith("1 run is a copy of another") and "sys69 = sys67" in t for t in texts)
    spec = spec_from_dict({"title": "report", "m": [10], "min_d": [0.05],
                           "matrices": [{"name": NAMES[0], "path": "example"}]})
    with pytest.warns(IdenticalRunsWarning, match=rf"^{NAMES[0]}: 10 runs are copies"):
        build_workbook(spec)
