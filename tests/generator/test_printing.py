"""The workbook as it prints: the PDF that LibreOffice prints of the bundled workbook, of
decide_example, of a workbook with a matrix (--matrix), of one evaluated from run files
(--runs) and of one whose matrix has a long name, picked in the calculators, read back page by
page with pdftotext (issue 26.5 and 26.7), and drawn by pdftoppm to find the words that print
cut (_pdf.cut_words).

Pages follow the sheets in order; a page belongs to the sheet whose heading (its cell A1,
repeated on every page by the print titles) it carries.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import column_index_from_string, range_boundaries
from topicsetsize.generator import bundled_spec, load_spec, with_matrices, write_workbook
from topicsetsize.generator.sheets.calculators import sheets

from topicsetsize.cli import main

from ._edit import edited_copy
from ._pdf import cut_words, pdf_pages, print_batch
from .conftest import DATE

_DATA = Path(__file__).resolve().parents[2]
MATRIX = _DATA / "tests" / "data" / "trec2004robust_ap.csv"
RUNS = _DATA / "topicsetsize" / "data" / "clef2017_tar"

CALCULATORS = sheets()

#: A score matrix's name as a spec or a file may give it (95 characters): the calculators'
#: note on the variance in use, "= 2·V_E of <name>, std-AB (Variance sheet)", ran past the
#: printed page's right edge, and the Tables sheet cut the name in its column.
LONG_NAME = ("TREC 2004 Robust track, ad hoc task - average precision of the 110 official runs "
             "on 249 topics")

NAMES = ["default", "decide", "matrix", "runs", "long"]


def _long(folder: Path) -> Path:
    """The bundled workbook with a matrix named LONG_NAME, its std-AB measure picked in the
    calculators that have a measure picker (typed as a recipient would)."""
    matrix = folder / f"{LONG_NAME}.csv"
    shutil.copy(MATRIX, matrix)
    path = write_workbook(with_matrices(load_spec(bundled_spec()), [matrix]),
                          folder / "long.xlsx", generated=DATE)
    matrix.unlink()
    return edited_copy(path, path, {f"{calc}_measure": f"{LONG_NAME}, std-AB"
                                    for calc in ("anova", "ttest", "ci")}, text=True)


def _build(folder: Path) -> dict[str, Path]:
    out = {}
    for name, spec in (("default", load_spec(bundled_spec())),
                       ("decide", load_spec(bundled_spec("decide_example"))),
                       ("matrix", with_matrices(load_spec(bundled_spec()), [MATRIX]))):
        out[name] = write_workbook(spec, folder / f"{name}.xlsx", generated=DATE)
    out["long"] = _long(folder)
    out["runs"] = folder / "runs.xlsx"
    assert main(["workbook", "--runs", str(RUNS / "runs"), "--qrels", str(RUNS / "qrels.gz"),
                 "--measure", "AP", "--duplicates", "first", "--out", str(out["runs"])]) == 0
    return out


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> dict[str, Path]:
    """{name: the workbook of NAMES}, built once for the module's tests."""
    return _build(tmp_path_factory.mktemp("print_src"))


@pytest.fixture(scope="module")
def printed(books, tmp_path_factory):
    """{name: (workbook path, [page text], PDF)}."""
    pdfs = print_batch(list(books.values()), tmp_path_factory.mktemp("print_pdf"))
    return {name: (path, pdf_pages(pdfs[path.resolve()]), pdfs[path.resolve()])
            for name, path in books.items()}


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def sheet_pages(path: Path, pages: list[str]) -> dict[str, list[str]]:
    """The pages of each visible sheet, by the heading (A1) each page carries; asserts that
    every page carries the heading of its sheet (a page without one is a fragment)."""
    wb = openpyxl.load_workbook(path)
    titles = [(ws.title, _squash(str(ws["A1"].value))) for ws in wb.worksheets
              if ws.sheet_state == "visible"]
    out: dict[str, list[str]] = {name: [] for name, _ in titles}
    k = 0
    for number, page in enumerate(pages, start=1):
        text = _squash(page)
        while k < len(titles) and titles[k][1] not in text:
            k += 1
        assert k < len(titles), (path.name, number, "a page without a sheet's heading",
                                 page[:300])
        out[titles[k][0]].append(page)
    return out


