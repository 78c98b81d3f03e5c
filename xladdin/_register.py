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
import re

import xlwings as xw

from topicsetsize.errors import InputError
from topicsetsize.estimates.standardise import std_ab
from topicsetsize.params import PARAMS

from ._convert import excel_range, refuse_error

__all__ = ["ARG_DOCS", "arg_doc", "EXCEL_NAMES", "RANGE_ARGS", "ERRORS", "ExcelArgumentError",
           "excel_name", "excel_words", "excel_function"]


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


#: An engine argument name that has another Excel name, where a message names the argument:
#: before ``=``, ``<`` or ``>`` (``min_d=0.1``, ``variance > 0``) or after ``<`` or ``<=``
#: (``0 < variance``); not in prose ("a variance of 0").
_NAMES = "|".join(sorted(EXCEL_NAMES, key=len, reverse=True))
_ENGINE_NAME = re.compile(rf"(?<![\w-])({_NAMES})(?=\s?[=<>])|(?:(?<=< )|(?<=<= ))({_NAMES})"
                          r"(?![\w-])")


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
    "method": 'optional: "legacy" (default: the legacy Excel tools\' approximations, number '
              'for number; the exact test can have a little less than power 1-beta at their n) '
              'or "exact" (noncentral F and t: the power is reached)',
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

#: ``var`` where a design's variance is the two-way residual one (``Design.model`` "two-way"):
#: TSS_VAR's one-way V_E there would size n 1.8 to 3.4 times too large on TREC AP (m = 10,
#: minD = .05: Web 107 against 58, Robust 566 against 167).
_VAR2_DOC = ("two-way (runs x topics) residual variance V_E2: " + excel_range("variance", "var")
             + ", e.g. TSS_VAR2 of a past score matrix (not TSS_VAR's one-way V_E)")


#: minD of an unpaired design (two systems, each on its own topics): a difference, not the range
#: between the best and the worst of m systems (a parity review, 2026-12-07: TSS_TTEST2's
#: wizard said "range"; the command line's help, the design's own words, said "difference").
_DIFFERENCE_DOC = ("minimum detectable difference between the two systems: "
                   + excel_range("min_d", "minD"))


def arg_doc(name: str, model: str | None = None) -> str:
    """The doc of the Excel argument ``name`` of a function of a design of ``model``
    (``Design.model``): :data:`ARG_DOCS`'s, except ``var`` of a two-way design and ``minD`` of
    an unpaired one.

    >>> arg_doc("var", "two-way")[:40]
    'two-way (runs x topics) residual varianc'
    >>> arg_doc("var", "one-way") == ARG_DOCS["var"]
    True
    >>> arg_doc("minD", "unpaired")[:48]
    'minimum detectable difference between the two sy'
    """
    if (name, model) == ("minD", "unpaired"):
        return _DIFFERENCE_DOC
    return _VAR2_DOC if (name, model) == ("var", "two-way") else ARG_DOCS[name]


#: Arguments that are ranges: xlwings reads them as lists of rows (``ndim=2``).
RANGE_ARGS = frozenset({"range", "range1", "range2", "ms", "minDs", "x", "y"})


def excel_words(message: str) -> str:
    """An engine message in the Excel functions' words: each engine argument that has another
    Excel name (:data:`EXCEL_NAMES`) under that name, ``method='exact'`` as ``method "exact"``.

    >>> excel_words("min_d=-0.1 is out of range: allowed min_d > 0; or method='exact'")
    'minD=-0.1 is out of range: allowed minD > 0; or method "exact"'
    >>> excel_words("allowed 0 < variance; a variance of 0 (variance_t=0.1)")
    'allowed 0 < var; a variance of 0 (var_t=0.1)'
    """
    message = re.sub(r"\bmethod='(\w+)'", r'method "\1"', message)
    return _ENGINE_NAME.sub(lambda match: EXCEL_NAMES[match.group(0)], message)


def _report(error: InputError):
    message = excel_words(str(error))
    if ERRORS == "text":
        return f"#VALUE! {message}"
    raise ExcelArgumentError(message) from None


def excel_function(fn, model: str | None = None):
    """Register ``fn`` as an Excel function (see the module docstring).

    Its docstring is the function's description; every parameter must have an entry in
    :data:`ARG_DOCS` (its doc is :func:`arg_doc`'s, for a function of a design of ``model``).
    An argument that is a cell's error value is refused; an :class:`~topicsetsize.InputError`
    (the engine's, or one from :mod:`xladdin._convert`) is reported as described under
    :data:`ERRORS`, in the Excel names (:func:`excel_words`); any other exception, a plain
    ``ValueError`` too, is a bug and is left alone, traceback and all.
    """

    names = [p.name for p in inspect.signature(fn).parameters.values()
             if p.kind is not p.VAR_POSITIONAL]

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            for name, value in (*zip(names, args), *kwargs.items()):
                refuse_error(name, value)
            return fn(*args, **kwargs)
        except InputError as error:
            return _report(error)

    # One paragraph: Excel's function wizard shows the description as it is.
    call.__doc__ = " ".join((fn.__doc__ or "").split())
    for name in inspect.signature(fn).parameters:
        # err_to_str: an error cell arrives as its text ("#N/A") and is refused, never as a
        # blank (which an optional argument would take for its default)
        options = {"ndim": 2, "err_to_str": True} if name in RANGE_ARGS else {"err_to_str": True}
        call = xw.arg(name, doc=arg_doc(name, model), **options)(call)
    return xw.func(call)
