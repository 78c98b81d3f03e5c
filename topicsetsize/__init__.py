"""topicsetsize: topic set size design for test collections.

Given a past topic-by-run score matrix, estimate the within-system variance
(optionally after std-AB standardisation) and find the number of topics n that
gives a one-way ANOVA, a paired t-test or a confidence interval the power or
precision asked for (Sakai, IRJ 2016; Sakai, AIRS 2016).
"""

from __future__ import annotations

__version__ = "0.1.0"

from .params import PARAMS, check  # noqa: E402,F401
