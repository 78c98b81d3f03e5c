"""TREC run and qrels files: read and check them, with one-line errors naming the file and line.

A run file has one retrieved document per line, ``qid Q0 docno rank score tag`` (whitespace
separated); a qrels file has one judgment per line, ``qid iteration docno relevance``. The frames
returned use ir_measures' column names (``query_id``, ``doc_id``, ``score``, ``relevance``), so
they can go straight to :mod:`ir_measures`.

Files are read as trec_eval reads them (``form_res_rels.c``, ``form_trec_results.c``): any token
in the second column of a run and in the iteration column of qrels (TREC-COVID round 1 has
``0.5``); the rank column of a run is ignored (a run is ranked by score, descending, compared in
single precision as trec_eval stores it, ties by document id, descending: :func:`trec_order`);
relevance is a whole number, graded or negative, passed on unchanged: a document is relevant
when its relevance is at least 1 (trec_eval's default ``-l 1``), and a negative relevance means
in the pool but not judged, which trec_eval counts as neither relevant nor judged non-relevant
(see docs/runs_and_qrels.md).
"""

from __future__ import annotations

import os
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from ..params import PARAMS
from .fields import Fields, read_fields
from .formats.common import folder_files, parse_floats
from .lineblocks import qrels_in_blocks, run_in_blocks
from .matrix import is_frame
from .runcolumns import RunColumns, by_topic, whole_runs

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RUN_FIELDS", "QRELS_FIELDS", "DUPLICATES", "RunFileWarning", "trec_score", "trec_order",
           "read_run", "parse_run", "read_runs", "run_files", "read_qrels", "qrels_by_topic",
           "as_run", "as_qrels"]

RUN_FIELDS = ("qid", "Q0", "docno", "rank", "score", "tag")
QRELS_FIELDS = ("qid", "iteration", "docno", "relevance")


def _numbers(fields: Fields, j: int, column: str, path, *, integer: bool) -> np.ndarray:
    """Column ``j`` of ``fields`` as numbers (whole numbers in the registry's range with
    ``integer``); the first that is not one is an error naming the file and line."""
    values = fields.numbers(j)
    bad = ~np.isfinite(values)
    if integer:
        bad |= ~np.isnan(values) & (values != np.round(values))
    if bad.any():
        i = int(bad.argmax())
        kind = "a whole number" if integer else "a number"
        raise InputError(f"{path}, line {fields.line[i]}: {column}={fields.cell(j, i)!r} is not "
                         f"{kind}")
    if not integer:
        return values
    return _whole(values, fields.line, column, lambda line: f"{path}, line {line}",
                  lambda line: repr(fields.cell(j, int(np.searchsorted(fields.line, line)))))


def _whole(values: np.ndarray, labels, column: str, where, shown) -> np.ndarray:
    """Whole numbers (floats, each labelled) as int64, each within the registry's range for
    ``column`` (``relevance``, ``rank``): a value beyond it (``99999999999999999999``) is
    refused, where int64 would wrap it to -2**63. ``where(label)`` and ``shown(label)`` say
    where the value is and as written."""
    spec = PARAMS[column]
    outside = ~spec.contains(values)
    if outside.any():
        label = labels[outside.argmax()]
        raise InputError(f"{where(label)}: {column}={shown(label)} is out of range: allowed "
                         f"{spec.describe(column)}")
    return values.astype(np.int64)


#: What :func:`read_run` does with a document retrieved twice within a topic.
DUPLICATES = ("error", "first")


class RunFileWarning(UserWarning):
    """A run file is read, but not as its rank column says (see :func:`read_run`)."""


def trec_score(score) -> np.ndarray:
    """Scores as trec_eval compares them: in single precision (``trec_format.h`` stores a
    result's ``sim`` as a C ``float``), so that two scores equal to float32 precision tie and
    fall to the document ids, as in trec_eval (and pytrec_eval, which ir_measures uses).

    >>> trec_score([2.70763738219, 2.707637382189]).tolist()   # equal in single precision
    [2.707637310028076, 2.707637310028076]
    """
    with np.errstate(over="ignore"):        # beyond float32's range: +-inf, as a C float gets
        return np.asarray(score, float).astype(np.float32).astype(float)


