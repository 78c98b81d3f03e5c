"""`topicsetsize n ttest2` and `topicsetsize n ci2`: output equals the engine, one-line errors."""

from __future__ import annotations

import io

import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.cli import main

from .conftest import one_line_error, run_cli


def test_n_ttest2(capsys):
    # Cohen's d = .5: 64 per group (statsmodels' TTestIndPower gives 63.77)
    code, out, _ = run_cli(capsys, "n", "ttest2", "--min-d", "0.5", "--variance", "1", "--csv")
    row = pd.read_csv(io.StringIO(out)).iloc[0]
    assert code == 0 and row["n per system"] == 64 and row["topics in all"] == 128
    assert row["power(n-1)"] < 0.8 <= row["power(n)"]
    code, out, _ = run_cli(capsys, "n", "ttest2", "--min-d", "0.5", "--variance", "1")
    assert code == 0 and "Two-sample (unpaired) t-test" in out


def test_n_ci2(capsys):
    code, out, _ = run_cli(capsys, "n", "ci2", "--delta", "0.1", "--variance", "0.05", "--csv")
    row = pd.read_csv(io.StringIO(out)).iloc[0]
    assert code == 0 and row["n per system"] == tss.ci2_n(0.05, 0.1, 0.05) == 155
    assert row["width(n)"] <= 0.1 < row["width(n-1)"]


@pytest.mark.parametrize("argv, name", [
    (["n", "ttest2", "--min-d", "0.1", "--variance", "-1"], "--variance -1"),
    (["n", "ttest2", "--min-d", "0", "--variance", "1"], "--min-d 0"),
    (["n", "ttest2", "--min-d", "0.1", "--variance", "1", "--beta", "1"], "--beta 1"),
    (["n", "ci2", "--delta", "0", "--variance", "1"], "--delta 0"),
    (["n", "ci2", "--delta", "0.1", "--variance", "1", "--alpha", "0"], "--alpha 0"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, name):
    assert name in one_line_error(capsys, *argv)


def test_non_number_is_argparse_one_line(capsys):
    with pytest.raises(SystemExit) as info:
        main(["n", "ci2", "--delta", "wide", "--variance", "1"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1 and "delta='wide'" in err