@pytest.mark.slow
@pytest.mark.libreoffice
@pytest.mark.parametrize("name", NAMES)
def test_every_page_stands_on_its_own(printed, name):
    path, pages, _ = printed[name]
    by_sheet = sheet_pages(path, pages)
    for sheet, its in by_sheet.items():
        assert its, (name, sheet, "not printed")
    for sheet in CALCULATORS:
        # the inputs, answers and charts; the tables (two pages for TTEST's two input styles)
        assert len(by_sheet[sheet]) == (3 if sheet == "TTEST" else 2), (name, sheet,
                                                                        len(by_sheet[sheet]))
        for page in by_sheet[sheet]:
            # the numbers of a page are read against n (no page of bare working columns)
            assert re.search(r"(^|\s)n(\s|$)", page), (name, sheet, page[:300])
            # and every page says what its numbers were computed for (row 2, repeated)
            assert "Inputs: α = " in page, (name, sheet, page[:300])
    for page in by_sheet["Decide"]:
        assert re.search(r"(^|\s)m(\s|$)", page), (name, "Decide", page[:300])
    if "Tables" in by_sheet:
        assert "one-way ANOVA" not in " ".join(by_sheet["Tables"][-1].split("\n")[:2])


@pytest.mark.slow
@pytest.mark.libreoffice
@pytest.mark.parametrize("name", NAMES)
def test_every_word_prints_whole(printed, name):
    """No word of any page is cut: at the page's right edge (a note running past the last
    printed column: in LibreOffice the calculators' first page ends with column G, H going to
    a page of its own), by the next filled cell (a long name in a narrow column), or at the
    page's foot (a chart split over two pages). The words of the cells, the notes and the
    charts, as printed and drawn (_pdf.cut_words)."""
    cut = cut_words(printed[name][2])
    assert not cut, (name, cut[:20])


def _chart_title(chart) -> str:
    return "".join(r.t for p in chart.title.tx.rich.p for r in (p.r or []))


@pytest.mark.slow
@pytest.mark.libreoffice
@pytest.mark.parametrize("name", NAMES)
def test_chart_titles_print_on_one_line(printed, name):
    """Every chart's title prints whole on one line (LibreOffice wrapped its titles, unsized,
    at 18 pt, into the plot: "Power against n (minDt," over "σ̂t²)"), and no chart of a
    workbook whose inputs are all good shows the note of an empty chart."""
    from topicsetsize.generator.sheets.calculators.charts import CHART_NOTE

    path, _, pdf = printed[name]
    lines = [_squash(line) for page in pdf_pages(pdf, layout=True) for line in page.splitlines()]
    wb = openpyxl.load_workbook(path)
    titles = [_chart_title(chart) for ws in wb.worksheets if ws.sheet_state == "visible"
              for chart in ws._charts]
    assert len(titles) >= 12, titles
    for title in titles:
        assert any(_squash(title) in line for line in lines), (name, title)
    assert _squash(CHART_NOTE) not in "".join(lines)


def _hidden_columns(ws) -> set[int]:
    out = set()
    for dim in ws.column_dimensions.values():
        if dim.hidden and dim.min:
            out |= set(range(dim.min, dim.max + 1))
    return out


def _print_ranges(ws) -> list[tuple[int, int, int, int]]:
    if not ws.print_area:
        return [(1, 1, ws.max_column, ws.max_row)]
    return [range_boundaries(part.split("!")[-1].replace("$", ""))
            for part in ws.print_area.split(",")]


