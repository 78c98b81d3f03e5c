"""The ANOVA2, TTEST2, CI2, Decide and Budget sheets recalculated in LibreOffice, against the
engine (topicsetsize.anova2_n/_power/_min_d, ttest2_n/_power, ci2_n/_delta, anova_power,
guarantees, recommend, budget_plan), and their spec keys."""

from __future__ import annotations

import math

import numpy as np
import openpyxl
import pytest
from topicsetsize.generator import bundled_spec, load_spec, spec_from_dict
from topicsetsize.generator.sheets.calculators import sheets
from topicsetsize.generator.spreadsheet.layout import TOO_LARGE

import topicsetsize as tss
from topicsetsize.decide.guarantee import round_up
from topicsetsize.decide.wording import whole_documents
from topicsetsize.errors import InputError

from .._cases import ANOVA2, CI2, TTEST2, grid_workbooks
from ..conftest import DECIDE_EDITS, DECIDE_INJECTION, INJECTION_RUNS, named, rounded_up

RTOL = 1e-9          # spreadsheet vs engine: powers and widths agree to ~1e-10 (About sheet)


def _n(fn, *args):
    try:
        return fn(*args)
    except tss.SearchLimitError:
        return TOO_LARGE


def _close(got, want, rtol=RTOL):
    return isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=rtol)


def _grid(batch, key):
    return [(name, calc[key]) for name, calc in zip(batch.grid_names, grid_workbooks())
            if key in calc]


@pytest.mark.libreoffice
def test_anova2_n_power_and_min_d_equal_engine(batch):
    books = _grid(batch, "anova2")
    assert len(books) == len(ANOVA2)
    for name, a in books:
        wb = batch.values(name)
        n = a["n"]
        assert named(wb, "anova2_n") == _n(tss.anova2_n, a["alpha"], a["beta"], a["min_d"],
                                           a["variance"], a["m"]), name
        kw = dict(m=a["m"], variance=a["variance"], alpha=a["alpha"])
        assert _close(named(wb, "anova2_power"), tss.anova2_power(n, min_d=a["min_d"], **kw)), \
            name
        want = tss.anova2_min_d(n, beta=a["beta"], **kw)
        assert rounded_up(named(wb, "anova2_min_d_at_n"), want), (name, want)


@pytest.mark.libreoffice
def test_anova2_power_at_n_minus_1_and_n(batch):
    """The answer is where the exact power crosses 1 − β (the 'Power at the answer' rows)."""
    for name, a in _grid(batch, "anova2"):
        ws = batch.values(name)["ANOVA2"]
        rows = {ws.cell(r, 1).value: r for r in range(1, 60)
                if ws.cell(r, 1).value in ("exact n − 1", "exact n")}
        n = named(batch.values(name), "anova2_n")
        if n == TOO_LARGE:
            continue
        for label, at in (("exact n − 1", max(2, n - 1)), ("exact n", n)):
            r = rows[label]
            assert ws.cell(r, 2).value == at
            want = tss.anova2_power(at, m=a["m"], min_d=a["min_d"], variance=a["variance"],
                                    alpha=a["alpha"])
            assert _close(ws.cell(r, 3).value, want), (name, label)


def _both_systems(wb, name: str):
    """The note beside the answer ``name`` (n per system): the topics of both systems."""
    sheet, coord = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][coord.replace("$", "").replace("B", "C")].value


