"""The statistics of the calculators as spreadsheet formulas (Excel 2010+ and LibreOffice 7.4).

Each model is a list of :class:`~spreadsheet.rows.Col` that turns a candidate n (column ``n``)
into a power, a width, and a verdict ``ok``: 1 where the criterion holds at n, else 0. The
formulas mirror the engine (:mod:`topicsetsize.designs.anova`, :mod:`topicsetsize.designs.ci`) term
for term:

* **legacy ANOVA** (Nagata's approximation, with the legacy sheet's ``√(cA − a)``; text
  ``"undefined"`` where cA − a ≤ 0, never an error value);
* **legacy t-test** (the normal approximation of the samplesizeTTEST sheet);
* **exact** powers: the noncentral F as a Poisson mixture of beta tails,
  Pr{F'(φA, φE, λ) ≥ w} = Σ_j Pois(j; λ/2)·Pr{Beta(φA/2 + j, φE/2) > x}, x = φA·w/(φA·w + φE).
  The two-sided paired t-test is the case φA = 1 with noncentrality λ = n·minΔt², because
  t'² is a noncentral F(1, φ, λ²): its power is Pr{|t'| ≥ w} = Pr{t'² ≥ w²}.
  The sum runs over :data:`POISSON_TERMS` indices j = j0 + s·k around λ/2 (a moving window
  of ±12 standard deviations; for λ/2 ≥ 256 a stride s ≤ √(λ/2)/8 with weight s, the midpoint
  rule on a smooth bell, whose error is far below double precision), so any noncentrality
  up to n = 10⁹ is covered. The weights are computed in log space centred on the mode, so
  that no intermediate overflows or cancels in IEEE doubles (see :func:`_poisson_sum`);
* the **CI** width with Γ(n/2)/Γ((n−1)/2) from GAMMALN below n = 1000 and its asymptotic
  series √z(1 − 1/(8z) + 1/(128z²) + 5/(1024z³) − 21/(32768z⁴)), z = (n−1)/2, above
  (a difference of log-gammas loses digits at large n).

Functions introduced after Excel 2007 carry the ``_xlfn.`` prefix. No LET, LAMBDA or dynamic
arrays, and the standard normal distribution is the one-argument NORMSDIST (every Excel,
LibreOffice and Google Sheets), not NORM.S.DIST(x, TRUE), whose second argument Google Sheets
has been reported not to accept; the only array expression is inside SUMPRODUCT, which
evaluates arrays in every version of Excel and in LibreOffice.
"""

from __future__ import annotations

from .rows import Col

__all__ = ["POISSON_TERMS", "UNDEFINED", "anova_models", "ttest_models", "ci_models",
           "chi2_lambda_model", "f_crit_formula"]

#: Terms of the Poisson mixture (the helper range holds k = 0 .. POISSON_TERMS − 1).
POISSON_TERMS = 400
#: What a legacy power shows where Nagata's approximation is undefined (cA − a ≤ 0).
UNDEFINED = "undefined"

P_FMT = "0.000000"
#: Verdict columns hold 1 (the criterion holds) or 0 and read "yes"/"no" in every spreadsheet.
OK_FMT = '"yes";"yes";"no"'
N_FMT = "#,##0"
X_FMT = "0.0000E+00"
#: A small positive quantity (Δ): six decimals, or in scientific notation below 10⁻⁴, where
#: six decimals would show 0.000000 (minD = 1e-5 gives Δ = 8.3e-10).
SMALL_FMT = "[<0.0001]0.000E+00;0.000000"
#: An initial estimate n₀ (a real number of topics): one decimal, or in scientific notation
#: from 10¹² on, where the digits would not fit the answer column and print as "###" (minDt =
#: 1e-7 gives n₀ ≈ 7.8·10¹⁴; a CI's δ = 1e-12, 7.7·10²³).
N0_FMT = "[<1000000000000]#,##0.0;0.000E+00"
_HALF = POISSON_TERMS // 2


