"""Score matrices named by a spec: read them, estimate V_E raw and std-AB, make measures.

Everything statistical comes from the engine (:func:`topicsetsize.summarise`,
:func:`topicsetsize.std_ab`, :func:`topicsetsize.standardisation_factors`); this module only
gathers what the Variance sheet and the Tables sheet show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .spec import MatrixSpec, Measure

if TYPE_CHECKING:       # the engine's readers pull in pandas and scipy.stats: only with a matrix
    import pandas as pd

    from topicsetsize import VarianceSummary

__all__ = ["MatrixEstimate", "estimate", "measures_of", "read_note"]


@dataclass(frozen=True)
class MatrixEstimate:
    """One score matrix and what the workbook shows about it."""

    spec: MatrixSpec
    file: str                        # where it came from (a file name, never a path)
    summary: VarianceSummary         # one row of the AIRS 2016 Table 1
    runs: pd.DataFrame               # per run: mean raw, mean std-AB, ranks
    topics: pd.DataFrame             # per topic: the std-AB factors (mean, sd)
    scores: pd.DataFrame | None = None   # the matrix itself (the Report sheet)
    notes: tuple[str, ...] = ()      # what was dropped from the data, and why
    # V_E raw's and V_E std-AB's 95% intervals over the topics (as `topicsetsize variance`)
    intervals: dict = field(default_factory=dict)


def estimate(spec: MatrixSpec) -> MatrixEstimate:
    """Read the matrix of ``spec`` and summarise it.

    Raises FileNotFoundError / ValueError (one line naming the file) from the reader.

    Examples
    --------
    >>> from topicsetsize.generator.content.spec import MatrixSpec
    >>> e = estimate(MatrixSpec(name="web", path="example"))
    >>> e.summary.runs, e.summary.topics, round(e.summary.var_raw, 4)
    (88, 48, 0.0084)
    """
    import pandas as pd

    from topicsetsize import (
        InputError,
        example_matrix,
        read_matrix,
        standardisation_factors,
        std_ab,
        summarise,
    )
    from topicsetsize.estimates.variance import require_sizeable
    from topicsetsize.examples import EXAMPLE_FILE
    from topicsetsize.report import require_run_differences

    path = spec.resolved_path()
    if path is None:
        scores, file = example_matrix(), f"bundled example ({EXAMPLE_FILE})"
    else:
        scores = read_matrix(path, measure=spec.measure, fmt=spec.fmt, transpose=spec.transpose,
                             drop_incomplete_topics=spec.drop_incomplete_topics,
                             topic_ids=spec.topic_ids)
        # the file's name only: a workbook sent to others must not carry its maker's folders
        file = spec.origin or path.name
    try:
        summary = summarise(scores)
        # the calculators start from V_E raw: 0 (constant runs) would be refused as variance=0
        require_sizeable(summary.var_raw, scores)
        require_run_differences(scores.to_numpy())      # the Report sheet's minD needs some
    except InputError as exc:       # e.g. a constant matrix: say which file
        raise InputError(f"{path if path is not None else file}: {exc}") from None
    standardised = std_ab(scores)
    raw_mean, std_mean = scores.mean(axis=0), standardised.mean(axis=0)
    runs = pd.DataFrame({
        "mean_raw": raw_mean,
        "mean_std_ab": std_mean,
        "rank_raw": raw_mean.rank(ascending=False, method="min").astype(int),
        "rank_std_ab": std_mean.rank(ascending=False, method="min").astype(int),
    })
    factors = standardisation_factors(scores)
    topics = pd.DataFrame({"mean": factors.mean, "sd": factors.sd})
    notes = spec.notes
    dropped = scores.attrs.get("dropped_topics") or []
    if dropped:
        notes += (f"dropped {len(dropped)} topic(s) with missing scores "
                  f"(--drop-incomplete-topics): {', '.join(map(str, dropped[:10]))}"
                  f"{' ...' if len(dropped) > 10 else ''}",)
    from topicsetsize.estimates.variance_interval import variance_interval

    intervals = {scale: variance_interval(scores, scale=scale) for scale in ("raw", "std-ab")}
    return MatrixEstimate(spec, file, summary, runs, topics, scores, notes, intervals)


def measures_of(est: MatrixEstimate) -> list[Measure]:
    """The measures (one table each) that a matrix yields: raw and/or std-AB."""
    out = []
    for scores in est.spec.scores:
        raw = scores == "raw"
        variance = est.summary.var_raw if raw else est.summary.var_std_ab
        label = "raw" if raw else "std-AB"
        ci = est.intervals.get("raw" if raw else "std-ab")
        out.append(Measure(name=f"{est.spec.name}, {label}", variance=float(variance),
                           group=est.spec.group,
                           source=f"V_E of the {label} matrix ({est.summary.runs} runs × "
                                  f"{est.summary.topics} topics), {est.file}",
                           interval=None if ci is None else (ci.low, ci.high)))
    return out


def read_note(est: MatrixEstimate) -> str:
    """How many topics and runs were read (and how, where the file had no topic ids), as every
    matrix command says it.

    >>> from topicsetsize.generator.content.spec import MatrixSpec
    >>> read_note(estimate(MatrixSpec(name="web", path="example")))
    '48 topics x 88 runs'
    """
    note = f"{est.summary.topics} topics x {est.summary.runs} runs"
    if est.scores is not None and est.scores.attrs.get("topic_ids") is False:
        note += (" (no topic-id column: every column is a run, topics numbered "
                 f"1..{est.summary.topics})")
    return note