@pytest.mark.libreoffice
def test_ttest2_and_ci2_equal_engine(batch):
    books = _grid(batch, "ttest2")
    assert len(books) == len(TTEST2)
    for name, t in books:
        wb = batch.values(name)
        assert named(wb, "ttest2_n") == _n(tss.ttest2_n, t["alpha"], t["beta"], t["min_d"],
                                           t["variance"]), name
        # beside it, the topics of both systems as a number (2n), recalculated by LibreOffice
        n = named(wb, "ttest2_n")
        assert _both_systems(wb, "ttest2_n") == (
            f"{2 * int(n):,} topics in all (2n)" if isinstance(n, (int, float))
            else "2n topics in all"), name
        assert _close(named(wb, "ttest2_power"),
                      tss.ttest2_power(t["n"], min_d=t["min_d"], variance=t["variance"],
                                       alpha=t["alpha"])), name
        # the minimum detectable minD at n, rounded up to 6 decimals, has power 1 − β there,
        # and one step of the last decimal less has not
        d = named(wb, "ttest2_min_d_at_n")
        power = [tss.ttest2_power(t["n"], min_d=x, variance=t["variance"], alpha=t["alpha"])
                 for x in (d, d - 1e-6)]
        assert power[0] >= (1 - t["beta"]) * (1 - 1e-9) > power[1], (name, d, power)
    books = _grid(batch, "ci2")
    assert len(books) == len(CI2)
    for name, c in books:
        wb = batch.values(name)
        assert named(wb, "ci2_n") == _n(tss.ci2_n, c["alpha"], c["delta"], c["variance"]), name
        n = named(wb, "ci2_n")
        assert _both_systems(wb, "ci2_n") == (
            f"{2 * int(n):,} topics in all (2n)" if isinstance(n, (int, float))
            else "2n topics in all"), name
        assert _close(named(wb, "ci2_width_at_n"),
                      tss.ci2_delta(c["n"], variance=c["variance"], alpha=c["alpha"])), name


def _decide_rows(ws):
    top = next(r for r in range(1, 40) if ws.cell(r, 1).value == "m (systems)")
    out = []
    r = top + 1
    while isinstance(ws.cell(r, 1).value, (int, float)):
        out.append([ws.cell(r, c).value for c in range(1, 7)])
        r += 1
    return out


@pytest.mark.libreoffice
@pytest.mark.parametrize("book", ["decide", "decide_edited", "decide_inject"])
def test_decide_powers_equal_anova_power(batch, book):
    wb = batch.values(book)
    inputs = {k: named(wb, f"decide_{k}") for k in ("n", "min_d", "variance", "alpha", "beta")}
    if book == "decide_edited":
        assert inputs == {k.split("_", 1)[1]: v for k, v in DECIDE_EDITS.items()}
    rows = _decide_rows(wb["Decide"])
    ms = [r[0] for r in rows]
    assert ms == ([2, 3, 30] if book == "decide_inject" else [2, 5, 10, 20, 50, 100])
    for m, n, p_legacy, p_exact, ok_legacy, ok_exact in rows:
        assert n == inputs["n"]
        for method, got, ok in (("legacy", p_legacy, ok_legacy), ("exact", p_exact, ok_exact)):
            want = tss.anova_power(n, m=m, min_d=inputs["min_d"], variance=inputs["variance"],
                                   alpha=inputs["alpha"], method=method)
            assert _close(got, want), (book, m, method)
            assert ok == (1 if want >= 1 - inputs["beta"] else 0)


def _precomputed_top(ws) -> int:
    return [r for r in range(1, 60) if ws.cell(r, 1).value == "m (systems)"][1]


@pytest.mark.slow
def test_decide_precomputed_min_d_equals_guarantees(tmp_path):
    from topicsetsize.generator import write_workbook

    path = write_workbook(load_spec(bundled_spec("decide_example")), tmp_path / "d.xlsx")
    ws = openpyxl.load_workbook(path, data_only=True)["Decide"]     # the saved values
    top = _precomputed_top(ws)
    assert ws.cell(top, 2).value == "σ̂² = 0.0601, legacy"
    for col, method in ((2, "legacy"), (3, "exact")):
        want = tss.guarantees(100, variance=0.0601, ms=(2, 5, 10, 20, 50, 100), alpha=0.05,
                              beta=0.2, method=method).table["min_d"].to_numpy()
        got = [ws.cell(top + 1 + i, col).value for i in range(6)]
        # rounded up to 4 decimals, as the guarantees table prints them: each has the power
        assert got == round_up(want, decimals=4).tolist()
        assert all(g >= w and g - w < 1e-4 for g, w in zip(got, want))
        power = tss.anova_power(100, m=np.array([2, 5, 10, 20, 50, 100]), min_d=np.array(got),
                                variance=0.0601, alpha=0.05, method=method)
        assert (power >= 0.8).all()
    # AIRS 2016: 100 topics detect a range just under .10 for m = 2 (93 topics suffice)
    assert ws.cell(top + 1, 2).value < 0.10


