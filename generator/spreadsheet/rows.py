"""Blocks of formula rows: one column template per quantity, one row per candidate n.

A calculator is a handful of *models* (the legacy or the exact power as a chain of columns:
degrees of freedom, noncentrality, critical value, ... power) evaluated on many rows: a table
of n around the initial estimate, a scan of small n and an unrolled bisection. This module
writes such blocks; the models themselves live in :mod:`generator.spreadsheet.formulas`.

A template is an Excel formula with ``{key}`` placeholders. ``{key}`` is the cell of column
``key`` in the same row and ``{prev_key}`` the one in the row above, so a block reads like the
algebra it implements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .cells import STYLE, col, put_formula, put_label, put_number, ref, set_style

__all__ = ["Col", "Block", "write_block", "bisection_cols", "bisection_answer", "bisection_steps",
           "shared_templates"]

#: The attribute of a worksheet where :func:`write_block` notes the cells it wrote from one
#: template (kept with the worksheet, so it goes when the workbook goes).
_TEMPLATES = "_topicsetsize_shared_templates"


def _templates(ws) -> dict[tuple[int, int], object]:
    if not hasattr(ws, _TEMPLATES):
        setattr(ws, _TEMPLATES, {})
    return getattr(ws, _TEMPLATES)


def shared_templates(wb) -> dict[str, dict[tuple[int, int], object]]:
    """{sheet: {(row, column): token}}: the formula cells that :func:`write_block` wrote from
    one template string (the rows 2.. of a block column: the same references, each relative to
    its row), the same token for one template; for
    :func:`topicsetsize.generator.saved.evaluator.evaluate_workbook`.

    >>> from openpyxl import Workbook
    >>> wb = Workbook()
    >>> block = write_block(wb.active, 1, 1, [Col("n", "n", lambda i: i),
    ...                                       Col("d", "2n", "=2*{n}")], 4)
    >>> sorted(shared_templates(wb)["Sheet"])
    [(3, 2), (4, 2), (5, 2)]
    """
    return {ws.title: dict(_templates(ws)) for ws in wb.worksheets}


@dataclass(frozen=True)
class Col:
    """One column of a block.

    Parameters
    ----------
    key : str
        Name used by other templates, e.g. ``"dfe"``.
    header : str
        Column heading shown above the block.
    template : str or callable
        A formula template (``"={n}-1"``), or ``f(i)`` giving the template or a number for the
        i-th row of the block (0-based).
    number_format : str
        Excel number format of the column.
    first : str, optional
        The template for the first row, when it differs (a bisection's starting bracket).
    shared : bool
        For a callable ``template``: its formulas are one formula in relative R1C1 form (the
        same text but for references that each keep their offset from the row), as a
        template string's are, so the evaluator reads one row's references for the column
        (:func:`shared_templates`). A wrong declaration gives wrong saved values.
    """

    key: str
    header: str
    template: str | Callable[[int], str | float]
    number_format: str = "General"
    first: str | None = None
    shared: bool = False


@dataclass
class Block:
    """Where a written block sits: its rows and the column index of every key."""

    top: int                       # first data row
    bottom: int                    # last data row
    columns: dict[str, int] = field(default_factory=dict)

    def cell(self, key: str, row: int | None = None, *, absolute: bool = True) -> str:
        """Reference of column ``key`` in ``row`` (default: the last row)."""
        return ref(self.bottom if row is None else row, self.columns[key], absolute=absolute)

    def range(self, key: str) -> str:
        """Absolute reference of the whole column ``key`` of the block."""
        c = self.columns[key]
        return f"{ref(self.top, c, absolute=True)}:{ref(self.bottom, c, absolute=True)}"


class _Refs(dict):
    def __missing__(self, key):
        raise KeyError(f"template refers to an unknown column {{{key}}}")


def write_block(ws, top: int, left: int, cols: Sequence[Col], count: int, *,
                header: bool = True) -> Block:
    """Write ``count`` rows of ``cols`` with their headings in row ``top``.

    Returns the :class:`Block` (data rows start at ``top + 1`` when ``header``).

    Examples
    --------
    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> b = write_block(ws, 1, 1, [Col("n", "n", lambda i: i + 2), Col("sq", "n²", "={n}^2")], 2)
    >>> ws["B2"].value, ws["B3"].value, b.range("sq")
    ('=A2^2', '=A3^2', '$B$2:$B$3')
    """
    keys = [c.key for c in cols]
    if len(set(keys)) != len(keys):
        raise ValueError(f"duplicate column keys in a block: {keys}")
    first_row = top + 1 if header else top
    block = Block(first_row, first_row + count - 1,
                  {c.key: left + k for k, c in enumerate(cols)})
    if header:
        for c in cols:
            set_style(put_label(ws, top, block.columns[c.key], c.header, font=STYLE.bold,
                                fill=STYLE.header_fill), alignment=STYLE.header)
        ws.row_dimensions[top].height = 45        # three lines: no heading is cut off
    letters = [(k, f"prev_{k}", col(block.columns[k])) for k in keys]     # ref()'s letters
    previous: dict[str, str] = {}
    for i in range(count):
        row = first_row + i
        refs = _Refs({k: f"{letter}{row}" for k, _, letter in letters}, **previous)
        previous = {prev: refs[k] for k, prev, _ in letters}
        for c in cols:
            template = c.first if (i == 0 and c.first is not None) else c.template
            value = template(i) if callable(template) else template
            if isinstance(value, str):
                put_formula(ws, row, block.columns[c.key], value.format_map(refs),
                            number_format=c.number_format)
            else:
                put_number(ws, row, block.columns[c.key], value, number_format=c.number_format)
    # Rows 2..count of a column written from one template string (the same references, each
    # relative to its row) are one formula in R1C1 form: noted for the evaluator (shared_templates).
    for c in cols:
        if (isinstance(c.template, str) or c.shared) and count > 2:
            token = object()
            _templates(ws).update((cell, token) for cell in (
                (row, block.columns[c.key]) for row in range(first_row + 1, first_row + count)))
    return block


def bisection_cols(lo: str, hi: str, *, ok: str = "ok", integer: bool = True,
                   label: str = "n", key: str = "n") -> list[Col]:
    """The leading columns of an unrolled bisection: step, lo, hi and the midpoint ``key``.

    The model columns that follow must include the verdict column named ``ok`` (1 or TRUE
    where the criterion holds at the midpoint). Invariant: the criterion fails at ``lo`` and
    holds at ``hi``; each row halves the bracket, so k rows narrow an integer bracket of width
    at most 2^k to hi − lo = 1; :func:`bisection_answer` reads the answer off the last row.
    ``lo`` and ``hi`` are the starting values (formula expressions without ``=``).
    """
    # The integer midpoint rounds up: once hi - lo = 1 it repeats hi (which holds), so the
    # model is never evaluated at the starting ``lo``, which may be a sentinel such as n = 1.
    mid = "=INT(({lo}+{hi}+1)/2)" if integer else "=({lo}+{hi})/2"
    fmt = "#,##0" if integer else "0.000000"
    return [
        Col("step", "step", lambda i: i + 1, "0"),
        Col("lo", f"{label} low (fails)", f"=IF({{prev_{ok}}},{{prev_lo}},{{prev_{key}}})", fmt,
            first=f"={lo}"),
        Col("hi", f"{label} high (holds)", f"=IF({{prev_{ok}}},{{prev_{key}}},{{prev_hi}})", fmt,
            first=f"={hi}"),
        Col(key, label, mid, fmt),
    ]


def bisection_answer(block: Block, ok: str = "ok", key: str = "n") -> str:
    """Expression (no ``=``) for the end of a bisection: the smallest point that holds.

    The last row has not applied its own test yet, so the answer is its midpoint when the
    criterion holds there and its ``hi`` otherwise.
    """
    return f"IF({block.cell(ok)},{block.cell(key)},{block.cell('hi')})"


def bisection_steps(width: int) -> int:
    """Rows an integer bisection needs to narrow a bracket ``hi - lo = width`` to 1.

    Each row leaves at most ⌈w/2⌉, so ⌈log2 w⌉ rows suffice.

    >>> bisection_steps(10**9 - 1), bisection_steps(2), bisection_steps(1)
    (30, 1, 1)
    """
    return max(1, (width - 1).bit_length())
