"""Score matrices out: ``trec_eval -q`` files, the long format, and the file an extension names
(:func:`write_matrices`: CSV/TSV or .xlsx), atomically, full precision.

:func:`topicsetsize.read_matrix` reads them all back to the same numbers.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING

from ..atomic import atomic_path
from ..errors import InputError
from .formats.common import SUMMARY_TOPIC
from .matrix import ScoreMatrix, check_matrix

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["write_trec_eval", "write_long", "long_table", "write_matrices", "MATRIX_SUFFIXES",
           "wide_rows", "long_rows", "matrices_rows", "csv_text"]

#: The file extensions :func:`write_matrices` writes.
MATRIX_SUFFIXES = (".csv", ".tsv", ".xlsx")
#: Characters Excel refuses in a sheet name (and its length limit).
_SHEET_FORBIDDEN, _SHEET_MAX = set("[]:*?/\\"), 31


def _labelled(scores) -> ScoreMatrix:
    """A checked matrix with text labels (arrays: topics 1.., runs run1..): finite scores, of
    any size (a measure's tiny values, ``1.8e-228``, are written as they are)."""
    matrix = check_matrix(scores, min_topics=1, min_runs=1, computed=False)
    n, m = matrix.values.shape
    topics = matrix.topics if matrix.topics is not None else range(1, n + 1)
    runs = matrix.runs if matrix.runs is not None else [f"run{j}" for j in range(1, m + 1)]
    return ScoreMatrix(matrix.values, [str(t) for t in topics], [str(r) for r in runs])


def _frame(scores) -> pd.DataFrame:
    """:func:`_labelled` as a DataFrame."""
    import pandas as pd

    matrix = _labelled(scores)
    return pd.DataFrame(matrix.values, index=matrix.topics, columns=matrix.runs)


def wide_rows(scores):
    """The rows of a score matrix's wide file: a header ``topic, run…``, then one row per topic
    (text labels, float values; see :func:`write_matrices`).

    >>> list(wide_rows([[0.25, 0.5]]))
    [['topic', 'run1', 'run2'], ['1', 0.25, 0.5]]
    """
    matrix = _labelled(scores)
    yield ["topic", *matrix.runs]
    for topic, row in zip(matrix.topics, matrix.values.tolist()):
        yield [topic, *row]


def long_rows(matrices: dict):
    """The rows of the long table ``run, topic, measure, value`` of ``{measure: topics × runs
    matrix}``, a header first (runs, then topics, in each matrix's order; measures in the order
    given): :func:`long_table` without pandas.

    >>> list(long_rows({"AP": [[0.25, 0.5]]}))
    [['run', 'topic', 'measure', 'value'], ['run1', '1', 'AP', 0.25], ['run2', '1', 'AP', 0.5]]
    """
    yield ["run", "topic", "measure", "value"]
    for measure, scores in matrices.items():
        matrix = _labelled(scores)
        for run, column in zip(matrix.runs, matrix.values.T.tolist()):
            for topic, value in zip(matrix.topics, column):
                yield [run, topic, str(measure), value]


def matrices_rows(matrices: dict):
    """The rows of ``{measure: topics × runs matrix}`` as :func:`write_matrices` writes them in
    CSV: one measure as the wide matrix (:func:`wide_rows`), several as the long table
    (:func:`long_rows`).

    >>> [len(list(matrices_rows(m))) for m in ({"AP": [[0.5]]}, {"AP": [[0.5]], "RR": [[1.0]]})]
    [2, 3]
    """
    return wide_rows(next(iter(matrices.values()))) if len(matrices) == 1 else \
        long_rows(matrices)


def csv_text(rows, sep: str = ",") -> str:
    """``rows`` as CSV (or TSV, ``sep="\\t"``) text, as pandas' ``to_csv`` writes them: fields
    quoted only where needed, floats in their shortest exact form, ``\\n`` line ends (finite
    floats: NaN would be ``nan``, where pandas leaves the field empty).

    >>> print(csv_text([["topic", "a,b"], ["1", 0.1]]), end="")
    topic,"a,b"
    1,0.1
    """
    text = io.StringIO()
    csv.writer(text, delimiter=sep, lineterminator="\n").writerows(rows)
    return text.getvalue()


def _check_token(kind: str, value: str) -> None:
    if not value or any(ch.isspace() for ch in value) or value == SUMMARY_TOPIC:
        raise InputError(f"{kind} {value!r} cannot be written as trec_eval output (it must be "
                         f"non-empty, without blanks, and not {SUMMARY_TOPIC!r})")


def write_trec_eval(scores, *, folder, measure: str) -> list[Path]:
    """Write a score matrix as ``trec_eval -q`` output: one file per run, ``<run>.txt``.

    Each file holds a ``runid all <run>`` line, one ``<measure> <topic> <value>`` line per
    topic (full float precision, so :func:`read_matrix` gets the same numbers back) and the
    ``all`` summary line with the mean, as ``trec_eval -q`` prints it. Files are written
    atomically.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (arrays: topics ``1..n``, runs ``run1..runm``).
    folder : str or path-like
        Created if needed.
    measure : str
        The measure name, e.g. ``"map"``.

    Returns
    -------
    list of pathlib.Path
        The files written, in run order.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> paths = write_trec_eval([[0.25, 0.5], [0.125, 0.75]], folder=folder, measure="map")
    >>> print(paths[0].read_text(), end="")
    runid                 	all	run1
    map                   	1	0.25
    map                   	2	0.125
    map                   	all	0.1875
    >>> from topicsetsize import read_matrix
    >>> read_matrix(folder, measure="map").to_numpy().tolist()
    [[0.25, 0.5], [0.125, 0.75]]
    """
    frame = _frame(scores)
    _check_token("measure", str(measure))
    for label in (*frame.index, *frame.columns):
        _check_token("topic/run label", label)
    names = [_file_name(run) for run in frame.columns]
    if len(set(names)) != len(names):
        raise InputError("two run names map to the same file name: "
                         + repr(next(n for n in names if names.count(n) > 1)))
    folder = Path(folder)
    paths = []
    for run, name in zip(frame.columns, names):
        column = frame[run]
        lines = [f"{'runid':<22}\t{SUMMARY_TOPIC}\t{run}"]
        lines += [f"{measure:<22}\t{topic}\t{value!r}" for topic, value in
                  zip(column.index, column.to_numpy().tolist())]
        lines.append(f"{measure:<22}\t{SUMMARY_TOPIC}\t{float(column.mean())!r}")
        with atomic_path(folder / name) as tmp:
            tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(folder / name)
    return paths


def _file_name(run: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_.+" else "_" for ch in run).lstrip(".")
    return f"{safe or 'run'}.txt"


def write_long(scores, *, path, measure: str) -> Path:
    """Write a score matrix in the long format: ``run, topic, measure, value``, one score a line.

    A header line names the columns. The file is TSV when ``path`` ends in ``.tsv`` or
    ``.tab``, CSV otherwise; values keep full float precision. Written atomically.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (arrays: topics ``1..n``, runs ``run1..runm``).
    path : str or path-like
    measure : str

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.csv"
    >>> out = write_long([[0.25, 0.5], [0.125, 0.75]], path=path, measure="map")
    >>> print(out.read_text(), end="")
    run,topic,measure,value
    run1,1,map,0.25
    run1,2,map,0.125
    run2,1,map,0.5
    run2,2,map,0.75
    """
    if not str(measure).strip():
        raise InputError("measure must be a non-empty name")
    path = Path(path)
    sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    text = csv_text(long_rows({str(measure): scores}), sep)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def long_table(matrices: dict) -> pd.DataFrame:
    """The long table ``run, topic, measure, value`` of ``{measure: topics × runs matrix}``
    (runs, then topics, in each matrix's order; measures in the order given).

    >>> import pandas as pd
    >>> m = pd.DataFrame([[0.25, 0.5]], index=["1"], columns=["a", "b"])
    >>> long_table({"AP": m, "P@10": m * 2}).values.tolist()
    [['a', '1', 'AP', 0.25], ['b', '1', 'AP', 0.5],
     ['a', '1', 'P@10', 0.5], ['b', '1', 'P@10', 1.0]]
    """
    import pandas as pd

    header, *rows = long_rows(matrices)
    return pd.DataFrame(rows, columns=header)


def write_matrices(matrices: dict, path) -> Path:
    """Write ``{measure: topics × runs matrix}`` in the format that ``path``'s extension names.

    ``.csv`` and ``.tsv``: one measure as the wide matrix (topics as rows, a ``topic`` column
    first), several as the long table (:func:`long_table`; read one back with
    ``read_matrix(path, measure=...)``). ``.xlsx``: one sheet per measure, named after it, in
    the wide layout (read one back with ``read_matrix(path, sheet=...)``); names are written
    as text, never as formulas. Any other extension is a one-line error. Written atomically,
    full float precision.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from topicsetsize.matrices.readers import read_matrix
    >>> import pandas as pd
    >>> m = pd.DataFrame([[0.25, 0.5], [0.125, 0.75]], index=["1", "2"], columns=["a", "b"])
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> out = write_matrices({"AP": m, "P@10": m / 2}, folder / "scores.xlsx")
    >>> read_matrix(out, sheet="P@10").to_numpy().tolist()
    [[0.125, 0.25], [0.0625, 0.375]]
    >>> write_matrices({"AP": m}, folder / "scores.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: .../scores.txt: the extension '.txt' names no format ...
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in MATRIX_SUFFIXES:
        raise InputError(f"{path}: the extension {path.suffix!r} names no format the matrices "
                         f"can be written in: give a name ending in {', '.join(MATRIX_SUFFIXES)}")
    if not matrices:
        raise InputError("no matrix to write")
    if suffix == ".xlsx":
        return _write_xlsx(matrices, path)
    sep = "\t" if suffix == ".tsv" else ","
    text = csv_text(matrices_rows(matrices), sep)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def _write_xlsx(matrices: dict, path: Path) -> Path:
    """One sheet per measure, the wide layout; every name written as text."""
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for measure, scores in matrices.items():
        name = str(measure)
        if not name.strip() or len(name) > _SHEET_MAX or _SHEET_FORBIDDEN & set(name):
            raise InputError(f"{path}: measure {name!r} cannot name a sheet (at most "
                             f"{_SHEET_MAX} characters, none of []:*?/\\): write .csv instead")
        sheet = book.create_sheet(name)
        for row in wide_rows(scores):
            sheet.append(row)
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    cell.data_type = "s"    # an untrusted name never becomes a formula
    with atomic_path(path) as tmp:
        book.save(tmp)
    return path