@pytest.mark.libreoffice
def test_decide_precomputed_min_d_shows_only_for_its_own_n_alpha_and_beta(batch):
    # decide_edited types n = 57, alpha = .01, beta = .10: the table computed for n = 100,
    # .05, .20 would answer another design than the live table above it
    same = batch.values("decide")["Decide"]
    edited = batch.values("decide_edited")["Decide"]
    top = _precomputed_top(same)
    assert isinstance(same.cell(top + 1, 2).value, float)
    cells = [edited.cell(top + 1 + i, c).value for i in range(6) for c in (2, 3)]
    assert cells == ["—"] * 12


@pytest.mark.libreoffice
def test_recommendation_sentence_is_the_engines_text(batch):
    rec = tss.recommend([{"variance": 0.0601, "m": 2, "min_d": 0.10},
                         {"variance": 0.0601, "m": 50, "min_d": 0.20}])
    wb = batch.values("decide")
    assert named(wb, "decide_sentence") == rec.sentence
    assert rec.sentence.startswith("Create 100 topics: this guarantees 80% power")
    assert named(wb, "decide_recommended_n") == rec.n == 100
    src = openpyxl.load_workbook(batch.source["decide_inject"])
    sheet, coord = next(iter(src.defined_names["decide_sentence"].destinations))
    cell = src[sheet][coord.replace("$", "")]
    want = tss.recommend(DECIDE_INJECTION["requirements"], round_to=10)
    assert cell.data_type == "s" and cell.value == want.sentence
    assert INJECTION_RUNS[0] in cell.value
    ws = src["Decide"]
    labels = [c for row in ws.iter_rows() for c in row if c.value in (INJECTION_RUNS[0], "+1")]
    assert len(labels) == 2 and all(c.data_type == "s" and c.quotePrefix for c in labels)
    # after LibreOffice the label is still the text, not a formula's result
    done = batch.values("decide_inject")["Decide"]
    texts = {c.value for row in done.iter_rows() for c in row}
    assert INJECTION_RUNS[0] in texts and "+1" in texts and "click" not in texts


def _budget_rows(ws):
    top = next(r for r in range(1, 40) if ws.cell(r, 1).value == "pool depth pd")
    out, r = [], top + 1
    while isinstance(ws.cell(r, 1).value, (int, float)):
        out.append([ws.cell(r, c).value for c in range(1, 11)])
        r += 1
    return out


@pytest.mark.libreoffice
@pytest.mark.parametrize("book", ["decide", "decide_inject"])
def test_budget_costs_and_cheapest_equal_budget_plan(batch, book):
    spec = (load_spec(bundled_spec("decide_example")) if book == "decide"
            else spec_from_dict(DECIDE_INJECTION))
    b = spec.budget
    high = [r["variance_high"] for r in spec.pool_depths if "variance_high" in r] or None
    plan = tss.budget_plan([r["pd"] for r in spec.pool_depths],
                           docs_per_topic=[r["docs_per_topic"] for r in spec.pool_depths],
                           variances=[r["variance"] for r in spec.pool_depths], m=b["m"],
                           min_d=b["min_d"], budget=b["documents"], method=b["method"],
                           variances_high=high)
    assert (high is not None) == (book == "decide")    # both layouts are recalculated
    wb = batch.values(book)
    rows = _budget_rows(wb["Budget"])
    assert [r[0] for r in rows] == list(plan.table.index)
    for row, (pd, want) in zip(rows, plan.table.iterrows()):
        # cost = n x docs_per_topic rounded up to a whole document (ROUNDUP), as the command
        # line shows it: within the (whole) budget exactly where the product is
        assert row[3] == want["n"] and row[4] == whole_documents(want["cost"]), (book, pd)
        assert row[5] == int(want["within_budget"])
        if high is None:
            assert row[8:] == [None, None]
        else:
            assert row[8] == want["n high"] and row[9] == whole_documents(want["cost high"]), \
                (book, pd)
    assert named(wb, "budget_cheapest_pd") == int(plan.cheapest.name)
    assert named(wb, "budget_cheapest").startswith(f"pool depth {int(plan.cheapest.name)}: "
                                                   f"n = {int(plan.cheapest['n'])} topics")
    if book == "decide":        # CLEF 2017 TAR, AP at pd = 50: 116 topics x 262.7 documents
        assert rows[1][:5] == [50, 262.7, 0.03691, 116, math.ceil(116 * 262.7)]      # 30,473.2
        # and the cheapest depth's cost at n high (pd = 5: n high = n at variance_high .08156)
        assert named(wb, "budget_cheapest_cost_high") == math.ceil(
            tss.anova_n(0.05, 0.2, 0.1, 0.08156, 10) * 35.9)


