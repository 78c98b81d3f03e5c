"""The calculator sheets (ANOVA, TTEST, CI, ANOVA2, TTEST2, CI2: one per declared calculator of
:mod:`topicsetsize.generator.content.calculators`, written by the builder of its kind, from
:data:`BUILDERS`): live formulas that recalculate in any spreadsheet.

Each sheet has its inputs at the top (yellow, validated, with workbook-level names) and a
status cell that names the first bad input; then the answers (the required n of the legacy and
the exact method, with a warning where they differ, and the power and the minimum detectable
difference at "your n"); the power at the answers and for n around them; a small chart of the
power against n; and below, grouped, the workings: every computation, written out row by row.

Nothing in the workings reads an input directly: each formula reads the input's *used* value,
which falls back to the starting value while the input is blank, text or out of range, so no
formula ever shows an error value. The answers show "see Status" meanwhile (table cells "—").

The summary is written first and the workings below it; the summary cells that show a result
of the workings are filled in once the workings are written (:meth:`Cursor.resolve`).
"""

from __future__ import annotations

from ...content.calculators import calculators, named_answers
from .ci_width_sheet import add_ci_width_sheet
from .f_test_sheet import add_f_test_sheet
from .sheet import (
    caution,
    display_columns,
    grey_when_bad,
    guarded_block,
    helper_sheet,
    measure_list,
    start_sheet,
)
from .t_test_sheet import add_t_test_sheet

__all__ = ["add_calculators", "measure_list", "BUILDERS", "sheets", "named_answers",
           "start_sheet", "grey_when_bad", "display_columns", "guarded_block", "helper_sheet",
           "caution"]

#: The sheet builder of each kind of design (a declaration's ``builder``).
BUILDERS = {"F": add_f_test_sheet, "t": add_t_test_sheet, "width": add_ci_width_sheet}


def sheets() -> tuple[str, ...]:
    """The calculator sheets, in workbook order (one per declared calculator).

    >>> sheets()
    ('ANOVA', 'TTEST', 'CI', 'ANOVA2', 'TTEST2', 'CI2')
    """
    return tuple(c.sheet for c in calculators())


def add_calculators(wb, values: dict, k_range: str, measures: str | None = None) -> None:
    """Add the calculator sheets (one per declared calculator, :func:`sheets`) to ``wb``.

    ``values`` maps a calculator's key ("anova", "ttest", ...) to the starting values of its
    inputs (missing keys take the declaration's defaults); ``k_range`` is the absolute
    reference of the helper range k = 0..POISSON_TERMS−1. With ``measures`` (the prefix of
    the names ``{measures}_names`` / ``{measures}_variances`` from :func:`measure_list`),
    each calculator of a one-way variance gets a drop-down that takes the variance from a
    measure.
    """
    for calc in calculators():
        BUILDERS[calc.builder](wb, calc, values.get(calc.key, {}), k_range, measures)
