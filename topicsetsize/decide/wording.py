"""The recommendation in words: "Create n topics: this guarantees 80% power for ..." (AIRS 2016,
Section 4), written from the table :func:`topicsetsize.decide.recommendation.recommend` computes;
and what the exact noncentral F says of a legacy recommendation or budget plan.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..params import N_MAX

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["sentence", "clause", "min_d_text", "documents_text", "whole_documents", "budget_text",
           "ROUNDED_UP", "legacy_note", "budget_note", "ESTIMATED_VARIANCE",
           "ESTIMATED_VARIANCE2", "ESTIMATED_VARIANCES"]

#: The searches' limit as the notes write it.
_LIMIT = f"{N_MAX:,}"

#: Under a recommendation or a guarantee: its power holds at the variance given, which past
#: topics only estimate (TREC 2010 Web AP: `topicsetsize variance` gives V_E .0084 [.0060,
#: .0114] with its default seed; the exact anova_power at n = 28, m = 10, minD = .1 is .940,
#: .815, .657: a review found the note's .0059 to .0113, of --seed 1, beside the command's).
ESTIMATED_VARIANCE = (
    "the power holds at the variance given; one estimated from past topics is uncertain (TREC "
    "2010 Web AP, 48 topics: V_E .0084, 95% interval .0060 to .0114; the 28 topics that m = 10, "
    "minD = .1 need at .0084 have power .94 to .66 across it): `topicsetsize variance FILE` gives "
    "the interval, across which an n moves about in proportion to the variance")
#: The same for the two-way design, at V_E2 and its n (a review, 2026-12-08: the one-way
#: figures were quoted under two-way answers).
ESTIMATED_VARIANCE2 = (
    "the power holds at the variance given; one estimated from past topics is uncertain (TREC "
    "2010 Web AP, 48 topics: V_E2 .0045, 95% interval .0035 to .0055; the 16 topics that the "
    "two-way ANOVA with m = 10, minD = .1 needs at .0045 have power .93 to .73 across it): "
    "`topicsetsize variance FILE` gives the interval, across which an n moves about in "
    "proportion to the variance")
#: The note of each design a decision sizes, by its key (``decide.anova_designs.DESIGN_METHODS``).
ESTIMATED_VARIANCES = {"anova": ESTIMATED_VARIANCE, "anova2": ESTIMATED_VARIANCE2}


def min_d_text(x: float) -> str:
    """minD as the papers print it: two decimals, else exactly as given (0.10, 0.025, 0.1234564).

    The minD is the user's own requirement: it is never shown rounded (rounded down, the
    sentence would promise more than the design gives).

    >>> min_d_text(0.1), min_d_text(0.025), min_d_text(0.1234564)
    ('0.10', '0.025', '0.1234564')
    """
    return f"{x:.2f}" if round(x, 2) == x else repr(float(x))


def documents_text(x: float) -> str:
    """A cost in documents, with thousands separators, rounded up to a whole document
    (:data:`ROUNDED_UP`).

    A cost of n × a mean number of documents per topic is seldom whole. Rounded to the nearest
    document, a cost just over a budget read as the budget itself beside "over the budget"
    (141 × 66.4 = 9,362.4 against a budget of 9,362); rounded up, it never reads below what is
    judged, and against a whole budget it is within it exactly where the cost is.

    >>> documents_text(120428.0), documents_text(9362.4), documents_text(9361.6)
    ('120,428', '9,363', '9,362')
    """
    return f"{whole_documents(x):,}"


def whole_documents(x):
    """A cost rounded up to a whole document, after rounding it to 6 decimals, so that a product
    that is whole but for its last bits stays that whole number (50 × 66.4 is
    3320.0000000000005). A float or an array; the Budget sheet's ROUNDUP(ROUND(cost, 6), 0) is
    the same rule, and gives the same in Excel's arithmetic (the formulas package, whose
    ROUNDUP of 3320.0000000000005 alone is 3321) as in LibreOffice.

    >>> whole_documents(141 * 66.4), whole_documents(50 * 66.4), 50 * 66.4
    (9363, 3320, 3320.0000000000005)
    """
    import numpy as np

    whole = np.ceil(np.round(x, 6))
    return int(whole) if np.ndim(whole) == 0 else whole


def whole_costs(frame):
    """``frame`` with its ``cost`` and ``cost high`` columns (those it has) rounded up to whole
    documents (:func:`whole_documents`), as the text shows them: a CSV then says the cost the
    text says (a review, 2026-12-07: pool-depth --csv gave 15543.466666666667 where the text
    gave 15,544).

    >>> import pandas as pd
    >>> whole_costs(pd.DataFrame({"n": [3], "cost": [15543.4666], "cost high": [9e99]}))
       n     cost  cost high
    0  3  15544.0   9.000000e+99
    """
    return frame.assign(**{c: whole_documents(frame[c].to_numpy(float))
                           for c in ("cost", "cost high") if c in frame})


def budget_text(budget: float) -> str:
    """A budget in documents as given, with thousands separators (never rounded: a budget
    rounded up would read as more than there is).

    >>> budget_text(9362.0), budget_text(9362.5)
    ('9,362', '9,362.5')
    """
    return f"{budget:,.0f}" if float(budget).is_integer() else f"{budget:,}"


#: What the tables' titles say of their costs (:func:`documents_text`).
ROUNDED_UP = "rounded up to a whole document"


def _comparing(row) -> str:
    """A requirement's comparison: "for [label, ]comparing any m = 2 systems with a minD of
    0.10"."""
    who = "for " if row.label is None else f"for {row.label}, "
    return f"{who}comparing any m = {row.m} systems with a minD of {min_d_text(row.min_d)}"


