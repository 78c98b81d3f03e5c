"""``topicsetsize recommend``: one topic set size for several measures and comparisons.

Each requirement (a measure's variance, m systems, a minimum detectable range minD) needs its
own n; the recommendation is the largest, rounded up, stated as in the AIRS 2016 paper
("Create 100 topics: this guarantees 80% power for comparing any m = 2 systems with a minD of
0.10 (93 topics are sufficient), and ...").
"""

from __future__ import annotations

import re

from ..errors import InputError
from ..numbertext import as_number
from ._common import number, path, print_frame
from ._inputs import add_design_options

#: A comma that starts the next ``key=`` of a --require value (a label may hold other commas).
_NEXT_KEY = re.compile(r",(?=\s*[A-Za-z_][\w-]*\s*=)")


def register(sub, designs) -> None:
    """Add the ``recommend`` sub-command."""
    p = sub.add_parser("recommend", help="one topic set size over several measures/designs",
                       description=__doc__.split("\n\n")[1])
    p.add_argument("--require", action="append", default=[], metavar="SPEC",
                   help='a requirement, e.g. "label=EN nDCG@3,variance=0.0259,m=10,min_d=0.10" '
                        "(label is optional; repeat for each requirement)")
    p.add_argument("--file", type=path, metavar="FILE",
                   help="requirements from a TOML file ([[requirements]] tables) or a CSV file "
                        "(columns label,variance,m,min_d)")
    p.add_argument("--round-to", type=number("round_to"), default=10,
                   help="round the recommendation up to a multiple of this (default 10)")
    p.add_argument("--alpha", type=number("alpha"), default=0.05,
                   help="significance level (default .05)")
    p.add_argument("--beta", type=number("beta"), default=0.20,
                   help="Type II error probability; power = 1 - beta (default .20)")
    add_design_options(p, variance="each requirement's variance")
    p.add_argument("--csv", action="store_true",
                   help="print the requirements table as CSV, with the recommended n")
    p.set_defaults(handler=run)


def parse_require(text: str, where: str) -> dict:
    """A ``--require`` value as a raw requirement: ``key=value`` pairs separated by commas.

    A comma followed by ``word=`` starts the next pair, so a label may contain other commas.
    Numbers are converted; anything else is passed on as text, for the engine to name.

    >>> parse_require("label=EN nDCG@3, P@10,variance=0.0259,m=10,min-d=0.1", "--require 1")
    {'label': 'EN nDCG@3, P@10', 'variance': 0.0259, 'm': 10.0, 'min_d': 0.1}
    """
    out: dict = {}
    for part in _NEXT_KEY.split(text):
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep or not key:
            raise InputError(f"{where}: {part.strip()!r} is not key=value (e.g. "
                             '"label=EN nDCG@3,variance=0.0259,m=10,min_d=0.10")')
        if key in out:
            raise InputError(f"{where}: key {key!r} given twice")
        if key == "label":
            out[key] = value
            continue
        x = as_number(value)
        out[key] = value.strip() if x is None else x
    return out


def run(args) -> int:
    """Read the requirements, recommend n and print the sentence and the table."""
    import math

    from ..decide.anova_designs import AS_OPTION, check_design
    from ..decide.recommendation import check_requirement, recommend
    from ..decide.requirement_files import read_requirements
    from ..decide.wording import ESTIMATED_VARIANCES
    from .design import design_caveat

    args.design, args.method = check_design(args.design, args.method, said=AS_OPTION)
    items = [check_requirement(parse_require(text, f"--require {k}"), where=f"--require {k}")
             for k, text in enumerate(args.require, 1)]
    for k, item in enumerate(items):
        first = next((j for j in range(k) if items[j] == item), None)
        if first is not None:
            raise InputError(f"--require {first + 1} and --require {k + 1} are the same "
                             "requirement: give each once")
    if args.file is not None:
        settings: dict = {}
        items += read_requirements(args.file, settings=settings)
        _differing_settings(args, settings)
    if not items:
        raise InputError("no requirements: give --require SPEC (one or more) or --file FILE")
    result = recommend(items, alpha=args.alpha, beta=args.beta, round_to=args.round_to,
                       method=args.method, design=args.design)
    frame = result.requirements
    if result.note:         # the legacy sizes under the exact power: on stderr, as n's warning
        import warnings

        warnings.warn(result.note, UserWarning, stacklevel=1)
    if args.csv:
        print_frame(frame.assign(recommended=result.n, method=args.method, design=args.design,
                                 alpha=result.alpha, beta=result.beta), csv=True)
        design_caveat(csv=True, instead=_INSTEAD, design=args.design)
        return 0
    print(result.sentence)
    if result.note:     # a size the sentence states (or its guarantee) fails under the exact
        print(f"note: {result.note}")      # power: said beside it, never copied without it
    # "guarantees" holds at the variances given: V_E, or V_E2 for the two-way design
    print(f"note: {ESTIMATED_VARIANCES[args.design]}")
    design_caveat(instead=_INSTEAD, design=args.design)    # for independent topic samples
    print()
    shown = frame.assign(label=frame["label"].fillna(""), **{   # truncated: never up to 1 − β
        column: [math.floor(p * 1e6) / 1e6 for p in frame[column]]
        for column in ("power", "power_exact") if column in frame})
    test = ", two-way ANOVA: variance = V_E2" if args.design == "anova2" else ""
    print_frame(shown, title=f"Each requirement's n, and its power at n={result.n} "
                             f"(alpha={result.alpha:.15g}, {result.method}{test}):")
    return 0


#: How this command sizes the two-way design, said after the one-way design's caveat.
_INSTEAD = "here: --design anova2, with each requirement's V_E2 as its variance"


def _differing_settings(args, settings: dict) -> None:
    """Warn where a requirements file written by ``recommend --csv`` was computed with another
    method, α or β than this command's: its n columns are computed again, by the command's
    (a review, 2026-12-07: a file saved at alpha = 0.01 was read back at the default 0.05, 120
    topics becoming 90, without a word); refuse another design's, whose variances are not the
    ones this design needs."""
    import warnings

    from ..decide.anova_designs import ESTIMATORS, variance_name

    for key in sorted(settings, key=lambda k: k != "design"):     # a refusal before warnings
        values, ours = settings[key], getattr(args, key)
        text = key in ("method", "design")
        differ = sorted(v for v in values if (v != ours if text else as_number(v) != ours))
        if differ and key == "design":      # its variances are the other design's: refused (a
            # review, 2026-12-08: V_E2 read as V_E sized 90 topics where V_E asks for 280)
            raise InputError(
                f"{args.file}: its design column says {differ[0]}: its variances are "
                f"{variance_name(differ[0]) if differ[0] in ESTIMATORS else differ[0]}, not the "
                f"{variance_name(ours)} that "
                f"--design {ours} needs; give --design {differ[0]}, or a file of "
                f"{variance_name(ours)}")
        if differ:
            flag = f"--{key} {ours if text else f'{ours:.15g}'}"
            warnings.warn(f"{args.file}: its {key} column says {', '.join(differ)}; the answers "
                          f"are computed again with {flag} (give --{key} {differ[0]} to repeat "
                          "them)", UserWarning, stacklevel=2)