def trec_order(frame: pd.DataFrame, *, columns=("query_id", "score", "doc_id")) -> pd.DataFrame:
    """``frame`` sorted as trec_eval ranks a run: per topic, score descending (compared in
    single precision, :func:`trec_score`), then document id descending (byte order, trec_eval's
    ``strcmp``; ``form_res_rels.c``). The frame's scores are returned unchanged.

    >>> import pandas as pd
    >>> run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "c", "b"],
    ...                     "score": [1.0, 1.0, 2.0]})
    >>> trec_order(run)["doc_id"].tolist()
    ['b', 'c', 'a']
    >>> run["score"] = [1.0 + 1e-12, 1.0, 2.0]     # a tie for trec_eval: ids decide
    >>> trec_order(run)["doc_id"].tolist()
    ['b', 'c', 'a']
    """
    import pandas as pd
    columns = list(columns)     # the groups (topic, and more before it), then score and id
    score = columns[-2]
    return frame.sort_values(columns, ascending=[True] * (len(columns) - 2) + [False, False],
                             kind="stable",
                             key=lambda c: pd.Series(trec_score(c), index=c.index, name=c.name)
                             if c.name == score else c)


def read_run(path, *, duplicates: str = "error") -> pd.DataFrame:
    """Read and check one TREC run file, as trec_eval reads it (``form_res_rels.c``).

    A line is ``qid Q0 docno rank score tag``; a gzipped file (``.gz``) is read as well. As in
    trec_eval, the second column may be any token (CLEF TAR runs have ``AF``, ``NF``, ``NS``,
    ``AFS``) and the rank column is ignored: a topic's documents are ranked by score,
    descending, ties by document id, descending (:func:`trec_order`).

    Parameters
    ----------
    path : str or Path
        The run file.
    duplicates : {"error", "first"}
        A document retrieved twice within a topic: ``"error"`` refuses the file, as trec_eval
        does ("duplicate docs"); ``"first"`` keeps the first line of each and warns with the
        number dropped.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` (str), ``rank`` (int, the file's) and ``score``
        (float), in the order of the file; ``attrs["tag"]`` is the run tag (sixth column)
        where every line has the same one, else None.

    Warns
    -----
    RunFileWarning
        At most one per kind and run: the rank column disagrees with the trec_eval order (it
        is ignored); a topic gives every document the same score (the order then falls to the
        document ids, as in trec_eval); duplicate lines dropped (``duplicates="first"``).

    Raises
    ------
    ValueError
        One line naming the file and line: a line without exactly six fields, a rank that is not
        a whole number, a score that is not a finite number, a document retrieved twice for a
        topic (with ``duplicates="error"``).

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
    topicsetsize.InputError: .../run1, line 2: document 'd1' is retrieved twice for topic '1' ...
    """
    return parse_run(path, duplicates=duplicates).frame()


def parse_run(path, *, duplicates: str = "error") -> RunColumns:
    """:func:`read_run` as columns (:class:`~topicsetsize.matrices.runcolumns.RunColumns`), the
    same checks, warnings and errors; what evaluating and pooling runs read."""
    duplicates = _check_duplicates(duplicates)
    got = run_in_blocks(path)       # a plain file, a block of lines at a time
    if got is None:
        fields = read_fields(path, RUN_FIELDS)
        rank = _numbers(fields, 3, "rank", path, integer=True)
        score = _numbers(fields, 4, "score", path, integer=False)
        topics, topic = fields.factorize(0)
        one_tag = bool(fields.same_as_previous(5).all())
        got = RunColumns(topics, topic, fields.strings(2), score, rank), one_tag, \
            fields.cell(5, 0), None if one_tag else set(zip(fields.strings(5), topic.tolist()))
    else:
        fields = None
    run, one_tag, first_tag, pairs = got
    topics, topic, score, rank = run.topics, run.topic, run.score, run.rank
    if not one_tag:
        whole = whole_runs(pairs, len(topics))
        if len(whole) > 1:
            raise InputError(f"{path}: holds {len(whole)} run tags that each retrieve for all "
                             f"{len(topics)} topics ({', '.join(map(repr, whole[:4]))}): runs "
                             "concatenated in one file? put each run in a file of its own "
                             "(trec_eval would evaluate them as one run)")
    line = np.arange(1, len(run) + 1) if fields is None else fields.line
    dup = _duplicated(run)
    if dup is not None:
        i = int(dup.argmax())
        if duplicates == "error":
            raise InputError(f"{path}, line {line[i]}: document {run.docs[i]!r} is retrieved "
                             f"twice for topic {topics[topic[i]]!r} (trec_eval: duplicate docs; "
                             "keep the first line of each with duplicates='first')")
        _warn(f"{path}: dropped {int(dup.sum())} line(s) retrieving a document already "
              "retrieved for the same topic (kept the first of each)")
        keep = ~dup
        run = RunColumns(topics, topic[keep], list(compress(run.docs, keep)), score[keep],
                         rank[keep])
        if not one_tag:                 # the lines kept may still have one tag
            fields = read_fields(path, RUN_FIELDS) if fields is None else fields
            tags = list(compress(fields.strings(5), keep))
            one_tag = tags.count(tags[0]) == len(tags)
    run.tag = first_tag if one_tag else None
    _note_order(run, path)
    return run


