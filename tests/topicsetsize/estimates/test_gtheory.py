"""Tests of topicsetsize.estimates.gtheory: G-study, D-study, n′ for a target, and the intervals.

Checked against (1) a plain re-implementation of the formulas of the R package gt4ireval
(Urbano, Marrero and Martín, SIGIR 2013; ``gstudy`` and ``dstudy`` of
github.com/julian-urbano/gt4ireval), written here cell by cell with loops and scipy's F
quantiles (F(df, ∞) as F(df, 1e12)), a different code path from the module's vectorised one;
(2) the engine's own two-way residual variance; (3) Monte Carlo: normal crossed designs with
known components, where the estimators must be unbiased within Monte Carlo error and Feldt's
interval must cover the true Eρ² about 95% of the time (it is exact under the model).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.estimates.gtheory import d_study, g_study, gt_n
from topicsetsize.examples import example_matrix


def _gt4ireval(rows, n_prime, alpha_tail, stability):
    """gt4ireval's gstudy + dstudy, re-derived plainly: loops over cells, no numpy."""
    n_q, n_s = len(rows), len(rows[0])
    grand = sum(sum(r) for r in rows) / (n_q * n_s)
    mean_s = [sum(rows[i][j] for i in range(n_q)) / n_q for j in range(n_s)]
    mean_q = [sum(r) / n_s for r in rows]
    ss_s = n_q * sum((v - grand) ** 2 for v in mean_s)
    ss_q = n_s * sum((v - grand) ** 2 for v in mean_q)
    ss_tot = sum((rows[i][j] - grand) ** 2 for i in range(n_q) for j in range(n_s))
    em_s, em_q = ss_s / (n_s - 1), ss_q / (n_q - 1)
    em_e = (ss_tot - ss_s - ss_q) / ((n_s - 1) * (n_q - 1))
    var_s, var_q, var_e = (em_s - em_e) / n_q, (em_q - em_e) / n_s, em_e
    df_s, df_q = n_s - 1, n_q - 1
    df_e = df_s * df_q
    out = {"var_s": var_s, "var_q": var_q, "var_e": var_e,
           "Erho2": var_s / (var_s + var_e / n_prime),
           "Phi": var_s / (var_s + (var_q + var_e) / n_prime),
           "n_Erho2": math.ceil(stability * var_e / (var_s * (1 - stability))),
           "n_Phi": math.ceil(stability * (var_q + var_e) / (var_s * (1 - stability)))}
    for name, p in (("lwr", 1 - alpha_tail), ("upr", alpha_tail)):
        r = (em_s / (em_e * stats.f.ppf(p, df_s, df_e)) - 1) / n_q
        out[f"Erho2.{name}"] = n_prime * r / (1 + n_prime * r)
        f_inf, f_e, f_q = (stats.f.ppf(p, df_s, d) for d in (1e12, df_e, df_q))
        phi = em_s ** 2 - f_inf * em_s * em_e + (f_inf - f_e) * f_e * em_e ** 2
        phi /= (n_s - 1) * f_inf * em_s * em_e + f_q * em_s * em_q
        phi = n_s * phi / (n_s * phi + n_q)
        out[f"Phi.{name}"] = n_prime * phi / (1 + (n_prime - 1) * phi)
    return out


@pytest.fixture(scope="module")
def matrices(data_dir):
    return {"web2010": example_matrix(),
            "robust2004": pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0),
            "clef2017tar": pd.read_csv(data_dir / "clef2017_tar_ap.csv", index_col=0)}


@pytest.mark.parametrize("name", ["web2010", "robust2004", "clef2017tar"])
@pytest.mark.parametrize("n_prime", [None, 10, 100])
def test_matches_gt4ireval_reimplementation(matrices, name, n_prime):
    scores = matrices[name]
    rows = scores.to_numpy().tolist()
    n = len(rows) if n_prime is None else n_prime
    ref = _gt4ireval(rows, n, 0.025, 0.95)
    g = g_study(scores)
    d = d_study(g, n_prime, level=0.95)
    assert g.negative == ()
    assert (g.var_s, g.var_t, g.var_e) == pytest.approx(
        (ref["var_s"], ref["var_q"], ref["var_e"]), rel=1e-9)
    assert (d.erho2, d.phi) == pytest.approx((ref["Erho2"], ref["Phi"]), rel=1e-9)
    assert (d.erho2_low, d.erho2_high) == pytest.approx((ref["Erho2.lwr"], ref["Erho2.upr"]),
                                                        rel=1e-9)
    # F(df, 1e12) stands in for F(df, ∞) in the reference: agreement to 1e-6
    assert (d.phi_low, d.phi_high) == pytest.approx((ref["Phi.lwr"], ref["Phi.upr"]), rel=1e-6)
    assert d.erho2_low < d.erho2 < d.erho2_high and d.phi_low < d.phi < d.phi_high
    assert gt_n(g, 0.95) == ref["n_Erho2"]
    assert gt_n(g, 0.95, coefficient="phi") == ref["n_Phi"]


