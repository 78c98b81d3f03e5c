"""Adding a design of an existing kind reaches every face of the package (issue 27's acceptance).

The toy of ``tests/_toy_design.py``, a one-sample t-test, is added at run time the way a
contributor adds a design: its module (three thin wrappers of the paired t-test's kind), its
declaration in the design registry, its calculator declaration. Nothing else is edited, and it
is found in the API (``tss.ttest1_n``), on the command line (``topicsetsize n ttest1``), among
the Excel functions with the metadata xlwings shows (Office.js ``custom_functions_meta``, run in
a child process as xlwings Lite would), and in a generated workbook whose saved values equal the
engine's. Its n is checked against a brute-force search with scipy's noncentral t.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.designs import registry

from . import _toy_design as toy

ROOT = Path(__file__).resolve().parents[1]

# The Office.js metadata of the toy's Excel functions, as xlwings Lite builds it (a child
# process: importing xlwings.server switches xlwings' decorators for the whole process).
_META = """
import json, sys, types
sys.path.insert(0, {root!r})
from tests import _toy_design as toy
from topicsetsize.designs import registry
sys.modules[toy.MODULE] = toy.engine_module()
registry.register(toy.declaration())
from topicsetsize.xladdin.udfs import design_functions
import xlwings.server
module = types.ModuleType("toy")
module.__dict__.update(design_functions(registry.DESIGNS[toy.KEY]))
print(json.dumps(xlwings.server.custom_functions_meta(module)))
"""


def _brute_n(alpha: float, beta: float, min_d: float, variance: float) -> int:
    """The smallest n whose two-sided one-sample t power reaches 1 − β (scipy's nct, n ≤ 2000)."""
    n = np.arange(2, 2001, dtype=float)
    w = stats.t.isf(alpha / 2, n - 1)
    lam = np.sqrt(n) * min_d / math.sqrt(variance)
    power = stats.nct.sf(w, n - 1, lam) + stats.nct.cdf(-w, n - 1, lam)
    return int(n[np.argmax(power >= 1 - beta)])


@pytest.fixture
def added(monkeypatch):
    """The toy added for one test: its module importable, its two declarations registered."""
    from topicsetsize.generator.content.calculators import CALCULATORS

    monkeypatch.setitem(sys.modules, toy.MODULE, toy.engine_module())
    design = registry.register(toy.declaration())
    monkeypatch.setitem(CALCULATORS, toy.KEY, toy.calculator())
    yield design
    registry.unregister(toy.KEY)


def test_the_api_has_it(added):
    assert {"ttest1_n", "ttest1_power", "ttest1_min_d"} <= set(dir(tss))
    n = tss.ttest1_n(0.05, 0.20, 0.5, 1.0)
    assert n == _brute_n(0.05, 0.20, 0.5, 1.0) == 34        # 34: Cohen 1988, Table 2.4.1, d = .5
    assert tss.ttest1_power(n, min_d=0.5, variance=1.0, alpha=0.05) >= 0.80
    assert tss.ttest1_power(n - 1, min_d=0.5, variance=1.0, alpha=0.05) < 0.80
    assert tss.ttest1_min_d(n, variance=1.0, alpha=0.05, beta=0.20) <= 0.5
    with pytest.raises(tss.InputError, match="^min_d=0 is out of range"):
        tss.ttest1_n(0.05, 0.20, 0, 1.0)


def test_the_api_has_it_when_the_package_first_looks_after_it_was_added(monkeypatch):
    """The package's map of names is built at its first lookup: a design added before that, in
    a module outside the package, is still imported from its own module (it was looked for
    as ``topicsetsize.<its module>``, in the installed wheel's order of events)."""
    from topicsetsize.generator.content.calculators import CALCULATORS

    monkeypatch.delitem(vars(tss), "_MODULE_OF", raising=False)    # no lookup has happened yet
    monkeypatch.setitem(sys.modules, toy.MODULE, toy.engine_module())
    monkeypatch.setitem(CALCULATORS, toy.KEY, toy.calculator())
    registry.register(toy.declaration())
    try:
        assert tss.ttest1_n(0.05, 0.20, 0.5, 1.0) == 34
        assert "ttest1_n" not in tss._MODULE_OF          # the package's own names only
    finally:
        registry.unregister(toy.KEY)
    assert "ttest1_n" not in dir(tss)


def test_the_command_line_has_it(added, capsys):
    from topicsetsize.cli import main

    assert main(["n", "ttest1", "--min-d", "0.2", "--variance", "0.05", "--csv"]) in (0, None)
    header, row = capsys.readouterr().out.splitlines()[:2]
    assert header.split(",")[:2] == ["method", "n"]
    assert int(row.split(",")[1]) == _brute_n(0.05, 0.20, 0.2, 0.05)


@pytest.mark.slow
def test_the_excel_functions_have_it_with_their_metadata(added):
    from topicsetsize.xladdin.udfs import design_functions

    functions = design_functions(added)
    assert list(functions) == list(toy.EXCEL.values())
    assert str(inspect.signature(functions["TSS_TTEST1"])) == "(alpha, beta, minD, var)"
    assert functions["TSS_TTEST1"](0.05, 0.2, 0.2, 0.05) == _brute_n(0.05, 0.20, 0.2, 0.05)
    with pytest.raises(tss.InputError, match="^minD=-1 is out of range: allowed minD > 0$"):
        functions["TSS_TTEST1"](0.05, 0.2, -1, 0.05)        # Excel shows it as #VALUE!

    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    done = subprocess.run([sys.executable, "-c", _META.format(root=str(ROOT))], env=env,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    meta = {f["name"]: f for f in json.loads(done.stdout)["functions"]}
    assert set(meta) == set(toy.EXCEL.values())
    assert [p["name"] for p in meta["TSS_TTEST1"]["parameters"]] == ["alpha", "beta", "minD",
                                                                      "var"]
    assert "One-sample t-test" in meta["TSS_TTEST1"]["description"]


@pytest.mark.slow
def test_the_workbook_has_its_sheet_with_the_engine_s_values(added, tmp_path):
    from topicsetsize.generator import spec_from_dict, write_workbook

    spec = spec_from_dict({"title": "toy", "calculators": {toy.KEY: {"min_d": 0.2}}})
    path = write_workbook(spec, tmp_path / "toy.xlsx")
    assert "TTEST1" in openpyxl.load_workbook(path).sheetnames
    saved = openpyxl.load_workbook(path, data_only=True)

    def value(name):
        sheet, coord = next(iter(saved.defined_names[name].destinations))
        return saved[sheet][coord.replace("$", "")].value

    your_n = value("ttest1_your_n")
    assert value("ttest1_n") == tss.ttest1_n(0.05, 0.20, 0.2, 0.05) \
        == _brute_n(0.05, 0.20, 0.2, 0.05)
    assert math.isclose(value("ttest1_power"), tss.ttest1_power(
        your_n, min_d=0.2, variance=0.05, alpha=0.05), rel_tol=1e-9)
    # the minimum detectable minD at n, rounded up to 6 decimals: it has the power, one step
    # of the last decimal less has not
    d = value("ttest1_min_d_at_n")
    assert d >= tss.ttest1_min_d(your_n, variance=0.05, alpha=0.05, beta=0.20)
    assert tss.ttest1_power(your_n, min_d=d, variance=0.05, alpha=0.05) >= 0.80 \
        > tss.ttest1_power(your_n, min_d=d - 1e-6, variance=0.05, alpha=0.05)
