"""A toy design for the Excel functions' tests: the one-sample t-test (issue 27's acceptance toy).

The one-sample t-test of a mean against 0 has φ = n − 1 and λ = √n·minD/σ: the paired t-test is
one on the per-topic differences, so the toy's functions are the paired t-test's exact ones with
the toy's own argument names (min_d, variance). :func:`toy_module` is its engine module and
:func:`toy_design` its declaration, made from the paired t-test's declaration (so that any field
the registry gains is filled) with its own key, names, inputs and Excel names. Used by
test_design_functions.py and, for xlwings' Office.js metadata, by _officejs_worker.py.
"""

from __future__ import annotations

import dataclasses
import types

KEY = "ttest1"
MODULE = "topicsetsize.designs.ttest1"

#: The Excel names the toy declares.
EXCEL = {"n": "TSS_TTEST1", "power": "TSS_POWER_TTEST1", "min_effect": "TSS_MIND_TTEST1"}


def toy_module() -> types.ModuleType:
    """The toy's engine module: the paired t-test's exact functions under the toy's names."""
    from topicsetsize.designs.ttest import ttest_min_dt, ttest_n, ttest_power

    module = types.ModuleType(MODULE)

    def ttest1_n(alpha, beta, min_d, variance):
        return ttest_n(alpha, beta, min_d, variance, method="exact")

    def ttest1_power(n, *, min_d, variance, alpha):
        return ttest_power(n, min_dt=min_d, variance_t=variance, alpha=alpha, method="exact")

    def ttest1_min_d(n, *, variance, alpha, beta):
        return ttest_min_dt(n, variance_t=variance, alpha=alpha, beta=beta, method="exact")

    for fn in (ttest1_n, ttest1_power, ttest1_min_d):
        setattr(module, fn.__name__, fn)
    return module


def toy_design():
    """The toy's declaration: the paired t-test's, with the toy's own names and inputs."""
    from topicsetsize.designs.registry import DESIGNS, Design

    own = {
        "key": KEY, "name": "One-sample t-test", "question": "one-sample t-test of a mean",
        "inputs": ("alpha", "beta", "min_d", "variance"), "methods": ("exact",),
        "functions": {"n": "ttest1_n", "power": "ttest1_power", "min_effect": "ttest1_min_d"},
        "table_rows": None, "effect_size": None, "titles": {}, "excel": dict(EXCEL),
        "helps": {"min_d": "minimum detectable difference from 0",
                  "variance": "variance of the scores"},
    }
    if "module" in {f.name for f in dataclasses.fields(Design)}:
        own["module"] = MODULE                  # a registry that names the module
    return dataclasses.replace(DESIGNS["ttest"], **own)
