"""The spreadsheet functions of the formula evaluator (:mod:`generator.saved.evaluator`), in Python.

Each function a generated formula may call (``IF`` is translated inline) with Excel's semantics
where they matter here: blank cells as 0 in arithmetic, text compared case-insensitively and
above numbers, degrees of freedom truncated to integers, error values (``#N/A``) that propagate.
The statistical functions come from :mod:`scipy.special` (F.INV.RT through the beta quantile,
accurate in the far tail). ``ENV`` is the namespace the compiled formulas run in, and
``FUNCTIONS`` maps a spreadsheet name (``F.INV.RT``) to its entry there.
"""

from __future__ import annotations

import math
import operator
import re

import numpy as np
from scipy import special

from topicsetsize.numbertext import as_number

__all__ = ["FormulaError", "ErrorValue", "NOT_AVAILABLE", "memoised"]


class FormulaError(ValueError):
    """A formula the evaluator cannot translate or a cell whose value is an error."""


def N(x):
    """A value in arithmetic: blank is 0 (TRUE is 1 already); text is an error."""
    if x is None:
        return 0.0
    if isinstance(x, str):
        raise FormulaError(f"text {x!r} in arithmetic (#VALUE!)")
    return x


def truth(x) -> bool:
    if isinstance(x, str):
        raise FormulaError(f"text {x!r} as a condition (#VALUE!)")
    return bool(x)


def text(x) -> str:
    """A value in a concatenation, as Excel shows it with the General format."""
    if x is None:
        return ""
    if isinstance(x, bool):
        return "TRUE" if x else "FALSE"
    if isinstance(x, str):
        return x
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}".replace("e+", "E+").replace("e-", "E-")


def _rank(x):
    """Excel's order of types in comparisons: numbers < text < logical values."""
    if isinstance(x, bool):
        return 2, x
    if isinstance(x, str):
        return 1, x.lower()
    return 0, float(x)


_NUMPY_COMPARE = {"=": np.equal, "<>": np.not_equal, "<": np.less, ">": np.greater,
                  "<=": np.less_equal, ">=": np.greater_equal}


def _approx_equal(a: float, b: float) -> bool:
    """LibreOffice's rtl::math::approxEqual: equal within 2^-48 relative (so 0.8 − 2e-15
    >= 0.8 holds, as in the spreadsheet)."""
    if a == b:
        return True
    if a == 0.0 or b == 0.0:
        return False
    d = abs(a - b)
    return math.isfinite(d) and d < abs(a) * 2.0 ** -48 and d < abs(b) * 2.0 ** -48


_REAL = (float, int)          # exactly these types: not bool
_OPERATORS = {"=": operator.eq, "<>": operator.ne, "<": operator.lt, ">": operator.gt,
              "<=": operator.le, ">=": operator.ge}


def compare(op: str, a, b) -> bool:
    kind_a, kind_b = type(a), type(b)
    if kind_a in _REAL and kind_b in _REAL:      # two numbers or two texts: the common cases
        a, b = float(a), float(b)
        return _OPERATORS[op](b, b) if _approx_equal(a, b) else _OPERATORS[op](a, b)
    if kind_a is str and kind_b is str:
        return _OPERATORS[op](a.lower(), b.lower())
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):     # numbers only
        return _NUMPY_COMPARE[op](N(a), N(b)).astype(float)
    if a is None:
        a = "" if isinstance(b, str) else (False if isinstance(b, bool) else 0.0)
    if b is None:
        b = "" if isinstance(a, str) else (False if isinstance(a, bool) else 0.0)
    a, b = _rank(a), _rank(b)
    if a[0] == b[0] == 0 and _approx_equal(a[1], b[1]):
        a = b        # LibreOffice (and Excel) compare numbers to about 15 digits
    return _OPERATORS[op](a, b)


