"""Excel functions for topic set size design: every engine capability as a formula.

One module for both runtimes (see ``docs/excel.md``):

* **classic Excel on Windows**: ``xlwings addin install``, then *UDF Modules* = ``xladdin.udfs``
  and *Import Functions* in the xlwings ribbon tab;
* **xlwings Lite** (Excel on Windows, Mac and the web) and **xlwings Server**: Office.js custom
  functions, e.g. ``from topicsetsize.xladdin.udfs import *`` in Lite's ``main.py``.

The functions are thin wrappers: the statistics live in :mod:`topicsetsize`. Each design's
standard functions (n, power or width, minimum effect, table; ``TSS_ANOVA``, ``TSS_POWER_ANOVA``,
...) are built from its declaration in :data:`topicsetsize.designs.registry.DESIGNS` by
:func:`design_functions`; the others are written here. The Excel-shaped
input (floats for counts, blank cells, ranges as lists of rows) is handled by
:mod:`xladdin._convert`, the registration and the error reporting by :mod:`xladdin._register`.
A range is a topic-by-run block: topics in rows, runs in columns. A blank or text cell in it is
an error naming its row and column; results are plain ``int``/``float`` (never NaN).

Outside Excel they are ordinary Python functions, e.g. Table 2 of the AIRS 2016 paper
(MedNLPDoc raw recall, V_E = .0601, m = 10, minD = .1, α = .05, β = .20):

>>> TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10.0)
188
>>> TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10.0, "exact")
189
"""

from __future__ import annotations

import topicsetsize as tss
from topicsetsize.designs.registry import DESIGNS
from topicsetsize.errors import refuse_repeated

from ._convert import (
    flag,
    matrix,
    number,
    optional_number,
    plain,
    refuse_legacy_zero,
    refuse_powerless,
    vector,
)
from ._convert import method as _method
from ._design_functions import design_functions, table_corner  # noqa: F401 - public here
from ._register import excel_function

#: The functions written here by hand: those that are not a design's standard role.
HAND_WRITTEN = ("TSS_GUARANTEES", "TSS_VAR", "TSS_VAR2", "TSS_POOLED_VAR", "STDAB", "STDAB_VAR",
                "STDCDF", "TSS_KENDALL", "TSS_GSTUDY")

# --- The designs' standard functions: n, power or width, minimum effect, table ----------------

#: Every registered design's standard functions (:func:`design_functions`), by Excel name.
DESIGN_FUNCTIONS = {name: fn for design in DESIGNS.values()
                    for name, fn in design_functions(design).items()}
globals().update(DESIGN_FUNCTIONS)

__all__ = [*DESIGN_FUNCTIONS, *HAND_WRITTEN]

#: The top-left cell of TSS_TABLE_ANOVA's block: m down the first column, minD along the top.
TABLE_CORNER = table_corner(DESIGNS["anova"])


# --- Beyond a single design -----------------------------------------------------------------------

def _labels(name: str, value, key: str):
    """A row or column of values that label a block's rows: each once (as the tables and the
    command line take them)."""
    values = vector(name, value, key)
    refuse_repeated(name, values.tolist())
    return values


def _estimate(v_e: float, *scores) -> float:
    """A variance estimate of ``scores`` as a cell shows it: exactly 0 where it is 0 up to
    rounding (:func:`~topicsetsize.estimates.variance.vanishes`: constant runs give about
    1e-33 in floating point, which TSS_ANOVA would size n on; on 0 it refuses var = 0, as the
    command line refuses such a matrix), else the estimate."""
    from topicsetsize.estimates.variance import vanishes

    return 0.0 if vanishes(v_e, *scores) else plain(v_e)


#: The header row of TSS_GUARANTEES's block.
GUARANTEES_HEADER = ["n", "m", "minD", "minDt", "CI width"]