def _duplicated(run: RunColumns) -> np.ndarray | None:
    """Which rows retrieve a document already retrieved for their topic (None where none): a
    set of each topic's documents, and a pass over the rows of the topics that have fewer."""
    order, starts, _ = run.grouped()
    docs = run.docs if order is None else np.asarray(run.docs, object)[order].tolist()
    bounds = np.r_[starts, len(docs)].tolist()
    dup = None
    for a, b in zip(bounds[:-1], bounds[1:]):
        if len(set(docs[a:b])) != b - a:
            dup = np.zeros(len(docs), bool) if dup is None else dup
            seen: set = set()
            for i, doc in enumerate(docs[a:b], a):
                dup[i] = doc in seen
                seen.add(doc)
    if dup is not None and order is not None:
        dup[order] = dup.copy()
    return dup


def _check_duplicates(duplicates):
    if duplicates not in DUPLICATES:
        raise InputError(f"duplicates={duplicates!r} is not one of {', '.join(DUPLICATES)}")
    return duplicates


def _warn(message: str) -> None:
    import warnings

    warnings.warn(message, RunFileWarning, stacklevel=4)


def _note_order(run: RunColumns, path) -> None:
    """Warn once per kind: constant scores within a topic; a rank column that disagrees."""
    order, starts, codes = run.grouped()
    score = trec_score(run.score)
    rank = run.rank
    if order is not None:
        score, rank = score[order], rank[order]
    sizes = np.diff(np.r_[starts, len(score)])
    spread = np.maximum.reduceat(score, starts) - np.minimum.reduceat(score, starts)
    constant = (sizes > 1) & (spread == 0)
    if constant.any():
        _warn(f"{path}: every document has the same score in {int(constant.sum())} of "
              f"{len(sizes)} topic(s) (e.g. topic {run.topics[codes[constant.argmax()]]!r}); "
              "trec_eval then ranks them by document id, descending, and so does topicsetsize "
              "(the rank column is ignored)")
        return
    # Ties aside (their order is trec_eval's), ranks must grow as scores fall: so they do
    # where, within each topic in file order, scores never rise and ranks never fall.
    same = np.ones(len(score) - 1, bool)
    same[starts[1:] - 1] = False
    if not (same & ((score[1:] > score[:-1]) | (rank[1:] < rank[:-1]))).any():
        return
    key = np.empty(len(run.topics), np.intp)            # topics sorted as strings
    key[sorted(range(len(run.topics)), key=run.topics.__getitem__)] = np.arange(len(key))
    ordered = np.lexsort((run.rank, -trec_score(run.score), key[run.topic]))
    topic, rank = run.topic[ordered], run.rank[ordered]
    wrong = (topic[1:] == topic[:-1]) & (np.diff(rank) < 0)
    if wrong.any():
        k = ordered[int(np.argmax(wrong)) + 1]
        _warn(f"{path}: the rank column disagrees with the scores (e.g. topic "
              f"{run.topics[run.topic[k]]!r}: document {run.docs[k]!r}, rank {run.rank[k]}, "
              "scores lower than a document ranked below it); it is ignored: documents are "
              "ranked by score, descending, ties by document id, descending, as trec_eval does")


def read_runs(folder, *, duplicates: str = "error") -> dict[str, pd.DataFrame]:
    """Read every run file of a folder (files whose names start with a dot are skipped).

    Returns ``{file name: frame}`` in file-name order (see :func:`read_run`, which also
    explains ``duplicates``).

    Raises
    ------
    FileNotFoundError
        The folder does not exist.
    ValueError
        The folder holds no run file, or a file is malformed (names the file and line).
    """
    return {p.name: read_run(p, duplicates=duplicates) for p in run_files(folder)}


def run_files(folder) -> list[Path]:
    """The run files of a folder, in name order (dot files skipped); one-line errors."""
    folder = Path(folder)
    if not folder.is_dir():
        if folder.exists():
            raise InputError(f"{folder}: is a file, expected a folder of run files")
        raise FileNotFoundError(f"{folder}: no such folder")
    files = folder_files(folder, "run files")
    if not files:
        raise InputError(f"{folder}: the folder holds no run file")
    return files


