"""Input cells: data validation that accepts exactly the allowed range (checked in LibreOffice)."""

from __future__ import annotations

import openpyxl
import pytest
from topicsetsize.generator.content.calculators import INPUTS
from topicsetsize.generator.content.inputs import allowed, reader_range
from topicsetsize.generator.sheets.calculators import sheets
from topicsetsize.generator.spreadsheet.layout import validation_formula

from ..conftest import VALIDATION_PROBES


@pytest.mark.libreoffice
def test_validation_formulas_accept_exactly_the_allowed_values(batch):
    ws = batch.values("probe")["validation"]
    rows = 0
    for row in ws.iter_rows(min_row=1, values_only=True):
        key, expected, value, verdict, check = row[:5]
        assert verdict is expected, (key, value, verdict)
        # the check cell agrees with the validation and names what is wrong, never an error
        want = ("ok" if expected else "blank" if value is None
                else "not a number" if isinstance(value, str) else "out of range")
        assert check == want, (key, value, check)
        if isinstance(value, (int, float)):   # and the registry range agrees
            import numpy as np

            assert bool(allowed(key).contains(np.asarray(float(value)))) is expected
        rows += 1
    assert rows == sum(len(v) for v in VALIDATION_PROBES.values())


@pytest.mark.slow
def test_every_input_cell_is_validated_and_named(built):
    wb = openpyxl.load_workbook(built.source["decide"])
    for calc, items in INPUTS.items():
        ws = wb[{"ttest_effect": "TTEST", "decide": "Decide", "budget": "Budget"}.get(
            calc, calc.upper())]
        validations = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
        for item in items:
            row = next(r for r in range(1, 20) if ws.cell(r, 1).value == item.symbol
                       and ws.cell(r, 2).fill.fgColor.rgb == "00FFF2CC")
            coord = f"B{row}"
            dv = validations[coord]
            assert dv.type == "custom" and dv.showErrorMessage
            assert dv.allow_blank is item.optional
            assert not ws[coord].protection.locked
            assert dv.formula1 == validation_formula(coord, allowed(item.key))
            assert reader_range(item.key) in dv.error
            # the allowed range reads as words, set off from the value (issue 15.5)
            assert ws.cell(row, 3).value == reader_range(item.key)
            assert ws.cell(row, 3).alignment.indent >= 1 and "<" not in ws.cell(row, 3).value
            if item.name:
                dest = next(iter(wb.defined_names[item.name].destinations))
                assert dest == (ws.title, f"$B${row}")


def test_validation_formula_text():
    from topicsetsize.params import Range

    assert validation_formula("C3", Range(low=0, high=1)) == "AND(ISNUMBER(C3),C3>0,C3<1)"
    assert validation_formula("C3", Range(low=1e-6, high=0.5, low_open=False,
                                          high_open=False)) == \
        "AND(ISNUMBER(C3),C3>=1e-06,C3<=0.5)"


def test_print_areas_hold_the_charts():
    """Every chart of a calculator sheet ends inside the sheet's print area (fit to one page
    wide would otherwise cut it at the area's right edge)."""
    from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries
    from topicsetsize.generator import build_workbook, bundled_spec, load_spec

    wb = build_workbook(load_spec(bundled_spec("decide_example")))
    checked = 0
    for ws in wb.worksheets:
        if not ws.print_area or not ws._charts:
            continue
        areas = [range_boundaries(part.split("!")[-1].replace("$", ""))
                 for part in ws.print_area.split(",")]
        for chart in ws._charts:
            anchor = chart.anchor                             # "H12" until the file is saved
            first = (column_index_from_string("".join(c for c in anchor if c.isalpha()))
                     if isinstance(anchor, str) else anchor._from.col + 1)
            row = (int("".join(c for c in anchor if c.isdigit())) if isinstance(anchor, str)
                   else anchor._from.row + 1)
            # the last column of the printed range that holds the chart's top row
            last = next(c2 for c1, r1, c2, r2 in areas if r1 <= row <= r2)
            reach, column = 0.0, first
            while reach < chart.width:                        # cm; 1 character = about 0.19 cm
                width = ws.column_dimensions[get_column_letter(column)].width or 8.43
                reach += width * 0.19
                column += 1
            assert column - 1 <= last, (ws.title, ws.print_area)
            checked += 1
    assert checked >= 6


@pytest.mark.slow
def test_sheets_with_inputs_print_readable_first_pages():
    """Every sheet with inputs prints at a fixed scale whose first print range fits the width
    of an A4 landscape page, so that its named answers print at 9 pt or more (issue 15.5:
    Decide and Budget were fitted to one page wide, at about 4 pt)."""
    from openpyxl.utils import column_index_from_string, get_column_letter
    from topicsetsize.generator import build_workbook, bundled_spec, load_spec

    wb = build_workbook(load_spec(bundled_spec("decide_example")))
    # A4 landscape (842 pt) less the margins (0.4 in each side, generator.build._page_setup);
    # a column of width w is about 7w + 5 pixels (0.75 pt each) wide
    page = 842 - 2 * 0.4 * 72
    answers = {}
    for dn in wb.defined_names.values():
        for sheet, coord in dn.destinations:      # (a constant such as a helper has none)
            answers.setdefault(sheet, []).append(coord.replace("$", "").split(":")[0])
    for title in (*sheets(), "Decide", "Budget"):
        ws = wb[title]
        scale = ws.page_setup.scale
        assert scale and not ws.sheet_properties.pageSetUpPr.fitToPage, title
        first = ws.print_area.split(",")[0].split("!")[-1].replace("$", "")
        left, right = ("".join(c for c in part if c.isalpha()) for part in first.split(":"))
        width = sum(0.75 * (7 * (ws.column_dimensions[get_column_letter(c)].width or 8.43) + 5)
                    for c in range(column_index_from_string(left),
                                   column_index_from_string(right) + 1))
        assert width * scale / 100 <= page, (title, width, scale)
        sizes = [ws[c].font.sz for c in answers[title] if ws[c].font.b and ws[c].font.sz]
        assert sizes and max(sizes) * scale / 100 >= 9, (title, sizes, scale)


def test_a_required_n_too_large_for_its_cell_shrinks_to_fit_and_a_tiny_delta_shows():
    """minD = 1e-5 needs more than 10⁹ topics: the answer cells read TOO_LARGE in the answer
    font, twice the width of column B, so they shrink to fit rather than print clipped
    ("more than 1,00"); Δ = 8.3e-10 has a format section that shows it (not 0.000000)."""
    from topicsetsize.generator import build_workbook, spec_from_dict

    spec = spec_from_dict({"title": "tiny", "calculators": {"anova": {
        "alpha": 0.05, "beta": 0.2, "min_d": 1e-5, "variance": 0.0601, "m": 10, "n": 100}}})
    wb = build_workbook(spec)
    for name in ("anova_n_legacy", "anova_n_exact"):
        sheet, coord = next(iter(wb.defined_names[name].destinations))
        cell = wb[sheet][coord.replace("$", "")]
        assert cell.alignment.shrink_to_fit and cell.font.b, name
    ws = wb["ANOVA"]
    row = next(r for r in range(1, 40) if ws.cell(r, 1).value == "Δ = minD²/(2σ̂²)")
    small, usual = ws.cell(row, 2).number_format.split(";")
    assert small == "[<0.0001]0.000E+00" and usual == "0.000000"     # 8.319E-10, 0.083195
