"""Topic, run and score selection: Voorhees' (SIGIR 2009) set-up on TREC 2004 Robust."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from topicsetsize.checks.selection import select_topics, top_runs, transform_scores
from topicsetsize.errors import InputError


@pytest.fixture(scope="module")
def robust(data_dir) -> pd.DataFrame:
    """TREC 2004 Robust AP, 249 topics x 110 runs (tests/data/PROVENANCE.md)."""
    return pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)


def test_select_topics_with_string_and_integer_ids(robust):
    assert select_topics(robust, spec="351-450").index.tolist() == list(range(351, 451))
    assert select_topics(robust, spec="301-305,601-603").shape[0] == 8
    assert select_topics(robust, spec=[302, "699"]).index.tolist() == [302, 699]
    text = robust.set_axis(robust.index.astype(str))
    assert select_topics(text, spec="351-450").index.tolist() == [str(t) for t in range(351, 451)]
    with pytest.warns(UserWarning, match=r"^topics='672-673': 1 of its 2 ids are not in the "
                      r"matrix \(672\); it selects the 1 that are$"):
        assert select_topics(text, spec="672-673").index.tolist() == ["673"]   # 672: not in it


def test_a_range_with_ids_the_matrix_lacks_says_which(robust):
    """A review (2026-12-07): --topics 351-999 of Robust04 ran on 199 topics and said nothing of
    the 450 ids it lacks. The missing ids are recomputed here from the index."""
    import warnings

    with pytest.warns(UserWarning) as caught:
        picked = select_topics(robust, spec="351-999")
    missing = sorted(set(range(351, 1000)) - set(robust.index))
    assert len(picked) == 649 - len(missing) == 199
    assert str(caught[0].message) == (
        f"topics='351-999': {len(missing)} of its 649 ids are not in the matrix (451-600, 672, "
        "701-999); it selects the 199 that are")
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # a range the matrix holds whole: no word
        assert len(select_topics(robust, spec="351-450")) == 100


@pytest.mark.parametrize("spec, message", [
    ("1-5", "matches no topic"), ("q9", "topics='q9' is not a topic id of the matrix"),
    ("", "selects no topic"),
    # reversed: said to match no topic id, as if the ids were not there
    ("450-351", r"^topics='450-351' is an empty range \(first 450 > last 351\): give it as "
                r"351-450$"),
    ("301-305,305-301", r"^topics='305-301' is an empty range"),
])
def test_select_topics_errors(robust, spec, message):
    with pytest.raises(InputError, match=message):
        select_topics(robust, spec=spec)


def test_top_runs_rounds_up_and_keeps_order():
    x = pd.DataFrame(np.tile(np.arange(12.0) % 5, (2, 1)), columns=list("abcdefghijkl"))
    # means a..l: 0 1 2 3 4 0 1 2 3 4 0 1; top 25% = ceil(3) = 3 runs: e, j (4) then d (3, first)
    assert top_runs(x, fraction=0.25).columns.tolist() == ["d", "e", "j"]
    assert top_runs(x, fraction=0.26).shape[1] == 4                   # ceil(3.12)
    assert top_runs(x, fraction=1.0).shape[1] == 12
    assert top_runs(x.to_numpy(), fraction=0.25).shape == (2, 3)
    with pytest.raises(InputError, match="fraction=0 is out of range"):
        top_runs(x, fraction=0)


def test_transform_scores_use_factors_of_all_runs(robust):
    mean = robust.mean(axis=1)
    sd = robust.std(axis=1, ddof=1)
    z = robust.sub(mean, axis=0).div(sd, axis=0)
    # Sakai (AIRS 2016) std-AB with A = 0.15, B = 0.5, clipped; std-CDF = Phi(z)
    np.testing.assert_allclose(transform_scores(robust, kind="std-ab"), (0.15 * z + 0.5).clip(0, 1),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(transform_scores(robust, kind="std-cdf"), stats.norm.cdf(z),
                               rtol=1e-12, atol=1e-15)
    raw = transform_scores(robust, kind="raw")
    assert raw.equals(robust) and raw is not robust
    with pytest.raises(InputError, match="kind='z' is not one of"):
        transform_scores(robust, kind="z")
