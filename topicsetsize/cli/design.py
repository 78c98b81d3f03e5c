"""`topicsetsize n|table|min-d DESIGN`: every design of the registry, on the command line.

The sub-commands are built from the declarations in :mod:`topicsetsize.designs.registry`: a
design gets ``n``; ``table`` where it declares a table (rows: its ``table_rows``, columns: its
effect) and ``min-d`` where it declares a minimum detectable effect. The flags are its inputs
(``--min-d``, ``--variance``, ``--m`` ...), ``--beta`` where the criterion is a power, and
``--method`` where it has more than one method. The all-pairs design, a simulation with its own
options, has its own module (:mod:`topicsetsize.cli.allpairs`).
"""

from __future__ import annotations

import argparse
import math
import sys

from ..designs.registry import DESIGNS, Design
from ..designs.scales import beyond_scores, warn_scale
from ..designs.width_spread import width_caveat
from ..errors import InputError
from ._common import (
    around_n,
    ceil_sig,
    floor_power,
    number,
    numbers,
    power_decimals,
    print_frame,
    progress,
)
from .legacy_shortfall import min_shortfall, n_shortfall, table_shortfall

_METHODS = ("legacy", "exact", "both")

#: Designs whose sub-commands are written by hand (their own module registers them).
OWN_MODULE = ("allpairs",)


