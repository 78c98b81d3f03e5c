r"""Whitespace-separated text with a fixed number of fields a line: TREC run and qrels files.

:func:`read_fields` splits a file as pandas' C reader splits it (``sep=r"\s+"``, nothing quoted,
blank lines skipped) and returns its columns (:class:`Fields`). Where the text is plain (ASCII,
no control character other than tab and newline, a line ending in ``\n`` or ``\r\n``, every
line holding exactly the fields asked for, no blank line), it is split in one vectorised pass
over its bytes, and a column of decimal numbers is parsed without a Python call per line; any
other text (and any failure) is read by pandas, whose checks and one-line errors (naming the
file and line) then apply. Both give the same fields, and numbers equal to Python's ``float()``
of their text bit for bit (see :meth:`Fields.numbers`), so which reader read a file never
changes a value.
"""

from __future__ import annotations

import gzip
import lzma
import operator
import tarfile
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from .formats.common import looks_binary, parse_floats, parse_texts

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Fields", "read_fields", "plain_blocks"]

#: The compressions pandas infers from a file name (``bzip2``: pandas says ``bz2``).
_COMPRESSED = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zip": "zip", ".zst": "zstd",
               ".tar": "tar"}
#: Names that pandas reads as tar archives (``pandas.io.common.extension_to_compression``).
_TAR = (".tar", ".tar.gz", ".tar.bz2", ".tar.xz")
#: What a failed read or decompression raises (zlib, lzma and zipfile have their own).
_READ_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile,
                tarfile.TarError)
#: 10**k as floats, exact (k <= 22), for the decimals of :meth:`Fields.numbers`.
_POW10 = np.array([float(10 ** k) for k in range(23)])
#: What each byte is to a decimal: its digit, 10 the point, 11 a minus, 12 anything else.
_KIND = np.full(256, 12, np.uint8)
_KIND[48:58], _KIND[46], _KIND[45] = np.arange(10), 10, 11
#: Bytes (of the text) and rows (of a column) handled at once: what bounds the temporary arrays.
_CHUNK, _ROWS = 1 << 16, 1 << 12
#: Bytes of text read at a time by :func:`plain_blocks` (cut at the last newline): a quarter of
#: a MiB, so that the vectorised steps of a block are few for the rows they handle (a quarter
#: less CPU than 64 KiB reading a run file) while a block's fields stay a few MiB.
BLOCK = 1 << 18
#: Most digits a decimal may have for the vectorised parse: below 2**53, so exact as a double.
_DIGITS = 15


