"""Building blocks of the calculator sheets: input cells, result rows, warnings, searches.

The calculators (:mod:`generator.sheets.calculators`) are assembled from these pieces, so they
look and behave alike: yellow input cells with data validation and a workbook-level name,
green answer cells, and the searches for the required n written out as rows of formulas under
a "Workings" heading, where anyone can follow them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Protection
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from topicsetsize.params import N_MAX, PARAMS, Range

from ..content.inputs import Input, allowed, reader_range
from .cells import STYLE, put_formula, put_label, put_number, ref
from .formulas import N_FMT
from .rows import Col, bisection_answer, bisection_cols, bisection_steps, write_block

__all__ = ["Cursor", "write_inputs", "write_result", "name_cell", "validation_formula",
           "range_conditions", "check_formula", "Inputs", "write_status", "guarded",
           "exact_match",
           "CHECK_INPUTS", "NO_VALUE", "STATUS_OK",
           "power_search", "SCAN_TOP", "TOO_LARGE", "too_large_text", "highlight_if",
           "answer_text", "both_systems_note"]

#: The legacy criterion is scanned for every n = 2..SCAN_TOP and bisected above.
SCAN_TOP = 128
#: What an answer shows when no n up to N_MAX is enough.
TOO_LARGE = f"more than {N_MAX:,}"


def too_large_text() -> str:
    """The string literal of :data:`TOO_LARGE` for a formula."""
    return f'"{TOO_LARGE}"'


@dataclass
class Cursor:
    """The next free row of a sheet being written top to bottom."""

    ws: object
    row: int = 1
    pending: list = field(default_factory=list)   # cells whose formula is known only later

    def resolve(self) -> None:
        """Write the formulas of the cells that :func:`write_result` deferred."""
        for cell, formula in self.pending:
            cell.value = formula()
        self.pending.clear()

    def skip(self, rows: int = 1) -> int:
        self.row += rows
        return self.row

    def heading(self, text: str, *, font=STYLE.heading) -> int:
        """A heading row; returns its row number."""
        put_label(self.ws, self.row, 1, text, font=font)
        self.row += 1
        return self.row - 1

    def note(self, text: str, font=None) -> int:
        put_label(self.ws, self.row, 1, text, font=font or STYLE.note)
        self.row += 1
        return self.row - 1


def name_cell(wb, name: str, sheet: str, row: int, column: int) -> None:
    """Define the workbook-level name ``name`` for one cell."""
    wb.defined_names[name] = DefinedName(name, attr_text=ref(row, column, absolute=True,
                                                              sheet=sheet))


def validation_formula(cell: str, rng: Range) -> str:
    """Custom data-validation formula that accepts exactly the values in ``rng``.

    >>> from topicsetsize.params import PARAMS
    >>> validation_formula("B5", PARAMS["m"])
    'AND(ISNUMBER(B5),B5>=2,B5<=1000000000,B5=INT(B5))'
    """
    return f"AND({','.join([f'ISNUMBER({cell})', *range_conditions(cell, rng)])})"


def range_conditions(cell: str, rng: Range) -> list[str]:
    """The comparisons that a number in ``cell`` must pass to lie in ``rng``.

    >>> from topicsetsize.params import PARAMS
    >>> range_conditions("B5", PARAMS["alpha"])
    ['B5>0', 'B5<1']
    """
    parts = []
    if rng.low != float("-inf"):
        parts.append(f"{cell}{'>' if rng.low_open else '>='}{_num(rng.low)}")
    if rng.high != float("inf"):
        parts.append(f"{cell}{'<' if rng.high_open else '<='}{_num(rng.high)}")
    if rng.integer:
        parts.append(f"{cell}=INT({cell})")
    return parts


def check_formula(cell: str, rng: Range, *, optional: bool = False) -> str:
    """Formula of an input's check cell: "ok", or what is wrong ("blank", "not a number",
    "out of range"). It never gives an error value, whatever the cell holds.

    >>> from topicsetsize.params import PARAMS
    >>> formula = check_formula("B5", PARAMS["alpha"])
    >>> print(formula.replace(",IF(", ",\\nIF("))
    =IF(ISNUMBER(B5),
    IF(AND(B5>0,B5<1),"ok","out of range"),
    IF(ISBLANK(B5),"blank","not a number"))
    """
    blank = '"ok"' if optional else '"blank"'
    return (f'=IF(ISNUMBER({cell}),IF(AND({",".join(range_conditions(cell, rng))}),"ok",'
            f'"out of range"),IF(ISBLANK({cell}),{blank},"not a number"))')


def mistaken_hint(key: str, symbol: str, cell: str) -> str:
    """The Status message's tail for a value that is most likely the complement of the one
    meant (α = 0.95, β = 0.8): the question of the registry's ``mistaken`` words for ``key``
    ("did you mean beta=0.2?", as the command line and the Excel functions ask it), with the
    symbol for the name, as an Excel string expression appended with ``&``; "" for a key
    without one. It says nothing where the value is not such a number. Only the question: the
    whole of the words would run past the printed page.

    >>> print(mistaken_hint("beta", "β", "B6"))
    &IF(ISNUMBER(B6),IF(AND(B6>0.5,B6<1)," Did you mean β="&ROUND(1-B6,12)&"?",""),"")
    >>> mistaken_hint("variance", "σ̂²", "B6")
    ''
    """
    spec = PARAMS.get(key)
    if spec is None or "did you mean {name}={complement}?" not in spec.mistaken:
        return ""
    below = f"{cell}{'<' if spec.high_open else '<='}{_num(spec.high)}"
    # AND does not stop at a FALSE: an error value in the cell would reach the comparisons
    return (f'&IF(ISNUMBER({cell}),IF(AND({cell}>{_num(spec.usual[1])},{below}),'
            f'" Did you mean {symbol}="&ROUND(1-{cell},12)&"?",""),"")')


def comma_hint(key: str, symbol: str, cell: str) -> str:
    """The Status message's tail for a number written with a decimal comma ("0,05", a text in a
    locale whose decimal mark is the point): " Did you mean α=0.05?", as the command line hints
    it (:func:`topicsetsize.errors.decimal_comma`: a real-valued parameter only, and only where
    the decimal reading is in the workbook's range), as an Excel string expression appended
    with ``&``; "" for a whole-number key. Each test sits in an IF of its own: an error value
    or a text that VALUE cannot read never reaches the next (AND does not stop at a FALSE).

    >>> print(comma_hint("alpha", "α", "B6").replace(",IF(", ",\\nIF(").replace(')," ', '),\\n" '))
    &IF(ISTEXT(B6),
    IF(SUBSTITUTE(B6,",","")<>B6,
    IF(ISNUMBER(VALUE(SUBSTITUTE(B6,",","."))),
    IF(AND(VALUE(SUBSTITUTE(B6,",","."))>=1e-06,VALUE(SUBSTITUTE(B6,",","."))<=0.5),
    " Did you mean α="&SUBSTITUTE(B6,",",".")&"?",""),""),""),"")
    >>> comma_hint("m", "m", "B6")
    ''
    """
    spec = allowed(key) if key in PARAMS else None
    if spec is None or spec.integer:
        return ""
    point = f'SUBSTITUTE({cell},",",".")'
    read = f"VALUE({point})"
    return (f'&IF(ISTEXT({cell}),IF(SUBSTITUTE({cell},",","")<>{cell},IF(ISNUMBER({read}),'
            f'IF(AND({",".join(range_conditions(read, spec))}),'
            f'" Did you mean {symbol}="&{point}&"?",""),""),""),"")')


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


#: What an answer shows while an input is bad: short enough to fit an answer cell whole (the
#: status row above says which input and its range).
CHECK_INPUTS = "see Status"
#: What a table cell shows while an input is bad (a narrow cell: one mark, never cut).
NO_VALUE = "—"
#: What the status cell shows when every input is in range.
STATUS_OK = "OK: every input is in range."


@dataclass
class Inputs:
    """The input rows of a calculator, as written by :func:`write_inputs`.

    ``used[key]`` is the expression of the value the formulas use: the input when it is in
    range, else its starting value (so that no formula ever sees a blank, a text or an
    out-of-range number). ``checks[key]`` is the check cell ("ok" or what is wrong),
    ``cells[key]`` the input cell and ``rows[key]`` its row; ``shown_after[key]``, where set,
    a formula's text said after the value in the calculator's inputs line (a picked measure's
    "(std-AB)").
    """

    used: dict[str, str] = field(default_factory=dict)
    checks: dict[str, str] = field(default_factory=dict)
    cells: dict[str, str] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    messages: list[tuple[str, str]] = field(default_factory=list)   # (check cell, message)
    shown_after: dict[str, str] = field(default_factory=dict)


def write_inputs(cur: Cursor, wb, inputs: tuple[Input, ...], values: dict,
                 block: Inputs | None = None, fallback: dict | None = None,
                 header: bool = True) -> Inputs:
    """Input rows: symbol, value (yellow, validated, named), allowed range, check, meaning.

    The check cell (column D) reads "ok" or says what is wrong; the value the formulas use
    (``Inputs.used``) falls back to the starting value while the input is bad, and for an
    optional input left blank to ``fallback[key]`` (an expression). Returns ``block``
    (a new :class:`Inputs` when None) with the rows added.
    """
    ws = cur.ws
    block = block or Inputs()
    fallback = fallback or {}
    if header:
        for c, text in enumerate(("input", "value", "allowed", "check", "meaning"), start=1):
            put_label(ws, cur.row, c, text, font=STYLE.bold, fill=STYLE.header_fill)
        cur.skip()
    for item in inputs:
        row = cur.row
        rng = allowed(item.key)
        put_label(ws, row, 1, f"{item.symbol}", font=STYLE.bold)
        start = values.get(item.key, item.default)
        cell = put_number(ws, row, 2, start, number_format=_input_format(item.key, start),
                          fill=STYLE.input_fill)
        cell.border = STYLE.box
        cell.protection = Protection(locked=False)
        put_label(ws, row, 3, reader_range(item.key)).alignment = Alignment(horizontal="left",
                                                                           indent=1)
        checks = put_formula(ws, row, 4, check_formula(ref(row, 2), rng, optional=item.optional))
        checks.alignment = STYLE.center
        highlight_if(ws, ref(row, 4), f'{ref(row, 4)}<>"ok"', font=STYLE.warning_font)
        source = values.get("_source", {}).get(item.key)
        put_label(ws, row, 5, f"{item.label}; {source}" if source else item.label,
                  font=STYLE.note)
        dv = DataValidation(type="custom", formula1=validation_formula(ref(row, 2), rng),
                            allow_blank=item.optional, showErrorMessage=True,
                            showInputMessage=True,
                            errorTitle=f"{item.symbol}: out of range"[:32],
                            error=f"{item.symbol}: allowed {reader_range(item.key)}."[:255],
                            promptTitle=item.symbol[:32],
                            prompt=f"{item.label}. Allowed: {reader_range(item.key)}"[:255])
        ws.add_data_validation(dv)
        dv.add(ref(row, 2))
        if item.name:
            name_cell(wb, item.name, ws.title, row, 2)
        here = ref(row, 2, absolute=True)
        check = ref(row, 4, absolute=True)
        if item.optional:
            used = f'IF(AND({check}="ok",ISNUMBER({here})),{here},{fallback[item.key]})'
        else:
            used = f'IF({check}="ok",{here},{_num(start)})'
        block.used[item.key] = f"({used})"
        block.checks[item.key] = check
        block.cells[item.key] = here
        block.rows[item.key] = row
        block.messages.append((check, f'"{item.symbol} is "&{check}&" (allowed: '
                                      f'{reader_range(item.key)})."'
                                      + mistaken_hint(item.key, item.symbol, here)
                                      + comma_hint(item.key, item.symbol, here)))
        cur.skip()
    return block


def _input_format(key: str, start) -> str:
    """Number format of an input cell: a whole-number input in General (a typed 2.5 shows as
    2.5 beside its "whole number" check, where ``#,##0`` showed 3); a variance with (at most)
    four significant digits of its starting value, e.g. 0.008443 for 0.008443273111601386.

    >>> _input_format("m", 2), _input_format("variance", 0.008443273111601386)
    ('General', '0.0#####')
    >>> _input_format("variance_t", 0.0601), _input_format("variance", 1.0)
    ('0.0####', '0.0##')
    """
    if key.startswith("variance") and isinstance(start, (int, float)) and start > 0:
        decimals = max(1, 3 - math.floor(math.log10(start)))
        return "0.0" + "#" * (decimals - 1)
    return "General"


def write_status(cur: Cursor, wb, prefix: str, block: Inputs, ok_text: str = f'"{STATUS_OK}"'
                 ) -> tuple[str, str]:
    """The status row: :data:`STATUS_OK` (or the formula ``ok_text``, whose texts start with
    "OK": a calculator's scale note), or the first bad input and its allowed range; in red
    where it does not say OK, or holds a note.

    Defines ``{prefix}_status`` (the cell) and ``{prefix}_inputs_ok`` (TRUE when every
    input is in range); returns their names.
    """
    ws, row = cur.ws, cur.row
    expr = ok_text
    for check, message in reversed(block.messages):
        expr = f'IF({check}="ok",{expr},"Check the inputs: "&{message})'
    put_label(ws, row, 1, "Status", font=STYLE.bold)
    cell = put_formula(ws, row, 2, "=" + expr, font=STYLE.bold)
    status = ref(row, 2, absolute=True)
    highlight_if(ws, ref(row, 2), f'OR(LEFT({ref(row, 2)},2)<>"OK",'
                 f'ISNUMBER(SEARCH("note:",{ref(row, 2)})))', fill=STYLE.warning_fill,
                 font=STYLE.warning_font)
    cell.alignment = Alignment(vertical="center")
    name_cell(wb, f"{prefix}_status", ws.title, row, 2)
    ok = f"{prefix}_inputs_ok"
    wb.defined_names[ok] = DefinedName(
        ok, attr_text=f'LEFT({_sheet_ref(ws.title, status)},2)="OK"')
    cur.skip()
    return f"{prefix}_status", ok


def _sheet_ref(sheet: str, absolute: str) -> str:
    return f"{sheet}!{absolute}"


def guarded(ok: str, expr: str, otherwise: str = f'"{CHECK_INPUTS}"') -> str:
    """``expr`` while the inputs are in range (``ok``), else the :data:`CHECK_INPUTS` text.

    >>> guarded("anova_inputs_ok", "B7*2")
    '=IF(anova_inputs_ok,B7*2,"see Status")'
    """
    return f"=IF({ok},{expr},{otherwise})"


def exact_match(cell: str, names: str) -> str:
    """MATCH of the text in ``cell`` among ``names`` as it is: ~, * and ? escaped, which MATCH
    would take as wildcards (a name "A?B" then finds itself, not "AxB").

    >>> exact_match("$B$9", "measure_names")
    'MATCH(SUBSTITUTE(SUBSTITUTE(SUBSTITUTE($B$9,"~","~~"),"*","~*"),"?","~?"),measure_names,0)'
    """
    literal = f'SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({cell},"~","~~"),"*","~*"),"?","~?")'
    return f"MATCH({literal},{names},0)"


def write_result(cur: Cursor, label: str, formula, *, number_format: str = "General",
                 answer: bool = False, note="", name: str = "", wb=None) -> str:
    """A result row: label in A, formula in B, an explanation in C. Returns B's reference.

    ``formula`` is a formula, or a function returning one once the cells it refers to have
    been written (the cell is filled by :meth:`Cursor.resolve`). ``note`` is a text, or a
    function of B's reference that returns a formula (a note that quotes the result, e.g.
    :func:`both_systems_note`). ``name`` defines a workbook-level name for the cell (``wb``
    needed).
    """
    ws, row = cur.ws, cur.row
    put_label(ws, row, 1, label, font=STYLE.bold if answer else None)
    text = formula if isinstance(formula, str) else "=0"
    cell = put_formula(ws, row, 2, text, number_format=number_format,
                       font=STYLE.answer if answer else None,
                       fill=STYLE.answer_fill if answer else None)
    # general: a number right, a text (CHECK_INPUTS, "not reached at this n") from the left;
    # an answer's text shrinks to its cell (TOO_LARGE in the answer font is twice as wide)
    cell.alignment = Alignment(horizontal="general", shrink_to_fit=answer)
    if not isinstance(formula, str):
        cur.pending.append((cell, formula))
    if answer:
        cell.border = STYLE.box
    if callable(note):
        put_formula(ws, row, 3, note(ref(row, 2)), font=STYLE.note)
    elif note:
        put_label(ws, row, 3, note, font=STYLE.note)
    if name:
        name_cell(wb, name, ws.title, row, 2)
    cur.skip()
    return ref(row, 2, absolute=True)


def both_systems_note(answer: str) -> str:
    """The note of an n per system (the unpaired designs): the topics of both systems, 2n, as a
    number where the answer is one.

    >>> both_systems_note("B12")
    '=IF(ISNUMBER(B12),FIXED(2*B12,0)&" topics in all (2n)","2n topics in all")'
    """
    return f'=IF(ISNUMBER({answer}),FIXED(2*{answer},0)&" topics in all (2n)","2n topics in all")'


def highlight_if(ws, cells: str, condition: str, fill=STYLE.warning_fill, font=None) -> None:
    """Conditional format: fill ``cells`` where ``condition`` (relative to its top-left) holds."""
    ws.conditional_formatting.add(cells, FormulaRule(formula=[condition], fill=fill, font=font))


def answer_text(value: str) -> str:
    """Expression showing an answer cell in a sentence: its number with thousands separators, as
    the cell and the command line write it (a review, 2026-12-08: "n = 138631790" beside the
    cell's 138,631,790), or the 'more than' text.

    >>> answer_text("B12")
    'IF(ISNUMBER(B12),FIXED(B12,0),B12&"")'
    """
    return f'IF(ISNUMBER({value}),FIXED({value},0),{value}&"")'


def power_search(cur: Cursor, shared: list[Col], legacy: list[Col] | None, exact: list[Col],
                 label: str) -> tuple[str | None, str]:
    """Write the searches for the required n; return the (legacy, exact) answer expressions.

    * Legacy: every n = 2..SCAN_TOP is evaluated, and if the criterion already holds at
      SCAN_TOP + 1 the answer is one more than the largest failing n (or 2); otherwise a
      30-row bisection over (SCAN_TOP + 1, N_MAX] finds the first n that holds.
    * Exact: the power rises with n, so a 30-row bisection over (1, N_MAX] suffices.
    * One row evaluates both models at N_MAX: if the criterion fails there, the answer says
      :data:`TOO_LARGE` instead of a number.

    ``legacy`` None: a design with the exact method only (the legacy answer is None).
    """
    ws = cur.ws
    start = SCAN_TOP + 1
    if legacy is not None:
        cur.heading(f"{label}: legacy power for every n = 2..{start} (the approximation is "
                    "not monotone at small n)", font=STYLE.bold)
        scan = write_block(ws, cur.row, 1, [Col("n", "n", lambda i: i + 2, "0"), *shared,
                                            *legacy, Col("fail", "n if it fails, else 1",
                                                         "=IF({ok_legacy},1,{n})", "0")],
                           start - 1)
        cur.row = scan.bottom + 2

        cur.heading(f"{label}: legacy bisection over n = {start + 1}..{N_MAX:,}",
                    font=STYLE.bold)
        lb = write_block(ws, cur.row, 1, bisection_cols(str(start), str(N_MAX), ok="ok_legacy")
                         + shared + legacy, bisection_steps(N_MAX - start))
        cur.row = lb.bottom + 2

    cur.heading(f"{label}: exact bisection over n = 2..{N_MAX:,}", font=STYLE.bold)
    eb = write_block(ws, cur.row, 1, bisection_cols("1", str(N_MAX), ok="ok_exact")
                     + shared + exact, bisection_steps(N_MAX - 1))
    cur.row = eb.bottom + 2

    both = "both methods " if legacy is not None else ""
    cur.heading(f"{label}: {both}at the search limit n = {N_MAX:,}", font=STYLE.bold)
    top = write_block(ws, cur.row, 1, [Col("n", "n", lambda i: N_MAX, N_FMT), *shared,
                                       *(legacy or []), *exact], 1)
    cur.row = top.bottom + 2

    exact_n = f"IF({top.cell('ok_exact')},{bisection_answer(eb, 'ok_exact')},{too_large_text()})"
    if legacy is None:
        return None, exact_n
    at_start = scan.cell("ok_legacy")            # the last scan row is n = SCAN_TOP + 1
    legacy_n = (f"IF({at_start},MAX({scan.range('fail')})+1,IF({top.cell('ok_legacy')},"
                f"{bisection_answer(lb, 'ok_legacy')},{too_large_text()}))")
    return legacy_n, exact_n
