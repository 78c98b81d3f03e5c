"""The Excel functions of the two-way and unpaired designs, with Excel-shaped arguments (floats
for counts, None for blanks): each equals the engine and an independent number."""

from __future__ import annotations

import pytest
from topicsetsize.xladdin import _register, udfs

import topicsetsize as tss
from topicsetsize.errors import InputError


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setattr(_register, "ERRORS", "raise")


def test_anova2_functions_equal_the_engine():
    # m = 2 is the exact paired t-test with var_t = 2 var (CIKM 2014: minΔt = .5 -> 34 topics)
    assert udfs.TSS_ANOVA2(0.05, 0.2, 0.5, 0.5, 2.0) == 34
    n = udfs.TSS_ANOVA2(0.05, 0.2, 0.1, 0.0045, 10.0)
    assert type(n) is int and n == tss.anova2_n(0.05, 0.2, 0.1, 0.0045, 10)
    p = udfs.TSS_POWER_ANOVA2(float(n), 10.0, 0.1, 0.0045, 0.05)
    assert type(p) is float and p >= 0.8
    assert p == tss.anova2_power(n, m=10, min_d=0.1, variance=0.0045, alpha=0.05)
    d = udfs.TSS_MIND_ANOVA2(48.0, 10.0, 0.0045, 0.05, 0.2)
    assert d == tss.anova2_min_d(48, m=10, variance=0.0045, alpha=0.05, beta=0.2)


def test_unpaired_functions_equal_the_engine():
    # Cohen's d = .5 -> 64 per group, power .801 at 64 (statsmodels TTestIndPower: 63.77)
    assert udfs.TSS_TTEST2(0.05, 0.2, 0.5, 1.0) == 64
    assert round(udfs.TSS_POWER_TTEST2(64.0, 0.5, 1.0, 0.05), 3) == 0.801
    assert udfs.TSS_CI2(0.05, 0.1, 0.05) == 155 == tss.ci2_n(0.05, 0.1, 0.05)
    assert udfs.TSS_CI2_WIDTH(155.0, 0.05, 0.05) <= 0.1 < udfs.TSS_CI2_WIDTH(154.0, 0.05, 0.05)


@pytest.mark.parametrize("call, message", [
    (lambda: udfs.TSS_ANOVA2(0.05, 0.2, 0.1, None, 10.0), "var is blank"),
    (lambda: udfs.TSS_ANOVA2(0.05, 0.2, 0.1, 0.01, 2.5), "m=2.5 is not a whole number"),
    (lambda: udfs.TSS_POWER_ANOVA2(1.0, 3.0, 0.1, 0.01, 0.05), "n=1 is out of range"),
    (lambda: udfs.TSS_MIND_ANOVA2(10.0, 3.0, 0.01, 0.05, 1.0), "beta=1 is out of range"),
    (lambda: udfs.TSS_TTEST2(0.05, 0.2, -0.1, 0.01), "minD=-0.1 is out of range"),
    (lambda: udfs.TSS_CI2(0.05, 0.0, 0.01), "delta=0 is out of range"),
    (lambda: udfs.TSS_CI2_WIDTH(10.0, 0.01, 1.0), "alpha=1 is out of range"),
])
def test_bad_arguments_raise_the_engine_message(call, message):
    with pytest.raises(InputError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_classic_add_in_shows_the_message_as_text(monkeypatch):
    monkeypatch.setattr(_register, "ERRORS", "text")
    assert udfs.TSS_TTEST2(2.0, 0.2, 0.1, 0.01).startswith("#VALUE! alpha=2 is out of range")