class Fields:
    """The columns of a text with ``k`` fields a line.

    Made by :func:`read_fields`; ``line`` holds each row's 1-based line number in the file.
    """

    def __init__(self, data: bytes | None, bounds: np.ndarray | None, frame=None,
                 first: int = 1) -> None:
        self._data, self._bounds, self._frame = data, bounds, frame   # bounds: (n, k, 2)
        if frame is not None:
            self.line = frame.index.to_numpy()
        else:
            self.line = np.arange(first, first + len(bounds))

    def __len__(self) -> int:
        return len(self.line)

    @property
    def vectorised(self) -> bool:
        """Whether the file was split in one vectorised pass (else by pandas)."""
        return self._frame is None

    def strings(self, j: int) -> list[str]:
        """Column ``j`` as text."""
        if self._frame is not None:
            return self._frame.iloc[:, j].tolist()
        # The column's bytes, each field with the (blank) byte after it, split in one call a
        # block of rows.
        out: list[str] = []
        for first in range(0, len(self), _ROWS):
            out += self._bytes(j, first, first + _ROWS).tobytes().decode("ascii").split()
        return out

    def cell(self, j: int, i: int) -> str:
        """The text of column ``j`` at row ``i`` (0-based)."""
        if self._frame is not None:
            return self._frame.iat[i, j]
        start, end = self._bounds[i, j]
        return self._data[start:end].decode("ascii")

    def numbers(self, j: int) -> np.ndarray:
        """Column ``j`` as numbers, exactly as :func:`~topicsetsize.matrices.formats.common.
        parse_floats` reads it (Python's ``float()``; NaN where a field is not a number).

        Where every field is a plain decimal (``-?d*.?d*``, at least one digit, at most 15),
        it is parsed at once: the digits as a whole number m below 10**15 and f digits after
        the point give m / 10**f, both exact as doubles, and an IEEE division is correctly
        rounded, as ``float()`` is (Clinger's fast path), so the value is the same bit for bit.
        """
        if self._frame is None:
            values = self._decimals(j)
            if values is not None:
                return values
        return parse_texts(self.strings(j)) if self._frame is None else \
            parse_floats(self._frame.iloc[:, j])

    def _bytes(self, j: int, first: int, last: int) -> np.ndarray:
        """The bytes of column ``j`` in rows ``first`` to ``last``, each field followed by the
        byte after it."""
        start, end = self._bounds[first:last, j, 0], self._bounds[first:last, j, 1] + 1
        size = end - start
        offset = np.cumsum(size, dtype=size.dtype) - size
        index = np.arange(int(size.sum()), dtype=size.dtype) + np.repeat(start - offset, size)
        return np.frombuffer(self._data, np.uint8)[index]

    def _decimals(self, j: int) -> np.ndarray | None:
        """Column ``j`` parsed at once where every field is a plain decimal, else None: one
        pass a byte position over the rows (Horner's rule on the digits)."""
        start, size = self._bounds[:, j, 0], self._bounds[:, j, 1] - self._bounds[:, j, 0]
        width = int(size.max()) if len(start) else 0
        if not 0 < width <= _DIGITS + 2:
            return None
        text = np.frombuffer(self._data, np.uint8)
        whole = np.zeros(len(start))        # exact: an integer below 10**15 < 2**53
        digits, after, points = (np.zeros(len(start), np.int8) for _ in range(3))
        bad = np.zeros(len(start), bool)
        for k in range(width):
            # 0-9 a digit, 10 the point, 11 a minus, 12 anything else, 13 past the field's end
            kind = np.where(k < size, _KIND[text[np.minimum(start + k, len(text) - 1)]], 13)
            digit = kind < 10
            bad |= (kind == 12) if k == 0 else (kind == 12) | (kind == 11)
            whole = np.where(digit, whole * 10 + kind, whole)
            digits += digit
            after += digit & (points > 0)
            points += kind == 10
        if bad.any():
            return None
        if (points > 1).any() or (digits < 1).any() or (digits > _DIGITS).any():
            return None
        value = whole / _POW10[after]
        return np.where(text[start] == 45, -value, value)

    def factorize(self, j: int) -> tuple[list[str], np.ndarray]:
        """``(uniques, codes)`` of column ``j`` as :func:`pandas.factorize` gives them (uniques
        in order of first appearance), from its runs of equal neighbours (a run or qrels file
        lists a topic's lines together, so only the first of each run is made text)."""
        starts = np.r_[0, np.flatnonzero(~self.same_as_previous(j)) + 1] if len(self) else \
            np.zeros(0, np.intp)
        index: dict = {}
        block = [index.setdefault(self.cell(j, i), len(index)) for i in starts.tolist()]
        return list(index), np.repeat(np.asarray(block, np.intp), np.diff(np.r_[starts, len(self)]))

    def same_as_previous(self, j: int) -> np.ndarray:
        """Whether each row's field ``j`` (from the second row on) equals the row before's."""
        if self._frame is not None:
            column = self.strings(j)
            return np.fromiter(map(operator.eq, column[1:], column[:-1]), bool,
                               max(len(column) - 1, 0))
        start, size = self._bounds[:, j, 0], self._bounds[:, j, 1] - self._bounds[:, j, 0]
        same = size[1:] == size[:-1]
        text = np.frombuffer(self._data, np.uint8)
        for k in range(int(size.max()) if len(size) else 0):
            at = text[np.minimum(start + k, len(text) - 1)]
            same &= (at[1:] == at[:-1]) | (k >= size[1:])
        return same


