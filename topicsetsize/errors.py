"""The type of a user error: input that the toolkit refuses, with a one-line message.

:class:`InputError` is what the engine, the Excel functions and the workbook generator raise
when the user's input is wrong (a value out of range, a malformed file, a design that no n can
meet). It is a :class:`ValueError`, so code that catches ``ValueError`` keeps working; the command
line reduces only this (and an :class:`OSError` about the user's own path) to one line with exit
status 2, so that any other exception, a bug, keeps its traceback.

>>> import topicsetsize as tss
>>> try:
...     tss.anova_n(alpha=1.5, beta=0.2, m=2, min_d=0.1, variance=0.01)
... except tss.InputError as exc:
...     print(exc)
alpha=1.5 is out of range: allowed 0 < alpha < 1
>>> issubclass(tss.InputError, ValueError)
True
"""

from __future__ import annotations

import sys

__all__ = ["InputError", "caller_level", "decimal_comma", "in_package", "refuse_repeated"]


class InputError(ValueError):
    """The user's input is wrong; the message is one line naming the value and what is allowed.
    """


def refuse_repeated(name: str, values, spec: str = "g") -> None:
    """Refuse, in one line, a list of labels (a table's rows or columns, a block's n) that gives
    a value twice, naming the first repeated (formatted with ``spec``): the command line's list
    options, the tables and the Excel functions say it alike.

    >>> refuse_repeated("m", [2, 10, 2])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: m=2 is given twice: give each value once
    """
    seen: set = set()               # linear: a list may hold many values
    twice = next((v for v in values if v in seen or seen.add(v)), None)
    if twice is not None:
        raise InputError(f"{name}={twice:{spec}} is given twice: give each value once")


def caller_level() -> int:
    """The ``stacklevel`` of the first frame outside the package, for the function calling
    :func:`warnings.warn` (a warning then points at the user's call, whichever path led to it).
    """
    frame, level = sys._getframe(1), 1
    while frame is not None and in_package(frame):
        frame, level = frame.f_back, level + 1
    return level


def in_package(frame, part: str = "") -> bool:
    """Whether ``frame`` runs code of the package (of its sub-package ``part``, e.g.
    ``"designs"``), by its module's name: ``topicsetsize.generator`` and ``xladdin`` live beside
    ``topicsetsize/`` in a checkout and inside it once installed."""
    name = frame.f_globals.get("__name__", "")
    if part:
        return name.startswith(f"topicsetsize.{part}.")
    return name in ("topicsetsize", "xladdin") or name.startswith(("topicsetsize.", "xladdin."))


# Shown (in tracebacks and doctests) and pickled under its public name, topicsetsize.InputError.
InputError.__module__ = "topicsetsize"


def decimal_comma(text: str, spec) -> str:
    """A hint where ``text`` holds a number written with a decimal comma ("0,05"; the first
    pair of whole numbers joined by a comma whose decimal reading the parameter's range ``spec``,
    a :class:`topicsetsize.params.Range`, allows), else "".

    >>> from topicsetsize.params import PARAMS
    >>> decimal_comma("0,05", PARAMS["alpha"]), decimal_comma("0.05,0,1", PARAMS["min_d"])
    (' (a decimal point, not a comma: 0.05?)', ' (a decimal point, not a comma: 0.1?)')
    >>> decimal_comma("100,2301", PARAMS["n"]), decimal_comma("0.1,0.2", PARAMS["min_d"])
    ('', '')
    """
    items = [item.strip() for item in str(text).split(",")]
    for head, tail in zip(items, items[1:]):
        if not spec.integer and head.lstrip("+-").isdigit() and tail.isdigit() \
                and spec.holds(float(f"{head}.{tail}")):
            return f" (a decimal point, not a comma: {head}.{tail}?)"
    return ""
