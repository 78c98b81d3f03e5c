"""The Excel functions through xlwings' own Office.js custom-function path.

This is the code path of xlwings Lite and xlwings Server (Excel on Windows, Mac and the web):
``xlwings.server.custom_functions_meta`` registers the functions, and
``xlwings.server.custom_functions_call`` converts Office.js arguments (every argument a 2-D
array; counts as JSON numbers; empty cells as "" or null), calls the function and converts the
result back to a 2-D array. It runs in a worker process with ``XLWINGS_ON_SERVER=true`` (see
tests/xladdin/conftest.py), so this test process keeps its ordinary xlwings import.

Expected values: the engine called directly in this process, and the published numbers
(CIKM 2014, docs/formulas.md; Tables 1 and 2 of the AIRS 2016 std-AB paper,
tests/data/PROVENANCE.md).
"""

from __future__ import annotations

import inspect
import math

import pytest

import topicsetsize as tss
from topicsetsize.designs.registry import DESIGNS
from topicsetsize.errors import InputError
from xladdin import udfs
from xladdin._register import ARG_DOCS, EXCEL_NAMES, arg_doc, excel_words

from . import _toy_design
from ._table1 import KENDALL_ROWS, ranks_with_tau
from .test_design_functions import PUBLISHED, engine_arguments

METHODS = ["legacy", "exact"]


def _result(answer: dict):
    assert "error" not in answer, answer
    return answer["result"]


def _scalar(answer: dict):
    value = _result(answer)
    assert len(value) == 1 and len(value[0]) == 1, value
    return value[0][0]


def _error(answer: dict) -> str:
    assert "result" not in answer, answer
    error = answer["error"]
    # An xlwings.XlwingsError: xlwings Server shows its message even in production; Office.js
    # shows #VALUE! in the cell with the message in the cell's error flag.
    assert error["xlwings_error"] and error["type"] == "ExcelArgumentError", error
    assert "\n" not in error["message"]
    return error["message"]


# --- Registration -----------------------------------------------------------------------------

@pytest.mark.slow
def test_the_decorators_are_the_office_js_ones_and_nothing_windows_only_is_imported(officejs):
    environment = officejs.environment()
    assert environment["func_module"] == "xlwings.pro.udfs_officejs"
    assert environment["errors"] == "raise"
    assert environment["windows_modules"] == []


@pytest.mark.parametrize("module", ["udfs", "lite_main"])
@pytest.mark.slow
def test_meta_describes_every_function_with_its_parameters_and_docs(officejs, module):
    # "lite_main" is a module holding only `from xladdin.udfs import *`, as in Lite's main.py.
    functions = {f["id"]: f for f in officejs.meta(module)["functions"]}
    assert sorted(functions) == sorted(udfs.__all__)
    model = {name: d.model for d in DESIGNS.values() for name in d.excel.values()}
    for name in udfs.__all__:
        fn, meta = getattr(udfs, name), functions[name]
        assert meta["name"] == name
        assert meta["description"] == fn.__doc__ and len(meta["description"]) > 40
        params = inspect.signature(fn).parameters.values()
        assert [p["name"] for p in meta["parameters"]] == [p.name for p in params]
        for param, described in zip(params, meta["parameters"]):
            assert described["description"] == arg_doc(param.name, model.get(name))
            assert described.get("optional", False) == (param.default is not param.empty)
            assert described.get("repeating", False) == (param.kind is param.VAR_POSITIONAL)


@pytest.mark.slow
def test_meta_uses_the_spreadsheet_argument_names(officejs):
    # The registry's functions take the Excel names of their engine arguments (the design's
    # inputs for n), with a `method` where the design has a choice; the classic names (PUBLISHED
    # in test_design_functions.py) are among them.
    signatures = {f["id"]: [p["name"] for p in f["parameters"]]
                  for f in officejs.meta()["functions"]}
    for name, arguments in PUBLISHED.items():
        assert ", ".join(signatures[name]) == arguments
    for design in DESIGNS.values():
        for role, name in design.excel.items():
            assert signatures.pop(name) == \
                [EXCEL_NAMES.get(p, p) for p in engine_arguments(design, role)] + (
                    ["method"] if len(design.methods) > 1 else []), name
    # what is left is written by hand, and has the signature of its Python function
    assert sorted(signatures) == sorted(udfs.HAND_WRITTEN)
    assert signatures["TSS_POOLED_VAR"] == ["range1", "range2"]
    assert signatures["STDAB"] == ["range", "A", "B", "clip"]


