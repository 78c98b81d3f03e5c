"""Work and memory estimated before a long command starts (``cli/workload.py``): refused without
--force beyond the machine's free memory or ten minutes, announced beyond half a minute. The
sizes here trip the checks; the work itself is replaced by a function that fails if called."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

import topicsetsize.checks.reliability as reliability
import topicsetsize.checks.resampling as resampling
import topicsetsize.checks.tukey as tukey
import topicsetsize.designs.allpairs as allpairs
from topicsetsize.cli import workload
from topicsetsize.errors import InputError

from .conftest import one_line_error


def _no_work(*args, **kwargs):
    raise AssertionError("the work started although the estimate should have refused it")


@pytest.fixture
def no_work(monkeypatch):
    for module, name in ((resampling, "resampled_power"), (tukey, "tukey_hsd_randomised"),
                         (reliability, "split_half_curve"), (allpairs, "allpairs_n")):
        monkeypatch.setattr(module, name, _no_work)


@pytest.mark.parametrize("argv", [
    ["check-power", "--example", "--n", "50,100,200,400", "--trials", "1e8"],
    ["reliability", "--example", "--trials", "1e8"],
    ["hsd", "--example", "--trials", "1e8"],
    ["n", "allpairs", "--min-d", "0.1", "--variance", "0.02", "--m", "1000", "--trials", "1e8"],
])
def test_hours_of_trials_are_refused_before_they_start(capsys, no_work, argv):
    # about half an hour to days of trials (48 topics x 88 runs, or 1000 systems, x 1e8)
    err = one_line_error(capsys, *argv)
    assert "100,000,000 trials" in err and "(more than 10 minutes)" in err
    assert err.endswith("give fewer --trials, or --force to run it anyway\n") or \
        err.endswith("give fewer runs or --trials, or --force to run it anyway\n")


def test_hsd_beyond_the_free_memory_is_refused(capsys, no_work, monkeypatch, tmp_path):
    # 600 runs: 179,700 pairs, about 234 MB as a readable table; the machine "has" 100 MB
    monkeypatch.setattr(workload, "available_memory", lambda: 10**8)
    path = tmp_path / "wide.csv"
    pd.DataFrame(np.random.default_rng(0).random((5, 600))).to_csv(path)
    err = one_line_error(capsys, "hsd", str(path), "--trials", "10")
    assert err == ("topicsetsize: error: 600 runs (179,700 pairs) x 10 trials would need about "
                   "234 MB of memory, more than the 100 MB this machine has free: give fewer "
                   "runs or --trials, or --force to run it anyway\n")


def test_force_runs_it_anyway_with_a_warning(capsys):
    workload.check_workload("x", seconds=7200.0, memory=0.0, force=True)
    assert capsys.readouterr().err == "topicsetsize: warning: x: this will take about 2 hours\n"
    with pytest.raises(InputError, match=r"^x would take about 2 hours \(more than 10 minutes\)"):
        workload.check_workload("x", seconds=7200.0)
    workload.check_workload("x", seconds=1.0)        # short: nothing said
    assert capsys.readouterr().err == ""


def test_available_memory_is_what_the_system_reports():
    free = workload.available_memory()
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert free is not None and 0 < free <= physical


# --boot (review item 5): the bootstrap was started at any size (report --boot 1000000 on the
# Robust matrix: over a minute and ~5 GB, no word). The rates are raised here so that a small,
# quick --boot trips the checks; the bootstrap itself fails if called.

@pytest.fixture
def no_bootstrap(monkeypatch):
    import topicsetsize.decide.pooling as pooling
    import topicsetsize.estimates.uncertainty as uncertainty

    monkeypatch.setattr(uncertainty, "bootstrap_variances", _no_work)
    monkeypatch.setattr(pooling, "pool_depth_study", _no_work)


@pytest.mark.parametrize("argv", [
    ["report", "--example", "--boot", "1000"],
    ["variance", "--example", "--boot", "1000"],
    ["pool-depth", "--example", "--m", "10", "--min-d", "0.1", "--boot", "1000"],
])
def test_a_long_bootstrap_is_refused_before_it_starts(capsys, monkeypatch, no_bootstrap, argv):
    monkeypatch.setattr(workload, "BOOT_SECONDS", 1.0)          # 1000 resamples: 17 minutes
    err = one_line_error(capsys, *argv)
    assert "--boot 1,000" in err and "(more than 10 minutes): give fewer --boot, or --force" \
        in err


def test_a_bootstrap_beyond_free_memory_is_refused_and_a_long_one_announced(capsys,
                                                                         monkeypatch):
    from .conftest import run_cli

    monkeypatch.setattr(workload, "available_memory", lambda: 10**6)
    err = one_line_error(capsys, "report", "--example", "--boot", "1000")
    assert "--boot 1,000 on 48 topics x 88 runs would need about" in err
    assert "more than the 1 MB this machine has free: give fewer --boot, or --force" in err
    monkeypatch.setattr(workload, "available_memory", lambda: None)
    monkeypatch.setattr(workload, "BOOT_SECONDS", 0.1)          # 100 resamples: 10 s x 4
    monkeypatch.setattr(workload, "WARN_SECONDS", 5.0)
    code, _, err = run_cli(capsys, "variance", "--example", "--boot", "100")
    assert code == 0
    assert "topicsetsize: warning: --boot 100 on 48 topics x 88 runs: this will take about 10 " \
           "seconds" in err


def test_just_over_the_limit_is_not_said_as_the_limit():
    # 620 s rounds to "10 minutes": it was said "about 10 minutes (more than 10 minutes)"
    with pytest.raises(InputError) as caught:
        workload.check_workload("x", seconds=620.0)
    assert str(caught.value).startswith("x would take a little over 10 minutes: give fewer")
    with pytest.raises(InputError) as caught:
        workload.check_workload("x", seconds=1500.0)
    assert "about 25 minutes (more than 10 minutes)" in str(caught.value)


def test_check_powers_estimate_stops_growing_where_the_draws_do():
    """An input review (2026-12-06): `check-power --example --n 1e9 --trials 50` said "about 7
    minutes" and took 1.3 s. Beyond 2**19 topics a trial draws its counts from their
    multinomial at once, whose cost stops growing with n (measured: 6 us a trial with 48
    topics from n = 10**5 to 10**9); up to it a trial draws n indices, in proportion to n, and
    the estimate follows both, with resampling's own threshold (tests/topicsetsize/cli/
    test_main.py checks that the two agree)."""
    from topicsetsize.cli.reliability import _INDEXED_DRAWS_MAX, _resampled_seconds

    big, bigger = (_resampled_seconds(50, [n], 48, 5) for n in (2 * _INDEXED_DRAWS_MAX, 10**9))
    assert big == bigger < 1.0
    below = _resampled_seconds(50, [_INDEXED_DRAWS_MAX], 48, 5)
    assert below > 100 * big            # n indices a trial: in proportion to n
    assert _resampled_seconds(50, [10], 48, 5) < below / 1000


def test_allpairs_estimate_counts_trials_not_only_cells(capsys, no_work):
    """`n allpairs --m 5 --trials 1e8` said "about 50 s" and ran for minutes (an input review,
    2026-12-06): a trial costs mostly the same whatever m (measured, 10**6 trials: m = 5
    5.3 s, m = 100 6.8 s), and the rate of 1e7 trial x system cells a second said 0.5 s for
    the first. 10**8 trials at m = 5 are now about 8 minutes: warned, not refused."""
    from topicsetsize.cli import main

    with pytest.raises(AssertionError, match="the work started"):     # no_work: not run
        main(["n", "allpairs", "--min-d", "0.1", "--variance", "0.02", "--m", "5", "--trials",
              "1e8", "--seed", "1"])
    err = capsys.readouterr().err
    assert "100,000,000 trials x 5 systems: this will take about 8 minutes" in err
