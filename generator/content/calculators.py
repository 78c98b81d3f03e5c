"""The calculators, declared: one :class:`Calculator` per design of the engine's registry.

A declaration holds what the workbook needs of a design besides the engine's own declaration
(:data:`topicsetsize.designs.registry.DESIGNS`): the sheet builder that writes it, its inputs
with their ranges and meanings, its named answers and the engine function behind each saved
value, its About description, the variance a score matrix starts it from, and what its sheet
writes differently from the other designs of its kind (the formulas of φ and of the initial
n, the effect's wording). Built from :data:`CALCULATORS`, at the time of use (so that a design
declared at run time is in them): the spec reader's allowed keys, the starting values and the
About sheet, the calculator sheets and the workbook-level names of their answers.

Every design of the engine's registry has a declaration here or is named in
:data:`NO_CALCULATOR` (a test checks it).

>>> [c.sheet for c in CALCULATORS.values()]
['ANOVA', 'TTEST', 'CI', 'ANOVA2', 'TTEST2', 'CI2']
>>> CALCULATORS["ttest"].variance
StartVariance(input='variance_t', source='one-way', factor=2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from topicsetsize.designs.registry import DESIGNS

from .inputs import SHEET_INPUTS, Input, alpha_input, beta_input, your_n_input

__all__ = ["Answer", "StartVariance", "Calculator", "CALCULATORS", "NO_CALCULATOR", "INPUTS",
           "calculators", "named_answers", "undeclared"]


@dataclass(frozen=True)
class Answer:
    """A named answer of a calculator: the workbook-level name ``{key}_{suffix}``, what it is
    (the About sheet), and the role of the design's engine function that gives its saved value
    (``"n"``, ``"n_effect"``, ``"power"``, ``"min_effect"``; None where the engine has none)
    with its method."""

    suffix: str
    meaning: str
    engine: str | None = None
    method: str | None = None


@dataclass(frozen=True)
class StartVariance:
    """The variance input a score matrix fills: its V_E (``"one-way"``) or two-way V_E2
    (``"two-way"``), times ``factor`` (σ̂t² = 2·V_E). A one-way variance may also be picked
    from the measures of the Variance sheet."""

    input: str
    source: str
    factor: int = 1


@dataclass(frozen=True)
class Calculator:
    """The declaration of one calculator sheet.

    ``builder`` names the sheet builder of its kind (``"F"``, ``"t"``, ``"width"``:
    :data:`topicsetsize.generator.sheets.calculators.BUILDERS`); ``columns`` are the model
    columns that differ between the designs of a kind, as (header, formula) with ``{n}`` the
    candidate n (φ as ``dfe``; the t-test's noncentrality ``nc`` and ``lam``); ``formulas`` the
    sheet's own formulas (``n0``: the initial estimate, over ``{z}``, ``{zb}``, ``{effect}``,
    ``{variance}``; ``per``: the factor of an effect size at n); ``wording`` what the sheet
    says of them. ``second_style`` are the inputs of a second input style (the paired t-test's
    minΔt).
    """

    key: str
    builder: str
    title: str
    intro: tuple[str, ...]
    description: str
    inputs: tuple[Input, ...]
    answers: tuple[Answer, ...]
    variance: StartVariance
    columns: dict[str, tuple[str, str]] = field(default_factory=dict)
    formulas: dict[str, str] = field(default_factory=dict)
    wording: dict[str, str] = field(default_factory=dict)
    second_style: tuple[Input, ...] = ()

    @property
    def sheet(self) -> str:
        return self.key.upper()

    @property
    def design(self):
        """The engine's declaration (:data:`topicsetsize.designs.registry.DESIGNS`)."""
        return DESIGNS[self.key]

    @property
    def methods(self) -> tuple[str, ...]:
        return self.design.methods

    @property
    def per_system(self) -> bool:
        return self.design.per_system

    def name(self, suffix: str) -> str:
        return f"{self.key}_{suffix}"

    def symbol(self, key: str) -> str:
        """The symbol of input ``key`` (e.g. σ̂t² for ``variance_t``)."""
        return next(i.symbol for i in self.inputs if i.key == key)