def test_residual_component_is_the_two_way_variance(matrices):
    for scores in matrices.values():
        assert g_study(scores).var_e == pytest.approx(tss.two_way_residual_variance(scores),
                                                      rel=1e-12)


def test_n_is_smallest_reaching_target(matrices):
    g = g_study(matrices["web2010"])
    for coefficient, field in (("erho2", "erho2"), ("phi", "phi")):
        targets = np.array([0.5, 0.8, 0.9, 0.95, 0.99])
        ns = gt_n(g, targets, coefficient=coefficient)       # vectorised over the target
        for t, n in zip(targets, ns):
            assert n == gt_n(g, t, coefficient=coefficient)  # scalar path, same answer
            assert getattr(d_study(g, int(n)), field) >= t
            if n > 2:
                assert getattr(d_study(g, int(n) - 1), field) < t


def test_vectorised_d_study_equals_scalar_calls(matrices):
    g = g_study(matrices["robust2004"])
    ns = [2, 5, 50, 500]
    table = d_study(g, ns)
    for k, n in enumerate(ns):
        one = d_study(g, n)
        for field in ("erho2", "erho2_low", "erho2_high", "phi", "phi_low", "phi_high"):
            assert getattr(table, field)[k] == pytest.approx(getattr(one, field), rel=1e-12)


def test_negative_system_component_set_to_zero_and_named():
    rng = np.random.default_rng(5)
    # identical systems up to noise: MS_s < MS_e is likely; pick a seed where it happens
    for _ in range(50):
        x = rng.normal(size=(30, 1)) + rng.normal(scale=0.1, size=(30, 4))
        if ((x.mean(0) - x.mean()) ** 2).sum() * 30 / 3 < tss.two_way_residual_variance(x):
            break
    g = g_study(x)
    assert g.negative == ("systems",) and g.var_s == 0.0
    d = d_study(g)
    assert d.erho2 == 0.0 and d.phi == 0.0 and d.erho2_low == 0.0
    assert gt_n(g, 0.9) == math.inf


def test_bad_arguments_one_line():
    g = g_study(example_matrix())
    with pytest.raises(tss.InputError, match=r"^target=1\.5 is out of range"):
        gt_n(g, 1.5)
    with pytest.raises(tss.InputError, match=r"^level=0 is out of range"):
        d_study(g, level=0)
    with pytest.raises(tss.InputError, match=r"^n=0 is out of range: allowed 1 <= n"):
        d_study(g, 0)
    with pytest.raises(tss.InputError, match=r"^n=2\.5 is not a whole number"):
        d_study(g, 2.5)
    with pytest.raises(tss.InputError, match=r"^scores is constant \(every value is 0\.3\)"):
        g_study(np.full((10, 5), 0.3))


def test_one_topic_d_study_is_the_g_study_ratio(matrices):
    # gt_n may answer 1, so d_study takes n′ = 1: σ²_s/(σ²_s + σ²_e), σ²_s/(σ²_s + σ²_t + σ²_e)
    g = g_study(matrices["clef2017tar"])
    d = d_study(g, 1)
    assert d.erho2 == pytest.approx(g.var_s / (g.var_s + g.var_e), rel=1e-12)
    assert d.phi == pytest.approx(g.var_s / (g.var_s + g.var_t + g.var_e), rel=1e-12)
    ref = _gt4ireval(matrices["clef2017tar"].to_numpy().tolist(), 1, 0.025, 0.95)
    assert (d.erho2_low, d.phi_high) == pytest.approx((ref["Erho2.lwr"], ref["Phi.upr"]),
                                                      rel=1e-6)


