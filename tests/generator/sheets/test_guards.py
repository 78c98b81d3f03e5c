"""Bad inputs (blank, text, out of range, pasted past the data validation) in LibreOffice:
every sheet with inputs (the six calculators, Decide, Budget) names the first bad input and
its allowed range in its status cell, its answers say "see Status" and its tables "—" (no
number, no "yes"), and no cell anywhere shows an error value. Every kind of issue 15's list
(blank, text with spaces, 0, negative, 1, 1e-12, a pasted "5%", huge) is tried on every
sheet (conftest.DONE_WHEN)."""

from __future__ import annotations

import re

import openpyxl
import pytest
from topicsetsize.generator.content.calculators import INPUTS, calculators
from topicsetsize.generator.content.inputs import allowed, reader_range
from topicsetsize.generator.sheets.calculators import sheets
from topicsetsize.generator.sheets.calculators.charts import CHART_NOTE
from topicsetsize.generator.spreadsheet.layout import CHECK_INPUTS, NO_VALUE, STATUS_OK

from topicsetsize.designs.scales import SCORES_MAX, scale_note
from topicsetsize.errors import decimal_comma
from topicsetsize.params import PARAMS

from .._libreoffice import filled_cells_without_errors
from .._oracle import Noted, status_value
from .._pdf import pdf_pages
from ..conftest import BAD, SCALE_SLIPS, bad_workbooks, named

pytestmark = pytest.mark.libreoffice

#: The named answers of each calculator that must turn into the CHECK_INPUTS text.
ANSWERS = {
    "anova": ["anova_n_legacy", "anova_n_exact", "anova_power_legacy", "anova_power_exact",
              "anova_min_d_at_n_legacy", "anova_min_d_at_n_exact"],
    "ttest": ["ttest_n_legacy", "ttest_n_exact", "ttest_delta_t_n_legacy",
              "ttest_delta_t_n_exact", "ttest_power_legacy", "ttest_power_exact",
              "ttest_min_dt_at_n_legacy", "ttest_min_dt_at_n_exact"],
    "ci": ["ci_n", "ci_n_approx", "ci_width_at_n"],
    "anova2": ["anova2_n", "anova2_power", "anova2_min_d_at_n"],
    "ttest2": ["ttest2_n", "ttest2_power", "ttest2_min_d_at_n"],
    "ci2": ["ci2_n", "ci2_n_approx", "ci2_width_at_n"],
    "decide": [],
    "budget": ["budget_cheapest", "budget_cheapest_pd", "budget_cheapest_cost"],
}


def _rows(ws, heading: str) -> range:
    """The data rows under the table whose first heading (column A) is ``heading``."""
    top = next(r for r in range(1, 40) if ws.cell(r, 1).value == heading)
    return range(top + 1, next(r for r in range(top + 1, top + 50)
                               if not isinstance(ws.cell(r, 1).value, int)))


def _decide_table(wb) -> list:
    """Every answer of the Decide sheet's live table: n, both powers and both verdicts."""
    rows = _rows(wb["Decide"], "m (systems)")
    assert len(rows) >= 3
    return [wb["Decide"].cell(r, c).value for r in rows for c in range(2, 7)]


def _budget_fits(wb) -> list:
    """The cost and "within budget" columns of the Budget sheet."""
    rows = _rows(wb["Budget"], "pool depth pd")
    assert len(rows) >= 2
    return [wb["Budget"].cell(r, c).value for r in rows for c in (5, 6)]


#: Every answer of a sheet besides its named ones.
TABLES = {"decide": _decide_table, "budget": _budget_fits}


def _input(name):
    for items in INPUTS.values():
        for item in items:
            if item.name == name:
                return item
    raise KeyError(name)


def test_every_input_is_made_bad_at_least_twice():
    names = [i.name for items in INPUTS.values() for i in items]
    for name in names:
        kinds = {kind for edits in BAD.values() for n, _, kind in edits if n == name}
        assert len(kinds) >= 2, name
    assert len(bad_workbooks()) == max(len(v) for v in BAD.values())


def test_status_names_the_bad_input_and_its_range(batch):
    checked = hinted = 0
    for k, name in enumerate(batch.bad_names):
        wb = batch.values(name)
        for calc, edits in BAD.items():
            status = named(wb, f"{calc}_status")
            if k >= len(edits):
                continue
            input_name, value, kind = edits[k]
            item = _input(input_name)
            rng = reader_range(item.key)
            # a swapped α or β (0.7 for 0.3) gets the command line's question, with the symbol
            words = PARAMS[item.key].unusual(item.key, value) \
                if isinstance(value, float) and 0 < value < 1 else None
            asked = re.search(r"did you mean \w+=(\S+)\?", words) if words else None
            hint = f" Did you mean {item.symbol}={asked[1]}?" if asked else ""
            # a decimal comma gets the command line's hint, where the number meant is in range
            if isinstance(value, str) and decimal_comma(value, allowed(item.key)):
                hint = f" Did you mean {item.symbol}={value.replace(',', '.')}?"
            assert status == f"Check the inputs: {item.symbol} is {kind} (allowed: {rng}).{hint}", \
                (name, calc, value, status)
            hinted += bool(hint)
            if calc in _CALCULATORS:     # the line atop every printed page: no fallback value
                assert wb[_CALCULATORS[calc].sheet]["A2"].value == "Inputs: see Status", name
            for answer in ANSWERS[calc]:
                assert named(wb, answer) == CHECK_INPUTS, (name, answer)
            if calc in TABLES:       # no number and no "yes" left from the fallback values
                assert set(TABLES[calc](wb)) == {NO_VALUE}, (name, calc, value)
            checked += 1
    assert checked == sum(len(v) for v in BAD.values())
    # β = 0.7 in three calculators, α = 0.6 and 0.9, β = 0.9; six values with a decimal comma
    assert hinted >= 11


