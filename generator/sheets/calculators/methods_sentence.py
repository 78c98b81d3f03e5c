"""The calculator sheets' "Legacy vs exact" sentence: whether the legacy approximation's n and
the exact one agree, and the exact power where they do not."""

from __future__ import annotations

from ...spreadsheet.layout import Cursor, answer_text, guarded
from .sheet import sentence_row

__all__ = ["methods_warning", "shown_power"]


def shown_power(power: str, places: str) -> str:
    """A power as the sentence shows it: truncated to ``places`` decimals (never rounded up to
    the target), with the spreadsheet functions the saved values' evaluator has.

    >>> shown_power("B5", "4")
    'FIXED(INT(B5*10^4)/10^4,4,TRUE)'
    """
    return f"FIXED(INT({power}*10^{places})/10^{places},{places},TRUE)"


def methods_warning(cur: Cursor, ok: str, status: str, n_legacy: str, n_exact: str,
                    p_exact_at_legacy: str, p_exact_at_exact: str, beta: str) -> None:
    """A sentence on whether the methods agree, red when they do not.

    Its powers are truncated to 4 decimals, or two more than β's first significant decimal
    where β is below 10⁻³ (as the command line's warning: at β = 1e-9, 4 decimals said "only
    1.0000 < 1 − β = 1.0000"); a shortfall is shown to one decimal past its own first
    significant one as well, so that the power and 1 − β never read alike (a review: β =
    .123456789 read "only 0.8765 < 1 − β = 0.8765"), up to 15 decimals.
    """
    both = f"AND(ISNUMBER({n_legacy}),ISNUMBER({n_exact}))"
    nl, ne = answer_text(n_legacy), answer_text(n_exact)
    places = f"MAX(4,2-INT(LN({beta})/LN(10)))"
    gap = f"MAX(1E-15,1-{beta}-{p_exact_at_legacy})"
    short = f"MIN(15,MAX({places},1-INT(LN({gap})/LN(10))))"
    under = (f'"Warning: at the legacy n = "&{nl}&" the exact power is only "'
             f'&{shown_power(p_exact_at_legacy, short)}&" < 1 − β = "&FIXED(1-{beta},{short},'
             f'TRUE)&"; the exact method needs n = "&{ne}&"."')
    over = (f'"Note: the legacy n = "&{nl}&" is more than needed: the exact power reaches "'
            f'&{shown_power(p_exact_at_exact, places)}&" at n = "&{ne}&"."')
    text = (f'IF({both},IF({n_legacy}={n_exact},"Legacy and exact agree: n = "&{ne}&".",'
            f'IF({n_legacy}<{n_exact},{under},{over})),"Warning: legacy n = "&{nl}&", exact '
            f'n = "&{ne}&" (no n up to the search limit is enough for at least one method).")')
    sentence_row(cur, "Legacy vs exact", guarded(ok, text, status),
                 f"NOT(AND({ok},{both},{n_legacy}={n_exact}))")
