r"""Assessment budget and pool depth: how many topics, how deep, at what cost.

Pooling to depth pd judges the union of every run's top pd documents per topic. A shallower pool
costs fewer judgments per topic but gives noisier scores (a larger within-system variance), so
more topics are needed for the same power. Sakai (CIKM 2014, "Designing test collections for
comparing many systems", §6.3) compares the choices by their total assessment cost

.. math:: C(pd) = n(pd) \times \bar J(pd)

where n(pd) is the topic set size of the one-way ANOVA design at the variance σ̂²(pd) observed at
depth pd (or of the two-way design at V_E2, ``design="anova2"``), and J̄(pd) the mean number of
documents judged per topic at that depth. The cheapest depth that fits the budget is the one to
choose.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..designs.registry import DESIGNS
from ..designs.scales import warn_scale
from ..errors import InputError
from ..params import check, check_choice, check_method
from .anova_designs import DESIGN_METHODS, check_design
from .limit import n_or_inf
from .wording import budget_note, whole_documents

# pandas is imported where a plan is made: a workbook without pool depths never needs it
# (its import was 0.2 s of the default workbook's CPU)
if TYPE_CHECKING:
    import pandas as pd

#: Top-level keys of a plan file (TOML), with whether they are required.
PLAN_KEYS = {"m": True, "min_d": True, "alpha": False, "beta": False, "budget": False,
             "method": False, "design": False}
#: Keys of each ``[[pool_depths]]`` row (all required), and the parameter that checks each.
ROW_KEYS = {"pd": "depth", "docs_per_topic": "docs_per_topic", "variance": "variance"}
#: The optional key of a ``[[pool_depths]]`` row (every row or none): the upper end of σ̂²'s
#: interval at that depth (``topicsetsize pool-depth --csv``'s ``variance high``), which gives
#: ``n high`` and ``cost high``.
ROW_OPTIONAL = {"variance_high": "variance"}

__all__ = ["BudgetPlan", "NestedPoolsWarning", "budget_plan", "cheapest_row", "read_plan",
           "PLAN_KEYS", "ROW_KEYS", "ROW_OPTIONAL"]


@dataclass(frozen=True, eq=False)
class BudgetPlan:
    """The result of :func:`budget_plan`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per pool depth (index ``pd``): ``docs_per_topic``, ``variance``, the required
        ``n``, the ``cost`` n × docs_per_topic and ``within_budget`` (True everywhere when no
        budget is given); with ``variances_high``, also ``variance high``, ``n high`` (n at it;
        inf beyond the search limit of 10⁹ topics) and ``cost high`` (n high × docs_per_topic).
    cheapest : pandas.Series or None
        The row of ``table`` with the smallest cost among those within the budget (ties: the
        deeper pool); None when no depth fits the budget.
    budget : float or None
        The budget asked for.
    note : str
        With ``method="legacy"``, the depths whose legacy n falls short of 1 − β under the
        exact noncentral F, with the exact n and cost (the legacy ANOVA under-sizes n); ""
        where none does, and with ``method="exact"``.
    """

    table: pd.DataFrame
    cheapest: pd.Series | None
    budget: float | None
    note: str = ""


def budget_plan(depths, *, docs_per_topic, variances, m, min_d, alpha=0.05, beta=0.20,
                budget=None, method=None, variances_high=None, design="anova") -> BudgetPlan:
    r"""Topic set size and assessment cost at each pool depth (Sakai, CIKM 2014, §6.3).

    For each depth pd, n(pd) = ``anova_n(alpha, beta, min_d, variances[pd], m)`` and the cost is
    n(pd) × ``docs_per_topic[pd]``; the depths whose cost is at most ``budget`` fit it. With
    ``design="anova2"``, n(pd) is the two-way ANOVA's (:func:`topicsetsize.anova2_n`, topics as
    blocks: the test for runs that share one topic set) from the two-way residual variance V_E2.

    Parameters
    ----------
    depths : sequence of int
        Pool depths pd (each at least 1, no repeats).
    docs_per_topic : sequence of float
        Mean number of documents judged per topic at each depth.
    variances : sequence of float
        Within-system variance σ̂² (V_E) estimated at each depth.
    m : int
        Number of systems the ANOVA design compares.
    min_d : float
        Minimum detectable range.
    alpha, beta : float
        Type I and II error probabilities.
    budget : float, optional
        The number of documents that can be judged in all.
    method : {"legacy", "exact"}, optional
        How n is computed (:func:`topicsetsize.anova_n`): by default "legacy" for the one-way
        design, as in the paper, "exact" for the two-way one (it has no legacy approximation).
    design : {"anova", "anova2"}
        The one-way ANOVA (CIKM 2014's) or the two-way one, whose ``variances`` are V_E2.
    variances_high : sequence of float, optional
        The upper end of each depth's σ̂² interval (at least ``variances``; e.g. the
        ``variance high`` column of :func:`topicsetsize.pool_depth_study`): n is non-decreasing
        in σ̂², so n at it is the upper end of n's interval, and the cost there is what the
        budget must cover for that level of confidence (``within_budget`` stays judged at n).

    Returns
    -------
    BudgetPlan

    Raises
    ------
    ValueError
        One line naming the argument: a depth below 1 or repeated, a non-positive budget, count
        or variance, lists of different lengths, a list given for m, min_d, alpha or beta.

    Examples
    --------
    The cost figure of CIKM 2014 §6.3: n = 476 topics at pd = 30 with 253 documents judged per
    topic cost 120,428 judgments, within a budget of 150,000. The variances here are
    illustrative (σ̂² = 0.1525 gives n = 476 for m = 10 and minD = 0.10):

    >>> plan = budget_plan([100, 30, 10], docs_per_topic=[731, 253, 100],
    ...                    variances=[0.14, 0.1525, 0.19], m=10, min_d=0.10, budget=150_000)
    >>> plan.table
         docs_per_topic  variance    n    cost  within_budget
    pd
    100           731.0    0.1400  437  319447          False
    30            253.0    0.1525  476  120428           True
    10            100.0    0.1900  593   59300           True
    >>> int(plan.cheapest.name), int(plan.cheapest["cost"])
    (10, 59300)

    With the upper ends of the σ̂² intervals, n high and the cost at it:

    >>> high = budget_plan([30, 10], docs_per_topic=[253, 100], variances=[0.1525, 0.19],
    ...                    variances_high=[0.21, 0.26], m=10, min_d=0.10, budget=150_000)
    >>> high.table[["n", "n high", "cost", "cost high"]]
          n  n high    cost  cost high
    pd
    30  476     655  120428     165715
    10  593     811   59300      81100
    """
    design, method = check_design(design, method)
    # One design for every depth: single numbers, not one per depth.
    m, min_d, alpha, beta = (check(name, value, allow_array=False) for name, value in
                             (("m", m), ("min_d", min_d), ("alpha", alpha), ("beta", beta)))
    depths = [check("depth", d, allow_array=False) for d in _as_list(depths, "depths")]
    if len(set(depths)) != len(depths):
        raise InputError(f"depths={depths} has a repeated depth: give each depth once")
    docs = check("docs_per_topic", np.asarray(_as_list(docs_per_topic, "docs_per_topic"), float))
    variances = check("variance", np.asarray(_as_list(variances, "variances"), float))
    figures = [("docs_per_topic", docs), ("variances", variances)]
    if variances_high is not None:
        variances_high = check("variance", np.asarray(_as_list(variances_high,
                                                               "variances_high"), float))
        figures.append(("variances_high", variances_high))
    for name, values in figures:
        if len(values) != len(depths):
            raise InputError(f"{name} has {len(values)} values for {len(depths)} depths: give one "
                             "value per depth")
    if budget is not None:
        budget = float(check("budget", budget, allow_array=False))
    _warn_if_not_nested(depths, docs)
    import pandas as pd

    n_of = DESIGNS[design].function("n")            # anova_n, or anova2_n for the two-way design
    n = np.atleast_1d(n_of(alpha, beta, min_d, variances, m, method=method)).astype("int64")
    warn_scale({"min_d": min_d, "variance": np.concatenate(   # once: the package's calls do not
        [variances, [] if variances_high is None else variances_high])}, given=True)
    cost = n * docs
    # within the budget as the cost is shown, in whole documents (a budget is a whole number)
    fits = whole_documents(cost) <= budget if budget is not None else np.ones(len(depths), bool)
    table = pd.DataFrame({"docs_per_topic": docs, "variance": variances, "n": n,
                          "cost": _whole_if_possible(cost), "within_budget": fits},
                         index=pd.Index(depths, name="pd"))
    if variances_high is not None:
        table = table.assign(**_high(variances_high, variances, docs, depths, design, m=m,
                                     min_d=min_d, alpha=alpha, beta=beta, method=method))
    cheapest, note = cheapest_row(table), ""
    if method == "legacy":       # (the one-way design's)
        # a legacy n below the limit may have an exact one beyond it: inf
        exact = np.atleast_1d(n_or_inf("anova", min_d, variances, alpha=alpha, beta=beta, m=m,
                                       method="exact"))
        note = budget_note(depths, n, exact, docs, beta,
                           first=None if cheapest is None else cheapest.name, budget=budget)
    return BudgetPlan(table, cheapest, budget, note)


def _high(variances_high, variances, docs, depths, kind, **design) -> dict:
    """The columns ``variance high``, ``n high`` (inf beyond the search limit) and ``cost high``
    of :func:`budget_plan`."""
    below = np.flatnonzero(variances_high < variances)
    if below.size:
        k = below[0]
        raise InputError(f"variance_high={variances_high[k]:.10g} at pd={depths[k]} is below "
                         f"its variance {variances[k]:.10g}: the upper end of σ̂²'s interval is "
                         "at least σ̂²")
    n_high = n_or_inf(kind, design.pop("min_d"), variances_high, **design)
    whole = np.isfinite(n_high).all()
    return {"variance high": variances_high,
            "n high": n_high.astype("int64") if whole else n_high,
            "cost high": _whole_if_possible(n_high * docs) if whole else n_high * docs}


class NestedPoolsWarning(UserWarning):
    """Documents per topic that no pools of these depths judge: a deeper pool fewer than a
    shallower one (which it holds), or a pool fewer than its depth (a run's top pd of a topic)."""


def _warn_if_not_nested(depths: list, docs: np.ndarray) -> None:
    """:class:`NestedPoolsWarning` naming the first pool with fewer documents per topic than its
    depth, else the first deeper pool with fewer than a shallower one.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _warn_if_not_nested([10, 30, 100], np.array([2000.0, 500.0, 1200.0]))
    >>> print(caught[0].message)
    docs_per_topic: pd=30 judges 500 documents per topic, fewer than pd=10's 2,000; a
    depth-pd pool holds every shallower one, so a deeper pool judges at least as many (check
    the values' order: one per depth, as the depths are given)
    """
    below = np.flatnonzero(docs < np.asarray(depths, float))
    if below.size:          # a budget review: 458,9 for pd=100,20 (a decimal comma?) was taken
        k = below[0]
        warnings.warn(NestedPoolsWarning(
            f"docs_per_topic: pd={depths[k]} judges {docs[k]:,.10g} documents per topic, fewer "
            f"than its depth; a depth-pd pool holds each run's top pd documents of every topic, "
            "so it judges at least pd unless the runs retrieve fewer (check the values: one per "
            "depth, as the depths are given)"), stacklevel=3)
        return
    order = np.argsort(depths, kind="stable")
    shallower_max = np.maximum.accumulate(docs[order])
    fewer = np.flatnonzero(docs[order][1:] < shallower_max[:-1])
    if not fewer.size:
        return
    deep = order[fewer[0] + 1]
    shallow = order[:fewer[0] + 1][np.argmax(docs[order][:fewer[0] + 1])]
    warnings.warn(NestedPoolsWarning(
        f"docs_per_topic: pd={depths[deep]} judges {docs[deep]:,.10g} documents per topic, "
        f"fewer than pd={depths[shallow]}'s {docs[shallow]:,.10g}; a depth-pd pool holds every "
        "shallower one, so a deeper pool judges at least as many (check the values' order: one "
        "per depth, as the depths are given)"), stacklevel=3)


def cheapest_row(table: pd.DataFrame) -> pd.Series | None:
    """The row with the smallest ``cost`` among those ``within_budget`` (ties: the deepest pool).

    >>> import pandas as pd
    >>> t = pd.DataFrame({"cost": [10, 5, 5], "within_budget": [True, True, False]},
    ...                  index=pd.Index([100, 50, 10], name="pd"))
    >>> int(cheapest_row(t).name)
    50
    """
    fits = table[table["within_budget"].astype(bool)]
    if fits.empty:
        return None
    order = np.lexsort((-fits.index.to_numpy(), fits["cost"].to_numpy()))
    return fits.iloc[order[0]]


def _as_list(values, name: str) -> list:
    if isinstance(values, (str, bytes)) or np.ndim(values) != 1:
        raise InputError(f"{name}={values!r} must be a list of numbers, one per pool depth")
    values = list(values)
    if not values:
        raise InputError(f"{name} is empty: give at least one pool depth")
    return values


def _whole_if_possible(values: np.ndarray) -> np.ndarray:
    """Integers where every value is one and exact in a float (below 2**53: no wrap to -2**63)."""
    whole = np.all(values == np.round(values)) and np.all(np.abs(values) < 2.0 ** 53)
    return values.astype("int64") if whole else values


def read_plan(path) -> dict:
    """Read a budget plan (TOML) into the keyword arguments of :func:`budget_plan`.

    The file has top-level ``m``, ``min_d`` and optionally ``alpha``, ``beta``, ``budget``,
    ``method`` and ``design`` ("anova2": its variances are V_E2), and one ``[[pool_depths]]``
    table per depth with ``pd``, ``docs_per_topic`` and ``variance``, and optionally (at every
    depth or none) ``variance_high``, σ̂²'s upper end (pool-depth --csv's ``variance high``)::

        m = 10
        min_d = 0.10
        budget = 150000

        [[pool_depths]]
        pd = 30
        docs_per_topic = 253
        variance = 0.1525
        variance_high = 0.21

    Returns
    -------
    dict
        ``depths``, ``docs_per_topic``, ``variances`` (and ``variances_high``) and the
        top-level keys given.

    Raises
    ------
    ValueError
        One line naming the file and the key: a missing or unknown key, a value out of range
        (a negative budget, a depth of 0), an unknown design, or a file that is not TOML.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "plan.toml"
    >>> _ = f.write_text("m = 10\\nmin_d = 0.1\\n[[pool_depths]]\\npd = 30\\n"
    ...                  "docs_per_topic = 253\\nvariance = 0.1525\\n")
    >>> read_plan(f)["depths"]
    [30]
    >>> _ = f.write_text("m = 10\\nmin_d = 0.1\\nbudget = -5\\n")
    >>> read_plan(f)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: .../plan.toml: budget = -5 is out of range: allowed 0 < budget <= ...
    """
    from pathlib import Path

    from ..tomlfile import key_error, read_toml

    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a folder, not a plan file (give a .toml file)")
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    data = read_toml(path)          # read once: a pipe (<(...)) is a plan too
    if not data:                    # as recommend --file says it (a review, 2026-12-07)
        raise InputError(f"{path}: empty (no key; a plan is TOML: m, min_d and a [[pool_depths]] "
                         "table per depth, docs/deciding.md)")
    unknown = sorted(set(data) - set(PLAN_KEYS) - {"pool_depths"})
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} (allowed: "
                         f"{', '.join(list(PLAN_KEYS) + ['pool_depths'])})")
    out: dict = {}
    for key, required in PLAN_KEYS.items():
        if key not in data:
            if required:
                raise InputError(f"{path}: missing key {key!r}")
            continue
        try:
            out[key] = (check_method(data[key]) if key == "method" else
                        check_choice(key, data[key], tuple(DESIGN_METHODS)) if key == "design"
                        else check(key, data[key], allow_array=False))
        except InputError as exc:
            raise key_error(path, key, exc) from None
    rows = data.get("pool_depths")
    if not rows:        # absent, or an empty list (which is there, and holds no depth)
        said = "missing key 'pool_depths'" if rows is None else "'pool_depths' is empty"
        raise InputError(f"{path}: {said} (one [[pool_depths]] table per depth, with pd, "
                         "docs_per_topic and variance)")
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise InputError(f"{path}: 'pool_depths' must be [[pool_depths]] tables")
    keys = {**ROW_KEYS, **ROW_OPTIONAL}
    columns: dict = {key: [] for key in keys}
    for k, row in enumerate(rows, start=1):    # counted from 1, as the workbook spec does
        where = f"pool_depths[{k}]"
        extra = sorted(set(row) - set(keys))
        if extra:
            raise InputError(f"{path}: {where}: unknown key {extra[0]!r} (allowed: "
                             f"{', '.join(keys)})")
        for key, param in keys.items():
            if key not in row:
                if key in ROW_OPTIONAL:
                    continue
                raise InputError(f"{path}: {where}: missing key {key!r}")
            try:
                columns[key].append(check(param, row[key], allow_array=False))
            except InputError as exc:
                raise key_error(path, f"{where}.{key}", exc, name=param) from None
    if len(set(columns["pd"])) != len(columns["pd"]):
        raise InputError(f"{path}: pool_depths: depth pd is repeated: {columns['pd']}")
    high = columns["variance_high"]
    if 0 < len(high) < len(rows):
        raise InputError(f"{path}: pool_depths: variance_high is given for {len(high)} of "
                         f"{len(rows)} depths: give it for every depth or for none")
    for k, (v, v_high) in enumerate(zip(columns["variance"], high), start=1):
        if v_high < v:
            raise InputError(f"{path}: pool_depths[{k}].variance_high = {v_high:.10g} is below "
                             f"its variance {v:.10g}: the upper end of σ̂²'s interval is at least "
                             "σ̂²")
    return dict(out, depths=columns["pd"], docs_per_topic=columns["docs_per_topic"],
                variances=columns["variance"], **({"variances_high": high} if high else {}))
