"""parse_measure: a measure's parameters checked before any evaluation, one line each."""

from __future__ import annotations

import pytest

from topicsetsize.errors import InputError
from topicsetsize.matrices.measures import first_line, parse_measure


@pytest.mark.parametrize("measure, match", [
    ("nDCG@0", r"measure='nDCG@0': the cutoff @0 must be a whole number at least 1"),
    ("P@0", r"measure='P@0': the cutoff @0"),
    ("AP@0", r"measure='AP@0': the cutoff @0"),
    ("Judged@0", r"measure='Judged@0': the cutoff @0"),
    ("nDCG@1.5", r"measure='nDCG@1.5': the cutoff @1.5 must be a whole number"),
    ("AP(rel=1.5)", r"measure='AP\(rel=1.5\)': the relevance level rel=1.5"),
    ("Bogus", r"measure='Bogus' is not an ir_measures measure \(e\.g\. [^;]*\)$"),
    ("AP,nDCG@10", r"measure='AP,nDCG@10' is not an ir_measures measure .*; several are given "
                   r"one by one \(\['AP', 'nDCG@10'\], or --measure AP nDCG@10\)"),
])
def test_bad_measures_fail_before_evaluation(measure, match):
    with pytest.raises(InputError, match=match) as info:
        parse_measure(measure)
    assert "\n" not in str(info.value)


def test_a_library_error_is_its_first_line_and_a_missing_parameter_is_named():
    assert first_line(RuntimeError("boom\nsecond line")) == "boom"
    assert first_line(KeyError()) == "KeyError"
    text = first_line(ValueError("invalid param cutoff=<object object at 0x7f00aa>"))
    assert text.startswith("the parameter cutoff is required (e.g. P@10")


def test_trec_eval_names_and_cutoffs_parse_to_ir_measures_measures():
    import ir_measures

    assert parse_measure("map") == ir_measures.AP and parse_measure("P@10") == ir_measures.P @ 10
    assert parse_measure(ir_measures.nDCG @ 5) == ir_measures.nDCG @ 5
