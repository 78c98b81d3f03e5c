"""The spreadsheet formulas of :mod:`topicsetsize.generator.spreadsheet.formulas`, evaluated by
LibreOffice.

The probe workbook (``conftest.py``) evaluates the exact noncentral-F mixture directly at
noncentralities from 0.01 to 3·10⁵ (the strided Poisson window) and φE up to 10⁷, and the
t-test models at a few points; scipy is the reference, independently of the engine.
"""

from __future__ import annotations

import math

import pytest
from scipy import special, stats
from topicsetsize.generator.spreadsheet.formulas import (
    POISSON_TERMS,
    UNDEFINED,
    anova_models,
    f_crit_formula,
)
from topicsetsize.generator.spreadsheet.rows import Col

from ..conftest import MIXTURE_ALPHAS, MIXTURE_POINTS, ONE_WAY, PAIRED, PAIRED_CI

RTOL = 1e-9


def _f_crit(alpha, d1, d2):
    """Upper α point of F via the inverse complemented beta (accurate far in the tail)."""
    y = special.betainccinv(d1 / 2, d2 / 2, alpha)
    return d2 / d1 * y / (1 - y)


@pytest.mark.libreoffice
def test_noncentral_f_mixture_equals_scipy(batch):
    ws = batch.values("probe")["mixture"]
    header = [c.header for c in [Col("n", "n", "")] + anova_models("a", "b", "m", "d", "k",
                                                                   ONE_WAY)[0]
              + anova_models("a", "b", "m", "d", "k", ONE_WAY)[2]]
    col = {h: i + 1 for i, h in enumerate(header)}
    row = 1
    worst = 0.0
    for alpha in MIXTURE_ALPHAS:
        for dfa, dfe, lam in MIXTURE_POINTS:
            assert ws.cell(row, col["φE = m(n−1)"]).value == dfe
            assert math.isclose(ws.cell(row, col["λ = nΔ"]).value, lam, rel_tol=1e-12)
            w = _f_crit(alpha, dfa, dfe)
            # LibreOffice's F.INV.RT: ≤ 3e-12 up to φE = 10⁶, 1.4e-9 at 10⁷ (α = .5)
            assert math.isclose(ws.cell(row, col["w = F(φA,φE;α)"]).value, w,
                                rel_tol=RTOL if dfe <= 1e6 else 1e-8)
            got = ws.cell(row, col["exact power"]).value
            want = stats.ncf.sf(w, dfa, dfe, lam)
            assert math.isclose(got, want, rel_tol=RTOL), (alpha, dfa, dfe, lam, got, want)
            worst = max(worst, abs(got - want) / want)
            row += 1
    assert worst > 0          # the comparison really ran on computed numbers


@pytest.mark.libreoffice
def test_ttest_models_equal_scipy(batch):
    ws = batch.values("probe")["ttest"]
    points = [(2, 3.0, 0.05), (34, 0.5, 0.05), (5000, 0.05, 1e-6), (2_000_000, 0.002, 0.05)]
    for row, (n, effect, alpha) in enumerate(points, start=1):
        values = [ws.cell(row, c).value for c in range(1, 20)]
        w = stats.t.isf(alpha / 2, n - 1)
        nc = math.sqrt(n) * effect
        exact = stats.nct.sf(w, n - 1, nc) + stats.nct.cdf(-w, n - 1, nc)
        scale = math.sqrt(1 + w * w / (2 * (n - 1)))
        corrected = w * (1 - 1 / (4 * (n - 1)))
        legacy = stats.norm.cdf((-corrected - nc) / scale) \
            + stats.norm.cdf((nc - corrected) / scale)
        # columns: n, φ, w, λ, c, s, legacy power, ok, λ², x, λ/2, stride, j0, exact power, ok
        assert values[0] == n and math.isclose(values[2], w, rel_tol=RTOL)
        assert math.isclose(values[6], legacy, rel_tol=RTOL), (n, values[6], legacy)
        assert math.isclose(values[13], exact, rel_tol=RTOL), (n, values[13], exact)


def test_f_crit_switches_to_the_beta_quantile_for_huge_df():
    text = f_crit_formula("a", "d1", "d2")
    assert text.startswith("IF(d2<1E+10,_xlfn.F.INV.RT(a,d1,d2),")
    assert "_xlfn.BETA.INV(1-a,d1/2,d2/2)" in text


def test_models_use_only_portable_functions():
    """No LET/LAMBDA/dynamic arrays; post-2007 functions carry _xlfn. (else #NAME? in LO)."""
    import re

    from topicsetsize.generator.spreadsheet.formulas import (
        chi2_lambda_model,
        ci_models,
        ttest_models,
    )

    cols = [c for part in anova_models("a", "b", "m", "d", "k", ONE_WAY) for c in part]
    cols += [c for part in ttest_models("a", "b", "e", "k", PAIRED) for c in part]
    cols += [c for part in ci_models("a", "d", "v", *PAIRED_CI) for c in part]
    cols += chi2_lambda_model("b", "f", "c", "k")
    text = " ".join(c.template for c in cols)
    assert "NORM.S.DIST" not in text          # NORMSDIST: Google Sheets (docs/workbook.md)
    for new in ("F.INV.RT", "BETA.DIST", "BETA.INV", "T.INV.2T", "CHISQ.DIST.RT"):
        assert new in text or new in ("BETA.INV",)
        assert not re.search(rf"(?<!_xlfn\.){re.escape(new)}\(", text), new
    for banned in ("LET(", "LAMBDA(", "SEQUENCE(", "FILTER(", "XLOOKUP("):
        assert banned not in text
    assert POISSON_TERMS >= 400 and UNDEFINED == "undefined"
