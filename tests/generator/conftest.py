"""The batch of generated workbooks that the spreadsheet tests recalculate in LibreOffice.

Each is built on first use and kept for the session (a test that reads one workbook builds
only that one); the LibreOffice tests recalculate all of them in a single LibreOffice run (see
``_libreoffice.py``), so they cost one soffice launch.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path

import openpyxl
import pytest
from topicsetsize.generator import bundled_spec, load_spec, spec_from_dict, write_workbook
from topicsetsize.generator.content.calculators import CALCULATORS, INPUTS
from topicsetsize.generator.content.inputs import allowed, check_input
from topicsetsize.generator.sheets.calculators import helper_sheet
from topicsetsize.generator.spreadsheet.formulas import POISSON_TERMS, anova_models, ttest_models
from topicsetsize.generator.spreadsheet.layout import check_formula, validation_formula
from topicsetsize.generator.spreadsheet.rows import Col, write_block

from .._once import once, shared_folder
from ._cases import grid_workbooks
from ._edit import edited_copy
from ._libreoffice import Recalculated, recalculate_batch

#: Names that would be formulas if written carelessly (formula injection).
INJECTION_RUNS = ['=HYPERLINK("http://evil.example/x","click")', "+1", "-1", "@SUM(A1)"]
INJECTION_TOPICS = ["=1+1", "+A1", "-2", "@A1"]
INJECTION_MEASURE = '=HYPERLINK("http://evil.example/m","measure")'
INJECTION_TITLE = "@SUM(A1) title"

#: Inputs typed into the bundled workbook's calculators for the "edit and recalculate" test:
#: AIRS 2016 Table 2 part I (m = 10, minD = .1: legacy 188, exact 189), CIKM 2014 (minΔt = .2
#: from minDt = .04 and σ̂t² = .04: 199), docs/formulas.md §6 (δ = .05, σ̂t² = .02: 125).
EDITS = {"anova_m": 10, "anova_min_d": 0.1, "ttest_min_dt": 0.04, "ci_delta": 0.05,
         "ci_variance_t": 0.02}

#: A difference and a variance on different scales of scores in every calculator (valid inputs:
#: the status says OK with the scale note of topicsetsize.designs.scales): a variance of
#: scores in percent with a difference meant on [0, 1], or a difference in percentage points
#: with a variance of scores in [0, 1]; the reverse slip in every other calculator.
SCALE_SLIPS = {"anova_variance": 188.2, "ttest_min_dt": 10, "ci_variance_t": 376.4,
               "anova2_min_d": 20, "ttest2_variance": 300, "ci2_delta": 5,
               "decide_variance": 188.2}

DATE = dt.date(2024, 1, 2)

#: Bad inputs typed (or pasted, which data validation does not stop) into the bundled
#: workbook: per calculator, (input name, value, what its check cell says). Every input of
#: every calculator is blanked once and given a text or an out-of-range value once; the k-th
#: edit of each calculator goes into workbook ``bad_k``.
BAD = {
    "anova": [("anova_alpha", None, "blank"), ("anova_beta", 0.7, "out of range"),
              ("anova_min_d", "0,02", "not a number"), ("anova_variance", "0,05", "not a number"),
              ("anova_m", 2.5, "out of range"), ("anova_your_n", 1, "out of range"),
              ("anova_beta", None, "blank"), ("anova_min_d", 0, "out of range"),
              ("anova_variance", None, "blank"), ("anova_m", None, "blank"),
              ("anova_your_n", None, "blank"), ("anova_alpha", "5%", "not a number")],
    "ttest": [("ttest_beta", 0.7, "out of range"), ("ttest_alpha", None, "blank"),
              ("ttest_min_dt", None, "blank"), ("ttest_variance_t", "0,04", "not a number"),
              ("ttest_your_n", "100", "not a number"), ("ttest_min_delta_t", 0, "out of range"),
              ("ttest_alpha", 0.6, "out of range"), ("ttest_beta", "x", "not a number"),
              ("ttest_min_dt", -1, "out of range"), ("ttest_variance_t", None, "blank"),
              ("ttest_your_n", None, "blank"), ("ttest_min_delta_t", "0,2", "not a number")],
    "ci": [("ci_variance_t", "0,05", "not a number"), ("ci_delta", None, "blank"),
           ("ci_alpha", "=1/0", "not a number"),      # an error value: no error in the Status
           ("ci_alpha", 0.0, "out of range"), ("ci_your_n", 2.5, "out of range"),
           ("ci_alpha", None, "blank"), ("ci_delta", -0.1, "out of range"),
           ("ci_variance_t", None, "blank"), ("ci_your_n", None, "blank")],
    "anova2": [("anova2_alpha", None, "blank"), ("anova2_beta", 0.7, "out of range"),
               ("anova2_min_d", "x", "not a number"), ("anova2_variance", 0, "out of range"),
               ("anova2_m", 1, "out of range"), ("anova2_your_n", "7", "not a number"),
               ("anova2_alpha", 2, "out of range"), ("anova2_beta", None, "blank"),
               ("anova2_min_d", None, "blank"), ("anova2_variance", "a", "not a number"),
               ("anova2_m", None, "blank"), ("anova2_your_n", 1.5, "out of range")],
    "ttest2": [("ttest2_variance", None, "blank"), ("ttest2_alpha", "5%", "not a number"),
               ("ttest2_beta", "=NA()", "not a number"),
               ("ttest2_beta", 0.0, "out of range"), ("ttest2_min_d", -0.1, "out of range"),
               ("ttest2_your_n", None, "blank"), ("ttest2_variance", -1, "out of range"),
               ("ttest2_alpha", None, "blank"), ("ttest2_beta", "b", "not a number"),
               ("ttest2_min_d", None, "blank"), ("ttest2_your_n", 10**10, "out of range")],
    "ci2": [("ci2_delta", "0,1", "not a number"), ("ci2_alpha", 0.9, "out of range"),
            ("ci2_variance", None, "blank"), ("ci2_your_n", 0, "out of range"),
            ("ci2_delta", None, "blank"), ("ci2_alpha", None, "blank"),
            ("ci2_variance", 0, "out of range"), ("ci2_your_n", "x", "not a number")],
    "decide": [("decide_n", "100", "not a number"), ("decide_min_d", None, "blank"),
               ("decide_variance", -0.1, "out of range"), ("decide_alpha", None, "blank"),
               ("decide_beta", 0.9, "out of range"), ("decide_n", 1, "out of range"),
               ("decide_min_d", "x", "not a number"), ("decide_variance", None, "blank"),
               ("decide_alpha", 0.0, "out of range"), ("decide_beta", None, "blank")],
    "budget": [("budget_documents", None, "blank"), ("budget_documents", -5, "out of range"),
               ("budget_documents", "lots", "not a number")],
}

#: The bad inputs of issue 15's "Done when" list: (value, what the check cell says, the input
#: key tried first). Each is typed into every sheet, into the first input (in turn from the
#: key tried first, else from the k-th input for the k-th kind) that rejects it.
DONE_WHEN = [(None, "blank", None), ("0.05 ", "not a number", None),
             (0, "out of range", None), (-5, "out of range", None), (1, "out of range", None),
             (1e-12, "out of range", "alpha"), ("5%", "not a number", None),
             (10**12, "out of range", "m")]

#: The φE of the one-way ANOVA and the φ and λ of the paired t-test, as declared.
ONE_WAY = CALCULATORS["anova"].columns["dfe"]
PAIRED = CALCULATORS["ttest"].columns
PAIRED_CI = (CALCULATORS["ci"].columns["dfe"], CALCULATORS["ci"].formulas["per"])


def _rejects(item, value) -> bool:
    """Whether the sheet rejects ``value`` in the input ``item`` (blank: unless optional)."""
    if value is None:
        return not item.optional
    if isinstance(value, str):
        return True
    try:
        check_input(item.key, value)
    except ValueError:
        return True
    return False


for _calc, _edits in BAD.items():
    for _k, (_value, _says, _first) in enumerate(DONE_WHEN):
        _items = INPUTS[_calc][_k % len(INPUTS[_calc]):] + INPUTS[_calc][:_k % len(INPUTS[_calc])]
        _items = sorted(_items, key=lambda i: i.key != _first)
        _item = next((i for i in _items if _rejects(i, _value)), None)
        if _item is not None:
            _edits.append((_item.name, _value, _says))

#: The sheets that take alpha and beta ("powerless" and "barely_powered" set them to .5 and .5,
#: and .5 and .5 - 1e-6).
POWERED = ("anova", "ttest", "anova2", "ttest2", "decide")

#: Decide sheet inputs of the "decide_edited" workbook (checked against anova_power).
DECIDE_EDITS = {"decide_n": 57, "decide_min_d": 0.15, "decide_variance": 0.0259,
                "decide_alpha": 0.01, "decide_beta": 0.10}

#: A spec with three pool depths (the budget_plan example: cheapest within budget is pd = 10)
#: and requirements whose label would be a formula if written carelessly.
DECIDE_INJECTION = {
    "title": "decide injection",
    "requirements": [{"label": INJECTION_RUNS[0], "variance": 0.0259, "m": 10, "min_d": 0.1},
                     {"label": "+1", "variance": 0.0601, "m": 2, "min_d": 0.2}],
    "decide": {"n": 80, "min_d": 0.15, "m": [2, 3, 30]},
    "pool_depths": [{"pd": 100, "docs_per_topic": 731, "variance": 0.14},
                    {"pd": 30, "docs_per_topic": 253, "variance": 0.1525},
                    {"pd": 10, "docs_per_topic": 100, "variance": 0.19}],
    "budget": {"documents": 150000, "m": 10, "min_d": 0.1, "method": "exact"},
}


def bad_workbooks() -> list[dict]:
    """{input name: value} of each ``bad_k`` workbook."""
    count = max(len(v) for v in BAD.values())
    return [{name: value for edits in BAD.values() if k < len(edits)
             for name, value, _ in [edits[k]]} for k in range(count)]


#: (dfa, dfe, λ) where the probe workbook evaluates the exact noncentral-F mixture directly:
#: small and huge noncentralities (the strided Poisson window), φE up to 10⁷.
MIXTURE_POINTS = [(1, 2, 0.01), (1, 10, 5.0), (4, 45, 30.0), (9, 90, 250.0), (9, 900, 600.0),
                  (29, 3000, 2000.0), (99, 10_000, 5e4), (1, 100_000, 3e5),
                  (999, 1_000_000, 1500.0), (2, 9_999_999, 12.0), (1, 9_999_998, 7.85),
                  (49, 450_000, 70.0)]
MIXTURE_ALPHAS = (0.05, 1e-6, 0.5)

#: Values the input validations are probed with, per registry key (accepted?, value).
VALIDATION_PROBES = {
    "alpha": [(True, 0.05), (True, 1e-6), (True, 0.5), (False, 0.0), (False, 0.5001),
              (False, 9e-7), (False, "0.05")],
    "beta": [(True, 0.2), (True, 0.5), (True, 1e-9), (False, 0.0), (False, 0.6), (False, -0.1)],
    "m": [(True, 2), (True, 1000), (False, 1), (False, 2.5), (False, 1001)],
    "min_d": [(True, 0.02), (True, 100.0), (False, 0.0), (False, -1.0)],
    "variance": [(True, 1e-9), (False, 0.0)],
    "min_dt": [(True, 0.1), (False, 0.0)],
    "variance_t": [(True, 0.04), (False, -0.04)],
    "min_delta_t": [(True, 0.5), (False, 0.0)],
    "delta": [(True, 0.1), (False, 0.0)],
    "n": [(True, 2), (True, 10**9), (False, 1), (False, 2.5), (False, 10**9 + 1), (False, None),
          (False, "100")],
    # a whole number of documents, so that a cost rounded up to one is within it where the
    # cost is (2026-12-07)
    "budget": [(True, 150000), (True, 1), (False, 0.5), (False, 150000.5), (False, 0),
               (False, -1), (False, "1")],
}


class Sources(Mapping):
    """{workbook name: path}, each workbook built on first use (then kept for the session):
    a test that reads one workbook builds only that one (and what it is edited from), and the
    pytest-xdist workers share it (the first that asks builds it; :func:`tests._once.once`)."""

    def __init__(self, recipes: dict[str, Callable[[], Path]], tmp_path_factory):
        self._recipes = recipes
        self._factory = tmp_path_factory
        self._paths: dict[str, Path] = {}

    def __getitem__(self, name: str) -> Path:
        if name not in self._paths:
            made = once(self._factory, f"built/{name}",
                        lambda _folder: {"path": str(self._recipes[name]())})
            self._paths[name] = Path(made["path"])
        return self._paths[name]

    def __iter__(self):
        return iter(self._recipes)

    def __len__(self) -> int:
        return len(self._recipes)


class Batch:
    """Generated workbooks (``source``) and their LibreOffice-recalculated copies."""

    def __init__(self, source: Mapping[str, Path], recalculated: dict[str, Path], console: str):
        self.source = source
        self.recalculated = recalculated
        self.console = console
        self._values = {}

    def values(self, name: str) -> openpyxl.Workbook:
        """The recalculated workbook ``name`` as read by openpyxl (cached values)."""
        if name not in self._values:
            self._values[name] = openpyxl.load_workbook(self.recalculated[name], data_only=True)
        return self._values[name]

    @cached_property
    def grid_names(self) -> list[str]:
        return sorted(n for n in self.source if n.startswith("grid_"))

    @cached_property
    def bad_names(self) -> list[str]:
        return sorted(n for n in self.source if n.startswith("bad_"))


def named(wb: openpyxl.Workbook, name: str):
    """The value of the one-cell workbook-level name ``name``."""
    return _named_cell(wb, name).value


def meaning(wb: openpyxl.Workbook, name: str) -> str:
    """The text beside the named input cell ``name`` (its meaning, and where its starting value
    comes from)."""
    cell = _named_cell(wb, name)
    return cell.parent.cell(cell.row, 5).value


def _named_cell(wb: openpyxl.Workbook, name: str):
    sheet, coord = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][coord.replace("$", "")]


def rounded_up(got, want: float, rtol: float = 1e-7, decimals: int = 6) -> bool:
    """Whether a calculator's minimum detectable effect ``got`` is the engine's ``want`` rounded
    up to ``decimals`` (the sheet's bisection ends within ``rtol`` of the engine's value, on the
    side that has the power): on the step's grid, not below ``want`` by more than ``rtol`` (a
    value rounded to the nearest falls below it by up to half a step), at most one step above.
    Where ``want`` is (next to) 0 (1 − β ≤ α), 0 or the first step."""
    step = 10.0 ** -decimals
    if not isinstance(got, (int, float)):
        return False
    if want < step:
        return got in (0, step)
    on_grid = abs(got / step - round(got / step)) < 1e-6
    return on_grid and want * (1.0 - rtol) <= got <= want * (1.0 + rtol) + step


def _injection_spec(folder: Path):
    path = folder / "injection_scores.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["topic", *INJECTION_RUNS])
        for i, topic in enumerate(INJECTION_TOPICS):
            out.writerow([topic] + [(i * 7 + j * 3) % 10 / 10 for j in range(4)])
    return spec_from_dict({
        "title": INJECTION_TITLE,
        "description": "-description that starts like a formula",
        "m": [2, 10], "min_d": [0.1, 0.2],
        "measures": [{"name": INJECTION_MEASURE, "variance": 0.05, "source": "+source"}],
        "matrices": [{"name": "-matrix", "path": str(path)}],
    }, source=str(folder / "=spec.toml"))


#: Matrix names that Excel's lookups would take as patterns (? and * wildcards, ~ their escape),
#: each after a name it would match, and what the wild_picked workbook picks (a reviewer's find:
#: "A?B, raw" fed AxB's V_E to the calculator).
WILDCARD_NAMES = ("AxB", "A?B", "CzD", "C~*D")
WILDCARD_PICKS = {"anova_measure": "A?B, raw", "ttest_measure": "C~*D, raw"}


def wildcard_matrix(k: int) -> list[list[float]]:
    """The scores of WILDCARD_NAMES[k]: 6 topics x 3 runs, each matrix its own V_E."""
    return [[round((i * (k + 2) + j * 3) % 7 / 10 * (1 + 0.1 * k), 4) for j in range(3)]
            for i in range(6)]


def _wildcard_spec(folder: Path):
    matrices = []
    for k, name in enumerate(WILDCARD_NAMES):
        path = folder / f"wild_{k}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["topic", "r1", "r2", "r3"])
            out.writerows([f"t{i}", *row] for i, row in enumerate(wildcard_matrix(k)))
        matrices.append({"name": name, "path": str(path)})
    return spec_from_dict({"title": "wildcards", "m": [2, 10], "min_d": [0.1, 0.2],
                           "matrices": matrices}, source=str(folder / "wild.toml"))


def _probe_workbook(path: Path) -> Path:
    """Formulas of the generator evaluated directly: the noncentral-F mixture at the points
    of MIXTURE_POINTS (sheet "mixture", one row per point and α, in order) and every input's
    validation formula on VALIDATION_PROBES (sheet "validation": key, expected, value, verdict).
    """
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    k = helper_sheet(wb, POISSON_TERMS)
    ws = wb.create_sheet("mixture")
    row = 1
    for alpha in MIXTURE_ALPHAS:
        for dfa, dfe, lam in MIXTURE_POINTS:
            # one block per point: m = dfa + 1, n with m(n − 1) = dfe, and Δ = λ/n
            assert dfe % (dfa + 1) == 0
            n = dfe // (dfa + 1) + 1
            ws.cell(row, 20, dfa + 1)
            ws.cell(row, 21, lam / n)
            ws.cell(row, 22, alpha)
            m, effect, a = (f"$T${row}", f"$U${row}", f"$V${row}")
            shared, _, exact = anova_models(a, "0.5", m, effect, k, ONE_WAY)
            write_block(ws, row, 1, [Col("n", "n", lambda i, n=n: n), *shared, *exact], 1,
                        header=False)
            row += 1
    ws = wb.create_sheet("validation")
    keys = {i.key for items in INPUTS.values() for i in items}
    assert keys == set(VALIDATION_PROBES)
    row = 1
    for key, probes in VALIDATION_PROBES.items():
        for expected, value in probes:
            ws.cell(row, 1, key)
            ws.cell(row, 2, expected)
            ws.cell(row, 3, value)
            ws.cell(row, 4, "=" + validation_formula(f"C{row}", allowed(key)))
            ws.cell(row, 5, check_formula(f"C{row}", allowed(key)))
            row += 1
    # the t-test model too, at a few points (n, effect, alpha)
    ws = wb.create_sheet("ttest")
    for row, (n, effect, alpha) in enumerate([(2, 3.0, 0.05), (34, 0.5, 0.05), (5000, 0.05, 1e-6),
                                              (2_000_000, 0.002, 0.05)], start=1):
        ws.cell(row, 20, effect)
        ws.cell(row, 21, alpha)
        shared, legacy, exact = ttest_models(f"$U${row}", "0.5", f"$T${row}", k, PAIRED)
        write_block(ws, row, 1, [Col("n", "n", lambda i, n=n: n), *shared, *legacy, *exact], 1,
                    header=False)
    wb.save(path)
    return path


def _edited(source: Sources, base: str, path: Path, edits: dict, text: bool = False) -> Path:
    """Workbook ``base`` with the named input cells set to ``edits`` (as typed or pasted)."""
    return edited_copy(source[base], path, edits, text=text)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Batch:
    """Every workbook of the batch, each generated on first use (no LibreOffice needed)."""
    src = shared_folder(tmp_path_factory, "workbooks")      # one copy for every worker
    recipes: dict[str, Callable[[], Path]] = {}

    def spec_book(name: str, spec) -> None:
        recipes[name] = lambda: write_workbook(spec(), src / f"{name}.xlsx", generated=DATE)

    for k, calculators in enumerate(grid_workbooks()):
        spec_book(f"grid_{k:02d}", lambda k=k, c=calculators: spec_from_dict(
            {"title": f"grid {k}", "calculators": c}))
    spec_book("ntcir", lambda: load_spec(bundled_spec()))
    spec_book("example", lambda: load_spec(bundled_spec("trec2010_web_example")))
    spec_book("inject", lambda: _injection_spec(src))
    spec_book("decide", lambda: load_spec(bundled_spec("decide_example")))
    spec_book("decide_inject", lambda: spec_from_dict(DECIDE_INJECTION))
    source = Sources(recipes, tmp_path_factory)
    recipes["ntcir_edited"] = lambda: _edited(source, "ntcir", src / "ntcir_edited.xlsx", EDITS)
    recipes["scale_slips"] = lambda: _edited(source, "ntcir", src / "scale_slips.xlsx",
                                             SCALE_SLIPS)
    for name, pick in (("example_picked", "TREC 2010 Web AP, std-AB"),
                       ("example_badpick", "=1+1")):
        recipes[name] = lambda name=name, pick=pick: _edited(
            source, "example", src / f"{name}.xlsx",
            {f"{calc}_measure": pick for calc in ("anova", "ttest", "ci")}, text=True)
    spec_book("wild", lambda: _wildcard_spec(src))
    recipes["wild_picked"] = lambda: _edited(source, "wild", src / "wild_picked.xlsx",
                                             WILDCARD_PICKS, text=True)
    recipes["decide_edited"] = lambda: _edited(source, "decide", src / "decide_edited.xlsx",
                                               DECIDE_EDITS)
    recipes["tiny_beta"] = lambda: _edited(source, "decide", src / "tiny_beta.xlsx",
                                           {**{f"{k}_beta": 1e-9 for k in POWERED},
                                            "anova_variance": SCALE_SLIPS["anova_variance"]})
    for name, beta in (("powerless", 0.5), ("barely_powered", 0.5 - 1e-6)):
        recipes[name] = lambda name=name, beta=beta: _edited(
            source, "decide", src / f"{name}.xlsx", {f"{k}_{e}": v for k in POWERED
                                                      for e, v in (("alpha", 0.5), ("beta", beta))})
    for k, edits in enumerate(bad_workbooks()):
        recipes[f"bad_{k:02d}"] = lambda k=k, edits=edits: _edited(
            source, "decide", src / f"bad_{k:02d}.xlsx", edits)
    recipes["probe"] = lambda: _probe_workbook(src / "probe.xlsx")
    return Batch(source, {}, "")


@pytest.fixture(scope="session")
def batch(built, tmp_path_factory) -> Batch:
    """The same workbooks, recalculated by LibreOffice (skipped without it, not in CI); a
    workbook it could not recalculate fails the tests that read it, with the cause."""
    if not built.recalculated:
        def recalculate(folder: Path) -> dict:
            done, console = recalculate_batch(list(built.source.values()), folder / "out",
                                              strict=False)
            by_name = {path.resolve(): name for name, path in built.source.items()}
            return {"done": {by_name[p]: str(out) for p, out in done.items()},
                    "failures": {by_name[p]: why for p, why in done.failures.items()},
                    "console": console}

        # once per run: the other pytest-xdist workers read the first one's copies (the
        # workbooks are built alike in every worker: the same specs, the same fixed date)
        shared = once(tmp_path_factory, "recalculated", recalculate)
        built.recalculated = Recalculated({k: Path(v) for k, v in shared["done"].items()},
                                          shared["failures"])
        built.console = shared["console"]
    return built
