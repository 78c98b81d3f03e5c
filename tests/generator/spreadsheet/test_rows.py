"""Blocks of formula rows and the unrolled bisection."""

from __future__ import annotations

import pytest
from openpyxl import Workbook
from topicsetsize.generator.spreadsheet.rows import (
    Col,
    bisection_answer,
    bisection_cols,
    bisection_steps,
    write_block,
)


def test_templates_refer_to_same_and_previous_row():
    ws = Workbook().active
    block = write_block(ws, 3, 2, [Col("n", "n", lambda i: 10 * i),
                                   Col("d", "diff", "={n}-{prev_n}", first="=0")], 3)
    assert (block.top, block.bottom, block.columns) == (4, 6, {"n": 2, "d": 3})
    assert [ws.cell(r, 3).value for r in (4, 5, 6)] == ["=0", "=B5-B4", "=B6-B5"]
    assert ws.cell(3, 2).value == "n" and block.range("d") == "$C$4:$C$6"


def test_unknown_or_duplicate_columns_are_errors():
    ws = Workbook().active
    with pytest.raises(KeyError, match="unknown column {x}"):
        write_block(ws, 1, 1, [Col("n", "n", "={x}")], 1)
    # the package's own mistake, not a user's: a plain ValueError, never an InputError
    with pytest.raises(ValueError, match="duplicate column keys"):
        write_block(ws, 1, 1, [Col("n", "n", "=1"), Col("n", "n", "=2")], 1)


def _simulate(lo: int, hi: int, holds) -> int:
    """What the bisection rows compute, step by step, in Python."""
    for _ in range(bisection_steps(hi - lo)):
        mid = (lo + hi + 1) // 2
        lo, hi = (lo, mid) if holds(mid) else (mid, hi)
    return hi


@pytest.mark.parametrize("answer", [2, 3, 64, 65, 2301, 10**6, 10**9 - 1, 10**9])
def test_bisection_finds_the_first_n_that_holds(answer):
    assert _simulate(1, 10**9, lambda n: n >= answer) == answer
    assert _simulate(129, 10**9, lambda n: n >= max(answer, 130)) == max(answer, 130)


def test_bisection_cols_and_answer():
    ws = Workbook().active
    cols = bisection_cols("1", "1000", ok="ok") + [Col("ok", "ok", "={n}>=7")]
    block = write_block(ws, 1, 1, cols, bisection_steps(999))
    assert block.bottom - block.top + 1 == 10
    assert ws.cell(2, 2).value == "=1" and ws.cell(3, 2).value == "=IF(E2,B2,D2)"
    assert ws.cell(2, 4).value == "=INT((B2+C2+1)/2)"
    assert bisection_answer(block) == "IF($E$11,$D$11,$C$11)"