def f_crit_formula(alpha: str, dfa: str, dfe: str) -> str:
    """Upper α point of F(φA, φE) as an expression.

    F.INV.RT is accurate to ~1e-13 for ordinary degrees of freedom, but LibreOffice refuses
    φE ≥ 10¹⁰ (#VALUE!); there the beta quantile gives it (F = φE·y/(φA(1 − y))).
    """
    y = f"_xlfn.BETA.INV(1-{alpha},{dfa}/2,{dfe}/2)"
    return (f"IF({dfe}<1E+10,_xlfn.F.INV.RT({alpha},{dfa},{dfe}),"
            f"{dfe}*{y}/({dfa}*(1-{y})))")


def _window() -> list[Col]:
    """Mean, stride and first index of the Poisson window (noncentrality column ``lam``)."""
    return [
        Col("mu", "λ/2", "={lam}/2", X_FMT),
        Col("stride", "stride s", "=MAX(1,INT(SQRT({mu})/8))", "0"),
        Col("j0", "first j", f"=MAX(0,ROUND({{mu}}-{_HALF}*{{stride}},0))", "0"),
    ]


#: Below this λ/2 the Poisson weights are EXP(−λ/2 + j·LN(λ/2) − GAMMALN(j + 1)): the three
#: terms are below 10⁵, so their sum loses less than 10⁻¹¹.
_NAIVE_BELOW = "1E+4"
#: From this λ/2 on |v| ≤ 12.5/√(λ/2) ≤ 1.25·10⁻³, where ATANH(v) − v = v³/3 + v⁵/5 + v⁷/7
#: to 10⁻¹⁸ relative (ATANH(v) − v itself would lose all its digits).
_SERIES_FROM = "1E+8"


def _poisson_sum(k: str, tail: str) -> str:
    """Σ over the window of stride·Pois(j; λ/2)·``tail`` (``tail``: an array template of j).

    Every term is a probability computed in log space without cancellation or overflow:
    for λ/2 < 10⁴ the plain log pmf (its terms are small); above, Loader's saddle-point form
    (Loader 2000, "Fast and accurate computation of binomial probabilities")
    ln Pois(j; μ) = −bd0(j, μ) − ½ln(2πj) − (1/(12j) − 1/(360j³)), with the deviance
    bd0 = d·v + 2j·(atanh v − v), d = j − μ taken as (j0 − μ) + s·k (the offset from the
    mode, never the difference of two large numbers), v = d/(j + μ). Every log weight
    is ≤ 0, so EXP cannot overflow, whatever the noncentrality.
    """
    j = f"({{j0}}+{{stride}}*{k})"
    mu = f"MIN({{mu}},{_NAIVE_BELOW})"
    naive = f"EXP(-{mu}+{j}*LN({mu})-GAMMALN({j}+1))"
    # the branch an engine evaluates but IF does not pick stays finite too: the plain form
    # reads λ/2 at most 10⁴ (a log pmf ≤ 0), the saddle form j + 10⁴ for λ/2 < 10⁴ (never
    # LN(0), and |v| < 1)
    big = f"({{j0}}+{{stride}}*{k}+({{mu}}<{_NAIVE_BELOW})*{_NAIVE_BELOW})"
    d = f"({{j0}}-{{mu}}+{{stride}}*{k})"
    v = f"({d}/({{mu}}+{big}))"
    # atanh v − v: ATANH below _SERIES_FROM, the series from there (a factor 0 or 1 each)
    s = (f"({{mu}}<{_SERIES_FROM})*(ATANH({v})-{v})"
         f"+({{mu}}>={_SERIES_FROM})*{v}^3*(1/3+{v}^2*(1/5+{v}^2/7))")
    saddle = (f"EXP(-{d}*{v}-2*{j}*({s})-0.918938533204673-LN({big})/2"
              f"-(1/12-1/(360*{big}^2))/{big})")
    return (f"{{stride}}*IF({{mu}}<{_NAIVE_BELOW},SUMPRODUCT({naive},{tail}),"
            f"SUMPRODUCT({saddle},{tail}))")


def _mixture(k: str, a0: str) -> str:
    """Poisson(λ/2) mixture of Pr{Beta(a0 + j, φE/2) > x} over the window (template)."""
    j = f"({{j0}}+{{stride}}*{k})"
    return f"=MIN(1,{_poisson_sum(k, f'1-_xlfn.BETA.DIST({{x}},{a0}+{j},{{dfe}}/2,TRUE)')})"


