"""The scale note: a difference and a variance that look as if given on different scales of
scores (topicsetsize.designs.scales)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import topicsetsize as tss
from topicsetsize.designs.registry import DESIGNS
from topicsetsize.designs.scales import SCORES_MAX, scale_note

from ...conftest import DATA


def _notes(call) -> list[str]:
    """The ScaleWarning messages of one call (every warning recorded)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if issubclass(w.category, tss.ScaleWarning)]


# --- the bounds hold for any scores in [0, 1] (an independent computation with numpy) ----------

def _bounded_matrix(n_max=12, m_max=6):
    """Topic-by-run matrices of scores in [0, 1], with many at 0 and 1 (where the variances are
    largest)."""
    shapes = st.tuples(st.integers(2, n_max), st.integers(2, m_max))
    scores = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0))
    return shapes.flatmap(lambda s: arrays(float, s, elements=scores))


@settings(max_examples=300, deadline=None)
@given(_bounded_matrix())
def test_no_matrix_of_scores_in_0_1_exceeds_the_declared_bounds(x):
    n, m = x.shape
    v_e = ((x - x.mean(axis=0)) ** 2).sum() / (m * (n - 1))                 # one-way, Eq. 1
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    v_e2 = (resid ** 2).sum() / ((m - 1) * (n - 1))                          # two-way
    var_t = max(np.var(x[:, i] - x[:, j], ddof=1) for i in range(m) for j in range(i + 1, m))
    means = x.mean(axis=0)
    assert v_e <= SCORES_MAX["variance"] and v_e2 <= SCORES_MAX["variance"]
    assert var_t <= SCORES_MAX["variance_t"]
    assert means.max() - means.min() <= SCORES_MAX["min_d"]
    assert np.ptp(x[:, 0] - x[:, 1]) <= SCORES_MAX["delta"]


def test_the_bounds_are_reached():
    # 0 and 1 alternating over n = 2 topics: V_E = 1/2, sigma_t^2 = 2 (the one-way and paired
    # bounds, n/(4(n - 1)) and n/(n - 1)); V_E2 = 1 with m = 2 (mn/(4(m - 1)(n - 1)))
    x = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert tss.residual_variance(x) == 0.5
    assert np.var(x[:, 0] - x[:, 1], ddof=1) == SCORES_MAX["variance_t"]
    assert tss.two_way_residual_variance(x) == SCORES_MAX["variance"]


# --- no note where the scales agree -----------------------------------------------------------

def test_no_note_on_the_airs_2016_tables():
    # AIRS 2016 Table 2 (parts I-II; tests/data, provenance in its PROVENANCE.md) and the variances
    # of its Table 1, with the minD of the benchmark tables (.01 to .20) and sigma_t^2 = 2 V_E
    # (every raw variance but the M-measure's, below)
    table2 = pd.read_csv(DATA / "anova_table2_parts_I_II.csv")
    table1 = pd.read_csv(DATA / "airs2016_table1_variances.csv")
    bounded = table1.measure != "M-measure"
    variances = np.concatenate([table1.var_raw[bounded], table1.var_std_ab,
                                table2.variance])[:, None]
    min_ds = np.arange(1, 21)[None, :] / 100
    for d_name, v_name, factor in (("min_d", "variance", 1), ("min_dt", "variance_t", 2),
                                   ("delta", "variance_t", 2)):
        assert scale_note({d_name: min_ds, v_name: factor * variances}) is None
    assert _notes(lambda: tss.anova_n(table2.alpha, table2.beta, table2.min_d,
                                      table2.variance, table2.m)) == []


def test_the_m_measure_raw_variance_is_noted():
    # MobileClick-2's M-measure is not bounded by 1: its raw V_E is 44.3783 (English) and
    # 93.5109 (Japanese) (AIRS 2016 Table 1), and the paper sized n on its std-AB variances
    # only (Table 2 uses them "std"); a minD of .01 to .20 on the raw scale is 0.001 to 0.03 of
    # its standard deviation
    table1 = pd.read_csv(DATA / "airs2016_table1_variances.csv")
    rows = table1[table1.measure == "M-measure"]
    assert len(rows) == 2 and (rows.used_in_table2 == "std").all()
    for raw, std_ab in zip(rows.var_raw, rows.var_std_ab):
        note = scale_note({"min_d": np.arange(1, 21) / 100, "variance": raw})
        assert note.startswith(f"variance={raw:g} is beyond")
        assert note.endswith("(and 19 more cells)")
        assert scale_note({"min_d": np.arange(1, 21) / 100, "variance": std_ab}) is None


