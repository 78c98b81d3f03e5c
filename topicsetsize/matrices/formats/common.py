"""Building blocks shared by the file formats: text decoding, CSV rows, labels, cells.

A parser turns a file into :class:`Cells` (raw text cells, topics x runs, with where each one
came from); :mod:`topicsetsize.matrices.readers` checks them and turns them into the float matrix.
"""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...atomic import read_whole
from ...errors import InputError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SUMMARY_TOPIC", "MISSING_TOKENS", "BINARY_MAGIC", "Cells", "folder_files",
           "refuse_trec_input", "label_key", "LABEL_NOISE", "looks_binary", "nonempty_bytes",
           "decode_text", "guess_delimiter", "split_fields", "is_numeric", "parse_texts",
           "csv_rows", "trimmed_width", "as_label", "pick_measure", "cells_from_records"]

SUMMARY_TOPIC = "all"          # trec_eval's summary rows
#: Cell texts read as "no score here" (case-insensitive, after stripping blanks).
MISSING_TOKENS = frozenset({"", "na", "nan", "n/a", "null", "none"})
BINARY_MAGIC = (b"\x1f\x8b", b"BZh", b"\x89PNG", b"%PDF", b"\xd0\xcf\x11\xe0", b"7z\xbc\xaf")


class Cells(NamedTuple):
    """Raw cells (topics × runs, object values; None = absent) and where each one came from."""

    frame: pd.DataFrame
    where: object               # callable (i, j) -> str, e.g. "line 4, field 3"
    topic_ids: bool | None = None   # wide files: whether the file had a topic-id column
    corner: str = ""            # wide files: the header's first cell, over the row labels


def nonempty_bytes(path: Path, data: bytes | None = None) -> bytes:
    """The bytes of ``path`` (or ``data``, already read from it); an empty file is an error."""
    if data is None:
        data = read_whole(path)
    if not data.strip():
        raise InputError(f"{path}: the file is empty")
    return data


