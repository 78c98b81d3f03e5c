"""A checked run as columns: its frame is read_run's, its dict is ir_measures' run format."""

from __future__ import annotations

import numpy as np
import pandas as pd

from topicsetsize.matrices.evaluation import run_dict
from topicsetsize.matrices.runcolumns import RunColumns, by_topic, topic_blocks
from topicsetsize.matrices.runfiles import parse_run, read_run


def test_the_frame_and_the_dict_are_those_of_the_file(data_dir):
    path = data_dir / "pool_runs" / "A" / "runs" / "Arun1"
    run = parse_run(path)
    pd.testing.assert_frame_equal(run.frame(), read_run(path))
    frame = read_run(path)
    topics = sorted(set(frame["query_id"]))[::2]
    assert run.as_dict(topics) == run_dict(frame, topics)
    assert list(run.as_dict(topics)) == list(run_dict(frame, topics))       # the same order
    again = RunColumns.from_frame(frame)
    assert again.topics == run.topics and again.as_dict() == run.as_dict()


def test_topics_listed_in_pieces_are_grouped_in_order():
    topic = np.array([1, 0, 1, 2, 0])
    order, starts, codes = topic_blocks(topic)
    assert order.tolist() == [1, 4, 0, 2, 3] and starts.tolist() == [0, 2, 4]
    assert codes.tolist() == [0, 1, 2]
    got = by_topic(["b", "a", "c"], np.array([0, 1, 0, 2, 1]), ["x", "y", "z", "w", "v"],
                   np.arange(5), wanted={"b", "a"})
    assert got == {"b": {"x": 0, "z": 2}, "a": {"y": 1, "v": 4}}
    assert list(got) == ["b", "a"]
