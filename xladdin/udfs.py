"""Excel functions for topic set size design: every engine capability as a formula.

One module for both runtimes (see ``docs/excel.md``):

* **classic Excel on Windows**: ``xlwings addin install``, then *UDF Modules* = ``xladdin.udfs``
  and *Import Functions* in the xlwings ribbon tab;
* **xlwings Lite** (Excel on Windows, Mac and the web) and **xlwings Server**: Office.js custom
  functions, e.g. ``from topicsetsize.xladdin.udfs import *`` in Lite's ``main.py``.

The functions are thin wrappers: the statistics live in :mod:`topicsetsize`; the Excel-shaped
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

from ._convert import flag, matrix, number, optional_number, plain, table, vector
from ._convert import method as _method
from ._register import excel_function

__all__ = [
    "TSS_ANOVA", "TSS_TTEST", "TSS_TTEST_ES", "TSS_CI", "TSS_CI_WIDTH",
    "TSS_POWER_ANOVA", "TSS_POWER_TTEST", "TSS_MIND_ANOVA", "TSS_MINDT_TTEST",
    "TSS_TABLE_ANOVA", "TSS_VAR", "TSS_VAR2", "TSS_POOLED_VAR",
    "STDAB", "STDAB_VAR", "STDCDF", "TSS_KENDALL",
    "TSS_ANOVA2", "TSS_POWER_ANOVA2", "TSS_MIND_ANOVA2", "TSS_TTEST2", "TSS_POWER_TTEST2",
    "TSS_CI2", "TSS_CI2_WIDTH",
    "TSS_GUARANTEES", "TSS_GSTUDY",
]

#: The top-left cell of TSS_TABLE_ANOVA's block: m down the first column, minD along the top.
TABLE_CORNER = "m \\ minD"


# --- Topic set sizes ---------------------------------------------------------------------------

@excel_function
def TSS_ANOVA(alpha, beta, minD, var, m, method=None):
    """Topics n for a one-way ANOVA of m systems to detect a range minD (best vs worst system)
    with power 1-beta at level alpha, given the variance var (Sakai's ANOVA design)."""
    return plain(tss.anova_n(number("alpha", alpha), number("beta", beta),
                             number("min_d", minD), number("variance", var), number("m", m),
                             method=_method(method)))


@excel_function
def TSS_TTEST(alpha, beta, minDt, var_t, method=None):
    """Topics n for a paired t-test to detect a difference minDt between two systems with
    power 1-beta at level alpha, given the variance var_t of the per-topic differences."""
    return plain(tss.ttest_n(number("alpha", alpha), number("beta", beta),
                             number("min_dt", minDt), number("variance_t", var_t),
                             method=_method(method)))


@excel_function
def TSS_TTEST_ES(alpha, beta, minDeltaT, method=None):
    """Topics n for a paired t-test to detect an effect size minDeltaT (minDt / sigma_t) with
    power 1-beta at level alpha."""
    return plain(tss.ttest_n_effect(number("alpha", alpha), number("beta", beta),
                                    number("min_delta_t", minDeltaT), method=_method(method)))


@excel_function
def TSS_CI(alpha, delta, var_t):
    """Topics n for which the expected width of the 100(1-alpha)% confidence interval of the
    difference between two systems is at most delta, given the variance var_t."""
    return plain(tss.ci_n(number("alpha", alpha), number("delta", delta),
                          number("variance_t", var_t)))


@excel_function
def TSS_CI_WIDTH(n, var_t, alpha):
    """Expected width of the 100(1-alpha)% confidence interval of the difference between two
    systems with n topics, given the variance var_t of the per-topic differences."""
    return plain(tss.ci_delta(number("n", n), variance_t=number("variance_t", var_t),
                              alpha=number("alpha", alpha)))


# --- Power and minimum detectable differences ---------------------------------------------------

@excel_function
def TSS_POWER_ANOVA(n, m, minD, var, alpha, method=None):
    """Power of a one-way ANOVA of m systems with n topics to detect a range minD at level
    alpha, given the variance var."""
    n, m = number("n", n), number("m", m)
    power = tss.anova_power(n, m=m, min_d=number("min_d", minD), variance=number("variance", var),
                            alpha=number("alpha", alpha), method=_method(method))
    return plain(power, undefined=(
        f"the legacy power is undefined at n={n}, m={m}: Nagata's approximation needs cA > a, "
        'as on the legacy sheet (#NUM!); such a small n does not reach the power; use "exact"'))


@excel_function
def TSS_POWER_TTEST(n, minDt, var_t, alpha, method=None):
    """Power of a paired t-test with n topics to detect a difference minDt between two systems
    at level alpha, given the variance var_t of the per-topic differences."""
    return plain(tss.ttest_power(number("n", n), min_dt=number("min_dt", minDt),
                                 variance_t=number("variance_t", var_t), alpha=number("alpha",
                                                                                      alpha),
                                 method=_method(method)))


@excel_function
def TSS_MIND_ANOVA(n, m, var, alpha, beta, method=None):
    """Minimum detectable range minD of a one-way ANOVA of m systems with n topics, at level
    alpha with power 1-beta, given the variance var."""
    return plain(tss.anova_min_d(number("n", n), m=number("m", m), variance=number("variance", var),
                                 alpha=number("alpha", alpha), beta=number("beta", beta),
                                 method=_method(method)))


@excel_function
def TSS_MINDT_TTEST(n, var_t, alpha, beta, method=None):
    """Minimum detectable difference minDt of a paired t-test with n topics, at level alpha
    with power 1-beta, given the variance var_t of the per-topic differences."""
    return plain(tss.ttest_min_dt(number("n", n), variance_t=number("variance_t", var_t),
                                  alpha=number("alpha", alpha), beta=number("beta", beta),
                                  method=_method(method)))


@excel_function
def TSS_TABLE_ANOVA(alpha, beta, var, ms, minDs, method=None):
    """Table of ANOVA topic set sizes n (as in Table 2 of the std-AB paper): one row per m in
    ms, one column per minD in minDs, with a header row and a header column."""
    frame = tss.anova_table(number("alpha", alpha), beta=number("beta", beta),
                            variance=number("variance", var), ms=vector("ms",
                                                                        ms), min_ds=vector("minDs",
                                                                                           minDs),
                            method=_method(method))
    return table(frame, TABLE_CORNER)


def _omitted(value) -> bool:
    """An optional range argument left out: None, or only blank cells."""
    if isinstance(value, (list, tuple)):
        return all(_omitted(v) for v in value)
    return value is None or value == ""


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
    result = guarantees(vector("n", n), variance=number("variance", var),
                        ms=DEFAULT_MS if _omitted(ms) else vector("ms", ms),
                        method=_method(method), **options)
    rows = [[int(r.n), int(r.m), *plain([r.min_d, r.min_dt, r.ci_delta])]
            for r in result.table.itertuples()]
    return [list(GUARANTEES_HEADER), *rows]


# --- Variance estimates and standardisation ------------------------------------------------------

@excel_function
def TSS_VAR(range):  # noqa: A002 - the Excel argument's name
    """One-way ANOVA residual variance V_E of a topic-by-run score range (AIRS 2016 Eq. 1),
    the default variance estimate for topic set size design."""
    return plain(tss.residual_variance(matrix("range", range)))


@excel_function
def TSS_VAR2(range):  # noqa: A002
    """Two-way ANOVA (without replication) residual variance of a topic-by-run score range,
    with topics as the second factor."""
    return plain(tss.two_way_residual_variance(matrix("range", range)))


@excel_function
def TSS_POOLED_VAR(range1, *range2):
    """One-way residual variance V_E pooled over several topic-by-run score ranges, weighted by
    their degrees of freedom m'(n'-1)."""
    ranges = [range1, *(r for r in range2 if r is not None)]
    return plain(tss.pooled_variance(
        [matrix(f"range{k}", r) for k, r in enumerate(ranges, 1)]))


def _std_ab(range, A, B, clip):  # noqa: A002
    """std-AB of a score range with the optional A, B and clip (engine defaults when blank)."""
    options = {"a": optional_number("a", A), "b": optional_number("b", B),
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
    return plain(tss.residual_variance(_std_ab(range, A, B, clip)))


@excel_function
def STDCDF(range):  # noqa: A002
    """std-CDF standardised scores of a topic-by-run range (Webber et al. 2008): the normal CDF
    of each topic's z-score over the runs. Returns a range of the same shape."""
    return plain(tss.std_cdf(matrix("range", range)))


@excel_function
def TSS_KENDALL(x, y):
    """Kendall's tau between two rankings of the same runs (one score per run in x and in y),
    with its 95% confidence interval as in the std-AB paper: a row tau, low, high."""
    return plain(list(tss.kendall_tau_ci(vector("x", x), vector("y", y))))


@excel_function
def TSS_GSTUDY(range):  # noqa: A002
    """Generalizability theory G-study of a topic-by-run score range (crossed runs x topics):
    a row sigma2_s (runs), sigma2_t (topics), sigma2_e (residual); a negative estimate is 0."""
    g = tss.g_study(matrix("range", range))
    return [plain([g.var_s, g.var_t, g.var_e])]


# --- Designs the legacy tools lack: two-way ANOVA, unpaired t-test and CI -----------------------

@excel_function
def TSS_ANOVA2(alpha, beta, minD, var, m):
    """Topics n for a two-way ANOVA (runs x topics, topics as blocks) of m systems to detect a
    range minD with power 1-beta at level alpha, given the two-way residual variance var
    (TSS_VAR2 of a past score range); exact noncentral F."""
    return plain(tss.anova2_n(number("alpha", alpha), number("beta", beta),
                              number("min_d", minD), number("variance", var), number("m", m)))


@excel_function
def TSS_POWER_ANOVA2(n, m, minD, var, alpha):
    """Power of a two-way ANOVA (runs x topics) of m systems with n topics to detect a range
    minD at level alpha, given the two-way residual variance var."""
    return plain(tss.anova2_power(number("n", n), m=number("m", m), min_d=number("min_d", minD),
                                  variance=number("variance", var),
                                  alpha=number("alpha", alpha)))


@excel_function
def TSS_MIND_ANOVA2(n, m, var, alpha, beta):
    """Minimum detectable range minD of a two-way ANOVA (runs x topics) of m systems with n
    topics, at level alpha with power 1-beta, given the two-way residual variance var."""
    return plain(tss.anova2_min_d(number("n", n), m=number("m", m),
                                  variance=number("variance", var),
                                  alpha=number("alpha", alpha), beta=number("beta", beta)))


@excel_function
def TSS_TTEST2(alpha, beta, minD, var):
    """Topics n PER SYSTEM for a two-sample (unpaired) t-test to detect a difference minD with
    power 1-beta at level alpha, when the two systems are evaluated on different topics and
    each has the variance var."""
    return plain(tss.ttest2_n(number("alpha", alpha), number("beta", beta),
                              number("min_d", minD), number("variance", var)))


@excel_function
def TSS_POWER_TTEST2(n, minD, var, alpha):
    """Power of a two-sample (unpaired) t-test with n topics per system to detect a difference
    minD at level alpha, given the variance var of either system."""
    return plain(tss.ttest2_power(number("n", n), min_d=number("min_d", minD),
                                  variance=number("variance", var),
                                  alpha=number("alpha", alpha)))


@excel_function
def TSS_CI2(alpha, delta, var):
    """Topics n PER SYSTEM for which the expected width of the 100(1-alpha)% confidence
    interval of a difference of two independent means is at most delta, given the variance
    var of either system."""
    return plain(tss.ci2_n(number("alpha", alpha), number("delta", delta),
                           number("variance", var)))


@excel_function
def TSS_CI2_WIDTH(n, var, alpha):
    """Expected width of the 100(1-alpha)% confidence interval of a difference of two
    independent means with n topics per system, given the variance var of either system."""
    return plain(tss.ci2_delta(number("n", n), variance=number("variance", var),
                               alpha=number("alpha", alpha)))