def anova_models(alpha: str, beta: str, m: str, effect: str, k: str,
                 dfe: tuple[str, str]):
    """Columns of the ANOVA power: (shared, legacy, exact).

    ``alpha``, ``beta``, ``m`` are names or absolute references of the inputs, ``effect`` the
    cell of Δ = minD²/(2σ²) and ``k`` the helper range 0..POISSON_TERMS−1. Every model
    reads column ``n``. ``dfe`` is the residual's degrees of freedom φE as (header, formula)
    over ``{m}`` and ``{n}``, from the design's declaration
    (:data:`topicsetsize.generator.content.calculators.CALCULATORS`): m(n − 1) for the one-way
    ANOVA, (m − 1)(n − 1) for the two-way ANOVA without replication (randomised block:
    topics × systems), whose legacy model is not meaningful.
    """
    dfe = Col("dfe", dfe[0], dfe[1].replace("{m}", m), N_FMT)
    shared = [
        Col("dfa", "φA = m−1", f"={m}-1", "0"),
        dfe,
        Col("lam", "λ = nΔ", f"={{n}}*{effect}", "0.0000"),
        Col("w", "w = F(φA,φE;α)", "=" + f_crit_formula(alpha, "{dfa}", "{dfe}"), "0.000000"),
    ]
    legacy = [
        Col("a", "a = wφA/φE", "={w}*{dfa}/{dfe}", "0.000000"),
        Col("ca", "cA", "=({dfa}+2*{lam})/({dfa}+{lam})", "0.000000"),
        Col("phis", "φA*", "=({dfa}+{lam})^2/({dfa}+2*{lam})", "0.0000"),
        Col("u", "u", f'=IF({{ca}}-{{a}}>0,(SQRT({{a}}*(2*{{dfe}}-1))-SQRT({{ca}}*(2*{{phis}}-1)))'
                      f'/SQRT({{ca}}-{{a}}),"{UNDEFINED}")', "0.000000"),
        Col("p_legacy", "legacy power", f'=IF(ISNUMBER({{u}}),NORMSDIST(-{{u}}),'
                                        f'"{UNDEFINED}")', P_FMT),
        Col("ok_legacy", "legacy ≥ 1−β",
            f"=IF(ISNUMBER({{p_legacy}}),IF({{p_legacy}}>=1-{beta},1,0),0)", OK_FMT),
    ]
    exact = [
        Col("x", "x = φA·w/(φA·w+φE)", "={dfa}*{w}/({dfa}*{w}+{dfe})", X_FMT),
        *_window(),
        Col("p_exact", "exact power", _mixture(k, "{dfa}/2"), P_FMT),
        Col("ok_exact", "exact ≥ 1−β", f"=IF({{p_exact}}>=1-{beta},1,0)", OK_FMT),
    ]
    return shared, legacy, exact


def ttest_models(alpha: str, beta: str, effect: str, k: str,
                 columns: dict[str, tuple[str, str]]):
    """Columns of the t-test power for the effect size in cell ``effect``: (shared, legacy,
    exact).

    ``columns`` are the design's φ (``dfe``) and noncentrality (``nc``, and its square
    ``lam``) as (header, formula) over ``{n}`` and ``{effect}``, from its declaration: the
    paired t-test has φ = n − 1 and λ = √n·minΔt, the two-sample t-test with n topics per
    system φ = 2(n − 1) and λ = √(n/2)·minD/σ (``effect`` = minD/σ̂; only its exact model is
    meaningful).
    """
    dfe, nc, lam = (Col(key, columns[key][0], columns[key][1].replace("{effect}", effect),
                        fmt) for key, fmt in (("dfe", N_FMT), ("nc", "0.000000"),
                                              ("lam", "0.0000")))
    shared = [
        dfe,
        Col("w", "w = t(φ;α)", f"=_xlfn.T.INV.2T({alpha},{{dfe}})", "0.000000"),
    ]
    legacy = [
        nc,
        Col("c", "w(1−1/(4φ))", "={w}*(1-1/(4*{dfe}))", "0.000000"),
        Col("s", "√(1+w²/(2φ))", "=SQRT(1+{w}^2/(2*{dfe}))", "0.000000"),
        Col("p_legacy", "legacy power",
            "=NORMSDIST((-{c}-{nc})/{s})+NORMSDIST(({nc}-{c})/{s})", P_FMT),
        Col("ok_legacy", "legacy ≥ 1−β", f"=IF({{p_legacy}}>=1-{beta},1,0)", OK_FMT),
    ]
    exact = [
        lam,
        Col("x", "x = w²/(w²+φ)", "={w}^2/({w}^2+{dfe})", X_FMT),
        *_window(),
        Col("p_exact", "exact power", _mixture(k, "0.5"), P_FMT),
        Col("ok_exact", "exact ≥ 1−β", f"=IF({{p_exact}}>=1-{beta},1,0)", OK_FMT),
    ]
    return shared, legacy, exact