def read_qrels(path) -> pd.DataFrame:
    """Read and check a TREC qrels file (``qid iteration docno relevance``).

    The iteration column may be any token (it is ignored, as by trec_eval); relevance is a whole
    number: graded (2, 3, ...) and negative values are kept as they are (relevant means at least
    1; see the module notes).

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
    import pandas as pd
    fields = read_fields(path, QRELS_FIELDS)
    relevance = _numbers(fields, 3, "relevance", path, integer=True)
    topics, topic = fields.factorize(0)
    qids, docs = np.asarray(topics, object)[topic], fields.strings(2)   # one object a topic
    _judged_twice(topic, fields, path, docs, qids)
    return pd.DataFrame({"query_id": qids, "doc_id": np.asarray(docs, object),
                         "relevance": relevance})


def _judged_twice(topic, fields: Fields, path, docs: list, qids) -> None:
    """The error naming the first line that judges a document judged before for its topic."""
    import pandas as pd
    dup = pd.DataFrame({"qid": topic, "docno": docs}).duplicated().to_numpy()
    if dup.any():
        i = int(dup.argmax())
        raise InputError(f"{path}, line {fields.line[i]}: document {docs[i]!r} is judged "
                         f"twice for topic {qids[i]!r}")


def qrels_by_topic(qrels) -> dict:
    """Qrels (a path or a frame, as :func:`as_qrels` takes them) as ``{qid: {docid: relevance}}``
    (ir_measures' format), checked as :func:`read_qrels` checks them; a file is read without a
    frame in between."""
    if not isinstance(qrels, (str, os.PathLike)):
        import pandas as pd
        frame = as_qrels(qrels)
        codes, topics = pd.factorize(frame["query_id"].to_numpy(object))
        return by_topic(list(topics), codes, frame["doc_id"].tolist(),
                        frame["relevance"].to_numpy())
    out = qrels_in_blocks(qrels)    # a plain file, a block of lines at a time
    if out is not None:
        return out
    fields = read_fields(qrels, QRELS_FIELDS)
    relevance = _numbers(fields, 3, "relevance", qrels, integer=True)
    topics, topic = fields.factorize(0)
    docs = fields.strings(2)
    out = by_topic(topics, topic, docs, relevance)
    if sum(map(len, out.values())) != len(docs):        # a document judged twice
        _judged_twice(topic, fields, qrels, docs, np.asarray(topics, object)[topic])
    return out


def as_run(run, name: str = "run", *, duplicates: str = "error") -> pd.DataFrame:
    """A run given as a path or a frame, as a checked frame (``query_id, doc_id, score``).

    A frame may use ir_measures' names (``query_id, doc_id, score``) or TREC's (``qid, docno,
    score``); ids become strings.
    """
    if isinstance(run, (str, os.PathLike)):
        return read_run(run, duplicates=duplicates)
    import pandas as pd
    frame = _as_frame(run, name, {"qid": "query_id", "docno": "doc_id"},
                      ("query_id", "doc_id", "score"))
    score = pd.Series(parse_floats(frame["score"]), index=frame.index)
    if not np.isfinite(score).all():
        raise InputError(f"{name}, row {int((~np.isfinite(score)).to_numpy().argmax())}: "
                         "score is not a finite number")
    frame = frame.assign(score=score)
    dup = frame.duplicated(["query_id", "doc_id"])
    if dup.any():
        line = dup.idxmax()
        if _check_duplicates(duplicates) == "error":
            raise InputError(f"{name}: document {frame.at[line, 'doc_id']!r} is retrieved twice "
                             f"for topic {frame.at[line, 'query_id']!r}")
        _warn(f"{name}: dropped {int(dup.sum())} row(s) retrieving a document already "
              "retrieved for the same topic (kept the first of each)")
        frame = frame[~dup.to_numpy()].reset_index(drop=True)
    return frame


def as_qrels(qrels, name: str = "qrels") -> pd.DataFrame:
    """Qrels given as a path or a frame, as a checked frame (``query_id, doc_id, relevance``)."""
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(qrels)
    import pandas as pd
    frame = _as_frame(qrels, name, {"qid": "query_id", "docno": "doc_id", "rel": "relevance"},
                      ("query_id", "doc_id", "relevance"))
    relevance = pd.to_numeric(frame["relevance"], errors="coerce")
    if relevance.isna().any() or (relevance != relevance.round()).any():
        raise InputError(f"{name}: relevance must be whole numbers")
    frame = frame.assign(relevance=_whole(relevance.to_numpy(float), frame.index, "relevance",
                                          lambda row: f"{name}, row {row}",
                                          lambda row: repr(frame.at[row, "relevance"])))
    dup = frame.duplicated(["query_id", "doc_id"])
    if dup.any():
        line = dup.idxmax()
        raise InputError(f"{name}: document {frame.at[line, 'doc_id']!r} is judged twice for "
                         f"topic {frame.at[line, 'query_id']!r}")
    return frame


def _as_frame(value, name, renames, columns) -> pd.DataFrame:
    if not is_frame(value):
        raise InputError(f"{name}: expected a file path or a DataFrame, got "
                         f"{type(value).__name__}")
    frame = value.rename(columns=renames)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(f"{name}: missing column(s) {', '.join(missing)} (have "
                         f"{', '.join(map(str, value.columns))})")
    frame = frame[list(columns)].reset_index(drop=True)
    return frame.assign(query_id=frame["query_id"].astype(str), doc_id=frame["doc_id"].astype(str))
