"""Write ``designs_before_kinds.csv``: n, power and minimum effect of every design over a seeded
random grid, as the engine importable here computes them.

Run once at b37cc01 (the engine before the shared design layer of issue 27.4, where each design
wrote its own ``*_n``, ``*_min_*`` and ``*_table``)::

    python tests/data/make_designs_before_kinds.py > tests/data/designs_before_kinds.csv

Only the public API of that revision is called (``method=`` only where it existed then). Per
design and method: 30 points, α log-uniform in [1e-4, 0.5], β uniform in [0.02, 0.6], m
log-uniform over 2..60, a variance log-uniform in [1e-3, 1], the effect chosen from a target n
log-uniform over 2..2e5 (the large-sample noncentrality), and an ``n_at`` log-uniform over
2..2e4 for the power and the minimum effect. Cells the engine refuses (the legacy approximation
at too few topics) are left empty. Floats are written in their shortest exact form (``repr``).
"""

from __future__ import annotations

import csv
import math
import sys

import numpy as np
from scipy import special

import topicsetsize as tss
from topicsetsize.errors import InputError

POINTS = 30
SEED = 274

#: design, method (None: the design has one), effect name, variance name, has m, has min effect
CASES = [("anova", "legacy"), ("anova", "exact"), ("ttest", "legacy"), ("ttest", "exact"),
         ("ci", None), ("anova2", None), ("ttest2", None), ("ci2", None)]
COLUMNS = ["design", "method", "alpha", "beta", "effect", "variance", "m", "n_at", "n",
           "power", "min_effect"]


def grid(rng, design: str):
    """The seeded points of one design: dicts of alpha, beta, effect, variance, m, n_at."""
    for _ in range(POINTS):
        alpha = float(10 ** rng.uniform(-4, math.log10(0.5)))
        beta = float(rng.uniform(0.02, 0.6))
        m = int(round(10 ** rng.uniform(math.log10(2), math.log10(60))))
        variance = float(10 ** rng.uniform(-3, 0))
        target = float(10 ** rng.uniform(math.log10(2), math.log10(2e5)))
        n_at = int(round(10 ** rng.uniform(math.log10(2), math.log10(2e4))))
        za, zb = -special.ndtri(alpha / 2.0), -special.ndtri(beta)
        sd = math.sqrt(variance)
        if design in ("anova", "anova2"):   # λ∞ = n·minD²/(2σ²)
            lam = special.chndtrinc(special.chdtri(m - 1.0, alpha), m - 1.0, beta)
            effect = math.sqrt(2.0 * variance * lam / target)
        elif design in ("ttest", "ttest2"):  # √n·minD/σ (per system: √(n/2))
            effect = (za + zb) * sd / math.sqrt(target / (2.0 if design == "ttest2" else 1.0))
        else:                                # width δ ≈ 2·z·σ/√n (unpaired: σ√2)
            effect = 2.0 * za * sd * (math.sqrt(2.0) if design == "ci2" else 1.0) \
                / math.sqrt(target)
        yield {"alpha": alpha, "beta": beta, "effect": float(effect), "variance": variance,
               "m": m, "n_at": n_at}


def row_values(design: str, method, p: dict) -> dict:
    """n, power (or width) at n_at, and minimum effect at n_at through the public API."""
    a, b, e, v, m, k = (p[x] for x in ("alpha", "beta", "effect", "variance", "m", "n_at"))
    kw = {} if method is None else {"method": method}
    out = {"n": "", "power": "", "min_effect": ""}

    def attempt(key, call):
        try:
            out[key] = repr(call())
        except InputError:
            pass

    if design == "anova":
        attempt("n", lambda: tss.anova_n(a, b, e, v, m, **kw))
        attempt("power", lambda: tss.anova_power(k, m=m, min_d=e, variance=v, alpha=a, **kw))
        attempt("min_effect", lambda: tss.anova_min_d(k, m=m, variance=v, alpha=a, beta=b,
                                                      **kw))
    elif design == "anova2":
        attempt("n", lambda: tss.anova2_n(a, b, e, v, m))
        attempt("power", lambda: tss.anova2_power(k, m=m, min_d=e, variance=v, alpha=a))
        attempt("min_effect", lambda: tss.anova2_min_d(k, m=m, variance=v, alpha=a, beta=b))
    elif design == "ttest":
        attempt("n", lambda: tss.ttest_n(a, b, e, v, **kw))
        attempt("power", lambda: tss.ttest_power(k, min_dt=e, variance_t=v, alpha=a, **kw))
        attempt("min_effect", lambda: tss.ttest_min_dt(k, variance_t=v, alpha=a, beta=b, **kw))
    elif design == "ttest2":
        attempt("n", lambda: tss.ttest2_n(a, b, e, v))
        attempt("power", lambda: tss.ttest2_power(k, min_d=e, variance=v, alpha=a))
    elif design == "ci":
        attempt("n", lambda: tss.ci_n(a, e, v))
        attempt("power", lambda: tss.ci_delta(k, variance_t=v, alpha=a))
    elif design == "ci2":
        attempt("n", lambda: tss.ci2_n(a, e, v))
        attempt("power", lambda: tss.ci2_delta(k, variance=v, alpha=a))
    return out


def main() -> None:
    out = csv.DictWriter(sys.stdout, COLUMNS, lineterminator="\n")
    out.writeheader()
    rng = np.random.default_rng(SEED)
    for design, method in CASES:
        for p in grid(rng, design):
            out.writerow({"design": design, "method": method or "", **{
                k: repr(v) for k, v in p.items()}, **row_values(design, method, p)})


if __name__ == "__main__":
    main()
