"""The generic search: both directions from any guess, scans, limits."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.numerics.search import SearchLimitError, smallest_n


@pytest.mark.parametrize("guess", [2, 50, 110, 111, 112, 10**6, 10**9, np.nan, np.inf])
def test_any_guess_finds_the_answer(guess):
    assert smallest_n(lambda n, i: np.sqrt(n), [10.5], [guess]).tolist() == [111]


def test_vectorised_cells_are_independent():
    targets = np.array([1.5, 10.5, 1000.5, 3e4])
    got = smallest_n(lambda n, i: np.sqrt(n), targets, np.full(4, 7.0))
    assert got.tolist() == [max(2, int(np.ceil(t ** 2))) for t in targets]


def test_scan_below_finds_the_last_failure():
    # a wobbly curve below 40: passes at 5, fails at 30, passes from 31 on
    def value(n, i):
        return np.where((n == 5) | (n >= 31), 1.0, 0.0)
    for guess in (3.0, 30.0, 100.0):
        assert smallest_n(value, [0.5], [guess], monotone_from=40).tolist() == [31]


def test_nan_counts_as_not_met():
    value = lambda n, i: np.where(n < 9, np.nan, 1.0)
    assert smallest_n(value, [0.5], [2.0], monotone_from=20).tolist() == [9]


def test_limit():
    with pytest.raises(SearchLimitError, match="search limit of 1,000"):
        smallest_n(lambda n, i: np.sqrt(n), [100.0], [10.0], n_max=1000)


def test_values_are_the_criterion_at_n_minus_1_and_n():
    # issue 29: the search hands back what it evaluated at n - 1 and n, for cells decided by
    # the first step (guess 110.3) and cells narrowed from a far guess (3.0); NaN where the scan
    # below the monotone start decided (there n - 1 was seen by the scan only)
    from topicsetsize.numerics.search import smallest_n

    n, below, at = smallest_n(lambda x, i: np.sqrt(x), [10.5, 10.5], [110.3, 3.0], values=True)
    assert n.tolist() == [111, 111]
    assert below.tolist() == [np.sqrt(110.0)] * 2 and at.tolist() == [np.sqrt(111.0)] * 2
    n, below, at = smallest_n(lambda x, i: (x >= 5).astype(float), [0.5], [40.0],
                              monotone_from=20, values=True)
    assert n.tolist() == [5] and np.isnan(below[0]) and np.isnan(at[0])


def _main_answers(data_dir):
    """The n of the code on main before issue 28 (commit b37cc01; built by
    tests/data/make_search_answers.py): AIRS 2016 Table 2 and a seeded grid up to 1e9."""
    return pd.read_csv(data_dir / "search_answers_main.csv", keep_default_na=False)


def _call(design, method, a, b, d, v, m):
    kw = {"method": method} if method else {}
    if design in ("anova_n", "anova2_n"):
        return getattr(tss, design)(a, b, d, v, m, **kw)
    return getattr(tss, design)(a, b, d, v, **kw)


@pytest.mark.filterwarnings("ignore::topicsetsize.numerics.precision.PrecisionWarning")
def test_vectorised_answers_unchanged_from_main(data_dir):
    # Issue 28.4: the bound shortcut (one critical value for the first step's two powers) and
    # the paired t power as one noncentral F tail change no answer, 2 to 1e9 topics.
    rows = _main_answers(data_dir)
    assert len(rows) == 960 and rows.n.max() > 9e8
    for (design, method), group in rows.groupby(["design", "method"]):
        got = _call(design, method, *(group[c].to_numpy() for c in
                                      ("alpha", "beta", "effect", "variance", "m")))
        wrong = group[got != group.n.to_numpy()]
        assert wrong.empty, (design, method, wrong.assign(got=got[got != group.n.to_numpy()]))


def test_first_step_bound_settles_the_cell_without_its_own_value():
    # value(n) = √n; the pair's bound at n − 1 is √(n − 0.5), an upper bound of √(n − 1). With
    # the guess 110.3 (x0 = 110, x1 = 111, target 10.5): the bound √110.5 = 10.512 ≥ 10.5 does
    # not settle n − 1, so the pair is evaluated at 110 too (√110 fails: n = 111); with the guess
    # 111.3 and the target 10.58 (√112 = 10.583 passes, the bound √111.5 = 10.559 fails) one pair
    # settles it. ``value`` itself is never needed.
    calls, pairs = [], []

    def value(n, i):
        calls.append(n.tolist())
        return np.sqrt(n)

    def pair(n, i):
        pairs.append(n.tolist())
        return np.sqrt(n), np.sqrt(n - 0.5)

    assert smallest_n(value, [10.5], [110.3], pair=pair).tolist() == [111]
    assert pairs == [[111.0], [110.0]] and calls == []
    pairs.clear()
    assert smallest_n(value, [10.58], [111.3], pair=pair).tolist() == [112]
    assert pairs == [[112.0]] and calls == []


def test_pair_steps_a_guess_one_topic_off_either_way():
    # sqrt(n) >= 10.5 from n = 111: guesses 109.5 (x1 = 110 fails: the pair at 111 decides) and
    # 111.5 (x1 = 112, x0 = 111 passes, the bound at 110 fails: n = 111), both in two calls;
    # a guess far off narrows the bracket as before
    for guess, want_pairs in ((109.5, [[110.0], [111.0]]), (111.5, [[112.0], [111.0]])):
        pairs = []

        def pair(n, i):
            pairs.append(n.tolist())
            return np.sqrt(n), np.sqrt(n - 0.9)

        assert smallest_n(lambda n, i: np.sqrt(n), [10.5], [guess], pair=pair).tolist() == [111]
        assert pairs == want_pairs
    for guess in (3.0, 50.0, 1e4, 1e9):
        got = smallest_n(lambda n, i: np.sqrt(n), [10.5, 1e3], [guess, guess],
                         pair=lambda n, i: (np.sqrt(n), np.sqrt(n - 0.9)))
        assert got.tolist() == [111, 10**6]


def test_a_nan_bound_is_not_a_failure():
    def pair(n, i):
        return np.sqrt(n), np.full(n.shape, np.nan)

    got = smallest_n(lambda n, i: np.sqrt(n), [10.5], [111.3], pair=pair)
    assert got.tolist() == [111]          # √111 passes and the NaN bound fails nothing: 111


@pytest.mark.filterwarnings("ignore::topicsetsize.numerics.precision.PrecisionWarning")
def test_scalar_answers_unchanged_from_main(data_dir):
    # Issue 28.5: a scalar call solves its cell by the one-cell search up to 1e9 topics (it
    # ran the vectorised search from 1e6 on); every answer stays main's.
    rows = _main_answers(data_dir)
    wrong = [(r.design, r.method, r.alpha, r.beta, r.effect, r.m, r.n, got)
             for r in rows.itertuples()
             if (got := _call(r.design, r.method, r.alpha, r.beta, r.effect, r.variance,
                              int(r.m))) != r.n]
    assert not wrong, wrong
