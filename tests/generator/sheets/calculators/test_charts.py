"""The calculators' charts: what their axes say."""

from __future__ import annotations

import openpyxl
import pytest
from topicsetsize.generator.content.calculators import calculators


@pytest.mark.slow
def test_an_effect_or_width_axis_labels_small_values_as_they_are(built):
    """A review, 2026-12-08: with δ = 1e-4 the CI sheet's charts labelled every tick of the
    width axis "0.00" (a fixed two-decimal format); an effect or a width axis now takes the
    spreadsheet's General format, and only a power axis (0 to 1) keeps two decimals."""
    wb = openpyxl.load_workbook(built.source["ntcir"])
    seen = 0
    for calc in calculators():
        for chart in wb[calc.sheet]._charts:
            for axis in (chart.x_axis, chart.y_axis):
                title = "".join(r.t for p in axis.title.tx.rich.p for r in (p.r or []))
                fmt = axis.numFmt.formatCode if axis.numFmt is not None else None
                if title == "power":
                    assert fmt == "0.00", (calc.sheet, title)
                elif "topics" not in title:          # an effect or a width
                    assert fmt == "General", (calc.sheet, title)
                    seen += 1
    # each sheet's n chart's effect, and each CI sheet's width against n
    assert seen == len(calculators()) + sum(c.builder == "width" for c in calculators())
