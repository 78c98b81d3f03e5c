"""What the bootstrap interval of n (:mod:`topicsetsize.estimates.uncertainty`) covers on real
scores with few past topics, measured (``tools/interval_coverage.py``; docs/formulas.md §10),
and the note that says so under an interval."""

from __future__ import annotations

__all__ = ["FEW_TOPICS", "MEASURED_HIGH_MISSES", "few_topics_note"]

#: Past topics below which a 95% interval of n is said to run low (:func:`few_topics_note`), by
#: the residual variance it resamples: V_E (one-way) or V_E2 (two-way), whose interval still
#: missed above 8% of the time at 48 topics and 3.5% at 75 (the one-way one 1.5%).
FEW_TOPICS = {"one-way": 50, "two-way": 75}


#: How often the whole collection's n lay above the upper end of the 95% interval of n from k
#: of its topics (k, share), by residual variance (the exact one-way n at V_E, the two-way n at
#: V_E2; m = 10, minD = .1): random subsets of the 249 topics of TREC 2004 Robust AP, its first
#: 20 runs and all 110, 400 subsets each (``tools/interval_coverage.py [--design anova2]``, seed
#: 2026; docs/formulas.md §10).
MEASURED_HIGH_MISSES = {
    "one-way": ((10, "12-15%"), (20, "10-11%"), (30, "6-7%"), (48, "5-6%")),
    "two-way": ((10, "16-18%"), (20, "10-11%"), (30, "8-10%"), (48, "8%")),
}


def few_topics_note(topics: int, estimators=("one-way", "two-way")) -> str:
    """What a 95% interval of n from fewer than :data:`FEW_TOPICS` past topics leaves out, in
    one line ("" from there on): on real scores its upper end is too low more often than the
    2.5% it stands for, by :data:`MEASURED_HIGH_MISSES` at the measured size nearest below.
    ``estimators``: the residual variances of the intervals it stands under (one-way, two-way,
    or both, where a table has both).

    >>> few_topics_note(100)
    ''
    >>> print(few_topics_note(30))
    with 30 past topics the upper end is likely too low: on 30-topic subsets of TREC 2004 Robust
    AP (400 of each size) the whole collection's n lay above it 6-7% of the time (the two-way n:
    8-10%), not 2.5% (fewer topics, more often; docs/formulas.md, section 10); budget above it
    where running short would hurt
    >>> print(few_topics_note(60))
    with 60 past topics the upper end of a two-way interval is likely too low: on 48-topic subsets
    of TREC 2004 Robust AP (400 of each size) the whole collection's two-way n lay above it 8% of
    the time, not 2.5% (fewer topics, more often; docs/formulas.md, section 10); budget above it
    where running short would hurt
    """
    low = [e for e in estimators if topics < FEW_TOPICS[e]]
    if not low:
        return ""
    # the same sizes were measured for both: one k
    k, _ = max((m for m in MEASURED_HIGH_MISSES[low[0]] if m[0] <= topics),
               default=MEASURED_HIGH_MISSES[low[0]][0])
    share = {e: dict(MEASURED_HIGH_MISSES[e])[k] for e in low}
    upper = ("the upper end" if len(low) == len(estimators)
             else "the upper end of a two-way interval")
    whose = "n" if low[0] == "one-way" else "two-way n"
    also = f" (the two-way n: {share['two-way']})" if len(low) == 2 else ""
    return (f"with {topics} past topics {upper} is likely too low: on {k}-topic subsets "
            f"of TREC 2004 Robust AP (400 of each size) the whole collection's {whose} lay above "
            f"it {share[low[0]]} of the time{also}, "
            "not 2.5% (fewer topics, more often; docs/formulas.md, section 10); budget above it "
            "where running short would hurt")
