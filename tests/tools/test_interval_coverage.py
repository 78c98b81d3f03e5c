"""tools/interval_coverage.py (outside the package): the coverage of the interval of n on real
scores, the source of few_topics_note's figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

from topicsetsize.estimates.interval_coverage import MEASURED_HIGH_MISSES, few_topics_note

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "interval_coverage.py"
_SPEC = importlib.util.spec_from_file_location("interval_coverage", _TOOL)
tool = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tool)


def test_every_topic_holds_its_own_n_and_the_shares_add_up():
    scores = pd.read_csv(tool.MATRIX, index_col=0).iloc[:, :20]
    # k = all 249 topics: each subset is the whole matrix, whose interval holds its own n
    assert tool.coverage(scores, len(scores), 2, np.random.default_rng(0)) == (1.0, 0.0, 0.0)
    shares = tool.coverage(scores, 10, 4, np.random.default_rng(0))
    assert sum(shares) == 1.0 and all(0 <= s <= 1 for s in shares)


def test_the_note_quotes_the_measured_size_below():
    assert few_topics_note(50) == "" and few_topics_note(49)
    for topics, k in ((5, 10), (10, 10), (29, 20), (30, 30), (49, 48)):
        share = dict(MEASURED_HIGH_MISSES)[k]
        assert f"on {k}-topic subsets" in few_topics_note(topics)
        assert f"above it {share} of the time" in few_topics_note(topics)
