"""`topicsetsize power DESIGN --n N ...`: the power at n (a CI design's expected width), as the
API gives it, checked against scipy's noncentral distributions and against the `n` command."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from scipy import stats

import topicsetsize as tss

from .conftest import one_line_error, run_cli


def _csv(capsys, *argv) -> pd.DataFrame:
    code, out, _ = run_cli(capsys, "power", *argv, "--csv")
    assert code == 0, out
    return pd.read_csv(io.StringIO(out), index_col="method")


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_anova_power_at_n(capsys, method):
    """A parity review (2026-12-07): the command line had no power at a chosen n, which the
    API, the Excel functions (TSS_POWER_ANOVA) and the workbook's "at your n" rows give. The
    exact one-way power at n = 50, m = 10 is Pr{F'(9, 490, 50·0.1²/(2·0.0601)) >= F(9, 490;
    .05)}, here by scipy.stats; the legacy one is the API's (Nagata's approximation)."""
    got = _csv(capsys, "anova", "--n", "50", "--min-d", "0.1", "--variance", "0.0601", "--m",
               "10", "--method", method).power[method]
    want = tss.anova_power(50, m=10, min_d=0.1, variance=0.0601, alpha=0.05, method=method)
    if method == "exact":
        lam = 50 * 0.1 ** 2 / (2 * 0.0601)
        assert want == pytest.approx(stats.ncf.sf(stats.f.isf(0.05, 9, 490), 9, 490, lam),
                                     abs=1e-9)
    assert want - 1e-6 < got <= want           # cut to 6 decimals, never rounded up


def test_every_design_at_its_own_n_has_the_power_and_one_topic_fewer_has_not(capsys):
    """The `power` command at the `n` command's answer reaches 1 - beta, and at n - 1 falls
    short: the two commands agree on every design with a power (both methods)."""
    cases = {"anova": ["--min-d", "0.1", "--variance", "0.0601", "--m", "10"],
             "ttest": ["--min-dt", "0.1", "--variance-t", "0.1202"],
             "anova2": ["--min-d", "0.1", "--variance", "0.0423", "--m", "10"],
             "ttest2": ["--min-d", "0.1", "--variance", "0.0601"]}
    for design, args in cases.items():
        for method in tss.designs.registry.DESIGNS[design].methods:
            chosen = ["--method", method] if design in ("anova", "ttest") else []
            code, out, _ = run_cli(capsys, "n", design, *args, *chosen, "--csv")
            n = int(pd.read_csv(io.StringIO(out)).iloc[0, 1])
            at_n = _csv(capsys, design, "--n", str(n), *args, *chosen).power.iloc[0]
            below = _csv(capsys, design, "--n", str(n - 1), *args, *chosen).power.iloc[0]
            assert at_n >= 0.8 > below, (design, method, n, at_n, below)


def test_a_ci_design_gives_its_expected_width(capsys):
    for design, args, width in (
            ("ci", ["--variance-t", "0.05"], tss.ci_delta(79, variance_t=0.05, alpha=0.05)),
            ("ci2", ["--variance", "0.0127"], tss.ci2_delta(41, variance=0.0127, alpha=0.05))):
        n = "79" if design == "ci" else "41"
        got = _csv(capsys, design, "--n", n, *args)["expected width"].iloc[0]
        assert got == pytest.approx(width, rel=1e-12) and got <= 0.1   # formulas.md §6: 79


def test_the_paired_power_takes_an_effect_size_and_says_it(capsys):
    code, out, _ = run_cli(capsys, "power", "ttest", "--n", "34", "--min-delta-t", "0.5")
    want = tss.ttest_power(34, min_dt=0.5, variance_t=1.0, alpha=0.05, method="legacy")
    assert code == 0 and "minDeltaT=0.5" in out.splitlines()[0]
    assert float(out.splitlines()[-1].split()[1]) == pytest.approx(want, abs=1e-6)


@pytest.mark.parametrize("argv, line", [
    (["anova", "--n", "2.5", "--min-d", "0.1", "--variance", "0.06", "--m", "10"],
     "--n 2.5 is not a whole number: allowed 2 <= n <= 1000000000 (a whole number)"),
    (["ci", "--n", "79", "--variance-t", "-1"],
     "--variance-t -1 is out of range: allowed variance_t > 0"),
    (["ttest", "--n", "34", "--min-dt", "0.1"],
     "--min-dt needs --variance-t (or give --min-delta-t instead)")])
def test_bad_input_is_one_line(capsys, argv, line):
    assert one_line_error(capsys, "power", *argv) == f"topicsetsize: error: {line}\n"


def test_a_legacy_power_above_the_exact_one_is_warned(capsys):
    """As `n` warns of a legacy n short of the power: at n = 100, m = 10, minD = .1 the legacy
    power (Nagata's approximation) is above the exact one, and stderr says both."""
    args = ["anova", "--n", "100", "--min-d", "0.1", "--m", "10", "--variance", "0.0601"]
    legacy, exact = (tss.anova_power(100, m=10, min_d=0.1, variance=0.0601, alpha=0.05,
                                     method=m) for m in ("legacy", "exact"))
    assert legacy > exact + 1e-3
    code, out, err = run_cli(capsys, "power", *args)
    assert code == 0 and (f"topicsetsize: warning: the legacy power {int(legacy * 1e6) / 1e6:g} "
                          f"is the approximation's own: the exact test has "
                          f"{int(exact * 1e6) / 1e6:g} (--method exact)") in err
    assert "warning" not in run_cli(capsys, "power", *args, "--method", "exact")[2]


def test_a_ci_design_with_delta_says_how_often_its_interval_is_wider(capsys):
    """With --delta, `power ci` says at n what `n ci` says at its answer: the share of the
    intervals wider than delta (tested against Monte Carlo in
    tests/topicsetsize/designs/test_width_spread.py) and the n that keeps 80% within it."""
    from topicsetsize.designs.width_spread import n_within, within_probability

    given = dict(alpha=0.05, delta=0.1, variance=0.05)
    code, out, _ = run_cli(capsys, "power", "ci", "--n", "79", "--variance-t", "0.05",
                           "--delta", "0.1")
    wider = 1 - float(within_probability("ci", 79, **given))
    keep = n_within("ci", 0.8, **given)
    assert code == 0 and (f"note: at n=79, {wider:.0%} of the intervals one collection gives "
                          f"are wider than delta = 0.1; {keep} topics keep 80% of them within "
                          "it") in out
    assert keep == 89 and "at the 79 topics sized" not in out       # formulas.md §6 example
    code, out, _ = run_cli(capsys, "power", "ci", "--n", "79", "--variance-t", "0.05")
    assert "note: at n=79" not in out and "at the 79 topics sized" in out   # the caveat
    # its figures are its example's, which a review read as the user's (2026-12-07): so
    assert "(for example, delta = .1 and variance_t = .05:" in out       # they say, and where
    assert "note: --delta gives that share at n=79 for these inputs" in out    # to get theirs


def test_the_help_of_n_says_per_system_only_in_the_unpaired_designs(capsys):
    """A review (2026-12-07): every design's --n help said "(per system, in the unpaired
    designs)", the paired and ANOVA ones too."""
    from topicsetsize.cli import main
    from topicsetsize.designs.registry import DESIGNS

    for key, design in DESIGNS.items():
        if design.kind == "simulated":
            continue
        with pytest.raises(SystemExit):
            main(["power", key, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        said = ("--n N number of topics per system" if design.per_system
                else "--n N number of topics ")
        assert said in out and "unpaired designs" not in out, key
