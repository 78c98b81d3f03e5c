"""A design's standard Excel functions, built from its declaration in the design registry.

A design declares the Excel name of each of its roles (``Design.excel``: ``"n"`` -> ``TSS_ANOVA``,
``"power"`` -> ``TSS_POWER_ANOVA``, ...). :func:`design_functions` makes one Excel function per
declared role, with

* its **arguments**: for ``n``, the design's inputs in their declared order; for the other roles,
  the required arguments of the engine function of that role, in its order; each under its
  Excel name (:data:`~xladdin._register.EXCEL_NAMES`: ``min_d`` -> ``minD``, ``variance`` ->
  ``var``), then an optional ``method`` where the design has more than one method (blank: the
  design's first method);
* its **docs**: a one-paragraph description written from the declaration (name, criterion,
  the design's own words for its inputs) and every argument's doc from
  :data:`~xladdin._register.ARG_DOCS`;
* a real **signature** (``__signature__``), which is what xlwings reads (``inspect.signature``)
  both in the classic add-in (``xlwings.udfs.xlfunc``, the VBA declarations and
  ``MacroOptions``) and in xlwings Lite / Server (``custom_functions_meta``); no code is
  generated from text.

Each argument is checked by the parameter registry (a one-line :class:`~topicsetsize.InputError`,
reported by :func:`~xladdin._register.excel_function`); a range argument (``ms``, ``minDs``) is a
single row or column; the result is a plain number, or a block with a header row and column for
a table.

>>> from topicsetsize.designs.registry import DESIGNS
>>> functions = design_functions(DESIGNS["anova"])
>>> list(functions)
['TSS_ANOVA', 'TSS_POWER_ANOVA', 'TSS_MIND_ANOVA', 'TSS_TABLE_ANOVA']
>>> import inspect
>>> str(inspect.signature(functions["TSS_POWER_ANOVA"]))
'(n, m, minD, var, alpha, method=None)'
>>> functions["TSS_ANOVA"](0.05, 0.2, 0.1, 0.0601, 10.0)        # AIRS 2016 Table 2, part I
188
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from topicsetsize.designs.registry import ROLES, Design
from topicsetsize.params import PARAMS

from ._convert import method, number, plain, refuse_legacy_zero, refuse_powerless, table, vector
from ._register import ARG_DOCS, RANGE_ARGS, excel_function, excel_name

__all__ = ["design_functions", "table_corner"]

#: The description of each role, by criterion, over the pieces :func:`_description` fills in.
_DESCRIPTIONS = {
    ("n", "power"): "{name}: topics n{ps} that reach power 1-beta at level alpha for the "
                    "{effect}{given}.",
    ("n", "width"): "{name}: topics n{ps} for which the expected width of the 100(1-alpha)% CI "
                    "is at most the {effect}{given}.",
    ("power", "power"): "{name}: the power with n topics{ps} to detect the {effect} at level "
                        "alpha{given}.",
    ("power", "width"): "{name}: the expected width of the 100(1-alpha)% CI with n topics{ps}"
                        "{given}.",
    ("min_effect", "power"): "{name}: the {effect} with n topics{ps}, at level alpha with power "
                             "1-beta{given}.",
    ("table", "power"): "{name}: a table of topic set sizes n for power 1-beta at level "
                        "alpha{given}, one row per {rows}, one column per {columns}, with a "
                        "header row and a header column.",
    ("n_effect", "power"): "{name}: topics n{ps} that reach power 1-beta at level alpha for the "
                           "{effect}.",
}

_REQUIRED = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
             inspect.Parameter.KEYWORD_ONLY)


def _singular(param: str) -> str | None:
    """The parameter a list argument holds values of (``ms`` -> ``m``), or None."""
    return param[:-1] if param.endswith("s") and param[:-1] in PARAMS else None


def _arguments(design: Design, role: str) -> list[str]:
    """The engine arguments of the Excel function of ``role``, in order, without ``method``."""
    if role == "n":
        return list(design.inputs)
    parameters = inspect.signature(design.function(role)).parameters.values()
    return [p.name for p in parameters
            if p.name != "method" and p.kind in _REQUIRED and p.default is p.empty]


def table_corner(design: Design) -> str:
    """The top-left cell of a design's table block: its rows, then its columns.

    >>> from topicsetsize.designs.registry import DESIGNS
    >>> table_corner(DESIGNS["anova"])
    'm \\\\ minD'
    """
    return f"{excel_name(design.table_rows)} \\ {excel_name(design.effect)}"


def _description(design: Design, role: str, arguments: list[str]) -> str:
    """The function's description (one paragraph), written from the declaration."""
    def said(param: str) -> str:            # the design's words for it, without an example
        words = (design.helps.get(param) or PARAMS[param].doc).split(", e.g.")[0]
        return f"{words} {excel_name(param)}"

    effect = design.effect_size if role == "n_effect" else design.effect
    lists = [p for p in arguments if _singular(p)]
    others = [p for p in arguments if p not in ("n", "alpha", "beta", effect, *lists)]
    pieces = {
        "name": design.name, "ps": " per system" if design.per_system else "",
        "effect": said(effect),
        "given": ", given the " + " and the ".join(said(p) for p in others) if others else "",
        "rows": f"{excel_name(design.table_rows)} in {excel_name(design.table_rows + 's')}"
                if role == "table" else "",
        "columns": f"{excel_name(effect)} in {excel_name(effect + 's')}",
    }
    key = (role, design.criterion)
    if key not in _DESCRIPTIONS:
        raise ValueError(f"design {design.key!r}: no Excel description for its {role} function "
                         f"with criterion {design.criterion!r}")
    return _DESCRIPTIONS[key].format(**pieces)