#: How the help names an effect.
_LABELS = {"min_d": "minD", "min_dt": "minDt", "delta": "delta"}


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def register(sub, designs) -> None:
    """Add every registered design to the ``n``, ``table`` and ``min-d`` groups."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--alpha", type=number("alpha"), default=0.05,
                        help="significance level (default .05)")
    common.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    beta = argparse.ArgumentParser(add_help=False)
    beta.add_argument("--beta", type=number("beta"), default=0.20,
                      help="Type II error probability; power = 1 - beta (default .20)")
    methods = argparse.ArgumentParser(add_help=False)
    methods.add_argument("--method", choices=_METHODS, default="legacy",
                         help="legacy = the legacy Excel tools' approximations (default); "
                              "exact = noncentral t and F; both = show both")
    for design in DESIGNS.values():
        if design.key in OWN_MODULE:
            continue
        parents = [common] + ([beta] if design.criterion == "power" else []) \
            + [methods if len(design.methods) > 1 else one_method(design)]
        p = designs["n"].add_parser(design.key, parents=parents, help=design.question)
        add_inputs(p, design, [x for x in design.inputs if x not in ("alpha", "beta")])
        p.set_defaults(handler=_n, spec=design)
        if "table" in design.functions:
            rows, effect = design.table_rows, design.effect
            p = designs["table"].add_parser(
                design.key, parents=parents,
                help=f"{design.question}: rows {rows}, columns {_LABELS[effect]}")
            p.add_argument(_flag(rows), type=numbers(rows, whole=rows == "m"),
                           required=True, help="one or more, e.g. 2,10,20 or 2-10" if rows == "m"
                           else "one or more, e.g. 0.1,0.2")
            p.add_argument(_flag(effect), type=numbers(effect), required=True,
                           help="e.g. 0.02,0.05,0.1")
            add_inputs(p, design, [x for x in design.inputs
                                   if x not in ("alpha", "beta", rows, effect)])
            p.set_defaults(handler=_table, spec=design)
        if "min_effect" in design.functions:
            p = designs["min-d"].add_parser(
                design.key, parents=parents,
                help=f"{design.question}: minimum detectable {_LABELS[design.effect]}")
            p.add_argument("--n", type=number("n"), required=True, help="number of topics")
            add_inputs(p, design, [x for x in design.inputs
                                   if x not in ("alpha", "beta", design.effect)])
            p.set_defaults(handler=_min_d, spec=design)


def one_method(design: Design) -> argparse.ArgumentParser:
    """``--method`` of a design with one method: that one, so that another is refused by name
    (a review, 2026-12-07: ``n ci --method legacy`` got "unrecognized arguments")."""
    (only,) = design.methods
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--method", choices=design.methods, default=only,
                   help=f"{only}, the one method of this design")
    return p


def add_inputs(p, design: Design, names: list[str]) -> None:
    """One required flag per input; the effect may be given as a standardised effect size, and
    then the inputs after it go with the effect only (``--variance-t`` with ``--min-dt``, not
    with ``--min-delta-t``). Where the effect is not an input (``min-d``), they are required as
    the others are: argparse names a missing one."""
    def add(target, name, required):
        target.add_argument(_flag(name), type=number(name), required=required,
                            help=design.helps[name])

    with_effect = design.effect_size and design.effect in names
    for name in names:
        if with_effect and name == design.effect:
            group = p.add_mutually_exclusive_group(required=True)
            add(group, name, False)
            add(group, design.effect_size, False)
        elif with_effect and name in design.inputs[design.inputs.index(design.effect) + 1:]:
            p.add_argument(_flag(name), type=number(name),
                           help=design.helps[name] + f" (with {_flag(design.effect)})")
        else:
            add(p, name, True)


#: How a missing value is shown in a readable table, and the note printed under it.
_UNDEFINED = "undefined"
_NO_TEST = "-"
_NOTES = {
    _UNDEFINED: "undefined: the legacy power (Nagata's approximation, Sakai IRJ 2016) has no "
                "value at so few topics (cA - a <= 0; the Excel tool shows #NUM!)",
    _NO_TEST: "-: fewer than 2 topics, no test",
}


def chosen_methods(args) -> tuple[str, ...]:
    if len(args.spec.methods) == 1:
        return args.spec.methods
    return ("legacy", "exact") if args.method == "both" else (args.method,)


def _values(args, names) -> dict:
    return {name: getattr(args, name) for name in names}


def with_method(design: Design, method: str) -> dict:
    """The ``method=`` argument, for designs with a choice of methods."""
    return {"method": method} if len(design.methods) > 1 else {}


def _title(args, command: str, **extra) -> str:
    fields = {k: f"{v:.15g}" for k, v in vars(args).items()
              if isinstance(v, float) and not isinstance(v, bool)}
    return args.spec.titles[command].format(**fields, **extra)


def effect_inputs(args) -> tuple[dict, str]:
    """The inputs of the design's n, and the title's text for its effect (the paired t-test
    takes minDt with variance_t, or the effect size minDeltaT alone)."""
    design = args.spec
    values = _values(args, design.inputs)
    if not design.effect_size:
        return values, ""
    effect, variance = design.effect, design.inputs[-1]
    size = getattr(args, design.effect_size)
    if values[effect] is not None:
        if values[variance] is None:
            raise InputError(f"{_flag(effect)} needs {_flag(variance)} (or give "
                             f"{_flag(design.effect_size)} instead)")
        return values, f"minDt={values[effect]:.15g}, {variance}={values[variance]:.15g}"
    if values[variance] is not None:
        raise InputError(f"{_flag(variance)} goes with {_flag(effect)}, not with "
                         f"{_flag(design.effect_size)}")
    return {**values, effect: size, variance: 1.0}, f"minDeltaT={size:.15g}"


def _n(args) -> None:
    design = args.spec
    values, effect_text = effect_inputs(args)
    validate(**values)
    if not effect_text.startswith("minDeltaT"):     # an effect size has no scale
        note_scale(values)
    n_of, value_of = design.function("n"), design.function("power")
    power = design.criterion == "power"
    # the power (or width) at k topics takes every input but beta (and a CI's width δ)
    given = {k: v for k, v in values.items()
             if k != "beta" and (power or k != design.effect)}
    n_label = "n per system" if design.per_system else "n"
    decimals = power_decimals(values["beta"]) if power else 6
    # given as an effect size, n is of the size, so that an error names what was typed (a
    # review, 2026-12-07: --min-delta-t 1e-5 was said as --min-dt 1e-05, --variance-t 1)
    by_size = effect_text.startswith("minDeltaT")
    rows = []
    for method in chosen_methods(args):
        n = (design.function("n_effect")(values["alpha"], values["beta"], values[design.effect],
                                         **with_method(design, method)) if by_size
             else n_of(**values, **with_method(design, method)))

        def at(k, meth=method):
            value = value_of(k, **given, **with_method(design, meth))
            return floor_power(value, decimals) if power else value

        rows.append({"method": method if power else "expected width", n_label: n,
                     **({"topics in all": 2 * n} if design.per_system else {}),
                     **around_n(n, at, "power" if power else "width", missing=float("nan"))})
    print_rows(_title(args, "n", effect_text=effect_text), rows, args, n_column=n_label,
               decimals=decimals)
    if power and "legacy" in chosen_methods(args) and "exact" in design.methods:
        n_shortfall(design, values, given, rows, n_label)
    print_caveat(args, None if power else (values, rows[0][n_label]))


def print_caveat(args, width_at=None) -> None:
    """The design's caveat (a CI's on its inputs and n, ``width_at``: :func:`width_caveat`)
    under its answer, as a note (on stderr with ``--csv``, which has no room for words)."""
    caveat = width_caveat(args.spec.key, *width_at[::-1]) if width_at else args.spec.caveat
    if caveat:
        print(f"note: {args.spec.name}: {caveat}", file=sys.stderr if args.csv else sys.stdout)


def design_caveat(csv: bool = False, instead: str = "", design: str = "anova") -> None:
    """The one-way ANOVA's caveat, as ``n anova`` says it, under a decision whose n or
    guarantees are that design's (``recommend``, ``guarantees``, ``budget``, ``pool-depth``): a
    review, 2026-12-07, found "this guarantees 80% power" there without a word of it.
    ``instead``: how this command sizes the two-way design (a second review found the caveat
    without a way to follow it). ``design="anova2"``: the two-way design's own caveat, where
    the decision sizes that design (``budget``, ``pool-depth --design anova2``: a third review
    found it missing there, where the one-way caveat had pointed)."""
    spec = DESIGNS[design]
    instead = instead if design == "anova" else ""
    print(f"note: {spec.name}: {spec.caveat}{f' ({instead})' if instead else ''}",
          file=sys.stderr if csv else sys.stdout)


def given_inputs(args) -> dict:
    """The design's inputs as the command was given them (``n`` first where it is one; an
    effect size instead of the difference and its variance), for a CSV to carry: a saved n or
    power then says its α, β and the rest (a review, 2026-12-07: it said the method only)."""
    design = getattr(args, "spec", None)
    if design is None:
        return {}
    names = ["n", *design.inputs, *([design.effect_size] if design.effect_size else [])]
    return {k: int(v) if k in ("n", "m") else v for k in names
            if isinstance(v := getattr(args, k, None), (int, float))}     # not a table's lists


def print_rows(title: str, rows: list[dict], args, *, n_column: str = "n",
               decimals: int = 6) -> None:
    """Print the rows; NaN cells are empty in CSV and spelled out (with a note) in a table.
    ``n_column`` holds the topic set size (``n per system`` in the unpaired designs); floats
    show ``decimals`` decimals (:func:`~._common.power_decimals` of a tiny β).

    Plain Python, no pandas: a one-answer command then starts in about the time of importing
    numpy and scipy.special. The layout is that of ``DataFrame.to_string`` (index ``method``).
    """
    columns = [c for c in rows[0] if c != "method"]
    if args.csv:            # the inputs too, after the answers: a saved file says what it sized
        import csv

        given = {k: v for k, v in given_inputs(args).items() if k not in columns}
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["method", *columns, *given])
        for row in rows:
            out.writerow([row["method"], *(_csv_cell(row[c]) for c in columns),
                          *(_csv_cell(v) for v in given.values())])
        return
    huge = any(isinstance(v, float) and math.isfinite(v) and abs(v) >= 1e16
               for row in rows for v in row.values())
    used, cells = [], []
    for row in rows:
        line = []
        for column in columns:
            value = row[column]
            if isinstance(value, float) and value != value:
                mark = _NO_TEST if _fewer_than_two(column, row.get(n_column)) else _UNDEFINED
                used.append(mark)
                line.append(mark)
            else:
                line.append(_cell_text(value, huge, decimals))
        cells.append(line)
    left = max(len("method"), *(len(row["method"]) for row in rows))
    widths = [max(len(c), *(len(line[i]) + 1 for line in cells)) for i, c in enumerate(columns)]
    print(title)
    print(" " * left + "".join(f" {c:>{w}}" for c, w in zip(columns, widths)))
    print("method".ljust(left + sum(w + 1 for w in widths)))
    for row, line in zip(rows, cells):
        print(row["method"].ljust(left) + "".join(f" {t:>{w}}" for t, w in zip(line, widths)))
    for mark in dict.fromkeys(used):
        print(_NOTES[mark])


def _cell_text(value, huge: bool, decimals: int = 6) -> str:
    """A cell as ``DataFrame.to_string`` shows it: floats to 6 (``decimals``) decimals without
    trailing zeros (``1.0``, ``0.13774``), or each in its shortest exact form once one is from
    1e16 up."""
    if not isinstance(value, float):
        return str(value)
    if huge or not math.isfinite(value):
        return repr(value)
    text = f"{value:.{decimals}f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _csv_cell(value):
    """A cell as ``DataFrame.to_csv`` writes it: NaN empty, a float in its shortest form."""
    return "" if isinstance(value, float) and value != value else value


def _fewer_than_two(column: str, n) -> bool:
    """True where a ``...(n-1)`` column has fewer than 2 topics to test."""
    return column.endswith("(n-1)") and n - 1 < 2


def note_scale(values: dict) -> None:
    """The engine's note on a difference and a variance given on different scales of scores,
    once for the command (its own calls of the engine do not note: ``warn_scale``)."""
    warn_scale(values, given=True)


def validate(**values) -> None:
    """Check the arguments against their declared ranges (numpy only) before the engine and
    scipy are imported: a rejected value answers at once, with the engine's own message."""
    from ..params import check_all

    check_all(**values)


