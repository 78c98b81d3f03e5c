"""The kinds of design (designs/kinds.py): the numbers every design gave before the shared layer,
its ``method=`` everywhere, the filled minimum effect of the unpaired t-test, and a design of an
existing kind (the one-sample t-test) added at run time and found through ``tss.`` and the
command line."""

from __future__ import annotations

import csv
import inspect
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import optimize, stats

import topicsetsize as tss
from topicsetsize import InputError
from topicsetsize.designs import registry
from topicsetsize.designs.registry import DESIGNS

from ... import _toy_design as toy

DATA = Path(__file__).resolve().parents[2] / "data"
KINDS = [k for k, d in DESIGNS.items() if d.kind in ("F", "t", "width")]


def _before():
    """tests/data/designs_before_kinds.csv: computed at b37cc01 (see PROVENANCE.md)."""
    with open(DATA / "designs_before_kinds.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


ROWS = _before()
CASES = sorted({(r["design"], r["method"]) for r in ROWS})


def _calls(design: str, method: str):
    """n(alpha, beta, effect, variance, m), power(n, ...), min_effect(n, ...) of a design
    through its public functions, the method passed where the design has a choice."""
    kw = {"method": method} if method else {}
    d = DESIGNS[design]
    n_of, power_of = d.function("n"), d.function("power")
    effect, variance = d.effect, d.inputs[-2] if "m" in d.inputs else d.inputs[-1]
    has_m = "m" in d.inputs

    def n(a, b, e, v, m):
        args = {"alpha": a, effect: e, variance: v, **({"beta": b} if "beta" in d.inputs
                                                        else {}), **({"m": m} if has_m else {})}
        return n_of(**args, **kw)

    def power(k, a, e, v, m):
        args = {"alpha": a, variance: v, **({effect: e} if d.criterion == "power" else {}),
                **({"m": m} if has_m else {})}
        return power_of(k, **args, **kw)

    def min_effect(k, a, b, v, m):
        return d.function("min_effect")(k, alpha=a, beta=b, **{variance: v},
                                        **({"m": m} if has_m else {}), **kw)

    return n, power, (min_effect if "min_effect" in d.functions else None)


def _float(text):
    return None if text == "" else float(text)


@pytest.mark.parametrize(("design", "method"), CASES)
def test_every_number_is_the_one_before_the_shared_layer(design, method):
    """n (scalar and vectorised paths), power (or width) and minimum effect over the seeded
    grid equal what b37cc01 computed: n exactly; power (or width) and minimum effect to 1e-10
    relative, 1e-11 absolute for a power. The stored values were computed with scipy 1.17.1;
    the oldest scipy the package allows (1.14.0, CI's oldest-dependency run) has an older Boost
    whose t and F functions differ in the last digits (up to 1.5e-10 relative on a power of
    1.6e-3, 3e-11 absolute on a width): not this layer's, and far below what picking n needs.
    The margin still catches a changed formula (half a degree of freedom moves a power by
    1e-3)."""
    rows = [r for r in ROWS if (r["design"], r["method"]) == (design, method)]
    n, power, min_effect = _calls(design, method)
    a, b, e, v, m, k = (np.array([float(r[x]) for r in rows])
                        for x in ("alpha", "beta", "effect", "variance", "m", "n_at"))
    before_n = np.array([int(r["n"]) for r in rows])
    assert [n(*x) for x in zip(a, b, e, v, m.astype(int))] == before_n.tolist()
    assert n(a, b, e, v, m).tolist() == before_n.tolist()
    before_power = np.array([float(r["power"]) for r in rows])
    np.testing.assert_allclose(power(k, a, e, v, m), before_power, rtol=1e-10, atol=1e-11)
    if min_effect is None or all(r["min_effect"] == "" for r in rows):
        return      # no minimum effect before (ttest2_min_d is new: tested on its own below)
    for r, ki, ai, bi, vi, mi in zip(rows, k, a, b, v, m.astype(int)):
        stored = _float(r["min_effect"])
        if stored is None:        # the legacy approximation at too few topics
            with pytest.raises(InputError, match="too small"):
                min_effect(int(ki), ai, bi, vi, mi)
        else:
            assert min_effect(int(ki), ai, bi, vi, mi) == pytest.approx(stored, rel=1e-10)


def _role_calls(key: str):
    """Each of the design's n, power and min-effect functions with valid arguments."""
    d = DESIGNS[key]
    values = {"alpha": 0.05, "beta": 0.2, "min_d": 0.1, "min_dt": 0.1, "delta": 0.1,
              "variance": 0.05, "variance_t": 0.1, "m": 5}
    given = {x: values[x] for x in d.inputs}
    yield d.function("n"), (), given
    rest = {x: v for x, v in given.items() if x != "beta"
            and (d.criterion == "power" or x != d.effect)}
    yield d.function("power"), (50,), rest
    if "min_effect" in d.functions:
        yield d.function("min_effect"), (50,), {x: v for x, v in given.items() if x != d.effect}


@pytest.mark.parametrize("key", KINDS)
def test_every_function_takes_its_declared_methods_and_refuses_others(key):
    design = DESIGNS[key]
    for function, args, kwargs in _role_calls(key):
        assert "method" in inspect.signature(function).parameters, function.__name__
        answers = [function(*args, **kwargs, method=method) for method in design.methods]
        default = inspect.signature(function).parameters["method"].default
        assert default == design.methods[0] and answers[0] == function(*args, **kwargs)
        allowed = ", ".join(repr(x) for x in design.methods)
        with pytest.raises(InputError, match=f"^method='fast' is not one of {allowed}$"):
            function(*args, **kwargs, method="fast")


def _power_unpaired(d, n, alpha, sd=1.0):
    """Two-sided two-sample t power from scipy's noncentral t (independent of the package)."""
    df = 2.0 * (n - 1.0)
    w = stats.t.isf(alpha / 2.0, df)
    lam = d / sd * math.sqrt(n / 2.0)
    # the lower tail is negligible where scipy's nct.cdf gives NaN (λ far above w)
    return stats.nct.sf(w, df, lam) + np.nan_to_num(stats.nct.cdf(-w, df, lam))


@pytest.mark.parametrize(("n", "variance", "alpha", "beta"),
                         [(64, 1.0, 0.05, 0.2), (10, 0.05, 0.01, 0.1), (500, 0.2, 0.1, 0.5),
                          (3, 2.0, 0.05, 0.2)])
def test_ttest2_min_d_is_the_smallest_difference_with_the_power(n, variance, alpha, beta):
    """A scipy root of the nct power in minD (brute force, not the package's λ solver): the
    package's minD is that root to 1e-9, has the power itself, and 1e-9 less has not."""
    sd = math.sqrt(variance)
    normal = (stats.norm.isf(alpha / 2) + stats.norm.isf(beta)) * sd / math.sqrt(n / 2.0)
    root = optimize.brentq(lambda d: _power_unpaired(d, n, alpha, sd) - (1 - beta), 1e-9,
                           2.0 * normal, xtol=1e-15, rtol=1e-15)
    d = tss.ttest2_min_d(n, variance=variance, alpha=alpha, beta=beta)
    assert d == pytest.approx(root, rel=1e-9)
    assert tss.ttest2_power(n, min_d=d, variance=variance, alpha=alpha) >= 1 - beta
    assert _power_unpaired(d * (1 - 1e-9), n, alpha, sd) < 1 - beta


def test_ttest2_min_d_is_the_value_the_ttest2_sheet_computes_in_formulas():
    """The TTEST2 sheet's "minimum detectable minD at your n" (its own bisection in spreadsheet
    formulas): 0.0976047641912873 at n = 100, σ̂² = .0601, α = .05, β = .20 (the default
    workbook, ``topicsetsize workbook``, at commit 43d3694 of branch engine-kinds, recalculated
    in headless LibreOffice 7.4.7.2 with recalculation on load forced, as tests/generator does,
    defined name ``ttest2_min_d_at_n``; 15 significant digits read back)."""
    d = tss.ttest2_min_d(100, variance=0.0601, alpha=0.05, beta=0.2)
    assert d == pytest.approx(0.0976047641912873, rel=1e-13)


def test_ttest2_min_d_inverts_ttest2_n_and_broadcasts():
    """n from minD and minD from n are inverse: at n = ttest2_n(minD) the minimum detectable
    difference is at most minD, at n − 1 it is more."""
    min_ds = np.array([0.02, 0.1, 0.5])
    n = tss.ttest2_n(0.05, 0.2, min_ds, 0.05)
    at_n = tss.ttest2_min_d(n, variance=0.05, alpha=0.05, beta=0.2)
    below = tss.ttest2_min_d(n - 1, variance=0.05, alpha=0.05, beta=0.2)
    assert at_n.shape == (3,) and (at_n <= min_ds).all() and (below > min_ds).all()
    assert tss.ttest2_min_d(10, variance=1.0, alpha=0.5, beta=0.6) == 0.0   # 1 − β ≤ α


def test_ttest2_table_is_its_n_per_cell():
    table = tss.ttest2_table(0.01, beta=0.1, variance=[0.02, 0.3], min_ds=[0.05, 0.2, 1.0])
    assert table.index.name == "variance" and table.columns.name == "min_d"
    for v in table.index:
        for d in table.columns:
            assert table.loc[v, d] == tss.ttest2_n(0.01, 0.1, d, v)


# -- a design of an existing kind, added at run time: the one-sample t-test (TOY.md) ----------

def _brute_one_sample(alpha, beta, d, sd, upto=5000):
    """The smallest n whose one-sample t power (scipy nct, φ = n − 1, λ = √n·d/σ) reaches
    1 − β, by evaluating every n from 2."""
    n = np.arange(2, upto + 1, dtype=float)
    w = stats.t.isf(alpha / 2.0, n - 1.0)
    lam = np.sqrt(n) * d / sd
    power = stats.nct.sf(w, n - 1.0, lam) + stats.nct.cdf(-w, n - 1.0, lam)
    fail = np.flatnonzero(power < 1 - beta)
    return 2 if not fail.size else int(n[fail[-1]]) + 1


@pytest.fixture
def one_sample(monkeypatch):
    """Register ``ttest1``, the shared toy of ``tests/_toy_design.py`` (its module: the paired
    t-test's pieces under its own names), for one test, and remove it after."""
    monkeypatch.setitem(sys.modules, toy.MODULE, toy.engine_module())
    design = registry.register(toy.declaration())
    yield design
    registry.unregister("ttest1")


def test_a_design_registered_at_run_time_is_in_the_package(one_sample):
    assert {"ttest1_n", "ttest1_power", "ttest1_min_d"} <= set(dir(tss))
    for alpha, beta, d, v in ((0.05, 0.2, 0.5, 1.0), (0.01, 0.1, 0.1, 0.05), (0.1, 0.5, 2, 4)):
        n = tss.ttest1_n(alpha, beta, d, v)
        assert n == _brute_one_sample(alpha, beta, d, math.sqrt(v))
        assert tss.ttest1_n(alpha, beta, [d, d], v).tolist() == [n, n]     # vectorised path
        assert tss.ttest1_power(n, min_d=d, variance=v, alpha=alpha) >= 1 - beta
        assert tss.ttest1_min_d(n, variance=v, alpha=alpha, beta=beta) <= d
        assert tss.ttest1_min_d(n - 1, variance=v, alpha=alpha, beta=beta) > d
    with pytest.raises(InputError, match="method='legacy' is not one of 'exact'"):
        tss.ttest1_n(0.05, 0.2, 0.5, 1.0, method="legacy")
    with pytest.raises(InputError, match="^min_d=-1 is out of range"):
        tss.ttest1_n(0.05, 0.2, -1, 1.0)


def test_a_design_registered_at_run_time_is_on_the_command_line(one_sample, capsys):
    from topicsetsize.cli import main

    assert main(["n", "ttest1", "--min-d", "0.5", "--variance", "1", "--csv"]) in (0, None)
    header, row = capsys.readouterr().out.splitlines()[:2]
    assert header.split(",")[:2] == ["method", "n"]
    assert int(row.split(",")[1]) == _brute_one_sample(0.05, 0.2, 0.5, 1.0) == 34
    assert main(["min-d", "ttest1", "--n", "34", "--variance", "1", "--csv"]) in (0, None)
    assert float(capsys.readouterr().out.splitlines()[1].split(",")[1]) <= 0.5


def test_unregistering_removes_the_design_everywhere(one_sample):
    assert tss.ttest1_n(0.05, 0.2, 0.5, 1.0) == 34          # cached in the package
    registry.unregister("ttest1")
    assert "ttest1_n" not in dir(tss)
    with pytest.raises(AttributeError):
        tss.ttest1_n  # noqa: B018
    registry.register(one_sample)                            # for the fixture's clean-up
