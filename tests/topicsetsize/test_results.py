"""The rule for results (docs/results.md), checked over the public API: every class a public
function returns is a frozen dataclass with a numpydoc Attributes section naming each field,
except the two small groups that are unpacked (NamedTuples, as scipy's ConfidenceInterval)."""

from __future__ import annotations

import dataclasses
import re
import typing

import pytest

import topicsetsize as tss

#: Rule 4: the pairs and intervals that callers unpack stay NamedTuples.
UNPACKED = {"KendallTau", "StandardisationFactors"}

RESULTS = sorted(name for name in tss.__all__ if isinstance(getattr(tss, name), type)
                 and not issubclass(getattr(tss, name), Exception))


def _fields(cls) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    return list(cls._fields)


@pytest.mark.parametrize("name", RESULTS)
def test_result_classes_follow_the_rule(name):
    cls = getattr(tss, name)
    if name in UNPACKED:
        assert issubclass(cls, tuple) and hasattr(cls, "_fields")
    else:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, name
    doc = cls.__doc__ or ""
    assert re.search(r"^\s*Attributes\n\s*-{5,}", doc, re.M), f"{name}: no Attributes section"
    section = doc.split("Attributes", 1)[1]
    missing = [f for f in _fields(cls) if not re.search(rf"^\s*(\w+, )*{f}\b", section, re.M)]
    assert not missing, f"{name}: Attributes does not name {missing}"


@pytest.mark.parametrize("name", RESULTS)
def test_a_function_returning_a_result_names_it_in_returns(name):
    """Each exported function annotated to return the class says so in its Returns section."""
    cls = getattr(tss, name)
    for fname in tss.__all__:
        f = getattr(tss, fname)
        if not callable(f) or isinstance(f, type):
            continue
        try:
            hints = typing.get_type_hints(f)
        except Exception:       # noqa: BLE001 - annotations that need names not imported
            hints = getattr(f, "__annotations__", {})
        if hints.get("return") in (cls, name):
            returns = (f.__doc__ or "").split("Returns", 1)
            assert len(returns) == 2 and name in returns[1].split("\n\n")[0] + returns[1][:400], \
                f"{fname} returns {name} but its Returns section does not name it"


def test_no_result_is_a_plain_tuple_by_accident():
    """The public result classes are exactly the declared kinds (a new NamedTuple must be a
    deliberate exception, added to UNPACKED and to docs/results.md)."""
    tuples = {n for n in RESULTS if issubclass(getattr(tss, n), tuple)}
    assert tuples == UNPACKED
