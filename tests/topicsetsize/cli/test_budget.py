"""``topicsetsize budget``: the plan table from a TOML file or options; one-line errors."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from tests.topicsetsize.test_budget import PLAN
from topicsetsize.cli import main


def test_plan_file(capsys, tmp_path):
    f = tmp_path / "plan.toml"
    f.write_text(PLAN)
    assert main(["budget", "--plan", str(f)]) == 0
    out = capsys.readouterr().out
    # Sakai, CIKM 2014, 6.3: n = 476 at pd = 30, 253 documents per topic -> 120,428
    assert "476  120,428           yes" in out
    assert "cheapest within the budget: pd=30, n=476 topics, 120,428 documents judged" in out


def test_options_and_csv(capsys):
    assert main(["budget", "--depths", "100,30,10", "--docs-per-topic", "731,253,100",
                 "--variance", "0.14,0.1525,0.19", "--m", "10", "--min-d", "0.1",
                 "--budget", "100000", "--csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    assert table.loc[30, "n"] == 476 and table.loc[30, "cost"] == 120_428
    assert table["within_budget"].tolist() == [False, False, True]


def test_options_override_plan_scalars(capsys, tmp_path):
    f = tmp_path / "plan.toml"
    f.write_text(PLAN)
    assert main(["budget", "--plan", str(f), "--budget", "1000"]) == 0
    assert "no pool depth fits the budget of 1,000 documents" in capsys.readouterr().out


@pytest.mark.parametrize("argv, match", [
    (["--depths", "0,10", "--docs-per-topic", "5,6", "--variance", ".1,.1", "--m", "2",
      "--min-d", ".1"], "depth=0"),
    (["--depths", "10", "--docs-per-topic", "5", "--variance", ".1", "--m", "2", "--min-d",
      ".1", "--budget", "-5"], "budget"),
    (["--depths", "10", "--m", "2", "--min-d", ".1"], "--docs-per-topic, --variance"),
    (["--depths", "10", "--docs-per-topic", "5", "--variance", ".1", "--m", "2"], "--min-d"),
    (["--depths", "10,20", "--docs-per-topic", "5", "--variance", ".1,.1", "--m", "2",
      "--min-d", ".1"], "docs_per_topic has 1 values for 2 depths"),
    (["--plan", "no/such.toml"], "no/such.toml: no such file"),
])
def test_bad_input(capsys, argv, match):
    assert main(["budget", *argv]) == 2
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1


def test_bad_plan_names_file_and_key(capsys, tmp_path):
    f = tmp_path / "plan.toml"
    f.write_text(PLAN.replace("pd = 30", "pd = 0"))
    assert main(["budget", "--plan", str(f)]) == 2
    err = capsys.readouterr().err
    assert "plan.toml: pool_depths[1].pd=0 is out of range" in err and err.count("\n") == 1
