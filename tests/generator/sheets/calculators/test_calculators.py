"""The calculator sheets, recalculated in real LibreOffice, against the engine and scipy.

Every workbook of the batch (``conftest.py``) is recalculated by LibreOffice with forced
recalculation; the required n, the powers and the initial estimates it computes are compared
with the topicsetsize engine (legacy and exact) and, for the exact method, with scipy's
noncentral F and t directly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats
from topicsetsize.generator.spreadsheet.layout import TOO_LARGE

import topicsetsize as tss
from topicsetsize.params import N_MAX

from ..._cases import ANOVA, CI, TTEST, grid_workbooks
from ...conftest import EDITS, named, rounded_up

pytestmark = pytest.mark.libreoffice

RTOL = 1e-9
#: Rows of a table around an answer.
AROUND = 13
#: Where the spreadsheet's t/F/beta functions lose digits (m(n − 1) beyond 10⁷, i.e. only near
#: the search limit of 10⁹ topics here; see the About sheet), powers are compared more loosely.
#: Measured: ≤ 6.1e-11 up to 10⁷, ≤ 1.7e-7 at n ≈ 10⁹ (LibreOffice's T.INV.2T is off by
#: ~3.5e-9 at 10⁹ degrees of freedom, its BETA.DIST more).
RTOL_HUGE = 5e-7
HUGE_DFE = 1e7


def _engine_n(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except tss.SearchLimitError:
        return TOO_LARGE


def _rows(ws, first_label: str, count: int, occurrence: int = 1):
    """Rows of a block whose column-A labels start with ``first_label`` (or its form for an
    answer beyond the search limit, the powers at 10⁹ − 1 and 10⁹): (row, header map)."""
    beyond = first_label.replace(" − 1", " > 10⁹: at 10⁹ − 1")
    hits = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value in (first_label, beyond)]
    top = hits[occurrence - 1]
    header = {ws.cell(top - 1, c).value: c for c in range(1, ws.max_column + 1)}
    return list(range(top, top + count)), header


def _block_after(ws, heading: str, count: int):
    """Data rows of the block under the heading ``heading`` in column A."""
    top = next(r for r in range(1, ws.max_row + 1)
               if str(ws.cell(r, 1).value or "").startswith(heading)) + 1
    header = {ws.cell(top, c).value: c for c in range(1, ws.max_column + 1)}
    return list(range(top + 1, top + 1 + count)), header


def _result(ws, label: str, occurrence: int = 1):
    hits = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == label]
    return ws.cell(hits[occurrence - 1], 2).value


def _close(got, want, rtol):
    if isinstance(want, float) and math.isnan(want):
        return got == "undefined"
    return isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=rtol, abs_tol=1e-300)


def _books(batch):
    return list(zip(batch.grid_names, grid_workbooks()))


# ------------------------------------------------------------------------------- ANOVA
def test_anova_required_n_equals_engine(batch):
    checked = 0
    for name, calc in _books(batch):
        if "anova" not in calc:
            continue
        a = calc["anova"]
        args = (a["alpha"], a["beta"], a["min_d"], a["variance"], a["m"])
        wb = batch.values(name)
        for method in ("legacy", "exact"):
            assert named(wb, f"anova_n_{method}") == _engine_n(tss.anova_n, *args,
                                                                method=method), (name, method)
        checked += 1
    assert checked == len(ANOVA)


def test_anova_published_examples(batch):
    # AIRS 2016 Table 2 part I (MedNLPDoc raw recall, m = 2, minD = .02): 2301 published,
    # 2360 exact (docs/formulas.md §8); CIKM 2014 worked example: 20; §8, m = 100: 52404/52276.
    wb = {tuple(c["anova"].values())[:5]: batch.values(n)
          for n, c in _books(batch) if "anova" in c}
    assert named(wb[(0.05, 0.20, 0.02, 0.0601, 2)], "anova_n_legacy") == 2301
    assert named(wb[(0.05, 0.20, 0.02, 0.0601, 2)], "anova_n_exact") == 2360
    assert named(wb[(0.05, 0.20, 0.5, 0.25, 3)], "anova_n_legacy") == 20
    assert named(wb[(0.05, 0.10, 0.02, 0.213, 100)], "anova_n_legacy") == 52404
    assert named(wb[(0.05, 0.10, 0.02, 0.213, 100)], "anova_n_exact") == 52276


def _anova_power_rows(batch, name, a):
    ws = batch.values(name)["ANOVA"]
    answers, head = _rows(ws, "legacy n − 1", 4)
    around = [_block_after(ws, f"Power for n around the {which} answer", AROUND)
              for which in ("legacy", "exact")]
    for rows, h in ((answers, head), *around):
        for r in rows:
            n = ws.cell(r, h["n"]).value
            yield n, ws.cell(r, h["legacy power"]).value, ws.cell(r, h["exact power"]).value, \
                ws.cell(r, h["φE = m(n−1)"]).value


def test_anova_powers_equal_engine_and_scipy(batch):
    compared = 0
    for name, calc in _books(batch):
        a = calc.get("anova")
        if not a:
            continue
        for n, p_legacy, p_exact, dfe in _anova_power_rows(batch, name, a):
            rtol = RTOL if dfe <= HUGE_DFE else RTOL_HUGE
            kw = dict(m=a["m"], min_d=a["min_d"], variance=a["variance"], alpha=a["alpha"])
            want_l = tss.anova_power(n, **kw)
            want_e = tss.anova_power(n, method="exact", **kw)
            assert _close(p_legacy, want_l, rtol), (name, n, p_legacy, want_l)
            assert _close(p_exact, want_e, rtol), (name, n, p_exact, want_e)
            # independently of the engine: scipy's noncentral F
            d1, d2 = a["m"] - 1, a["m"] * (n - 1)
            lam = n * a["min_d"] ** 2 / (2 * a["variance"])
            w = d2 / d1 * special.betainccinv(d1 / 2, d2 / 2, a["alpha"]) / \
                (1 - special.betainccinv(d1 / 2, d2 / 2, a["alpha"]))
            assert _close(p_exact, stats.ncf.sf(w, d1, d2, lam), max(rtol, 1e-8)), (name, n)
            compared += 1
    assert compared == (4 + 2 * AROUND) * len(ANOVA)


def test_anova_answer_is_where_the_exact_power_crosses(batch):
    """n_exact: power ≥ 1 − β at n and < 1 − β at n − 1 (scipy, independent of the engine)."""
    for name, calc in _books(batch):
        a = calc.get("anova")
        n = named(batch.values(name), "anova_n_exact") if a else None
        if not isinstance(n, int):
            continue
        lam = a["min_d"] ** 2 / (2 * a["variance"])
        d1 = a["m"] - 1

        def power(k):
            d2 = a["m"] * (k - 1)
            w = stats.f.isf(a["alpha"], d1, d2)
            return stats.ncf.sf(w, d1, d2, k * lam)

        assert power(n) >= 1 - a["beta"] - 1e-9
        if n > 2:
            assert power(n - 1) < 1 - a["beta"] + 1e-9


def test_anova_initial_estimates_equal_engine(batch):
    for name, calc in _books(batch):
        a = calc.get("anova")
        if not a:
            continue
        ws = batch.values(name)["ANOVA"]
        args = (a["alpha"], a["beta"], a["min_d"], a["variance"], a["m"])
        want_l = tss.anova_initial_n(*args)
        want_e = tss.anova_initial_n(*args, method="exact")
        got_l = _result(ws, "initial estimate n₀ = λ̂/Δ")
        got_e = _result(ws, "λ̂ (noncentral χ²)") / _result(ws, "Δ = minD²/(2σ̂²)")
        assert math.isclose(got_l, want_l, rel_tol=1e-8, abs_tol=1e-9), (name, got_l, want_l)
        assert math.isclose(got_e, want_e, rel_tol=1e-8, abs_tol=1e-9), (name, got_e, want_e)
        pair = (a["alpha"], a["beta"]) in {(0.05, 0.2), (0.01, 0.2), (0.05, 0.1), (0.01, 0.1)}
        assert isinstance(_result(ws, "λ̂ (Nagata, legacy pairs)"), float) == pair


def test_anova_warning_says_whether_methods_differ(batch):
    for name, calc in _books(batch):
        if "anova" not in calc:
            continue
        wb = batch.values(name)
        text = _result(wb["ANOVA"], "Legacy vs exact")
        nl, ne = named(wb, "anova_n_legacy"), named(wb, "anova_n_exact")
        if nl == ne:        # a number as the cell shows it, with thousands separators
            shown = f"{ne:,}" if isinstance(ne, int) else ne
            assert text == f"Legacy and exact agree: n = {shown}."
        elif isinstance(nl, int) and isinstance(ne, int):
            assert text.startswith("Warning:" if nl < ne else "Note:")
            assert f"n = {nl:,}" in text and f"n = {ne:,}" in text
    # the worked example: at the legacy n = 2301 the exact power is only .790061 (the
    # engine's), shown truncated to 4 decimals, never rounded towards the target
    p = tss.anova_power(2301, m=2, min_d=0.02, variance=0.0601, alpha=0.05, method="exact")
    assert 0.79006 < p < 0.79007
    text = _result(batch.values("ntcir")["ANOVA"], "Legacy vs exact")
    assert text == ("Warning: at the legacy n = 2,301 the exact power is only 0.7900 < 1 − β = "
                    "0.8000; the exact method needs n = 2,360.")


# ------------------------------------------------------------------------------- TTEST
def test_ttest_required_n_equals_engine_in_both_input_styles(batch):
    checked = 0
    for name, calc in _books(batch):
        t = calc.get("ttest")
        if not t:
            continue
        wb = batch.values(name)
        ws = wb["TTEST"]
        for method in ("legacy", "exact"):
            want = _engine_n(tss.ttest_n, t["alpha"], t["beta"], t["min_dt"], t["variance_t"],
                             method=method)
            assert named(wb, f"ttest_n_{method}") == want, (name, method)
            assert _result(ws, f"required n, {method}") == want
            want2 = _engine_n(tss.ttest_n_effect, t["alpha"], t["beta"], t["min_delta_t"],
                              method=method)
            assert _result(ws, f"required n, {method}", occurrence=2) == want2, (name, method)
        checked += 1
    assert checked == len(TTEST)


def test_ttest_published_examples(batch):
    wb = batch.values("ntcir")       # CIKM 2014: minΔt = .5 -> 34, minΔt = .2 -> 199
    assert named(wb, "ttest_n_legacy") == named(wb, "ttest_n_exact") == 34
    wb = batch.values("ntcir_edited")
    assert _result(wb["TTEST"], "required n, legacy", occurrence=2) == 199


def test_ttest_powers_equal_engine_and_scipy(batch):
    compared = 0
    for name, calc in _books(batch):
        t = calc.get("ttest")
        if not t:
            continue
        ws = batch.values(name)["TTEST"]
        blocks = [(_rows(ws, "legacy n − 1", 4, occurrence=1), t["min_dt"] / t["variance_t"] ** .5),
                  (_rows(ws, "legacy n − 1", 4, occurrence=2), t["min_delta_t"]),
                  (_block_after(ws, "Power for n around the legacy answer (minDt, σ̂t²)",
                                AROUND), t["min_dt"] / t["variance_t"] ** .5),
                  (_block_after(ws, "Power for n around the exact answer", AROUND),
                   t["min_dt"] / t["variance_t"] ** .5)]
        for (rows, head), effect in blocks:
            for r in rows:
                n = ws.cell(r, head["n"]).value
                rtol = RTOL if n <= HUGE_DFE else RTOL_HUGE
                got_l, got_e = ws.cell(r, head["legacy power"]).value, \
                    ws.cell(r, head["exact power"]).value
                kw = dict(min_dt=effect, variance_t=1.0, alpha=t["alpha"])
                want_l = tss.ttest_power(n, **kw)
                want_e = tss.ttest_power(n, method="exact", **kw)
                assert _close(got_l, want_l, rtol), (name, n, got_l, want_l)
                assert _close(got_e, want_e, rtol), (name, n, got_e, want_e)
                # scipy's noncentral t, independently of the engine (its lower tail is
                # negligible or accurate at these points)
                w = stats.t.isf(t["alpha"] / 2, n - 1)
                nc = math.sqrt(n) * effect
                direct = stats.nct.sf(w, n - 1, nc) + stats.nct.cdf(-w, n - 1, nc)
                if np.isfinite(direct):
                    assert _close(got_e, direct, max(rtol, 1e-8)), (name, n, got_e, direct)
                compared += 1
    assert compared == (4 + 4 + 2 * AROUND) * len(TTEST)


def test_ttest_initial_estimates_equal_engine(batch):
    for name, calc in _books(batch):
        t = calc.get("ttest")
        if not t:
            continue
        ws = batch.values(name)["TTEST"]
        effect = t["min_dt"] / math.sqrt(t["variance_t"])
        assert math.isclose(_result(ws, "minΔt = minDt/σ̂t"), effect, rel_tol=1e-12)
        for occurrence, e in ((1, effect), (2, t["min_delta_t"])):
            got = _result(ws, "initial estimate n₀", occurrence)
            assert math.isclose(got, tss.ttest_initial_n(t["alpha"], t["beta"], e),
                                rel_tol=1e-9), name


# ------------------------------------------------------------------------------- CI
def _ci_width_approx(n, alpha, variance_t):
    """The approximation E[√V] ≈ σt(1 − 1/(4(n − 1))) (IRJ 2016, Section 6; docs/formulas.md §6),
    computed here."""
    return 2 * math.sqrt(variance_t) * stats.t.isf(alpha / 2, n - 1) * (1 - 1 / (4 * (n - 1))) \
        / math.sqrt(n)


def test_ci_required_n_equals_engine(batch):
    checked = 0
    for name, calc in _books(batch):
        c = calc.get("ci")
        if not c:
            continue
        wb = batch.values(name)
        want = _engine_n(tss.ci_n, c["alpha"], c["delta"], c["variance_t"])
        assert named(wb, "ci_n") == want, name
        approx = _result(wb["CI"], "n with the approximation")
        if isinstance(approx, int):                       # brute force around the answer
            assert _ci_width_approx(approx, c["alpha"], c["variance_t"]) <= c["delta"]
            if approx > 2:
                assert _ci_width_approx(approx - 1, c["alpha"], c["variance_t"]) > c["delta"]
        else:
            assert approx == TOO_LARGE and want == TOO_LARGE
        checked += 1
    assert checked == len(CI)
    wb = batch.values("ntcir")                             # docs/formulas.md §6: 79
    assert named(wb, "ci_n") == 79


def test_ci_widths_equal_engine(batch):
    for name, calc in _books(batch):
        c = calc.get("ci")
        if not c:
            continue
        ws = batch.values(name)["CI"]
        for rows, head in (_rows(ws, "required n − 1", 4),
                           _block_after(ws, "Expected width for n around the answer", AROUND)):
            for r in rows:
                n = ws.cell(r, head["n"]).value
                rtol = RTOL if n <= HUGE_DFE else RTOL_HUGE
                assert _close(ws.cell(r, head["expected width"]).value,
                              tss.ci_delta(n, variance_t=c["variance_t"],
                                           alpha=c["alpha"]), rtol), (name, n)
                assert _close(ws.cell(r, head["approximate width"]).value,
                              _ci_width_approx(n, c["alpha"], c["variance_t"]), rtol), (name, n)
        n0 = _result(ws, "initial estimate n₀")
        z = stats.norm.isf(c["alpha"] / 2)
        assert math.isclose(n0, 4 * z * z * c["variance_t"] / c["delta"] ** 2, rel_tol=1e-9)


# ------------------------------------------------------------------------------- all
def test_no_cell_evaluates_to_an_error(batch):
    from ..._libreoffice import filled_cells_without_errors

    cells = sum(filled_cells_without_errors(batch.values(name), name) for name in batch.source)
    assert cells > 100_000


def test_editing_an_input_changes_the_answers(batch):
    before, after = batch.values("ntcir"), batch.values("ntcir_edited")
    for name, value in EDITS.items():
        assert named(after, name) == value
    assert (named(before, "anova_n_legacy"), named(before, "anova_n_exact")) == (2301, 2360)
    # AIRS 2016 Table 2 part I, m = 10, minD = .1: 188 published, 189 exact
    assert (named(after, "anova_n_legacy"), named(after, "anova_n_exact")) == (188, 189)
    assert named(after, "anova_n_exact") == tss.anova_n(0.05, 0.2, 0.1, 0.0601, 10,
                                                         method="exact")
    assert (named(before, "ttest_n_legacy"), named(after, "ttest_n_legacy")) == (34, 199)
    assert named(after, "ttest_n_exact") == tss.ttest_n(0.05, 0.2, 0.04, 0.04, method="exact")
    assert (named(before, "ci_n"), named(after, "ci_n")) == (79, 125)
    assert _result(after["ANOVA"], "Legacy vs exact").startswith("Warning:")


def test_search_limit_is_stated_not_a_wrong_number(batch):
    """minΔt = 1e-5 needs more than 10⁹ topics: the sheet says so (the engine raises)."""
    name = next(n for n, c in _books(batch) if c.get("ttest", {}).get("min_dt") == 1e-5)
    wb = batch.values(name)
    assert named(wb, "ttest_n_legacy") == named(wb, "ttest_n_exact") == TOO_LARGE
    with pytest.raises(tss.SearchLimitError):
        tss.ttest_n(0.05, 0.2, 1e-5, 1.0)
    assert TOO_LARGE == f"more than {N_MAX:,}"


@pytest.mark.libreoffice
def test_an_answer_beyond_the_search_limit_shows_the_powers_at_the_limit_said_so(batch):
    """Where no n up to 10⁹ meets 1 − β (a text answer), the table of the powers at the
    answers shows them at 10⁹ − 1 and 10⁹, labelled as such (not as "n − 1" and "n" of an
    answer), and the table around the answer runs up to 10⁹ (not from 2, whose row the
    highlight would have marked as the answer)."""
    seen = 0
    for name, calc in _books(batch):
        wb = batch.values(name)
        for key, sheet in (("anova", "ANOVA"), ("ttest", "TTEST")):
            if key not in calc or isinstance(named(wb, f"{key}_n_exact"), (int, float)):
                continue
            seen += 1
            ws = wb[sheet]
            rows, head = _rows(ws, "legacy n − 1", 4)     # the first input style's answers
            rows = rows[2:]                                 # exact n − 1, exact n
            assert ws.cell(rows[0], 1).value == "exact n > 10⁹: at 10⁹ − 1", (name, sheet)
            assert ws.cell(rows[1], 1).value == "exact n > 10⁹: at 10⁹"
            assert [ws.cell(r, head["n"]).value for r in rows] == [N_MAX - 1, N_MAX]
            around, _ = _block_after(ws, "Power for n around the exact answer", 1)
            column = [ws.cell(r, 2).value for r in range(around[0], around[0] + 40)]
            n = column[:next(i for i, v in enumerate(column) if not isinstance(v, int))]
            assert n[-1] == N_MAX and n == list(range(n[0], N_MAX + 1)), (name, sheet, n)
    assert seen        # the grid holds such cases (_cases.py: beyond the search limit)


@pytest.mark.slow
def test_a_designs_declared_caveat_is_on_its_calculator(built):
    # the engine's declaration (DESIGNS[key].caveat) reaches the workbook: the ANOVA and ANOVA2
    # sheets say their own under the intro, and a design without one (TTEST) has no such line
    import openpyxl

    from topicsetsize.designs.registry import DESIGNS

    wb = openpyxl.load_workbook(built.source["ntcir"])
    texts = {name: [c.value for row in wb[name].iter_rows(max_row=8, max_col=1) for c in row
                    if isinstance(c.value, str)] for name in ("ANOVA2", "ANOVA", "TTEST")}
    for sheet, key in (("ANOVA2", "anova2"), ("ANOVA", "anova")):
        caveat = DESIGNS[key].caveat.replace("`", "")      # after its design's name (a review
        assert f"Caution: {DESIGNS[key].name}: {caveat}." in texts[sheet]   # found "Caution: Its")
    assert not DESIGNS["ttest"].caveat
    assert not any(t.startswith("Caution:") for t in texts["TTEST"])


def test_a_power_not_above_alpha_is_refused_as_the_excel_functions_refuse_it(batch):
    """A parity review (2026-12-07): alpha = beta = 0.5 in the ANOVA, TTEST and ANOVA2
    sheets gave n = 2 and minD 0 under the status "OK: every input is in range", where
    TSS_ANOVA refuses it (powerless: every test has power alpha whatever the scores). The
    status now says so, and the answers wait on it, in every sheet that takes alpha and beta
    (recalculated by LibreOffice); a power just above alpha (1 - beta = alpha + 1e-6) is not
    refused."""
    from topicsetsize.designs.detectable import powerless

    from ...conftest import POWERED

    assert powerless(0.5, 0.5) and not powerless(0.5, 0.5 - 1e-6)
    refused, barely = batch.values("powerless"), batch.values("barely_powered")
    for key in POWERED:
        assert named(refused, f"{key}_status").startswith(
            "Check the inputs: 1 − β = 0.5 is not above α = 0.5: every test has that power, "
            "whatever the scores."), key
        assert named(barely, f"{key}_status").startswith("OK"), key
    from topicsetsize.generator.spreadsheet.layout import CHECK_INPUTS

    assert named(refused, "anova_n_exact") == CHECK_INPUTS
    assert isinstance(named(barely, "anova_n_exact"), (int, float))
    # at 1 - beta just above alpha the legacy approximation reaches the power with no
    # difference at all (its error): "none", not a minD of 0 (which TSS_MIND_ANOVA refuses);
    # the exact method's minD is a number, the engine's
    from topicsetsize.generator.sheets.calculators.blocks import NO_DIFFERENCE

    given = {k: named(barely, f"anova_{k}") for k in ("your_n", "m", "variance", "alpha",
                                                      "beta")}
    args = dict(m=given["m"], variance=given["variance"], alpha=0.5, beta=given["beta"])
    assert tss.anova_min_d(given["your_n"], **args, method="legacy") == 0
    assert named(barely, "anova_min_d_at_n_legacy") == NO_DIFFERENCE
    assert rounded_up(named(barely, "anova_min_d_at_n_exact"),
                      tss.anova_min_d(given["your_n"], **args, method="exact"), 1e-7)


def test_a_beta_below_a_millionth_is_noted_where_the_sheets_digits_run_out(batch):
    """A parity review (2026-12-07): at beta = 1e-9 the workbook's n differed from the engine's
    once n was above about 10**5 (the paired t-test, minDt .0003, variance_t .1: 70,362,332 in
    LibreOffice where 70,362,357 reaches the power), without a word. The status says so from
    beta < TINY_BETA on, and the answers stay (the inputs are valid)."""
    from topicsetsize.generator.sheets.calculators.scale_note import TINY_BETA

    from ...conftest import POWERED

    wb = batch.values("tiny_beta")
    assert 1e-9 < TINY_BETA <= 1e-6
    for key in POWERED:
        if key != "anova":
            assert named(wb, f"{key}_status").startswith(
                "OK, but note: β < 0.000001 needs more digits than the sheet keeps"), key
    # the ANOVA sheet's variance is also a slip of scale (188.2: percent points squared); that
    # note moves n by orders of magnitude, the digits by some topics, so it is the one shown
    # (it used to be hidden by the digits' note)
    assert named(wb, "anova_status").startswith("OK, but note: σ̂² > 1 is beyond scores")
    # the legacy-vs-exact sentence shows its powers to 11 decimals here, truncated (at 4 it
    # said "reaches 1.0000", and a shortfall would have read "only 1.0000 < 1 - β = 1.0000")
    import re

    for sheet in ("ANOVA", "TTEST"):
        text = _result(wb[sheet], "Legacy vs exact")
        shown = re.findall(r"\d\.\d+", text)
        assert "1.0000" not in text and all(len(x) == 13 for x in shown), (sheet, text)
        assert all(float(x) < 1 for x in shown), (sheet, text)
    assert isinstance(named(wb, "anova_n_exact"), (int, float))
