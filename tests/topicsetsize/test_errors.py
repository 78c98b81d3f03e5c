"""InputError: the type of a user error, a ValueError so that callers keep working."""

from __future__ import annotations

import pickle

import pytest

import topicsetsize as tss
from topicsetsize.errors import InputError


def test_input_error_is_a_value_error_and_exported():
    assert tss.InputError is InputError and issubclass(InputError, ValueError)
    assert issubclass(tss.SearchLimitError, InputError)
    assert pickle.loads(pickle.dumps(InputError("x"))).args == ("x",)


@pytest.mark.parametrize("call", [
    lambda: tss.anova_n(1.5, 0.2, 2, 0.1, 0.01),                 # params.check
    lambda: tss.ttest_n(0.05, 0.2, 1e-12, 1.0),                  # the search limit
    lambda: tss.anova_table(0.05, beta=0.2, variance=0.01, ms=[[2, 3]], min_ds=[0.1]),
    lambda: tss.example_matrix().pipe(tss.split_half, half=30),  # more than half the topics
])
def test_the_engine_raises_input_errors_for_bad_input(call):
    with pytest.raises(InputError):
        call()
