"""The Tables sheet of the bundled NTCIR-12 workbook against the published Table 2."""

from __future__ import annotations

import csv

import openpyxl
import pandas as pd
import pytest
from topicsetsize.generator import bundled_spec, load_spec
from topicsetsize.generator.spreadsheet.cells import STYLE

import topicsetsize as tss


def _table(ws, name: str, method: str, n_m: int = 5, n_d: int = 4) -> pd.DataFrame:
    """Read back the ``method`` table of measure ``name`` (rows m, columns minD)."""
    top = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == name)
    c0 = 1 if method == "legacy" else n_d + 3
    assert ws.cell(top + 3, c0).value == "m \\ minD"
    cols = [ws.cell(top + 3, c0 + 1 + j).value for j in range(n_d)]
    idx = [ws.cell(top + 4 + i, c0).value for i in range(n_m)]
    data = [[ws.cell(top + 4 + i, c0 + 1 + j).value for j in range(n_d)] for i in range(n_m)]
    return pd.DataFrame(data, index=idx, columns=cols)


@pytest.fixture(scope="module")
def published(data_dir):
    # AIRS 2016 Table 2 parts I-II (tests/data/PROVENANCE.md): n_legacy = published,
    # n_exact = smallest n with exact noncentral-F power >= .80
    with open(data_dir / "anova_table2_parts_I_II.csv", newline="") as f:
        return list(csv.DictReader(f))


def _check_published(ws, published):
    for row in published:
        for method, column in (("legacy", "n_legacy"), ("exact", "n_exact")):
            table = _table(ws, row["measure"], method)
            got = table.loc[int(row["m"]), float(row["min_d"])]
            assert got == int(row[column]), (row["measure"], row["m"], row["min_d"], method)


@pytest.mark.slow
def test_bundled_tables_equal_published_table2_parts_I_II(built, published):
    assert len(published) == 100
    _check_published(openpyxl.load_workbook(built.source["ntcir"])["Tables"], published)


@pytest.mark.libreoffice
def test_tables_survive_libreoffice(batch, published):
    _check_published(batch.values("ntcir")["Tables"], published)


@pytest.mark.slow
def test_every_measure_has_both_engine_tables(built):
    spec = load_spec(bundled_spec())
    ws = openpyxl.load_workbook(built.source["ntcir"])["Tables"]
    assert len(spec.measures) == 12                          # 240 cells, as in the paper:
    assert sum(len(ms) * len(ds) for ms, ds in map(spec.grid, spec.measures)) == 240
    for measure in spec.measures:
        ms, ds = spec.grid(measure)
        for method in ("legacy", "exact"):
            want = tss.anova_table(0.05, beta=0.20, variance=measure.variance, ms=list(ms),
                                   min_ds=list(ds), method=method)
            got = _table(ws, measure.name, method, len(ms), len(ds))
            assert got.to_numpy().tolist() == want.to_numpy().tolist(), (measure.name, method)
            assert got.index.tolist() == list(ms)
            assert got.columns.tolist() == list(ds)


@pytest.mark.slow
def test_cells_where_methods_differ_are_shaded_with_a_note(built):
    ws = openpyxl.load_workbook(built.source["ntcir"])["Tables"]
    top = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value ==
               "MedNLPDoc raw recall")
    shaded = short = 0
    for i in range(5):
        for j in range(4):
            legacy = ws.cell(top + 4 + i, 2 + j)
            exact = ws.cell(top + 4 + i, 8 + j)
            differ = legacy.value != exact.value
            for cell in (legacy, exact):
                assert (cell.fill.fgColor.rgb == STYLE.differ_fill.fgColor.rgb) == differ
            assert (exact.comment is not None) == differ
            if differ:
                assert exact.comment.text == f"legacy n = {legacy.value}, exact n = {exact.value}"
            shaded += differ
            short += differ and legacy.value < exact.value
    # m = 2, minD = .02: 2301 vs 2360 (AIRS 2016 Table 2; docs/formulas.md §8)
    assert ws.cell(top + 4, 2).value == 2301 and ws.cell(top + 4, 8).value == 2360
    note = ws.cell(top + 9, 1).value
    # and in how many the legacy n under-sizes (a review, 2026-12-07: "differ" said only that)
    assert note == (f"{shaded} of 20 cells differ between the methods (shaded); in {short} the "
                    "legacy n is smaller, and falls short of 1 − β under the exact test.")
    assert shaded == short == 18        # here every legacy n that differs is the smaller


@pytest.mark.slow
def test_parts_follow_the_paper_layout(built, published):
    """Parts I-II: exactly the published m and minD; part V: the published rows m = 2, 10, 20,
    40, 50 (AIRS 2016 Table 2 part V; its values from the engine, no published values at hand)."""
    spec = load_spec(bundled_spec())
    ws = openpyxl.load_workbook(built.source["ntcir"])["Tables"]
    for part in ("I", "II"):
        rows = [r for r in published if r["part"] == part]
        names = {r["measure"] for r in rows}
        assert names == {x.name for x in spec.measures if x.group == part}
        for name in names:
            ms = sorted({int(r["m"]) for r in rows if r["measure"] == name})
            ds = sorted({float(r["min_d"]) for r in rows if r["measure"] == name})
            measure = next(x for x in spec.measures if x.name == name)
            assert spec.grid(measure) == (tuple(ms), tuple(ds))
            table = _table(ws, name, "legacy", len(ms), len(ds))
            assert list(table.index) == ms and list(table.columns) == ds
    for measure in spec.measures:
        ms, ds = spec.grid(measure)
        assert ms == ((2, 10, 20, 40, 50) if measure.group == "V" else (2, 10, 20, 30, 50))
        for method in ("legacy", "exact"):
            table = _table(ws, measure.name, method, len(ms), len(ds))
            want = tss.anova_table(spec.alpha, beta=spec.beta, variance=measure.variance,
                                   ms=list(ms), min_ds=list(ds), method=method)
            assert table.to_numpy().tolist() == want.to_numpy().tolist(), (measure.name, method)
        # the row under the table is the note, not a stray m row
        top = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == measure.name)
        assert "cells differ" in ws.cell(top + 4 + len(ms), 1).value


