"""Recommending one topic set size for several measures and designs at once.

A test collection serves several evaluation measures, each with its own variance estimate,
and several comparisons (m systems, a minimum detectable range minD). Each requirement gives
its own n (:func:`topicsetsize.anova_n`); the collection needs the largest of them, rounded
up to a round number. The AIRS 2016 std-AB paper (Section 4) states the result as

    Create 100 topics: this guarantees 80% power for comparing any m = 2 systems with a minD
    of 0.10 (93 topics are sufficient), and for comparing any m = 50 systems with a minD of
    0.20 (91 topics are sufficient).

The paper sized it with the legacy tool, whose 93 topics fall short under the exact test (96
are needed): a legacy sentence says so in place ("93 topics are sufficient by the legacy
approximation; 96 by the exact test"), so that it can be copied alone.

:func:`recommend` computes the sizes; :mod:`topicsetsize.decide.wording` writes the sentence,
and :mod:`topicsetsize.decide.requirement_files` reads the requirements from a TOML
(``[[requirements]]`` tables) or CSV file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..designs.anova import anova_power
from ..designs.registry import DESIGNS
from ..designs.scales import warn_scale
from ..errors import InputError
from ..params import check
from .anova_designs import check_design
from .limit import n_or_inf
from .wording import legacy_note, sentence

__all__ = ["Recommendation", "recommend", "check_requirement", "REQUIREMENT_KEYS"]

#: The keys of a requirement: ``label`` is optional, the others are required.
REQUIREMENT_KEYS = ("label", "variance", "m", "min_d")
REQUIRED_KEYS = REQUIREMENT_KEYS[1:]


@dataclass(frozen=True)
class Recommendation:
    """The result of :func:`recommend`.

    Attributes
    ----------
    n : int
        The recommended number of topics: the largest required n, rounded up to a multiple
        of ``round_to``.
    requirements : pandas.DataFrame
        One row per requirement, indexed 1, 2, ... (``requirement``), with the columns
        ``label`` (None where not given), ``variance``, ``m``, ``min_d``, ``n`` (its own
        required n) and ``power`` (its power at the recommended n, by ``method``).
    sentence : str
        The recommendation in the papers' words; with ``method="legacy"``, each size below its
        exact n says both ("93 topics are sufficient by the legacy approximation; 96 by the
        exact test"), and so does the guarantee where ``short``.
    alpha, beta : float
    round_to : int
    method : str
    note : str
        With ``method="legacy"``, what the exact noncentral F says of it
        (:func:`~topicsetsize.decide.wording.legacy_note`): the recommended n falls short of
        1 − β under it (then with the exact recommendation), or only a requirement's own n
        does; "" where the legacy sizes are the exact ones, and with ``method="exact"``.
    short : bool
        With ``method="legacy"``, whether the recommended n falls short of 1 − β for some
        requirement under the exact noncentral F (the note's first case: the sentence's
        guarantee does not hold).
    design : str
        "anova" (the one-way ANOVA at each requirement's V_E) or "anova2" (the two-way ANOVA,
        topics as blocks, at its V_E2).

    Examples
    --------
    >>> r = recommend([{"label": "EN nDCG@3", "variance": 0.0259, "m": 10, "min_d": 0.1}])
    >>> r.n, int(r.requirements.loc[1, "n"]), round(float(r.requirements.loc[1, "power"]), 3)
    (90, 82, 0.848)
    """

    n: int
    requirements: pd.DataFrame
    sentence: str
    alpha: float
    beta: float
    round_to: int
    method: str
    note: str = ""
    short: bool = False
    design: str = "anova"

    def __str__(self) -> str:
        return self.sentence


def place_text(place: str, label) -> str:
    """How a message names a requirement: its place, and its label where it has one."""
    return place if label is None else f"{place} ({label!r})"


def clean_label(value):
    """A requirement's label as one line of plain text, or None when absent or blank.

    Control characters (newlines, escape sequences) become spaces and runs of whitespace
    collapse, so a label can never break a one-line message or a table row.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = "".join(c if c.isprintable() else " " for c in str(value))
    return " ".join(text.split()) or None


def check_requirement(requirement, *, where: str = "requirement") -> dict:
    """Validate one requirement and return it as ``{label, variance, m, min_d}``.

    Parameters
    ----------
    requirement : mapping
        The keys ``variance``, ``m``, ``min_d`` and optionally ``label`` (any other key is
        an error). Numbers are checked against :data:`topicsetsize.PARAMS`; the label is
        kept as one line of text (None when absent; a blank one is refused).
    where : str
        How error messages name the requirement (e.g. "requirement 2 ('EN nDCG@3')" or
        "needs.csv, line 3").

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        One line: ``where`` (with the label, where there is one), then the key and what is
        wrong with it.

    Examples
    --------
    >>> check_requirement({"label": "EN nDCG@3", "variance": 0.0259, "m": 10.0, "min_d": 0.1})
    {'label': 'EN nDCG@3', 'variance': 0.0259, 'm': 10, 'min_d': 0.1}
    >>> check_requirement({"variance": 0.0259, "m": 10}, where="--require 1")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: --require 1: missing key 'min_d' (needs variance, m, min_d; label is
    optional)
    """
    return checked_requirement(requirement, where)


def checked_requirement(raw, where: str) -> dict:
    """Validate one requirement; every error is one line starting with ``where``."""
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: {type(raw).__name__} is not a mapping with the keys "
                         f"{', '.join(REQUIRED_KEYS)} (and optionally label)")
    keys = {str(k): v for k, v in raw.items()}
    where = place_text(where, clean_label(keys.get("label")))
    unknown = [k for k in keys if k not in REQUIREMENT_KEYS]
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r} (allowed: "
                         f"{', '.join(REQUIREMENT_KEYS)})")
    missing = [k for k in REQUIRED_KEYS if k not in keys]
    if missing:
        raise InputError(f"{where}: missing key {missing[0]!r} (needs {', '.join(REQUIRED_KEYS)}; "
                         "label is optional)")
    out = {"label": clean_label(keys.get("label"))}
    if out["label"] is None and isinstance(keys.get("label"), str):
        raise InputError(f"{where}: label={keys['label']!r} is blank: give a label, or leave "
                         "the key out")
    for key in REQUIRED_KEYS:
        try:
            out[key] = check(key, keys[key], allow_array=False)
        except InputError as error:
            raise InputError(f"{where}: {error}") from None
    return out


