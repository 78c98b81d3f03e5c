"""match_topics: one rule for the topics of runs and qrels (issue 24.3)."""

from __future__ import annotations

import pytest

from topicsetsize.errors import InputError
from topicsetsize.matrices.topics import TopicMismatchWarning, match_topics


def test_all_matched_is_said_without_a_warning(recwarn):
    match = match_topics(["401", "402"], ["402", "401"])
    assert match.matched == ("401", "402") and not match.qrels_only and not match.runs_only
    assert match.summary == "topics: 2 of 2 of the qrels matched 2 of 2 of the runs"
    assert not recwarn.list


def test_none_matched_is_refused_with_the_zero_padding_called_out():
    with pytest.raises(InputError) as info:
        match_topics(["0101", "0102"], ["101", "102"], qrels_name="q.txt", runs_name="runs/")
    message = str(info.value)
    assert "\n" not in message and "no topic of q.txt (2: 0101, 0102)" in message
    assert "differ by leading zeros (e.g. '0101' in q.txt, '101' in runs/)" in message


def test_some_unmatched_are_named_in_one_warning():
    with pytest.warns(TopicMismatchWarning) as caught:
        match = match_topics(["401", "402", "0403"], ["401", "402", "403", "404"])
    assert match.qrels_only == ("0403",) and match.runs_only == ("403", "404")
    assert match.padded == (("0403", "403"),)
    text = str(caught[0].message)
    assert "\n" not in text and "2 of 3 in qrels matched 2 of 4 in runs" in text
    assert "only in qrels (no run retrieved anything for them: left out): 1: 0403" in text
    assert "only in runs: 2: 403, 404" in text
