"""Requirement files: the requirements of :func:`topicsetsize.recommend` read from a TOML file
(``[[requirements]]`` tables) or a CSV file (columns label, variance, m, min_d), each checked
with one-line errors that name the file and the line (CSV) or the table and key (TOML).
"""

from __future__ import annotations

import csv
from pathlib import Path

from ..errors import InputError
from ..tomlfile import loads_toml
from .recommendation import (
    REQUIRED_KEYS,
    REQUIREMENT_KEYS,
    checked_requirement,
    clean_label,
    place_text,
)

__all__ = ["read_requirements"]


def read_requirements(path, *, settings: dict | None = None) -> list[dict]:
    """Read requirements from a TOML or CSV file (by its extension: .toml, otherwise CSV).

    TOML: one ``[[requirements]]`` table per requirement, with the keys ``variance``, ``m``,
    ``min_d`` and an optional ``label``. CSV: a header row with the columns ``variance``,
    ``m``, ``min_d`` and an optional ``label``, one requirement per line. Labels are read as
    plain text.

    Parameters
    ----------
    path : str or path-like
    settings : dict, optional
        Filled with the values of the CSV's ``method``, ``design``, ``alpha`` and ``beta``
        columns (a set of texts per column present), as ``recommend --csv`` writes them: the
        answers are computed again by the caller's settings, which can then say where the
        file's differ.

    Returns
    -------
    list of dict
        Validated requirements, ready for :func:`recommend`.

    Raises
    ------
    ValueError
        One line naming the file and the line (CSV) or the table number and key (TOML).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "needs.csv"
    >>> _ = path.write_text("label,variance,m,min_d\\nEN nDCG@3,0.0259,10,0.10\\n")
    >>> read_requirements(path)
    [{'label': 'EN nDCG@3', 'variance': 0.0259, 'm': 10, 'min_d': 0.1}]
    >>> _ = path.write_text("label,variance,m,min_d\\nEN nDCG@3,0.0259,ten,0.10\\n")
    >>> read_requirements(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: .../needs.csv, line 2 ('EN nDCG@3'): m='ten' is not a number:
    allowed 2 <= m <= 1000000000 (a whole number)
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a folder, not a requirements file")
    from ..atomic import read_whole

    try:
        text = read_whole(path).decode("utf-8-sig")     # once: a pipe is read once
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not a UTF-8 text file ({error.reason} at byte "
                         f"{error.start})") from None
    items = (_read_toml(path, text) if path.suffix.lower() == ".toml"
             else _read_csv(path, text, {} if settings is None else settings))
    if not items:
        raise InputError(f"{path}: no requirements in the file")
    return items


def _read_toml(path: Path, text: str) -> list[dict]:
    data = loads_toml(text, path)
    unknown = [k for k in data if k != "requirements"]
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} (allowed: [[requirements]] tables)")
    tables = data.get("requirements")
    if not isinstance(tables, list):
        raise InputError(f"{path}: no [[requirements]] tables")
    out = []
    for i, table in enumerate(tables, 1):
        out.append(checked_requirement(table, f"{path}: [[requirements]] table {i}"))
    return out


def _cell(text: str):
    """A CSV cell as a number where it is one; otherwise the text (the check names it)."""
    try:
        return float(text)
    except ValueError:
        return text.strip()


#: The columns ``recommend --csv`` adds to the requirements: read back, they are left out (the
#: answers are computed again from the requirements, by the method the command is given).
COMPUTED = ("requirement", "n", "power", "n_exact", "power_exact", "recommended", "method",
            "design", "alpha", "beta")
#: Among them, the settings the answers were computed by (read back for ``settings``).
SETTINGS = ("method", "design", "alpha", "beta")


def _read_csv(path: Path, text: str, settings: dict) -> list[dict]:
    reader = csv.reader(text.splitlines())
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputError(f"{path}: empty file (expected a header row: "
                         f"{', '.join(REQUIREMENT_KEYS)})") from None
    except csv.Error as error:
        raise InputError(f"{path}, line 1: {error}") from None
    for column in header:
        if column not in REQUIREMENT_KEYS + COMPUTED:
            sep = next((c for c in ";\t|" if c in column), None)    # another separator (a review)
            raise InputError(f"{path}, line 1: unknown column {column!r} " + (
                f"(its cells are separated by {sep!r}: a CSV file separates them by commas)"
                if sep else f"(allowed: {', '.join(REQUIREMENT_KEYS)}; {', '.join(COMPUTED)} "
                "as recommend --csv writes them, recomputed)"))
    if len(set(header)) < len(header):
        raise InputError(f"{path}, line 1: a column appears twice")
    for column in REQUIRED_KEYS:
        if column not in header:
            raise InputError(f"{path}, line 1: missing column {column!r} (needs "
                             f"{', '.join(REQUIRED_KEYS)}; label is optional)")
    out = []
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise InputError(f"{path}, line {line}: {len(row)} cells, the header has "
                                 f"{len(header)}{_comma_hint(row, len(header))}")
            for k, v in zip(header, row):
                if k in SETTINGS:
                    settings.setdefault(k, set()).add(v.strip())
            cells = {k: v for k, v in zip(header, row) if k not in COMPUTED}
            label = clean_label(cells.pop("label", None))
            where = place_text(f"{path}, line {line}", label)
            for key, value in cells.items():
                if not value.strip():
                    raise InputError(f"{where}: {key} is blank")
            given = {"label": label, **{k: _cell(v) for k, v in cells.items()}}
            out.append(checked_requirement(given, f"{path}, line {line}"))
    except csv.Error as error:
        raise InputError(f"{path}, line {reader.line_num}: {error}") from None
    return out


def _comma_hint(row: list[str], width: int) -> str:
    """Where a row has more cells than the header, a number with a decimal comma that may have
    split one cell in two (two whole numbers side by side; one that starts "0," first), else "".

    >>> _comma_hint(["EN", "0", "0451", "10", "0.1"], 4), _comma_hint(["a", "0.1", "2"], 4)
    (' (a decimal comma? 0,0451 is two cells: write 0.0451)', '')
    """
    pairs = [(a.strip(), b.strip()) for a, b in zip(row, row[1:])
             if a.strip().isdigit() and b.strip().isdigit()] if len(row) > width else []
    if not pairs:
        return ""
    a, b = next((p for p in pairs if p[0] == "0"), pairs[0])
    return f" (a decimal comma? {a},{b} is two cells: write {a}.{b})"