def _requirements(requirements) -> list[dict]:
    if isinstance(requirements, pd.DataFrame):
        unknown = [c for c in requirements.columns if str(c) not in REQUIREMENT_KEYS]
        if unknown:
            raise InputError(f"requirements: unknown column {str(unknown[0])!r} (allowed: "
                             f"{', '.join(REQUIREMENT_KEYS)})")
        missing = [k for k in REQUIRED_KEYS if k not in requirements.columns]
        if missing:
            raise InputError(f"requirements: missing column {missing[0]!r} (needs "
                             f"{', '.join(REQUIRED_KEYS)}; label is optional)")
        items = requirements.to_dict("records")
    elif isinstance(requirements, Mapping):
        items = [requirements]
    elif isinstance(requirements, (str, bytes)) or not hasattr(requirements, "__iter__"):
        raise InputError(f"requirements={requirements!r:.60} is not a list of requirements "
                         f"(mappings with the keys {', '.join(REQUIRED_KEYS)}, optionally label)")
    else:
        items = list(requirements)
    if not items:
        raise InputError("requirements is empty: give at least one requirement with "
                         f"{', '.join(REQUIRED_KEYS)}")
    out = []
    for i, raw in enumerate(items, 1):
        out.append(checked_requirement(raw, f"requirement {i}"))
        label = out[-1]["label"]
        if label is not None and label in (r["label"] for r in out[:-1]):
            raise InputError(f"requirement {i}: label={label!r} is given twice: give each "
                             "requirement its own label")
    return out


