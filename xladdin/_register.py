"""Registering a Python function as an Excel function: argument docs, range options, errors.

:func:`excel_function` applies ``xlwings.arg`` (with the argument's doc, and ``ndim=2`` for
ranges) to every parameter, then ``xlwings.func``. The same decorators serve both runtimes:

* the classic add-in on Windows (``xlwings addin install``, *Import Functions*), where they
  come from ``xlwings.udfs``;
* xlwings Lite and xlwings Server (Office.js custom functions), where they come from
  ``xlwings.server`` (``XLWINGS_ON_SERVER=true``);

and elsewhere they are no-ops, so the functions stay plain Python callables.

**How a bad argument reaches the cell.** The engine's one-line ``InputError`` message is kept
word for word. With Office.js (Lite, Server) it is raised as :class:`ExcelArgumentError`, an
``xlwings.XlwingsError``: the cell shows ``#VALUE!`` and the message is in the cell's error
flag (xlwings Server shows an ``XlwingsError``'s message even in production). The classic
add-in would put the whole Python traceback into the cell, so there the function returns the
text ``#VALUE! <message>`` instead. See :data:`ERRORS`.
"""

from __future__ import annotations

import functools
import inspect

import xlwings as xw

from topicsetsize.errors import InputError
from topicsetsize.estimates.standardise import std_ab
from topicsetsize.params import PARAMS

from ._convert import excel_range

__all__ = ["ARG_DOCS", "EXCEL_NAMES", "RANGE_ARGS", "ERRORS", "ExcelArgumentError", "excel_name",
           "excel_function"]


class ExcelArgumentError(xw.XlwingsError, InputError):
    """A bad argument, reported to Excel with the engine's one-line message."""


#: ``"text"`` in the classic Windows add-in (the function returns ``"#VALUE! <message>"``),
#: ``"raise"`` everywhere else (Office.js shows ``#VALUE!`` with the message in its flag).
ERRORS = "text" if getattr(xw.func, "__module__", "") == "xlwings.udfs" else "raise"


def _param(key: str, name: str) -> str:
    """The argument doc of an Excel argument ``name`` from the engine registry entry ``key``."""
    return f"{PARAMS[key].doc}: {excel_range(key, name)}"


#: The engine's std-AB defaults (A, B, clip), quoted in the argument docs.
_STD_AB = {name: p.default for name, p in inspect.signature(std_ab).parameters.items()}

_RANGE = "topic-by-run scores: topics in rows, runs in columns (at least 2 of each); " \
         "every cell a number, no blanks or text"

#: The Excel name of each engine argument that has another one (the legacy sheets' spelling):
#: the Excel functions built from the design registry name their arguments by it.
EXCEL_NAMES: dict[str, str] = {
    "min_d": "minD", "min_dt": "minDt", "min_delta_t": "minDeltaT", "variance": "var",
    "variance_t": "var_t", "min_ds": "minDs",
}


def excel_name(param: str) -> str:
    """The Excel argument name of the engine argument ``param`` (``min_d`` -> ``minD``)."""
    return EXCEL_NAMES.get(param, param)


#: The doc shown for every argument name, in Excel's function wizard and in Office.js.
ARG_DOCS: dict[str, str] = {
    **{excel_name(p): _param(p, excel_name(p))
       for p in ("alpha", "beta", "min_d", "min_dt", "delta", "m", "n")},
    "minDeltaT": _param("min_delta_t", "minDeltaT") + " (minDt / sigma_t)",
    "var": _param("variance", "var") + ", e.g. TSS_VAR of a past score matrix",
    "var_t": _param("variance_t", "var_t") + " (2 x var when taken from a one-way V_E)",
    "ms": "numbers of systems m, one per table row: a row or column of whole numbers >= 2",
    "minDs": "minimum detectable ranges minD, one per table column: a row or column of "
             "numbers > 0",
    "method": 'optional: "legacy" (default; the legacy Excel tools\' approximations, number '
              'for number) or "exact" (noncentral F and t)',
    "range": _RANGE,
    "range1": _RANGE,
    "range2": "optional, repeatable: further score ranges to pool (they may differ in size)",
    "A": f"optional: {_param('a', 'A')} (default {_STD_AB['a']})",
    "B": f"optional: {_param('b', 'B')} (default {_STD_AB['b']})",
    "clip": f"optional: TRUE clips the std-AB scores to [0, 1], FALSE keeps A*z + B "
            f"(default {str(_STD_AB['clip']).upper()})",
    "x": "one score per run (e.g. the run means of the raw scores): a row or column",
    "y": "one score per run, the same runs in the same order (e.g. the run means of std-AB)",
}

#: Arguments that are ranges: xlwings reads them as lists of rows (``ndim=2``).
RANGE_ARGS = frozenset({"range", "range1", "range2", "ms", "minDs", "x", "y"})


def _report(error: InputError):
    message = str(error)
    if ERRORS == "text":
        return f"#VALUE! {message}"
    raise ExcelArgumentError(message) from None


def excel_function(fn):
    """Register ``fn`` as an Excel function (see the module docstring).

    Its docstring is the function's description; every parameter must have an entry in
    :data:`ARG_DOCS`. An :class:`~topicsetsize.InputError` (the engine's, or one from
    :mod:`xladdin._convert`) is reported as described under :data:`ERRORS`; any other
    exception, a plain ``ValueError`` too, is a bug and is left alone, traceback and all.
    """

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InputError as error:
            return _report(error)

    # One paragraph: Excel's function wizard shows the description as it is.
    call.__doc__ = " ".join((fn.__doc__ or "").split())
    for name in inspect.signature(fn).parameters:
        options = {"ndim": 2} if name in RANGE_ARGS else {}
        call = xw.arg(name, doc=ARG_DOCS[name], **options)(call)
    return xw.func(call)
