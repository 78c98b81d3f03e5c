"""Regression tests from the statistics review: the number of systems m of the budget and
pool-depth designs.

* ``topicsetsize budget`` and ``topicsetsize pool-depth`` convert ``--m`` with ``int()`` before
  it is validated: a fractional m is silently truncated (10.9 is used as 10), ``inf`` raises an
  OverflowError traceback and ``nan`` gives a one-line message that names no argument.
* :func:`topicsetsize.budget.budget_plan` documents m, min_d, alpha and beta as single numbers,
  but accepts lists and applies them element by element to the depths, so the table mixes
  designs without showing which row used which m or minD.
"""

from __future__ import annotations

import pytest

from topicsetsize.budget import budget_plan
from topicsetsize.cli import main

BUDGET = ["budget", "--depths", "100,30", "--docs-per-topic", "731,253", "--variance",
          "0.14,0.15", "--min-d", "0.1"]
POOL = ["pool-depth", "--runs", "tests/data/pool_runs/A/runs", "--qrels",
        "tests/data/pool_runs/A/qrels.txt", "--depths", "10", "--measure", "AP",
        "--min-d", "0.05"]


@pytest.mark.parametrize("base", [BUDGET, POOL], ids=["budget", "pool-depth"])
@pytest.mark.parametrize("m", ["10.9", "inf", "nan"])
def test_cli_m_is_validated_not_truncated(capsys, base, m):
    assert main([*base, "--m", m]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"m={m}" in err, err


@pytest.mark.parametrize("key, value", [("m", [2, 10]), ("min_d", [0.1, 0.2]),
                                        ("alpha", [0.05, 0.01]), ("beta", [0.2, 0.1])])
def test_budget_plan_scalar_arguments_reject_lists(key, value):
    kwargs = dict(docs_per_topic=[731, 253], variances=[0.14, 0.15], m=10, min_d=0.1)
    kwargs[key] = value
    with pytest.raises(ValueError, match=f"^{key}=.*single number"):
        budget_plan([100, 30], **kwargs)