#: How a legacy size or power that the exact test does not bear out is qualified in a sentence.
_BY_LEGACY = "by the legacy approximation"


def clause(row, recommended: int, exact=None) -> str:
    """One requirement in the papers' words; the label (plain text) names the measure.

    ``exact`` is the requirement's exact n, given with a legacy recommendation: where it is
    above the legacy n, the clause says both ("93 topics are sufficient by the legacy
    approximation; 96 by the exact test"), so that the clause copied alone stays true.
    """
    tail = (f"exactly {row.n} topics are needed" if row.n == recommended
            else f"{row.n} topics are sufficient")
    if exact is not None and exact > row.n:
        tail += (f" {_BY_LEGACY}; {int(exact)} by the exact test" if math.isfinite(exact) else
                 f" {_BY_LEGACY}; no n up to {_LIMIT} by the exact test")
    return f"{_comparing(row)} ({tail})"


def sentence(n: int, frame: pd.DataFrame, beta: float, alpha: float = 0.05, exact_n=None,
             short: bool = False, design: str = "anova") -> str:
    """"Create n topics: this guarantees 80% power for A, and for B." (AIRS 2016, Section 4).

    At the papers' α = .05 the sentence is theirs word for word (with the exact method, or where
    the legacy sizes are the exact ones; else qualified, below); at another level it says so
    ("80% power at alpha = 0.01"). The power is 100(1 − β)% as
    :func:`~topicsetsize.decide.guarantee.percent_text` writes it, never rounded to 100%
    (β = 1e-7: "99.99999% power"). With a legacy recommendation, ``exact_n`` (per row of
    ``frame``) and ``short`` (whether n falls short of 1 − β under the exact test for some
    requirement) qualify what the exact test does not bear out: the guarantee ("80% power by
    the legacy approximation") and each size below its exact n (:func:`clause`). A sentence
    copied alone into a proposal then claims nothing that the exact test denies. With
    ``design="anova2"`` the guarantee names its test ("80% power in a two-way ANOVA (topics as
    blocks)"): the papers' sentence is the one-way ANOVA's.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"label": [None], "m": [2], "min_d": [0.1], "n": [77]})
    >>> print(sentence(80, frame, 0.2, exact_n=[80]))
    Create 80 topics: this guarantees 80% power for comparing any m = 2 systems with a minD of
    0.10 (77 topics are sufficient by the legacy approximation; 80 by the exact test).
    """
    # guarantee.py loads numpy, pandas and the designs: imported where the sentence is written
    from .guarantee import percent_text

    exact_n = [None] * len(frame) if exact_n is None else list(exact_n)
    clauses = [clause(row, n, exact) for row, exact in zip(frame.itertuples(), exact_n)]
    if len(clauses) > 1:
        clauses[-1] = "and " + clauses[-1]
    # A labelled clause has a comma of its own: then the clauses are separated by semicolons.
    separator = "; " if frame["label"].notna().any() else ", "
    level = "" if alpha == 0.05 else f" at alpha = {float(alpha)!r}"
    legacy = f" {_BY_LEGACY}" if short else ""
    test = " in a two-way ANOVA (topics as blocks)" if design == "anova2" else ""
    return (f"Create {n} topics: this guarantees {percent_text(beta)} power{level}{legacy}{test} "
            f"{separator.join(clauses)}.")