def ci_models(alpha: str, delta: str, variance_t: str, dfe: tuple[str, str], per: str):
    """Columns of the expected CI width: (shared, exact, approximate).

    Paired: the CI of a mean difference of n per-topic differences (variance σ̂t²), φ = n − 1,
    E[W] = 2·t(φ; α)·E[s]/√n. Unpaired: the CI of a difference of two independent means of n
    topics each (``variance_t`` is then the within-system σ̂²), φ = 2(n − 1),
    E[W] = 2·t(φ; α)·E[s_p]·√(2/n). Both with E[s] = σ·√(2/φ)·Γ((φ + 1)/2)/Γ(φ/2), or its
    approximation σ(1 − 1/(4φ)). ``dfe`` (φ as (header, formula)) and ``per`` (√(1/n) or
    √(2/n)) are the design's declaration.
    """
    ratio = ("=IF({dfe}<999,EXP(GAMMALN(({dfe}+1)/2)-GAMMALN({dfe}/2)),"
             "SQRT({dfe}/2)*(1-1/(4*{dfe})+1/(32*{dfe}^2)+5/(128*{dfe}^3)-21/(2048*{dfe}^4)))")
    dfe = Col("dfe", dfe[0], dfe[1], N_FMT)
    shared = [
        dfe,
        Col("t", "t(φ;α)", f"=_xlfn.T.INV.2T({alpha},{{dfe}})", "0.000000"),
    ]
    exact = [
        Col("ratio", "Γ((φ+1)/2)/Γ(φ/2)", ratio, "0.000000"),
        Col("width", "expected width", f"=2*SQRT({variance_t})*{{t}}*SQRT(2/{{dfe}})*{{ratio}}"
                                       f"*{per}", P_FMT),
        Col("ok", "width ≤ δ", f"=IF({{width}}<={delta},1,0)", OK_FMT),
    ]
    approx = [
        Col("width_approx", "approximate width", f"=2*SQRT({variance_t})*{{t}}*(1-1/(4*{{dfe}}))"
                                                f"*{per}", P_FMT),
        Col("ok_approx", "approx. ≤ δ", f"=IF({{width_approx}}<={delta},1,0)", OK_FMT),
    ]
    return shared, exact, approx


def chi2_lambda_model(beta: str, dfa: str, crit: str, k: str) -> list[Col]:
    """Power Pr{χ'²(φA, λ) ≥ c} at λ = column ``lam`` (the φE → ∞ limit of the ANOVA design).

    A Poisson(λ/2) mixture of central χ² tails with φA + 2j degrees of freedom (whole numbers,
    so CHISQ.DIST.RT's truncation does not bite). Used to solve for Nagata's λ̂ where the legacy
    sheet has no coefficients.
    """
    j = f"({{j0}}+{{stride}}*{k})"
    tail = f"_xlfn.CHISQ.DIST.RT({crit},{dfa}+2*{j})"
    return [
        *_window(),
        Col("p", "power", f"=MIN(1,{_poisson_sum(k, tail)})", P_FMT),
        Col("ok", "≥ 1−β", f"=IF({{p}}>=1-{beta},1,0)", OK_FMT),
    ]