def test_no_note_on_other_scales_used_consistently():
    # unnormalised DCG (sigma = 3) with a difference of one; percent with ten points
    assert scale_note({"min_d": 1.0, "variance": 9.0}) is None
    assert scale_note({"min_d": 10.0, "variance": 600.0}) is None
    # a large effect within [0, 1] and a tiny one: the bounds are not crossed
    assert scale_note({"min_dt": 0.9, "variance_t": 0.01}) is None
    assert scale_note({"min_d": 0.001, "variance": 0.2}) is None


# --- the note where they do not, from every design ------------------------------------------

def _slipped_calls():
    """(design key, call) for every design with a difference and a variance, twice: the
    variance of scores in percent (x 10^4) with a [0, 1] difference, and a difference in
    percentage points (x 100) with a [0, 1] variance; built from the registry."""
    for key, design in DESIGNS.items():
        names = [x for x in design.inputs if x in SCORES_MAX]
        if len(names) != 2:
            continue
        d_name, v_name = names
        for d, v in ((0.1, 0.05 * 1e4), (10.0, 0.05)):
            values = {"alpha": 0.05, "beta": 0.2, "m": 5, d_name: d, v_name: v}
            args = [values[x] for x in design.inputs]
            kwargs = {"trials": 200, "seed": 1} if design.kind == "simulated" else {}
            function = design.function("n")
            yield key, d_name, d, lambda f=function, a=args, k=kwargs: f(*a, **k)


@pytest.mark.parametrize("key, d_name, d, call", list(_slipped_calls()),
                         ids=lambda x: x if isinstance(x, str) else None)
def test_every_design_notes_a_slipped_scale(key, d_name, d, call):
    notes = _notes(call)
    assert len(notes) == 1, notes
    assert notes[0].startswith("variance" if d < 1 else f"{d_name}={d:g} is beyond")
    assert "give " + d_name in notes[0]