@pytest.mark.libreoffice
def test_budget_follows_the_typed_budget(batch):
    """The bad-input workbooks type a bad budget: the status says so, nothing errs."""
    for name in batch.bad_names:
        status = named(batch.values(name), "budget_status")
        assert status.startswith(("OK", "Check the inputs: budget is")), status


@pytest.mark.parametrize("data, message", [
    ({"title": "t", "pool_depths": [{"pd": 30, "docs_per_topic": 253, "variance": 0.15}]},
     "s.toml: budget: is missing"),
    ({"title": "t", "pool_depths": [{"pd": 0, "docs_per_topic": 1, "variance": 0.1}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1}}, "s.toml: pool_depths[1].pd: depth=0"),
    ({"title": "t", "pool_depths": [{"pd": 3, "docs_per_topic": 1}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1}},
     "s.toml: pool_depths[1].variance: is missing"),
    ({"title": "t", "pool_depths": [{"pd": 3, "docs_per_topic": 1, "variance": 0.1, "x": 1}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1}},
     "s.toml: unknown key 'pool_depths[1].x'"),
    ({"title": "t", "budget": {"documents": 1, "m": 10, "min_d": 0.1}},
     "s.toml: budget: needs [[pool_depths]]"),
    ({"title": "t", "pool_depths": [{"pd": 3, "docs_per_topic": 1, "variance": 0.1,
                                     "variance_high": 0.05}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1}},
     "s.toml: pool_depths[1].variance_high: variance_high=0.05 is below the variance 0.1"),
    ({"title": "t", "pool_depths": [{"pd": 3, "docs_per_topic": 1, "variance": 0.1,
                                     "variance_high": 0.2},
                                    {"pd": 9, "docs_per_topic": 2, "variance": 0.1}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1}},
     "s.toml: pool_depths: variance_high is given for 1 of 2 depths"),
    ({"title": "t", "requirements": [{"label": "EN", "variance": -1, "m": 2, "min_d": 0.1}]},
     "s.toml: requirements[1] ('EN'): variance=-1 is out of range"),
    ({"title": "t", "requirements": [{"variance": 0.1, "m": 2}]},
     "s.toml: requirements[1]"),
    # the two-way design's n is exact: a spec's conflict named by its keys
    ({"title": "t", "pool_depths": [{"pd": 3, "docs_per_topic": 1, "variance": 0.1}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1, "design": "anova2",
                 "method": "legacy"}},
     's.toml: budget: budget.method = "legacy" is the legacy Excel tools\' approximation of the '
     'one-way ANOVA: budget.design = "anova2" is sized exactly (budget.method = "exact")'),
    ({"title": "t", "pool_depths": [{"pd": 3, "docs_per_topic": 1, "variance": 0.1}],
      "budget": {"documents": 1, "m": 10, "min_d": 0.1, "design": "anova3"}},
     "s.toml: budget.design: 'anova3' is not one of 'anova', 'anova2'"),
    ({"title": "t", "decide": {"design": "anova2", "method": "legacy"}},
     's.toml: decide: decide.method = "legacy" is the legacy Excel tools\' approximation of the '
     'one-way ANOVA: decide.design = "anova2" is sized exactly (decide.method = "exact")'),
    ({"title": "t", "decide": {"n": 1}}, "s.toml: decide.n: n=1 is out of range"),
    ({"title": "t", "decide": {"method": "new"}}, "s.toml: decide.method: 'new' is not one of"),
    ({"title": "t", "decide": {"variance": [0.1, 0]}}, "s.toml: decide.variance: variance=0"),
])
def test_bad_decide_and_budget_keys_give_one_line(data, message):
    with pytest.raises(InputError) as err:
        spec_from_dict(data, source="s.toml")
    text = str(err.value)
    assert text.startswith(message) and "\n" not in text, text


