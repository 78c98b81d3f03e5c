"""TREC run and qrels files: read and check them, with one-line errors naming the file and line.

A run file has one retrieved document per line, ``qid Q0 docno rank score tag`` (whitespace
separated); a qrels file has one judgment per line, ``qid iteration docno relevance``. The frames
returned use ir_measures' column names (``query_id``, ``doc_id``, ``score``, ``relevance``), so
they can go straight to :mod:`ir_measures`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from .errors import InputError

__all__ = ["RUN_FIELDS", "QRELS_FIELDS", "read_run", "read_runs", "read_qrels", "as_run",
           "as_qrels"]

RUN_FIELDS = ("qid", "Q0", "docno", "rank", "score", "tag")
QRELS_FIELDS = ("qid", "iteration", "docno", "relevance")


def _read_fields(path, fields) -> pd.DataFrame:
    """Whitespace-separated text with exactly ``len(fields)`` fields a line (blank lines skipped).

    The index of the frame is the 1-based line number.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a folder, expected a file")
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
    frame.index = pd.RangeIndex(1, len(frame) + 1)
    frame = frame[frame.notna().any(axis=1)]            # blank lines
    if frame.empty:
        raise InputError(f"{path}: the file is empty")
    wrong = frame[k].notna() | frame[list(range(k))].isna().any(axis=1)
    if wrong.any():
        line = wrong.idxmax()
        got = int(frame.loc[line].notna().sum())
        raise InputError(f"{path}, line {line}: expected {k} fields ({' '.join(fields)}), "
                         f"got {got}")
    return frame.drop(columns=k).set_axis(list(fields), axis=1)


def _numbers(frame: pd.DataFrame, column: str, path, *, integer: bool) -> pd.Series:
    values = pd.to_numeric(frame[column], errors="coerce").astype(float)
    bad = ~np.isfinite(values)
    if integer:
        bad |= values.notna() & (values != values.round())
    if bad.any():
        line = bad.idxmax()
        kind = "a whole number" if integer else "a number"
        raise InputError(f"{path}, line {line}: {column}={frame.at[line, column]!r} is not {kind}")
    return values.astype("int64") if integer else values.astype(float)


def _first_duplicate(frame: pd.DataFrame, columns: list[str]):
    dup = frame.duplicated(columns)
    return dup.idxmax() if dup.any() else None


def read_run(path) -> pd.DataFrame:
    """Read and check one TREC run file.

    Parameters
    ----------
    path : str or Path
        ``qid Q0 docno rank score tag`` lines.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str), ``rank`` (int), ``score`` (float).

    Raises
    ------
    ValueError
        One line naming the file and line: a line without exactly six fields, a rank that is not
        a whole number, a score that is not a finite number, a document retrieved twice for a
        topic, or a rank given twice for a topic.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "run1"
    >>> _ = f.write_text("1 Q0 d1 1 2.5 run1\\n1 Q0 d2 2 1.5 run1\\n")
    >>> read_run(f)
      query_id doc_id  rank  score
    0        1     d1     1    2.5
    1        1     d2     2    1.5
    >>> _ = f.write_text("1 Q0 d1 1 2.5 run1\\n1 Q0 d1 2 1.5 run1\\n")
    >>> read_run(f)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: .../run1, line 2: document 'd1' is retrieved twice for topic '1'
    """
    frame = _read_fields(path, RUN_FIELDS)
    rank = _numbers(frame, "rank", path, integer=True)
    score = _numbers(frame, "score", path, integer=False)
    line = _first_duplicate(frame, ["qid", "docno"])
    if line is not None:
        raise InputError(f"{path}, line {line}: document {frame.at[line, 'docno']!r} is "
                         f"retrieved twice for topic {frame.at[line, 'qid']!r}")
    frame = frame.assign(rank=rank)
    line = _first_duplicate(frame, ["qid", "rank"])
    if line is not None:
        raise InputError(f"{path}, line {line}: rank {frame.at[line, 'rank']} is given twice "
                         f"for topic {frame.at[line, 'qid']!r}")
    return pd.DataFrame({"query_id": frame["qid"].to_numpy(), "doc_id": frame["docno"].to_numpy(),
                         "rank": rank.to_numpy(), "score": score.to_numpy()})


