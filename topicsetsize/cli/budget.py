"""``topicsetsize budget``: topic set size and assessment cost per pool depth (CIKM 2014 §6.3).

From summary figures: for each pool depth pd, the mean number of documents judged per topic and
the within-system variance observed at that depth. Prints the required n (one-way ANOVA at V_E;
two-way with --design anova2, at V_E2), the
cost n x documents per topic, whether it fits the budget, and the cheapest depth that does;
with the upper end of each depth's V_E interval (--variance-high, pool-depth --csv's variance
high), also n high and the cost there. The figures come from a TOML plan (--plan FILE) or from
the options.
"""

from __future__ import annotations

from ..decide.wording import ROUNDED_UP, budget_text, documents_text, whole_costs
from ..errors import InputError, decimal_comma
from ._common import number, numbers, path, print_frame
from ._inputs import add_design_options


def register(sub, designs) -> None:
    """Add the ``budget`` sub-command to the parser."""
    parser = sub.add_parser(
        "budget",
        help="required n and assessment cost at each pool depth, and the cheapest depth "
             "within a budget (Sakai, CIKM 2014)",
        description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--plan", type=path, metavar="FILE.toml",
                        help="TOML: top-level m, min_d, alpha, beta, budget, method, design "
                             "and one [[pool_depths]] table per depth with pd, docs_per_topic, "
                             "variance (and optionally variance_high)")
    parser.add_argument("--depths", type=numbers("depths", key="depth", whole=True),
                        metavar="PD[,PD...]", help="pool depths")
    parser.add_argument("--docs-per-topic", type=numbers("docs_per_topic", labels=False),
                        metavar="J[,J...]",
                        help="mean documents judged per topic, one per depth")
    parser.add_argument("--variance", type=numbers("variance", labels=False), metavar="V[,V...]",
                        help="within-system variance V_E at each depth (V_E2 with --design "
                             "anova2)")
    parser.add_argument("--variance-high", type=numbers("variance_high", key="variance",
                                                         labels=False),
                        metavar="V[,V...]",
                        help="optional: the upper end of each depth's V_E interval (V_E2 with "
                             "--design anova2; pool-depth --csv's 'variance high'): adds n high "
                             "and the cost at it")
    parser.add_argument("--m", type=number("m"), help="number of systems")
    parser.add_argument("--min-d", type=number("min_d"), help="minimum detectable range")
    parser.add_argument("--alpha", type=number("alpha"),
                        help="significance level (default .05)")
    parser.add_argument("--beta", type=number("beta"),
                        help="Type II error probability; power = 1 - beta (default .20)")
    parser.add_argument("--budget", type=number("budget"),
                        help="documents that can be judged in all")
    add_design_options(parser, variance="--variance", default=None)
    parser.add_argument("--csv", action="store_true", help="print CSV, full precision")
    parser.set_defaults(handler=run)


_FIGURES = ("depths", "docs_per_topic", "variance")
#: The per-depth figures that may be left out.
_OPTIONAL = ("variance_high",)
#: How this command sizes the two-way design, said after the one-way design's caveat.
_INSTEAD = "here: --design anova2, with each depth's V_E2 as --variance"


