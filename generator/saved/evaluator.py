"""Evaluate the generator's formulas in Python: the saved value of every formula cell.

openpyxl writes formulas without results, so previewers, pandas and Excel's Protected View
showed blank tables. :func:`evaluate_workbook` computes every formula cell of a built
workbook the way a spreadsheet would, so that :func:`saved.cached.write_with_cached_values`
can store the results. It understands the subset of the formula language the generator writes
(arithmetic, comparisons, ``&``, IF/AND/OR/NOT, the IS functions, MIN/MAX/INT/ROUND/ROUNDUP/
SQRT/EXP/LN/ATANH, INDEX/MATCH/COUNT/LEFT/FIXED, SUMPRODUCT over the helper range, and the
statistical functions), with Excel's semantics where they matter here: degrees of freedom
truncated to integers, blank cells as 0 in arithmetic, text compared case-insensitively and
above numbers. The statistical functions come from :mod:`scipy.special` (F.INV.RT through
the beta quantile, accurate in the far tail).

Each distinct formula shape (the text with its references' coordinates taken out, so a block's
rows share one, and so do the blocks and sheets that differ only in where they are) is translated
once to a Python function of those coordinates and compiled; cells are evaluated on demand and
memoised.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Mapping

import numpy as np

from .sheet_functions import (
    ENV,
    FUNCTIONS,
    LOGICAL,
    PLAIN,
    ErrorValue,
    FormulaError,
    isnumber,
    memoised,
)

__all__ = ["evaluate_workbook", "FormulaError", "ErrorValue"]

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>"(?:[^"]|"")*")
  | (?P<ref>(?:(?P<sheet>'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?
        \$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![\w.(])
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[Ee][+-]?\d+)?)
  | (?P<func>[A-Za-z_][\w.]*)(?=\()
  | (?P<name>[A-Za-z_][\w.]*)
  | (?P<op><>|<=|>=|[-+*/^&=<>(),%])
""", re.X)
_CELL = re.compile(r"(\$?)([A-Z]{1,3})(\$?)(\d+)")
#: A cell reference anywhere in a formula, for the key of its template (relative R1C1).
_KEY_REF = re.compile(r"(?<![\w.$])(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\w(.])")
_BINARY = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2, "+": 3, "-": 3,
           "*": 4, "/": 4, "^": 5}
