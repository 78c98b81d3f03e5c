"""What the bootstrap interval of n (:mod:`topicsetsize.estimates.uncertainty`) covers on real
scores with few past topics, measured (``tools/interval_coverage.py``; docs/formulas.md §10),
and the note that says so under an interval."""

from __future__ import annotations

__all__ = ["FEW_TOPICS", "MEASURED_HIGH_MISSES", "few_topics_note"]

#: Past topics below which a 95% interval of n is said to run low (:func:`few_topics_note`).
FEW_TOPICS = 50


#: How often the whole collection's n lay above the upper end of the 95% interval of n from k
#: of its topics (k, share): random subsets of the 249 topics of TREC 2004 Robust AP, its first 20
#: runs and all 110, 400 subsets each (``tools/interval_coverage.py``; docs/formulas.md §10).
MEASURED_HIGH_MISSES = ((10, "12-15%"), (20, "10-11%"), (30, "6-7%"), (48, "5-6%"))


def few_topics_note(topics: int) -> str:
    """What a 95% interval of n from fewer than :data:`FEW_TOPICS` past topics leaves out, in
    one line ("" from there on): on real scores its upper end is too low more often than the
    2.5% it stands for, by :data:`MEASURED_HIGH_MISSES` at the measured size nearest below.

    >>> few_topics_note(100)
    ''
    >>> print(few_topics_note(30))
    with 30 past topics the upper end is likely too low: on 30-topic subsets of TREC 2004 Robust
    AP (400 of each size) the whole collection's n lay above it 6-7% of the time, not 2.5% (fewer
    topics, more often; docs/formulas.md, section 10); budget above it where running short would
    hurt
    """
    if topics >= FEW_TOPICS:
        return ""
    k, share = max((m for m in MEASURED_HIGH_MISSES if m[0] <= topics),
                   default=MEASURED_HIGH_MISSES[0])
    return (f"with {topics} past topics the upper end is likely too low: on {k}-topic subsets "
            f"of TREC 2004 Robust AP (400 of each size) the whole collection's n lay above it "
            f"{share} of the time, "
            "not 2.5% (fewer topics, more often; docs/formulas.md, section 10); budget above it "
            "where running short would hurt")