def run(args) -> int:
    """Read the plan (file or options; options override the file) and print it."""
    from ..params import PARAMS, check

    given = {k: getattr(args, k) for k in _FIGURES + _OPTIONAL if getattr(args, k) is not None}
    if args.plan is not None:
        if given:
            raise InputError(f"give the per-depth figures either in --plan {args.plan} or as "
                             f"--{next(iter(given)).replace('_', '-')} options, not both")
        from ..decide.budget import read_plan

        kwargs = read_plan(args.plan)
    else:
        missing = [f"--{k.replace('_', '-')}" for k in _FIGURES if k not in given]
        if missing:
            raise InputError(f"give --plan FILE.toml, or {', '.join(missing)}")
        for key in [k for k in _FIGURES[1:] + _OPTIONAL if k in given]:  # quick refusals,
            if len(given[key]) != len(args.depths):                      # before numpy loads
                hint = decimal_comma(getattr(given[key], "text", ""), PARAMS[
                    "variance" if "variance" in key else key]) if len(given[key]) > len(
                        args.depths) else ""        # more values: a number split in two?
                raise InputError(f"--{key.replace('_', '-')} has {len(given[key])} values for "
                                 f"{len(args.depths)} depths: give one value per depth{hint}")
        kwargs = {"depths": args.depths, "docs_per_topic": args.docs_per_topic,
                  "variances": args.variance}
        if args.variance_high is not None:
            kwargs["variances_high"] = args.variance_high
    import warnings

    for key in ("m", "min_d", "alpha", "beta", "budget", "method", "design"):
        if getattr(args, key) is not None:
            if key in kwargs and kwargs[key] != getattr(args, key):   # said (a review found
                new, old = (f"{x:.15g}" if isinstance(x, float) else x  # it silent)
                            for x in (getattr(args, key), kwargs[key]))
                warnings.warn(f"--{key.replace('_', '-')} {new} overrides {key} = {old} of "
                              f"--plan {args.plan}", UserWarning, stacklevel=1)
            kwargs[key] = getattr(args, key)
    for key in ("m", "min_d"):
        if key not in kwargs:
            raise InputError(f"--{key.replace('_', '-')} is required (or give it in --plan)")

    from ..decide.anova_designs import AS_OPTION, check_design, variance_name
    from ..decide.budget import budget_plan
    from .design import design_caveat

    for key in ("m", "min_d", "alpha", "beta"):     # one line naming the argument; m as int
        if key in kwargs:
            kwargs[key] = check(key, kwargs[key], allow_array=False)
            # a plan's α or β above one half, as --beta 0.8 is warned of (an input review,
            # 2026-12-07: alpha = 0.95 in a plan gave "n=2 topics" without a word)
            said = PARAMS[key].unusual(key, float(kwargs[key])) if getattr(
                args, key) is None else None
            if said:
                warnings.warn(f"{args.plan}: {said}", UserWarning, stacklevel=1)
    design, kwargs["method"] = check_design(  # each named as it was given: option or plan key
        kwargs.get("design", "anova"), kwargs.get("method"), said=lambda k, v: AS_OPTION(k, v)
        if getattr(args, k) is not None else f'{k} = "{v}" of --plan {args.plan}')
    kwargs["design"] = design
    depths = kwargs.pop("depths")
    plan = budget_plan(depths, **kwargs)
    if plan.note:           # the legacy n under the exact power: on stderr too, as n's warning
        warnings.warn(plan.note, UserWarning, stacklevel=1)
    table = plan.table
    if plan.budget is None:     # every depth is "within" no budget: the column would only say yes
        table = table.drop(columns="within_budget")
    if args.csv:
        # the method in the file: a saved legacy n is not read as an exact one
        # and α and β (budget_plan's defaults where neither the plan nor an option gives them)
        import inspect

        default = inspect.signature(budget_plan).parameters
        print_frame(whole_costs(table).assign(
            method=kwargs["method"], design=design,
            **{k: kwargs.get(k, default[k].default) for k in ("alpha", "beta")},
            **{k: kwargs[k] for k in ("m", "min_d") if k in kwargs},      # what n is sized for
            **({"budget": plan.budget} if plan.budget is not None else {})), csv=True)
        design_caveat(csv=True, instead=_INSTEAD, design=design)
        return 0
    show = table.copy()
    show["cost"] = show["cost"].map(documents_text)
    show["n"] = show["n"].map("{:,}".format)                        # 591,738,523
    show["docs_per_topic"] = show["docs_per_topic"].map(                # 2,000, not 2000.0;
        lambda x: f"{x:,.2f}".rstrip("0").rstrip("."))                  # 121.43, a mean
    if "n high" in show:
        from ..report import interval_end_text
        from .pool_depth import cost_text

        show["n high"] = show["n high"].map(interval_end_text)
        show["cost high"] = show["cost high"].map(cost_text)
    if "within_budget" in show:
        show["within_budget"] = show["within_budget"].map({True: "yes", False: "no"})
    budget = f", budget={budget_text(plan.budget)}" if plan.budget is not None else ""
    print_frame(show, title=(
        "Assessment cost per pool depth (Sakai, CIKM 2014, 6.3): "
        + ("two-way ANOVA (topics as blocks; variance = V_E2), " if design == "anova2"
           else "one-way ANOVA, ") +
        f"m={kwargs['m']}, minD={kwargs['min_d']:.15g}, alpha={kwargs.get('alpha', 0.05):.15g}, "
        f"beta={kwargs.get('beta', 0.20):.15g}, {kwargs['method']}{budget}\n"
        f"cost = n x docs_per_topic, {ROUNDED_UP}" + (
            f"; n high = n at variance high, the upper end of {variance_name(design)}'s interval; "
            "cost high = n high x docs_per_topic" if "n high" in show else "")))
    from .pool_depth import upper_end_note

    upper_end_note(plan)        # as pool-depth says it on the same figures
    print(_verdict(plan))
    if plan.note:       # the legacy n falls short under the exact power: said beside the
        print(f"note: {plan.note}")     # verdict, never copied without it (as recommend)
    if "n high" not in table:   # n and its cost hold at the variances given (a review,
        # 2026-12-08: recommend and guarantees said so, budget not)
        from ..decide.wording import ESTIMATED_VARIANCES

        print(f"note: {ESTIMATED_VARIANCES[design]}; each depth's upper end as --variance-high "
              "(variance_high in --plan; `topicsetsize pool-depth --csv` gives it as 'variance "
              "high') adds n high and the cost there")
    design_caveat(instead=_INSTEAD, design=design)
    return 0


def _verdict(plan) -> str:
    if plan.cheapest is None:
        return f"no pool depth fits the budget of {budget_text(plan.budget)} documents"
    row = plan.cheapest
    within = " within the budget" if plan.budget is not None else ""
    from .pool_depth import cost_text

    high = ""
    if "n high" in row.index:
        high = (f" ({cost_text(row['cost high'])} at n high = {int(row['n high']):,})"
                if row["n high"] != float("inf") else f" ({cost_text(row['cost high'])})")
    return (f"cheapest{within}: pd={int(row.name)}, n={int(row['n']):,} topics, "
            f"{documents_text(row['cost'])} documents judged{high}")
