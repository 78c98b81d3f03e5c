"""Assembling and writing a workbook: sheets, names, atomic writes, progress, LibreOffice."""

from __future__ import annotations

import gc

import openpyxl
import pytest
from topicsetsize.generator import (
    build,
    build_workbook,
    bundled_spec,
    count_steps,
    load_spec,
    spec_from_dict,
    write_workbook,
)
from topicsetsize.generator.content.calculators import INPUTS, calculators, named_answers
from topicsetsize.generator.sheets.calculators import sheets

from topicsetsize.errors import InputError

from .conftest import meaning

NAMES = ({i.name for calc, items in INPUTS.items() for i in items if calc != "budget"}
         | set(named_answers())
         | {f"{c.key}_inputs_ok" for c in calculators()} | {"decide_inputs_ok", "decide_status"})


@pytest.mark.slow
def test_sheets_and_workbook_level_names(built):
    wb = openpyxl.load_workbook(built.source["ntcir"])
    assert wb.sheetnames == ["About", *sheets(), "Decide", "Tables", "Charts", "Helpers"]
    assert wb["Helpers"].sheet_state == "hidden" and wb.active.title == "ANOVA"
    assert set(wb.defined_names.keys()) == NAMES            # exactly these, workbook level
    for ws in wb.worksheets:
        assert not ws.defined_names
    wb = openpyxl.load_workbook(built.source["example"])
    assert wb.sheetnames == ["About", *sheets(), "Decide", "Tables", "Charts", "Variance",
                             "Report", "Helpers"]


@pytest.mark.libreoffice
def test_libreoffice_opens_every_workbook_without_complaint(batch):
    lines = [line for line in batch.console.splitlines() if line.strip()]
    converted = [line for line in lines if line.startswith("convert ")]
    assert len(converted) == len(batch.source)
    others = [line for line in lines if not line.startswith("convert ")
              and "javaldx" not in line]              # a harmless Java notice on Debian
    assert others == []
    wb = openpyxl.load_workbook(batch.recalculated["ntcir"])
    assert set(wb.defined_names.keys()) >= NAMES
    dv = wb["ANOVA"].data_validations.dataValidation
    assert len(dv) == len(INPUTS["anova"]) and all(v.type == "custom" for v in dv)


@pytest.mark.slow
def test_write_is_atomic(tmp_path, monkeypatch):
    spec = spec_from_dict({"title": "t"})
    out = tmp_path / "w.xlsx"
    out.write_bytes(b"old")

    def boom(source, target, values):     # the file on disk is half written, then a crash
        with open(target, "wb") as f:
            f.write(b"half")
        raise OSError("disk full")

    monkeypatch.setattr(build, "write_with_cached_values", boom)
    with pytest.raises(OSError, match="disk full"):
        write_workbook(spec, out)
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["w.xlsx"]
    monkeypatch.undo()
    assert write_workbook(spec, out) == out
    assert openpyxl.load_workbook(out).sheetnames[0] == "About"
    assert [p.name for p in tmp_path.iterdir()] == ["w.xlsx"]


@pytest.mark.slow
def test_progress_ticks_match_count_steps(tmp_path):
    spec = load_spec(bundled_spec("trec2010_web_example"))
    ticks = []
    write_workbook(spec, tmp_path / "e.xlsx", tick=ticks.append)
    assert len(ticks) == count_steps(spec) == 1 + 2 * 2 + 2
    assert ticks[0] == "read TREC 2010 Web AP: 48 topics x 88 runs" and ticks[-1] == "saved"


@pytest.mark.slow
def test_the_collector_runs_again_after_writing_unless_the_process_ends(tmp_path):
    spec = spec_from_dict({"title": "t"})
    assert gc.isenabled()
    write_workbook(spec, tmp_path / "a.xlsx")
    assert gc.isenabled()
    try:
        write_workbook(spec, tmp_path / "b.xlsx", restart_gc=False)    # the workbook command
        assert not gc.isenabled()
    finally:
        gc.enable()
    gc.disable()
    try:                         # paused by the caller: left paused
        write_workbook(spec, tmp_path / "c.xlsx")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_only_xlsx(tmp_path):
    with pytest.raises(InputError, match="must be written to an .xlsx file"):
        write_workbook(spec_from_dict({"title": "t"}), tmp_path / "w.xls")