def test_status_notes_a_slipped_scale(batch):
    # every calculator started on a difference and a variance on different scales
    # (conftest.SCALE_SLIPS): its status says OK with the note, in red, exactly where the
    # engine's own scale_note (topicsetsize.designs.scales) says so at the same inputs, and
    # its answers are the engine's numbers, not "see Status"
    wb = batch.values("scale_slips")
    noted = 0
    for key, inputs in [(c.key, c.inputs) for c in calculators()] + [("decide",
                                                                        INPUTS["decide"])]:
        given = {i.key: named(wb, i.name) for i in inputs}
        symbol = {i.key: i.symbol for i in inputs}
        status = named(wb, f"{key}_status")
        assert (scale_note(given) is not None) == (status != STATUS_OK), (key, status)
        if status != STATUS_OK:
            noted += 1
            d, v = (k for k in given if k in SCORES_MAX)
            first = v if given[v] > SCORES_MAX[v] else d
            assert status.startswith(f"OK, but note: {symbol[first]} > "), status
            assert f"give {symbol[d]} on" in status, status
        for answer in ANSWERS[key]:
            assert isinstance(named(wb, answer), (int, float)), (key, answer)
    assert noted == len(SCALE_SLIPS)
    assert all(isinstance(v, (int, float)) for v in _decide_table(wb)[::5])    # n, not "—"


def test_status_is_ok_with_good_inputs(batch):
    for name in ("ntcir", "example", "ntcir_edited", "decide", "decide_inject",
                 *batch.grid_names):
        wb = batch.values(name)
        for calc in ANSWERS:
            if f"{calc}_status" not in wb.defined_names:     # no Budget sheet
                assert calc == "budget"
                continue
            status = named(wb, f"{calc}_status")
            if calc in _CALCULATORS:     # a corner case may note a scale (test above)
                want = status_value(_CALCULATORS[calc], {
                    i.key: named(wb, i.name) for i in _CALCULATORS[calc].inputs})
                assert status.startswith(want) if isinstance(want, Noted) else status == want
            elif calc == "decide":
                want = status_value(None, {i.key: named(wb, i.name) for i in INPUTS["decide"]},
                                    INPUTS["decide"])
                assert status.startswith(want) if isinstance(want, Noted) else status == want
            else:
                assert status == STATUS_OK, (name, calc)
            if calc in _CALCULATORS:
                _check_inputs_line(wb, _CALCULATORS[calc], name)
            for answer in ANSWERS[calc]:
                assert named(wb, answer) != CHECK_INPUTS
            if calc in TABLES:
                assert all(isinstance(v, (int, float)) for v in TABLES[calc](wb)), (name, calc)


_SHEETS = {**{c.key: c.sheet for c in calculators()}, "decide": "Decide"}
_CALCULATORS = {c.key: c for c in calculators()}


def _check_inputs_line(wb, calc, name):
    """Row 2 of a calculator (printed atop each of its pages) gives every input the answers
    use, as recalculated by LibreOffice: the typed value (to 5 significant digits), a picked
    measure's variance (its "used" row), and the TTEST's minΔt from minDt/σ̂t where it is
    left blank."""
    ws = wb[calc.sheet]
    line = ws["A2"].value
    assert line.startswith("Inputs: "), (name, calc.key, line)
    shown = dict(part.split(" = ") for part in line[len("Inputs: "):].split(", "))
    items = (*calc.inputs, *calc.second_style)
    assert list(shown) == [item.symbol for item in items], (name, line)
    labels = {ws.cell(r, 1).value: ws.cell(r, 2).value for r in range(3, 40)}
    typed = {item.key: named(wb, item.name) for item in items}
    for item in items:
        want = labels.get(f"{item.symbol} used", typed[item.key])
        if want is None:                    # minΔt left blank: it follows minDt/σ̂t
            want = typed["min_dt"] / typed["variance_t"] ** 0.5
        got = float(shown[item.symbol].removesuffix(" (std-AB)"))    # a picked std-AB measure
        assert got == want if float(want).is_integer() else \
            abs(got - want) <= 6e-5 * abs(want), (name, item.symbol, got, want)


