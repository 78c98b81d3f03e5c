"""Reading TOML files (workbook specs, budget plans, requirement files): one loader, one-line
errors that name the file, and TOML's own line and column.

Python 3.11+ reads TOML with the standard library's :mod:`tomllib`; Python 3.10 with the
``tomli`` package it was taken from (a dependency there).

>>> import tempfile, pathlib
>>> f = pathlib.Path(tempfile.mkdtemp()) / "plan.toml"
>>> _ = f.write_text("m = 10\\nmin_d = 0.1.2\\n")
>>> read_toml(f)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
topicsetsize.InputError: .../plan.toml: not valid TOML: ... (at line 2, column 12)
>>> _ = f.write_text("m = 10\\n")
>>> read_toml(f)
{'m': 10}
"""

from __future__ import annotations

from pathlib import Path

from .errors import InputError

__all__ = ["loads_toml", "read_toml"]


def _tomllib():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib


def loads_toml(text: str, path) -> dict:
    """The TOML document ``text`` read from ``path`` (named in the error)."""
    tomllib = _tomllib()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None


def read_toml(path) -> dict:
    """The TOML file at ``path``: a one-line error where it is not UTF-8 text or not TOML.

    The caller says first what a missing file or a folder is (``no such spec file``).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")     # once: a pipe cannot be read twice
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text (UTF-8) TOML file") from None
    except OSError as exc:      # a read error names no file (/proc/self/mem: EIO)
        if exc.filename is not None:
            raise
        raise type(exc)(exc.errno, f"cannot read: {exc.strerror or exc}", str(path)) from None
    return loads_toml(text, path)
