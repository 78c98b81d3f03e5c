"""ir_measures' measures: a name parsed and its parameters checked, an evaluator of several.

Measures are computed by :mod:`ir_measures` only (its default provider for AP, nDCG, P, ... is
pytrec_eval, i.e. trec_eval's own code), never here; a measure's parameters are checked before
any evaluation, so that ``nDCG@0`` is a one-line error and not a crash in compiled code. A
failure of the library is a one-line error naming the measure (:func:`first_line`).
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError

__all__ = ["require_ir_measures", "parse_measure", "evaluator_for", "first_line"]


def require_ir_measures():
    """The :mod:`ir_measures` module, or a one-line ValueError telling how to install it.

    ir_measures is an optional dependency (``pip install 'topicsetsize[ir]'``): its trec_eval
    back end is compiled, so it is not available everywhere (e.g. on Pyodide).
    """
    try:
        import ir_measures
    except ImportError:
        raise InputError("evaluating runs needs ir_measures: pip install 'topicsetsize[ir]' "
                         "(or pip install ir_measures)") from None
    return ir_measures


def parse_measure(measure):
    """An ir_measures measure from its name (``"AP"``, ``"nDCG@10"``, or trec_eval's ``"map"``),
    with its parameters checked: a cutoff ``@k`` is a whole number at least 1, a relevance
    level ``rel=`` a whole number.

    >>> parse_measure("AP"), parse_measure("map"), parse_measure("P@10")
    (AP, AP, P@10)
    >>> parse_measure("nDCG@0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: measure='nDCG@0': the cutoff @0 must be a whole number at least 1 ...
    """
    ir_measures = require_ir_measures()

    if not isinstance(measure, str):
        if hasattr(measure, "NAME"):
            return _checked(measure, repr(measure))
        raise InputError(f"measure={measure!r} is not a measure name (e.g. AP, nDCG@10, P@10)")
    try:
        return _checked(ir_measures.parse_measure(measure), measure)
    except (ValueError, TypeError, NameError, SyntaxError, AttributeError, KeyError) as exc:
        if str(exc).startswith("measure="):
            raise
    try:
        found = ir_measures.parse_trec_measure(measure)
        if len(found) == 1:
            return _checked(found[0], measure)
    except (ValueError, TypeError, NameError, SyntaxError, AttributeError, KeyError,
            IndexError) as exc:
        if str(exc).startswith("measure="):
            raise
    several = ("; several are given one by one (['AP', 'nDCG@10'], or --measure AP nDCG@10)"
               if "," in measure else "")
    raise InputError(f"measure={measure!r} is not an ir_measures measure (e.g. AP, nDCG@10, "
                     f"P@10, or trec_eval's map){several}")


def _checked(measure, text: str):
    """``measure`` if its cutoff and relevance level are whole numbers (cutoff at least 1)."""
    params = dict(getattr(measure, "params", {}) or {})
    cutoff = params.get("cutoff")
    if cutoff is not None and not (_whole(cutoff) and cutoff >= 1):
        raise InputError(f"measure={text!r}: the cutoff @{cutoff} must be a whole number at "
                         f"least 1 (e.g. {measure.NAME}@10)")
    rel = params.get("rel")
    if rel is not None and not _whole(rel):
        raise InputError(f"measure={text!r}: the relevance level rel={rel} must be a whole "
                         "number (e.g. rel=1)")
    return measure


def _whole(value) -> bool:
    return (isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
            and np.isfinite(value) and float(value) == int(value))


def evaluator_for(measure, qrels: dict):
    """An ir_measures evaluator of one measure (or a list of them) on ``{qid: {docid: rel}}``;
    a failure of the library is a one-line ValueError naming the measure."""
    ir_measures = require_ir_measures()
    measures = list(measure) if isinstance(measure, (list, tuple)) else [measure]
    try:
        return ir_measures.evaluator(measures, qrels)
    except Exception as exc:  # noqa: BLE001 - any library failure becomes a user error
        raise InputError(f"measure={', '.join(map(str, measures))!r}: ir_measures cannot "
                         f"evaluate it: {first_line(exc)}") from None


def first_line(exc: Exception) -> str:
    """The first line of a library error; ir_measures' "invalid param cutoff=<object ...>"
    (a parameter without a default, not given) says which parameter to give."""
    import re

    text = str(exc).strip()
    text = text.splitlines()[0] if text else type(exc).__name__
    return re.sub(r"invalid param (\w+)=<object object at 0x[0-9a-f]+>",
                  r"the parameter \1 is required (e.g. P@10, SDCG(max_rel=2)@10)", text)
