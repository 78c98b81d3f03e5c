"""Numbers in command-line texts, told from other texts without an exception to catch."""

from __future__ import annotations

import re

__all__ = ["NUMBER", "as_number"]

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
