"""Calculator inputs the spreadsheet tests recalculate in LibreOffice.

Worked examples with published answers, tiny n (where the legacy approximations wobble or are
undefined), every corner of the workbook's input ranges, and a few large n. Each workbook of
the batch carries one ANOVA, one TTEST (both input styles) and one CI case, so the cases are
zipped into workbooks (see :func:`grid_workbooks`).
"""

from __future__ import annotations

from itertools import zip_longest

# (alpha, beta, min_d, variance, m)
ANOVA = [
    (0.05, 0.20, 0.02, 0.0601, 2),    # AIRS 2016 Table 2 part I: legacy 2301, exact 2360
    (0.05, 0.20, 0.5, 0.25, 3),       # CIKM 2014 worked example (minΔ = .5): legacy 20
    (0.05, 0.20, 0.9, 0.05, 2),       # tiny n: 3
    (0.05, 0.20, 2.0, 0.01, 2),       # tiny n: legacy 3, exact 2 (legacy undefined at n = 2)
    (0.5, 0.4, 0.05, 0.1, 4),         # corner α = .5 (α = β = .5 is refused: powerless)
    (0.3, 0.01, 1.0, 0.01, 7),        # tiny n, high power
    (0.1, 0.3, 0.05, 0.02, 5),        # not a legacy (α, β) pair: λ̂ from the χ² solve
    (0.001, 0.05, 0.1, 0.05, 20),
    (1e-6, 0.5, 0.3, 0.05, 2),        # smallest α: legacy wobbles up to n ≈ 30
    (1e-6, 0.001, 0.2, 0.3, 2),
    (0.05, 0.10, 0.02, 0.213, 100),   # docs/formulas.md §8: legacy 52404, exact 52276 (over-sizes)
    (0.05, 0.20, 0.1, 0.05, 1000),    # largest m
    (0.05, 0.20, 0.001, 0.0601, 2),   # large n: ~ 10^6
]

# (alpha, beta, min_dt, variance_t, min_delta_t)
TTEST = [
    (0.05, 0.20, 0.1, 0.04, 0.2),     # CIKM 2014: minΔt = .5 -> 34; minΔt = .2 -> 199
    (0.05, 0.20, 3.0, 1.0, 10.0),     # tiny n: 4 and 3
    (1e-6, 0.20, 2.0, 1.0, 1.5),      # smallest α: the legacy approximation wobbles
    (0.5, 0.4, 0.3, 1.0, 0.05),       # corner α = .5 (α = β = .5 is refused: powerless)
    (0.01, 0.10, 1.2, 1.0, 0.7),
    (1e-6, 0.001, 1.5, 1.0, 0.3),
    (0.2, 0.01, 0.05, 1.0, 0.02),     # n ≈ 5,000 and ≈ 33,000
    (0.05, 0.20, 0.002, 1.0, 0.01),   # large n: ≈ 2·10^6 and ≈ 78,000
    (0.05, 0.20, 1e-5, 1.0, 0.001),   # beyond the search limit (10^9) and ≈ 7.8·10^6
]

# (alpha, delta, variance_t)
CI = [
    (0.05, 0.10, 0.05),               # docs/formulas.md §6: 79
    (0.05, 0.05, 0.02),               # 125
    (0.01, 0.10, 0.10),               # 269
    (0.05, 5.0, 0.05),                # tiny n: 2
    (0.5, 0.3, 0.2),
    (1e-6, 0.5, 0.01),
    (0.05, 0.001, 0.05),              # large n: 768,294
    (1e-6, 1e-4, 1.0),                # beyond the search limit
]


# (alpha, beta, min_d, variance, m): two-way ANOVA without replication (exact only)
ANOVA2 = [
    (0.05, 0.20, 0.5, 0.5, 2),        # m = 2 is the exact paired t-test: 34 (CIKM 2014)
    (0.05, 0.20, 0.1, 0.0601, 10),
    (0.01, 0.10, 0.05, 0.02, 50),
    (0.5, 0.4, 1.0, 0.1, 3),          # corner α = .5: n = 2
    (1e-6, 0.001, 0.02, 0.05, 1000),
]

# (alpha, beta, min_d, variance): two-sample t-test, n per system (exact only)
TTEST2 = [
    (0.05, 0.20, 0.5, 1.0),           # Cohen's d = .5: 64 per group (Cohen 1988)
    (0.05, 0.20, 0.1, 0.0601),
    (0.01, 0.10, 2.0, 0.5),           # tiny n
    (1e-6, 0.01, 0.01, 0.1),          # large n
]

# (alpha, delta, variance): CI of a difference of two independent means
CI2 = [
    (0.05, 0.10, 0.05),               # 155 (engine doctest)
    (0.01, 0.05, 0.1),
    (0.5, 5.0, 0.05),                 # tiny n: 2
    (1e-6, 0.001, 0.2),               # large n
]

#: "your n" of the k-th grid workbook (all three calculators): the power, the minimum
#: detectable difference and the CI width there are compared with the engine.
YOUR_N = [100, 2, 3, 7, 1000, 50, 12345, 20, 2, 500, 10**6, 30, 4]


def grid_workbooks() -> list[dict]:
    """The ``calculators`` table of each grid workbook (cases zipped, missing ones default)."""
    books = []
    for k, (a, t, c, a2, t2, c2) in enumerate(zip_longest(ANOVA, TTEST, CI, ANOVA2, TTEST2,
                                                          CI2)):
        calc = {}
        if a2:
            calc["anova2"] = dict(zip(("alpha", "beta", "min_d", "variance", "m"), a2))
        if t2:
            calc["ttest2"] = dict(zip(("alpha", "beta", "min_d", "variance"), t2))
        if c2:
            calc["ci2"] = dict(zip(("alpha", "delta", "variance"), c2))
        if a:
            calc["anova"] = dict(zip(("alpha", "beta", "min_d", "variance", "m"), a))
        if t:
            calc["ttest"] = dict(zip(("alpha", "beta", "min_dt", "variance_t", "min_delta_t"),
                                     t))
        if c:
            calc["ci"] = dict(zip(("alpha", "delta", "variance_t"), c))
        for values in calc.values():
            values["n"] = YOUR_N[k]
        books.append(calc)
    return books