@pytest.mark.slow
def test_sheets_of_the_decide_example():
    from topicsetsize.generator import build_workbook

    wb = build_workbook(load_spec(bundled_spec("decide_example")))
    assert wb.sheetnames == ["About", *sheets(), "Decide", "Budget", "Helpers"]
    about = {c.value for row in wb["About"].iter_rows() for c in row}
    for sheet in ("ANOVA2", "TTEST2", "CI2", "Decide", "Budget"):
        assert sheet in about
    chart = wb["Budget"]._charts[0]
    # n, and n high (every depth of decide_example has a variance_high)
    assert chart.x_axis.title is not None and len(chart.series) == 2
    refs = [s.yVal.numRef.f for s in chart.series]
    assert refs[0].startswith("'Budget'!$D$") and refs[1].startswith("'Budget'!$I$"), refs
    plain = build_workbook(spec_from_dict(DECIDE_INJECTION))["Budget"]._charts[0]
    assert len(plain.series) == 1 and plain.legend is None


@pytest.mark.slow
def test_a_two_way_budget_sizes_each_depth_from_its_v_e2():
    """[budget] design = "anova2": the Budget sheet's n are the two-way ANOVA's at each depth's
    variance (V_E2; exact), its first line says so, and the caution is the two-way design's;
    the one-way sheets (Budget, Decide) give the one-way caution and say where the two-way
    design is sized (a review, 2026-12-07: the workbook's decisions were one-way only)."""
    from topicsetsize.generator import build_workbook

    from topicsetsize.designs.registry import DESIGNS

    data = {"title": "t", "pool_depths": [{"pd": 100, "docs_per_topic": 458.9,
                                           "variance": 0.0116},
                                          {"pd": 10, "docs_per_topic": 66.4, "variance": 0.0222}],
            "budget": {"documents": 20000, "m": 10, "min_d": 0.1, "design": "anova2"}}
    wb = build_workbook(spec_from_dict(data))
    rows = _budget_rows(wb["Budget"])
    assert [r[3] for r in rows] == [tss.anova2_n(0.05, 0.2, 0.1, v, 10) for v in (0.0116, 0.0222)]
    lines = [str(c.value) for row in wb["Budget"].iter_rows(min_col=1, max_col=1) for c in row
             if c.value]
    assert any(x.startswith("Required n per pool depth: two-way ANOVA (topics as blocks), m = "
                            "10, minD = 0.1, α = 0.05, β = 0.2, exact method") for x in lines)
    assert ("Caution: the two-way ANOVA's power assumes normal residuals of equal variance (the "
            "ANOVA2 sheet says how far real scores are from it).") in lines
    assert "assumes normal residuals of equal variance" in DESIGNS["anova2"].caveat
    one_way = build_workbook(spec_from_dict({**data, "budget": {**data["budget"],
                                                                "design": "anova"}}))
    texts = {sheet: [str(c.value) for row in one_way[sheet].iter_rows(min_col=1, max_col=1)
                     for c in row if c.value] for sheet in ("Budget", "Decide")}
    assert ("Caution: the one-way ANOVA's n is for independent topic samples per system (the "
            'ANOVA sheet says why); design = "anova2" in the spec\'s [budget] sizes the two-way '
            "ANOVA (topics as blocks) from each depth's V_E2.") in texts["Budget"]
    caveat = DESIGNS["anova"].caveat.replace("`", "")      # the Decide sheet's: the whole one
    assert f"Caution: One-way ANOVA: {caveat} (the ANOVA2 sheet)." in texts["Decide"]


