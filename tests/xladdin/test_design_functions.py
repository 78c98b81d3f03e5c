"""The designs' standard Excel functions, built from the design registry (issue 27.2).

Every list of functions here comes from the registry (``Design.excel``: role -> Excel name), so a
design added to it, or registered at run time (the one-sample t-test toy of _toy_design.py), is
checked without editing this file. Per function: its name, its arguments (the design's inputs
for n; the engine function's required arguments for the other roles; Excel names; ``method``
exactly where the design has a choice), its docs, its value against the engine on a few inputs
in every method, and a bad argument's one-line ``#VALUE!`` naming the argument, the value and
the allowed range. The metadata is read the way xlwings reads it: by xlwings' own classic
decorators and VBA writer here, and by its Office.js ``custom_functions_meta`` in
test_officejs.py.
"""

from __future__ import annotations

import importlib.util
import inspect
import io
import math
import re
import sys
import types

import pytest
import xlwings
from topicsetsize.xladdin import _register, udfs
from topicsetsize.xladdin._register import ARG_DOCS, arg_doc, excel_name, excel_words

from topicsetsize.designs.registry import DESIGNS, ROLES
from topicsetsize.errors import InputError
from topicsetsize.params import PARAMS, check

from . import _toy_design

#: One cell per engine argument, inside every parameter's range (lists as a column range).
CELL = {"alpha": 0.05, "beta": 0.2, "min_d": 0.1, "min_dt": 0.1, "delta": 0.1, "variance": 0.05,
        "variance_t": 0.1, "m": 5, "n": 30, "min_delta_t": 0.3, "ms": [2, 5],
        "min_ds": [0.1, 0.2]}

#: (design key, role, Excel name) of every function the registry declares.
DECLARED = [(key, role, name) for key, design in DESIGNS.items()
            for role, name in design.excel.items()]

#: The published spreadsheet interface (0.1): these functions are in users' workbooks, so their
#: names and argument orders must not change whatever the registry or the engine become. Not a
#: list of every function (that comes from the registry): a new function need not be added.
PUBLISHED = {
    "TSS_ANOVA": "alpha, beta, minD, var, m, method", "TSS_TTEST": "alpha, beta, minDt, var_t, "
    "method", "TSS_TTEST_ES": "alpha, beta, minDeltaT, method", "TSS_CI": "alpha, delta, var_t",
    "TSS_CI_WIDTH": "n, var_t, alpha", "TSS_POWER_ANOVA": "n, m, minD, var, alpha, method",
    "TSS_POWER_TTEST": "n, minDt, var_t, alpha, method",
    "TSS_MIND_ANOVA": "n, m, var, alpha, beta, method",
    "TSS_MINDT_TTEST": "n, var_t, alpha, beta, method",
    "TSS_TABLE_ANOVA": "alpha, beta, var, ms, minDs, method",
    "TSS_ANOVA2": "alpha, beta, minD, var, m", "TSS_POWER_ANOVA2": "n, m, minD, var, alpha",
    "TSS_MIND_ANOVA2": "n, m, var, alpha, beta", "TSS_TTEST2": "alpha, beta, minD, var",
    "TSS_POWER_TTEST2": "n, minD, var, alpha", "TSS_CI2": "alpha, delta, var",
    "TSS_CI2_WIDTH": "n, var, alpha",
}


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setattr(_register, "ERRORS", "raise")


@pytest.fixture
def toy(monkeypatch):
    """The one-sample t-test registered at run time, with its engine module importable."""
    monkeypatch.setitem(sys.modules, _toy_design.MODULE, _toy_design.toy_module())
    design = _toy_design.toy_design()
    monkeypatch.setitem(DESIGNS, design.key, design)
    return design


def engine_arguments(design, role) -> list[str]:
    """The engine arguments an Excel function takes: the inputs for n (the registry's
    contract), else the engine function's arguments without a default, in order."""
    if role == "n":
        return list(design.inputs)
    parameters = inspect.signature(design.function(role)).parameters.values()
    return [p.name for p in parameters if p.default is p.empty]