@excel_function
def TSS_GUARANTEES(n, var, ms=None, alpha=None, beta=None, method=None):
    """What n topics guarantee (a block with a header row): per n and m, the ANOVA's minimum
    detectable range minD; per n, the paired t-test's minDt (var_t = 2 var) and the expected
    width of the 100(1-alpha)% CI."""
    from topicsetsize.decide.guarantee import DEFAULT_MS, guarantees

    options = {k: v for k, v in (("alpha", optional_number("alpha", alpha)),
                                 ("beta", optional_number("beta", beta))) if v is not None}
    refuse_powerless(options.get("alpha", 0.05), options.get("beta", 0.2))
    result = guarantees(_labels("n", n, "n"), variance=number("var", var, "variance"),
                        ms=DEFAULT_MS if ms is None else _labels("ms", ms, "m"),
                        method=_method(method), **options)
    if result.method == "legacy":      # as TSS_MIND_ANOVA and TSS_MINDT_TTEST refuse it
        refuse_legacy_zero("minD", result.table["min_d"])
        refuse_legacy_zero("minDt", result.table["min_dt"])
    rows = [[int(r.n), int(r.m), *plain([r.min_d, r.min_dt, r.ci_delta])]
            for r in result.table.itertuples()]
    return [list(GUARANTEES_HEADER), *rows]


# --- Variance estimates and standardisation ------------------------------------------------------

@excel_function
def TSS_VAR(range):  # noqa: A002 - the Excel argument's name
    """One-way ANOVA residual variance V_E of a topic-by-run score range (AIRS 2016 Eq. 1),
    the default variance estimate for topic set size design."""
    scores = matrix("range", range)
    return _estimate(tss.residual_variance(scores), scores)


@excel_function
def TSS_VAR2(range):  # noqa: A002
    """Two-way ANOVA (without replication) residual variance of a topic-by-run score range,
    with topics as the second factor."""
    scores = matrix("range", range)
    return _estimate(tss.two_way_residual_variance(scores), scores)


@excel_function
def TSS_POOLED_VAR(range1, *range2):
    """One-way residual variance V_E pooled over several topic-by-run score ranges, weighted by
    their degrees of freedom m'(n'-1)."""
    ranges = [range1, *(r for r in range2 if r is not None)]
    scores = [matrix(f"range{k}", r) for k, r in enumerate(ranges, 1)]
    return _estimate(tss.pooled_variance(scores), *scores)


def _std_ab(range, A, B, clip):  # noqa: A002
    """std-AB of a score range with the optional A, B and clip (engine defaults when blank)."""
    options = {"a": optional_number("A", A, "a"), "b": optional_number("B", B, "b"),
               "clip": flag("clip", clip)}
    return tss.std_ab(matrix("range", range),
                      **{k: v for k, v in options.items() if v is not None})


@excel_function
def STDAB(range, A=None, B=None, clip=None):  # noqa: A002, N803
    """std-AB standardised scores of a topic-by-run range (AIRS 2016): per topic, A times the
    z-score over the runs plus B, clipped to [0, 1]. Returns a range of the same shape."""
    return plain(_std_ab(range, A, B, clip))


@excel_function
def STDAB_VAR(range, A=None, B=None, clip=None):  # noqa: A002, N803
    """One-way residual variance V_E of the std-AB standardised scores of a topic-by-run range
    (the variance the std-AB paper uses for topic set size design)."""
    scores = _std_ab(range, A, B, clip)
    return _estimate(tss.residual_variance(scores), scores)


@excel_function
def STDCDF(range):  # noqa: A002
    """std-CDF standardised scores of a topic-by-run range (Webber et al. 2008): the normal CDF
    of each topic's z-score over the runs. Returns a range of the same shape."""
    return plain(tss.std_cdf(matrix("range", range)))


@excel_function
def TSS_KENDALL(x, y):
    """Kendall's tau between two rankings of the same runs (one score per run in x and in y),
    with the std-AB paper's 95% interval (tau's spread between unrelated rankings, not a
    confidence interval for this tau): a row tau, low, high."""
    return plain(list(tss.kendall_tau_ci(vector("x", x), vector("y", y))))


@excel_function
def TSS_GSTUDY(range):  # noqa: A002
    """Generalizability theory G-study of a topic-by-run score range (crossed runs x topics):
    a row sigma2_s (runs), sigma2_t (topics), sigma2_e (residual); a negative estimate is 0."""
    g = tss.g_study(matrix("range", range), name="range")
    return [plain([g.var_s, g.var_t, g.var_e])]