@pytest.mark.slow
def test_meta_of_a_design_registered_at_run_time(officejs):
    # The one-sample t-test toy (_toy_design.py), built in the worker by design_functions with
    # xlwings' Office.js decorators, described by xlwings' custom_functions_meta.
    meta = {f["id"]: f for f in officejs.toy_meta()["functions"]}
    assert sorted(meta) == sorted(_toy_design.EXCEL.values())
    power = meta["TSS_POWER_TTEST1"]
    assert power["name"] == "TSS_POWER_TTEST1"
    assert power["description"].startswith("One-sample t-test: the power with n topics")
    assert [p["name"] for p in power["parameters"]] == ["n", "minD", "var", "alpha"]
    assert [p["description"] for p in power["parameters"]] == \
        [ARG_DOCS[p] for p in ("n", "minD", "var", "alpha")]
    assert not any(p.get("optional") for f in meta.values() for p in f["parameters"])
    assert [p["name"] for p in meta["TSS_MIND_TTEST1"]["parameters"]] == \
        ["n", "var", "alpha", "beta"]


# --- Worked examples and published tables -------------------------------------------------------

@pytest.mark.slow    # a second or more (several on a slower machine)
def test_readme_example(officejs):
    # =TSS_ANOVA(0.05,0.2,0.1,0.0601,10): Table 2, MedNLPDoc raw recall, m=10, minD=.1 -> 188.
    assert _scalar(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10)) == 188
    assert _scalar(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10, None)) == 188
    assert _scalar(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10.0, "exact")) == 189
    # The same through a module that only does `from xladdin.udfs import *` (xlwings Lite).
    assert _scalar(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10,
                                 module="lite_main")) == 188


@pytest.mark.slow
def test_worked_examples(officejs):
    # CIKM 2014 worked examples and the CI examples of docs/formulas.md §6.
    assert _scalar(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.5, 0.25, 3)) == 20
    assert round(_scalar(officejs.call("TSS_POWER_ANOVA", 19, 3, 0.5, 0.25, 0.05)), 3) == 0.791
    assert round(_scalar(officejs.call("TSS_POWER_ANOVA", 20, 3, 0.5, 0.25, 0.05)), 3) == 0.813
    assert _scalar(officejs.call("TSS_TTEST", 0.05, 0.2, 0.5, 1)) == 34
    assert _scalar(officejs.call("TSS_TTEST_ES", 0.05, 0.2, 0.5)) == 34
    assert _scalar(officejs.call("TSS_TTEST_ES", 0.05, 0.2, 0.2)) == 199
    assert round(_scalar(officejs.call("TSS_POWER_TTEST", 33, 0.5, 1, 0.05)), 3) == 0.795
    assert round(_scalar(officejs.call("TSS_POWER_TTEST", 34, 0.5, 1, 0.05)), 3) == 0.808
    for alpha, delta, var_t, n in [(0.05, 0.10, 0.05, 79), (0.05, 0.05, 0.02, 125),
                                   (0.01, 0.10, 0.10, 269)]:
        assert _scalar(officejs.call("TSS_CI", alpha, delta, var_t)) == n
        assert _scalar(officejs.call("TSS_CI_WIDTH", n, var_t, alpha)) == \
            tss.ci_delta(n, variance_t=var_t, alpha=alpha)


@pytest.mark.parametrize("method", METHODS)
def test_table2_every_cell(officejs, table2, method):
    # All 100 cells of Table 2 (parts I and II), each as one =TSS_ANOVA(...) formula.
    for r in table2.itertuples():
        got = _scalar(officejs.call("TSS_ANOVA", r.alpha, r.beta, r.min_d, r.variance, int(r.m),
                                    method))
        assert got == getattr(r, f"n_{method}"), r


