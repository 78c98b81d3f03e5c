"""The parameter registry: one place, one-line messages."""

from __future__ import annotations

import numpy as np
import pytest

from topicsetsize.errors import InputError
from topicsetsize.params import PARAMS, check, check_method


def test_every_parameter_has_a_description():
    for name, spec in PARAMS.items():
        assert spec.doc and name in spec.describe(name)


@pytest.mark.parametrize("name,value,message", [
    ("alpha", 0, "alpha=0 is out of range: allowed 0 < alpha < 1"),
    ("alpha", True, "alpha=True is not a number: allowed 0 < alpha < 1"),
    ("n", 10**10, "n=10000000000 is out of range: allowed 2 <= n <= 1000000000 (a whole number)"),
    ("m", 3.5, "m=3.5 is not a whole number: allowed 2 <= m <= 1000000000 (a whole number)"),
    ("variance", [0.1, "x"], "variance=[0.1, 'x'] is not a number: allowed variance > 0"),
    ("variance", [], "variance is empty: allowed variance > 0"),
    ("min_d", float("inf"), "min_d=inf is not a finite number: allowed min_d > 0"),
    ("alpha", [0.05, float("nan")], "alpha=nan is not a finite number: allowed 0 < alpha < 1"),
])
def test_messages(name, value, message):
    with pytest.raises(InputError) as info:
        check(name, value)
    assert str(info.value) == message


def test_excel_shaped_counts():
    assert check("m", 10.0) == 10 and type(check("m", 10.0)) is int
    assert check("alpha", np.float32(0.05)) == pytest.approx(0.05)
    assert check_method("EXACT") == "exact"


def test_not_assert_based():
    # validation must survive python -O: it is plain control flow
    import inspect

    import topicsetsize.params as p
    assert "assert " not in inspect.getsource(p)


@pytest.mark.parametrize("name,value,message", [
    # Huge whole numbers: compact, not 300 digits.
    ("m", 1e300, "m=1e+300 is out of range: allowed 2 <= m <= 1000000000 (a whole number)"),
    ("n", -1e20, "n=-1e+20 is out of range: allowed 2 <= n <= 1000000000 (a whole number)"),
    ("alpha", 1e16, "alpha=1e+16 is out of range: allowed 0 < alpha < 1"),
    # Below 1e16 a whole number is shown as typed, digit for digit.
    ("n", 10**15, "n=1000000000000000 is out of range: allowed 2 <= n <= 1000000000 "
                  "(a whole number)"),
    ("alpha", 1e-300, None),
])
def test_messages_show_magnitudes_compactly(name, value, message):
    if message is None:
        assert check(name, value) == value
        return
    with pytest.raises(InputError) as info:
        check(name, value)
    assert str(info.value) == message


def test_whole_numbers_in_ranges_are_shown_as_typed():
    assert PARAMS["m"].describe("m") == "2 <= m <= 1000000000 (a whole number)"
    assert PARAMS["seed"].describe("seed") == "0 <= seed <= 4294967295 (a whole number)"


@pytest.mark.parametrize("name, value, message", [
    # int64 would wrap these to -2**63 (a cost called cheapest, a relevant document unjudged)
    ("docs_per_topic", 1e300, "docs_per_topic=1e+300 is out of range: allowed "
                              "0 < docs_per_topic <= 1000000"),
    ("relevance", 1e20, "relevance=1e+20 is out of range: allowed -2147483648 <= relevance <= "
                        "2147483647 (a whole number)"),
    ("rank", -2.0**31 - 1, "rank=-2147483649 is out of range"),
])
def test_integers_read_from_files_have_a_range(name, value, message):
    with pytest.raises(InputError, match="^" + message.replace("+", r"\+").replace("(", r"\(")
                       .replace(")", r"\)")):
        check(name, value)
    with pytest.raises(InputError, match="^" + message.replace("+", r"\+").replace("(", r"\(")
                       .replace(")", r"\)")):
        check(name, np.array([1.0, value]))     # the array path says the same


def test_the_largest_cost_is_exact_in_a_float():
    # n up to N_MAX topics times docs_per_topic up to its bound stays below 2**53
    from topicsetsize.params import N_MAX

    assert N_MAX * PARAMS["docs_per_topic"].high < 2 ** 53
    assert PARAMS["relevance"].high == np.iinfo(np.int32).max
    assert PARAMS["relevance"].low == np.iinfo(np.int32).min


def test_checking_one_number_loads_no_numerical_library():
    # the command line checks its options through the registry before the heavy imports
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\nfrom topicsetsize.params import check\n"
            "check('alpha', 0.05); check('m', 10.0)\n"
            "try:\n    check('n', 1)\nexcept ValueError as exc:\n    print(exc)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'scipy', 'pandas'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert done.stdout.splitlines() == [
        "n=1 is out of range: allowed 2 <= n <= 1000000000 (a whole number)", "[]"], done.stderr


