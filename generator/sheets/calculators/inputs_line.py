"""A calculator's inputs in one line, under its title: what every page of it was computed for."""

from __future__ import annotations

from topicsetsize.params import PARAMS

from ...spreadsheet.cells import put_formula
from ...spreadsheet.layout import guarded

__all__ = ["write_inputs_line", "short_number"]


def write_inputs_line(b) -> None:
    """Row 2 of the calculator ``b`` (a :class:`.sheet.SheetBuild`), under its title: the values
    its answers use, in one live line, e.g. "Inputs: α = 0.05, β = 0.2, minD = 0.02,
    σ̂² = 0.0601, m = 2, your n = 100" ("σ̂² = 0.016507 (std-AB)" where a measure's std-AB
    variance is picked: minD is then one of std-AB scores; ``inp.shown_after``); "Inputs: see
    Status" while one is bad. Frozen on screen and printed atop every page
    (:func:`.sheet.finish`), so that each page of tables says what it was computed for.
    Numbers that are not whole show with at most 5 significant digits (a picked measure's
    variance has 15), by :func:`short_number`."""
    parts = []
    for item in (*b.calc.inputs, *(b.calc.second_style or ())):
        used = b.inp.used[item.key]
        shown = used if PARAMS[item.key].integer else short_number(used)
        after = b.inp.shown_after.get(item.key)
        parts.append(f'"{item.symbol} = "&{shown}' + (f"&{after}" if after else ""))
    put_formula(b.cur.ws, 2, 1, guarded(b.ok, '"Inputs: "&' + '&", "&'.join(parts),
                                        '"Inputs: see Status"'))


def short_number(x: str) -> str:
    """A formula's text of the positive number ``x`` with at most 5 significant digits, the same
    in every spreadsheet: 0.0601 and 0.04511 as they are, 1e-6 and 2.5e7 as a mantissa and an
    exponent, for the text of a number beyond the decimals ("1E-06" in LibreOffice, "1e-06" in
    the ``formulas`` package's Excel arithmetic) differs between engines.

    >>> short_number("B5")
    '(IF(OR(B5<0.001,B5>=1000000),ROUND(B5/10^INT(LN(B5)/LN(10)+1E-12),4)&"e"&INT(LN(B5)/LN(10)+1E-12),ROUND(B5,4-INT(LN(B5)/LN(10)+1E-12))&""))'
    """
    k = f"INT(LN({x})/LN(10)+1E-12)"        # the decimal exponent (x > 0 while in range)
    return (f'(IF(OR({x}<0.001,{x}>=1000000),ROUND({x}/10^{k},4)&"e"&{k},'
            f'ROUND({x},4-{k})&""))')
