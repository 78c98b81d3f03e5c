"""The toy design of issue 27's acceptance test: a one-sample t-test, ``ttest1``, added at run time.

A one-sample t-test of a mean difference from 0 has φ = n − 1 and λ = √n·minD/σ: the kind of
the paired t-test (the paired t-test is one on the per-topic differences), so the toy is built
as a contributor would add a design of an existing kind, from the paired t-test's pieces renamed
(:meth:`topicsetsize.designs.kinds.TKind.renamed`), in the pieces a contributor writes:

1. its module (:func:`engine_module`: three thin wrappers of the kind);
2. its declaration (:func:`declaration`, with the Excel names of its roles);
3. its calculator declaration (:func:`calculator`, built by the t-test sheets' builder);

then its tests (``tests/test_adding_a_design.py``) and its generated doc. Nothing else of the
package is edited: the API, the command line, the Excel functions and the workbook find it.
"""

from __future__ import annotations

import types

KEY = "ttest1"
MODULE = "toy_designs.ttest1"

#: The Excel names the toy declares for its roles.
EXCEL = {"n": "TSS_TTEST1", "power": "TSS_POWER_TTEST1", "min_effect": "TSS_MIND_TTEST1"}


def engine_module() -> types.ModuleType:
    """The toy's module: its public functions as thin wrappers of the paired t-test's kind."""
    from topicsetsize.designs.ttest import PAIRED

    kind = PAIRED.renamed(KEY)
    module = types.ModuleType(MODULE)

    def ttest1_n(alpha, beta, min_d, variance, *, method="exact"):
        """Topics n for a one-sample t-test of a mean difference minD (toy)."""
        return kind.n(alpha, beta, min_d, variance, method)

    def ttest1_power(n, *, min_d, variance, alpha, method="exact"):
        """Power of the one-sample t-test with n topics (toy)."""
        return kind.power(n, min_d, variance, alpha, method)

    def ttest1_min_d(n, *, variance, alpha, beta, method="exact"):
        """Minimum detectable mean difference with n topics (toy)."""
        return kind.min_effect(n, variance, alpha, beta, method)

    for f in (ttest1_n, ttest1_power, ttest1_min_d):
        f.__module__ = MODULE
        setattr(module, f.__name__, f)
    return module


def declaration():
    """The toy's entry of the design registry."""
    from topicsetsize.designs.registry import Design

    return Design(
        key=KEY, name="One-sample t-test", kind="t",
        question="one-sample t-test of a mean difference from 0",
        inputs=("alpha", "beta", "min_d", "variance"), criterion="power", methods=("exact",),
        model="paired", module=MODULE,
        functions={"n": "ttest1_n", "power": "ttest1_power", "min_effect": "ttest1_min_d"},
        degrees_of_freedom="φ = n − 1", noncentrality="λ = √n·minD/σ",
        source="Student's one-sample t-test (the acceptance test's toy)",
        helps={"min_d": "minimum detectable mean difference from 0",
               "variance": "variance of the scores"},
        titles={"n": "One-sample t-test: minD={min_d}, variance={variance}, alpha={alpha}, "
                     "beta={beta}",
                "min-d": "One-sample t-test: minimum detectable minD, n={n}, "
                         "variance={variance}"},
        excel=dict(EXCEL))


def calculator():
    """The toy's calculator declaration: the t-test sheets' builder, its own inputs and words."""
    from topicsetsize.generator.content.calculators import Answer, Calculator, StartVariance
    from topicsetsize.generator.content.inputs import (
        Input,
        alpha_input,
        beta_input,
        your_n_input,
    )

    return Calculator(
        KEY, "t", "One-sample t-test: how many topics to detect a mean difference",
        ("A design added at run time (tests/_toy_design.py).",),
        "calculator: one-sample t-test (α, β, minD, σ̂²), exact",
        (alpha_input(KEY), beta_input(KEY),
         Input(f"{KEY}_min_d", "min_d", "minD", "smallest mean difference to detect", 0.15),
         Input(f"{KEY}_variance", "variance", "σ̂²", "variance of the scores", 0.05),
         your_n_input(KEY, "power and minD detectable at it")),
        (Answer("n", "required n, one-sample t-test (exact)", "n", "exact"),
         Answer("power", "power at your n", "power", "exact"),
         Answer("min_d_at_n", "minimum detectable minD at your n", "min_effect", "exact"),
         Answer("status", "status of the inputs")),
        StartVariance("variance", "one-way"),
        columns={"dfe": ("φ = n−1", "={n}-1"), "nc": ("λ = √n·minD/σ̂", "=SQRT({n})*{effect}"),
                 "lam": ("λ² = n(minD/σ̂)²", "={n}*{effect}^2")},
        formulas={"n0": "=(({z}+{zb})/{effect}*SQRT({variance}))^2+{z}^2/2",
                  "per": "SQRT(1/{n})"},
        wording={"effect": "minD/σ̂", "effect_note": "the effect size",
                 "n0_note": "((z_{α/2} + z_β)σ̂/minD)² + z_{α/2}²/2"})