@pytest.mark.slow
@pytest.mark.libreoffice
@pytest.mark.parametrize("name", NAMES)
def test_no_text_is_cut(printed, name):
    """Every text the generator writes in a printed cell is printed (its words are in the
    PDF's text; whether they print whole, test_every_word_prints_whole)."""
    path, pages, _ = printed[name]
    printed_text = _squash("".join(pages))
    wb = openpyxl.load_workbook(path)
    checked = 0
    for ws in wb.worksheets:
        if ws.sheet_state != "visible":
            continue
        hidden = _hidden_columns(ws)
        for c1, r1, c2, r2 in _print_ranges(ws):
            for row in ws.iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2):
                for cell in row:
                    if (not isinstance(cell.value, str) or cell.data_type == "f"
                            or cell.value.startswith("=") and cell.data_type != "s"
                            or ws.row_dimensions[cell.row].hidden
                            or cell.column in hidden):
                        continue
                    assert _squash(cell.value) in printed_text, \
                        (name, ws.title, cell.coordinate, cell.value)
                    checked += 1
    assert checked > 200


def _width_cm(ws, column: int) -> float:
    """A column's printed width: Excel's width unit is a '0' of the default font, about 7
    pixels, plus 5 pixels of padding, at 96 pixels per inch."""
    letter = openpyxl.utils.get_column_letter(column)
    width = ws.column_dimensions[letter].width if letter in ws.column_dimensions else None
    return ((width or 8.43) * 7 + 5) / 96 * 2.54


def _height_cm(ws, row: int) -> float:
    height = ws.row_dimensions[row].height if row in ws.row_dimensions else None
    return (height or 15) / 72 * 2.54


def chart_cells(ws, chart) -> tuple[int, int, int, int]:
    """The cells (first column, first row, last column, last row) a chart covers."""
    anchor = chart.anchor if isinstance(chart.anchor, str) else None
    assert anchor, "charts are anchored at a cell"
    letters, digits = re.match(r"([A-Z]+)(\d+)", anchor).groups()
    c1, r1 = column_index_from_string(letters), int(digits)
    c2, left = c1, chart.width - _width_cm(ws, c1)
    while left > 0:
        c2 += 1
        left -= _width_cm(ws, c2)
    r2, left = r1, chart.height - _height_cm(ws, r1)
    while left > 0:
        r2 += 1
        left -= _height_cm(ws, r2)
    return c1, r1, c2, r2


@pytest.mark.parametrize("spec", ["ntcir12_std_ab", "decide_example"])
@pytest.mark.slow
def test_charts_cover_no_text(spec):
    """No cell under a chart holds anything, and no text left of a chart runs under it
    (a text longer than its room, not wrapped, spills into the next columns)."""
    from topicsetsize.generator import build_workbook

    wb = build_workbook(with_matrices(load_spec(bundled_spec(spec)), [MATRIX]))
    charts = 0
    for ws in wb.worksheets:
        for chart in ws._charts:
            charts += 1
            c1, r1, c2, r2 = chart_cells(ws, chart)
            for row in ws.iter_rows(min_row=r1, max_row=r2, max_col=c2):
                for cell in row:
                    if cell.value is None or cell.value == "":
                        continue
                    assert cell.column < c1, (ws.title, cell.coordinate, "under a chart")
                    wrapped = cell.alignment is not None and cell.alignment.wrap_text
                    merged = any(cell.coordinate in m for m in ws.merged_cells.ranges)
                    if wrapped or merged or not isinstance(cell.value, str) \
                            or cell.data_type == "f":
                        continue
                    room = sum(_width_cm(ws, c) for c in range(cell.column, c1))
                    # about 0.19 cm a character at 11 pt (a '0' is 7 px: 0.185 cm)
                    assert len(cell.value) * 0.17 <= room, (ws.title, cell.coordinate,
                                                            cell.value, "runs under a chart")
    assert charts >= 12


def _strings(path: Path) -> list[tuple[str, str]]:
    """(part, text) of every text and attribute value of every XML part of a workbook (cells
    of all sheets, hidden ones too, shared strings, defined names, document properties)."""
    import zipfile

    from lxml import etree

    out = []
    with zipfile.ZipFile(path) as archive:
        for part in archive.namelist():
            if not part.endswith((".xml", ".rels")):
                continue
            root = etree.fromstring(archive.read(part))
            for node in root.iter():
                if node.text:
                    out.append((part, node.text))
                out += [(part, v) for k, v in node.attrib.items()
                        if not v.startswith(("http://", "https://"))]
    return out