def _converter(design: Design, param: str) -> Callable:
    """How a cell value becomes the engine's argument ``param``."""
    if param in PARAMS:
        return lambda value: number(excel_name(param), value, param)
    if _singular(param) and excel_name(param) in RANGE_ARGS:
        return lambda value: vector(excel_name(param), value, _singular(param))
    raise ValueError(f"design {design.key!r}: its argument {param!r} has no Excel form "
                     "(not a parameter of topicsetsize.params.PARAMS nor a list of one)")


def _excel_function(design: Design, role: str, name: str) -> Callable:
    """The Excel function ``name`` of ``design``'s ``role`` (see the module docstring)."""
    arguments = _arguments(design, role)
    converters = {p: _converter(design, p) for p in arguments}
    missing = [excel_name(p) for p in arguments if excel_name(p) not in ARG_DOCS]
    if missing:
        raise ValueError(f"design {design.key!r}: no Excel argument doc for {missing} "
                         "(xladdin/_register.py ARG_DOCS)")
    choose = len(design.methods) > 1
    parameters = [inspect.Parameter(excel_name(p), inspect.Parameter.POSITIONAL_OR_KEYWORD)
                  for p in arguments]
    if choose:
        parameters.append(inspect.Parameter("method", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                            default=None))
    signature = inspect.Signature(parameters)
    names = [p.name for p in parameters]
    defaults = {"method": None} if choose else {}

    def call(*args, **kwargs):
        if not kwargs and len(arguments) <= len(args) <= len(names):
            cells = {**defaults, **dict(zip(names, args))}    # what bind gives, without it
        else:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            cells = bound.arguments
        values = [converters[p](cells[excel_name(p)]) for p in arguments]
        options = {}
        if choose:
            options["method"] = method(cells["method"], design.methods)
        given = dict(zip(arguments, values))
        if "alpha" in given and "beta" in given:
            refuse_powerless(given["alpha"], given["beta"])
        engine = design.function(role)        # through the registry, at each call
        if role == "n":                       # the registry's contract: inputs in this order
            result = engine(*values, **options)
        else:
            result = engine(**dict(zip(arguments, values)), **options)
        if role == "table":
            return table(result, table_corner(design))
        if role == "min_effect" and options.get("method") == "legacy":
            refuse_legacy_zero(excel_name(design.effect), [result])
        return plain(result, undefined=_undefined(role, options.get("method"), arguments, values))

    call.__name__ = call.__qualname__ = name
    call.__module__ = "topicsetsize.xladdin.udfs"
    call.__doc__ = _description(design, role, arguments)
    call.__signature__ = signature
    return excel_function(call, design.model)


def _undefined(role: str, chosen: str | None, arguments: list[str], values: list) -> str | None:
    """The message for a result that is not a finite number: the legacy approximation's #NUM!
    for a power, else one naming the arguments (a minD of var = 1e308 overflows)."""
    if role != "power" or chosen != "legacy":
        given = ", ".join(f"{excel_name(p)}={v:g}" for p, v in zip(arguments, values)
                          if isinstance(v, float | int))
        return (f"the result is not a finite number at {given}: an argument is too large (or "
                "too small) for it to be represented")
    counts = ", ".join(f"{p}={v}" for p, v in zip(arguments, values)
                       if p in PARAMS and PARAMS[p].integer)
    return (f"the legacy power is undefined at {counts}: the legacy approximation (Nagata's) "
            'does not hold there, as on the legacy sheet (#NUM!); such a small n does not reach '
            'the power; use "exact"')


def design_functions(design: Design) -> dict[str, Callable]:
    """The standard Excel functions of ``design``, {Excel name: function}, in role order.

    One per role the design declares an Excel name for (``design.excel``), built from its
    declaration as the module docstring says; a design registered at run time gets its
    functions the same way.

    >>> from topicsetsize.designs.registry import DESIGNS
    >>> f = design_functions(DESIGNS["ttest"])["TSS_TTEST_ES"]
    >>> print(f.__doc__)                     # doctest: +NORMALIZE_WHITESPACE
    Paired t-test: topics n that reach power 1-beta at level alpha for the minimum detectable
    effect size minDeltaT.
    >>> f(0.05, 0.2, 0.5)                                           # CIKM 2014: 34 topics
    34
    """
    return {design.excel[role]: _excel_function(design, role, design.excel[role])
            for role in ROLES if role in design.excel}