def recommend(requirements, *, alpha=0.05, beta=0.20, round_to=10, method=None,
              design="anova") -> Recommendation:
    """One topic set size that meets every requirement, and the sentence that states it.

    Each requirement (variance σ̂², m systems, minimum detectable range minD) needs
    n_i = :func:`topicsetsize.anova_n` (α, β, minD, σ̂², m); the recommendation is
    n = ⌈max_i n_i / round_to⌉ · round_to (Sakai, AIRS 2016, Section 4). Because n_i is the
    size from which the power *stays* at or above 1 − β, every requirement has that power at
    n; the ``power`` column shows it.

    Parameters
    ----------
    requirements : list of mappings, or pandas.DataFrame
        Each with the keys (columns) ``variance``, ``m`` and ``min_d`` and an optional
        ``label`` (text, e.g. the measure: "EN nDCG@3"). A single mapping is one requirement.
    alpha, beta : float
        Error probabilities in (0, 1), shared by every requirement.
    round_to : int
        Round the recommendation up to a multiple of this (≥ 1; 1 means no rounding).
    method : {"legacy", "exact"}, optional
        By default the design's own: "legacy" for the one-way ANOVA, "exact" for the two-way.
    design : {"anova", "anova2"}
        The one-way ANOVA, as in the paper, or the two-way ANOVA with topics as blocks
        (:func:`topicsetsize.anova2_n`): the test for runs that share one topic set, each
        requirement's ``variance`` then its V_E2, and the sentence says the design.

    Returns
    -------
    Recommendation
        ``.n``, ``.requirements`` (a DataFrame with each requirement's own n and its power at
        ``.n``; with the legacy method, also the exact test's n and its exact power at ``.n``,
        ``n_exact`` and ``power_exact``) and ``.sentence``.

    Raises
    ------
    ValueError
        One line naming the requirement (its number and label) and the key: a missing or
        unknown key, or a value out of range.

    Examples
    --------
    The AIRS 2016 recommendation for MedNLPDoc raw recall (σ̂² = .0601, Table 2 part I:
    m = 2, minD = .10 needs 93 topics; m = 50, minD = .20 needs 91):

    >>> r = recommend([{"variance": 0.0601, "m": 2, "min_d": 0.10},
    ...                {"variance": 0.0601, "m": 50, "min_d": 0.20}])
    >>> r.n
    100
    >>> print(r.sentence)    # the paper's, with what the exact test needs beside the legacy 93
    Create 100 topics: this guarantees 80% power for comparing any m = 2 systems with a minD of
    0.10 (93 topics are sufficient by the legacy approximation; 96 by the exact test), and for
    comparing any m = 50 systems with a minD of 0.20 (91 topics are sufficient).
    >>> r.requirements[["m", "min_d", "n"]]
                  m  min_d   n
    requirement
    1             2    0.1  93
    2            50    0.2  91
    >>> recommend([{"variance": 0.0259, "m": 10, "min_d": -0.1, "label": "EN nDCG@3"}])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: requirement 1 ('EN nDCG@3'): min_d=-0.1 is out of range: allowed min_d
    > 0
    """
    design, method = check_design(design, method)
    n_of, power_of = (DESIGNS[design].function(role) for role in ("n", "power"))
    alpha = check("alpha", alpha, allow_array=False)
    beta = check("beta", beta, allow_array=False)
    round_to = check("round_to", round_to, allow_array=False)
    items = _requirements(requirements)
    frame = pd.DataFrame(items, columns=list(REQUIREMENT_KEYS),
                         index=pd.RangeIndex(1, len(items) + 1, name="requirement"))
    frame["m"] = frame["m"].astype(np.int64)
    frame["label"] = frame["label"].astype(object).where(frame["label"].notna(), None)
    warn_scale({"min_d": frame["min_d"].to_numpy(), "variance": frame["variance"].to_numpy()},
               given=True)         # once: the calls below do not note (the package's own)
    try:
        need = np.atleast_1d(n_of(alpha, beta, frame["min_d"].to_numpy(),
                                  frame["variance"].to_numpy(), frame["m"].to_numpy(),
                                  method=method))
    except InputError:            # e.g. a minD too small for any n: say which requirement
        for row in frame.itertuples():
            try:
                n_of(alpha, beta, row.min_d, row.variance, row.m, method=method)
            except InputError as error:
                where = place_text(f"requirement {row.Index}", row.label)
                raise InputError(f"{where}: {error}") from None
        raise
    frame["n"] = need.astype(np.int64)
    n = int(-(-int(need.max()) // round_to) * round_to)
    frame["power"] = np.atleast_1d(power_of(n, m=frame["m"].to_numpy(),
                                            min_d=frame["min_d"].to_numpy(),
                                            variance=frame["variance"].to_numpy(),
                                            alpha=alpha, method=method))
    note, short, exact_n = "", False, None
    if method == "legacy":      # the legacy ANOVA under-sizes n: what the exact power says
        args = (frame["min_d"].to_numpy(), frame["variance"].to_numpy(), frame["m"].to_numpy())
        exact_n = n_or_inf("anova", *args[:2], alpha=alpha, beta=beta, m=args[2],
                           method="exact")      # inf: no n up to the limit
        exact_power = np.atleast_1d(anova_power(n, m=args[2], min_d=args[0], variance=args[1],
                                                alpha=alpha, method="exact"))
        note = legacy_note(n, frame, exact_n, exact_power, beta, round_to)
        short = bool((exact_power < 1.0 - beta).any())
    said = sentence(n, frame, beta, alpha, exact_n, short, design=design)
    if exact_n is not None:     # beside the legacy n and power, the exact ones: a table or a
        # CSV of the requirements carries what the sentence and the note say (a review,
        # 2026-12-07: recommend --csv gave 141 and .829 where the text said 143 by the exact test)
        frame["n_exact"] = exact_n.astype(np.int64) if np.isfinite(exact_n).all() else exact_n
        frame["power_exact"] = exact_power
    return Recommendation(n, frame, said, alpha, beta, round_to, method, note, short, design)


# --- Requirement files ---------------------------------------------------------------------------
