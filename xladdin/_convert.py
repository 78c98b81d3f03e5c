"""Excel-shaped values in, plain Python values out: the conversions every add-in function shares.

Through xlwings, Excel hands a function numbers as floats (a count m = 10 arrives as ``10.0``),
blank cells as ``None`` (or ``""``), TRUE/FALSE as ``bool`` and ranges as lists of lists. The
engine wants numbers and float matrices, and Excel wants plain ``int``/``float`` back, never
numpy types and never NaN.

The *values* are validated by the engine (:mod:`topicsetsize.params`,
:func:`topicsetsize.matrices.matrix.check_matrix` and the functions themselves), so every message is
the engine's one line. This module adds only what is particular to cells: a blank, text or
logical cell inside a score range is an error that names its row and column within the range
(a blank is never read as 0), and a range given where one number is expected is refused.

>>> matrix("range", [[0.1, 0.2], [0.3, None]])
Traceback (most recent call last):
...
topicsetsize.InputError: range: blank cell at row 2, column 2 (a blank is not read as 0: fill it in
or
leave the topic out)
>>> number("m", 10.0)
10
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np

from topicsetsize.designs.detectable import powerless
from topicsetsize.errors import InputError
from topicsetsize.matrices.matrix import check_matrix
from topicsetsize.params import METHODS, PARAMS, check, check_choice

__all__ = ["excel_range", "number", "optional_number", "EXCEL_ERRORS", "error_value",
           "refuse_error", "refuse_powerless", "refuse_legacy_zero", "method", "flag", "matrix",
           "vector", "plain", "table"]


def _blank(value) -> bool:
    """An empty cell: None in classic xlwings and from Office.js, "" from some paths."""
    return value is None or (isinstance(value, str) and value == "")


def number(name: str, value, key: str | None = None):
    """One number for the engine parameter ``key`` (by default ``name``), checked against
    :data:`PARAMS`; messages name it ``name``, the Excel argument (``minD`` for ``min_d``).

    Whole-number parameters (m, n) come back as ``int`` (``10.0`` -> ``10``). A blank cell or a
    range of several cells is an error naming the parameter.

    >>> number("n", 100.0), number("alpha", 0.05)
    (100, 0.05)
    >>> number("alpha", None)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: alpha is blank: allowed 1e-06 <= alpha <= 0.5

    α and β are taken up to one half (:func:`excel_range`), as the workbook's calculators take
    them; a value above, valid to the engine, is most likely the complement of the one meant
    (:meth:`topicsetsize.params.Range.unusual`), and the refusal says so:

    >>> number("beta", 0.8)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: beta=0.8 asks for a power of only 1 - beta = 0.2 (power 0.8 is
    beta=0.2: did you mean beta=0.2?); allowed 1e-09 <= beta <= 0.5 in Excel
    >>> number("beta", 1.5)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: beta=1.5 is out of range: allowed 1e-09 <= beta <= 0.5
    """
    key = key or name
    if _blank(value):
        raise InputError(f"{name} is blank: allowed {excel_range(key, name)}")
    value = _whole_if_shown_whole(key, value)
    narrower = f"{key}_excel" if f"{key}_excel" in PARAMS else None
    if narrower and isinstance(value, numbers.Real) and not isinstance(value, bool) \
            and PARAMS[key].holds(float(value)):
        swapped = PARAMS[key].unusual(name, float(value))
        if swapped is not None:     # the workbook refuses it too; the command line warns
            raise InputError(f"{swapped}; allowed {excel_range(key, name)} in Excel")
    return check(name, value, allow_array=False, key=narrower or key)


def _whole_if_shown_whole(key: str, value):
    """A whole-number parameter's value that Excel's arithmetic left within 1e-9 (relative, as
    a cell shows it whole) and 1e-6 of a whole number, as that number: ``=0.1*3*10`` is
    3.0000000000000004, shown as 3 in its cell, and was refused as "not a whole number" (a
    reviewer's find, 2026-12-06). Anything farther from a whole number is left to the check,
    which refuses it under the value given (1e-9 relative alone took 1000000000.4 as 10⁹ and
    named 1000000000.7 as 1000000001, and 1e-300 as 0: an add-in review, 2026-12-07).

    >>> _whole_if_shown_whole("m", 0.1 * 3 * 10), _whole_if_shown_whole("m", 3.5)
    (3.0, 3.5)
    >>> _whole_if_shown_whole("m", 1e9 + 0.4), _whole_if_shown_whole("m", 1e-300)
    (1000000000.4, 1e-300)
    """
    spec = PARAMS.get(key)
    if spec is None or not spec.integer or isinstance(value, bool) \
            or not isinstance(value, numbers.Real) or not math.isfinite(value):
        return value
    return float(_shown_whole(np.float64(value)))


def _shown_whole(values: np.ndarray) -> np.ndarray:
    """``values`` with those within 1e-9 (relative) and 1e-6 of a whole number set to it."""
    whole = np.round(values)
    close = np.abs(values - whole) <= np.minimum(1e-9 * np.abs(whole), 1e-6)
    return np.where(close, whole, values)


def excel_range(key: str, name: str | None = None) -> str:
    """The values the Excel functions take for the engine parameter ``key``, as text (under the
    argument's ``name``, by default ``key``): the registry's ``{key}_excel`` entry where it has
    one (α, β ≤ 0.5, where a value above is most likely the complement of the one meant:
    :meth:`topicsetsize.params.Range.unusual`), else its own.

    >>> excel_range("beta"), excel_range("min_d", "minD")
    ('1e-09 <= beta <= 0.5', 'minD > 0')
    """
    return PARAMS.get(f"{key}_excel", PARAMS[key]).describe(name or key)


def optional_number(name: str, value, key: str | None = None):
    """Like :func:`number`, but a blank or omitted argument gives None (the engine's default)."""
    return None if _blank(value) else number(name, value, key)


#: The error values a cell can hold, as xlwings hands them over (``err_to_str``, which every
#: argument asks for: without it an error cell arrives as a blank, and an optional argument
#: would silently take its default).
EXCEL_ERRORS = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
                          "#GETTING_DATA", "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!",
                          "#CONNECT!", "#UNKNOWN!", "#BUSY!", "#PYTHON!", "#TIMEOUT!"})


def error_value(value) -> bool:
    """Whether ``value`` is a cell's error value (``"#N/A"``, ``"#DIV/0!"``, ...).

    >>> error_value("#N/A"), error_value("#n/a "), error_value("exact"), error_value(0.5)
    (True, True, False, False)
    """
    return isinstance(value, str) and value.strip().upper() in EXCEL_ERRORS


def refuse_error(name: str, value) -> None:
    """Refuse an argument that is a cell's error value, in one line naming it: it is never read
    as blank (nor an optional argument as its default).

    >>> refuse_error("method", "#N/A")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: method is the error value #N/A: mend the cell it comes from (an \
error is not read as a blank or as the default)
    """
    if error_value(value):
        raise InputError(f"{name} is the error value {value.strip().upper()}: mend the cell it "
                         "comes from (an error is not read as a blank or as the default)")


def refuse_powerless(alpha: float, beta: float) -> None:
    """Refuse a power 1 − β not above α (:func:`~topicsetsize.designs.detectable.powerless`):
    an Excel function cannot warn, as the command line does, and its answer would mislead.

    >>> refuse_powerless(0.5, 0.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: beta=0.5 with alpha=0.5 asks for a power, ...
    """
    text = powerless(alpha, beta)
    if text is not None:
        raise InputError(text)


def refuse_legacy_zero(name: str, values) -> None:
    """Refuse a legacy minimum difference of 0 among ``values`` (the Excel argument ``name``):
    at large α and β the legacy approximation reaches 1 − β with no difference at all, and a 0
    in a cell reads as "any difference is detected".

    >>> refuse_legacy_zero("minD", [0.1, 0.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: the legacy minD = 0 detects nothing: ...
    """
    if not all(x > 0 for x in values):
        raise InputError(f"the legacy {name} = 0 detects nothing: the legacy approximation "
                         "reaches 1-beta with no difference at all (its error at this alpha); "
                         'use "exact"')


def method(value, choices: tuple[str, ...] = METHODS) -> str:
    """The optional ``method`` argument, one of ``choices``: blank or omitted means the first.

    >>> method(None), method("Exact"), method("", ("exact", "simulated"))
    ('legacy', 'exact', 'exact')
    """
    return choices[0] if _blank(value) else check_choice("method", value, choices)


def flag(name: str, value):
    """An optional TRUE/FALSE argument: a bool, or None when blank or omitted (engine default).

    Excel may hand a logical as 1/0, so those are accepted too; anything else is an error.

    >>> flag("clip", False), flag("clip", 1.0), flag("clip", None)
    (False, True, None)
    """
    if _blank(value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Real) and value in (0, 1):
        return bool(value)
    raise InputError(f"{name}={value!r} is not TRUE or FALSE")


def _cells(name: str, value) -> list[list]:
    """The cells of a range as rows (a list of lists), whatever shape Excel handed over."""
    if _blank(value):
        raise InputError(f"{name} is empty: give a range of numbers")
    if hasattr(value, "shape"):                    # numpy array or pandas DataFrame
        value = np.asarray(value, dtype=object).tolist()
    if not isinstance(value, (list, tuple)):       # a single cell
        return [[value]]
    nested = [isinstance(row, (list, tuple)) for row in value]
    if not any(nested):                            # one row (a 1-D list)
        return [list(value)]
    if not all(nested) or len({len(row) for row in value}) > 1:
        raise InputError(f"{name} must be a rectangular range (every row as long as the first)")
    return [list(row) for row in value]


def _numbers(name: str, rows: list[list], blank: str = "fill it in or leave the topic out"
             ) -> np.ndarray:
    """A float matrix of the cells; a blank, text or logical cell is an error with its place
    (``blank``: what to do with a blank one)."""
    for i, row in enumerate(rows, 1):
        for j, cell in enumerate(row, 1):
            if isinstance(cell, numbers.Real) and not isinstance(cell, (bool, np.bool_)):
                continue
            where = f"at row {i}, column {j}"
            if _blank(cell):
                raise InputError(f"{name}: blank cell {where} (a blank is not read as 0: "
                                 f"{blank})")
            if error_value(cell):
                raise InputError(f"{name}: the error value {cell.strip().upper()} {where} is "
                                 "not a number: mend that cell")
            if isinstance(cell, str):     # "0,4512": text where the locale's comma is not
                comma = re.fullmatch(r"\s*([+-]?\d+),(\d+)\s*", cell)    # a decimal mark
                raise InputError(f"{name}: text {cell!r} {where} is not a number" + (
                    f" (a decimal point, not a comma: {comma[1]}.{comma[2]}?)" if comma else ""))
            if isinstance(cell, (bool, np.bool_)):
                raise InputError(f"{name}: logical value {str(bool(cell)).upper()} {where} "
                                 "is not a number")
            raise InputError(f"{name}: {cell!r} {where} is not a number")
    return np.asarray(rows, dtype=float)


def matrix(name: str, value) -> np.ndarray:
    """A topics × runs score range as a float matrix, checked cell by cell and by the engine.

    Topics are the rows and runs the columns, as in the papers. Beyond the cell check, the
    engine's :func:`~topicsetsize.matrices.matrix.check_matrix` refuses non-finite values and a
    range
    with fewer than 2 topics or 2 runs, naming the range by ``name``.

    >>> matrix("range", [[0.1, 0.2], [0.3, "n/a"]])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: range: text 'n/a' at row 2, column 2 is not a number
    >>> matrix("range", [[0.1, 0.2], [0.3, "0,4512"]])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: range: text '0,4512' at row 2, column 2 is not a number (a decimal \
point, not a comma: 0.4512?)
    """
    return check_matrix(_numbers(name, _cells(name, value)), name=name).values


def vector(name: str, value, key: str | None = None) -> np.ndarray:
    """A single row or column of numbers (or one number) as a 1-D float array; for a
    whole-number parameter ``key``, each value shown whole is that whole number (as
    :func:`number` takes one value).

    >>> vector("ms", [[2.0], [0.1 * 3 * 10]], "m")
    array([2., 3.])
    """
    values = _numbers(name, _cells(name, value), "fill it in or leave it out of the range")
    if key is not None and PARAMS[key].integer:
        values = _shown_whole(values)
    if min(values.shape) > 1:
        rows, cols = values.shape
        raise InputError(f"{name} must be a single row or column of numbers, "
                         f"got {rows} rows × {cols} columns")
    return values.reshape(-1)


def plain(value, *, undefined: str | None = None):
    """A result as Excel wants it: Python int/float, or nested lists of them; never NaN.

    ``undefined`` is the message for a result that is not a finite number (by default a
    generic one); numpy scalars, arrays, DataFrames and tuples are converted.

    >>> plain(np.int64(188)), plain(np.array([[0.5, 1.0]]))
    (188, [[0.5, 1.0]])
    >>> plain(float("nan"), undefined="power is undefined here")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: power is undefined here
    """
    if hasattr(value, "to_numpy"):
        value = value.to_numpy()
    if isinstance(value, (np.ndarray, list, tuple)):
        return [plain(v, undefined=undefined) for v in value]
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Real) and math.isfinite(value):
        return float(value)
    raise InputError(undefined or f"the result {value!r} is not a finite number")


def table(frame, corner: str) -> list[list]:
    """A DataFrame as a 2-D block: a header row (the columns) and a header column (the index).

    >>> import pandas as pd
    >>> table(pd.DataFrame([[93, 24]], index=[2], columns=[0.1, 0.2]), "m \\\\ minD")
    [['m \\\\ minD', 0.1, 0.2], [2, 93, 24]]
    """
    header = [corner, *plain(list(frame.columns))]
    return [header, *([plain(m), *plain(row)] for m, row in zip(frame.index, frame.to_numpy()))]