def _methods(design) -> list:
    return list(design.methods) if len(design.methods) > 1 else [None]


def _cell(param):
    """CELL[param] as Excel hands it over: floats, and lists as a column of rows."""
    value = CELL[param]
    return [[float(v)] for v in value] if isinstance(value, list) else float(value)


def _check_metadata(design, role, name, fn):
    arguments = engine_arguments(design, role)
    parameters = inspect.signature(fn).parameters
    assert fn.__name__ == name
    assert list(parameters) == [excel_name(p) for p in arguments] + \
        (["method"] if len(design.methods) > 1 else [])
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters.values())
    assert [p.name for p in parameters.values() if p.default is not p.empty] == \
        (["method"] if len(design.methods) > 1 else [])
    assert all(20 <= len(ARG_DOCS[p]) <= 255 for p in parameters)
    # Excel's function wizard shows at most 255 characters, on one line.
    assert fn.__doc__.startswith(design.name + ":") and "\n" not in fn.__doc__
    assert 40 < len(fn.__doc__) <= 255


def _check_values(design, role, fn):
    arguments = engine_arguments(design, role)
    for method in _methods(design):
        options = {} if method is None else {"method": method}
        got = fn(*(_cell(p) for p in arguments), *([method] if method else []))
        if role == "n":
            expected = design.function(role)(*(CELL[p] for p in arguments), **options)
        else:
            expected = design.function(role)(**{p: CELL[p] for p in arguments}, **options)
        if role == "table":
            rows, columns = CELL[design.table_rows + "s"], CELL[design.effect + "s"]
            assert got[0] == [udfs.table_corner(design), *columns]
            assert got[1:] == [[r, *row] for r, row in zip(rows, expected.to_numpy().tolist())]
            assert all(type(v) is int for row in got[1:] for v in row)
        else:
            assert got == expected and type(got) in (int, float) and math.isfinite(got)


def _check_bad_arguments(design, role, fn, monkeypatch):
    """Each number out of range, in turn, gives the one-line #VALUE! text of the classic add-in,
    with the parameter registry's message (argument, value, allowed range)."""
    monkeypatch.setattr(_register, "ERRORS", "text")
    arguments = engine_arguments(design, role)
    for bad in (p for p in arguments if not isinstance(CELL[p], list)):
        cells = [-1.0 if p == bad else _cell(p) for p in arguments]
        with pytest.raises(InputError) as engine:     # α and β: the Excel functions' range
            check(bad, -1.0, key=f"{bad}_excel" if f"{bad}_excel" in PARAMS else None)
        text = fn(*cells)
        # in the Excel names (minD, var), as the function wizard names the arguments
        assert text == f"#VALUE! {excel_words(str(engine.value))}" and "\n" not in text
        assert text.startswith(f"#VALUE! {excel_name(bad)}=-1") and "allowed" in text
    if len(design.methods) > 1:
        assert fn(*(_cell(p) for p in arguments), "fast") == \
            '#VALUE! method "fast" is not one of ' + ", ".join(map(repr, design.methods))
    monkeypatch.setattr(_register, "ERRORS", "raise")


# --- Every function the registry declares ------------------------------------------------------

@pytest.mark.parametrize("key, role, name", DECLARED)
def test_every_declared_function_is_built_from_its_design(key, role, name, monkeypatch):
    design, fn = DESIGNS[key], getattr(udfs, name)
    assert name in udfs.__all__ and name in udfs.DESIGN_FUNCTIONS
    _check_metadata(design, role, name, fn)
    _check_values(design, role, fn)
    _check_bad_arguments(design, role, fn, monkeypatch)