def test_the_note_changes_no_answer_and_names_the_first_cell():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tss.ScaleWarning)
        quiet = tss.anova_table(0.05, beta=0.2, variance=188.0, ms=[2, 5], min_ds=[0.05, 0.1, 20])
    notes = _notes(lambda: tss.anova_table(0.05, beta=0.2, variance=188.0, ms=[2, 5],
                                           min_ds=[0.05, 0.1, 20]))
    assert len(notes) == 1 and "min_d=0.05 " in notes[0] and notes[0].endswith("(and 3 more cells)")
    # the same n as the scalar calls, which note alike
    for m in (2, 5):
        for d in (0.05, 0.1, 20):
            assert len(_notes(lambda m=m, d=d: tss.anova_n(0.05, 0.2, d, 188.0, m))) == (d < 1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", tss.ScaleWarning)
                assert quiet.loc[m, d] == tss.anova_n(0.05, 0.2, d, 188.0, m)


def test_the_note_says_what_the_difference_is_in_standard_deviations():
    note = scale_note({"min_d": 0.1, "variance": 400.0})          # sigma = 20
    assert "only 0.005 times sqrt(variance) = 20" in note and "(in percent, 10 for 0.1)" in note
    note = scale_note({"min_dt": 5.0, "variance_t": 0.0625})      # sigma_t = .25
    assert "min_dt is 20 times sqrt(variance_t) = 0.25" in note
    assert "(0.05 for 5 percentage points)" in note


def test_a_suggestion_is_made_only_where_it_would_clear_the_note():
    # minD = .001 in percent is .1, still below a tenth of sqrt(188.2) = 13.7: no "0.1 for"
    note = scale_note({"min_d": 0.001, "variance": 188.2})
    assert note.endswith("give min_d in the scores' unit")
    assert scale_note({"min_d": 0.1, "variance": 188.2}).endswith("(in percent, 10 for 0.1)")
    note = scale_note({"min_d": 500.0, "variance": 0.05})         # 5 is still beyond 1
    assert note.endswith("give min_d in the scores' unit")


def test_cells_are_counted_each_way():
    # a 2 x 2 table: (0.1, 10) the difference beyond, (300, 0.05) the variance beyond
    note = scale_note({"variance_t": np.array([[0.1], [300.0]]),
                       "min_dt": np.array([[0.05, 10.0]])})
    assert note.startswith("min_dt=10 is beyond")
    assert note.endswith("(0.1 for 10 percentage points) (and 1 more cell the other way round)")
    note = scale_note({"variance": 188.0, "min_d": np.array([0.05, 0.1, 0.2]),
                       "m": np.array([[2], [5]])})
    assert note.endswith("(in percent, 5 for 0.05) (and 5 more cells)")


def test_an_effect_beyond_floats_is_refused_without_a_note():
    # the t designs refuse min_d/sigma = 0 (too far apart in scale): one line, no note before it
    assert scale_note({"min_d": 1e-300, "variance": 1e300}) is None
    with pytest.raises(tss.InputError), warnings.catch_warnings():
        warnings.simplefilter("error", tss.ScaleWarning)
        tss.ttest2_n(0.05, 0.2, [0.1, 1e-300], [188.2, 1e300])


@pytest.mark.parametrize("call", [
    lambda: tss.allpairs_power(50, m=5, min_d=0.001, variance=188.2, alpha=2),
    lambda: tss.allpairs_n(0.05, 0.2, 0.1, 188.2, 5, trials=0),
    lambda: tss.allpairs_n(0.05, 0.2, 0.1, 188.2, 5, method="x"),
])
def test_no_note_before_a_refusal(call):
    with pytest.raises(tss.InputError), warnings.catch_warnings():
        warnings.simplefilter("error", tss.ScaleWarning)
        call()


# --- what the package computes is not noted; what the user gave is, once --------------------

def test_values_the_package_computes_are_not_noted():
    # guarantees computes minD at small n (1.04 at n = 3, variance .05): not the user's
    assert _notes(lambda: tss.guarantees([3, 50], variance=0.05)) == []
    assert _notes(lambda: tss.guarantees(4, variance=0.25)) == []
    # the report's minD candidates are read off the scores: none in percent either
    from topicsetsize.examples import example_matrix

    percent = example_matrix() * 100
    assert _notes(lambda: tss.realistic_min_d(percent, trials=200)) == []
    # ... but a minD the user gives is, once
    notes = _notes(lambda: tss.realistic_min_d(percent, trials=200, candidates=[0.1]))
    assert len(notes) == 1 and "min_d=0.1 is only" in notes[0]


@pytest.mark.parametrize("call", [
    lambda: tss.recommend([{"variance": 188.2, "m": 10, "min_d": 0.1},
                           {"variance": 190.0, "m": 2, "min_d": 0.2}]),
    lambda: tss.budget_plan([10, 5], docs_per_topic=[100, 60], variances=[188.0, 190.0],
                            min_d=0.1, m=10, variances_high=[200.0, 210.0]),
])
def test_a_decision_over_many_calls_notes_once(call):
    notes = _notes(call)
    assert len(notes) == 1 and notes[0].startswith("variance=188"), notes


def test_a_stress_test_of_the_numerics_is_not_a_slip_of_units():
    # minD = 1e300 (the designs' silent-extremes tests) is not percent of anything: no note;
    # 10^4 (basis points) is the largest factor taken for a slip (UNITS_MAX)
    assert scale_note({"min_d": 1e300, "variance": 0.05}) is None
    assert scale_note({"min_d": 1e-5, "variance": 1e12}) is None
    assert scale_note({"min_d": 1e4, "variance": 0.05}) is not None
    assert scale_note({"min_d": 1e4 * 1.01, "variance": 0.05}) is None
    assert scale_note({"min_d": 0.01, "variance": 1e8}) is not None
    assert scale_note({"min_d": 0.01, "variance": 1.01e8}) is None