def test_formulas_recalculate_on_load():
    wb = build_workbook(spec_from_dict({"title": "t"}))
    assert wb.calculation.fullCalcOnLoad


def _functions(formula: str) -> set[str]:
    import re

    text = re.sub(r'"[^"]*"', '""', formula)             # drop string literals
    return set(re.findall(r"((?:_xlfn\.)?[A-Z][A-Z0-9.]*)\(", text))


@pytest.mark.slow
def test_formulas_use_only_functions_excel_2010_and_libreoffice_know(built):
    """Post-2007 functions need the _xlfn. prefix (else #NAME?); nothing newer than 2010."""
    from openpyxl.utils import FORMULAE

    wb = openpyxl.load_workbook(built.source["ntcir"])
    seen = set()
    for ws in wb.worksheets:
        texts = [c.value for row in ws.iter_rows() for c in row if c.data_type == "f"]
        texts += [dv.formula1 for dv in ws.data_validations.dataValidation]
        texts += [f for rng in ws.conditional_formatting for rule in rng.rules
                  for f in rule.formula]
        for text in texts:
            seen |= _functions(str(text))
    excel_2010 = {"_xlfn.F.INV.RT", "_xlfn.BETA.DIST", "_xlfn.BETA.INV", "_xlfn.NORM.S.INV",
                  "_xlfn.T.INV.2T", "_xlfn.CHISQ.INV.RT", "_xlfn.CHISQ.DIST.RT"}
    for name in seen:
        assert name in FORMULAE or name in excel_2010, name
    assert excel_2010 <= seen and {"SUMPRODUCT", "GAMMALN", "IF", "FIXED"} <= seen
    assert not {"_xlfn.LET", "_xlfn.LAMBDA", "_xlfn.SEQUENCE"} & seen
    # Google Sheets: the one-argument NORMSDIST, not NORM.S.DIST(x, TRUE) (docs/workbook.md)
    assert "_xlfn.NORM.S.DIST" not in seen and "NORMSDIST" in seen


