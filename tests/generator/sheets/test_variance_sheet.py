"""The Variance sheet: a Table-1 row per matrix, its runs and its topics' std-AB factors."""

from __future__ import annotations

import math

import numpy as np
import openpyxl
import pytest
from topicsetsize.generator.sheets.variance_sheet import PAGE_LINES, SUMMARY_COLUMNS

import topicsetsize as tss
from topicsetsize.estimates.variance_interval import variance_interval


def _one_way_ve(x: np.ndarray) -> float:
    """AIRS 2016 Eq. 1, computed here: Σ_i Σ_j (x_ij − x̄_i•)² / (m'(n'−1)), runs = columns."""
    n, m = x.shape
    return float(((x - x.mean(axis=0)) ** 2).sum() / (m * (n - 1)))


def _check(ws):
    assert [ws.cell(4, c).value for c in range(1, 10)] == list(SUMMARY_COLUMNS)
    scores = tss.example_matrix()
    row = dict(zip(SUMMARY_COLUMNS, (ws.cell(5, c).value for c in range(1, 10))))
    want = tss.summarise(scores)
    assert row["matrix"] == "TREC 2010 Web AP"
    assert (row["runs"], row["topics"]) == (88, 48)
    assert math.isclose(row["V_E raw"], _one_way_ve(scores.to_numpy()), rel_tol=1e-12)
    assert math.isclose(row["V_E std-AB"], want.var_std_ab, rel_tol=1e-12)
    assert math.isclose(row["τ"], want.tau, rel_tol=1e-12)
    assert math.isclose(row["τ AIRS interval low"], want.tau_ci_low, rel_tol=1e-12)
    assert math.isclose(row["τ AIRS interval high"], want.tau_ci_high, rel_tol=1e-12)
    # each V_E with its 95% interval over the topics, as `topicsetsize variance` gives it (a
    # real-data review, 2026-12-07: a workbook from a matrix gave every n without uncertainty)
    head = next(r for r in range(6, 20) if ws.cell(r, 1).value == "matrix")
    assert [ws.cell(head, c).value for c in range(3, 9)] == [
        "V_E raw", "95% low", "95% high", "V_E std-AB", "95% low", "95% high"]
    assert ws.cell(head + 1, 1).value == "TREC 2010 Web AP"
    for c, scale, estimate in ((3, "raw", want.var_raw), (6, "std-ab", want.var_std_ab)):
        ci = variance_interval(scores, scale=scale)
        low, value, high = (ws.cell(head + 1, c + k).value for k in (1, 0, 2))
        assert math.isclose(value, estimate, rel_tol=1e-12) and low < value < high
        assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert "with 48 past topics the upper end is likely too low" in ws.cell(head - 1, 1).value
    # runs: mean raw per run; topics: the std-AB factors (mean, sample SD over the runs)
    # in pages of PAGE_LINES lines, each under its headings (a continuation's names the matrix)
    top = next(r for r in range(6, 20) if ws.cell(r, 1).value == "run")
    headings = [r for r in range(top, ws.max_row + 1) if ws.cell(r, 2).value == "mean raw"]
    assert [ws.cell(r, 1).value for r in headings] == [
        "run", *["run (TREC 2010 Web AP, continued)"] * (len(headings) - 1)]
    assert len(headings) == -(-88 // PAGE_LINES)            # 88 runs, 48 topics
    assert {b.id for b in ws.row_breaks.brk} >= {r - 1 for r in headings[1:]}
    lines = [r for r in range(top + 1, ws.max_row + 1)
             if r not in headings and ws.cell(r, 1).value is not None]
    runs = {ws.cell(r, 1).value: ws.cell(r, 2).value for r in lines}
    assert len(runs) == 88 and runs.keys() == set(scores.columns)
    for run, mean in runs.items():
        assert math.isclose(mean, scores[run].mean(), rel_tol=1e-12)
    sd = scores.to_numpy().std(axis=1, ddof=1)
    topics = [r for r in lines if ws.cell(r, 7).value is not None]
    assert [ws.cell(r, 7).value for r in topics] == list(scores.index)
    for i, r in enumerate(topics):
        assert math.isclose(ws.cell(r, 9).value, sd[i], rel_tol=1e-12)


@pytest.mark.slow
def test_variance_sheet_of_the_example_spec(built):
    _check(openpyxl.load_workbook(built.source["example"])["Variance"])


@pytest.mark.libreoffice
def test_variance_sheet_survives_libreoffice(batch):
    _check(batch.values("example")["Variance"])


@pytest.mark.slow
def test_example_measures_use_the_estimates(built):
    wb = openpyxl.load_workbook(built.source["example"])
    ws = wb["Tables"]
    names = [ws.cell(r, 1).value for r in range(1, ws.max_row + 1)]
    assert "TREC 2010 Web AP, raw" in names and "TREC 2010 Web AP, std-AB" in names
    row = names.index("TREC 2010 Web AP, std-AB") + 1
    want = tss.summarise(tss.example_matrix()).var_std_ab
    assert ws.cell(row + 1, 1).value.startswith(f"σ̂² = {want:.6g};")
    # below its tables, sigma^2's interval over the topics and what it means for n
    note = next(ws.cell(r, 1).value for r in range(row + 1, ws.max_row + 1)
                if str(ws.cell(r, 1).value).startswith("σ̂² is an estimate"))
    ci = variance_interval(tss.example_matrix(), scale="std-ab")
    assert f"its 95% interval over them is {ci.low:.6g} to {ci.high:.6g}" in note
    assert f"from roughly {ci.low / want:.2f} to {ci.high / want:.2f} times the n shown" in note
    n, n_high = (tss.anova_n(0.05, 0.2, 0.01, v, 10, method="exact") for v in (want, ci.high))
    assert n_high / n == pytest.approx(ci.high / want, rel=0.01)      # "about in proportion"
    assert "Variance" not in openpyxl.load_workbook(built.source["ntcir"]).sheetnames


@pytest.mark.slow
def test_tau_note_names_the_sheets_own_shaded_ends(built):
    # the note's example is the CI end above 1 that this workbook shades (TREC 2010 Web AP:
    # 0.888 [0.746, 1.030], tss.summarise of the bundled matrix), not a fixed number
    ws = openpyxl.load_workbook(built.source["example"])["Variance"]
    high = tss.summarise(tss.example_matrix()).tau_ci_high
    assert high > 1 and f"(shaded here: {high:.3f})" in ws.cell(3, 1).value


def test_tied_std_ab_means_read_undefined(tmp_path):
    # two runs that each win on 3 of 6 topics: their std-AB means tie, so tau is undefined
    # (summarise: NaN and a warning); the sheet says "undefined" where a blank cell stood for
    # it, and keeps the variances (the matrix was refused whole until 2026-12-07)
    from topicsetsize.generator import build_workbook, spec_from_dict

    from topicsetsize.estimates.summary import UndefinedTauWarning

    path = tmp_path / "two.csv"
    path.write_text("topic,a,b\n1,0.1,0.2\n2,0.3,0.35\n3,0.5,0.1\n4,0.6,0.2\n5,0.2,0.3\n"
                    "6,0.4,0.1\n", encoding="utf-8")
    spec = spec_from_dict({"title": "t", "m": [2], "min_d": [0.1],
                           "matrices": [{"name": "two runs", "path": str(path)}]})
    with pytest.warns(UndefinedTauWarning):
        ws = build_workbook(spec)["Variance"]
    row = dict(zip(SUMMARY_COLUMNS, (ws.cell(5, c).value for c in range(1, 10))))
    assert [row[k] for k in ("τ", "τ AIRS interval low", "τ AIRS interval high")
            ] == ["undefined"] * 3
    x = np.loadtxt(path, delimiter=",", skiprows=1)[:, 1:]
    assert math.isclose(row["V_E raw"], _one_way_ve(x), rel_tol=1e-12)
