"""``topicsetsize power DESIGN --n N ...``: a design's power at a given number of topics (a CI
design's expected width), from the design's ``power`` function of the registry, as the Python
API (``anova_power``, ``ci_delta``, ...), the Excel functions (``TSS_POWER_ANOVA``,
``TSS_CI_WIDTH``, ...) and the workbook's "at your n" rows give it (a parity review,
2026-12-07: the command line had no power at a chosen n). Every design but the simulated
all-pairs one, each with its methods."""

from __future__ import annotations

import argparse
import sys

from ..designs.registry import DESIGNS
from ._common import floor_power, number
from .design import (
    OWN_MODULE,
    add_inputs,
    chosen_methods,
    effect_inputs,
    note_scale,
    one_method,
    print_caveat,
    print_rows,
    validate,
    with_method,
)
from .legacy_shortfall import power_shortfall

#: The digits a power is shown with (cut, never rounded up: as the ``n`` command's powers).
_DECIMALS = 6


def register(sub, designs) -> None:
    """Add every registered design but the hand-written ones to the ``power`` group."""
    def common(per_system: bool) -> argparse.ArgumentParser:
        parent = argparse.ArgumentParser(add_help=False)
        parent.add_argument("--n", type=number("n"), required=True, help=(
            "number of topics per system" if per_system else "number of topics"))
        parent.add_argument("--alpha", type=number("alpha"), default=0.05,
                            help="significance level (default .05)")
        parent.add_argument("--csv", action="store_true", help="print CSV instead of a table")
        return parent

    methods = argparse.ArgumentParser(add_help=False)
    methods.add_argument("--method", choices=("legacy", "exact", "both"), default="legacy",
                         help="legacy = the legacy Excel tools' approximations (default); "
                              "exact = noncentral t and F; both = show both")
    for design in DESIGNS.values():
        if design.key in OWN_MODULE:
            continue
        power = design.criterion == "power"
        parents = [common(design.per_system),
                   methods if len(design.methods) > 1 else one_method(design)]
        p = designs["power"].add_parser(design.key, parents=parents, help=(
            f"{design.question}: the power at n" if power else
            f"{design.question}: the expected width at n"))
        add_inputs(p, design, [x for x in design.inputs
                               if x not in ("alpha", "beta") and (power or x != design.effect)])
        if not power:       # a CI design: with δ, how often the interval is wider than it
            p.add_argument(f"--{design.effect}", type=number(design.effect), help=(
                f"optional: {design.helps[design.effect]}, to say how often the interval at n "
                "is wider"))
        p.set_defaults(handler=_power_at, spec=design, beta=None)


def _power_at(args) -> None:
    """Print each method's power (or expected width) at ``--n``, with the design's notes."""
    design = args.spec
    power = design.criterion == "power"
    values, effect_text = effect_inputs(args)
    given = {k: v for k, v in values.items()
             if k != "beta" and (power or k != design.effect)}
    validate(n=args.n, **given)
    if power and not effect_text.startswith("minDeltaT"):    # an effect size has no scale
        note_scale(given)
    at = design.function("power")
    what = "power" if power else "expected width"
    rows = [{"method": method if power else "expected width",
             what: (floor_power(value, _DECIMALS) if power else value)}
            for method in chosen_methods(args)
            for value in [float(at(args.n, **given, **with_method(design, method)))]]
    inputs = ", ".join(f"{k}={v:.15g}" for k, v in given.items()
                       if not (effect_text and k in (design.effect, design.inputs[-1])))
    title = (f"{design.name}: {what} at n={int(args.n):,} "
             f"{'topics per system' if design.per_system else 'topics'}, "
             + ", ".join(filter(None, [effect_text, inputs])))
    print_rows(title, rows, args, decimals=_DECIMALS)
    delta = None if power else getattr(args, design.effect)
    if delta is not None:   # the share of intervals wider than δ, as under `n ci`'s answer
        from ..designs.width_spread import share_text, spread_at

        wider, keep = spread_at(design.key, args.n, {**given, design.effect: delta})
        print(f"note: at n={int(args.n):,}, {share_text(wider)} of the intervals one collection "
              f"gives are wider than {design.effect} = {delta:.6g}; {keep:,} "
              f"{'topics per system' if design.per_system else 'topics'} keep 80% of them "
              "within it", file=sys.stderr if args.csv else sys.stdout)
        return              # the design's caveat, on its own example, would only repeat it
    if power and rows[0]["method"] == "legacy" and "exact" in design.methods:
        power_shortfall(rows[0]["power"], at(args.n, **given, method="exact"), _DECIMALS)
    print_caveat(args)
    if not power:           # the caveat's figures are its example's: say how to get the user's
        print(f"note: --{design.effect} gives that share at n={int(args.n):,} for these inputs",
              file=sys.stderr if args.csv else sys.stdout)