@pytest.mark.slow
def test_a_two_way_recommendation_from_the_spec():
    """[decide] design = "anova2": the Decide sheet's recommendation is the two-way ANOVA's at
    each requirement's V_E2, exact (tss.recommend(design="anova2"), itself checked against
    scipy in tests/topicsetsize/decide), and its heading and sentence say the design."""
    from topicsetsize.generator import build_workbook

    needs = [{"label": "AP", "variance": 0.0132, "m": 2, "min_d": 0.05},
             {"variance": 0.0132, "m": 50, "min_d": 0.2}]
    wb = build_workbook(spec_from_dict({"title": "t", "requirements": needs,
                                        "decide": {"design": "anova2", "round_to": 1}}))
    want = tss.recommend(needs, design="anova2", round_to=1)
    assert named(wb, "decide_recommended_n") == want.n
    assert named(wb, "decide_sentence") == want.sentence and "two-way ANOVA" in want.sentence
    texts = [str(c.value) for row in wb["Decide"].iter_rows(min_col=1, max_col=1) for c in row
             if c.value]
    assert "Recommendation over the spec's requirements (two-way ANOVA, each σ̂² a V_E2, exact " \
           "method, rounded up to a multiple of 1; precomputed)" in texts
    one_way = build_workbook(spec_from_dict({"title": "t", "requirements": needs,
                                             "decide": {"round_to": 1}}))
    assert named(one_way, "decide_recommended_n") == tss.recommend(needs, round_to=1).n != want.n