@pytest.mark.slow
def test_ttest_and_ci_tables_equal_engine(built):
    """The t-test and CI tables under the ANOVA ones: every cell from the engine
    (CIKM 2014 / IRJ 2016 designs, σ̂t² = 2σ̂²)."""
    spec = load_spec(bundled_spec())
    ws = openpyxl.load_workbook(built.source["ntcir"])["Tables"]
    grid = list(spec.min_d)
    for title, want_of in (
            ("Paired t-test, legacy", lambda v, d: tss.ttest_n(spec.alpha, spec.beta, d, v)),
            ("Paired t-test, exact", lambda v, d: tss.ttest_n(spec.alpha, spec.beta, d, v,
                                                              method="exact")),
            ("CI of a difference", lambda v, d: tss.ci_n(spec.alpha, d, v))):
        top = next(r for r in range(1, ws.max_row + 1)
                   if str(ws.cell(r, 1).value or "").startswith(title)) + 1
        assert [ws.cell(top, 3 + j).value for j in range(len(grid))] == grid
        for i, measure in enumerate(spec.measures):
            r = top + 1 + i
            assert ws.cell(r, 1).value == measure.name
            v = ws.cell(r, 2).value
            assert v == pytest.approx(2 * measure.variance, rel=1e-15)
            assert [ws.cell(r, 3 + j).value for j in range(len(grid))] == \
                [want_of(v, d) for d in grid], (title, measure.name)


@pytest.mark.slow
def test_tables_print_with_titles_and_no_heading_alone(built):
    """Print titles on every page, and a page break before a measure's heading wherever its
    tables would not fit on the page (issue 15.5): no heading is left alone at a page end."""
    from topicsetsize.generator.sheets.tables_sheet import PAGE_ROWS

    ws = openpyxl.load_workbook(built.source["ntcir"])["Tables"]
    assert ws.print_title_rows.replace("$", "") == "1:1"
    spec = load_spec(bundled_spec())
    headings = [r for r in range(1, ws.max_row + 1)      # a name over its "σ̂² = ..." line
                if ws.cell(r, 1).value in {m.name for m in spec.measures}
                and str(ws.cell(r + 1, 1).value).startswith("σ̂² = ")]
    assert len(headings) == len(spec.measures)
    # the paired t-test and CI tables at the bottom: a section title and three tables
    section = [r for r in range(1, ws.max_row + 1)
               if str(ws.cell(r, 1).value).startswith("Paired t-test and CI")]
    pairs = [r for r in range(1, ws.max_row + 1)
             if str(ws.cell(r, 1).value).startswith(("Paired t-test,", "CI of a difference"))]
    assert len(section) == 1 and len(pairs) == 3
    breaks = [b.id for b in ws.row_breaks.brk]
    assert breaks and all(b + 1 in {*headings, *section, *pairs} for b in breaks)
    tops = [1, *(b + 1 for b in breaks), ws.max_row + 1]
    for top, next_top in zip(tops, tops[1:]):
        assert next_top - top <= PAGE_ROWS + 1
        # a heading on this page has its whole table (its note row) on the same page
        for h in (h for h in headings if top <= h < next_top):
            note = next(r for r in range(h, h + 20) if "cells differ" in str(ws.cell(r, 1).value))
            assert note < next_top
        # so has a pair table (its title, header and a row per measure), and the section
        # title its first table
        for t in (t for t in pairs if top <= t < next_top):
            assert t + 1 + len(spec.measures) < next_top
        for t in (t for t in section if top <= t < next_top):
            assert pairs[0] in range(t, next_top)


@pytest.mark.slow
def test_the_notes_under_a_matrix_tables_wrap_within_them(built):
    """A review, 2026-12-08: under a score matrix's tables, the line on σ̂²'s interval ran far
    past the two tables, and the sheet, fitted to one page's width, printed every table at about
    6 pt (`workbook --matrix`). It is wrapped within the exact table's last column now."""
    ws = openpyxl.load_workbook(built.source["example"])["Tables"]
    rows = [r for r in range(1, ws.max_row + 1)
            if str(ws.cell(r, 1).value).startswith("σ̂² is an estimate from the past topics")]
    assert rows                                     # the example has a matrix: its interval
    merged = {rng.min_row: rng for rng in ws.merged_cells.ranges if rng.min_col == 1}
    for r in rows:
        header = next(h for h in range(r, 0, -1) if ws.cell(h, 1).value == "m \\ minD")
        last = max(c for c in range(1, ws.max_column + 1) if ws.cell(header, c).value is not None)
        assert r in merged and merged[r].max_col == last and merged[r].max_row == r
        assert ws.cell(r, 1).alignment.wrap_text and ws.row_dimensions[r].height > 15
