"""A sheet's status while every input is in range (a calculator's, the Decide sheet's): "OK",
with the engine's scale note where its difference and its variance look as if given on
different scales of scores (:mod:`topicsetsize.designs.scales`: the same bounds and ratios,
declared there once)."""

from __future__ import annotations

from topicsetsize.designs.detectable import POWERLESS_WITHIN
from topicsetsize.designs.scales import (
    LARGE_RATIO,
    SCORES_MAX,
    SMALL_RATIO,
    UNITS_MAX,
    scale_pair,
)

from ...content.inputs import Input
from ...spreadsheet.layout import STATUS_OK

__all__ = ["ok_status", "TINY_BETA"]

#: Below this β a calculator's status notes that its powers lack the digits for n at large n.
TINY_BETA = 1e-6


def ok_status(inputs: tuple[Input, ...], used: dict[str, str]) -> str:
    """The status formula (without ``=``) of a sheet with ``inputs`` while they are in range, on
    the values the formulas use (``used``, :class:`~generator.spreadsheet.layout.Inputs`):
    :data:`STATUS_OK`, or "OK, but note: ..." where a variance beyond what scores in [0, 1] can
    give meets a difference within its own bound and below ``SMALL_RATIO`` of the scores'
    standard deviation, or the reverse above ``LARGE_RATIO`` of it (as
    :func:`topicsetsize.designs.scales.scale_note`). The note names the inputs by their
    symbols; their values are in the calculator's inputs line above.

    >>> from topicsetsize.generator.content.calculators import calculators
    >>> anova = next(c for c in calculators() if c.key == "anova")
    >>> text = ok_status(anova.inputs, {"min_d": "B5", "variance": "B6"})
    >>> text.startswith('IF(AND(B6>1,B6<=100000000,B5<=1,B5<0.1*SQRT(B6)),"OK, but note: σ̂² > 1 is')
    True
    >>> ok_status(anova.inputs, {"alpha": "B3"})
    '"OK: every input is in range."'
    """
    if "alpha" not in used or "beta" not in used:
        return _scale_status(inputs, used, f'"{STATUS_OK}"')
    # a power asked for that is not above α: every test has it (the Excel functions refuse it);
    # a β so small that the sheet's powers lack the digits at large n (a parity review,
    # 2026-12-07: β = 1e-9, the paired t-test's n 70,362,332 in LibreOffice, 70,362,357 exact),
    # noted where no scale note is: a difference on another scale than its variance moves n by
    # orders of magnitude, the digits by some topics
    a, b = used["alpha"], used["beta"]
    tiny = (f'IF({b}<{TINY_BETA:g},"OK, but note: β < {TINY_BETA:.6f} needs more digits than '
            f'the sheet keeps: a large n may be some topics low.","{STATUS_OK}")')
    return (f'IF(1-{b}<={a}+{POWERLESS_WITHIN:g},"Check the inputs: 1 − β = "&(1-{b})&" is not '
            f'above α = "&{a}&": every test has that power, whatever the scores.",'
            f'{_scale_status(inputs, used, tiny)})')


def _scale_status(inputs: tuple[Input, ...], used: dict[str, str], otherwise: str) -> str:
    """:func:`ok_status` but for the power asked for: the scale note, or ``otherwise`` (a
    formula's string or expression)."""
    pair = scale_pair(used)
    if pair is None:
        return otherwise
    d_key, v_key = pair
    symbol = {item.key: item.symbol for item in inputs}
    d, v, ds, vs = used[d_key], used[v_key], symbol[d_key], symbol[v_key]
    d_max, v_max = SCORES_MAX[d_key], SCORES_MAX[v_key]
    # one line within the page, beside the inputs (their values are in the inputs line)
    beyond = (f"OK, but note: {vs} > {v_max:g} is beyond scores in [0, 1]: give {ds} on its "
              f"scale (in percent, 10 for 0.1).")
    reverse = (f"OK, but note: {ds} > {d_max:g} while {vs} fits scores in [0, 1]: give {ds} on "
               f"their scale (0.1 for 10 points).")
    slip_v, slip_d = v_max * UNITS_MAX ** 2, d_max * UNITS_MAX     # beyond: not a slip of units
    return (f'IF(AND({v}>{v_max:g},{v}<={slip_v:.0f},{d}<={d_max:g},{d}<{SMALL_RATIO:g}*SQRT({v})),'
            f'{_literal(beyond)},IF(AND({v}<={v_max:g},{d}>{d_max:g},{d}<={slip_d:.0f},'
            f'{d}>{LARGE_RATIO:g}*SQRT({v})),{_literal(reverse)},{otherwise}))')


def _literal(text: str, most: int = 200) -> str:
    """``text`` as a formula's string, in pieces joined by & (Excel takes at most 255
    characters in one string constant).

    >>> _literal("abcde", 2)
    '"ab"&"cd"&"e"'
    """
    return "&".join(f'"{text[i:i + most]}"' for i in range(0, len(text), most))