@pytest.mark.slow
def test_docs_state_the_current_formula_counts():
    """docs/workbook.md (and docs/excel.md) state how many formula cells the bundled workbooks
    hold: counted here, so the pages stay true (issue 26.8)."""
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    page = (docs / "workbook.md").read_text(encoding="utf-8")
    stated = re.search(r"default workbook holds \*\*([\d,]+) formula cells\*\* "
                       r"\(`decide_example`: \*\*([\d,]+)\*\*\)", page)
    assert stated, "docs/workbook.md: the formula counts"
    counts = {}
    for name in ("ntcir12_std_ab", "decide_example"):
        wb = build_workbook(load_spec(bundled_spec(name)))
        counts[name] = sum(c.data_type == "f" for ws in wb.worksheets for row in ws.iter_rows()
                           for c in row)
    assert [int(x.replace(",", "")) for x in stated.groups()] == \
        [counts["ntcir12_std_ab"], counts["decide_example"]]
    assert f"({counts['decide_example']:,} cells in the `decide_example` workbook)" in \
        (docs / "excel.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_footer_names_the_score_matrices(tmp_path):
    """Every page's footer names the spec's file, and (a review, 2026-12-07: a --matrix
    workbook's pages named the default spec alone) the matrices the variances come from, by
    their names in the workbook: '&' doubled (a footer code otherwise), a long list cut."""
    from topicsetsize.generator import build_workbook, spec_from_dict

    def footer(matrices):
        spec = spec_from_dict({"title": "t", "m": [2], "min_d": [0.1], "matrices": matrices},
                              source=str(tmp_path / "my&spec.toml"))
        return {ws.oddFooter.right.text for ws in build_workbook(spec).worksheets}

    robust = tmp_path / "scores.csv"           # 6 topics x 3 runs: only its name is printed
    robust.write_text("topic,a,b,c\n" + "".join(f"t{i},{i / 10},{(i * 3) % 7 / 10},0.{i}\n"
                                                for i in range(6)), encoding="utf-8")
    robust = str(robust)
    (text,) = footer([{"name": "R&D runs", "path": robust}])
    assert ", spec my&&spec.toml, data R&&D runs, generated " in text and "/" not in text
    (text,) = footer([{"name": f"matrix {k} " + "x" * 20, "path": robust} for k in range(3)])
    data = text.split(", data ", 1)[1].split(", generated ")[0]
    assert len(data) == 60 and data.endswith("…") and data.startswith("matrix 0 ")
    (text,) = footer([])
    assert ", data " not in text


def test_a_spec_matrix_error_names_the_spec_and_its_key(tmp_path):
    """A matrix that the spec file gives: its error names the spec and the key, and the advice
    on missing scores is the spec's key, which the spec now takes (a review of the wheel:
    "nope.csv: no such file or folder" alone, and --drop-incomplete-topics advised where a spec
    refuses that option)."""
    (tmp_path / "gap.csv").write_text("topic,a,b,c\nt1,0.1,,0.3\nt2,0.2,0.1,0.5\n"
                                      "t3,0.3,0.3,0.1\nt4,0.5,0.2,0.6\n")
    head = 'title = "t"\nm = [10]\nmin_d = [0.1]\n[[matrices]]\nname = "g"\n'
    spec = tmp_path / "s.toml"
    spec.write_text(head + 'path = "gap.csv"\n')
    with pytest.raises(InputError) as exc:
        build_workbook(load_spec(spec))
    assert str(exc.value) == (f"{spec}: matrices[1] (g): {tmp_path / 'gap.csv'}: missing "
                              "scores at topic 't1', run 'b' (line 2, field 3); drop the 1 "
                              "incomplete topic(s) with drop_incomplete_topics = true in that "
                              "table")
    spec.write_text(head + 'path = "gap.csv"\ndrop_incomplete_topics = true\n')
    with pytest.warns(UserWarning, match="dropped 1 of 4 topics"):
        wb = build_workbook(load_spec(spec))
    assert "Variance" in wb.sheetnames
    spec.write_text(head + 'path = "nope.csv"\n')
    with pytest.raises(InputError) as exc:
        build_workbook(load_spec(spec))
    assert str(exc.value).startswith(f"{spec}: matrices[1] (g): {tmp_path / 'nope.csv'}: ")
    spec.write_text(head + 'path = "gap.csv"\ndrop_incomplete_topics = "yes"\n')
    with pytest.raises(InputError, match=r"matrices\[1\]\.drop_incomplete_topics='yes' is not "
                                         r"allowed: give true \(leave out the topics"):
        load_spec(spec)


@pytest.mark.slow
def test_a_variance_no_matrix_gives_says_where_it_comes_from(built):
    """A review, 2026-12-08: the default workbook's TTEST σ̂t² 0.04 and CI 0.05 (and ANOVA's
    0.0601) were attributed to nothing, beside a green n; the calculators' own defaults too.
    A matrix's estimate says "from the matrix" (test_measure_picker); the spec's value says it is
    the spec's; a calculator's default says it is a placeholder, and what to type instead."""
    wb = openpyxl.load_workbook(built.source["ntcir"])
    for name in ("anova_variance", "ttest_variance_t", "ci_variance_t"):
        assert meaning(wb, name).endswith(
            "; as the spec ntcir12_std_ab.toml gives it, not estimated here"), name
    for name in ("ttest2_variance", "ci2_variance"):
        assert meaning(wb, name).endswith(
            "; a placeholder, not from data: V_E of `topicsetsize variance FILE`"), name
    assert "; a placeholder, a one-way V_E of AIRS 2016 Table 1; a two-way V_E2 is smaller" in (
        meaning(wb, "anova2_variance"))
    assert "placeholder" not in meaning(wb, "decide_variance")     # as before: unlabelled
    assert "spec" not in meaning(wb, "decide_variance")
    wb = build_workbook(spec_from_dict({"title": "calculators only"}))
    assert meaning(wb, "ttest_variance_t").endswith(
        "; a placeholder, not from data: 2·V_E or 2·V_E2 of `topicsetsize variance FILE`")
    assert meaning(wb, "anova_variance").endswith(
        "; a placeholder, not from data: V_E of `topicsetsize variance FILE`")
