"""The design registry: every design declared once, and everything else built from it.

A :class:`Design` says what a design needs and what it offers: its inputs (parameters of
:data:`topicsetsize.params.PARAMS`, in the order of its ``*_n`` function and of the
spreadsheet's input cells), its criterion (power or expected CI width), its methods, its degrees
of freedom and noncentrality, where it comes from, and the names of its functions in its own
module ``topicsetsize/designs/<key>.py``. :data:`DESIGNS` holds them all, in the order the
command line, the docs and the workbook show them.

From the declarations, the command line builds its ``n``, ``table``, ``min-d`` and ``power``
sub-commands (:mod:`topicsetsize.cli.design`, :mod:`topicsetsize.cli.power_at`),
``docs/designs.md`` is written (:func:`markdown`), and the
workbook's calculators and the Excel functions take their titles and method lists; the
package exports every design's functions (``topicsetsize.<name>``) from it. Adding a design of
an existing kind means: its module in ``designs/`` (its pieces for a kind of
:mod:`topicsetsize.designs.kinds`, which writes n, the minimum effect and the table, and its
public functions as thin documented wrappers), its entry here (with the Excel name of each
role in ``excel``: the Excel functions are built from it), its calculator declaration
(``generator/``), its tests and ``docs/designs.md`` regenerated. A design can also be added at
run time with :func:`register`.

This module is plain data and imports no numerical library: the command line reads it to build
``--help`` in a few milliseconds, and a design's functions are imported on first use
(:meth:`Design.function`).

Examples
--------
>>> d = DESIGNS["anova"]
>>> d.inputs, d.methods, d.criterion
(('alpha', 'beta', 'min_d', 'variance', 'm'), ('legacy', 'exact'), 'power')
>>> d.function("n")(0.05, 0.20, 0.1, 0.0601, 10)      # AIRS 2016 Table 2, part I
188
>>> [k for k, d in DESIGNS.items() if d.per_system]
['ttest2', 'ci2']
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Design", "DESIGNS", "BUILT_IN", "markdown", "register", "unregister"]

#: The roles a design's functions play, in the order of the docs' table.
ROLES = ("n", "power", "min_effect", "table", "n_effect")


@dataclass(frozen=True, kw_only=True)
class Design:
    """One statistical design, declared once.

    Attributes
    ----------
    key : str
        Short name: the module ``topicsetsize/designs/<key>.py``, the command line's
        ``topicsetsize n <key>``, the workbook's input key and calculator sheet (upper case).
    name : str
        Its name in titles, e.g. ``"One-way ANOVA"``.
    question : str
        What it sizes, one line (the command line's help).
    inputs : tuple of str
        The arguments of its ``*_n`` function, in order, each a parameter of
        :data:`topicsetsize.params.PARAMS`.
    criterion : {"power", "width"}
        What n must reach: power 1 − β, or an expected CI width of at most δ.
    methods : tuple of str
        ``("legacy", "exact")`` for the designs of Sakai's Excel tools, ``("exact",)`` else.
    model : {"one-way", "two-way", "paired", "unpaired"}
        How the scores are modelled: systems as independent groups (one-way ANOVA), topics as
        blocks (two-way ANOVA without replication), two systems on the same topics (paired)
        or on different topics (unpaired, n per system).
    functions : dict
        Role (``"n"``, ``"power"`` (the width, for a CI), ``"min_effect"``, ``"table"``,
        ``"n_effect"``) → name of the function in the design's module; a role the design
        lacks is absent.
    degrees_of_freedom, noncentrality : str
        The test's degrees of freedom and noncentrality (or, for a CI, its width), as text.
    source : str
        The paper and section the design comes from.
    per_system : bool
        True where n counts the topics of each system (unpaired designs: 2n in all).
    table_rows : str or None
        The parameter along the rows of its table (the columns are its effect).
    effect_size : str or None
        A standardised effect that can stand for the effect and its variance (the paired
        t-test's minΔt = minDt/σt, with the function of role ``"n_effect"``).
    helps : dict
        Help text of each input but α and β on the command line (said for this design, where
        the parameter registry's doc is general).
    titles : dict
        Command line titles per command (``"n"``, ``"table"``, ``"min-d"``), as
        :meth:`str.format` templates over the arguments (formatted ``.15g``).
    excel : dict
        Role → name of its Excel function (``topicsetsize.xladdin.udfs``, built from this
        declaration); a role without a name has no Excel function.
    kind : str or None
        The kind of design its functions are built from (:mod:`topicsetsize.designs.kinds`):
        ``"F"`` (an F test of m systems), ``"t"`` (a t-test of two systems), ``"width"`` (an
        expected CI width) or ``"simulated"``.
    exports : tuple of str
        Public names of its module besides its functions (exported by the package too).
    module : str
        The module that holds its functions; ``topicsetsize.designs.<key>`` unless given (a
        design registered at run time may live anywhere importable).
    caveat : str
        What its stated power rests on that real IR scores are known not to give, with the
        evidence; said wherever its answer is (the command line's ``n``, ``table`` and
        ``min-d``, its workbook calculator, ``docs/designs.md``). Empty where none is known.

    Every field is named (``Design(key=..., name=..., ...)``): a declaration reads as a form.
    """

    key: str
    name: str
    question: str
    inputs: tuple[str, ...]
    criterion: str
    methods: tuple[str, ...]
    model: str
    functions: dict[str, str]
    degrees_of_freedom: str
    noncentrality: str
    source: str
    per_system: bool = False
    table_rows: str | None = None
    effect_size: str | None = None
    helps: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    excel: dict[str, str] = field(default_factory=dict)
    kind: str | None = None
    exports: tuple[str, ...] = ()
    module: str = ""
    caveat: str = ""

    def __post_init__(self) -> None:
        if not self.module:
            object.__setattr__(self, "module", f"topicsetsize.designs.{self.key}")

    @property
    def effect(self) -> str:
        """The effect (or width) parameter: ``min_d``, ``min_dt`` or ``delta``."""
        return self.inputs[2] if self.criterion == "power" else self.inputs[1]

    def function(self, role: str) -> Callable:
        """The design's function for ``role`` (imported on first use).

        >>> DESIGNS["ci"].function("n").__name__
        'ci_n'
        >>> DESIGNS["ci"].function("min_effect")
        Traceback (most recent call last):
        ...
        KeyError: "design 'ci' has no min_effect function; it has: n, power"
        """
        if role not in self.functions:
            raise KeyError(f"design {self.key!r} has no {role} function; it has: "
                           + ", ".join(r for r in ROLES if r in self.functions))
        module = sys.modules.get(self.module) or importlib.import_module(self.module)
        return getattr(module, self.functions[role])


#: The configurations of the true means of the all-pairs design (Tukey's HSD, simulated; see
#: :func:`topicsetsize.designs.allpairs.configuration_means`) and what its n is sized for:
#: declared here, with no numerical import, for the engine and the command line alike.
ALLPAIRS_CONFIGURATIONS = ("least-favourable", "equally-spaced", "two-clusters")
ALLPAIRS_TARGETS = ("all-pairs", "best-worst")

_V_E2 = "two-way (runs x topics) residual variance, e.g. V_E2 of `topicsetsize variance`"
_V_EITHER = "within-system variance of either system (assumed equal), e.g. a one-way V_E"
_V_T = "variance of per-topic differences"
_M = "number of systems"
_REST = "alpha={alpha}, beta={beta}"
_TWO_WAY = "Two-way ANOVA (runs x topics, without replication)"
#: The CI designs' caveat: n bounds the *expected* width, each with its own example (scipy's
#: chi-square: paired, n = 79 at delta = .1, variance_t = .05, P(width <= .1) = .513, 89 topics
#: for .80; unpaired, 27 per system at delta = .1, variance = .0084, .522, 31 for .80; a
#: reviewer's find, 2026-12-06: the unpaired design quoted the paired example).
_EXPECTED_WIDTH = ("its n bounds the expected width of the interval: the width one collection "
                   "gives exceeds delta about half the time (for example, {example})")

#: The registry, in the order of the command line, the docs and the workbook. A design
#: registered at run time (:func:`register`) joins the end.
DESIGNS: dict[str, Design] = {d.key: d for d in (
    Design(
        key="anova", name="One-way ANOVA", kind="F",
        question="one-way ANOVA over m systems (minimum range minD)",
        inputs=("alpha", "beta", "min_d", "variance", "m"), criterion="power",
        methods=("legacy", "exact"), model="one-way",
        functions={"n": "anova_n", "power": "anova_power", "min_effect": "anova_min_d",
                   "table": "anova_table"},
        exports=("anova_initial_n", "anova_legacy_terms"),
        degrees_of_freedom="φA = m − 1, φE = m(n − 1)", noncentrality="λ = n·minD²/(2σ²)",
        source="Sakai, IRJ 2016, Section 5; CIKM 2014 (legacy: Nagata 2003, samplesizeANOVA)",
        table_rows="m",
        helps={"min_d": "minimum detectable range", "variance": "within-system variance",
               "m": _M},
        titles={"n": "One-way ANOVA: m={m} systems, minD={min_d}, variance={variance}, " + _REST,
                "table": "ANOVA topic set sizes: variance={variance}, " + _REST
                         + "; rows m, columns minD",
                "min-d": "Minimum detectable range: n={n} topics, m={m} systems, "
                         "variance={variance}, " + _REST},
        excel={"n": "TSS_ANOVA", "power": "TSS_POWER_ANOVA", "min_effect": "TSS_MIND_ANOVA",
               "table": "TSS_TABLE_ANOVA"},
        caveat="its n is for independent topic samples per system: where all runs share one "
               "topic set, a one-way ANOVA rejects far less often than its theory says (TREC "
               "2010 Web AP, the 20 best runs, 48 topics: in 9% of resampled topic sets where "
               "its theory says 40%; docs/checks.md); test such data with a two-way ANOVA "
               "(topics as blocks), which the two-way design sizes from V_E2"),
    Design(
        key="ttest", name="Paired t-test", kind="t", question="paired t-test between two systems",
        inputs=("alpha", "beta", "min_dt", "variance_t"), criterion="power",
        methods=("legacy", "exact"), model="paired",
        functions={"n": "ttest_n", "power": "ttest_power", "min_effect": "ttest_min_dt",
                   "table": "ttest_table", "n_effect": "ttest_n_effect"},
        exports=("ttest_initial_n",),
        degrees_of_freedom="φ = n − 1", noncentrality="λ = √n·minDt/σt",
        source="Sakai, IRJ 2016, Section 3 (legacy: samplesizeTTEST)",
        table_rows="variance_t", effect_size="min_delta_t",
        helps={"min_dt": "minimum detectable difference", "variance_t": _V_T,
               "min_delta_t": "minimum detectable effect size"},
        titles={"n": "Paired t-test: {effect_text}, " + _REST,
                "table": "Paired t-test topic set sizes: " + _REST
                         + "; rows variance_t, columns minDt",
                "min-d": "Minimum detectable difference: n={n} topics, "
                         "variance_t={variance_t}, " + _REST},
        excel={"n": "TSS_TTEST", "n_effect": "TSS_TTEST_ES", "power": "TSS_POWER_TTEST",
               "min_effect": "TSS_MINDT_TTEST"}),
    Design(
        key="ci", name="CI width", kind="width", question="expected CI width of a difference",
        inputs=("alpha", "delta", "variance_t"), criterion="width", methods=("exact",),
        model="paired", functions={"n": "ci_n", "power": "ci_delta"},
        degrees_of_freedom="φ = n − 1", noncentrality="E[width] = 2·t(φ; α)·E[√V]/√n",
        source="Sakai, IRJ 2016, Section 6 (samplesizeCI)",
        helps={"delta": "largest expected CI width", "variance_t": _V_T},
        titles={"n": "CI width: delta={delta}, variance_t={variance_t}, alpha={alpha}"},
        excel={"n": "TSS_CI", "power": "TSS_CI_WIDTH"},
        caveat=_EXPECTED_WIDTH.format(example="delta = .1 and variance_t = .05: at the 79 "
                                      "topics sized, 49% of intervals are wider; 89 topics keep "
                                      "80% of them within delta")),
    Design(
        key="anova2", name="Two-way ANOVA", kind="F",
        question="two-way ANOVA, topics as blocks (exact noncentral F)",
        inputs=("alpha", "beta", "min_d", "variance", "m"), criterion="power",
        methods=("exact",), model="two-way",
        functions={"n": "anova2_n", "power": "anova2_power", "min_effect": "anova2_min_d",
                   "table": "anova2_table"},
        exports=("anova2_df",),
        degrees_of_freedom="φA = m − 1, φE = (m − 1)(n − 1)",
        noncentrality="λ = n·minD²/(2σ²), σ² the two-way V_E2",
        source="randomised block design (Montgomery, Section 4.1; Sakai 2018, Chapter 3)",
        table_rows="m",
        helps={"min_d": "minimum detectable range", "variance": _V_E2, "m": _M},
        titles={"n": _TWO_WAY + ": m={m} systems, minD={min_d}, variance={variance}, " + _REST,
                "table": _TWO_WAY + ": topic set sizes, rows m, columns minD, "
                                    "variance={variance}, " + _REST,
                "min-d": _TWO_WAY + ": minimum detectable range, n={n} topics, m={m} systems, "
                                    "variance={variance}, " + _REST},
        excel={"n": "TSS_ANOVA2", "power": "TSS_POWER_ANOVA2", "min_effect": "TSS_MIND_ANOVA2",
               "table": "TSS_TABLE_ANOVA2"},
        caveat="its power assumes normal residuals of equal variance, which real IR scores are "
               "not: on TREC 2010 Web AP (the 20 best runs, 48 topics) the test rejected in 77.5% "
               "of resampled topic sets where its theory says 91.8% (docs/checks.md); "
               "`topicsetsize check-power FILE --test anova2 --m M --n N` checks it on a past "
               "matrix"),
    Design(
        key="ttest2", name="Two-sample (unpaired) t-test", kind="t",
        question="two-sample (unpaired) t-test: n topics per system",
        inputs=("alpha", "beta", "min_d", "variance"), criterion="power", methods=("exact",),
        model="unpaired",
        functions={"n": "ttest2_n", "power": "ttest2_power", "min_effect": "ttest2_min_d",
                   "table": "ttest2_table"},
        degrees_of_freedom="φ = 2(n − 1)", noncentrality="λ = √(n/2)·minD/σ",
        source="Student's two-sample t-test (Cohen 1988, Chapter 2; Nagata 2003)",
        per_system=True, table_rows="variance",
        helps={"min_d": "minimum detectable difference between the two systems",
               "variance": _V_EITHER},
        titles={"n": "Two-sample (unpaired) t-test: minD={min_d}, variance={variance}, "
                     + _REST,
                "table": "Two-sample (unpaired) t-test: topics per system, " + _REST
                         + "; rows variance, columns minD",
                "min-d": "Two-sample (unpaired) t-test: minimum detectable difference, n={n} "
                         "topics per system, variance={variance}, " + _REST},
        excel={"n": "TSS_TTEST2", "power": "TSS_POWER_TTEST2", "min_effect": "TSS_MIND_TTEST2"}),
    Design(
        key="ci2", name="CI of a difference of two independent means", kind="width",
        question="expected CI width of a difference of two independent means: "
                 "n topics per system",
        inputs=("alpha", "delta", "variance"), criterion="width", methods=("exact",),
        model="unpaired", functions={"n": "ci2_n", "power": "ci2_delta"},
        degrees_of_freedom="φ = 2(n − 1)", noncentrality="E[width] = 2·t(φ; α)·E[s_p]·√(2/n)",
        source="the two-sample CI (Cohen 1988; Nagata 2003)",
        per_system=True,
        helps={"delta": "largest expected CI width", "variance": _V_EITHER},
        titles={"n": "CI of a difference of two independent means: delta={delta}, "
                     "variance={variance}, alpha={alpha}"},
        excel={"n": "TSS_CI2", "power": "TSS_CI2_WIDTH"},
        caveat=_EXPECTED_WIDTH.format(example="delta = .1 and variance = .0084: at the 27 topics "
                                      "per system sized, 48% of intervals are wider; 31 per "
                                      "system keep 80% of them within delta")),
    Design(
        key="allpairs", name="All pairs under Tukey's HSD", kind="simulated",
        question="Tukey HSD over m systems: detect every pair >= minD apart (simulated)",
        inputs=("alpha", "beta", "min_d", "variance", "m"), criterion="power",
        methods=("simulated",), model="two-way",
        functions={"n": "allpairs_n", "power": "allpairs_power"},
        exports=("AllPairsN", "AllPairsPower"),
        degrees_of_freedom="φA = m − 1, φE = (m − 1)(n − 1)",
        noncentrality="simulated (common random numbers across n)",
        source="Tukey 1953, on the two-way design, by simulation (Sakai 2018, Chapter 4)",
        helps={"min_d": "minimum detectable difference between two systems",
               "variance": "residual variance (two-way V_E2; a one-way V_E is larger on raw "
                           "scores, not after std-AB)", "m": "number of systems (2..1000)"}),
)}

#: The keys of the designs the package itself declares (not those added by :func:`register`).
BUILT_IN = frozenset(DESIGNS)


def register(design: Design, *, replace: bool = False) -> Design:
    """Add a design to :data:`DESIGNS` at run time (at the end of the order).

    Everything built from the registry then finds it: ``topicsetsize.<its function>`` (the
    package's exports are read from the registry), the command line (built when it parses),
    ``docs/designs.md``'s table. Its functions live in ``design.module`` (any importable
    module, e.g. one put in :data:`sys.modules`), usually built from the pieces of a kind of
    :mod:`topicsetsize.designs.kinds`.

    Parameters
    ----------
    design : Design
        The declaration.
    replace : bool
        Allow replacing a design of the same key (otherwise an error).

    Returns
    -------
    Design
        ``design``.

    Raises
    ------
    ValueError
        If the key is taken (and ``replace`` is False) or an input is not a registered
        parameter of :data:`topicsetsize.params.PARAMS`.

    Examples
    --------
    >>> toy = Design(key="toy", name="Toy", question="a toy", inputs=("alpha", "beta", "min_d",
    ...              "variance"), criterion="power", methods=("exact",), model="paired",
    ...              functions={"n": "toy_n"}, degrees_of_freedom="φ = n − 1",
    ...              noncentrality="λ = √n·minD/σ", source="a doctest", module="toy_module")
    >>> register(toy) is toy, list(DESIGNS)[-1], toy.module
    (True, 'toy', 'toy_module')
    >>> unregister("toy").key, "toy" in DESIGNS
    ('toy', False)
    """
    from ..params import PARAMS

    if design.key in DESIGNS and not replace:
        raise ValueError(f"design {design.key!r} is already registered (replace=True to "
                         "replace it)")
    unknown = [name for name in design.inputs if name not in PARAMS]
    if unknown:
        raise ValueError(f"design {design.key!r}: inputs {unknown} are not parameters of "
                         "topicsetsize.params.PARAMS")
    _forget(DESIGNS.get(design.key))
    DESIGNS[design.key] = design
    return design


def unregister(key: str) -> Design:
    """Remove a design registered with :func:`register` (and the package's cached functions of
    it); returns its declaration."""
    design = DESIGNS.pop(key)
    _forget(design)
    return design


def _forget(design: Design | None) -> None:
    """Drop the package attributes cached for ``design`` (``topicsetsize.<name>``)."""
    import sys

    package = sys.modules.get(__name__.split(".")[0])
    if design is None or package is None:
        return
    for name in (*design.functions.values(), *design.exports):
        if name not in getattr(package, "_MODULE_OF", {}):   # the built-in designs' stay
            package.__dict__.pop(name, None)


def markdown() -> str:
    """The docs' table of designs (``docs/designs.md``), written from :data:`DESIGNS`.

    >>> print(markdown().splitlines()[0])
    # The designs
    """
    def names(d: Design, role: str) -> str:
        return f"`{d.functions[role]}`" if role in d.functions else "–"

    lines = ["# The designs", "",
             "Generated from the design registry (`topicsetsize/designs/registry.py`) by "
             "`python -m topicsetsize.designs.registry > docs/designs.md`; a test keeps it in "
             "step. Every function is exported by `import topicsetsize as tss`.", "",
             "| design | `topicsetsize n` | model | inputs | criterion | methods | n | power or "
             "width | minimum effect | table | Excel |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for d in DESIGNS.values():
        criterion = "power 1 − β" if d.criterion == "power" else "expected CI width ≤ δ"
        lines.append(
            f"| {d.name} | `{d.key}` | {d.model} | {', '.join(d.inputs)} | {criterion} | "
            f"{', '.join(d.methods)} | {names(d, 'n')} | {names(d, 'power')} | "
            f"{names(d, 'min_effect')} | {names(d, 'table')} | "
            f"{', '.join(f'`{x}`' for x in d.excel.values()) or '–'} |")
    lines += ["", "| design | degrees of freedom | noncentrality or width | source |",
              "|---|---|---|---|"]
    lines += [f"| {d.name} | {d.degrees_of_freedom} | {d.noncentrality} | {d.source} |"
              for d in DESIGNS.values()]
    lines += [f"\n**{d.name}:** {d.caveat[0].upper()}{d.caveat[1:]}."
              for d in DESIGNS.values() if d.caveat]
    lines += ["", "n counts the topics of each system in the unpaired designs ("
              + ", ".join(f"`{k}`" for k, d in DESIGNS.items() if d.per_system)
              + "), 2n in all.", ""]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - writes docs/designs.md
    print(markdown(), end="")