@pytest.mark.parametrize("method", METHODS)
def test_table_anova_fills_each_published_table(officejs, table2, method):
    for variance, rows in table2.groupby("variance", sort=False):
        ms, min_ds = sorted(rows.m.unique()), sorted(rows.min_d.unique())
        block = _result(officejs.call("TSS_TABLE_ANOVA", 0.05, 0.2, variance,
                                      [[int(m)] for m in ms], [min_ds], method))
        published = rows.pivot(index="m", columns="min_d", values=f"n_{method}")
        assert block[0] == [udfs.TABLE_CORNER, *min_ds]
        assert [row[0] for row in block[1:]] == ms
        assert [row[1:] for row in block[1:]] == published.loc[ms, min_ds].values.tolist()


def test_guarantees_block(officejs):
    # n as a column, ms omitted (the default 2, 5, ..., 100), alpha/beta/method left blank.
    block = _result(officejs.call("TSS_GUARANTEES", [[93], [100]], 0.0601, None, None, None,
                                  None))
    engine = tss.guarantees([93, 100], variance=0.0601).table
    assert block[0] == udfs.GUARANTEES_HEADER
    assert block[1:] == engine.values.tolist()
    # AIRS 2016 Table 2 part I: 93 topics for m = 2, minD = .10.
    assert block[1][:2] == [93, 2] and block[1][2] <= 0.10


@pytest.mark.parametrize("method", METHODS)
def test_power_and_minimum_detectable_match_the_engine(officejs, method):
    assert _scalar(officejs.call("TSS_POWER_ANOVA", 100, 10, 0.15, 0.0601, 0.05, method)) == \
        tss.anova_power(100, m=10, min_d=0.15, variance=0.0601, alpha=0.05, method=method)
    assert _scalar(officejs.call("TSS_POWER_TTEST", 50, 0.1, 0.1202, 0.05, method)) == \
        tss.ttest_power(50, min_dt=0.1, variance_t=0.1202, alpha=0.05, method=method)
    assert _scalar(officejs.call("TSS_MIND_ANOVA", 100, 10, 0.0601, 0.05, 0.2, method)) == \
        tss.anova_min_d(100, m=10, variance=0.0601, alpha=0.05, beta=0.2, method=method)
    assert _scalar(officejs.call("TSS_MINDT_TTEST", 100, 0.1202, 0.05, 0.2, method)) == \
        tss.ttest_min_dt(100, variance_t=0.1202, alpha=0.05, beta=0.2, method=method)


def test_variances_of_the_book_example(officejs, book_matrix):
    # Sakai's book, Table 5.1 (docs/formulas.md §9): one-way .0326491228..., two-way .0218859649...
    assert _scalar(officejs.call("TSS_VAR", book_matrix)) == pytest.approx(0.0326491228, abs=1e-10)
    assert _scalar(officejs.call("TSS_VAR2", book_matrix)) == \
        pytest.approx(0.0218859649, abs=1e-10)
    assert _scalar(officejs.call("TSS_POOLED_VAR", book_matrix, repeating=[])) == \
        tss.residual_variance(book_matrix)


@pytest.mark.slow
def test_gstudy_components_like_the_engine(officejs, web2010):
    # TREC 2010 Web AP: the engine's G-study (tests/topicsetsize/estimates/test_gtheory.py checks it
    # against a re-implementation of gt4ireval); a row of three components
    g = tss.g_study(web2010)
    [row] = _result(officejs.call("TSS_GSTUDY", web2010.values.tolist()))
    assert row == pytest.approx([g.var_s, g.var_t, g.var_e], rel=1e-12)
    assert "range" in _error(officejs.call("TSS_GSTUDY", [[0.1, 0.2]]))


def test_pooled_variance_over_several_ranges(officejs, book_matrix, web2010):
    web = web2010.values.tolist()
    assert _scalar(officejs.call("TSS_POOLED_VAR", book_matrix, repeating=[web, book_matrix])) \
        == tss.pooled_variance([book_matrix, web, book_matrix])


@pytest.mark.slow
def test_standardisation_returns_a_matrix_like_the_engine(officejs, web2010):
    cells = web2010.values.tolist()
    assert _result(officejs.call("STDAB", cells)) == tss.std_ab(cells).tolist()
    assert _result(officejs.call("STDAB", cells, 1.0, None, False)) == \
        tss.std_ab(cells, a=1.0, clip=False).tolist()
    assert _scalar(officejs.call("STDAB_VAR", cells)) == tss.residual_variance(tss.std_ab(cells))
    assert _result(officejs.call("STDCDF", cells)) == tss.std_cdf(cells).tolist()


