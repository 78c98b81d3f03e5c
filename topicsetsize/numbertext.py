"""Numbers in texts, told from other texts without an exception to catch: the command line's
options and the workbook's saved-value evaluator (its VALUE) read a number as one rule says."""

from __future__ import annotations

import math
import re

from .errors import decimal_comma

__all__ = ["NUMBER", "as_number", "beyond_floats", "refusal"]

#: A number as ``float()`` reads one, without its sign (match it ignoring case: ``1E-3``, ``Inf``).
NUMBER = r"(?:(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|inf|infinity|nan)"
_SIGNED_NUMBER = re.compile(rf"\s*[-+]?{NUMBER}\s*", re.IGNORECASE)


def as_number(text: str) -> float | None:
    """``float(text)`` where ``text`` is a number (:data:`NUMBER`, signed, spaces around), else
    None: a text is told from a number without an exception to catch.

    >>> as_number(" -1e-3"), as_number("inf"), as_number("ten"), as_number("")
    (-0.001, inf, None, None)
    """
    return float(text) if _SIGNED_NUMBER.fullmatch(text) else None


def beyond_floats(text: str, value: float) -> bool:
    """Whether the number ``text`` lies beyond the floats that ``value`` (its ``float``) is:
    1e-400 read as 0, 1e400 as inf (a review: they were refused as the 0 and inf they read as).

    >>> beyond_floats("1e-400", 0.0), beyond_floats("1e400", float("inf"))
    (True, True)
    >>> beyond_floats("0e5", 0.0), beyond_floats("-0.000", 0.0), beyond_floats("-inf", -math.inf)
    (False, False, False)
    """
    return (value == 0 and re.search("[1-9]", re.split("[eE]", text)[0]) is not None) or (
        math.isinf(value) and "inf" not in text.lower())


def refusal(name: str, text: str, spec) -> str:
    """Why the text of a single number is refused before its range (``spec``, the parameter's
    :class:`topicsetsize.params.Range`) is checked: not a number (a comma in it a decimal comma
    or a list, where one value goes), or beyond the floats.

    >>> from topicsetsize.params import PARAMS
    >>> refusal("alpha", "0,05", PARAMS["alpha"])
    "alpha='0,05' is not a number (a decimal point, not a comma: 0.05?): allowed 0 < alpha < 1"
    >>> refusal("n", "100,2301", PARAMS["n"])[:49]
    "n='100,2301' is not a number (one value here, not"
    >>> refusal("min_d", "1e-400", PARAMS["min_d"])
    'min_d=1e-400 is beyond floating-point numbers (it reads as 0): allowed min_d > 0'
    """
    value = as_number(text)
    if value is not None:
        return (f"{name}={text.strip()} is beyond floating-point numbers (it reads as "
                f"{value:g}): allowed {spec.describe(name)}")
    comma = "" if "," not in text else (
        (text.count(",") == 1 and decimal_comma(text, spec)) or " (one value here, not a list)")
    return f"{name}={text!r} is not a number{comma}: allowed {spec.describe(name)}"
