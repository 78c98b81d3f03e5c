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

Each distinct formula (in relative R1C1 form, so a block's rows share one) is translated once
to a Python expression and compiled; cells are evaluated on demand and memoised.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Mapping

import numpy as np

from .sheet_functions import ENV, FUNCTIONS, ErrorValue, FormulaError, isnumber

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


def _ref_parts(text: str, sheet: str) -> tuple[str, list[tuple[bool, int, bool, int]]]:
    """(sheet, [(col absolute, col, row absolute, row), ...]) of a cell or range token."""
    if "!" in text:
        sheet, text = text.rsplit("!", 1)
        sheet = sheet.strip("'").replace("''", "'")
    return sheet, [(bool(m.group(1)), _column(m.group(2)), bool(m.group(3)), int(m.group(4)))
                   for m in _CELL.finditer(text)]


class _Parser:
    """Excel formula tokens -> a Python expression over ``R``, ``C`` (the cell's position)."""

    def __init__(self, tokens, sheet: str, names: dict[str, str]):
        self.tokens, self.pos, self.sheet = tokens, 0, sheet
        self.names = names

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise FormulaError(f"expected {value!r}, found {tok[1]!r}")
        self.pos += 1
        return tok

    def expr(self, bound: int = 0) -> str:
        kind, value = self.peek()
        if kind == "op" and value in "-+":
            self.take()
            left = f"(-N({self.expr(_UNARY)}))" if value == "-" else f"N({self.expr(_UNARY)})"
        else:
            left = self.primary()
        while True:
            kind, value = self.peek()
            if kind == "op" and value == "%":
                self.take()
                left = f"(N({left})/100)"
                continue
            if kind != "op" or value not in _BINARY or _BINARY[value] <= bound:
                return left
            self.take()
            right = self.expr(_BINARY[value])
            left = _binary(value, left, right)

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
            return repr(float(value))
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
            return f"({inner})"
        raise FormulaError(f"unexpected {value!r}")

    def ref(self, value) -> str:
        """``cell(...)`` or ``area(...)``: offsets from (R, C) for a shifted token (see
        :func:`_shift`), fixed positions for a defined name's reference."""
        if isinstance(value, tuple):
            where, cells = value
        else:
            where, found = _ref_parts(value, self.sheet)
            cells = [(True, c, True, r) for _, c, _, r in found]
        places = [(str(r) if ar else f"R+{r}", str(c) if ac else f"C+{c}")
                  for ac, c, ar, r in cells]
        if len(places) == 1:
            return f"cell({where!r},{places[0][0]},{places[0][1]})"
        (r1, c1), (r2, c2) = places
        return f"area({where!r},{r1},{c1},{r2},{c2})"

    def call(self, name: str) -> str:
        fname = name.upper().removeprefix("_XLFN.")
        args = self.args()
        if fname == "IF":
            if len(args) == 2:
                args.append("False")
            return f"({args[1]} if truth({args[0]}) else {args[2]})"
        if fname == "ISNA":
            return f"isna(lambda: {args[0]})"
        fn = FUNCTIONS.get(fname)
        if fn is None:
            raise FormulaError(f"function {name} is not supported")
        return f"{fn}({','.join(args)})"


def _binary(op: str, left: str, right: str) -> str:
    if op in ("+", "-", "*", "/"):
        return f"(N({left}){op}N({right}))"
    if op == "^":
        return f"power({left},{right})"
    if op == "&":
        return f"(text({left})+text({right}))"
    return f"compare({op!r},{left},{right})"


class _Book:
    """The cells of a workbook and the memoised values of its formula cells."""

    def __init__(self, wb, shared: Mapping[str, Mapping[tuple[int, int], object]]):
        self.cells = {ws.title: {key: c.value for key, c in ws._cells.items()}
                      for ws in wb.worksheets}
        # formula cells only: a text cell may start with "=" (an untrusted name kept as text)
        self.formulas = {ws.title: {key for key, c in ws._cells.items() if c.data_type == "f"}
                         for ws in wb.worksheets}
        self.shared = {ws.title: shared.get(ws.title, {}) for ws in wb.worksheets}
        self.shared_keys: dict[object, tuple] = {}
        self.values: dict[tuple[str, int, int], object] = {}
        self.code: dict[tuple, Callable] = {}
        self.areas: dict[tuple, object] = {}
        self.env = dict(ENV, cell=self.cell, area=self.area)
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

    def cell(self, sheet: str, row: int, column: int):
        key = (sheet, row, column)
        if key in self.values:
            return self.values[key]
        raw = self.cells[sheet].get((row, column))
        if (row, column) in self.formulas[sheet]:
            value = self.compute(sheet, row, column, raw)
        else:
            value = raw
        self.values[key] = value
        return value

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
        key = self.shared_keys.get(token) if token is not None else None
        if key is None:
            key = _template_key(sheet, formula, row, column)
            if token is not None:
                self.shared_keys[token] = key
        fn = self.code.get(key)
        if fn is None:
            shifted = _shift(_tokens(formula[1:]), sheet, row, column)
            source = _Parser(shifted, sheet, self.names).expr()
            fn = eval(f"lambda R, C: {source}", self.env)   # noqa: S307 (generator formulas)
            self.code[key] = fn
        value = fn(row, column)
        if isinstance(value, np.ndarray):
            raise FormulaError("an array where a cell value was expected")
        if isinstance(value, (np.floating, np.integer)):
            value = float(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise FormulaError(f"{value} (#NUM!)")
        return value


_COLUMNS: dict[str, int] = {}


def _template_key(sheet: str, formula: str, row: int, column: int) -> tuple:
    """What cells of one template share: the formula with each relative reference as its
    offset from (row, column) (relative R1C1), absolute ones as they are.

    >>> _template_key("S", "=A1+$B$2", 3, 2) == _template_key("S", "=A2+$B$2", 4, 2)
    True
    """
    parts = _KEY_REF.split(formula)      # text, then 4 groups and the text after, per reference
    key: list = [sheet, parts[0]]
    for i in range(1, len(parts), 5):
        col_abs, letters, row_abs, digits, after = parts[i:i + 5]
        c = _COLUMNS.get(letters)
        if c is None:
            c = _COLUMNS[letters] = _column(letters)
        r = int(digits)
        key += [(bool(col_abs), c if col_abs else c - column,
                 bool(row_abs), r if row_abs else r - row), after]
    return tuple(key)


def _shift(tokens, sheet: str, row: int, column: int):
    """The tokens with relative references rewritten as offsets from (row, column), so that the
    compiled expression reads ``R + dr``, ``C + dc``."""
    out = []
    for kind, value in tokens:
        if kind == "ref":
            where, cells = _ref_parts(value, sheet)
            out.append(("ref", (where, tuple((ac, c if ac else c - column, ar,
                                              r if ar else r - row)
                                             for ac, c, ar, r in cells))))
        else:
            out.append((kind, value))
    return out


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
            for ws in wb.worksheets:
                here = out.setdefault(ws.title, {})
                for row, column in sorted(book.formulas[ws.title]):
                    raw = book.cells[ws.title][row, column]
                    try:
                        here[f"{_letters(column)}{row}"] = book.cell(ws.title, row, column)
                    except (FormulaError, ArithmeticError, TypeError, ValueError) as err:
                        raise FormulaError(f"{ws.title}!{_letters(column)}{row}: {raw[:80]}: "
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
