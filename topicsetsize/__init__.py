"""topicsetsize: topic set size design for test collections.

Given a past topic-by-run score matrix, estimate the within-system variance
(optionally after std-AB standardisation) and find the number of topics n that
gives a one-way ANOVA, a paired t-test or a confidence interval the power or
precision asked for (Sakai, IRJ 2016; Sakai, AIRS 2016).
"""

from __future__ import annotations

__version__ = "0.1.0"

# Every public name is imported from its module on first use (PEP 562), so that
# ``import topicsetsize`` (and the command line's ``--version`` and ``--help``) does not load
# numpy, scipy or pandas. Map each exported name to the module that defines it.
_EXPORTS = {
    "errors": ("InputError",),
    "params": ("PARAMS", "check"),
    # the design engine (each design's functions come from its declaration, below)
    "designs.legacy": ("AnovaLegacyTerms",),
    "numerics.search": ("SearchLimitError",),
    "numerics.precision": ("PrecisionWarning",),
    # score matrices in and out, variance estimates
    "matrices.readers": ("read_matrix",),
    "matrices.writers": ("write_long", "write_trec_eval"),
    "estimates.variance": ("pooled_variance", "residual_variance", "two_way_residual_variance"),
    "estimates.standardise": (
        "StandardisationFactors", "standardisation_factors", "std_ab", "std_cdf"),
    "estimates.ranking": ("KendallTau", "kendall_tau_ci"),
    "estimates.summary": ("VarianceSummary", "summarise", "summarise_many"),
    "examples": ("example_matrix",),
    # empirical checks of a design: split-half reliability, resampled power
    "checks.reliability": ("SplitHalfResult", "random_splits", "split_half", "split_half_curve"),
    "checks.selection": ("select_topics", "top_runs", "transform_scores"),
    "checks.resampling": ("ResampledPower", "resampled_power"),
    # deciding n: what a topic set guarantees, one size over several requirements, the budget
    "decide.guarantee": ("Guarantees", "guarantees"),
    "decide.recommendation": ("Recommendation", "check_requirement", "recommend"),
    "decide.requirement_files": ("read_requirements",),
    "decide.budget": ("BudgetPlan", "budget_plan"),
    "decide.pools": ("depth_pool",),
    "decide.pooling": ("PoolDepthStudy", "pool_depth_study"),
    "matrices.runfiles": ("read_qrels", "read_run", "read_runs"),
    "matrices.evaluation": ("evaluate_runs", "evaluate_measures"),
    # multiple comparisons: randomised Tukey HSD (the all-pairs power of the HSD is a design)
    "checks.tukey": ("randomised_ranges", "tukey_hsd_randomised"),
    # knowing a past collection: generalizability theory, realistic minD, the report
    "estimates.gtheory": ("GStudy", "DStudy", "g_study", "d_study", "gt_n"),
    "estimates.differences": ("RunDifferences", "run_differences", "share_at_least"),
    "decide.realistic": ("realistic_min_d",),
    "report": ("CollectionReport", "collection_report"),
    # how uncertain an n from data is: a bootstrap over the past topics
    "estimates.uncertainty": ("NInterval", "n_interval", "bootstrap_variances"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}


def _design_exports() -> dict[str, str]:
    """Every registered design's functions (and other public names) → the full name of the
    module holding them, read from the design registry (plain data, no numerical library) at
    the time of the call."""
    from .designs.registry import DESIGNS

    return {name: design.module for design in DESIGNS.values()
            for name in (*design.functions.values(), *design.exports)}


# The designs registered when the package is imported (module names relative to the package,
# as above); one registered later (topicsetsize.designs.registry.register) is found by
# __getattr__ and __dir__ at the time.
_MODULE_OF.update({name: module.removeprefix(f"{__name__}.")
                   for name, module in _design_exports().items()})
# A module as an attribute keeps its short name (``tss.power``, ``tss.readers``) after the
# modules moved into folders by data flow (docs/architecture.md).
_SUBMODULE = {module.rsplit(".", 1)[-1]: module for module in {*_EXPORTS, *_MODULE_OF.values()}
              if "." in module}
_SUBMODULE.update({"power": "designs.anova", "samplesize": "designs.anova",
                   "twoway": "designs.anova2", "distributions": "numerics.distributions",
                   "roots": "numerics.roots", "tables": "designs.tables",
                   "shapes": "numerics.shapes", "matrix": "matrices.matrix",
                   "formats": "matrices.formats", "paired": "checks.paired"})


def __getattr__(name: str):
    """Import a public name (or a submodule) on first use and cache it (PEP 562)."""
    import importlib

    module = _MODULE_OF.get(name)
    module = f"{__name__}.{module}" if module is not None else _design_exports().get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    else:
        try:
            value = importlib.import_module(f".{_SUBMODULE.get(name, name)}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{_SUBMODULE.get(name, name)}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE_OF) | set(_design_exports()))


__all__ = ["__version__", *_MODULE_OF]
