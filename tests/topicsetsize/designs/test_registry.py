"""The design registry: each declaration is complete, true to its module, and what the command
line, the docs and the Excel functions are built from."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import topicsetsize as tss
from topicsetsize.designs.registry import DESIGNS, ROLES, markdown
from topicsetsize.params import PARAMS

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("key", DESIGNS)
def test_each_declared_function_is_the_exported_one(key):
    design = DESIGNS[key]
    assert set(design.functions) <= set(ROLES) and "n" in design.functions
    for role, name in design.functions.items():
        function = design.function(role)
        assert function.__name__ == name and function.__module__ == design.module
        assert getattr(tss, name) is function       # the public API exports it


@pytest.mark.parametrize("key", DESIGNS)
def test_inputs_are_registered_parameters_in_the_order_of_the_n_function(key):
    design = DESIGNS[key]
    assert all(name in PARAMS for name in design.inputs)
    parameters = list(inspect.signature(design.function("n")).parameters)
    assert parameters[:len(design.inputs)] == list(design.inputs)
    assert design.effect in design.inputs
    assert design.criterion in ("power", "width") and ("beta" in design.inputs) == (
        design.criterion == "power")
    # every input but alpha and beta has its command-line help
    assert set(design.inputs) - {"alpha", "beta"} <= set(design.helps)
    assert (design.table_rows is None) == ("table" not in design.functions)
    assert design.model in ("one-way", "two-way", "paired", "unpaired")
    assert design.per_system == (design.model == "unpaired")


@pytest.mark.parametrize("key", DESIGNS)
def test_excel_functions_exist(key):
    udfs = pytest.importorskip("topicsetsize.xladdin.udfs")
    for name in DESIGNS[key].excel.values():
        assert name in udfs.__all__ and callable(getattr(udfs, name))


def test_docs_table_is_generated_from_the_registry():
    assert (ROOT / "docs" / "designs.md").read_text(encoding="utf-8") == markdown(), \
        "docs/designs.md is stale: python -m topicsetsize.designs.registry > docs/designs.md"


def test_the_command_line_offers_what_each_design_declares():
    from topicsetsize.cli import build_parser

    groups = {}
    for action in build_parser()._subparsers._group_actions[0].choices.items():
        name, parser = action
        if name in ("n", "table", "min-d"):
            groups[name] = set(parser._subparsers._group_actions[0].choices)
    assert groups["n"] == set(DESIGNS)
    assert groups["table"] == {k for k, d in DESIGNS.items() if "table" in d.functions}
    assert groups["min-d"] == {k for k, d in DESIGNS.items() if "min_effect" in d.functions}


@pytest.mark.parametrize("key", [k for k, d in DESIGNS.items()
                                 if "min_effect" in d.functions])
def test_the_minimum_effect_inverts_the_power(key):
    """Independent of the registry's wiring: the declared min_effect at n has the power 1 − β,
    and a 1% smaller effect has less (the smallest effect)."""
    design = DESIGNS[key]
    values = {"alpha": 0.05, "beta": 0.2, "m": 5, "variance": 0.05, "variance_t": 0.1}
    given = {k: values[k] for k in design.inputs if k != design.effect}
    d = design.function("min_effect")(60, **given, **({"method": "exact"}
                                                      if len(design.methods) > 1 else {}))
    power = design.function("power")
    rest = {k: v for k, v in given.items() if k != "beta"}
    extra = {"method": "exact"} if len(design.methods) > 1 else {}
    assert power(60, **rest, **{design.effect: d}, **extra) >= 0.8
    assert power(60, **rest, **{design.effect: 0.99 * d}, **extra) < 0.8


@pytest.mark.parametrize("key", [k for k, d in DESIGNS.items() if k != "allpairs"])
def test_the_generic_command_gives_the_engines_n(key):
    """`topicsetsize n KEY --csv` (built from the declaration) prints the function's n."""
    design = DESIGNS[key]
    values = {"alpha": 0.05, "beta": 0.2, "min_d": 0.1, "min_dt": 0.1, "delta": 0.1,
              "variance": 0.05, "variance_t": 0.1, "m": 5}
    args = [f"--{k.replace('_', '-')}={values[k]}" for k in design.inputs]
    out = subprocess.run([sys.executable, "-m", "topicsetsize", "n", key, *args, "--csv"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    header, row = out.stdout.splitlines()[:2]
    n = int(row.split(",")[1])
    assert n == design.function("n")(**{k: values[k] for k in design.inputs})


def test_a_declaration_names_its_fields():
    """Registry entries use named fields: a positional declaration is refused."""
    from topicsetsize.designs.registry import Design

    d = DESIGNS["ttest2"]
    with pytest.raises(TypeError):
        Design(d.key, d.name, d.question, d.inputs, d.criterion, d.methods, d.model,
               d.functions, d.degrees_of_freedom, d.noncentrality, d.source)
    assert d.module == "topicsetsize.designs.ttest2" and d.kind == "t"
    assert {DESIGNS[k].kind for k in ("anova", "anova2")} == {"F"}
    assert {DESIGNS[k].kind for k in ("ci", "ci2")} == {"width"}


def test_register_refuses_a_taken_key_and_an_unknown_input():
    from dataclasses import replace

    from topicsetsize.designs.registry import register

    with pytest.raises(ValueError, match="'anova' is already registered"):
        register(DESIGNS["anova"])
    with pytest.raises(ValueError, match=r"inputs \['sigma'\] are not parameters"):
        register(replace(DESIGNS["ttest2"], key="bad", inputs=("alpha", "beta", "min_d",
                                                                "sigma")))
    assert "bad" not in DESIGNS


@pytest.mark.parametrize("key", DESIGNS)
def test_the_package_exports_are_read_from_the_registry(key):
    """No hand-written list: every declared function and extra export of a design is a
    package name resolving to its module."""
    design = DESIGNS[key]
    for name in (*design.functions.values(), *design.exports):
        assert name in tss.__all__ and name in dir(tss)
        assert getattr(tss, name) is getattr(__import__(design.module, fromlist=[name]), name)


def test_the_ci_designs_caveats_state_the_width_truly():
    # The width of one collection's interval exceeds its expectation about half the time; each
    # CI design's caveat states its own figures (the unpaired one quoted the paired example
    # until a reviewer's find, 2026-12-06), recomputed here with scipy's chi-square: paired,
    # 2·t(n − 1; α)·s/√n with s² ~ σt²χ²_φ/φ, φ = n − 1; unpaired, 2·t(φ; α)·s_p·√(2/n) with
    # s_p² ~ σ²χ²_φ/φ, φ = 2(n − 1), n per system.
    import re

    import numpy as np
    from scipy import stats

    import topicsetsize as tss

    def within(k, delta, var, paired):
        df = k - 1 if paired else 2 * (k - 1)
        t = stats.t.isf(0.025, df)
        half = delta / (2 * t) * (np.sqrt(k) if paired else np.sqrt(k / 2))
        return stats.chi2.cdf(df * half ** 2 / var, df)

    for key, paired, size in (("ci", True, tss.ci_n), ("ci2", False, tss.ci2_n)):
        delta, var, n, wider, n80 = re.search(
            r"delta = (\.\d+) and variance(?:_t)? = (\.\d+): at the (\d+) topics (?:per system )?"
            r"sized, (\d+)% of intervals are wider; (\d+) (?:topics|per system) keep 80%",
            DESIGNS[key].caveat).groups()
        delta, var, n, n80 = float(delta), float(var), int(n), int(n80)
        assert size(0.05, delta, var) == n, key
        assert round(100 * (1 - within(n, delta, var, paired))) == int(wider), key
        assert within(n80, delta, var, paired) >= 0.8 > within(n80 - 1, delta, var, paired), key
    assert DESIGNS["ci"].caveat != DESIGNS["ci2"].caveat
