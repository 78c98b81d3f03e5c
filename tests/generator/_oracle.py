"""The test oracle: the calculators' answers at a workbook's starting inputs, computed with the
engine (an independent check of the values the formulas evaluate to).

Which answers, and which engine function gives each, come from the calculators' declarations
(:data:`topicsetsize.generator.content.calculators.CALCULATORS`: an answer's ``engine`` role and
method); the arguments are the design's inputs as the sheet starts them. Only names whose value
the engine gives exactly as the sheet shows it; the rest are computed on opening.
"""

from __future__ import annotations

import math

from topicsetsize.generator.content.calculators import Answer, calculators
from topicsetsize.generator.spreadsheet.layout import STATUS_OK, TOO_LARGE

import topicsetsize as tss
from topicsetsize.errors import InputError

NOT_REACHED = "not reached at this n"


class Noted(str):
    """The start of a status that says OK with the scale note (the engine's
    ``topicsetsize.designs.scales.scale_note`` is not None at the inputs): compare the sheet's
    status with ``startswith``, not for equality."""


def status_value(calc, given: dict, inputs=None) -> str:
    """The status of a calculator (or of a sheet with ``inputs``) whose inputs are in range:
    :data:`STATUS_OK`, or :class:`Noted` where the engine notes a difference and a variance on
    different scales."""
    from topicsetsize.designs.detectable import powerless
    from topicsetsize.designs.scales import scale_note

    if "beta" in given and powerless(given["alpha"], given["beta"]):     # refused (2026-12-07)
        return Noted("Check the inputs: 1 − β = ")
    from topicsetsize.generator.sheets.calculators.scale_note import TINY_BETA

    if "beta" in given and given["beta"] < TINY_BETA:        # the sheet's digits (2026-12-07)
        return Noted("OK, but note: β < 0.000001 needs more digits")
    noted = scale_note({i.key: given[i.key] for i in inputs or calc.inputs}) is not None
    return Noted("OK, but note: ") if noted else STATUS_OK


class RoundedUp(float):
    """An engine value that the sheet shows rounded up (a minimum detectable effect, to 6
    decimals): compare with ``tests.generator.conftest.rounded_up``, not for equality."""


def _input(wb, name):
    sheet, coord = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][coord.replace("$", "")].value


def answer_values(wb) -> dict[str, object]:
    """{defined name: engine value} for the answers of every calculator sheet of ``wb``."""
    out: dict[str, object] = {}
    for calc in calculators():
        if calc.sheet not in wb.sheetnames:
            continue
        given = {i.key: _input(wb, i.name) for i in (*calc.inputs, *calc.second_style)}
        for answer in calc.answers:
            if answer.suffix == "status":
                out[calc.name("status")] = status_value(calc, given)
            elif answer.engine:
                out[calc.name(answer.suffix)] = engine_value(calc.design, answer, given)
    return out


def engine_value(design, answer: Answer, given: dict):
    """The value of ``answer`` from the engine's function of its role, at the inputs ``given``
    ({parameter: value}, with ``n`` the sheet's "your n")."""
    fn = design.function(answer.engine)
    method = {"method": answer.method} if "legacy" in design.methods else {}
    if answer.engine == "n":
        return _n(fn, *(given[k] for k in design.inputs), **method)
    if answer.engine == "n_effect":
        variance = design.inputs[3]
        effect = given.get(design.effect_size) or given[design.effect] / given[variance] ** 0.5
        return _n(fn, given["alpha"], given["beta"], effect, **method)
    if answer.engine == "power":
        args = {k: given[k] for k in design.inputs
                if k != "beta" and not (design.criterion == "width" and k == design.effect)}
        value = fn(given["n"], **args, **method)
        return "undefined" if math.isnan(value) else value
    args = {k: given[k] for k in design.inputs if k != design.effect}
    try:
        return RoundedUp(fn(given["n"], **args, **method))
    except InputError:
        return NOT_REACHED


def _n(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except tss.SearchLimitError:
        return TOO_LARGE
