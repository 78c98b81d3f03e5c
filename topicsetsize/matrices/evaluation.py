"""From run files and qrels to a topics × runs score matrix, evaluated by ir_measures.

Runs are read as trec_eval reads them (:mod:`topicsetsize.matrices.runfiles`: ranked by score,
descending, ties by document id, descending; the rank column is ignored). Measures are computed
by :mod:`ir_measures` only (its default provider for AP, nDCG, P, ... is pytrec_eval, i.e.
trec_eval's own code), never here; a measure's parameters are checked before any evaluation
(:mod:`topicsetsize.matrices.measures`), so that ``nDCG@0`` is a one-line error and not a crash
in compiled code.

**Which topics.** The matrix has one row per topic of the qrels with at least one relevant
document (relevance at least 1) that some run retrieved anything for, as ``trec_eval -q``
reports by default; a run that retrieves nothing for such a topic scores 0 on it (trec_eval
``-c``). A topic of the qrels that no run retrieved anything for is not one of these runs'
topics (the qrels of another year or task): left out, as ``pool-depth`` leaves it out, rather
than a row of zeros that would lower V_E and so n. The topics of the qrels and of the runs are
matched by :func:`topicsetsize.matrices.topics.match_topics`: none in common is an error, some
unmatched a warning that names them (and says those of the qrels are left out).

**Which names.** A folder's runs are named by the run tag their files carry (the sixth column),
where a file has one tag and no other run has it; by the file name otherwise (the matrix's
``attrs["run_names_note"]`` says which).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..errors import InputError
from .matrix import ScoreMatrix, is_frame
from .measures import evaluator_for, first_line, parse_measure, require_ir_measures
from .runcolumns import RunColumns
from .runfiles import as_run, parse_run, qrels_by_topic, run_files
from .topics import match_topics

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["run_dict", "score_run", "run_sources", "evaluate_runs", "evaluate_measures",
           "Evaluation", "evaluate_scores", "run_names", "warn_missing_topics",
           # here before matrices.measures held them, and still importable from here
           "require_ir_measures", "parse_measure", "evaluator_for"]


def run_dict(run: pd.DataFrame, topics) -> dict:
    """``{qid: {docid: score}}`` (ir_measures' run format) of a run's rows on ``topics``."""
    wanted = run[run["query_id"].isin(topics)]
    out: dict = {}
    for qid, doc, score in zip(wanted["query_id"].to_numpy(), wanted["doc_id"].to_numpy(),
                               wanted["score"].to_numpy(float).tolist()):
        out.setdefault(qid, {})[doc] = score
    return out


def score_run(evaluator, measure, run, topics) -> np.ndarray:
    """The per-topic values of one run (a frame ``query_id, doc_id, score`` or a
    :func:`run_dict`) on ``topics``, 0 where the run retrieves nothing for a topic; a library
    failure is one line naming the measure."""
    if is_frame(run):
        run = run_dict(run, topics)
    try:
        values = {metric.query_id: metric.value for metric in evaluator.iter_calc(run)}
    except Exception as exc:  # noqa: BLE001 - any library failure becomes a user error
        raise InputError(f"measure={str(measure)!r}: ir_measures failed: "
                         f"{first_line(exc)}") from None
    return np.array([values.get(t, 0.0) for t in topics], float)


def run_sources(runs, *, duplicates: str = "error", where: str = "") -> dict[str, Callable]:
    """``{run name: loader}``: each loader reads (or checks) one run when called and returns
    its :class:`~topicsetsize.matrices.runcolumns.RunColumns`, so that a folder of runs is read
    one run at a time. ``runs`` is a folder of run files or a mapping ``{name: DataFrame or
    path}``."""
    if isinstance(runs, (str, os.PathLike)):
        return {p.name: (lambda p=p: parse_run(p, duplicates=duplicates))
                for p in run_files(runs)}
    if isinstance(runs, dict):
        return {str(k): (lambda k=k, v=v: RunColumns.from_frame(
            as_run(v, f"{where}run {k}", duplicates=duplicates))) for k, v in runs.items()}
    raise InputError(f"{where}runs must be a folder of run files or a mapping "
                     f"{{run name: DataFrame or path}}, got {type(runs).__name__}")


def qrels_dict(qrels: pd.DataFrame) -> dict:
    """``{qid: {docid: rel}}`` (ir_measures' qrels format) of a qrels frame."""
    out: dict = {}
    for qid, doc, rel in zip(qrels["query_id"].to_numpy(), qrels["doc_id"].to_numpy(),
                             qrels["relevance"].to_numpy()):
        out.setdefault(qid, {})[doc] = int(rel)
    return out


def evaluate_runs(runs, qrels, measure, *, duplicates: str = "error",
                  progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """The topics × runs score matrix of runs on qrels, one measure, evaluated by ir_measures.

    :func:`evaluate_measures` with one measure: see there for the rows, the run names and the
    matching of topics.

    Parameters
    ----------
    runs : str, Path or dict
        A folder of TREC run files or a mapping ``{run name: DataFrame (query_id, doc_id,
        score) or path}``.
    qrels : str, Path or DataFrame
        TREC qrels (``qid iteration docno rel``) or a frame (query_id, doc_id, relevance).
    measure : str
        An ir_measures measure (``AP``, ``nDCG@10``, ``P@10``, trec_eval's ``map``, ...).
    duplicates : {"error", "first"}
        A document retrieved twice within a topic: refuse the run (trec_eval), or keep the
        first line and warn.
    progress : callable, optional
        Called with 1 after each run.

    Returns
    -------
    pandas.DataFrame
        Topics (index ``topic``, sorted as strings) × runs (columns ``run``).

    Examples
    --------
    >>> import pandas as pd
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["a", "b", "c"],
    ...                     "score": [2.0, 1.0, 1.0]})
    >>> qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
    ...                       "relevance": [1, 1]})
    >>> evaluate_runs({"r": run}, qrels, "AP")   # a, c, b: (1/1 + 2/3) / 2
    run           r
    topic
    1      0.833333
    """
    return next(iter(evaluate_measures(runs, qrels, [measure], duplicates=duplicates,
                                       progress=progress).values()))


def evaluate_measures(runs, qrels, measures, *, duplicates: str = "error",
                      progress: Callable[[int], object] | None = None) -> dict[str, pd.DataFrame]:
    """One topics × runs score matrix per measure, from one pass over the runs (ir_measures).

    Each run is read as trec_eval reads it (:func:`topicsetsize.matrices.runfiles.read_run`) and
    evaluated on every measure at once by one ir_measures evaluator (pytrec_eval: trec_eval's
    code), one run at a time, so that memory holds one run. Rows are the topics of the qrels
    with at least one relevant document (relevance at least 1) that some run retrieved anything
    for, as ``trec_eval -q`` reports; a run that retrieves nothing for such a topic scores 0
    there (trec_eval ``-c``), and a topic that no run retrieved is left out. The topics
    of both sides are matched by :func:`topicsetsize.matrices.topics.match_topics` (an error
    where none match, a :class:`~topicsetsize.matrices.topics.TopicMismatchWarning` naming those
    that do not). A folder's runs are named by their run tags where those are present and
    distinct, else by their file names (``attrs["run_names_note"]`` says which).

    Parameters
    ----------
    runs, qrels, duplicates, progress
        As in :func:`evaluate_runs`.
    measures : str or list of str
        ir_measures measures; the same measure named twice (``AP`` and ``map``) is one.

    Returns
    -------
    dict of str to pandas.DataFrame
        ``{measure name: matrix}`` in the order given; each matrix's ``attrs`` holds
        ``measure``, ``topics_note`` (how many topics of each side matched) and
        ``run_names_note``.

    Examples
    --------
    >>> import pandas as pd
    >>> run = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"],
    ...                     "score": [2.0, 1.0, 1.0]})
    >>> qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["b", "c"],
    ...                       "relevance": [1, 1]})
    >>> out = evaluate_measures({"r": run}, qrels, ["AP", "P@1"])
    >>> {m: x["r"].tolist() for m, x in out.items()}
    {'AP': [0.5, 1.0], 'P@1': [0.0, 1.0]}
    """
    import pandas as pd

    got = evaluate_scores(runs, qrels, measures, duplicates=duplicates, progress=progress)
    out = {}
    for name, matrix in got.matrices.items():
        frame = pd.DataFrame(matrix.values, index=pd.Index(matrix.topics, name="topic"),
                             columns=pd.Index(matrix.runs, name="run"))
        frame.attrs.update(measure=name, **got.attrs)
        out[name] = frame
    return out


class Evaluation(NamedTuple):
    """What :func:`evaluate_scores` gives: one matrix per measure (topics × runs, text labels)
    and how the topics matched and the runs were named."""

    matrices: dict[str, ScoreMatrix]
    topics_note: str
    run_names_note: str

    @property
    def shape(self) -> tuple[int, int]:
        """(topics, runs), as each matrix's."""
        return next(iter(self.matrices.values())).values.shape

    @property
    def attrs(self) -> dict[str, str]:
        """The notes, as each DataFrame of :func:`evaluate_measures` holds them in ``attrs``."""
        return {"topics_note": self.topics_note, "run_names_note": self.run_names_note}


def _refuse_unreached_levels(parsed: dict, top: int) -> None:
    """A measure's relevance level (``rel=``) above every grade of the qrels scores 0 on every
    topic: refused in one line rather than a matrix of zeros (an input review, 2026-12-07).

    >>> _refuse_unreached_levels({"AP(rel=2)": parse_measure("AP(rel=2)")}, 1)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: measure='AP(rel=2)': no document of the qrels has relevance 2 or
    more (the highest is 1), so every score would be 0
    """
    for name, measure in parsed.items():
        rel = getattr(measure, "params", {}).get("rel")
        if rel is not None and rel > top:
            raise InputError(f"measure={name!r}: no document of the qrels has relevance {rel} or "
                             f"more (the highest is {top}), so every score would be 0")


def evaluate_scores(runs, qrels, measures, *, duplicates: str = "error",
                    progress: Callable[[int], object] | None = None) -> Evaluation:
    """:func:`evaluate_measures` as arrays, without pandas (``topicsetsize evaluate`` writes
    them, so that a command that evaluates a few runs costs no pandas import: issue 28.3).

    Parameters
    ----------
    runs, qrels, measures, duplicates, progress
        As in :func:`evaluate_measures`.

    Returns
    -------
    Evaluation
        ``matrices`` (``{measure name: ScoreMatrix}``, topics sorted as strings),
        ``topics_note`` and ``run_names_note``.

    Examples
    --------
    Two runs, one relevant document, ranked second by one run and first by the other:

    >>> import pandas as pd
    >>> runs = {name: pd.DataFrame({"query_id": "1", "doc_id": docs, "score": [2.0, 1.0]})
    ...         for name, docs in (("ab", ["a", "b"]), ("ba", ["b", "a"]))}
    >>> got = evaluate_scores(runs, pd.DataFrame({"query_id": ["1"], "doc_id": ["b"],
    ...                                           "relevance": [1]}), "RR")
    >>> got.matrices["RR"].values.tolist(), got.matrices["RR"].runs, got.shape
    ([[0.5, 1.0]], ['ab', 'ba'], (1, 2))
    """
    if isinstance(measures, str) or hasattr(measures, "NAME"):
        measures = [measures]
    parsed = {str(m): m for m in map(parse_measure, measures)}
    if not parsed:
        raise InputError("measures is empty: give at least one (e.g. AP, nDCG@10)")
    sources = run_sources(runs, duplicates=duplicates)
    qrels_name = str(qrels) if isinstance(qrels, (str, os.PathLike)) else "qrels"
    judged = qrels_by_topic(qrels)
    topics = sorted(q for q, docs in judged.items() if max(docs.values()) >= 1)
    if not topics:
        raise InputError("qrels: no topic has a relevant document (relevance at least 1)")
    _refuse_unreached_levels(parsed, max(max(docs.values()) for docs in judged.values()))
    wanted = set(topics)
    evaluator = evaluator_for(list(parsed.values()),
                              {q: docs for q, docs in judged.items() if q in wanted})
    no_relevant = set(judged) - wanted
    del judged
    row, plane = {t: i for i, t in enumerate(topics)}, {m: k for k, m in enumerate(parsed)}
    values = np.zeros((len(parsed), len(topics), len(sources)))
    run_topics: set = set()
    tags, each_run = [], []
    for j, load in enumerate(sources.values()):
        run = load()
        tags.append(run.tag)
        each_run.append(set(run.topics))
        run_topics.update(each_run[-1])
        try:
            for metric in evaluator.iter_calc(run.as_dict(topics)):
                values[plane[str(metric.measure)], row[metric.query_id], j] = metric.value
        except Exception as exc:  # noqa: BLE001 - any library failure becomes a user error
            raise InputError(f"measure={', '.join(parsed)!r}: ir_measures failed: "
                             f"{first_line(exc)}") from None
        del run
        if progress is not None:
            progress(1)
    match = match_topics(topics, run_topics, qrels_name=qrels_name,
                         runs_name=str(runs) if isinstance(runs, (str, os.PathLike)) else "runs",
                         no_relevant=no_relevant)
    if match.qrels_only:        # no run retrieved anything for them: not these runs' topics
        # (another year's or task's qrels), which as rows of 0 would lower V_E and n
        values, topics = values[:, [row[t] for t in match.matched], :], list(match.matched)
    names, note = run_names(runs, list(sources), tags)
    warn_missing_topics(names, each_run, match.matched)
    return Evaluation({name: ScoreMatrix(values[k], topics, names) for name, k in plane.items()},
                      match.summary, note)


#: How many runs, and topics of each, the warning of :func:`warn_missing_topics` names.
_SHOWN_RUNS, _SHOWN_TOPICS = 5, 3


def warn_missing_topics(names: list[str], each_run: list[set], matched, *,
                        where: str = "") -> None:
    """Warn, in one line, of the runs that retrieved nothing for some of the matched topics.

    Those runs are scored 0 there, as ``trec_eval -c`` does, which lowers their means: the
    warning (a :class:`~topicsetsize.matrices.topics.TopicMismatchWarning`) names each such run,
    how many topics it lacks and which (the first few). Nothing is said when every run has every
    matched topic. :func:`evaluate_measures` and
    :func:`topicsetsize.decide.pooling.pool_depth_study` both warn with it.

    Parameters
    ----------
    names : list of str
        The runs' names, in order.
    each_run : list of set
        The topics each run retrieved something for, in the same order.
    matched : sequence of str
        The topics scored (those of the qrels that some run has).
    where : str, optional
        Put before the line (e.g. ``"qrels.txt: "``, naming one collection of several).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_missing_topics(["r1", "r2"], [{"1", "2"}, {"1"}], ("1", "2"))
    >>> print(w[0].message)
    1 of 2 runs retrieved nothing for some of the 2 matched topics, scored 0 there (as \
trec_eval -c does): r2 lacks 1 (2)
    """
    import warnings

    from .topics import TopicMismatchWarning

    lacking = [(name, sorted(set(matched) - have)) for name, have in zip(names, each_run)]
    lacking = [(name, gone) for name, gone in lacking if gone]
    if not lacking:
        return
    parts = [f"{name} lacks {len(gone)} ({', '.join(gone[:_SHOWN_TOPICS])}"
             f"{', ...' if len(gone) > _SHOWN_TOPICS else ''})"
             for name, gone in lacking[:_SHOWN_RUNS]]
    more = f"; and {len(lacking) - _SHOWN_RUNS} more runs" if len(lacking) > _SHOWN_RUNS else ""
    warnings.warn(f"{where}{len(lacking)} of {len(names)} runs retrieved nothing for some of "
                  f"the {len(matched)} matched topics, scored 0 there (as trec_eval -c does): "
                  f"{'; '.join(parts)}{more}", TopicMismatchWarning, stacklevel=3)


def run_names(runs, keys: list[str], tags: list) -> tuple[list[str], str]:
    """The names of runs read by :func:`run_sources`, and one line that says how they were named.

    A folder's runs are named by the run tag their files carry (the sixth column), where a
    file has one tag and no other run has it, by the file name otherwise; a mapping's runs by
    its keys (the note is then empty). :func:`evaluate_measures` and
    :func:`topicsetsize.decide.pooling.pool_depth_study` name them so.

    Parameters
    ----------
    runs : str, Path or dict
        What was given to :func:`run_sources`.
    keys : list of str
        Its keys, in order (a folder's file names).
    tags : list
        Each run's tag (:attr:`~topicsetsize.matrices.runcolumns.RunColumns.tag`), or None.

    Returns
    -------
    tuple of (list of str, str)
        The names, in order, and the note.

    Examples
    --------
    >>> run_names({"a": None, "b": None}, ["a", "b"], ["x", "y"])
    (['a', 'b'], '')
    """
    if isinstance(runs, (str, os.PathLike)):
        return _run_names(keys, tags)
    return list(keys), ""


def _run_names(files: list[str], tags: list) -> tuple[list[str], str]:
    """Each run's name: its tag where it has one that no other run has, else its file name;
    and one line that says which.

    >>> names, note = _run_names(["a.gz", "b.gz", "c.gz"], ["x", "y", "y"])
    >>> names
    ['x', 'b.gz', 'c.gz']
    >>> note[note.index("by the file"):]
    'by the file name where the tag is missing or shared with another run: 2 of 3 (b.gz, c.gz)'
    """
    from collections import Counter

    counts = Counter(t for t in tags if t)
    names = [t if t and counts[t] == 1 else f for f, t in zip(files, tags)]
    counts = Counter(names)                         # a tag equal to another's file name
    names = [f if counts[n] > 1 else n for f, n in zip(files, names)]
    by_file = [f for f, n in zip(files, names) if n == f and f not in tags]
    note = "runs named by their run tags (the sixth column)"
    if by_file:
        shown = ", ".join(by_file[:5]) + (", ..." if len(by_file) > 5 else "")
        note += (", by the file name where the tag is missing or shared with another run: "
                 f"{len(by_file)} of {len(files)} ({shown})")
    return names, note
