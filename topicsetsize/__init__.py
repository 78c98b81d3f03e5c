"""topicsetsize: topic set size design for test collections.

Given a past topic-by-run score matrix, estimate the within-system variance
(optionally after std-AB standardisation) and find the number of topics n that
gives a one-way ANOVA, a paired t-test or a confidence interval the power or
precision asked for (Sakai, IRJ 2016; Sakai, AIRS 2016).
"""

from __future__ import annotations

__version__ = "0.1.0"

from .params import PARAMS, check  # noqa: E402,F401
# The design engine (issue 2).
from .power import AnovaLegacyTerms, anova_legacy_terms, anova_power, ttest_power  # noqa: E402
from .samplesize import (anova_initial_n, anova_n, ttest_initial_n, ttest_n,  # noqa: E402
                         ttest_n_effect)
from .detectable import anova_min_d, ttest_min_dt  # noqa: E402,F401
from .ci import ci_delta, ci_n  # noqa: E402,F401
from .tables import anova_table, ttest_table  # noqa: E402,F401
from .search import SearchLimitError  # noqa: E402,F401
# Score matrices in, variance estimates out (issue 3).
from .readers import read_matrix, write_long, write_trec_eval  # noqa: E402,F401
from .variance import pooled_variance, residual_variance, two_way_residual_variance  # noqa
from .standardise import StandardisationFactors, standardisation_factors, std_ab, std_cdf  # noqa
from .ranking import KendallTau, kendall_tau_ci  # noqa: E402,F401
from .summary import VarianceSummary, summarise, summarise_many  # noqa: E402,F401
from .examples import example_matrix  # noqa: E402,F401
# Empirical checks of a design: split-half reliability, resampled power (issue 6).
from .reliability import (SplitHalfResult, random_splits, select_topics,  # noqa: E402,F401
                          split_half, split_half_curve, top_runs, transform_scores)
from .resampling import ResampledPower, resampled_power  # noqa: E402,F401
# Multiple comparisons: randomised Tukey HSD, all-pairs power of the HSD.
from .tukey import randomised_ranges, tukey_hsd_randomised  # noqa: E402,F401
from .allpairs import AllPairsN, AllPairsPower, allpairs_n, allpairs_power  # noqa: E402,F401

__all__ = [
    "__version__", "PARAMS", "check",
    # design engine
    "anova_n", "anova_power", "anova_min_d", "anova_initial_n", "anova_legacy_terms",
    "AnovaLegacyTerms", "ttest_n", "ttest_n_effect", "ttest_power", "ttest_min_dt",
    "ttest_initial_n", "ci_n", "ci_delta", "anova_table", "ttest_table", "SearchLimitError",
    # score matrices and variances
    "read_matrix", "write_long", "write_trec_eval", "residual_variance",
    "two_way_residual_variance", "pooled_variance", "StandardisationFactors",
    "standardisation_factors", "std_ab", "std_cdf", "KendallTau", "kendall_tau_ci",
    "VarianceSummary", "summarise", "summarise_many", "example_matrix",
    # empirical checks
    "SplitHalfResult", "random_splits", "select_topics", "split_half", "split_half_curve",
    "top_runs", "transform_scores", "ResampledPower", "resampled_power",
    # multiple comparisons
    "tukey_hsd_randomised", "randomised_ranges", "AllPairsPower", "AllPairsN", "allpairs_power",
    "allpairs_n",
]