@pytest.mark.slow
def test_the_budget_sheet_says_n_is_a_point_estimate_and_where_its_interval_is(capsys):
    """The Budget sheet's n are precomputed from the spec's σ̂² (no scores, no interval): it
    says so, and points at pool-depth, whose table does hold n's interval and cost high."""
    from topicsetsize.generator import build_workbook

    from topicsetsize.cli import main

    ws = build_workbook(load_spec(bundled_spec("decide_example")))["Budget"]
    notes = " ".join(str(c.value) for row in ws.iter_rows(min_col=1, max_col=1) for c in row
                     if c.value)
    assert "point estimate" in notes and "σ̂²'s interval" in notes
    assert "topicsetsize pool-depth --csv gives the 95% one" in notes and "cost high" in notes
    # what the sheet points at is there: pool-depth's table has n's interval and cost high
    assert main(["pool-depth", "--example", "--depths", "20,10", "--m", "10", "--min-d", "0.1",
                 "--budget", "20000", "--boot", "200", "--csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert {"n low", "n high", "cost high", "variance high"} <= set(header), header


@pytest.mark.slow    # a second or more (several on a slower machine)
def test_cost_high_over_the_budget_is_marked_where_n_fits():
    """With variance_high, the Budget sheet's cost high cells carry one conditional format:
    within the budget at n (F = 1) but not at n high (J above the budget, or no number), added
    before the cheapest row's, so that it shows there too; without it, no such rule."""
    from topicsetsize.generator import build_workbook

    ws = build_workbook(load_spec(bundled_spec("decide_example")))["Budget"]
    rules = {str(r.sqref): [x.formula[0] for x in r.rules] for r in ws.conditional_formatting}
    top = next(r for r in range(1, 40) if ws.cell(r, 1).value == "pool depth pd")
    first, last = top + 1, top + 6
    [formula] = rules[f"J{first}:J{last}"]
    assert formula.startswith(f"AND($F{first}=1,OR(NOT(ISNUMBER($J{first})),$J{first}>")
    order = [str(r.sqref) for r in ws.conditional_formatting]
    assert order.index(f"J{first}:J{last}") < order.index(f"A{first}:J{last}")
    plain = build_workbook(spec_from_dict(DECIDE_INJECTION))["Budget"]
    assert not any(str(r.sqref).startswith("J") for r in plain.conditional_formatting)


def test_an_n_high_beyond_the_limit_is_said_in_words_and_left_out_of_the_chart():
    """A variance_high whose n is beyond 10⁹ topics (budget_plan: inf): its n high cell holds
    the words of every other answer beyond the limit (TOO_LARGE, text, not a formula), its
    cost high formula says the same where the cell holds no number, and the chart draws n only
    (a text cell would plot as 0); the finite row keeps its number."""
    from topicsetsize.generator import build_workbook

    data = dict(DECIDE_INJECTION, pool_depths=[
        {"pd": 100, "docs_per_topic": 731, "variance": 0.14, "variance_high": 0.2},
        {"pd": 10, "docs_per_topic": 100, "variance": 0.19, "variance_high": 1e12}])
    ws = build_workbook(spec_from_dict(data))["Budget"]
    rows = _budget_rows(ws)
    assert rows[0][8] == tss.anova_n(0.05, 0.2, 0.1, 0.2, 10, method="exact")
    top = next(r for r in range(1, 40) if ws.cell(r, 1).value == "pool depth pd")
    assert rows[1][8] == TOO_LARGE and ws.cell(top + 2, 9).data_type == "s"
    assert f'"n high {TOO_LARGE}"' in rows[1][9]
    assert len(ws._charts[0].series) == 1


def test_legacy_answers_say_what_the_exact_power_needs_on_decide_and_budget():
    """decide_example is legacy (the paper's numbers): the Decide sheet shows the recommendation's
    note below its sentence and the Budget sheet the plan's, in the warning's red where the
    exact power falls short; both are the engine's text (recommend, budget_plan)."""
    from topicsetsize.generator import build_workbook
    from topicsetsize.generator.spreadsheet.cells import STYLE

    spec = load_spec(bundled_spec("decide_example"))
    wb = build_workbook(spec)
    rec = tss.recommend(list(spec.requirements), alpha=spec.alpha, beta=spec.beta,
                        round_to=spec.decide.get("round_to", 10),
                        method=spec.decide.get("method", "legacy"))
    assert rec.method == "legacy" and rec.note       # Table 2: 93 legacy, 96 exact topics
    decide = wb["Decide"]
    sentence = next(c for row in decide.iter_rows() for c in row if c.value == rec.sentence)
    note = decide.cell(sentence.row + 1, 2)
    assert note.value == rec.note and note.font.color.rgb.endswith(
        (STYLE.warning_font if rec.short else STYLE.note).color.rgb[-6:])
    assert not rec.short            # Table 2: 100 topics meet both requirements exactly too
    assert any(c.value == "power at the recommended n (legacy)" for row in decide.iter_rows()
               for c in row)
    b = spec.budget
    rows = spec.pool_depths
    plan = tss.budget_plan([r["pd"] for r in rows], docs_per_topic=[r["docs_per_topic"]
                           for r in rows], variances=[r["variance"] for r in rows], m=b["m"],
                           min_d=b["min_d"], alpha=spec.alpha, beta=spec.beta,
                           budget=b["documents"], method=b["method"])
    assert plan.note.startswith("Under the exact noncentral F, the legacy n falls short")
    red = [c for row in wb["Budget"].iter_rows(min_col=1, max_col=1) for c in row
           if c.value and c.font.color is not None and c.font.color.rgb
           == STYLE.warning_font.color.rgb]
    assert " ".join(c.value for c in red) == plan.note       # wrapped, every word kept


@pytest.mark.slow
def test_a_cost_whole_but_for_its_last_bits_is_whole_in_every_arithmetic(tmp_path):
    # a reread (2026-12-07): 50 topics x 66.4 documents is 3320.0000000000005; ROUNDUP alone gave
    # 3,321 in the formulas package (Excel's arithmetic) and 3,320 in LibreOffice and in the
    # saved value; ROUNDUP(ROUND(cost, 6), 0) gives whole_documents' 3,320 in each, within a
    # budget of 3,320 as budget_plan judges it
    from topicsetsize.generator import write_workbook

    from tests.generator.spreadsheet.test_formulas_engine import formulas_values

    assert tss.anova_n(0.05, 0.2, 0.1, 0.0318, 2) == 50 and 50 * 66.4 > 3320
    spec = {**DECIDE_INJECTION, "pool_depths": [{"pd": 10, "docs_per_topic": 66.4,
                                                 "variance": 0.0318}],
            "budget": {"documents": 3320, "m": 2, "min_d": 0.1, "method": "legacy"}}
    path = write_workbook(spec_from_dict(spec), tmp_path / "edge.xlsx")
    saved = openpyxl.load_workbook(path, data_only=True)["Budget"]
    row = next(r for r in range(1, 40) if saved.cell(r, 1).value == 10)
    got = formulas_values(path, [f"Budget!E{row}", f"Budget!F{row}"])
    assert saved.cell(row, 5).value == got[f"Budget!E{row}"] == whole_documents(50 * 66.4) == 3320
    assert saved.cell(row, 6).value == got[f"Budget!F{row}"] == 1