def test_degenerate_matrices_give_the_limits_not_rounding_noise():
    """Exactly additive scores (no interaction): MS_e is rounding error (~1e-33) and is 0, so
    Eρ² = 1 with the interval [1, 1] and one topic suffices; Φ stays below 1 because of the
    topics. Identical runs: σ²_s = σ²_e = 0, every coefficient 0 and no n. No RuntimeWarning."""
    topics, runs = np.linspace(0.1, 0.5, 10), np.array([0.0, 0.05, 0.1])
    additive = topics[:, None] + runs[None, :]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = g_study(additive)
        d = d_study(g, [1, 10])
        same = g_study(np.repeat(topics[:, None], 4, axis=1))
        d_same = d_study(same)
    assert g.ms_e == 0.0 and g.var_e == 0.0 and g.negative == ()
    assert g.var_s == pytest.approx(np.var(runs, ddof=1), rel=1e-12)        # (MS_s − 0)/n
    assert g.var_t == pytest.approx(np.var(topics, ddof=1), rel=1e-12)
    assert d.erho2.tolist() == d.erho2_low.tolist() == d.erho2_high.tolist() == [1.0, 1.0]
    assert gt_n(g, 0.95) == 1
    phi = g.var_s / (g.var_s + g.var_t / 10)
    assert d.phi[1] == pytest.approx(phi, rel=1e-12) and d.phi_low[1] < phi < d.phi_high[1] < 1
    assert (same.var_s, same.var_e, same.negative) == (0.0, 0.0, ())
    assert (d_same.erho2, d_same.erho2_high, d_same.phi, d_same.phi_high) == (0, 0, 0, 0)
    assert gt_n(same, 0.95) == math.inf
    with pytest.raises(tss.InputError, match="coefficient"):
        gt_n(g, 0.9, coefficient="rho")


@pytest.mark.slow
def test_monte_carlo_unbiased_and_feldt_coverage():
    """Normal crossed design, 20 systems × 25 topics, σ²_s=.002, σ²_t=.02, σ²_e=.01.

    The ANOVA estimators of the components, before truncation at 0, are unbiased; Feldt's
    interval is exact, so its coverage of the true Eρ² at n′ = 25 must be 95% within Monte
    Carlo error (4 standard errors); the Arteaga–Jeyaratnam–Graybill interval for Φ is
    approximate: within 3 points of 95%.
    """
    rng = np.random.default_rng(20130728)
    m, n, vs, vt, ve, trials = 20, 25, 0.002, 0.02, 0.01, 4000
    true_e = vs / (vs + ve / n)
    true_phi = vs / (vs + (vt + ve) / n)
    est = np.empty((trials, 3))
    cover_e = cover_phi = 0
    for k in range(trials):
        x = (rng.normal(scale=vs ** .5, size=(1, m)) + rng.normal(scale=vt ** .5, size=(n, 1))
             + rng.normal(scale=ve ** .5, size=(n, m)))
        g = g_study(x)
        est[k] = (g.ms_s - g.ms_e) / n, (g.ms_t - g.ms_e) / m, g.ms_e   # before truncation
        d = d_study(g)
        cover_e += d.erho2_low <= true_e <= d.erho2_high
        cover_phi += d.phi_low <= true_phi <= d.phi_high
    mean, se = est.mean(0), est.std(0, ddof=1) / np.sqrt(trials)
    assert np.all(np.abs(mean - [vs, vt, ve]) < 4 * se), (mean, se)
    p = cover_e / trials
    assert abs(p - 0.95) < 4 * math.sqrt(0.95 * 0.05 / trials), p
    assert abs(cover_phi / trials - 0.95) < 0.03, cover_phi / trials


@pytest.mark.parametrize("name", ["web2010", "robust2004", "clef2017tar"])
@pytest.mark.parametrize("target", [0.8, 0.95])
def test_n_interval_is_the_brute_force_d_study_at_the_interval_ends(matrices, name, target):
    # The interval of n' maps the coefficient's interval at the matrix's own n; brute force:
    # the smallest n' whose D-study upper (lower) bound reaches the target is its low (high).
    from topicsetsize.estimates.gtheory import gt_n_interval

    g = g_study(matrices[name])
    ns = np.arange(1, 5001)
    d = d_study(g, ns)
    for coefficient in ("erho2", "phi"):
        ci = gt_n_interval(g, target, coefficient=coefficient)
        upper, lower = getattr(d, f"{coefficient}_high"), getattr(d, f"{coefficient}_low")
        assert ci.low == ns[np.argmax(upper >= target)]
        assert ci.high == ns[np.argmax(lower >= target)]
        assert ci.low <= gt_n(g, target, coefficient=coefficient) <= ci.high


def test_n_interval_is_infinite_where_the_coefficient_bound_is_zero():
    from topicsetsize.estimates.gtheory import gt_n_interval

    rng = np.random.default_rng(3)
    g = g_study(rng.normal(size=(20, 5)))      # no system effect: the lower bound of Eρ² is 0
    assert d_study(g).erho2_low == 0
    assert gt_n_interval(g).high == float("inf")