@pytest.mark.parametrize("value", [True, False, np.bool_(True), np.bool_(False)])
def test_check_flag_takes_a_bool_and_returns_a_python_bool(value):
    from topicsetsize.params import check_flag

    got = check_flag("condensed", value)
    assert got is bool(value)


@pytest.mark.parametrize("value, shown", [("no", "'no'"), ("False", "'False'"), (1, "1"),
                                          (0, "0"), (None, "None"), (0.0, "0.0"),
                                          (np.array([True]), "array([ True])")])
def test_check_flag_refuses_anything_else_in_one_line(value, shown):
    # "no" is truthy: taken as a flag it would switch the option on
    from topicsetsize.params import check_flag

    with pytest.raises(InputError) as info:
        check_flag("condensed", value)
    assert str(info.value) == f"condensed={shown} is not one of True, False"


@pytest.mark.parametrize("name, value, meant", [
    ("alpha", 0.95, "0.05"), ("alpha", 0.99, "0.01"), ("beta", 0.8, "0.2"),
    ("beta", 0.9, "0.1"), ("level", 0.05, "0.95"), ("level", 0.1, "0.9"),
])
def test_a_valid_probability_outside_its_usual_range_names_its_complement(name, value, meant):
    check(name, value)                      # valid: refused nowhere but in the workbook
    note = PARAMS[name].unusual(name, value)
    assert note.startswith(f"{name}={value:g} ") and note.endswith(f"did you mean {name}={meant}?)")


@pytest.mark.parametrize("name, value", [
    ("alpha", 0.05), ("alpha", 0.5), ("beta", 0.5), ("beta", 1e-9), ("level", 0.5),
    ("level", 0.95), ("variance", 1e9), ("m", 10**9),
])
def test_a_usual_value_has_no_note(name, value):
    assert PARAMS[name].unusual(name, value) is None


def test_the_workbook_refuses_what_the_command_line_warns_about():
    # one declaration: the calculators' upper bound of alpha and beta is the usual one
    from topicsetsize.generator.content.inputs import allowed
    for name in ("alpha", "beta"):
        assert allowed(name).high == PARAMS[name].usual[1] == 0.5
        assert not allowed(name).high_open


def test_the_smallest_beta_is_refused_below_and_certified_at():
    """β below BETA_MIN asks for a power that rounds to (or within the powers' precision of)
    1: refused in one line, where the search had answered too few topics silently (β = 1e-20:
    1,615 topics for a one-way ANOVA that needs 1,986; found by a reviewer with scipy's
    ncf). At BETA_MIN itself the exact answer is certified by an independent computation:
    scipy.stats's noncentral F lower tail (the Type II error itself, no 1 − β to round) at the
    F point of scipy.stats.f, at most β at n and above it at n − 1."""
    from scipy import stats

    import topicsetsize as tss
    from topicsetsize.params import BETA_MIN

    for beta in (1e-20, 1e-12, np.nextafter(BETA_MIN, 0)):
        with pytest.raises(InputError, match=r"beta=.* is out of range: allowed 1e-09 <= beta"):
            tss.anova_n(0.05, beta, 0.1, 0.0601, 10, method="exact")
    n = tss.anova_n(0.05, BETA_MIN, 0.1, 0.0601, 10, method="exact")

    def type_two_error(topics):
        dfn, dfd = 9, 10 * (topics - 1)
        w = stats.f.isf(0.05, dfn, dfd)
        return stats.ncf.cdf(w, dfn, dfd, topics * 0.1 ** 2 / (2 * 0.0601))
    assert type_two_error(n) <= BETA_MIN < type_two_error(n - 1)


@pytest.mark.parametrize("value", [
    np.array([5 + 1j]), ["5"], np.array(["5"]), [b"5"], [True, 5], np.array([True]),
    np.array(["2020-01-01"], dtype="datetime64[D]"), np.ma.array([5, 3], mask=[False, True]),
    [[2, 3], [4]], 10**400, [10**400], -(10**400)])
def test_only_real_numbers_are_taken(value):
    # an input review (2026-12-07): numpy read a complex m as its real part (with a warning), a
    # list of text, a date or a bool as numbers, and a masked value as its data; an int beyond
    # the floats raised OverflowError, which is no InputError: each is now one line
    with pytest.raises(InputError) as info:
        check("m", value)
    assert str(info.value).startswith("m=") and str(info.value).endswith(
        "is not a number: allowed 2 <= m <= 1000000000 (a whole number)")


@pytest.mark.parametrize("value", [[5, 3], (5, 3), np.array([5, 3]), np.ma.array([5, 3]),
                                   [5.0, np.float32(3)], [np.int64(5), 3], [[5], [3]]])
def test_numbers_of_any_real_type_are_taken(value):
    assert check("m", value).ravel().tolist() == [5, 3]