def read_runs(folder) -> dict[str, pd.DataFrame]:
    """Read every run file of a folder (files whose names start with a dot are skipped).

    Returns ``{file name: frame}`` in file-name order (see :func:`read_run`).

    Raises
    ------
    FileNotFoundError
        The folder does not exist.
    ValueError
        The folder holds no run file, or a file is malformed (names the file and line).
    """
    folder = Path(folder)
    if not folder.is_dir():
        if folder.exists():
            raise InputError(f"{folder}: is a file, expected a folder of run files")
        raise FileNotFoundError(f"{folder}: no such folder")
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise InputError(f"{folder}: the folder holds no run file")
    return {p.name: read_run(p) for p in files}


def read_qrels(path) -> pd.DataFrame:
    """Read and check a TREC qrels file (``qid iteration docno relevance``).

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str), ``relevance`` (int).

    Raises
    ------
    ValueError
        One line naming the file and line: a line without exactly four fields, a relevance that
        is not a whole number, or a document judged twice for a topic.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = f.write_text("1 0 d1 1\\n1 0 d2 0\\n")
    >>> read_qrels(f)
      query_id doc_id  relevance
    0        1     d1          1
    1        1     d2          0
    """
    frame = _read_fields(path, QRELS_FIELDS)
    relevance = _numbers(frame, "relevance", path, integer=True)
    line = _first_duplicate(frame, ["qid", "docno"])
    if line is not None:
        raise InputError(f"{path}, line {line}: document {frame.at[line, 'docno']!r} is judged "
                         f"twice for topic {frame.at[line, 'qid']!r}")
    return pd.DataFrame({"query_id": frame["qid"].to_numpy(), "doc_id": frame["docno"].to_numpy(),
                         "relevance": relevance.to_numpy()})


def as_run(run, name: str = "run") -> pd.DataFrame:
    """A run given as a path or a frame, as a checked frame (``query_id, doc_id, score``).

    A frame may use ir_measures' names (``query_id, doc_id, score``) or TREC's (``qid, docno,
    score``); ids become strings.
    """
    if isinstance(run, (str, os.PathLike)):
        return read_run(run)
    frame = _as_frame(run, name, {"qid": "query_id", "docno": "doc_id"},
                      ("query_id", "doc_id", "score"))
    score = pd.to_numeric(frame["score"], errors="coerce").astype(float)
    if not np.isfinite(score).all():
        raise InputError(f"{name}, row {int((~np.isfinite(score)).to_numpy().argmax())}: "
                         "score is not a finite number")
    frame = frame.assign(score=score)
    line = _first_duplicate(frame, ["query_id", "doc_id"])
    if line is not None:
        raise InputError(f"{name}: document {frame.at[line, 'doc_id']!r} is retrieved twice "
                         f"for topic {frame.at[line, 'query_id']!r}")
    return frame


def as_qrels(qrels, name: str = "qrels") -> pd.DataFrame:
    """Qrels given as a path or a frame, as a checked frame (``query_id, doc_id, relevance``)."""
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(qrels)
    frame = _as_frame(qrels, name, {"qid": "query_id", "docno": "doc_id", "rel": "relevance"},
                      ("query_id", "doc_id", "relevance"))
    relevance = pd.to_numeric(frame["relevance"], errors="coerce")
    if relevance.isna().any() or (relevance != relevance.round()).any():
        raise InputError(f"{name}: relevance must be whole numbers")
    frame = frame.assign(relevance=relevance.astype("int64"))
    line = _first_duplicate(frame, ["query_id", "doc_id"])
    if line is not None:
        raise InputError(f"{name}: document {frame.at[line, 'doc_id']!r} is judged twice for "
                         f"topic {frame.at[line, 'query_id']!r}")
    return frame


def _as_frame(value, name, renames, columns) -> pd.DataFrame:
    if not isinstance(value, pd.DataFrame):
        raise InputError(f"{name}: expected a file path or a DataFrame, got "
                         f"{type(value).__name__}")
    frame = value.rename(columns=renames)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(f"{name}: missing column(s) {', '.join(missing)} (have "
                         f"{', '.join(map(str, value.columns))})")
    frame = frame[list(columns)].reset_index(drop=True)
    return frame.assign(query_id=frame["query_id"].astype(str), doc_id=frame["doc_id"].astype(str))
