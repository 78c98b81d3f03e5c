"""Record the topic set sizes of the code on ``main`` at commit b37cc01 (issue 28.4 and 28.5).

Run by hand from the repository root with the package of that commit installed
(``python tests/data/make_search_answers.py``; about a minute). The tests never run it: they
read ``search_answers_main.csv`` and check that the faster searches of issue 28 (the bound
shortcut, the paired t power as a noncentral F tail, the one-cell search up to 10⁹ topics)
return every n unchanged, by the vectorised call and by the scalar one.

Rows: the 100 cells of the AIRS 2016 Table 2 (``anova_table2_parts_I_II.csv``: one-way ANOVA,
both methods; the paired t-test with σt² = 2σ² and minDt = minD, both methods), and a seeded
random grid (seed 28): α log-uniform in [1e-6, .5], β uniform in [.01, .5], m log-uniform over
2..1000, a target n log-uniform over 2..1e9 reached through the large-sample noncentrality
(``chi2_lambda_one`` for the ANOVA designs, (z(α/2) + z(β))² for the t designs), for
``anova_n`` (exact, legacy), ``ttest_n`` (exact, legacy), ``anova2_n`` and ``ttest2_n``; each
row is computed by one vectorised call per design and method.
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import numpy as np
from scipy.special import ndtri

import topicsetsize as tss
from topicsetsize.numerics.distributions import chi2_lambda_one

HERE = Path(__file__).resolve().parent
POINTS = 120


def rows():
    table2 = list(csv.DictReader(open(HERE / "anova_table2_parts_I_II.csv")))
    for r in table2:
        a, b, v, m, d = (float(r["alpha"]), float(r["beta"]), float(r["variance"]), int(r["m"]),
                         float(r["min_d"]))
        for method in ("exact", "legacy"):
            yield "table2", "anova_n", method, a, b, d, v, m
            if m == 2:
                yield "table2", "ttest_n", method, a, b, d, 2 * v, 0
    rng = np.random.default_rng(28)
    alpha = np.exp(rng.uniform(np.log(1e-6), np.log(0.5), POINTS))
    beta = rng.uniform(0.01, 0.5, POINTS)
    m = np.rint(np.exp(rng.uniform(np.log(2), np.log(1000), POINTS))).astype(int)
    n = np.exp(rng.uniform(np.log(2), np.log(1e9), POINTS))
    for a, b, k, x in zip(alpha.tolist(), beta.tolist(), m.tolist(), n.tolist()):
        z = float(ndtri(1 - a / 2) + ndtri(1 - b))
        d = (2.0 * chi2_lambda_one(a, b, k - 1.0) / x) ** 0.5
        for design, method in (("anova_n", "exact"), ("anova_n", "legacy"), ("anova2_n", "")):
            yield "grid", design, method, a, b, d, 1.0, k
        for method in ("exact", "legacy"):
            yield "grid", "ttest_n", method, a, b, z / x ** 0.5, 1.0, 0
        yield "grid", "ttest2_n", "", a, b, z * (2.0 / x) ** 0.5, 1.0, 0


def answers(cells):
    """The n of each (design, method) group, one vectorised call per group (0: no n ≤ 10⁹)."""
    out = {}
    groups = {}
    for i, (_, design, method, a, b, d, v, m) in enumerate(cells):
        groups.setdefault((design, method), []).append((i, a, b, d, v, m))
    for (design, method), rows_ in groups.items():
        idx, a, b, d, v, m = (np.array(c) for c in zip(*rows_))
        kw = {"method": method} if method else {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if design in ("anova_n", "anova2_n"):
                fn = getattr(tss, design)
                got = _each(lambda s: fn(a[s], b[s], d[s], v[s], m[s], **kw), len(idx))
            else:
                fn = getattr(tss, design)
                got = _each(lambda s: fn(a[s], b[s], d[s], v[s], **kw), len(idx))
        out.update(zip(idx.tolist(), got))
    return [out[i] for i in range(len(cells))]


def _each(call, size):
    """The answers of a vectorised call, or cell by cell (vectorised, as arrays of one) where
    some cell has no n up to the search limit."""
    try:
        return [int(x) for x in np.atleast_1d(call(slice(None)))]
    except ValueError:
        got = []
        for i in range(size):
            try:
                got.append(int(np.atleast_1d(call(slice(i, i + 1)))[0]))
            except ValueError:
                got.append(0)
        return got


def main() -> None:
    cells = list(rows())
    ns = answers(cells)
    path = HERE / "search_answers_main.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "design", "method", "alpha", "beta", "effect", "variance", "m",
                    "n"])
        for c, n in zip(cells, ns):
            w.writerow([*c[:3], *(repr(float(x)) for x in c[3:7]), c[7], n])
    print(f"{len(cells)} rows written to {path}")


if __name__ == "__main__":
    main()