_RANGE = "smallest best − worst difference to detect"
_CI_ALPHA = "1 − confidence level of the interval"
_CI_DELTA = "largest acceptable expected width of the CI"
_ONE_WAY_BOTH = "within-system variance (one-way V_E)"
_STATUS = Answer("status", "status of the inputs")
_PAIRED_T = {"dfe": ("φ = n−1", "={n}-1"), "nc": ("λ = √n·minΔt", "=SQRT({n})*{effect}"),
             "lam": ("λ² = n·minΔt²", "={n}*{effect}^2")}
_PAIRED_T_WORDING = {
    "effect": "minΔt = minDt/σ̂t", "effect_note": "the effect size",
    "n0_note": "((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2 (Sakai, IRJ 2016, Eq. 6)"}
_PAIRED_T_FORMULAS = {"n0": "=(({z}+{zb})/{effect}*SQRT({variance}))^2+{z}^2/2",
                      "per": "SQRT(1/{n})"}


def _declared() -> Iterator[Calculator]:
    yield Calculator(
        "anova", "F", "One-way ANOVA: how many topics to tell m systems apart", (
            "Type your design in the yellow cells; everything else recalculates. The answer is "
            "the smallest n from which the power stays at or above 1 − β.",
            "Legacy = Nagata's approximation, as in Sakai's samplesizeANOVA sheet and the "
            "published tables; exact = the noncentral F distribution."),
        "calculator: one-way ANOVA topic set size (α, β, minD, σ̂², m), legacy and exact",
        (alpha_input("anova"), beta_input("anova"),
         Input("anova_min_d", "min_d", "minD", _RANGE, 0.02),
         Input("anova_variance", "variance", "σ̂²",
               "within-system variance (a past matrix's V_E)", 0.0601),
         Input("anova_m", "m", "m", "number of systems to compare", 2),
         your_n_input("anova", "power and minD detectable at it")),
        (Answer("n_legacy", "required n, legacy method", "n", "legacy"),
         Answer("n_exact", "required n, exact method", "n", "exact"),
         Answer("power_legacy", "legacy power at your n", "power", "legacy"),
         Answer("power_exact", "exact power at your n", "power", "exact"),
         Answer("min_d_at_n_legacy", "minimum detectable minD at your n, legacy method",
                "min_effect", "legacy"),
         Answer("min_d_at_n_exact", "minimum detectable minD at your n, exact method",
                "min_effect", "exact"),
         Answer("status", "status of the inputs (OK, or the first bad input)")),
        StartVariance("variance", "one-way"),
        columns={"dfe": ("φE = m(n−1)", "={m}*({n}-1)")})
    yield Calculator(
        "ttest", "t", "Paired t-test: how many topics to tell two systems apart", (
            "Two input styles: minDt with σ̂t², or the effect size minΔt = minDt/σ̂t (blank: "
            "it follows minDt/σ̂t of the first style).",
            "Legacy = the normal approximation of Sakai's samplesizeTTEST sheet; exact = the "
            "noncentral t distribution (as a noncentral F(1, φ) mixture)."),
        "calculator: paired t-test topic set size (α, β, minDt and σ̂t², or minΔt)",
        (alpha_input("ttest"), beta_input("ttest"),
         Input("ttest_min_dt", "min_dt", "minDt", "smallest difference to detect", 0.1),
         Input("ttest_variance_t", "variance_t", "σ̂t²",
               "variance of per-topic differences (2 × V_E)", 0.04),
         your_n_input("ttest", "power and minDt detectable at it")),
        (Answer("n_legacy", "required n (minDt, σ̂t² inputs), legacy method", "n", "legacy"),
         Answer("n_exact", "required n (minDt, σ̂t² inputs), exact method", "n", "exact"),
         Answer("delta_t_n_legacy", "required n for minΔt, legacy method", "n_effect",
                "legacy"),
         Answer("delta_t_n_exact", "required n for minΔt, exact method", "n_effect", "exact"),
         Answer("power_legacy", "legacy power at your n", "power", "legacy"),
         Answer("power_exact", "exact power at your n", "power", "exact"),
         Answer("min_dt_at_n_legacy", "minimum detectable minDt at your n, legacy method",
                "min_effect", "legacy"),
         Answer("min_dt_at_n_exact", "minimum detectable minDt at your n, exact method",
                "min_effect", "exact"),
         _STATUS),
        StartVariance("variance_t", "one-way", 2), columns=_PAIRED_T,
        formulas=_PAIRED_T_FORMULAS, wording=_PAIRED_T_WORDING,
        second_style=(Input("ttest_min_delta_t", "min_delta_t", "minΔt",
                            "effect size minDt/σ̂t (blank: from above)", None, optional=True),))
    yield Calculator(
        "ci", "width", "Confidence interval: how many topics for a CI of width δ", (
            "The smallest n whose expected 100(1−α)% CI width for the difference of two "
            "systems is at most δ (Sakai, IRJ 2016, Section 6), with E[√V] exact (GAMMALN).",
            "The approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1))) is shown beside it."),
        "calculator: topic set size for a confidence interval of width δ (α, δ, σ̂t²)",
        (alpha_input("ci", _CI_ALPHA), Input("ci_delta", "delta", "δ", _CI_DELTA, 0.10),
         Input("ci_variance_t", "variance_t", "σ̂t²",
               "variance of the per-topic score differences", 0.05),
         your_n_input("ci", "its expected CI width")),
        (Answer("n", "required n", "n", "exact"),
         Answer("n_approx", "required n with the approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1)))"),
         Answer("width_at_n", "expected width at your n", "power", "exact"), _STATUS),
        StartVariance("variance_t", "one-way", 2),
        columns={"dfe": ("φ = n−1", "={n}-1")},
        formulas={"n0": "=4*{z}^2*{variance}/{effect}^2", "per": "SQRT(1/{n})"},
        wording={"n0_note": "4·z_{α/2}²·σ̂t²/δ² (Sakai, IRJ 2016, Eq. 15)"})
    yield Calculator(
        "anova2", "F", "Two-way ANOVA without replication (randomised block: topics × systems)",
        ("Every system is run on the same topics, so the topics are blocks: σ̂² is the two-way "
         "residual variance V_E2 (topic effect removed), φE = (m − 1)(n − 1).",
         "Exact method only: power = Pr{F'(φA, φE, λ) ≥ F(φA, φE; α)}, λ = n·minD²/(2σ̂²) "
         "(the legacy tools have no two-way design)."),
        "calculator: two-way ANOVA without replication (randomised block, topics × systems; "
        "α, β, minD, two-way residual σ̂², m), exact",
        (alpha_input("anova2"), beta_input("anova2"),
         Input("anova2_min_d", "min_d", "minD", _RANGE, 0.10),
         Input("anova2_variance", "variance", "σ̂²", "two-way residual variance V_E2", 0.0601),
         Input("anova2_m", "m", "m", "number of systems to compare", 10),
         your_n_input("anova2", "power and minD detectable at it")),
        (Answer("n", "required n, two-way ANOVA without replication (exact)", "n", "exact"),
         Answer("power", "power at your n", "power", "exact"),
         Answer("min_d_at_n", "minimum detectable minD at your n", "min_effect", "exact"),
         _STATUS),
        StartVariance("variance", "two-way"),
        columns={"dfe": ("φE = (m−1)(n−1)", "=({m}-1)*({n}-1)")})
    yield Calculator(
        "ttest2", "t", "Unpaired (two-sample) t-test: n topics per system", (
            "Each system is evaluated on its own n topics (2n in all): Student's t-test with "
            "φ = 2(n − 1) and λ = √(n/2)·minD/σ̂; σ̂² is the within-system variance (one-way "
            "V_E).",
            "Exact method only: the noncentral t distribution (as a noncentral F(1, φ) "
            "mixture)."),
        "calculator: unpaired (two-sample) t-test, n topics per system (α, β, minD, σ̂²), exact",
        (alpha_input("ttest2"), beta_input("ttest2"),
         Input("ttest2_min_d", "min_d", "minD", "smallest difference to detect", 0.10),
         Input("ttest2_variance", "variance", "σ̂²", _ONE_WAY_BOTH, 0.0601),
         your_n_input("ttest2", "power and minD detectable at it", "n per system")),
        (Answer("n", "required n per system, two-sample t-test (exact)", "n", "exact"),
         Answer("power", "power at your n per system", "power", "exact"),
         Answer("min_d_at_n", "minimum detectable minD at your n per system"), _STATUS),
        StartVariance("variance", "one-way"),
        columns={"dfe": ("φ = 2(n−1)", "=2*({n}-1)"),
                 "nc": ("λ = √(n/2)·minD/σ̂", "=SQRT({n}/2)*{effect}"),
                 "lam": ("λ² = (n/2)(minD/σ̂)²", "={n}/2*{effect}^2")},
        formulas={"n0": "=2*(({z}+{zb})/{effect}*SQRT({variance}))^2+{z}^2/4",
                  "per": "SQRT(2/{n})"},
        wording={"effect": "minD/σ̂", "effect_note": "the effect size (Cohen's d)",
                 "n0_note": "2((z_{α/2} + z_β)σ̂/minD)² + z_{α/2}²/4 (Cohen 1988)"})
    yield Calculator(
        "ci2", "width", "CI of a difference of two independent means: n topics per system", (
            "Each system is evaluated on its own n topics (2n in all): the expected width of "
            "the 100(1−α)% CI of x̄₁ − x̄₂ is 2·t(φ; α)·E[s_p]·√(2/n), φ = 2(n − 1).",
            "E[s_p] exact (GAMMALN); σ̂² is the within-system variance (one-way V_E). The "
            "approximation E[s_p] ≈ σ̂(1 − 1/(4φ)) is shown beside it."),
        "calculator: CI of a difference of two independent means, n topics per system "
        "(α, δ, σ̂²)",
        (alpha_input("ci2", _CI_ALPHA), Input("ci2_delta", "delta", "δ", _CI_DELTA, 0.10),
         Input("ci2_variance", "variance", "σ̂²", _ONE_WAY_BOTH, 0.05),
         your_n_input("ci2", "its expected CI width", "n per system")),
        (Answer("n", "required n per system, CI of a difference of two independent means",
                "n", "exact"),
         Answer("n_approx", "required n per system with the approximation E[s_p] ≈ "
                            "σ̂(1 − 1/(4φ))"),
         Answer("width_at_n", "expected width at your n per system", "power", "exact"),
         _STATUS),
        StartVariance("variance", "one-way"),
        columns={"dfe": ("φ = 2(n−1)", "=2*({n}-1)")},
        formulas={"n0": "=8*{z}^2*{variance}/{effect}^2", "per": "SQRT(2/{n})"},
        wording={"n0_note": "8·z_{α/2}²·σ̂²/δ² per system"})


