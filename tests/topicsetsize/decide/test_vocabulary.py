"""Vocabulary: ids coded in order of first appearance, as pandas.factorize numbers them, whatever
the hashes (clashes forced by weak hashers), and the ids given back as they came in."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from topicsetsize.decide.vocabulary import Vocabulary
from topicsetsize.errors import InputError


def _batches(seed=3, n=30):
    """Batches of ids with repeats within and across batches, non-ASCII ids, an empty id,
    ids that are prefixes of others, and many new ids in the first batch (so that later ones
    are looked up both in the merged hashes and in those added since)."""
    rng = np.random.default_rng(seed)
    pool = np.array([f"D{k}" for k in range(400)] + [f"é{k}" for k in range(50)] +
                    ["", "D1-", "日本", "D1\t"], object)
    sizes = [300] + rng.integers(1, 60, n - 1).tolist()
    return [pool[rng.integers(0, len(pool), s)].tolist() for s in sizes]


@pytest.mark.parametrize("hasher", [hash, len, lambda s: hash(s) % 5 - 2, lambda s: 0],
                         ids=["hash", "len", "mod5", "constant"])
def test_codes_are_the_order_of_first_appearance(hasher):
    batches = _batches()
    want = np.split(pd.factorize(np.concatenate([np.array(b, object) for b in batches]))[0],
                    np.cumsum([len(b) for b in batches])[:-1])
    vocabulary = Vocabulary(hasher=hasher)
    got = [vocabulary.codes(b) for b in batches]
    for g, w in zip(got, want):
        assert g.dtype == np.int32
        assert g.tolist() == w.tolist()
    distinct = list(dict.fromkeys(i for b in batches for i in b))
    assert len(vocabulary) == len(distinct)
    assert vocabulary.ids().tolist() == distinct
    assert vocabulary.strings(got[3]) == batches[3]
    vocabulary.done()
    assert vocabulary.ids().tolist() == distinct                  # kept as strings
    assert vocabulary.strings(got[5]) == batches[5]
    with pytest.raises(RuntimeError):
        vocabulary.codes(["D1"])


def test_strings_before_done_follow_additions():
    vocabulary = Vocabulary()
    vocabulary.codes(["a", "b"])
    assert vocabulary.ids().tolist() == ["a", "b"]
    vocabulary.codes(["c", "a"])
    assert vocabulary.ids().tolist() == ["a", "b", "c"]
    assert vocabulary.strings(np.array([2, 2, 0])) == ["c", "c", "a"]


def test_an_id_with_a_nul_is_refused():
    vocabulary = Vocabulary()
    vocabulary.codes(["a"])
    with pytest.raises(InputError, match="NUL"):
        vocabulary.codes(["b", "c\0d"])
