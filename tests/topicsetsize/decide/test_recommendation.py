"""recommend() and read_requirements(): one topic set size over several requirements.

The reference is the recommendation of the AIRS 2016 std-AB paper (Section 4): "Create 100
topics: this guarantees 80% power for comparing any m = 2 systems with a minD of 0.10 (93 topics
are sufficient), and for comparing any m = 50 systems with a minD of 0.20 (91 topics are
sufficient)." The two sizes are Table 2, part I (MedNLPDoc raw recall, V_E = .0601 in Table 1),
rows (m = 2, minD = .10) -> 93 and (m = 50, minD = .20) -> 91: the only part-I/II cells with
those values apart from part II's M-measure (m = 10, minD = .05 -> 91), which pairs with no 93.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.decide.recommendation import (
    REQUIREMENT_KEYS,
    Recommendation,
    check_requirement,
    recommend,
)

PAPER = ("Create 100 topics: this guarantees 80% power for comparing any m = 2 systems with a "
         "minD of 0.10 (93 topics are sufficient), and for comparing any m = 50 systems with a "
         "minD of 0.20 (91 topics are sufficient).")
#: The paper sized its sentence with the legacy tool: Table 2 gives the m = 2 cell 93 legacy and
#: 96 exact topics, so a legacy sentence says both, where a copy of it alone would claim that 93
#: suffice (a docs review, 2026-12-07); the exact method's sentence is the paper's form with 96.
QUALIFIED = PAPER.replace("(93 topics are sufficient)", "(93 topics are sufficient by the legacy "
                          "approximation; 96 by the exact test)")


def unqualified(sentence: str) -> str:
    """A sentence without what the exact test adds to a legacy one: the paper's words."""
    return re.sub(r" by the legacy approximation(; \d+ by the exact test)?", "", sentence)


@pytest.fixture(scope="module")
def table2(data_dir) -> pd.DataFrame:
    """AIRS 2016 Table 2, parts I and II (tests/data/PROVENANCE.md)."""
    return pd.read_csv(data_dir / "anova_table2_parts_I_II.csv")


@pytest.fixture(scope="module")
def paper_requirements(table2) -> list[dict]:
    """The two Table 2 cells behind the AIRS 2016 recommendation (see the module docstring)."""
    part1 = table2[table2.measure == "MedNLPDoc raw recall"]
    rows = [part1[(part1.m == 2) & (part1.min_d == 0.1)],
            part1[(part1.m == 50) & (part1.min_d == 0.2)]]
    assert [int(r.n_legacy.iloc[0]) for r in rows] == [93, 91]
    return [{"variance": float(r.variance.iloc[0]), "m": int(r.m.iloc[0]),
             "min_d": float(r.min_d.iloc[0])} for r in rows]


# --- The paper's recommendation ---------------------------------------------------------------

def test_reproduces_the_airs2016_sentence(paper_requirements):
    assert paper_requirements[0]["variance"] == 0.0601
    r = recommend(paper_requirements)
    assert isinstance(r, Recommendation)
    assert r.n == 100 and r.sentence == QUALIFIED == str(r) and unqualified(r.sentence) == PAPER
    assert r.requirements["n"].tolist() == [93, 91]
    assert list(r.requirements.columns) == [*REQUIREMENT_KEYS, "n", "power", "n_exact",
                                            "power_exact"]
    assert r.requirements.index.tolist() == [1, 2] and r.requirements.index.name == "requirement"
    assert (r.alpha, r.beta, r.round_to, r.method) == (0.05, 0.2, 10, "legacy")


def test_exactly_needed_when_a_requirement_sets_the_size(paper_requirements):
    r = recommend(paper_requirements, round_to=1)
    assert r.n == 93
    # 93 topics fall short under the exact test (it needs 96): the guarantee says so too
    assert r.sentence == (
        "Create 93 topics: this guarantees 80% power by the legacy approximation for comparing "
        "any m = 2 systems with a minD of 0.10 (exactly 93 topics are needed by the legacy "
        "approximation; 96 by the exact test), and for comparing any m = 50 systems with a minD "
        "of 0.20 (91 topics are sufficient).")
    assert r.short and unqualified(r.sentence) == (
        "Create 93 topics: this guarantees 80% power for comparing any m = 2 systems with a "
        "minD of 0.10 (exactly 93 topics are needed), and for comparing any m = 50 systems with "
        "a minD of 0.20 (91 topics are sufficient).")