def _print_tables(build, title: str, args) -> None:
    import pandas as pd

    frames = {method: build(method) for method in chosen_methods(args)}
    several = len(args.spec.methods) > 1
    if args.csv:        # one long table (one header), a row per cell and method, and the
        fixed = given_inputs(args)      # inputs the table fixes (its rows and columns are lists)
        long = pd.concat([frame.stack().rename("n").reset_index().assign(method=method, **fixed)
                          for method, frame in frames.items()], ignore_index=True)
        print_frame(long, csv=True, index=False)
    else:
        for method, frame in frames.items():
            print_frame(frame, title=f"{title} ({method})")
            if several:
                print()
    if "legacy" in frames and "exact" in args.spec.methods and args.spec.criterion == "power":
        table_shortfall(args, frames["legacy"], "exact" in chosen_methods(args))


#: Cells per chunk of a long table run (one progress-bar step per chunk).
_CHUNK_CELLS = 2000


def _table(args) -> None:
    design = args.spec
    note_scale({**{k: getattr(args, k) for k in design.inputs},
                design.table_rows: [[x] for x in getattr(args, design.table_rows)]})
    _print_tables(lambda meth: _table_chunked(args, meth), _title(args, "table"), args)
    print_caveat(args)


def _table_chunked(args, method: str):
    """The design's table over its row values in chunks, with a progress bar for long runs."""
    import pandas as pd

    from ..designs.tables import size_table
    from ..params import check

    design = args.spec
    rows, effect = design.table_rows, design.effect
    fixed = {k: check(k, getattr(args, k), allow_array=False)
             for k in design.inputs if k not in (rows, effect)}
    n_of = design.function("n")
    values = getattr(args, rows)
    step = max(1, _CHUNK_CELLS // max(1, len(getattr(args, effect))))
    chunks = [values[i:i + step] for i in range(0, len(values), step)]
    parts = []
    with progress(len(chunks), f"table {design.key} ({method})",
                  disable=None if len(chunks) > 1 else True) as bar:
        for chunk in chunks:
            parts.append(size_table(
                lambda r, c: n_of(**fixed, **{rows: r, effect: c},
                                  **with_method(design, method)),
                rows=(rows, chunk), columns=(effect, getattr(args, effect))))
            bar.update(1)
    return pd.concat(parts) if len(parts) > 1 else parts[0]


def _min_d(args) -> None:
    design = args.spec
    names = ["n", *(k for k in design.inputs if k != design.effect)]
    values = _values(args, names)
    validate(**values)
    min_of = design.function("min_effect")
    given = {k: v for k, v in values.items() if k != "n"}
    methods = chosen_methods(args)

    def one(meth):              # with both methods, a legacy approximation undefined at n is
        try:                    # a row of its own (the exact row still answers), said below
            return ceil_sig(min_of(args.n, **given, **with_method(design, meth)))
        except InputError:
            if meth != "legacy" or len(methods) == 1:
                raise
            return math.nan

    rows = [{"method": meth, design.effect: one(meth)} for meth in methods]
    # every digit ceil_sig kept, so that a difference below 0.1 is not rounded down on show
    shown = [row[design.effect] for row in rows if 0 < row[design.effect] < math.inf]
    print_rows(_title(args, "min-d"), rows, args, decimals=max(
        [6, *(min(15, 5 - math.floor(math.log10(x))) for x in shown)]))
    if design.criterion == "power" and rows[0]["method"] == "legacy" and "exact" in design.methods \
            and not math.isnan(rows[0][design.effect]):
        min_shortfall(design, args.n, given, rows)
    beyond = beyond_scores({**given, design.effect: [r[design.effect] for r in rows]}, args.n)
    if beyond:      # a minimum difference no [0, 1] scores can show: said beside it
        print(f"note: {beyond}", file=sys.stderr if args.csv else sys.stdout)
    print_caveat(args)