@pytest.mark.slow
def test_no_path_of_the_machine_in_a_workbook(books):
    """Issue 26.4: a workbook names its data by file and folder names, never by a path of the
    machine that made it (the user's folders, the temporary file of --runs)."""
    import tempfile

    folder = next(iter(books.values())).parent
    roots = {str(Path(tempfile.gettempdir()).resolve()), str(folder), str(_DATA),
             str(Path.home()), str(Path.cwd())}
    roots |= {r.replace("/", "\\") for r in roots}
    for name, path in books.items():
        strings = _strings(path)
        assert len(strings) > 1000
        for part, text in strings:
            for root in roots:
                assert root not in text, (name, part, text)
    wb = openpyxl.load_workbook(books["runs"])
    about = "\n".join(str(c.value) for row in wb["About"].iter_rows() for c in row if c.value)
    variance = "\n".join(str(c.value) for row in wb["Variance"].iter_rows() for c in row
                         if c.value)
    for sheet in (about, variance):
        # the run folder, its 20 runs, the qrels, the measure, the 30 topics, the lines dropped
        assert "AP of the run files in runs/ (20 runs) on the qrels qrels.gz (30 topics" in sheet
        assert ("run UOS__test__sis.TMAL30Q_BM25.res.gz: dropped 311 line(s) retrieving a "
                "document already retrieved for the same topic (kept the first of each)"
                in sheet)
    # and the ties and rank columns that the evaluation resolved as trec_eval does
    assert ("run UOS__test__sis.AL30Q_BM25.res.gz: every document has the same score in 30 of "
            "30 topic(s)") in variance
    assert "and the score matrices under Data below" in about
    wb = openpyxl.load_workbook(books["matrix"])
    assert wb["Variance"]["B5"].value == "trec2004robust_ap.csv"


@pytest.mark.slow
@pytest.mark.libreoffice
@pytest.mark.parametrize("name", ["matrix", "runs", "long"])
def test_every_page_of_runs_and_topics_says_what_its_columns_are(printed, name):
    """The Variance sheet's runs and topics (TREC 2004 Robust: 110 runs, 249 topics, nine
    pages) print under their column headings on every page, a continuation page naming the
    matrix: no page of bare numbers."""
    path, pages, _ = printed[name]
    variance = sheet_pages(path, pages)["Variance"]
    assert len(variance) > 1
    for page in variance[1:]:
        assert "mean raw" in page and "std-AB factor: mean" in page, (name, page[:300])
    if name != "runs":      # more topics than fit a page: the continuation pages name it
        assert sum("continued" in page for page in variance) >= 1


@pytest.mark.slow
@pytest.mark.libreoffice
@pytest.mark.parametrize("name", NAMES)
def test_every_page_has_the_footer_with_its_sheet_and_provenance(printed, name):
    """Each printed page names its sheet and its page, and where it comes from: the spec's
    file name (never a path), topicsetsize's version and the day it was generated."""
    from topicsetsize import __version__

    path, pages, _ = printed[name]
    by_sheet = sheet_pages(path, pages)
    for sheet, its in by_sheet.items():
        for page in its:
            flat = " ".join(page.split())
            assert re.search(rf"{re.escape(sheet)}, page \d+ of {len(pages)}", flat), (
                name, sheet, flat[-200:])
            assert re.search(rf"topicsetsize {re.escape(__version__)}, spec [^,]+"
                             r"(, data .+)?, generated \d{4}-\d{2}-\d{2}", flat), (
                name, sheet, flat[-200:])
            # the score matrices the variances come from, by name (a review, 2026-12-07)
            assert (", data " in flat) == (name in ("matrix", "runs", "long")), (name, sheet)
            assert "/" not in flat.split(", spec ", 1)[1].split(",")[0]    # a name, no path