@pytest.mark.parametrize("row", KENDALL_ROWS[:4], ids=lambda r: f"{r[0]}-{r[1]}")
def test_kendall_returns_one_row(officejs, row):
    _, _, m, tau, low, high = row
    x, y = ranks_with_tau(m, tau)
    got = _result(officejs.call("TSS_KENDALL", [[v] for v in x], y))    # a column and a row
    assert got == [list(tss.kendall_tau_ci(x, y))]
    assert round(got[0][0], 3) == tau
    assert got[0][2] - got[0][0] == pytest.approx(high - tau, abs=6e-4)


def test_results_are_numbers_never_nan(officejs, book_matrix):
    for answer in (officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10),
                   officejs.call("TSS_POWER_ANOVA", 2, 2, 0.1, 0.0601, 0.05, "exact"),
                   officejs.call("STDAB", book_matrix)):
        for value in (v for row in _result(answer) for v in row):
            assert type(value) in (int, float) and math.isfinite(value)


# --- Bad input through Office.js ----------------------------------------------------------------

def test_bad_parameters(officejs):
    assert _error(officejs.call("TSS_ANOVA", 1.5, 0.2, 0.1, 0.0601, 10)) == \
        "alpha=1.5 is out of range: allowed 1e-06 <= alpha <= 0.5"
    assert _error(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 1)) == \
        "m=1 is out of range: allowed 2 <= m <= 1000000000 (a whole number)"
    assert _error(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10, "fast")) == \
        'method "fast" is not one of \'legacy\', \'exact\''
    # An empty cell given for a required number arrives as "" and is read as blank.
    assert _error(officejs.call("TSS_CI", "", 0.1, 0.05)) == \
        "alpha is blank: allowed 1e-06 <= alpha <= 0.5"


def test_blank_and_text_cells_in_a_range(officejs, book_matrix):
    blank = [row[:] for row in book_matrix]
    blank[2][1] = ""                               # Office.js sends an empty cell as ""
    assert _error(officejs.call("TSS_VAR", blank)) == (
        "range: blank cell at row 3, column 2 (a blank is not read as 0: fill it in or leave "
        "the topic out)")
    null = [row[:] for row in book_matrix]
    null[0][0] = None
    assert _error(officejs.call("STDAB", null)).startswith("range: blank cell at row 1, column 1")
    text = [row[:] for row in book_matrix]
    text[7][2] = "n/a"
    assert _error(officejs.call("STDAB_VAR", text)) == \
        "range: text 'n/a' at row 8, column 3 is not a number"
    assert _error(officejs.call("TSS_POOLED_VAR", book_matrix, repeating=[text])) == \
        "range2: text 'n/a' at row 8, column 3 is not a number"


def test_undefined_legacy_power(officejs):
    message = _error(officejs.call("TSS_POWER_ANOVA", 2, 2, 0.1, 0.0601, 0.05))
    assert message.startswith("the legacy power is undefined at n=2, m=2")


def test_unreachable_design(officejs):
    message = _error(officejs.call("TSS_TTEST_ES", 0.05, 0.2, 1e-9))
    with pytest.raises(InputError) as engine:
        tss.ttest_n_effect(0.05, 0.2, 1e-9)
    assert message == excel_words(str(engine.value)) and "search limit" in message


@pytest.mark.slow
def test_an_error_cell_is_refused_through_office_js(officejs, book_matrix):
    # Office.js hands an error cell over as {"type": "Error", "basicValue": "#N/A"}; without
    # err_to_str xlwings made it None, and an optional method silently became "legacy" (188).
    error = {"type": "Error", "basicValue": "#N/A"}
    assert _error(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, 0.0601, 10, error)).startswith(
        "method is the error value #N/A")
    assert _error(officejs.call("TSS_ANOVA", 0.05, 0.2, 0.1, error, 10)).startswith(
        "var is the error value #N/A")
    broken = [row[:] for row in book_matrix]
    broken[1][2] = error
    assert _error(officejs.call("TSS_VAR", broken)) == \
        "range: the error value #N/A at row 2, column 3 is not a number: mend that cell"
