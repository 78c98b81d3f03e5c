r"""Pool depth study: re-judge past runs with shallower pools and see what it does to n and cost.

A TREC pool of depth pd judges, for every topic, the union of every run's top pd documents. From
a past collection (its runs and its qrels) the effect of a shallower pool can be simulated
(Sakai, CIKM 2014, "Designing test collections for comparing many systems", §6.3): keep only the
judgments of the documents in the depth-pd pool, treat every other document as non-relevant,
re-evaluate every run, and estimate the within-system variance V_E of the new topics × runs
matrix. The topic set size at that variance times the mean number of documents judged per topic
is the assessment cost of depth pd (:func:`topicsetsize.decide.budget.budget_plan`).

**Ranking.** A run is ranked the way trec_eval ranks it (and so ir_measures, whose default
provider for AP, nDCG and P is pytrec_eval, i.e. trec_eval's code): by score, descending
(compared in single precision, as trec_eval stores scores), ties by document id, descending
(``strcmp``); the rank column of the file is ignored. The pool at depth pd
takes each run's top pd documents in that order, and ir_measures is given each run as that
ranking (distinct descending scores in that order), so the pool and the measures see the same
ranking whichever evaluator computes the measure.

**Measures** are computed by :mod:`ir_measures` only (``ir_measures.evaluator``), never here. A
topic on which a run retrieved nothing scores 0 for that run (trec_eval ``-c``); the study says
so once, naming the run and the topics, as ``evaluate`` does.

**Judged documents.** Every document in the depth-pd pool counts as judged: its relevance is
taken from the qrels, or 0 where the qrels do not judge it. Relevant documents that no run
retrieved are in no pool, at any depth: with qrels built by pooling the same runs (as TREC's
are), a depth at least the length of every run reproduces the evaluation on the full qrels.

**Incomplete judgments.** The study assumes that the qrels judge every pooled document. Where
they do not (qrels built from other runs, or from a shallower pool), a pooled document that the
qrels miss counts as non-relevant, and V_E and n then reflect the qrels' gaps as well as the pool
depth. The study reports, per depth, the share of pooled documents that the qrels judge
(``judged_share``) and warns (:class:`IncompleteJudgmentsWarning`) below
:data:`JUDGED_SHARE_MIN`. With ``condensed=True`` each run is evaluated on its condensed list
(Sakai, SIGIR 2007, "Alternatives to bpref"): the documents that neither the depth-pd pool nor
the qrels judge are removed from the ranked list before the measure is computed, as trec_eval's
``-J`` (ir_measures' ``judged_only``) does.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputError
from ..matrices.evaluation import qrels_dict, run_names, run_sources, score_run, warn_missing_topics
from ..matrices.measures import evaluator_for, parse_measure, require_ir_measures
from ..matrices.runfiles import as_qrels, as_run, read_runs
from ..matrices.topics import match_topics
from ..params import N_BOOT, check, check_choice, check_flag
from .anova_designs import check_design
from .cutoff import measure_cutoff, warn_shallower_than_cutoff
from .depth_sizes import pooled_v_e, size_depths, variance_column
from .pools import (
    JUDGED_SHARE_MIN,
    IncompleteJudgmentsWarning,
    RankedRuns,
    best_ranks,
    condensed_run,
    depth_pool,
    trec_ranking,
    warn_deeper_than_runs,
    warn_incomplete,
    warn_no_relevant,
    without_relevant,
)

__all__ = ["VARIANCE_SOURCES", "JUDGED_SHARE_MIN", "IncompleteJudgmentsWarning", "PoolDepthStudy",
           "trec_ranking", "best_ranks", "depth_pool", "pool_depth_study", "parse_measure",
           "load_collection", "require_ir_measures"]

#: Which V_E the topic set size is computed from.
VARIANCE_SOURCES = ("raw", "std-ab")


@dataclass(frozen=True, eq=False)
class PoolDepthStudy:
    """The result of :func:`pool_depth_study`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per pool depth (index ``pd``): ``judged`` (documents in the pools, all
        collections), ``judged_share`` (the share of them that the qrels judge; the others
        count as non-relevant, or with ``condensed`` are removed from the runs), ``topics``,
        ``docs_per_topic`` (= judged / topics), ``v_e_raw`` and
        ``v_e_std_ab`` (one-way residual variance, pooled over the collections; with
        ``design="anova2"`` also ``v_e2_raw`` and ``v_e2_std_ab``, the two-way one), and, when
        ``m`` and ``min_d`` are given, ``n`` and ``cost`` (and, with a budget, ``within_budget``) as
        in :func:`topicsetsize.decide.budget.budget_plan`, then ``n low`` and ``n high``, the
        bootstrap interval of n over the past topics (``n_interval``; whole numbers, or floats
        with inf where resamples need more than the search limit of 10⁹ topics),
        ``cost high``, the cost at ``n high`` (``within_budget`` is judged at the point n), and
        ``variance high``, the σ̂² (of ``variance_from``) at which n is ``n high``: a budget
        plan's ``variance_high`` (:func:`topicsetsize.budget_plan`).
    cheapest : pandas.Series or None
        The cheapest row within the budget (None without ``m``/``min_d`` or when none fits),
        never below the measure's cutoff, where n measures the pool, not the systems
        (:mod:`~topicsetsize.decide.cutoff`; ``below_cutoff``, a column where a depth is).
    scores : dict
        ``{pd: [topics × runs matrix of each collection]}``, the re-evaluated scores (each
        matrix's ``attrs["run_names_note"]`` says how its runs were named).
    measure : str
        The ir_measures name of the measure.
    budget : float or None
        The budget asked for.
    condensed : bool
        Whether the runs were evaluated on condensed lists (judged documents only).
    n_interval : NInterval or None
        With ``m`` and ``min_d`` (and ``n_boot``): the interval of n at every depth
        (``lower``/``upper`` one per row of ``table``), from the same resamples of the topics
        at every depth (:mod:`topicsetsize.estimates.uncertainty`); its ``seed`` repeats it.
    note : str
        With the legacy method, the budget plan's note on the exact n (else ""), as budget's.
    """

    table: pd.DataFrame
    cheapest: pd.Series | None
    scores: dict
    measure: str
    budget: float | None = None
    condensed: bool = False
    n_interval: object = None
    note: str = ""


def load_collection(runs, qrels, *, name: str = "") -> tuple[dict, pd.DataFrame]:
    """Runs (a folder, or a mapping {name: frame or path}) and qrels (a path or a frame), read
    and checked; returns ``({run name: frame}, qrels frame)``."""
    where = f"{name}: " if name else ""
    if isinstance(runs, (str, os.PathLike)):
        read = read_runs(runs)
    elif isinstance(runs, dict):
        read = {str(k): as_run(v, f"{where}run {k}") for k, v in runs.items()}
    else:
        raise InputError(f"{where}runs must be a folder of run files or a mapping "
                         f"{{run name: DataFrame or path}}, got {type(runs).__name__}")
    _check_two_runs(len(read), runs, where)
    return read, as_qrels(qrels, f"{where}qrels")


def _check_two_runs(count: int, runs, where: str) -> None:
    """Refuse fewer than 2 runs in one line naming them: the folder, where ``runs`` is one,
    else the collection (``where``: ``"qrels.txt: "``, ``"collection 1: "`` or nothing)."""
    if count < 2:
        name = str(runs) if isinstance(runs, (str, os.PathLike)) else f"{where}runs"
        raise InputError(f"{name}: {count} run(s); V_E needs at least 2 runs")


def pool_depth_study(runs, *, qrels, depths, measure, m=None, min_d=None, alpha=0.05, beta=0.20,
                     budget=None, method=None, variance_from="raw", duplicates="error",
                     condensed: bool = False, design: str = "anova",
                     progress: Callable[[int], object] | None = None, n_boot=N_BOOT, seed=0,
                     level: float = 0.95) -> PoolDepthStudy:
    r"""V_E, topic set size and assessment cost at each pool depth, from past runs and qrels.

    For each depth pd and each collection: build the depth-pd pool (:func:`depth_pool`), keep the
    judgments of the pooled documents (a pooled document that the qrels do not judge is judged
    non-relevant), re-evaluate every run with ir_measures, and estimate V_E of the topics × runs
    matrix, raw and after std-AB (:func:`topicsetsize.residual_variance`,
    :func:`topicsetsize.std_ab`). Several collections are combined with the pooled variance
    (:func:`topicsetsize.pooled_variance`) and the pooled mean

    .. math:: \bar J(pd) = \frac{\sum_C |\mathrm{pool}_C(pd)|}{\sum_C n_C}

    of judged documents per topic (Sakai, CIKM 2014, §6.3: (37,605 + 34,792)/(50 + 49) = 731 for
    the two TREC Robust collections at depth 100). With ``m`` and ``min_d`` the required n and
    the cost n × J̄(pd) follow (:func:`topicsetsize.decide.budget.budget_plan`).

    Parameters
    ----------
    runs : str, Path, dict, or a list of these
        A folder of TREC run files (``qid Q0 docno rank score tag``; runs named as ``evaluate``
        names them, :func:`~topicsetsize.matrices.evaluation.run_names`), or a mapping ``{run
        name: DataFrame (query_id, doc_id, score) or path}``; a list of these, one a collection.
    qrels : str, Path, DataFrame, or a list of these
        TREC qrels (``qid 0 docno rel``), or a frame (query_id, doc_id, relevance); a list, one
        per collection, when ``runs`` is a list.
    depths : sequence of int
        Pool depths, each at least 1.
    measure : str
        An ir_measures measure, e.g. ``"AP"``, ``"nDCG@10"``, ``"P@10"`` (or trec_eval's
        ``"map"``).
    m, min_d : optional
        The ANOVA design (number of systems, minimum detectable range); both or neither.
    alpha, beta, budget, method
        As in :func:`topicsetsize.decide.budget.budget_plan`.
    variance_from : {"raw", "std-ab"}
        Which V_E the topic set size uses.
    duplicates : {"error", "first"}
        A document retrieved twice within a topic of a run: refuse the run, as trec_eval does,
        or keep the first line and warn (:func:`topicsetsize.matrices.runfiles.read_run`).
    condensed : bool
        False (default): a pooled document that the qrels do not judge is non-relevant. True:
        evaluate each run on its condensed list, the documents both in the depth-pd pool and
        judged by the qrels (Sakai, SIGIR 2007), as trec_eval ``-J`` does. Anything but True or
        False (numpy bools too) is refused.
    design : {"anova", "anova2"}
        The design each depth's n is sized for: the one-way ANOVA at V_E (CIKM 2014's), or the
        two-way ANOVA with topics as blocks at V_E2 (:func:`topicsetsize.anova2_n`), the test
        for runs that share one topic set; its ``method`` is "exact" (the default method is
        each design's own, "legacy" for the one-way one).
    progress : callable, optional
        Called with 1 after each run is evaluated at a depth (depths × runs calls in all).
    n_boot, seed, level
        With ``m`` and ``min_d``: the ``level`` bootstrap interval of n at each depth
        (:func:`topicsetsize.estimates.uncertainty.n_interval`; the topics of each collection
        resampled ``n_boot`` times with ``seed`` (0 by default, as the command line's
        ``--seed``), the same resamples at every depth, V_E
        re-estimated, pooled, and n recomputed in one call). ``n_boot=None`` skips it.

    Returns
    -------
    PoolDepthStudy

    Notes
    -----
    Where the qrels judge less than :data:`JUDGED_SHARE_MIN` of the pooled documents at a
    depth, an :class:`IncompleteJudgmentsWarning` names the depths and their shares. A run that
    retrieved nothing for some matched topics scores 0 there at every depth: one warning per
    collection names it and them (:func:`topicsetsize.matrices.evaluation.warn_missing_topics`).

    Cost and memory: the qrels and each run are read and checked once (one run at a time; a
    plain file is split in one vectorised pass, :mod:`topicsetsize.matrices.fields`), and
    kept as codes, each run as its ranking in trec_eval's order (tied scores put in document-id
    order once every run is in, by one sort of the ids that tie)
    (:class:`~topicsetsize.decide.pools.RankedRuns`: 4 bytes a retrieved document, plus each
    distinct document id once); every depth's pool is built from that, and each run is
    evaluated once at each depth (one ir_measures evaluator a depth), the depths in groups whose
    pools together are at most twice the deepest. Memory holds the compact runs, one run's
    ir_measures input, the deepest pool, a group's evaluators and the score matrices
    (``benchmarks/bench_pool_depth_scale.py``: under half the size of the run files).

    Raises
    ------
    ValueError
        One line naming the file and line, or the argument: malformed run or qrels files, a
        depth below 1, qrels with no topic or no retrieved document in common with the runs.
    FileNotFoundError
        A missing folder or file.

    Examples
    --------
    The bundled CLEF 2017 TAR runs (their quirks are reported as warnings; one run repeats
    documents, whose first lines are kept):

    >>> import warnings
    >>> from topicsetsize.examples import example_runs
    >>> runs, qrels = example_runs()
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     study = pool_depth_study(runs, qrels=qrels, depths=[100, 10], measure="AP", m=20,
    ...                              min_d=0.1, duplicates="first")
    >>> study.table[["docs_per_topic", "v_e_raw", "n", "cost"]].round(4)
        docs_per_topic  v_e_raw    n     cost
    pd
    100       458.9000   0.0348  144  66081.6
    10         66.4333   0.0458  189  12555.9
    """
    require_ir_measures()
    design, method = check_design(design, method)
    variance_from = check_choice("variance_from", variance_from, VARIANCE_SOURCES)
    condensed = check_flag("condensed", condensed)
    measure = parse_measure(measure)
    depths_list = [check("depth", d, allow_array=False) for d in _depth_list(depths)]
    if (m is None) != (min_d is None):
        raise InputError("give both m and min_d (the ANOVA design) or neither")
    # Fail fast, before the long work: the design is single numbers, one for every depth.
    if m is not None:
        m = check("m", m, allow_array=False)
        min_d = check("min_d", min_d, allow_array=False)
    alpha = check("alpha", alpha, allow_array=False)
    beta = check("beta", beta, allow_array=False)
    if budget is not None:
        budget = float(check("budget", budget, allow_array=False))
    collections = _collections(runs, qrels)
    warn_shallower_than_cutoff(depths_list, measure, condensed)     # before the long work

    judged = np.zeros(len(depths_list), "int64")
    in_qrels = np.zeros(len(depths_list), "int64")
    topics_total = 0
    scores: dict[int, list[pd.DataFrame]] = {d: [] for d in depths_list}
    lost: list[list] = [[] for _ in depths_list]    # per depth and collection: no relevant
    for runs_c, qrels_c, label in collections:
        qrels_name = label or "qrels"
        where = f"{label}: " if label else ""
        sources = run_sources(runs_c, duplicates=duplicates, where=where)
        _check_two_runs(len(sources), runs_c, where)
        qrels_c = as_qrels(qrels_c, f"{where}qrels")
        # The qrels and each run read and checked once, kept as codes (RankedRuns: each run's
        # ranking in trec_eval's order): every depth's pool and every run's evaluation come
        # from them.
        ranked = RankedRuns()
        qrels_topics = qrels_c["query_id"].unique()
        ranked.add_qrels(qrels_c)
        del qrels_c
        each_run, tags = [], []         # for the runs' names and the warning below
        for load in sources.values():
            ranked.add(run := load())
            each_run.append(set(run.topics))
            tags.append(run.tag)
            del run
        ranked.done()
        topics = list(match_topics(qrels_topics, ranked.topics,
                                   qrels_name=qrels_name, runs_name="the runs").matched)
        if len(topics) < 2:
            raise InputError(f"{qrels_name}: 1 topic in common with the runs ({topics[0]!r}); "
                             "V_E needs at least 2 topics")
        names, names_note = run_names(runs_c, list(sources), tags)     # once, not a depth
        warn_missing_topics(names, each_run, topics, where=where if len(collections) > 1 else "")
        pooled = ranked.pool(max(depths_list), topics)
        if not pooled["in_qrels"].any():
            raise InputError(f"{qrels_name}: none of the documents the runs retrieve is judged")
        warn_deeper_than_runs(depths_list, int(pooled["rank"].max()),
                              where if len(collections) > 1 else "", ranked.longest)
        topics_total += len(topics)
        # Each run evaluated once at each depth, from its compact form: the depths in groups
        # whose evaluators (each holding its depth's pool) together hold at most twice the
        # deepest pool, so that memory does not grow with the number of depths.
        matrices = [np.zeros((len(topics), len(sources))) for _ in depths_list]
        sizes = [int((pooled["rank"] <= depth).sum()) for depth in depths_list]
        for group in _depth_groups(sizes):
            evaluators, kept = {}, {}
            for k in group:
                in_pool = pooled[pooled["rank"] <= depths_list[k]]
                judged[k] += len(in_pool)
                in_qrels[k] += int(in_pool["in_qrels"].sum())
                lost[k].append(without_relevant(in_pool, topics))
                if condensed:
                    in_pool = in_pool[in_pool["in_qrels"]]
                    kept[k] = in_pool.groupby("query_id", sort=False)["doc_id"].agg(set).to_dict()
                evaluators[k] = evaluator_for(measure, qrels_dict(in_pool))
                del in_pool
            for j in range(len(ranked)):
                run = ranked.run_dict(j, topics)
                for k, evaluator in evaluators.items():
                    matrices[k][:, j] = score_run(evaluator, measure,
                                                  condensed_run(run, kept[k]) if condensed else run,
                                                  topics)
                    if progress is not None:
                        progress(1)
                del run
            del evaluators, kept
        del ranked, pooled
        for k, depth in enumerate(depths_list):
            scores[depth].append(pd.DataFrame(matrices[k], index=pd.Index(topics, name="topic"),
                                              columns=pd.Index(names, name="run")))
            scores[depth][-1].attrs["run_names_note"] = names_note
    share = in_qrels / judged
    warn_incomplete(depths_list, share, condensed)
    table = pd.DataFrame({
        "judged": judged, "judged_share": share, "topics": topics_total,
        "docs_per_topic": judged / topics_total,
        **{variance_column(each, scale): [pooled_v_e(scores[d], scale, each) for d in depths_list]
           for each in dict.fromkeys(("anova", design)) for scale in VARIANCE_SOURCES},
    }, index=pd.Index(depths_list, name="pd"))
    warn_no_relevant(depths_list, lost, scores, topics_total,
                     lambda kept: pooled_v_e(kept, variance_from, design),
                     f"V_E{'2' if design == 'anova2' else ''} "
                     f"{'raw' if variance_from == 'raw' else 'std-AB'}")
    cheapest, interval, note = None, None, ""
    if m is not None:
        table, cheapest, interval, note = size_depths(
            table, scores, depths_list, m=m, min_d=min_d, alpha=alpha, beta=beta, budget=budget,
            method=method, design=design, variance_from=variance_from, n_boot=n_boot, seed=seed,
            level=level, cutoff=None if condensed else measure_cutoff(measure))
    return PoolDepthStudy(table, cheapest, scores, str(measure), budget, bool(condensed),
                          interval, note)


def _depth_groups(sizes: list) -> list[list[int]]:
    """The depths (their positions in ``sizes``, the pool size of each) in groups, in order,
    each holding pools of at most twice the largest in all (a depth alone where its pool is
    larger).

    >>> _depth_groups([100, 50, 20, 10]), _depth_groups([100, 90, 80, 70, 10])
    ([[0, 1, 2, 3]], [[0, 1], [2, 3, 4]])
    """
    cap, groups, held = 2 * max(sizes), [], 0
    for k, size in enumerate(sizes):
        if groups and held + size <= cap:
            groups[-1].append(k)
            held += size
        else:
            groups.append([k])
            held = size
    return groups


def _depth_list(depths) -> list:
    if isinstance(depths, (str, bytes)) or np.ndim(depths) > 1:
        raise InputError(f"depths={depths!r} must be a list of whole numbers")
    depths = list(np.atleast_1d(depths))
    if not depths:
        raise InputError("depths is empty: give at least one pool depth")
    if len(set(depths)) != len(depths):
        raise InputError(f"depths={[int(d) for d in depths]} has a repeated depth")
    return depths


def _collections(runs, qrels) -> list[tuple]:
    """[(runs, qrels, label)]: one collection, or several given as two lists."""
    if isinstance(qrels, (list, tuple)):
        if not isinstance(runs, (list, tuple)) or len(runs) != len(qrels):
            raise InputError("several collections: give runs and qrels as two lists of the "
                             "same length, one entry per collection")
        if not qrels:
            raise InputError("no collection given")
        return [(r, q, _label(q, k)) for k, (r, q) in enumerate(zip(runs, qrels))]
    if isinstance(runs, (list, tuple)):
        raise InputError("runs is a list (several collections): give qrels as a list too")
    return [(runs, qrels, _label(qrels, None))]


def _label(qrels, k) -> str:
    if isinstance(qrels, (str, os.PathLike)):
        return str(qrels)
    return f"collection {k}" if k is not None else ""
