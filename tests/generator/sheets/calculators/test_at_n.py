"""The calculators at a given n ("your n"), recalculated in LibreOffice, against the engine:
power (anova_power, ttest_power), minimum detectable minD / minDt (anova_min_d, ttest_min_dt,
both methods) and the expected CI width (ci_delta); the tables centred on the answers; the
minΔt block of the TTEST sheet following the first block."""

from __future__ import annotations

import math

import pytest

import topicsetsize as tss

from ..._cases import grid_workbooks
from ...conftest import named, rounded_up

pytestmark = pytest.mark.libreoffice

#: The bisections over log10 of the effect end within ~1e-17 of the crossing; the powers
#: themselves agree to ~1e-10 (test_calculators), which moves the crossing by about as much.
RTOL_MIN = 1e-7
RTOL_POWER = 1e-9


def _books(batch):
    return list(zip(batch.grid_names, grid_workbooks()))


def _close(got, want, rtol):
    if isinstance(want, float) and want < 1e-6:
        # 1 − β = α: the power is reached with (next to) no effect; the engine's root finder
        # stops at ~1e-8, the sheet's bisection finds that its smallest effect has the power
        return isinstance(got, (int, float)) and 0 <= got < 1e-6
    return isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=rtol,
                                                          abs_tol=1e-12)


def _engine(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except ValueError:
        return "not reached at this n"


def test_anova_at_your_n_equals_engine(batch):
    checked = 0
    for name, calc in _books(batch):
        a = calc.get("anova")
        if not a:
            continue
        wb = batch.values(name)
        kw = dict(m=a["m"], variance=a["variance"], alpha=a["alpha"])
        for method in ("legacy", "exact"):
            p = tss.anova_power(a["n"], min_d=a["min_d"], method=method, **kw)
            got = named(wb, f"anova_power_{method}")
            if math.isnan(p):
                assert got == "undefined", (name, method, got)
            else:
                assert _close(got, p, RTOL_POWER), (name, method, got, p)
            d = _engine(tss.anova_min_d, a["n"], beta=a["beta"], method=method, **kw)
            got = named(wb, f"anova_min_d_at_n_{method}")
            if isinstance(d, str):
                assert got == d, (name, method, got)
            else:
                assert rounded_up(got, d, RTOL_MIN), (name, method, got, d)
        checked += 1
    assert checked == sum("anova" in c for c in grid_workbooks())


def test_ttest_at_your_n_equals_engine(batch):
    for name, calc in _books(batch):
        t = calc.get("ttest")
        if not t:
            continue
        wb = batch.values(name)
        kw = dict(variance_t=t["variance_t"], alpha=t["alpha"])
        for method in ("legacy", "exact"):
            p = tss.ttest_power(t["n"], min_dt=t["min_dt"], method=method, **kw)
            assert _close(named(wb, f"ttest_power_{method}"), p, RTOL_POWER), (name, method)
            d = _engine(tss.ttest_min_dt, t["n"], beta=t["beta"], method=method, **kw)
            got = named(wb, f"ttest_min_dt_at_n_{method}")
            if isinstance(d, str):
                assert got == d, (name, method, got)
            else:
                assert rounded_up(got, d, RTOL_MIN), (name, method, got, d)


def test_ci_width_at_your_n_equals_engine(batch):
    for name, calc in _books(batch):
        c = calc.get("ci")
        if not c:
            continue
        want = tss.ci_delta(c["n"], variance_t=c["variance_t"], alpha=c["alpha"])
        assert _close(named(batch.values(name), "ci_width_at_n"), want, 1e-9), name


def _centre(ws, heading):
    top = next(r for r in range(1, ws.max_row + 1)
               if str(ws.cell(r, 1).value or "").startswith(heading)) + 1
    head = {ws.cell(top, c).value: c for c in range(1, ws.max_column + 1)}
    rows = range(top + 1, top + 14)
    return [(ws.cell(r, head["n"]).value, ws.cell(r, head[k]).value)
            for r in rows for k in ("exact ≥ 1−β",)], rows, head


def test_power_tables_are_centred_on_the_answers(batch):
    wb = batch.values("ntcir")
    ws = wb["ANOVA"]
    for which, name in (("legacy", "anova_n_legacy"), ("exact", "anova_n_exact")):
        answer = named(wb, name)                                  # 2301 and 2360
        rows, _, head = _centre(ws, f"Power for n around the {which} answer")
        ns = [n for n, _ in rows]
        assert ns == list(range(answer - 6, answer + 7)), (which, ns)
    # around the exact answer, the exact verdict turns from no to yes at the answer
    rows, _, _ = _centre(ws, "Power for n around the exact answer")
    verdicts = {n: v for n, v in rows}
    n = named(wb, "anova_n_exact")
    assert verdicts[n] == 1 and verdicts[n - 1] == 0


def test_ttest_effect_block_follows_the_first_unless_overridden(batch):
    wb = batch.values("ntcir")           # no minΔt given: it follows minDt/σ̂t = .5 -> 34
    assert named(wb, "ttest_min_delta_t") is None
    for method in ("legacy", "exact"):
        assert named(wb, f"ttest_delta_t_n_{method}") == named(wb, f"ttest_n_{method}") == 34
    edited = batch.values("ntcir_edited")  # minDt = .04, σ̂t² = .04: minΔt = .2 -> 199
    assert named(edited, "ttest_delta_t_n_legacy") == 199
    for name, calc in _books(batch):      # overridden in every grid workbook
        t = calc.get("ttest")
        if t:
            want = tss.ttest_n_effect(t["alpha"], t["beta"], t["min_delta_t"])
            assert named(batch.values(name), "ttest_delta_t_n_legacy") == want