#: The calculators, by design key (a design declared at run time adds its own here).
CALCULATORS: dict[str, Calculator] = {c.key: c for c in _declared()}

#: The designs of the engine's registry that have no calculator sheet, and why.
NO_CALCULATOR: dict[str, str] = {
    "allpairs": "a simulation over the whole score matrix, with no closed-form power to write "
                "as formulas"}


def calculators() -> list[Calculator]:
    """The declared calculators, in the order of the engine's registry (the workbook's order).

    >>> [c.key for c in calculators()][:3]
    ['anova', 'ttest', 'ci']
    """
    return [CALCULATORS[key] for key in DESIGNS if key in CALCULATORS]


def undeclared() -> list[str]:
    """The designs of the engine's registry with neither a calculator nor a reason for none.

    >>> undeclared()
    []
    """
    return [key for key in DESIGNS if key not in CALCULATORS and key not in NO_CALCULATOR]


def named_answers() -> dict[str, str]:
    """{workbook-level name: what it is} of every calculator's answers (the About sheet).

    >>> named_answers()["ci_n"]
    'CI: required n'
    """
    return {c.name(a.suffix): f"{c.sheet}: {a.meaning}" for c in calculators()
            for a in c.answers}


class _Inputs(Mapping):
    """The inputs of every sheet, by key: each calculator's (and ``{key}_effect``, the inputs of
    its second input style), then Decide's and Budget's; read from the declarations when
    used."""

    def _items(self) -> dict[str, tuple[Input, ...]]:
        out = {}
        for c in calculators():
            out[c.key] = c.inputs
            if c.second_style:
                out[f"{c.key}_effect"] = c.second_style
        return out | SHEET_INPUTS

    def __getitem__(self, key: str) -> tuple[Input, ...]:
        return self._items()[key]

    def __iter__(self):
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())


#: The inputs of each sheet, in sheet order: ``INPUTS["anova"]``, ``INPUTS["ttest_effect"]``
#: (the paired t-test's minΔt), ``INPUTS["decide"]``, ``INPUTS["budget"]``.
INPUTS: Mapping[str, tuple[Input, ...]] = _Inputs()