def test_the_module_holds_the_registry_s_functions_and_the_hand_written_ones():
    declared = [name for _, _, name in DECLARED]
    assert len(set(declared)) == len(declared)                    # no name twice
    assert sorted(udfs.__all__) == sorted([*declared, *udfs.HAND_WRITTEN])
    # the hand-written ones are no design's role
    assert not set(udfs.HAND_WRITTEN) & set(declared)
    assert set(ROLES) >= {role for _, role, _ in DECLARED}


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_functions_keep_their_names_and_arguments(name):
    assert ", ".join(inspect.signature(getattr(udfs, name)).parameters) == PUBLISHED[name]
    assert name in [n for _, _, n in DECLARED]


def test_a_bad_argument_raises_one_line_outside_the_classic_add_in():
    with pytest.raises(_register.ExcelArgumentError) as info:
        udfs.TSS_POWER_ANOVA2(1.0, 3.0, 0.1, 0.01, 0.05)
    assert str(info.value) == "n=1 is out of range: allowed 2 <= n <= 1000000000 (a whole number)"


def test_arguments_by_keyword_and_a_wrong_count_as_in_python():
    assert udfs.TSS_ANOVA(alpha=0.05, beta=0.2, minD=0.1, var=0.0601, m=10.0) == 188
    with pytest.raises(TypeError):
        udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601)


# --- A design registered at run time -----------------------------------------------------------

def test_a_toy_design_registered_at_run_time_gets_its_functions(toy, monkeypatch):
    functions = udfs.design_functions(DESIGNS["ttest1"])
    assert list(functions) == list(_toy_design.EXCEL.values())
    for role, name in toy.excel.items():
        _check_metadata(toy, role, name, functions[name])
        _check_values(toy, role, functions[name])
        _check_bad_arguments(toy, role, functions[name], monkeypatch)
    assert [list(inspect.signature(f).parameters) for f in functions.values()] == [
        ["alpha", "beta", "minD", "var"], ["n", "minD", "var", "alpha"],
        ["n", "var", "alpha", "beta"]]
    assert "minimum detectable difference from 0 minD" in functions["TSS_TTEST1"].__doc__
    # One-sample t-test, d = .5: statsmodels' TTestPower().solve_power gives 33.37 -> 34 topics,
    # power .79537 at 33 and .80778 at 34 (TTestPower().power, two-sided), minimum detectable
    # d .49503 at 34.
    assert functions["TSS_TTEST1"](0.05, 0.2, 0.5, 1.0) == 34
    assert functions["TSS_POWER_TTEST1"](33.0, 0.5, 1.0, 0.05) == pytest.approx(0.7953658415)
    assert functions["TSS_POWER_TTEST1"](34.0, 0.5, 1.0, 0.05) == pytest.approx(0.8077775013)
    assert functions["TSS_MIND_TTEST1"](34.0, 1.0, 0.05, 0.2) == pytest.approx(0.49503, abs=2e-5)


# --- The metadata as xlwings' classic add-in reads it ------------------------------------------

@pytest.fixture
def classic_xlwings(monkeypatch):
    """xlwings' classic-add-in module ``xlwings.udfs`` (its decorators, its VBA writer), loaded
    from the installed xlwings with pywin32 stubbed out (it needs Windows only for COM, which
    these functions do not touch); its decorators replace the no-op ones while a test runs."""
    for name, attributes in {"pythoncom": {"CoInitialize": lambda: None},
                             "pywintypes": {"com_error": OSError},
                             "win32com": {}, "win32com.client": {"Dispatch": None}}.items():
        monkeypatch.setitem(sys.modules, name, types.SimpleNamespace(**attributes))
    path = xlwings.__file__.replace("__init__.py", "udfs.py")
    spec = importlib.util.spec_from_file_location("xlwings.udfs", path)
    classic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(classic)
    monkeypatch.setattr(xlwings, "func", classic.xlfunc)
    monkeypatch.setattr(xlwings, "arg", classic.xlarg)
    return classic