def read_fields(path, fields) -> Fields:
    """Whitespace-separated text with exactly ``len(fields)`` fields a line (blank lines
    skipped), as pandas' C reader splits it; a compressed file (``.gz``, ...) is read as well.

    Raises
    ------
    FileNotFoundError, IsADirectoryError
        ``path`` is missing or a folder.
    ValueError
        One line naming the file and line: the file is empty, is not text (binary), a line
        does not hold ``len(fields)`` fields, or a field holds a NUL character.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a folder, expected a file")
    data = _text(path)
    if data is not None:
        fast = _split(data, len(fields))
        if fast is not None:
            return fast
        if looks_binary(data, nul=False):
            raise InputError(f"{path}: a binary file, not a {_kind(fields)} file (expected "
                             "whitespace-separated text, or such text gzipped, named .gz)")
        nul = data.find(b"\0")     # not for pandas: it keeps a NUL, or cuts the field (2.0)
        if nul >= 0:
            end = data.find(b"\n", nul)
            cells = data[data.rfind(b"\n", 0, nul) + 1:end if end >= 0 else len(data)].split()
            j = next(j for j, cell in enumerate(cells) if b"\0" in cell)
            raise _nul_error(path, data.count(b"\n", 0, nul) + 1,
                             fields[j] if j < len(fields) else f"field {j + 1}",
                             cells[j].decode("utf-8", "replace"))
    frame = _read_frame(path, fields)
    if data is None:                # a .bz2, .xz, ... file: recent pandas keeps a NUL (2.0 cuts)
        for name in fields:
            nul = frame[name].str.contains("\0", regex=False).to_numpy()
            if nul.any():
                raise _nul_error(path, frame.index[nul.argmax()], name,
                                 frame[name].iloc[nul.argmax()])
    return Fields(None, None, frame)


def _text(path: Path) -> bytes | None:
    """The bytes of a plain or gzipped file, None where it is compressed otherwise or cannot be
    read so (pandas reads it and says what is wrong)."""
    compression = _compression(path)
    if compression not in (None, "gzip"):
        return None
    try:
        data = path.read_bytes()
        return gzip.decompress(data) if compression == "gzip" else data
    except (*_READ_ERRORS, ValueError):
        return None


def _compressed_ending(path: Path) -> tuple[str, str] | None:
    """The ending of a file's name that names a compression, and the compression, as
    ``pandas.io.common.infer_compression`` infers it (case-insensitive, the longest ending:
    ``.tar.gz`` is a tar archive), without importing pandas (issue 28.3); None for none."""
    name = path.name.lower()
    endings = [(end, "tar") for end in _TAR] + list(_COMPRESSED.items())
    return max(((end, kind) for end, kind in endings if name.endswith(end)),
               key=lambda found: len(found[0]), default=None)


def _compression(path: Path) -> str | None:
    """The compression of :func:`_compressed_ending` (None for none)."""
    found = _compressed_ending(path)
    return None if found is None else found[1]


def _kind(fields) -> str:
    return "TREC run" if len(fields) == 6 else "TREC qrels"


def _nul_error(path, line: int, name: str, value: str) -> InputError:
    return InputError(f"{path}, line {line}: the {name} field {value!r} holds a NUL character "
                      "(trec_eval would cut it there)")


def plain_blocks(path, k: int, size: int | None = None):
    """The file's :class:`Fields`, a block of whole lines at a time, as :func:`read_fields`
    splits a plain file (module notes), so that memory holds one block of the text.

    Parameters
    ----------
    path : str or Path
        The file (plain, or gzip-compressed where named ``.gz``).
    k : int
        The fields each line must hold.
    size : int, optional
        About how many bytes of text a block holds (:data:`BLOCK` where None); a block ends at
        a newline, so a longer line makes a longer block.

    Yields
    ------
    Fields or None
        Each block's fields in file order (``line`` numbered in the file), the last one where
        the file lacks a final newline as if it had one. None, and nothing more, where the file
        is empty, cannot be read, is compressed otherwise, or a block is not plain: then
        :func:`read_fields` must read the whole file (it gives the file's fields, or its
        error). A file is plain exactly when each of its blocks is, so the blocks together
        hold the fields :func:`read_fields` gives.
    """
    path = Path(path)
    compression = _compression(path)
    if compression not in (None, "gzip") or not path.is_file():
        yield None
        return
    size = BLOCK if size is None else max(1, int(size))
    first, rest = 1, b""
    try:
        with (gzip.open(path, "rb") if compression == "gzip" else open(path, "rb")) as stream:
            while True:
                chunk = stream.read(size)
                cut = chunk.rfind(b"\n")
                if chunk and cut < 0:
                    rest += chunk                   # no line ends in it: read on
                    continue
                data, rest = rest + chunk[:cut + 1], chunk[cut + 1:]   # at the end: rest
                if not data:
                    if first == 1:
                        yield None                  # an empty file
                    return
                fields = _split(data, k, first)
                yield fields
                if fields is None:
                    return
                first += len(fields)
    except (*_READ_ERRORS, ValueError):
        yield None


def _split(data: bytes, k: int, first: int = 1) -> Fields | None:
    """:class:`Fields` of text ``data`` (its first line numbered ``first``) where it is plain
    (module notes), else None."""
    if not data.isascii() or not data:
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    text = np.frombuffer(data, np.uint8)
    newlines, tabs, returns = data.count(b"\n"), data.count(b"\t"), data.count(b"\r")
    if returns and data.count(b"\r\n") != returns:
        return None                         # a \r not ending a line: pandas' own rules
    if sum(np.count_nonzero(text[a:a + _CHUNK] < 32) for a in range(0, len(text), _CHUNK)) != \
            newlines + tabs + returns:
        return None                         # \v, \f, NUL, ...: pandas' own rules
    kind = np.int32 if len(text) < 2 ** 31 else np.int64
    # Where a field starts or ends: a change between a blank byte (space, tab, newline) and
    # not, found a block of bytes at a time (no array of the file's size).
    edges = _where(lambda a, b: np.diff(text[a:b + 1] <= 32), len(text) - 1, kind) + 1
    if text[0] > 32:
        edges = np.r_[np.zeros(1, kind), edges]
    if len(edges) != 2 * k * newlines:
        return None
    bounds = edges.reshape(newlines, k, 2)
    ends = _where(lambda a, b: text[a:b] == 10, len(text), kind)
    # Each line's k fields lie between its newline and the one before it.
    if (bounds[:, -1, 1] > ends).any() or (bounds[1:, 0, 0] < ends[:-1]).any():
        return None
    return Fields(data, bounds, first=first)


def _where(test, n: int, kind) -> np.ndarray:
    """The positions below ``n`` where ``test(a, b)`` (a boolean array of positions a to b) is
    true, as ``kind``, found a block at a time."""
    parts = [np.flatnonzero(test(a, min(a + _CHUNK, n))).astype(kind) + kind(a)
             for a in range(0, n, _CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, kind)


def _read_frame(path: Path, fields) -> pd.DataFrame:
    """The fields as text by pandas' C reader; the index is the 1-based line number."""
    import pandas as pd
    k = len(fields)
    try:
        frame = pd.read_csv(path, sep=r"\s+", header=None, names=range(k + 1), dtype=str,
                            skip_blank_lines=False, engine="c", quoting=3,
                            keep_default_na=False, na_values=[""])
    except pd.errors.EmptyDataError:
        raise InputError(f"{path}: the file is empty") from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read as whitespace-separated text: "
                         f"{str(exc).strip().splitlines()[0]}") from None
    except _READ_ERRORS as exc:
        raise _read_error(exc, path, fields) from None
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    missing = frame.isna().to_numpy()                   # one pass over the cells
    blank = missing.all(axis=1)                         # blank lines
    if blank.any():
        frame, missing = frame[~blank], missing[~blank]
    if frame.empty:
        raise InputError(f"{path}: the file is empty")
    wrong = ~missing[:, k] | missing[:, :k].any(axis=1)
    if wrong.any():
        line = frame.index[wrong.argmax()]
        got = int(frame.loc[line].notna().sum())
        raise InputError(f"{path}, line {line}: expected {k} fields ({' '.join(fields)}), "
                         f"got {got}")
    return frame.drop(columns=k).set_axis(list(fields), axis=1)


def _read_error(exc: Exception, path: Path, fields) -> Exception:
    """A one-line error naming ``path`` for a failed read: a file named ``.gz`` (``.bz2``, ...)
    that is not compressed so (``Not a gzipped file (b'10')``), or an error of the system that
    names no file (``/proc/self/mem``: EIO)."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return exc                                  # open() named the file
    found = _compressed_ending(path)
    what = _kind(fields)
    if found is not None:
        end, kind = found
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0].rstrip(":")
        return InputError(f"{path}: named {end} but not a valid {kind} file ({reason}): "
                          f"expected {kind}-compressed {what} text; if it is plain text, "
                          f"rename it without {end}")
    if isinstance(exc, OSError):
        return OSError(exc.errno, f"cannot read: {exc.strerror or exc}", str(path))
    return exc
