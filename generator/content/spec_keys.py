"""Typed getters of a workbook spec's keys (:mod:`content.spec_reader`): each puts the spec file
and the key in front of its error, in one line."""

from __future__ import annotations

from topicsetsize.errors import InputError
from topicsetsize.params import check

from .inputs import check_input

__all__ = ["SpecKeys"]


class SpecKeys:
    """Typed getters that put the spec file and the key in front of every error."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, text: str):
        raise InputError(f"{self.source}: {key}: {text}")

    def keys(self, table: dict, allowed, prefix: str):
        for k in table:
            if k not in allowed:
                name = f"{prefix}.{k}" if prefix else k
                raise InputError(f"{self.source}: unknown key {name!r} (allowed: "
                                 f"{', '.join(allowed)})")

    def is_table(self, value, key: str):
        if not isinstance(value, dict):
            self.fail(key, f"must be a table of keys, got {value!r}")

    def table_list(self, data: dict, key: str) -> list:
        value = data.get(key, [])
        if not isinstance(value, list) or any(not isinstance(x, dict) for x in value):
            self.fail(key, f"must be an array of tables ([[{key}]])")
        return value

    def text(self, data: dict, key: str, *, required: bool = False, prefix: str = "") -> str:
        name = f"{prefix}.{key}" if prefix else key
        if key not in data:
            if required:
                self.fail(name, "is missing")
            return ""
        value = data[key]
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail(name, f"{value!r} must be a non-empty string")
        return value

    def number(self, data: dict, key: str, param: str, *, default=None, required: bool = False,
               prefix: str = ""):
        name = f"{prefix}.{key}" if prefix else key
        if key not in data:
            if required:
                self.fail(name, "is missing")
            return default
        try:    # α and β as the workbook's inputs take them (at most one half)
            return check_input(param, data[key]) if param in ("alpha", "beta") else check(
                param, data[key], allow_array=False)
        except InputError as exc:
            self.fail(name, str(exc))

    def grid(self, data: dict, key: str, param: str, *, required: bool, prefix: str = ""):
        name = f"{prefix}.{key}" if prefix else key
        if key not in data:
            if required:
                self.fail(name, "is missing: the tables need a list of values")
            return []
        value = data[key]
        if not isinstance(value, list) or not value:
            self.fail(name, f"{value!r} must be a non-empty list of numbers")
        try:
            values = check(param, value)
        except InputError as exc:
            self.fail(name, str(exc))
        if len(set(values.tolist())) != len(values):
            self.fail(name, f"{value!r} repeats a value")
        return values.tolist()

    def choice(self, data: dict, key: str, choices, *, default: str, prefix: str = "") -> str:
        value = data.get(key, default)
        if value not in choices:
            name = f"{prefix}.{key}" if prefix else key
            self.fail(name, f"{value!r} is not one of {', '.join(repr(c) for c in choices)}")
        return value