def legacy_note(n: int, frame: pd.DataFrame, exact_n, exact_power, beta: float,
                round_to: int) -> str:
    """What the exact noncentral F says of a legacy recommendation, in one sentence ("" where
    the legacy sizes are the exact ones).

    The legacy ANOVA approximation under-sizes n (AIRS 2016, Table 2: 2,301 legacy topics
    against 2,360 exact): where the recommended n itself falls short of 1 − β under the exact
    power, the sentence's guarantee does not hold, and the note says so with the exact
    recommendation; where only a requirement's own "n topics are sufficient" does, it gives
    the exact sizes. ``exact_n`` and ``exact_power`` are per row of ``frame`` (the exact n and
    the exact power at ``n``).
    """
    from .guarantee import percent_text

    def floor_text(p) -> str:       # rounded down: a power never shown above what it is
        return f"{math.floor(float(p) * 1e4) / 1e4:.4f}"

    rows = list(frame.itertuples())
    short = [i for i, p in enumerate(exact_power) if p < 1.0 - beta]
    if short:
        first = rows[short[0]]
        more = ("" if len(short) == 1 else
                f" (and {len(short) - 1} more requirement{'s' if len(short) > 2 else ''})")
        top = max(exact_n)
        exact = (f"recommends {-(-int(top) // round_to) * round_to} topics" if math.isfinite(top)
                 else f"finds no n up to the search limit of {_LIMIT} topics")
        return (f"The legacy approximation under-sizes n: under the exact noncentral F, {n} "
                f"topics give a power of only {floor_text(exact_power[short[0]])} "
                f"{_comparing(first)}{more}, below {percent_text(beta)}; the exact method "
                f"{exact}.")
    under = [i for i, row in enumerate(rows) if exact_n[i] > row.n]
    if not under:
        return ""
    names = " and ".join(str(rows[i].Index) for i in under)
    sizes = " and ".join(f"{int(exact_n[i])} (not {rows[i].n})" for i in under)   # finite:
    # an exact n beyond the limit leaves the recommended n short, said above
    which = f"requirement {names} needs" if len(under) == 1 else f"requirements {names} need"
    return (f"Under the exact noncentral F, the legacy sizes fall short of {percent_text(beta)} "
            f"power: {which} {sizes} topics; the recommended {n} topics meet every requirement "
            "under both.")


def budget_note(depths, n, exact, docs, beta: float, first=None, budget=None) -> str:
    """What the exact noncentral F says of a legacy budget plan (:func:`~.budget.budget_plan`), in
    one sentence naming the depths whose legacy n is below the exact n (inf: beyond the search
    limit; "" where none is): the depth ``first`` (the cheapest within the budget) where it is
    one of them, else the cheapest of them; with a ``budget``, whether the exact cost there is
    over it.

    >>> import numpy as np
    >>> print(budget_note([10, 20, 30], np.array([188, 157, 150]), np.array([189, 157, 151]),
    ...                   np.array([50.0, 90.0, 99.5]), 0.2))
    Under the exact noncentral F, the legacy n falls short of 80% power at pd=10: it needs 189
    topics (not 188), cost 9,450 (not 9,400), and at 1 more depth; the exact method plans with
    the exact n.
    >>> print(budget_note([10], np.array([188]), np.array([189]), np.array([50.0]), 0.2,
    ...                   budget=9420))
    Under the exact noncentral F, the legacy n falls short of 80% power at pd=10: it needs 189
    topics (not 188), cost 9,450 (not 9,400), over the budget of 9,420; the exact method plans
    with the exact n.
    """
    from .guarantee import percent_text

    short = [k for k in range(len(depths)) if exact[k] > n[k]]
    if not short:
        return ""
    k = next((j for j in short if depths[j] == first),
             min(short, key=lambda j: (n[j] * docs[j], -depths[j])))
    more = ("" if len(short) == 1 else
            f", and at {len(short) - 1} more depth{'s' if len(short) > 2 else ''}")
    over = (f", over the budget of {budget_text(budget)}"
            if budget is not None and whole_documents(exact[k] * docs[k]) > budget else "")
    needs = (f"it needs {int(exact[k]):,} topics (not {int(n[k]):,}), cost "
             f"{documents_text(exact[k] * docs[k])} (not {documents_text(n[k] * docs[k])}){over}"
             if math.isfinite(exact[k])
             else f"no n up to the search limit of {_LIMIT} topics reaches it (not "
                  f"{int(n[k]):,})")
    return (f"Under the exact noncentral F, the legacy n falls short of {percent_text(beta)} "
            f"power at pd={depths[k]}: {needs}{more}; the exact method plans with the exact n.")