@pytest.mark.parametrize("round_to, n", [(1, 93), (7, 98), (10, 100), (25, 100), (50, 100),
                                         (1000, 1000)])
def test_rounding(paper_requirements, round_to, n):
    assert recommend(paper_requirements, round_to=round_to).n == n


def test_every_requirement_n_equals_table2(table2):
    # Each requirement's own n is Table 2's n (legacy and exact), all 100 cells at once.
    for method in ("legacy", "exact"):
        r = recommend(table2[["variance", "m", "min_d"]], method=method, round_to=1)
        assert r.requirements["n"].tolist() == table2[f"n_{method}"].tolist()
        assert r.n == table2[f"n_{method}"].max()


# --- Round trip: the recommended n delivers the power ------------------------------------------

@pytest.mark.parametrize("method", ["legacy", "exact"])
@pytest.mark.parametrize("alpha, beta, round_to", [(0.05, 0.2, 10), (0.01, 0.1, 25),
                                                   (0.05, 0.2, 1)])
def test_recommended_n_achieves_the_power_for_every_requirement(method, alpha, beta, round_to):
    needs = [{"label": "EN nDCG@3", "variance": 0.0259, "m": 10, "min_d": 0.10},
             {"label": "JA nDCG@3", "variance": 0.0570, "m": 10, "min_d": 0.10},
             {"label": "STC nG@1 std-AB", "variance": 0.0193, "m": 44, "min_d": 0.15},
             {"variance": 0.0601, "m": 2, "min_d": 0.05}]
    r = recommend(needs, alpha=alpha, beta=beta, round_to=round_to, method=method)
    assert r.n % round_to == 0 and r.n >= r.requirements["n"].max() > r.n - round_to
    for row in r.requirements.itertuples():
        assert row.n == tss.anova_n(alpha, beta, row.min_d, row.variance, row.m, method=method)
        power = tss.anova_power(r.n, m=row.m, min_d=row.min_d, variance=row.variance,
                                alpha=alpha, method=method)
        assert power >= 1 - beta and power == pytest.approx(row.power, abs=0)
    # One topic set round_to smaller misses the power for the most demanding requirement.
    worst = r.requirements.loc[r.requirements["n"].idxmax()]
    smaller = r.n - round_to if round_to > 1 else r.n - 1
    assert tss.anova_power(smaller, m=worst.m, min_d=worst.min_d, variance=worst.variance,
                           alpha=alpha, method=method) < 1 - beta


# --- Labels, inputs, wording -------------------------------------------------------------------

def test_labels_name_the_measures():
    r = recommend([{"label": "EN nDCG@3", "variance": 0.0259, "m": 10, "min_d": 0.10},
                   {"label": "JA nDCG@3", "variance": 0.0570, "m": 10, "min_d": 0.10}])
    assert r.sentence == (
        "Create 180 topics: this guarantees 80% power for EN nDCG@3, comparing any m = 10 "
        "systems with a minD of 0.10 (82 topics are sufficient); and for JA nDCG@3, comparing "
        "any m = 10 systems with a minD of 0.10 (178 topics are sufficient by the legacy "
        "approximation; 180 by the exact test).")
    # the exact n in the sentence is the exact method's, and 180 topics have its power
    assert tss.anova_n(0.05, 0.2, 0.1, 0.0570, 10, method="exact") == 180 == r.n
    assert r.requirements["label"].tolist() == ["EN nDCG@3", "JA nDCG@3"]


def test_one_requirement_and_other_powers():
    r = recommend({"variance": 0.0601, "m": 2, "min_d": 0.025}, beta=0.1)
    assert r.sentence.startswith("Create ") and "90% power by the legacy approximation for " \
        "comparing any m = 2 systems with a minD of 0.025 (" in r.sentence
    exact = recommend({"variance": 0.0601, "m": 2, "min_d": 0.025}, beta=0.1, method="exact")
    assert "90% power for comparing any m = 2 systems with a minD of 0.025 (" in exact.sentence
    assert ", and" not in r.sentence and r.requirements["label"].tolist() == [None]


def test_labels_are_just_text():
    formula = '=HYPERLINK("http://x","y")'
    r = recommend([{"label": formula, "variance": 0.0601, "m": 2, "min_d": 0.1},
                   {"label": "two\nlines\x1b[31m", "variance": 0.0601, "m": 2, "min_d": 0.2},
                   {"variance": 0.0601, "m": 2, "min_d": 0.3}])
    assert r.requirements["label"].tolist() == [formula, "two lines [31m", None]
    assert f"for {formula}, comparing" in r.sentence and "\n" not in r.sentence


