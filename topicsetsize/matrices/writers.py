"""Score matrices out: ``trec_eval -q`` files and the long format, atomically, full precision.

:func:`topicsetsize.read_matrix` reads both back to the same numbers.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..atomic import atomic_path
from .formats.common import SUMMARY_TOPIC
from .matrix import check_matrix
from ..errors import InputError

__all__ = ["write_trec_eval", "write_long"]


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