def test_no_number_below_the_status_while_an_input_is_bad(batch):
    """Every formula a reader sees below the status row (answers, sentences, the power and
    width tables) shows text while an input of its sheet is bad: no number from the
    fallback values. The workings are hidden (grouped rows and columns)."""
    source = openpyxl.load_workbook(batch.source[batch.bad_names[0]])
    checked = 0
    for k, name in enumerate(batch.bad_names):
        wb = batch.values(name)
        for calc, sheet in _SHEETS.items():
            if k >= len(BAD[calc]):
                continue
            ws, formulas = wb[sheet], source[sheet]
            status = next(r for r in range(1, 40) if ws.cell(r, 1).value == "Status")
            hidden_columns = [(d.min, d.max) for d in formulas.column_dimensions.values()
                              if d.hidden]
            for row in formulas.iter_rows(min_row=status + 1):
                for cell in row:
                    if (cell.data_type != "f" or formulas.row_dimensions[cell.row].hidden
                            or any(lo <= cell.column <= hi for lo, hi in hidden_columns)):
                        continue
                    value = ws[cell.coordinate].value
                    assert not isinstance(value, (int, float)), (name, sheet, cell.coordinate)
                    # nor a label that reads a blank or text input as an answer beyond the
                    # search limit ("exact n > 10⁹: at 10⁹ − 1"; a review, 2026-12-07)
                    assert "10⁹" not in str(value), (name, sheet, cell.coordinate, value)
                    checked += 1
    assert checked > 5_000


def test_no_error_cell_whatever_is_typed(batch):
    for name in batch.bad_names:
        assert filled_cells_without_errors(batch.values(name), name) > 10_000


def _pdf(path, tmp_path):
    """The PDF LibreOffice prints of the workbook ``path``."""
    import shutil
    import subprocess

    from .._libreoffice import _PROFILE, require_soffice

    exe = require_soffice()
    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler-utils (pdftotext)")
    (tmp_path / "profile" / "user").mkdir(parents=True)
    (tmp_path / "profile" / "user" / "registrymodifications.xcu").write_text(_PROFILE)
    subprocess.run([exe, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                    "--headless", "--norestore", "--convert-to", "pdf", "--outdir",
                    str(tmp_path), str(path)], check=True, capture_output=True, timeout=600)
    return tmp_path / (path.stem + ".pdf")


def _pdf_text(pdf, width: int | None = None) -> str:
    """The text of ``pdf`` as laid out (pdftotext -layout), of its pages' left ``width``
    points only where given."""
    import subprocess

    crop = ["-x", "0", "-y", "0", "-W", str(width), "-H", "1000"] if width else []
    return subprocess.run(["pdftotext", "-layout", *crop, str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


#: Points of a printed page left of the calculators' charts (column D, at 514 pt): the labels
#: and the answers (columns A and B), without the charts' axes, which pdftotext -layout would
#: put on the answers' lines and so move an answer to the line above.
LEFT_OF_CHARTS = 505


def test_a_bad_input_prints_one_whole_message_per_answer(built, tmp_path):
    """Issue 26.6: printed while every sheet has a bad input, an answer cell reads
    CHECK_INPUTS whole (not "heck the inputs", cut at the left of a right-aligned cell) and
    a table cell NO_VALUE (not "check the inputscheck the inputs" run together); the
    charts, whose curves are empty, say why (LibreOffice draws them with axes of its own)."""
    path = built.source[built.bad_names[0]]
    source = openpyxl.load_workbook(path)
    labels = set()
    for names in ANSWERS.values():
        for answer in names:
            sheet, coord = next(iter(source.defined_names[answer].destinations))
            row = source[sheet][coord.replace("$", "")].row
            labels.add(source[sheet].cell(row, 1).value)
    assert len(labels) >= 10
    pdf = _pdf(path, tmp_path)
    printed = 0
    for line in (line.strip() for line in _pdf_text(pdf, LEFT_OF_CHARTS).splitlines()):
        label = next((x for x in labels if line.startswith(x + "  ")), None)
        if label is not None:         # (a table row may start with the same words)
            rest = line[len(label):].strip()
            assert rest.startswith((CHECK_INPUTS, NO_VALUE)), line
            printed += rest.startswith(CHECK_INPUTS)
    assert printed >= 20, printed
    text = "\n".join(line.strip() for line in _pdf_text(pdf).splitlines())
    assert CHECK_INPUTS + CHECK_INPUTS[0] not in text and NO_VALUE * 2 not in text
    assert text.count(NO_VALUE) > 100
    # and every calculator (each has a bad input in this workbook: BAD[calc][0]) prints, in
    # its two charts, why they are empty (pdftotext -raw: a label's lines in the order drawn)
    drawn = "".join("".join(page.split()) for page in pdf_pages(pdf))
    assert drawn.count("".join(CHART_NOTE.split())) == 2 * len(sheets()), drawn.count("No")
