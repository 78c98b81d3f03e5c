"""The recommendation's sentence (topicsetsize.decide.wording): the power as
:func:`topicsetsize.decide.guarantee.percent_text` writes it, never rounded to 100%.

The expected texts are 100(1 − β)% written out by hand (β = 1e-7: 99.99999%).
"""

from __future__ import annotations

import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.decide.guarantee import percent_text
from topicsetsize.decide.wording import sentence

#: The AIRS 2016 requirements (tests/topicsetsize/decide/test_recommendation.py).
AIRS = [{"variance": 0.0601, "m": 2, "min_d": 0.10}, {"variance": 0.0601, "m": 50, "min_d": 0.20}]


@pytest.mark.parametrize("beta, power", [(1e-7, "99.99999%"), (1e-9, "99.9999999%"),
                                         (0.2, "80%"), (0.15, "85%"), (0.001, "99.9%")])
def test_the_power_is_never_rounded_to_100_percent(beta, power):
    # ":g" kept 6 significant digits: 1e-7 and 1e-9 printed "100% power", a promise of certainty
    frame = pd.DataFrame({"label": [None], "m": [2], "min_d": [0.1], "n": [50]})
    text = sentence(50, frame, beta)
    assert text.startswith(f"Create 50 topics: this guarantees {power} power for comparing")
    assert power == percent_text(beta)


def test_the_recommendation_states_the_power_asked_for():
    text = tss.recommend(AIRS, beta=1e-7).sentence
    assert "this guarantees 99.99999% power for comparing" in text
    assert "100% power" not in text


def test_budget_note_names_the_cheapest_short_depth_where_none_fits():
    # with no depth within the budget (first=None) the note named the first depth given, pd=100,
    # the dearest (a reviewer's find): it names the cheapest of the depths that fall short
    import numpy as np

    from topicsetsize.decide.wording import budget_note

    note = budget_note([100, 30, 10], np.array([150, 160, 190]), np.array([151, 161, 191]),
                       np.array([700.0, 250.0, 100.0]), 0.2, first=None, budget=1000)
    assert "power at pd=10: it needs 191 topics (not 190), cost 19,100 (not 19,000), over the " \
           "budget of 1,000, and at 2 more depths" in note


def test_the_estimated_variance_note_states_the_real_matrix_truly(capsys, data_dir):
    # Its figures (TREC 2010 Web AP, the bundled matrix): V_E .0084, the 95% interval of
    # `topicsetsize variance` with its default seed (a review found the note's interval, of
    # --seed 1, beside the one the command prints), the exact n at the point value and the
    # exact powers at the interval's ends, recomputed here.
    import io
    import re

    from topicsetsize.cli import main
    from topicsetsize.decide.wording import ESTIMATED_VARIANCE

    path = data_dir / "trec2010web_ap.csv"
    assert main(["variance", str(path), "--csv"]) == 0
    row = pd.read_csv(io.StringIO(capsys.readouterr().out)).iloc[0]
    said = re.search(r"V_E (\.\d+), 95% interval (\.\d+) to (\.\d+); the (\d+) topics that "
                     r"m = (\d+), minD = (\.\d+) need at \.\d+ have power (\.\d+) to (\.\d+)",
                     ESTIMATED_VARIANCE).groups()
    v, lo, hi, n, m, d, p_lo, p_hi = (float(x) for x in said)
    assert [round(row[c], 4) for c in ("var_raw", "var_raw_low", "var_raw_high")] == [v, lo, hi]
    assert tss.anova_n(0.05, 0.2, d, row["var_raw"], int(m), method="exact") == n
    powers = [tss.anova_power(int(n), m=int(m), min_d=d, variance=x, alpha=0.05, method="exact")
              for x in (lo, hi)]
    assert [round(p, 2) for p in powers] == [p_lo, p_hi]


def test_the_two_way_variance_note_quotes_v_e2_and_its_own_n(capsys, data_dir):
    # a review, 2026-12-08: under a two-way answer the note quoted V_E and the one-way n. Its
    # figures (TREC 2010 Web AP): V_E2 with the 95% interval of `topicsetsize variance` (default
    # seed), the two-way n at the point value and its powers at the interval's ends, recomputed
    import io
    import re

    from topicsetsize.cli import main
    from topicsetsize.decide.wording import ESTIMATED_VARIANCE2

    assert main(["variance", str(data_dir / "trec2010web_ap.csv"), "--csv"]) == 0
    row = pd.read_csv(io.StringIO(capsys.readouterr().out)).iloc[0]
    said = re.search(r"V_E2 (\.\d+), 95% interval (\.\d+) to (\.\d+); the (\d+) topics that the "
                     r"two-way ANOVA with m = (\d+), minD = (\.\d+) needs at \.\d+ have power "
                     r"(\.\d+) to (\.\d+)", ESTIMATED_VARIANCE2).groups()
    v, lo, hi, n, m, d, p_lo, p_hi = (float(x) for x in said)
    assert [round(row[c], 4) for c in ("var2_raw", "var2_raw_low", "var2_raw_high")] == [v, lo, hi]
    assert tss.anova2_n(0.05, 0.2, d, row["var2_raw"], int(m)) == n
    powers = [tss.anova2_power(int(n), m=int(m), min_d=d, variance=x, alpha=0.05)
              for x in (lo, hi)]
    assert [round(p, 2) for p in powers] == [p_lo, p_hi]
