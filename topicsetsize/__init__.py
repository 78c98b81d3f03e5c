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
    "designs.scales": ("ScaleWarning",),
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
# A module as an attribute keeps its short name (``tss.power``, ``tss.readers``) after the
# modules moved into folders by data flow (docs/architecture.md).
_SUBMODULE = {module.rsplit(".", 1)[-1]: module for module in _EXPORTS if "." in module}
_SUBMODULE.update({"power": "designs.anova", "samplesize": "designs.anova",
                   "twoway": "designs.anova2", "distributions": "numerics.distributions",
                   "roots": "numerics.roots", "tables": "designs.tables",
                   "shapes": "numerics.shapes", "matrix": "matrices.matrix",
                   "formats": "matrices.formats", "paired": "checks.paired"})


def _design_exports(built_in: bool = False) -> dict[str, str]:
    """Every registered design's functions (and its other public names) → the full name of
    the module holding them, read from the design registry at the time of the call (with
    ``built_in``, only the package's own designs).

    The registry is plain data (no numerical library) and is read only when a name is looked
    up, so that ``import topicsetsize`` stays as light as the version and this map. A design
    registered at run time (:func:`topicsetsize.designs.registry.register`) is found here."""
    import importlib

    registry = importlib.import_module(f"{__name__}.designs.registry")
    return {name: design.module for key, design in registry.DESIGNS.items()
            if not built_in or key in registry.BUILT_IN
            for name in (*design.functions.values(), *design.exports)}


def _module_of() -> dict[str, str]:
    """``_MODULE_OF``: each public name → its module, relative to the package. The names of
    :data:`_EXPORTS` and of the package's own designs (computed at first use, and kept); a
    design added at run time, whose module may live anywhere, is looked up in the registry
    each time (:func:`_design_exports`)."""
    found = globals().get("_MODULE_OF")
    if found is None:
        found = {name: module for module, names in _EXPORTS.items() for name in names}
        found.update({name: module.removeprefix(f"{__name__}.")
                      for name, module in _design_exports(built_in=True).items()})
        globals()["_MODULE_OF"] = found
    return found


def __getattr__(name: str):
    """Import a public name (or a submodule) on first use and cache it (PEP 562)."""
    import importlib

    if name == "_MODULE_OF":
        return _module_of()
    if name == "__all__":
        value = ["__version__", *_module_of()]
        globals()[name] = value
        return value
    module = _module_of().get(name)
    module = f"{__name__}.{module}" if module is not None else _design_exports().get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    else:
        short = _SUBMODULE.get(name) or next(
            (m.removeprefix(f"{__name__}.") for m in _design_exports().values()
             if m.startswith(f"{__name__}.") and m.rsplit(".", 1)[-1] == name), name)
        try:
            value = importlib.import_module(f".{short}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{short}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_module_of()) | set(_design_exports()))
