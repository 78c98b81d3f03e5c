"""topicsetsize.matrices.copies: the runs of a matrix that are copies of others, and the one line
that names them.

The real matrices' copies are the quirks their provenance notes list (topicsetsize/data/
PROVENANCE.md: ten identical pairs in TREC 2010 Web AP, sys4 = sys58, sys5 = sys59, ...;
tests/data/PROVENANCE.md: sys67 and sys69 of TREC 2004 Robust AP), checked here against pandas'
own duplicate finder.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from topicsetsize.errors import InputError
from topicsetsize.examples import example_matrix
from topicsetsize.matrices.copies import IdenticalRunsWarning, RunCopies, identical_runs


def test_a_run_identical_to_two_others_is_one_group_of_three():
    x = pd.DataFrame({"a": [.1, .5, .3], "b": [.2, .4, .3], "c": [.1, .5, .3],
                      "d": [.9, .1, .3], "e": [.1, .5, .3], "f": [.2, .4, .3]},
                     index=["t1", "t2", "t3"])
    copies = identical_runs(x)
    # c and e copy a (the first of their group), f copies b; d is alone
    assert copies.copies == (("c", "a"), ("e", "a"), ("f", "b"))
    assert copies.keep.tolist() == [0, 1, 3] and copies.runs == 6 and len(copies) == 3
    assert list(copies.distinct(x).columns) == ["a", "b", "d"]
    np.testing.assert_array_equal(copies.distinct(x.to_numpy()), x[["a", "b", "d"]].to_numpy())


def test_equal_on_some_topics_only_or_by_a_rounding_error_is_not_a_copy():
    x = np.array([[0.1, 0.1, 0.3], [0.5, 0.5 + 1e-15, 0.5], [0.2, 0.2, 0.2]])
    copies = identical_runs(x)
    assert copies.copies == () and len(copies) == 0 and copies.keep.tolist() == [0, 1, 2]


def test_an_array_names_its_runs_by_column_number():
    copies = identical_runs([[0.1, 0.2, 0.2], [0.3, 0.4, 0.4]])
    assert copies.copies == (("column 3", "column 2"),)


@pytest.mark.parametrize("file, expected", [
    ("trec2010web_ap.csv", {("sys59", "sys5"), ("sys86", "sys49"), ("sys58", "sys4")}),
    ("trec2004robust_ap.csv", {("sys69", "sys67")}),
])
def test_the_real_matrices_copies_are_those_pandas_finds(data_dir, file, expected):
    scores = pd.read_csv(data_dir / file, index_col=0)
    copies = identical_runs(scores)
    by_pandas = scores.T.duplicated(keep="first")          # a column equal to an earlier one
    assert [c for c, _ in copies.copies] == list(scores.columns[by_pandas.to_numpy()])
    for copy, original in copies.copies:
        assert scores[copy].equals(scores[original])
        assert list(scores.columns).index(original) < list(scores.columns).index(copy)
    assert expected <= set(copies.copies)
    assert copies.keep.tolist() == np.flatnonzero(~by_pandas.to_numpy()).tolist()


def test_the_warning_is_one_line_naming_each_copy_and_what_is_done():
    copies = identical_runs(example_matrix())
    with pytest.warns(IdenticalRunsWarning) as caught:
        copies.warn("kept")
    (line,) = [str(w.message) for w in caught]
    assert line == ("10 runs are copies of others (identical scores on every topic): sys58 = "
                    "sys4, sys59 = sys5, sys63 = sys24, sys64 = sys25, sys65 = sys26, sys67 = "
                    "sys66, sys75 = sys37, sys83 = sys41, sys84 = sys43, sys86 = sys49; kept")
    assert "\n" not in line


def test_the_warning_counts_the_copies_beyond_ten_and_says_one_in_the_singular():
    x = np.tile(np.array([[0.1, 0.2], [0.3, 0.1]]), (1, 7))      # 14 runs, 2 distinct
    message = identical_runs(x).message("counted once")
    assert message.startswith("12 runs are copies of others (identical scores on every topic): "
                              "column 3 = column 1, column 4 = column 2, ")
    assert message.count(" = ") == 10 and message.endswith(", and 2 more; counted once")
    one = identical_runs([[0.1, 0.1, 0.2], [0.3, 0.3, 0.1]]).message("kept")
    assert one == ("1 run is a copy of another (identical scores on every topic): column 2 = "
                   "column 1; kept")


def test_no_warning_where_every_run_is_distinct():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        copies = identical_runs([[0.1, 0.2], [0.3, 0.4]])
        copies.warn("counted once")
    assert isinstance(copies, RunCopies) and caught == []


def test_one_distinct_run_is_refused_where_two_are_needed():
    copies = identical_runs([[0.1, 0.1, 0.1], [0.3, 0.3, 0.3]])
    with pytest.raises(InputError, match=r"^runs.csv: the runs score alike on every topic, "
                                         r"copies of one another \(1 distinct run\): nothing to "
                                         r"compare$"):
        copies.require_two("nothing to compare", name="runs.csv")
    identical_runs([[0.1, 0.2], [0.3, 0.4]]).require_two("nothing to compare")   # passes
