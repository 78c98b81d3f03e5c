"""Workbook specs: declarative TOML files that say what a generated workbook contains.

A spec names the measures (each with a variance, or a score matrix to estimate it from), the
grids of m and minD for the topic set size tables, α and β, and optionally the starting values
of the calculators. Example (the bundled ``ntcir12_std_ab.toml`` is a full one)::

    title = "My track: topic set sizes"
    alpha = 0.05
    beta = 0.20
    m = [2, 10, 20]
    min_d = [0.05, 0.1]

    [[measures]]
    name = "nDCG@10, raw"
    variance = 0.0259

    [[matrices]]              # estimate V_E raw and std-AB from a score matrix
    name = "Web 2010 AP"
    path = "example"          # the bundled example, or a file relative to the spec
    scores = ["raw", "std-ab"]

    [calculators.anova]       # where the ANOVA calculator starts
    min_d = 0.1

This module holds what a spec is (:class:`Spec`, :class:`Measure`, :class:`MatrixSpec` and the
keys each section allows); :mod:`content.spec_reader` reads and validates one, and every error
is one line that names the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from topicsetsize.decide.budget import ROW_KEYS, ROW_OPTIONAL

from .calculators import INPUTS

__all__ = ["Spec", "Measure", "MatrixSpec", "SCORES", "EXAMPLE", "DECIDE_MS"]

#: The ``path`` of a matrix that means the bundled TREC 2010 Web example.
EXAMPLE = "example"
#: Which variance estimates a matrix yields.
SCORES = ("raw", "std-ab")

TOP_KEYS = ("title", "description", "alpha", "beta", "m", "min_d", "chart_method", "output",
             "measures", "matrices", "calculators", "parts", "decide", "requirements",
             "pool_depths", "budget")
DECIDE_KEYS = ("n", "min_d", "m", "variance", "round_to", "method", "design")
#: A ``[[pool_depths]]`` row's keys, required and optional, as a budget plan's (declared once).
POOL_KEYS, POOL_OPTIONAL = ROW_KEYS, ROW_OPTIONAL
BUDGET_KEYS = ("documents", "m", "min_d", "method", "design")
#: The m of the Decide sheet when the spec gives none (the papers' tables).
DECIDE_MS = (2, 5, 10, 20, 50, 100)
MEASURE_KEYS = ("name", "variance", "group", "source", "m", "min_d")
GRID_KEYS = ("m", "min_d")
MATRIX_KEYS = ("name", "path", "measure", "scores", "group", "topic_ids",
               "drop_incomplete_topics")
#: A matrix's keys that are true or false, and what each value means (for its error).
MATRIX_FLAGS = {
    "topic_ids": "true (the first column holds the topic ids) or false (every column is a "
                 "run's), or leave it out to detect it",
    "drop_incomplete_topics": "true (leave out the topics with a missing score, as "
                              "--drop-incomplete-topics does) or false (the default: refuse them)"}


@dataclass(frozen=True)
class Measure:
    """A measure with a known variance: one topic set size table (rows m, columns minD)."""

    name: str
    variance: float
    group: str = ""
    source: str = ""
    m: tuple[int, ...] = ()            # the measure's own grid (else its part's, else the spec's)
    min_d: tuple[float, ...] = ()
    # σ̂²'s 95% interval over the past topics (low, high), where the variance comes from a matrix
    interval: tuple[float, float] | None = None


@dataclass(frozen=True)
class MatrixSpec:
    """A score matrix to estimate variances from (``path`` may be :data:`EXAMPLE`)."""

    name: str
    path: str
    measure: str | None = None
    scores: tuple[str, ...] = SCORES
    group: str = ""
    base: Path | None = None          # folder that a relative path is taken from
    fmt: str | None = None            # the reader's options (read_matrix)
    transpose: bool = False
    drop_incomplete_topics: bool = False
    topic_ids: bool | None = None     # the file has a topic-id column (None: detect)
    #: what the matrix was made from, where its file is not the data itself (run files
    #: evaluated to a temporary file): shown in place of the file's name
    origin: str = ""
    #: what was dropped from the data and why (one sentence each), for the reader
    notes: tuple[str, ...] = ()

    def resolved_path(self) -> Path | None:
        """The file to read, or None for the bundled example."""
        if self.path == EXAMPLE:
            return None
        path = Path(self.path).expanduser()
        return path if path.is_absolute() or self.base is None else self.base / path


@dataclass(frozen=True)
class Spec:
    """A parsed, validated workbook spec."""

    title: str
    alpha: float = 0.05
    beta: float = 0.20
    m: tuple[int, ...] = ()
    min_d: tuple[float, ...] = ()
    measures: tuple[Measure, ...] = ()
    matrices: tuple[MatrixSpec, ...] = ()
    calculators: dict = field(default_factory=dict)   # {"anova": {"alpha": .05, ...}, ...}
    decide: dict = field(default_factory=dict)        # {"n": 100, "min_d": .1, "m": (...), ...}
    requirements: tuple[dict, ...] = ()               # {label, variance, m, min_d} each
    pool_depths: tuple[dict, ...] = ()   # {pd, docs_per_topic, variance[, variance_high]} each
    budget: dict = field(default_factory=dict)  # {"documents", "m", "min_d", "method", "design"}
    parts: dict = field(default_factory=dict)         # {"V": {"m": (2, ..., 100)}, ...}
    description: str = ""
    chart_method: str = "legacy"
    output: str = "topicsetsize.xlsx"
    source: str = "<spec>"
    start_from: str = ""                               # the matrix the calculators start
                                                       # from ("": the first)

    def grid(self, measure: Measure) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The (m, minD) grid of ``measure``'s table: its own ``m``/``min_d``, else its
        part's (``[parts.<group>]``), else the spec's.

        >>> from topicsetsize.generator.content.spec_reader import spec_from_dict
        >>> spec = spec_from_dict({"title": "t", "m": [2, 10], "min_d": [0.1],
        ...                        "parts": {"V": {"m": [2, 10, 100]}},
        ...                        "measures": [{"name": "a", "variance": 0.1, "group": "V"},
        ...                                     {"name": "b", "variance": 0.1}]})
        >>> spec.grid(spec.measures[0]), spec.grid(spec.measures[1])
        (((2, 10, 100), (0.1,)), ((2, 10), (0.1,)))
        """
        part = self.parts.get(measure.group, {})
        return (measure.m or part.get("m") or self.m,
                measure.min_d or part.get("min_d") or self.min_d)

    def calculator_value(self, calculator: str, key: str):
        """Starting value of a calculator input (the spec's, else the built-in default)."""
        values = self.calculators.get(calculator, {})
        if key in values:
            return values[key]
        return next(i.default for i in INPUTS[calculator] if i.key == key)
