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
    for design in ("anova", "anova2"):
        # k = all 249 topics: each subset is the whole matrix, whose interval holds its own n
        assert tool.coverage(scores, len(scores), 2, np.random.default_rng(0),
                             design) == (1.0, 0.0, 0.0)
        shares = tool.coverage(scores, 10, 4, np.random.default_rng(0), design)
        assert sum(shares) == 1.0 and all(0 <= s <= 1 for s in shares)


def test_the_note_quotes_the_measured_size_below():
    one_way = ("one-way",)
    assert few_topics_note(50, one_way) == "" and few_topics_note(49, one_way)
    for topics, k in ((5, 10), (10, 10), (29, 20), (30, 30), (49, 48)):
        share = dict(MEASURED_HIGH_MISSES["one-way"])[k]
        assert f"on {k}-topic subsets" in few_topics_note(topics, one_way)
        assert f"collection's n lay above it {share} of the time, not" in few_topics_note(
            topics, one_way)
        # under a table of both (variance, report), the two-way share too; under the two-way
        # design's alone (pool-depth --design anova2), its own
        two = dict(MEASURED_HIGH_MISSES["two-way"])[k]
        assert f"above it {share} of the time (the two-way n: {two}), not" in few_topics_note(
            topics)
        assert f"collection's two-way n lay above it {two} of the time, not" in few_topics_note(
            topics, ("two-way",))


def test_the_two_way_interval_is_said_to_run_low_until_75_topics():
    # measured (tools/interval_coverage.py --design anova2, 20 runs, seed 2026): the whole
    # collection's two-way n lay above the upper end 8.0% of the time from 48 topics, 3.5% from
    # 75 (the one-way n: 5.2% and 1.5%)
    assert few_topics_note(75) == "" and few_topics_note(74, ("one-way",)) == ""
    note = few_topics_note(74)
    assert note.startswith("with 74 past topics the upper end of a two-way interval is likely "
                           "too low: on 48-topic subsets")
    assert "two-way n lay above it 8% of the time, not 2.5%" in note