def looks_binary(data: bytes, *, nul: bool = True) -> bool:
    """Whether ``data``'s first 8 KiB look binary: they start with a known magic number, or more
    than one byte in 20 is a control character other than NUL, or they hold a NUL (with
    ``nul=False``: more than one NUL, and more than one byte in 20; a text file with a stray
    NUL is then not binary).

    >>> run = b"1 Q0 d\\x002 1 2.0 t\\n" + b"1 Q0 d3 2 1.0 t\\n" * 3
    >>> looks_binary(run), looks_binary(run, nul=False), looks_binary(b"1 0 d\\x002 0", nul=False)
    (True, False, False)
    """
    head = data[:8192]
    nuls = head.count(0)
    control = sum(byte < 32 and byte not in b"\t\n\r\f\v\b" for byte in head) - nuls
    return (nuls > (0 if nul else max(1, len(head) // 20)) or head.startswith(BINARY_MAGIC)
            or control > len(head) // 20)


def decode_text(path: Path, data: bytes) -> str:
    if looks_binary(data):
        packed = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"7z\xbc\xaf": "7-Zip"}
        kind = next((name for magic, name in packed.items() if data.startswith(magic)), None)
        if kind == "gzip":          # a gzipped run file or qrels: say what to do with it (a
            refuse_trec_input(f"{path} (gzip-compressed)", _gunzipped_head(data))  # review)
        raise InputError(f"{path}: a {kind + '-compressed' if kind else 'binary'} file, not a "
                         "score matrix (expected CSV/TSV text, trec_eval output, the long format "
                         "or an .xlsx workbook" + ("): decompress it first (run files and qrels "
                                                   "may be gzipped; a matrix may not)"
                                                   if kind else ")"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _gunzipped_head(data: bytes) -> str:
    """The first 8 KiB of the gzip stream ``data``, decompressed ("" where it cannot be)."""
    import zlib

    try:
        head = zlib.decompressobj(wbits=31).decompress(data[:65536], 8192)
    except zlib.error:
        return ""
    return head.decode("utf-8", "replace")


def guess_delimiter(line: str) -> str | None:
    """The field delimiter of a header line: tab, semicolon or comma, else None (blanks).

    A tab wins; otherwise the more frequent of semicolon and comma (a semicolon-separated file,
    as a spreadsheet with decimal commas saves it, has no comma in its header).

    >>> guess_delimiter("topic;a;b"), guess_delimiter("t,a,b"), guess_delimiter("t,a;b,c")
    (';', ',', ',')
    >>> guess_delimiter("topic" + chr(9) + "a;b") == chr(9)
    True
    >>> guess_delimiter("topic a b") is None
    True
    >>> guess_delimiter('topic,"a' + chr(9) + 'b",c')      # a tab inside quotes is a name's
    ','
    """
    line = re.sub(r'"[^"]*"', "", line)         # delimiters inside quoted names do not count
    if "\t" in line:
        return "\t"
    semicolons, commas = line.count(";"), line.count(",")
    if semicolons or commas:
        return ";" if semicolons > commas else ","
    return None


def split_fields(line: str, delimiter: str | None) -> list[str]:
    return line.split() if delimiter is None else next(csv.reader([line], delimiter=delimiter))


def _float_or_nan(value) -> float:
    if isinstance(value, str):
        if "_" in value:                      # float() reads "1_000"; a score file never means it
            return math.nan
        try:
            return float(value)
        except ValueError:
            return math.nan
    if isinstance(value, (bool, np.bool_)):   # a TRUE/FALSE cell of a workbook is no score
        return math.nan
    if isinstance(value, (int, float, np.number)):
        return float(value)
    return math.nan


def parse_floats(values: pd.Series) -> np.ndarray:
    """The numbers in a column of text (or numbers), exactly as Python's float() reads them.

    NaN where a cell is not a number (or holds a "_", which float() would skip). Not
    :func:`pandas.to_numeric`: pandas 2.x parses text with a fast routine that can be ~5e-13
    off the correctly rounded value, so a score matrix or a run's ranking would depend on the
    pandas version. :func:`parse_texts` of the cells.

    >>> import pandas as pd
    >>> parse_floats(pd.Series(["0.1", " 2 ", "x", None, "1_0", 3])).tolist()
    [0.1, 2.0, nan, nan, nan, 3.0]
    """
    if values.dtype.kind in "biuf":
        return values.to_numpy(dtype=float)
    return parse_texts(values.to_numpy(object).tolist())


def parse_texts(texts: list) -> np.ndarray:
    """:func:`parse_floats` of a list (text cells, or numbers), without pandas: float() of each,
    in one pass where every cell is text without a "_" and a number (a fifth cheaper than
    pandas' ``astype(float)``), else cell by cell (NaN where not a number).

    >>> parse_texts(["0.1", "1e-3", " 2 "]).tolist(), parse_texts(["1_0", "x", None]).tolist()
    ([0.1, 0.001, 2.0], [nan, nan, nan])
    >>> from decimal import Decimal
    >>> parse_texts([Decimal("2.5"), 1, np.float32(0.5)]).tolist()      # float() of each
    [2.5, 1.0, 0.5]
    >>> parse_texts([0.5, True]).tolist()              # a workbook's TRUE is not the score 1
    [0.5, nan]
    """
    try:
        joined = "".join(texts)
    except TypeError:                           # a cell that is not text (Decimal, None, ...)
        # a bool (a workbook's TRUE) is no number: cell by cell, where it reads as NaN
        joined = "_" if any(isinstance(t, (bool, np.bool_)) for t in texts) else "".join(
            map(str, texts))
    if "_" not in joined:
        try:
            return np.fromiter(map(float, texts), float, len(texts))
        except (ValueError, TypeError):         # not a number, None
            pass
    return np.fromiter(map(_float_or_nan, texts), float, len(texts))


def is_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_rows(text: str, path: Path) -> list[tuple[int, list[str]]]:
    """Non-blank rows of a CSV/TSV text with their line numbers; raises on ragged rows."""
    delimiter = guess_delimiter(next(line for line in text.splitlines() if line.strip()))
    reader = csv.reader(io.StringIO(text), delimiter=delimiter or " ", skipinitialspace=True)
    rows = []
    try:
        for fields in reader:
            if any(f.strip() for f in fields):
                rows.append((reader.line_num, [f.strip() for f in fields]))
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: {exc}") from None
    widths = [trimmed_width(fields) for _, fields in rows]
    width = max(widths)
    if len(rows) > 1 and len(rows[0][1]) == width - 1 == min(len(f) for _, f in rows[1:]) - 1:
        rows[0] = (rows[0][0], [""] + rows[0][1])      # R's write.table: no corner cell
        widths[0] += 1
    for line, fields in rows:
        if len(fields) < width:
            widest = rows[widths.index(width)][0]
            raise InputError(f"{path}: ragged rows: line {line} has {len(fields)} fields but "
                             f"line {widest} has {width}")
    return [(line, fields[:width]) for line, fields in rows]


def trimmed_width(fields: list[str]) -> int:
    """Number of fields without the trailing empty ones."""
    width = len(fields)
    while width and not fields[width - 1]:
        width -= 1
    return width


def as_label(value) -> str:
    """A topic id or run name as text (Excel numbers 301.0 -> '301')."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value).strip()


def pick_measure(measure, available, path) -> str:
    names = list(available)
    if measure is None and len(names) == 1:
        return names[0]
    if measure in available:
        return measure
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
    if measure is None:
        raise InputError(f"{path}: several measures; choose one with measure= (--measure): "
                         f"{shown}")
    if not names:
        raise InputError(f"{path}: no per-topic scores in the file")
    raise InputError(f"{path}: no measure {measure!r}; the measures in the file are: {shown}")


def cells_from_records(records: dict[str, dict[str, tuple[str, str]]],
                        origins: dict[str, str]) -> Cells:
    """Cells from {run: {topic: (value text, where)}}; topics in order of first appearance."""
    import pandas as pd
    topics = list(dict.fromkeys(t for by_topic in records.values() for t in by_topic))
    runs = list(records)
    frame = pd.DataFrame({run: [records[run].get(t, (None,))[0] for t in topics]
                          for run in runs}, index=topics, dtype=object)

    def where(i: int, j: int) -> str:
        run, topic = runs[j], topics[i]
        if topic in records[run]:
            return records[run][topic][1]
        return f"no line for it{' in ' + origins[run] if run in origins else ''}"

    return Cells(frame, where)


def folder_files(folder: Path, what: str) -> list[Path]:
    """The files of ``folder`` (dot files skipped), in name order; a visible sub-folder is
    refused in one line: its files would be left out without a word (a run lost: the CLEF
    layout, one folder per team, read as the one run at the top). ``what`` names the files
    (``"run files"``).

    >>> import tempfile
    >>> top = Path(tempfile.mkdtemp())
    >>> (top / "TeamA").mkdir()
    >>> folder_files(top, "run files")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: ...: holds the folder TeamA, whose run files would not be read ...
    """
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    folders = [p.name for p in entries if p.is_dir()]
    if folders:
        named = ("the folder " if len(folders) == 1 else f"{len(folders)} folders (") \
            + ", ".join(folders[:5]) + (" ..." if len(folders) > 5 else "") \
            + ("" if len(folders) == 1 else ")")
        raise InputError(f"{folder}: holds {named}, whose {what} would not be read (sub-folders "
                         f"are not searched): put all the {what} in one folder")
    return [p for p in entries if p.is_file()]


#: File kinds that are no score matrix, by suffix: read as one, a workbook spec said "ragged
#: rows: line 1 has 15 fields but line 21 has 31" (a review, 2026-12-07).
NOT_MATRICES = {".toml": "TOML", ".json": "JSON"}


def refuse_other_input(path) -> None:
    """Refuse, in one line, a file that is no zip archive but whose suffix says it is an Excel
    workbook, or that it is no score matrix (a TOML workbook spec or budget plan, JSON);
    ``--format`` reads it anyway.

    >>> refuse_other_input("spec.toml")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: spec.toml: a TOML file, not a score matrix: give a CSV/TSV, .xlsx, \
long-format or trec_eval -q file of topics x runs
    """
    suffix = Path(path).suffix
    if suffix.lower() in (".xlsx", ".xlsm"):
        raise InputError(f"{path}: named {suffix} but not an Excel workbook (not a zip "
                         "archive); if it is CSV/TSV text, rename it or give fmt='wide' "
                         "(--format wide)")
    kind = NOT_MATRICES.get(suffix.lower())
    if kind:
        raise InputError(f"{path}: a {kind} file, not a score matrix: give a CSV/TSV, .xlsx, "
                         "long-format or trec_eval -q file of topics x runs")


def refuse_trec_input(path, head: str) -> None:
    """Refuse, in one line, a TREC run file (``qid Q0 docno rank score tag``) or qrels file
    (``qid 0 docno relevance``) given where a score matrix belongs: read as one, a qrels file
    said "several measures: D8, D36, ..." and a run "duplicate run name '1'". ``head``: the
    file's first lines (five are looked at; every one must have the shape).

    >>> refuse_trec_input("r.txt", "401 Q0 d1 1 2.5 bm25\\n401 Q0 d2 2 1.5 bm25\\n")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: r.txt: a TREC run file (qid Q0 docno rank score tag), not a score \
matrix: evaluate the runs with --runs FOLDER --qrels FILE (and --measure)
    """
    lines = [line.split() for line in head.split("\n", 8)[:8] if line.strip()][:5]
    if len(lines) < 2:
        return
    # a run: rank and score numbers, and a word among Q0 and the tag (a wide file's rows are
    # all numbers, its header all names); qrels: iteration 0 and a whole relevance
    run = all(len(f) == 6 and is_numeric(f[3]) and is_numeric(f[4])
              and not (is_numeric(f[1]) and is_numeric(f[5])) for f in lines)
    qrels = all(len(f) == 4 and f[1] in ("0", "Q0") and re.fullmatch(r"-?\d+", f[3])
                for f in lines)
    if run or qrels:
        what = ("a TREC run file (qid Q0 docno rank score tag)" if run else
                "a TREC qrels file (qid iteration docno relevance)")
        raise InputError(f"{path}: {what}, not a score matrix: evaluate the runs with --runs "
                         "FOLDER --qrels FILE (and --measure)")


#: What :func:`label_key` leaves out of a label.
LABEL_NOISE = " _-.\t"


def label_key(label) -> str:
    """A label as the readers compare it with their words (an id column's header, a summary
    row's name): lower case, without blanks, ``_``, ``-`` and ``.``.

    >>> label_key("Topic_No."), label_key(" Std Dev")
    ('topicno', 'stddev')
    """
    return "".join(ch for ch in str(label).lower() if ch not in LABEL_NOISE)