def test_dataframe_and_list_agree():
    rows = [{"label": "a", "variance": 0.0259, "m": 10, "min_d": 0.1},
            {"label": None, "variance": 0.0601, "m": 50, "min_d": 0.2}]
    from_list = recommend(rows)
    from_frame = recommend(pd.DataFrame(rows))
    assert from_list.sentence == from_frame.sentence and from_list.n == from_frame.n
    pd.testing.assert_frame_equal(from_list.requirements, from_frame.requirements)
    no_label = recommend(pd.DataFrame(rows).drop(columns="label"))
    assert no_label.requirements["label"].isna().all()


# --- Bad input: one line naming the requirement and the key ------------------------------------

GOOD = {"variance": 0.0601, "m": 2, "min_d": 0.1}


@pytest.mark.parametrize("requirements, message", [
    ([], "requirements is empty: give at least one requirement with variance, m, min_d"),
    ("variance=1", "requirements='variance=1' is not a list of requirements"),
    (None, "requirements=None is not a list of requirements"),
    ([GOOD, 3], "requirement 2: int is not a mapping with the keys variance, m, min_d"),
    ([GOOD, {"variance": 0.1, "m": 2}],
     "requirement 2: missing key 'min_d' (needs variance, m, min_d; label is optional)"),
    ([{"label": "EN", "variance": 0.1, "m": 2, "mind": 0.1}],
     "requirement 1 ('EN'): unknown key 'mind' (allowed: label, variance, m, min_d)"),
    ([{"label": "EN", "variance": "0.1", "m": 2, "min_d": 0.1}],
     "requirement 1 ('EN'): variance='0.1' is not a number: allowed variance > 0"),
    ([GOOD, {"variance": 0.1, "m": 2.5, "min_d": 0.1}],
     "requirement 2: m=2.5 is not a whole number: allowed 2 <= m <= 1000000000 "
     "(a whole number)"),
    ([{"variance": 0.1, "m": 2, "min_d": float("nan")}],
     "requirement 1: min_d=nan is not a finite number: allowed min_d > 0"),
    ([{"variance": 0.0, "m": 2, "min_d": 0.1}],
     "requirement 1: variance=0 is out of range: allowed variance > 0"),
    ([GOOD, {"label": "tiny", "variance": 0.06, "m": 2, "min_d": 1e-7}],
     "requirement 2 ('tiny'): no n up to the search limit"),
    (pd.DataFrame({"variance": [0.1], "m": [2]}),
     "requirements: missing column 'min_d' (needs variance, m, min_d; label is optional)"),
    (pd.DataFrame({"variance": [0.1], "m": [2], "min_d": [0.1], "beta": [0.1]}),
     "requirements: unknown column 'beta' (allowed: label, variance, m, min_d)"),
])
def test_bad_requirements(requirements, message):
    with pytest.raises(tss.InputError) as info:
        recommend(requirements)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