_UNARY = 6


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _tokens(formula: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(formula):
        m = _TOKEN.match(formula, pos)
        if m is None:
            raise FormulaError(f"cannot read formula at {formula[pos:pos + 20]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            kind = "ref" if m.group("ref") else m.lastgroup
            out.append((kind, m.group(kind)))
    return out


def _ref_parts(text: str, sheet):
    """(sheet, [(col absolute, col, row absolute, row), ...]) of a cell or range token."""
    if "!" in text:
        sheet, text = text.rsplit("!", 1)
        sheet = sheet.strip("'").replace("''", "'")
    return sheet, [(bool(m.group(1)), _column(m.group(2)), bool(m.group(3)), int(m.group(4)))
                   for m in _CELL.finditer(text)]


class _Parser:
    """Excel formula tokens -> a Python expression over ``R``, ``C`` (the cell's position).

    ``plain`` holds the expressions whose value is never blank or text (numbers, logical
    values, arrays): for those ``N(x)`` is ``x``, so it is left out (the same values, less code
    to compile and run); ``logical`` those that are already a bool (or a comparison's array),
    which a condition takes as they are.
    """

    def __init__(self, tokens, sheet, names: dict[str, str]):
        self.tokens, self.pos, self.sheet = tokens, 0, sheet
        self.names = names
        self.plain: set[str] = {"True", "False"}
        self.logical: set[str] = {"True", "False"}

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise FormulaError(f"expected {value!r}, found {tok[1]!r}")
        self.pos += 1
        return tok

    def num(self, x: str) -> str:
        """``x`` in arithmetic: ``N(x)``, or ``x`` itself where it is never blank or text."""
        return x if x in self.plain else f"N({x})"

    def mark(self, x: str, *sets: set) -> str:
        for known in sets or (self.plain,):
            known.add(x)
        return x

    def expr(self, bound: int = 0) -> str:
        kind, value = self.peek()
        if kind == "op" and value in "-+":
            self.take()
            inner = self.num(self.expr(_UNARY))
            left = self.mark(f"(-{inner})" if value == "-" else inner)
        else:
            left = self.primary()
        while True:
            kind, value = self.peek()
            if kind == "op" and value == "%":
                self.take()
                left = self.mark(f"({self.num(left)}/100)")
                continue
            if kind != "op" or value not in _BINARY or _BINARY[value] <= bound:
                return left
            self.take()
            right = self.expr(_BINARY[value])
            left = self.binary(value, left, right)

    def binary(self, op: str, left: str, right: str) -> str:
        if op in ("+", "-", "*", "/"):
            return self.mark(f"({self.num(left)}{op}{self.num(right)})")
        if op == "^":
            return self.mark(f"power({left},{right})")
        if op == "&":
            return f"(text({left})+text({right}))"
        return self.mark(f"compare({op!r},{left},{right})", self.plain, self.logical)

    def args(self) -> list[str]:
        self.take("(")
        out = []
        if self.peek()[1] == ")":
            self.take()
            return out
        while True:
            out.append(self.expr())
            kind, value = self.take()
            if value == ")":
                return out
            if value != ",":
                raise FormulaError(f"expected ',' or ')', found {value!r}")

    def primary(self) -> str:
        kind, value = self.take()
        if kind == "num":
            return self.mark(repr(float(value)))
        if kind == "str":
            return repr(value[1:-1].replace('""', '"'))
        if kind == "ref":
            return self.ref(value)
        if kind == "func":
            return self.call(value)
        if kind == "name":
            upper = value.upper()
            if upper in ("TRUE", "FALSE"):
                return str(upper == "TRUE")
            if value not in self.names:
                raise FormulaError(f"unknown name {value!r}")
            return f"({self.names[value]})"
        if value == "(":
            inner = self.expr()
            self.take(")")
            sets = [k for k in (self.plain, self.logical) if inner in k]
            return self.mark(f"({inner})", *sets) if sets else f"({inner})"
        raise FormulaError(f"unexpected {value!r}")

    def ref(self, value) -> str:
        """``cell(...)`` or ``area(...)``: the places of a shifted token (see :func:`_shift`),
        fixed positions for a defined name's reference. A range is never blank or text."""
        if isinstance(value, tuple):
            where, places = value[:2]
        else:
            sheet, found = _ref_parts(value, self.sheet)
            where, places = repr(sheet), [(str(r), str(c)) for _, c, _, r in found]
        if len(places) == 1:
            return f"cell({where},{places[0][0]},{places[0][1]})"
        (r1, c1), (r2, c2) = places
        return self.mark(f"area({where},{r1},{c1},{r2},{c2})")

    def call(self, name: str) -> str:
        fname = name.upper().removeprefix("_XLFN.")
        args = self.args()
        if fname == "IF":
            if len(args) == 2:
                args.append("False")
            test = args[0] if args[0] in self.logical else f"truth({args[0]})"
            out = f"({args[1]} if {test} else {args[2]})"
            return self.mark(out) if args[1] in self.plain and args[2] in self.plain else out
        if fname == "ISNA":
            return self.mark(f"isna(lambda: {args[0]})", self.plain, self.logical)
        fn = FUNCTIONS.get(fname)
        if fn is None:
            raise FormulaError(f"function {name} is not supported")
        out = f"{fn}({','.join(args)})"
        if fn in LOGICAL:
            return self.mark(out, self.plain, self.logical)
        return self.mark(out) if fn in PLAIN else out


class _Book:
    """The cells of a workbook and the memoised values of its formula cells."""

    def __init__(self, wb, shared: Mapping[str, Mapping[tuple[int, int], object]]):
        self.cells = {ws.title: {key: c.value for key, c in ws._cells.items()}
                      for ws in wb.worksheets}
        # formula cells only: a text cell may start with "=" (an untrusted name kept as text)
        self.formulas = {ws.title: {key for key, c in ws._cells.items() if c.data_type == "f"}
                         for ws in wb.worksheets}
        self.shared = {ws.title: shared.get(ws.title, {}) for ws in wb.worksheets}
        self.shared_functions: dict[object, Callable] = {}     # a shared template's token
        self.values: dict[tuple[str, int, int], object] = {}
        self.code: dict[str, Callable | None] = {}      # shape: its function's maker
        self.functions: dict[tuple, Callable] = {}       # template key: its function
        self.areas: dict[tuple, object] = {}
        self.cell = self._cell()
        self.env = dict(ENV, cell=self.cell, area=self.area,
                        BETA_DIST_=memoised(ENV["BETA_DIST_"]))
        self.names = self._names(wb)

    def _names(self, wb) -> dict[str, str]:
        """Defined names as expressions: cells and ranges, and the formula names."""
        names: dict[str, str] = {}
        pending = {}
        for name, dn in wb.defined_names.items():
            pending[name] = dn.attr_text
        for name, text in sorted(pending.items(), key=lambda kv: "(" in kv[1]):
            tokens = _tokens(text)
            names[name] = _Parser(tokens, "", names).expr()
        return names

    def _cell(self) -> Callable:
        """``cell(sheet, row, column)``: the value of a cell, a formula computed on first use
        (a closure over the book's dictionaries: it runs some 100,000 times a workbook)."""
        values, cells, formulas, compute = self.values, self.cells, self.formulas, self.compute

        def cell(sheet: str, row: int, column: int):
            key = (sheet, row, column)
            try:
                return values[key]
            except KeyError:
                pass
            raw = cells[sheet].get((row, column))
            if (row, column) in formulas[sheet]:
                value = compute(sheet, row, column, raw)
            else:
                value = raw
            values[key] = value
            return value
        return cell

    def area(self, sheet: str, r1: int, c1: int, r2: int, c2: int):
        """The cells of a range: a float array when all are numbers, else a list."""
        key = (sheet, r1, c1, r2, c2)
        if key not in self.areas:
            items = [self.cell(sheet, r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
            self.areas[key] = (np.array(items, dtype=float) if all(map(isnumber, items))
                               else items)
        return self.areas[key]

    def compute(self, sheet: str, row: int, column: int, formula: str):
        token = self.shared[sheet].get((row, column))
        fn = self.shared_functions.get(token) if token is not None else None
        if fn is None:
            key = _template_key(sheet, formula, row, column)
            fn = self.functions.get(key) or self.function(key, formula, row, column)
            if token is not None and key in self.functions:
                self.shared_functions[token] = fn
        value = fn(row, column)
        if type(value) is float:
            if math.isfinite(value):
                return value
            raise FormulaError(f"{value} (#NUM!)")
        if isinstance(value, np.ndarray):
            raise FormulaError("an array where a cell value was expected")
        if isinstance(value, (np.floating, np.integer)):
            value = float(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise FormulaError(f"{value} (#NUM!)")
        return value

    def function(self, key: tuple, formula: str, row: int, column: int) -> Callable:
        """The function of (R, C) that computes ``formula``: made from the compiled code of its
        shape with the sheet and the coordinates of ``key`` (see :func:`_template_key`).

        The coordinates are read from the formula's text with a pattern; the parser reads the
        references from its tokens. Where the two disagree (text that looks like a reference
        inside a string), the shape is not shared: such a formula is compiled on its own, with
        its coordinates as constants.
        """
        sheet, shape, binding = key
        make = self.code.get(shape, False)
        if make is False:
            shifted, found = _shift(_tokens(formula[1:]), row, column, params=True)
            flags = [(bool(m.group(1)), bool(m.group(3))) for m in _KEY_REF.finditer(formula)]
            same = found == binding and [(ac, ar) for ac, _, ar, _ in _refs(shifted)] == flags
            make = self.code[shape] = self.compile(shifted, len(binding)) if same else None
        if make is None:                 # not shared: this cell's own code (not kept)
            return self.compile(_shift(_tokens(formula[1:]), row, column, params=False)[0],
                                0)(sheet)
        fn = self.functions[key] = make(sheet, *binding)
        return fn

    def compile(self, shifted, count: int) -> Callable:
        """``maker(S, a0, a1, ...)``: the function of (R, C) for the sheet ``S`` and the
        coordinates ``a0``, ``a1``, ... of the shifted tokens."""
        source = _Parser(shifted, None, self.names).expr()
        params = ",".join(["S", *(f"a{i}" for i in range(count))])
        namespace: dict = {}
        exec(f"def maker({params}):\n return lambda R, C: {source}",   # noqa: S102
             self.env, namespace)                                        # (generator formulas)
        return namespace["maker"]


_COLUMNS: dict[str, int] = {}


def _template_key(sheet: str, formula: str, row: int, column: int) -> tuple:
    """What cells of one template share: (sheet, shape, coordinates). The shape is the formula
    with the column letters and row digits of its references taken out (their ``$`` kept);
    the coordinates are, per reference, its column and row, each absolute as written or
    relative as an offset from (row, column) (relative R1C1). Cells with the same shape share
    compiled code; with the same key, the function too.

    >>> _template_key("S", "=A1+$B$2", 3, 2) == _template_key("S", "=A2+$B$2", 4, 2)
    True
    >>> _template_key("S", "=A1+$B$2", 3, 2)[2], _template_key("S", "=A1+$B$9", 3, 2)[2]
    ((-1, -2, 2, 2), (-1, -2, 2, 9))
    """
    parts = _KEY_REF.split(formula)      # text, then 4 groups and the text after, per reference
    binding = []
    for i in range(1, len(parts), 5):
        col_abs, letters, row_abs, digits = parts[i:i + 4]
        c = _COLUMNS.get(letters)
        if c is None:
            c = _COLUMNS[letters] = _column(letters)
        r = int(digits)
        binding += (c if col_abs else c - column, r if row_abs else r - row)
        parts[i + 1] = parts[i + 3] = "\0"
    return sheet, "".join(parts), tuple(binding)


def _refs(shifted):
    """The (col absolute, col, row absolute, row) of every reference of shifted tokens."""
    return [cell for kind, value in shifted if kind == "ref" for cell in value[2]]


def _shift(tokens, row: int, column: int, *, params: bool):
    """The tokens with each reference as ``("ref", (sheet, places, cells))`` for
    :meth:`_Parser.ref`: its sheet (``S``, the cell's own, where none is written) and the
    places ``(row, column)`` it reads, as expressions: ``a<i>`` (absolute) or ``R+a<i>``,
    ``C+a<i>`` (relative) with the coordinates as parameters (``params``), else with them as
    constants. Also the coordinates, in the order of :func:`_template_key`."""
    out, binding = [], []
    for kind, value in tokens:
        if kind != "ref":
            out.append((kind, value))
            continue
        where, cells = _ref_parts(value, None)
        places = []
        for ac, c, ar, r in cells:
            dc, dr = (c if ac else c - column), (r if ar else r - row)
            col, at = (f"a{len(binding)}", f"a{len(binding) + 1}") if params else (dc, dr)
            binding += (dc, dr)
            places.append((f"{at}" if ar else f"R+{at}", f"{col}" if ac else f"C+{col}"))
        out.append(("ref", ("S" if where is None else repr(where), places, cells)))
    return out, tuple(binding)


def evaluate_workbook(wb, shared: Mapping[str, Mapping[tuple[int, int], object]] | None = None
                      ) -> dict[str, dict[str, object]]:
    """{sheet: {cell: value}} of every formula cell of the openpyxl workbook ``wb``.

    ``shared`` ({sheet: {(row, column): token}}, from
    :func:`topicsetsize.generator.spreadsheet.rows.shared_templates`) names the formula cells
    written from one template: cells with the same token are the same formula in relative
    R1C1 form, as the rows of a block column, so the template of one of them serves them all
    instead of parsing the references of every cell (about a tenth of the default workbook's
    evaluation). A wrong declaration would give wrong values.

    Raises :class:`FormulaError` for a formula it cannot evaluate or whose value is an error
    (the generator's workbooks have none at their starting inputs).

    Examples
    --------
    >>> from openpyxl import Workbook
    >>> wb = Workbook()
    >>> ws = wb.active
    >>> ws["A1"], ws["A2"], ws["A3"] = 0.05, "=_xlfn.F.INV.RT(A1,1,10)", '="n = "&ROUND(A2,3)'
    >>> values = evaluate_workbook(wb)["Sheet"]
    >>> round(values["A2"], 6), values["A3"]
    (4.964603, 'n = 4.965')
    """
    book = _Book(wb, shared or {})
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    out: dict[str, dict[str, object]] = {}
    try:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            letters: dict[int, str] = {}
            for ws in wb.worksheets:
                here = out.setdefault(ws.title, {})
                for row, column in sorted(book.formulas[ws.title]):
                    name = letters.get(column) or letters.setdefault(column, _letters(column))
                    try:
                        here[f"{name}{row}"] = book.cell(ws.title, row, column)
                    # an error value (#VALUE!, #NUM!...: FormulaError) or #DIV/0! and
                    # overflow (ArithmeticError); anything else is a bug, raised as it is
                    except (FormulaError, ArithmeticError) as err:
                        raw = book.cells[ws.title][row, column]
                        raise FormulaError(f"{ws.title}!{name}{row}: {raw[:80]}: "
                                           f"{err}") from None
    finally:
        sys.setrecursionlimit(old)
    return out


def _letters(column: int) -> str:
    out = ""
    while column:
        column, rem = divmod(column - 1, 26)
        out = chr(65 + rem) + out
    return out