def _vba_declarations(classic, functions: dict) -> dict[str, str]:
    """Function name -> its VBA declaration, as *Import Functions* writes them."""
    module = types.ModuleType("udfs")
    module.__dict__.update(functions)
    vba = io.StringIO()
    classic.generate_vba_wrapper("udfs", module, vba, types.SimpleNamespace(Name="book.xlsm"))
    return dict(re.findall(r"^Function (\w+)\((.*)\)$", vba.getvalue(), re.MULTILINE))


def _check_classic(classic, design, functions):
    declarations = _vba_declarations(classic, functions)
    assert sorted(declarations) == sorted(design.excel.values())
    for role, name in design.excel.items():
        arguments = [excel_name(p) for p in engine_arguments(design, role)]
        method = ["Optional method"] if len(design.methods) > 1 else []
        assert declarations[name] == ", ".join(arguments + method)
        # what Import Functions hands Excel's MacroOptions: description and argument docs
        xlfunc = functions[name].__xlfunc__
        assert xlfunc["name"] == name and xlfunc["ret"]["doc"] == functions[name].__doc__
        assert [a["doc"] for a in xlfunc["args"]] == \
            [arg_doc(a, design.model) for a in arguments + (["method"] if method else [])]


@pytest.mark.parametrize("key", [k for k, d in DESIGNS.items() if d.excel])
def test_classic_add_in_metadata(classic_xlwings, key):
    design = DESIGNS[key]
    _check_classic(classic_xlwings, design, udfs.design_functions(design))


def test_classic_add_in_metadata_of_a_toy_design(classic_xlwings, toy):
    _check_classic(classic_xlwings, toy, udfs.design_functions(toy))


def test_positional_and_keyword_cells_give_the_same_answer_and_errors():
    # issue 28.5: positional cells are mapped to the signature's names without Signature.bind;
    # keywords and wrong counts still go through it, with its errors
    f = udfs.TSS_ANOVA
    assert f(0.05, 0.2, 0.1, 0.0601, 10.0) == f(0.05, 0.2, 0.1, 0.0601, m=10.0) == 188
    assert f(0.05, 0.2, 0.1, 0.0601, 10.0, "exact") == f(0.05, 0.2, 0.1, 0.0601, 10.0,
                                                          method="exact")
    with pytest.raises(TypeError):
        f(0.05, 0.2, 0.1, 0.0601)
    with pytest.raises(TypeError):
        f(0.05, 0.2, 0.1, 0.0601, 10.0, "exact", 1)


def test_a_two_way_design_asks_for_the_two_way_variance():
    # The wizard's help for TSS_ANOVA2's var named TSS_VAR (a reviewer's find, 2026-12-06):
    # on TREC 2004 Robust AP, TSS_ANOVA2(.05,.2,.05,TSS_VAR(R),10) gives 566 topics where
    # TSS_VAR2 gives 167. A two-way design's var says V_E2 and TSS_VAR2; the others keep TSS_VAR.
    for design in DESIGNS.values():
        if not design.excel:
            continue
        doc = arg_doc("var", design.model)
        if design.model == "two-way":
            assert "TSS_VAR2" in doc and "V_E2" in doc, design.key
        else:
            assert doc == ARG_DOCS["var"] and "TSS_VAR2" not in doc, design.key
    assert any(d.model == "two-way" and d.excel for d in DESIGNS.values())


def test_an_unpaired_designs_min_d_is_a_difference_not_a_range():
    # A parity review (2026-12-07): TSS_TTEST2's and TSS_POWER_TTEST2's wizard called minD
    # the "range between the best and the worst system", where the command line's help says
    # the difference between the two systems. Each design's minD doc now says what its
    # declaration says (the words of Design.helps).
    for design in DESIGNS.values():
        if not design.excel or "min_d" not in design.inputs:
            continue
        doc = arg_doc("minD", design.model)
        words = "difference between the two systems" if design.model == "unpaired" else \
            "range between the best and the worst"
        assert words in doc, (design.key, doc)
        assert ("range" in design.helps["min_d"]) == ("range" in doc), design.key