@pytest.mark.parametrize("kwargs, message", [
    (dict(round_to=0), "round_to=0 is out of range: allowed 1 <= round_to <= 1000000000"),
    (dict(round_to=2.5), "round_to=2.5 is not a whole number"),
    (dict(alpha=1.5), "alpha=1.5 is out of range: allowed 0 < alpha < 1"),
    (dict(beta=-0.1), "beta=-0.1 is out of range"),
    (dict(method="both"), "method='both' is not one of 'legacy', 'exact'"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(tss.InputError) as info:
        recommend([GOOD], **kwargs)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_check_requirement():
    assert check_requirement({"m": 10.0, "min_d": 0.1, "variance": 0.02, "label": 2016}) == \
        {"label": "2016", "variance": 0.02, "m": 10, "min_d": 0.1}
    with pytest.raises(tss.InputError, match=r"^here \('x'\): unknown key 'alpha'"):
        check_requirement({"label": "x", "alpha": 0.1, **GOOD}, where="here")


AIRS = [{"variance": 0.0601, "m": 2, "min_d": 0.10}, {"variance": 0.0601, "m": 50, "min_d": 0.20}]


def test_sentence_states_a_level_other_than_05():
    assert unqualified(tss.recommend(AIRS).sentence) == PAPER     # the published form, .05
    sentence = tss.recommend(AIRS, alpha=0.01, method="exact").sentence
    assert sentence.startswith("Create ") and "80% power at alpha = 0.01 for comparing" in sentence
    # legacy: 140 topics fall short at alpha = .01 under the exact test, and the sentence says so
    legacy = tss.recommend(AIRS, alpha=0.01).sentence
    assert "80% power at alpha = 0.01 by the legacy approximation for comparing" in legacy


@pytest.mark.parametrize("min_d", [0.1234564, 0.1234569, 0.030000001])
def test_sentence_never_shows_min_d_below_the_requirement(min_d):
    # :g showed 0.1234564 as 0.123456: a requirement smaller than the user's.
    sentence = tss.recommend([{"variance": 0.0601, "m": 2, "min_d": min_d}]).sentence
    shown = float(sentence.split("minD of ")[1].split(" ")[0])
    assert shown == min_d


@pytest.mark.parametrize("label", ["", "  ", "\n"])
def test_a_blank_label_is_refused_not_dropped(label):
    # a label given is text to name the requirement: a blank one is a mistake, not "no label"
    with pytest.raises(tss.InputError, match=r"^requirement 2: label=.* is blank: give a label, or "
                                         "leave the key out$"):
        recommend([{"label": "a", "variance": 0.06, "m": 2, "min_d": 0.1},
                   {"label": label, "variance": 0.06, "m": 2, "min_d": 0.2}])


def test_a_repeated_label_is_refused():
    with pytest.raises(tss.InputError, match=r"^requirement 2: label='EN' is given twice"):
        recommend([{"label": "EN", "variance": 0.06, "m": 2, "min_d": 0.1},
                   {"label": " EN ", "variance": 0.07, "m": 2, "min_d": 0.2}])


def _cell(table2, m, min_d):
    """One Table 2 part-I cell (MedNLPDoc raw recall, V_E = .0601): its legacy and exact n."""
    row = table2[(table2.measure == "MedNLPDoc raw recall") & (table2.m == m)
                 & (table2.min_d == min_d)].iloc[0]
    return {"variance": row.variance, "m": m, "min_d": min_d}, row.n_legacy, row.n_exact


def test_the_papers_recommendation_says_what_the_exact_power_needs(table2, paper_requirements):
    # Table 2: (m = 2, minD = .10) needs 93 legacy, 96 exact topics; (50, .20) 91 and 91 or less.
    # The recommended 100 meets both under the exact power too: the note says so, and gives 96.
    _, legacy, exact = _cell(table2, 2, 0.1)
    r = recommend(paper_requirements)
    assert r.sentence == QUALIFIED        # the paper's words, and the exact n of the m = 2 cell
    assert f"{legacy} topics are sufficient by the legacy approximation; {exact} by the exact " \
        "test" in r.sentence
    assert r.note == (f"Under the exact noncentral F, the legacy sizes fall short of 80% power: "
                      f"requirement 1 needs {exact} (not {legacy}) topics; the recommended 100 "
                      "topics meet every requirement under both.")
    exact_power = tss.anova_power(100, m=2, min_d=0.1, variance=0.0601, alpha=0.05,
                                  method="exact")
    assert exact_power >= 0.8 and not r.short


def test_a_legacy_recommendation_below_the_exact_power_says_so_with_the_exact_one(table2):
    # Table 2: m = 2, minD = .02 needs 2,301 legacy and 2,360 exact topics: rounded up to 2,310,
    # the legacy recommendation promises 80% power that the exact power does not reach
    need, legacy, exact = _cell(table2, 2, 0.02)
    r = recommend([need], round_to=10)
    assert r.n == 2310 and legacy < r.n < exact
    power = tss.anova_power(r.n, **need, alpha=0.05, method="exact")
    assert power < 0.8 and r.short
    assert r.note.startswith(f"The legacy approximation under-sizes n: under the exact "
                             f"noncentral F, 2310 topics give a power of only {power:.6f}"[:-2])
    assert r.note.endswith(f"below 80%; the exact method recommends {exact} topics.")
    # exact: the sentence is the exact one, and nothing to add
    r = recommend([need], round_to=10, method="exact")
    assert r.n == exact and r.note == ""


def test_no_note_where_the_legacy_sizes_are_the_exact_ones(table2):
    # Table 2: (m = 2, minD = .20) -> 24 legacy, 25 exact; a requirement whose two sizes agree
    # (found in the table, not assumed) gets no note
    same = table2[(table2.n_legacy == table2.n_exact) & (table2.alpha == 0.05)
                  & (table2.beta == 0.2)].iloc[0]
    r = recommend([{"variance": same.variance, "m": int(same.m), "min_d": same.min_d}],
                  round_to=1)
    assert r.n == same.n_legacy and r.note == ""


@pytest.mark.filterwarnings("ignore::topicsetsize.numerics.precision.PrecisionWarning")
def test_an_exact_n_beyond_the_search_limit_leaves_the_recommendation_short_and_says_so():
    # as tests/topicsetsize/decide/test_budget.py: the legacy n of minD = .02 against 25,500
    # (m = 2) is below 10⁹, the exact one beyond; next to an ordinary requirement
    r = recommend([{"variance": 25_500, "m": 2, "min_d": 0.02},
                   {"variance": 0.06, "m": 10, "min_d": 0.1}], round_to=1)
    assert r.n < 10**9
    assert r.note.startswith(f"The legacy approximation under-sizes n: under the exact "
                             f"noncentral F, {r.n} topics give a power of only 0.")
    assert r.note.endswith("the exact method finds no n up to the search limit of "
                           "1,000,000,000 topics.")


def test_a_legacy_recommendation_carries_the_exact_n_and_power(paper_requirements):
    """Beside each requirement's legacy n and power, the exact test's, recomputed here with
    scipy's noncentral F (a review, 2026-12-07: recommend --csv gave the legacy n alone where
    the sentence says what the exact test needs); the exact method adds no such columns."""
    from scipy import stats

    def power(n, m, min_d, variance):
        dfn, dfd = m - 1, m * (n - 1)
        return stats.ncf.sf(stats.f.isf(0.05, dfn, dfd), dfn, dfd, n * min_d ** 2 / (2 * variance))

    r = recommend(paper_requirements)
    for row in r.requirements.itertuples():
        args = (row.m, row.min_d, row.variance)
        exact = next(n for n in range(2, 10_000) if power(n, *args) >= 0.8)
        assert row.n_exact == exact and power(exact - 1, *args) < 0.8
        assert row.power_exact == pytest.approx(power(r.n, *args), abs=1e-9)
    assert r.requirements["n_exact"].tolist()[0] == 96          # the paper's sentence: 93 → 96
    assert "n_exact" not in recommend(paper_requirements, method="exact").requirements


def _scipy_two_way(variance, m, min_d, alpha=0.05):
    """The two-way ANOVA's power at n and its smallest n with power .8, by scipy's noncentral F
    alone (df m − 1, (m − 1)(n − 1); λ = n·minD²/(2σ²): the least favourable configuration)."""
    from scipy import stats

    def power(n):
        dfn, dfd = m - 1, (m - 1) * (n - 1)
        return stats.ncf.sf(stats.f.isf(alpha, dfn, dfd), dfn, dfd, n * min_d ** 2 / (2 * variance))

    n = 2
    while power(n) < 0.8:
        n += 1
    return n, power


def test_the_two_way_design_sizes_each_requirement_from_its_v_e2():
    """design="anova2": each requirement's n is the two-way ANOVA's at its V_E2 (TREC 2004
    Robust AP's .0132, `topicsetsize variance`), exact, and the sentence names the test (a
    review, 2026-12-07: every recommendation sized the one-way test its caveat advises against)."""
    needs = [{"label": "AP", "variance": 0.0132, "m": 2, "min_d": 0.10},
             {"variance": 0.0132, "m": 50, "min_d": 0.20}]
    r = tss.recommend(needs, design="anova2")
    assert r.design == "anova2" and r.method == "exact" and r.note == ""
    for (_, row), need in zip(r.requirements.iterrows(), needs):
        n, power = _scipy_two_way(need["variance"], need["m"], need["min_d"])
        assert row["n"] == n and row["power"] == pytest.approx(power(r.n), abs=1e-9)
    assert r.n == -(-max(r.requirements["n"]) // 10) * 10
    assert r.sentence.startswith(f"Create {r.n} topics: this guarantees 80% power in a two-way "
                                 "ANOVA (topics as blocks) for AP, comparing any m = 2 systems")
    assert "n_exact" not in r.requirements           # exact already: no legacy columns
    with pytest.raises(tss.InputError, match="method='legacy' is the legacy Excel tools' "
                                         "approximation of the one-way ANOVA"):
        tss.recommend(needs, design="anova2", method="legacy")
    assert "two-way" not in tss.recommend(needs).sentence       # the default as before
