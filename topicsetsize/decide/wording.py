"""The recommendation in words: "Create n topics: this guarantees 80% power for ..." (AIRS 2016,
Section 4), written from the table :func:`topicsetsize.decide.recommendation.recommend` computes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["sentence", "clause", "min_d_text"]


def min_d_text(x: float) -> str:
    """minD as the papers print it: two decimals, else exactly as given (0.10, 0.025, 0.1234564).

    The minD is the user's own requirement: it is never shown rounded (rounded down, the
    sentence would promise more than the design gives).

    >>> min_d_text(0.1), min_d_text(0.025), min_d_text(0.1234564)
    ('0.10', '0.025', '0.1234564')
    """
    return f"{x:.2f}" if round(x, 2) == x else repr(float(x))


def clause(row, recommended: int) -> str:
    """One requirement in the papers' words; the label (plain text) names the measure."""
    who = "for " if row.label is None else f"for {row.label}, "
    tail = (f"exactly {row.n} topics are needed" if row.n == recommended
            else f"{row.n} topics are sufficient")
    return f"{who}comparing any m = {row.m} systems with a minD of {min_d_text(row.min_d)} ({tail})"


def sentence(n: int, frame: pd.DataFrame, beta: float, alpha: float = 0.05) -> str:
    """"Create n topics: this guarantees 80% power for A, and for B." (AIRS 2016, Section 4).

    At the papers' α = .05 the sentence is theirs word for word; at another level it says so
    ("80% power at alpha = 0.01"). The power is 100(1 − β)% as
    :func:`~topicsetsize.decide.guarantee.percent_text` writes it, never rounded to 100%
    (β = 1e-7: "99.99999% power").
    """
    # guarantee.py loads numpy, pandas and the designs: imported where the sentence is written
    from .guarantee import percent_text

    clauses = [clause(row, n) for row in frame.itertuples()]
    if len(clauses) > 1:
        clauses[-1] = "and " + clauses[-1]
    # A labelled clause has a comma of its own: then the clauses are separated by semicolons.
    separator = "; " if frame["label"].notna().any() else ", "
    level = "" if alpha == 0.05 else f" at alpha = {float(alpha)!r}"
    return (f"Create {n} topics: this guarantees {percent_text(beta)} power"
            f"{level} {separator.join(clauses)}.")
