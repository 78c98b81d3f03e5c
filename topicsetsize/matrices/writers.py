"""Score matrices out: ``trec_eval -q`` files, the long format, and the file an extension names
(:func:`write_matrices`: CSV/TSV or .xlsx), atomically, full precision.

:func:`topicsetsize.read_matrix` reads them all back to the same numbers.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..atomic import atomic_path
from ..errors import InputError
from .formats.common import SUMMARY_TOPIC
from .matrix import check_matrix

__all__ = ["write_trec_eval", "write_long", "long_table", "write_matrices", "MATRIX_SUFFIXES"]

#: The file extensions :func:`write_matrices` writes.
MATRIX_SUFFIXES = (".csv", ".tsv", ".xlsx")
#: Characters Excel refuses in a sheet name (and its length limit).
_SHEET_FORBIDDEN, _SHEET_MAX = set("[]:*?/\\"), 31


def _labelled(scores) -> pd.DataFrame:
    """A checked matrix as a DataFrame with text labels (arrays: topics 1.., runs run1..)."""
    matrix = check_matrix(scores, min_topics=1, min_runs=1)
    n, m = matrix.values.shape
    topics = matrix.topics if matrix.topics is not None else range(1, n + 1)
    runs = matrix.runs if matrix.runs is not None else [f"run{j}" for j in range(1, m + 1)]
    return pd.DataFrame(matrix.values, index=[str(t) for t in topics],
                        columns=[str(r) for r in runs])


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
    frame = _labelled(scores)
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
    frame = _labelled(scores)
    if not str(measure).strip():
        raise InputError("measure must be a non-empty name")
    path = Path(path)
    long = frame.rename_axis(index="topic", columns="run").T.stack().rename("value").reset_index()
    long.insert(2, "measure", str(measure))
    sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    with atomic_path(path) as tmp:
        long.to_csv(tmp, sep=sep, index=False, lineterminator="\n")
    return path


def long_table(matrices: dict) -> pd.DataFrame:
    """The long table ``run, topic, measure, value`` of ``{measure: topics × runs matrix}``
    (runs, then topics, in each matrix's order; measures in the order given).

    >>> m = pd.DataFrame([[0.25, 0.5]], index=["1"], columns=["a", "b"])
    >>> long_table({"AP": m, "P@10": m * 2}).values.tolist()
    [['a', '1', 'AP', 0.25], ['b', '1', 'AP', 0.5],
     ['a', '1', 'P@10', 0.5], ['b', '1', 'P@10', 1.0]]
    """
    parts = []
    for measure, scores in matrices.items():
        frame = _labelled(scores)
        long = frame.rename_axis(index="topic", columns="run").T.stack().rename(
            "value").reset_index()
        long.insert(2, "measure", str(measure))
        parts.append(long)
    return pd.concat(parts, ignore_index=True)


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
    if len(matrices) == 1:
        frame = _labelled(next(iter(matrices.values()))).rename_axis(index="topic")
        text = frame.to_csv(sep=sep, lineterminator="\n")
    else:
        text = long_table(matrices).to_csv(sep=sep, index=False, lineterminator="\n")
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
        frame = _labelled(scores)
        sheet.append(["topic", *frame.columns])
        for topic, values in zip(frame.index, frame.to_numpy().tolist()):
            sheet.append([topic, *values])
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    cell.data_type = "s"    # an untrusted name never becomes a formula
    with atomic_path(path) as tmp:
        book.save(tmp)
    return path