def power(a, b):
    a, b = N(a), N(b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.power(a, b)
    if a < 0 and not float(b).is_integer():
        raise FormulaError("negative base to a fractional power (#NUM!)")
    return float(a) ** float(b)


def _numbers(values) -> list[float] | tuple[float, ...]:
    """The numbers among arguments and the cells of ranges (text and blanks skipped)."""
    if all(type(v) is float for v in values):       # the common case: as they are
        return values
    out = []
    for v in values:
        if isinstance(v, np.ndarray):
            out.extend(float(x) for x in v.ravel())
        elif isinstance(v, list):
            out.extend(float(x) for x in v if isinstance(x, (int, float))
                       and not isinstance(x, bool))
        elif v is not None:
            out.append(float(N(v)))
    return out


def _trunc(df):
    return np.trunc(N(df))


def _f_inv_rt(p, d1, d2):
    d1, d2 = _trunc(d1), _trunc(d2)
    if d1 < 1 or d2 < 1 or not 0 < p <= 1:
        raise FormulaError("F.INV.RT out of its domain (#NUM!)")
    y = special.betaincinv(d2 / 2, d1 / 2, p)
    return float(d2 / d1 * (1 / y - 1))


def _t_inv_2t(p, df):
    df = _trunc(df)
    if df < 1 or not 0 < p <= 1:
        raise FormulaError("T.INV.2T out of its domain (#NUM!)")
    return float(-special.stdtrit(df, p / 2))


def _round(x, digits=0):
    x, scale = float(N(x)), 10.0 ** int(N(digits))
    return math.copysign(math.floor(abs(x) * scale + 0.5) / scale, x)


def _roundup(x, digits=0):
    """Excel's ROUNDUP: away from zero (a tiny tolerance absorbs binary noise, as Excel does)."""
    x, scale = float(N(x)), 10.0 ** int(N(digits))
    return math.copysign(math.ceil(round(abs(x) * scale, 9)) / scale, x)


def _fixed(x, decimals=2, no_commas=False):
    x = _round(x, decimals)
    d = max(int(decimals), 0)
    return f"{x:.{d}f}" if no_commas else f"{x:,.{d}f}"


def _match(value, area, kind=1):
    """Exact MATCH (``kind`` 0), as Excel's: a text with ``?``, ``*`` or ``~`` is a pattern
    (any one character, any run of characters, the next character as it is), matched whole and
    regardless of case.

    >>> _match("A~?B", ["AxB", "A?B"], 0), _match("A?B", ["AxB", "A?B"], 0)
    (2.0, 1.0)
    """
    if N(kind) != 0:
        raise FormulaError("only exact MATCH is supported")
    items = area.ravel().tolist() if isinstance(area, np.ndarray) else area
    if isinstance(value, str) and any(c in value for c in "?*~"):
        pattern = re.compile(_wildcards(value), re.IGNORECASE | re.DOTALL)
        same = lambda item: isinstance(item, str) and pattern.fullmatch(item) is not None
    else:
        same = lambda item: item is not None and compare("=", value, item)
    for i, item in enumerate(items):
        if same(item):
            return float(i + 1)
    raise _NotAvailable()


def _wildcards(value: str) -> str:
    """The regular expression of an Excel lookup pattern (``~`` escapes the next character)."""
    out, escaped = [], False
    for c in value:
        if escaped:
            out.append(re.escape(c))
            escaped = False
        elif c == "~":
            escaped = True
        else:
            out.append({"?": ".", "*": ".*"}.get(c, re.escape(c)))
    return "".join(out) + ("~" if escaped else "")


def _substitute(value, old, new):
    """SUBSTITUTE of every occurrence (the form with three arguments)."""
    value, old = text(value), text(old)
    return value.replace(old, text(new)) if old else value


class _NotAvailable(FormulaError):
    """#N/A (MATCH found nothing)."""


class ErrorValue(str):
    """An error value a cell shows on purpose, e.g. ``NA()``: a gap in a chart's data. Stored
    as the cell's cached error (``t="e"``); any formula that reads it fails as in Excel."""


NOT_AVAILABLE = ErrorValue("#N/A")


def isna(thunk) -> bool:
    try:
        thunk()
    except _NotAvailable:
        return True
    return False


def _index(area, row, column=None):
    items = area.ravel().tolist() if isinstance(area, np.ndarray) else area
    i = int(N(row))
    if not 1 <= i <= len(items) or (column is not None and int(N(column)) != 1):
        raise FormulaError("INDEX out of range (#REF!)")
    return items[i - 1]


def _value(x):
    """VALUE of a text as a locale whose decimal mark is the point reads it (a number is
    itself); #VALUE! (an :class:`ErrorValue`, not a number) where it holds none."""
    if isnumber(x) or isinstance(x, ErrorValue):
        return x
    number = as_number(text(x))     # the command line's rule: no "1_000", as VALUE reads none
    # "nan" and "inf" read as numbers there, which VALUE does not
    return number if number is not None and math.isfinite(number) else ErrorValue("#VALUE!")


def isnumber(x) -> bool:
    return isinstance(x, (int, float, np.floating)) and not isinstance(x, bool)


def _sumproduct(*args):
    """SUMPRODUCT: the items' products (multiplied in the arguments' order), summed. Float
    arrays of one shape (the helper range's terms) are multiplied as they are; anything else
    is broadcast first. Both give the same numbers."""
    args = [N(a) for a in args]
    first = args[0]
    if all(isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == first.shape
           for a in args):
        product = first.copy() if len(args) == 1 else first * args[1]
        for a in args[2:]:
            product *= a
        return float(np.sum(product))
    return float(np.sum(np.prod(np.broadcast_arrays(*args), axis=0)))


def _exact(value):
    """A key that is equal only for the same value (an array by its bytes)."""
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, value.tobytes()
    if isinstance(value, float):
        return float.hex(value)
    return type(value), value


def memoised(fn):
    """``fn`` with its results kept by the exact values of its arguments, for one workbook's
    evaluation: the noncentral-F mixtures of the power searches call BETA.DIST on the same
    400 helper terms again and again (at the same n and critical value, for another effect,
    or a search step that comes back to an n), each call about 0.1 ms. A kept array is read
    only, so a caller cannot change it for the next.
    """
    kept: dict = {}

    def wrapped(*args):
        key = tuple(map(_exact, args))
        out = kept.get(key)
        if out is None:
            out = kept[key] = fn(*args)
            if isinstance(out, np.ndarray):
                out.flags.writeable = False
        return out
    return wrapped


def _scalar(fn):
    def wrapped(*args):
        out = fn(*(N(a) for a in args))
        return out if isinstance(out, np.ndarray) else float(out)
    return wrapped


def _sqrt(x):
    x = N(x)
    if not isinstance(x, np.ndarray) and x < 0:
        raise FormulaError("SQRT of a negative number (#NUM!)")
    return np.sqrt(x) if isinstance(x, np.ndarray) else math.sqrt(x)


def _ln(x):
    x = N(x)
    if not isinstance(x, np.ndarray) and x <= 0:
        raise FormulaError("LN of a number <= 0 (#NUM!)")
    return np.log(x) if isinstance(x, np.ndarray) else math.log(x)


ENV: dict[str, object] = {
    "N": N, "truth": truth, "text": text, "compare": compare, "power": power, "isna": isna,
    "AND_": lambda *a: all(truth(x) for x in a),
    "OR_": lambda *a: any(truth(x) for x in a),
    "NOT_": lambda x: not truth(x),
    "ISNUMBER_": isnumber,
    "NA_": lambda: NOT_AVAILABLE,
    "ABS_": lambda x: abs(N(x)),
    "ISBLANK_": lambda x: x is None,
    "ISTEXT_": lambda x: isinstance(x, str) and not isinstance(x, ErrorValue),
    "VALUE_": _value,
    "MIN_": lambda *a: min(_numbers(a), default=0.0),
    "MAX_": lambda *a: max(_numbers(a), default=0.0),
    "COUNT_": lambda *a: float(len(_numbers(a))),
    "INT_": lambda x: float(math.floor(N(x))),
    "ROUND_": _round,
    "ROUNDUP_": _roundup,
    "SQRT_": _sqrt,
    "EXP_": lambda x: np.exp(N(x)) if isinstance(x, np.ndarray) else math.exp(N(x)),
    "LN_": _ln,
    "ATANH_": lambda x: np.arctanh(N(x)) if isinstance(x, np.ndarray) else math.atanh(N(x)),
    "GAMMALN_": _scalar(special.gammaln),
    "SUMPRODUCT_": _sumproduct,
    "NORM_S_DIST_": lambda x, cumulative: (float(special.ndtr(N(x))) if truth(cumulative)
                                           else math.exp(-N(x) ** 2 / 2) / math.sqrt(2 * math.pi)),
    "NORMSDIST_": lambda x: float(special.ndtr(N(x))),
    "NORM_S_INV_": _scalar(special.ndtri),
    "BETA_DIST_": lambda x, a, b, cumulative=True: _scalar(
        lambda x, a, b: special.betainc(a, b, x))(x, a, b),
    "BETA_INV_": _scalar(lambda p, a, b: special.betaincinv(a, b, p)),
    "F_INV_RT_": _f_inv_rt,
    "T_INV_2T_": _t_inv_2t,
    "CHISQ_DIST_RT_": lambda x, df: _scalar(lambda x, df: special.chdtrc(np.trunc(df), x))(x, df),
    "CHISQ_INV_RT_": _scalar(lambda p, df: special.chdtri(np.trunc(df), p)),
    "INDEX_": _index,
    "MATCH_": _match,
    "LEFT_": lambda s, n=1: text(s)[:int(N(n))],
    "RIGHT_": lambda s, n=1: text(s)[len(text(s)) - int(N(n)):] if int(N(n)) else "",
    "FIXED_": _fixed,
    "SUBSTITUTE_": _substitute,
}
FUNCTIONS = {key[:-1].replace("_", "."): key for key in ENV if key.endswith("_")}
#: The functions whose value is a logical value (the evaluator's compiled code takes it as a
#: condition without :func:`truth`).
LOGICAL = frozenset({"AND_", "OR_", "NOT_", "ISNUMBER_", "ISBLANK_", "ISTEXT_"})
#: The functions whose value is never blank or text (a number, a logical value or an array):
#: :func:`N` of it is the value itself, so the compiled code leaves that call out.
PLAIN = LOGICAL | {
    "ABS_", "MIN_", "MAX_", "COUNT_", "INT_", "ROUND_", "ROUNDUP_", "SQRT_", "EXP_", "LN_",
    "ATANH_", "GAMMALN_", "SUMPRODUCT_", "NORM_S_DIST_", "NORMSDIST_", "NORM_S_INV_",
    "BETA_DIST_", "BETA_INV_", "F_INV_RT_", "T_INV_2T_", "CHISQ_DIST_RT_", "CHISQ_INV_RT_",
    "MATCH_"}
