"""A measure's rank cutoff against the depths of a pool depth study.

Below a measure's cutoff k (P@10, nDCG@10, ...), a depth-pd pool judges a run's ranks pd + 1
to k only where another run ranks the same documents within pd; elsewhere they count as
non-relevant. The measure then shrinks toward 0 as the pool gets shallower, and its V_E and
the n sized on it follow the pool's cut, not the systems: for P@10 on the bundled CLEF runs a
shallower pool seems to need *fewer* topics (82 at pd = 3 against 197 at pd = 10), for nDCG@10
on the full runs more (217 at pd = 5 against 158 at pd = 20). Condensed lists (Sakai, SIGIR
2007), which leave the unjudged documents out, do not shrink so.
"""

from __future__ import annotations

import warnings

__all__ = ["ShallowerThanCutoffWarning", "measure_cutoff", "warn_shallower_than_cutoff"]


class ShallowerThanCutoffWarning(UserWarning):
    """Pool depths below the measure's rank cutoff (without condensed lists)."""


def measure_cutoff(measure) -> int | None:
    """The rank cutoff k of an ir_measures measure (``P@10``: 10), None where it has none (AP).

    >>> import ir_measures
    >>> measure_cutoff(ir_measures.parse_measure("nDCG@10")), measure_cutoff(
    ...     ir_measures.parse_measure("AP"))
    (10, None)
    """
    cutoff = getattr(measure, "params", {}).get("cutoff")
    return int(cutoff) if cutoff is not None else None


def warn_shallower_than_cutoff(depths, measure, condensed: bool) -> None:
    """One :class:`ShallowerThanCutoffWarning` naming the ``depths`` below ``measure``'s cutoff
    (none with ``condensed`` lists).

    >>> import ir_measures
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_shallower_than_cutoff([20, 10, 5, 3], ir_measures.parse_measure("P@10"), False)
    >>> str(caught[0].message)[:66]
    'P@10 at pd=5, pd=3: below its cutoff 10, ranks pd + 1 to 10 of a r'
    """
    cutoff = measure_cutoff(measure)
    below = [d for d in depths if cutoff is not None and d < cutoff]
    if below and not condensed:
        warnings.warn(ShallowerThanCutoffWarning(
            f"{measure} at {', '.join(f'pd={d}' for d in below)}: below its cutoff {cutoff}, "
            f"ranks pd + 1 to {cutoff} of a run are judged only where another run pools them, "
            "and count as non-relevant elsewhere, so the measure shrinks toward 0 with the depth "
            "and its V_E and n there (fewer topics or more) measure the pool's cut, not the "
            f"systems: compare depths from {cutoff} on, or use condensed lists "
            "(--condensed)"), stacklevel=3)
