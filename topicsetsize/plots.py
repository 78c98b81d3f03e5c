"""Figures (optional: needs matplotlib, ``pip install 'topicsetsize[plot]'``).

matplotlib is imported only when a figure is drawn, with the non-interactive ``Figure`` API (no
pyplot state, no display needed), and the file is written atomically.
"""

from __future__ import annotations

from .errors import InputError

__all__ = ["plot_pool_depth", "plot_reliability", "require_matplotlib"]


def require_matplotlib():
    """matplotlib's Figure class, or a one-line ValueError telling how to install it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError("plotting needs matplotlib: pip install 'topicsetsize[plot]' "
                         "(or pip install matplotlib)") from None
    return Figure


def _interval_bars(ax, study, table, x, n) -> float:
    """Bars from n low (or n) to n high where the table has them (a study's bootstrap
    interval, a plan's n at variance high); an end beyond the search limit (inf) drawn past
    10⁹ and labelled "more than 10⁹". Returns the highest end drawn (0 without bars)."""
    import numpy as np

    from .params import N_MAX

    if "n high" not in table:
        return 0.0
    high = table["n high"].to_numpy(float)
    low = table["n low"].to_numpy(float) if "n low" in table else n
    finite = np.isfinite(high)
    top = float(np.max(high[finite], initial=n.max()))
    interval = getattr(study, "n_interval", None)
    label = (f"{interval.level:.0%} interval of n (bootstrap over the past topics)"
             if interval is not None else "n to n high (at the upper end of V_E's interval)")
    beyond = max(top, N_MAX) * 1.05      # an end beyond the limit: drawn past 10⁹
    shown = np.where(finite, high, beyond)
    ax.errorbar(x, n, yerr=[n - low, shown - n], fmt="none", ecolor="tab:blue", alpha=0.5,
                capsize=4, lw=1.2, label=label)
    for xi in x[~finite]:
        ax.annotate("more than 10⁹", (xi, beyond), textcoords="offset points",
                    xytext=(4, 0), fontsize=8, color="tab:blue")
    return top if finite.all() else beyond


def plot_pool_depth(study, path, *, title: str | None = None, cost_text=None):
    """Required n against judged documents per topic, one point per pool depth (PNG).

    As in Sakai, CIKM 2014, Figures 4–5: x is the mean number of documents judged per topic at
    pool depth pd, y the topic set size n at the V_E observed at that depth; each point is
    labelled with its pd. With a budget B, the curve n = B / x bounds the affordable region
    (below it), and the cheapest affordable depth is circled. Where the table has ``n high``
    (a study's bootstrap interval, ``n low`` to ``n high``; a plan's n at ``variance high``),
    each point carries a bar to it: a point inside the budget whose bar crosses the curve fits
    at n but not at n high.

    Parameters
    ----------
    study : PoolDepthStudy or BudgetPlan
        A result whose ``table`` has ``docs_per_topic`` and ``n`` (index ``pd``).
    path : str or Path
        The PNG to write (atomically).
    title : str, optional
        The figure title.
    cost_text : callable, optional
        How the legend writes the cheapest depth's cost (by default to the nearest document;
        the commands round it up, as their tables do:
        :func:`topicsetsize.decide.wording.documents_text`).

    Returns
    -------
    pathlib.Path
    """
    import numpy as np

    from .atomic import atomic_path

    Figure = require_matplotlib()
    table = study.table
    if "n" not in table.columns:
        raise InputError("the plot needs the required n: give m and min_d")
    table = table.sort_values("docs_per_topic")
    x, n = table["docs_per_topic"].to_numpy(float), table["n"].to_numpy(float)
    fig = Figure(figsize=(7.5, 5.0), dpi=120, layout="constrained")
    ax = fig.add_subplot()
    ax.plot(x, n, "o-", color="tab:blue", lw=1.8, ms=6, label="required n")
    for depth, xi, ni in zip(table.index, x, n):
        ax.annotate(f"pd={depth}", (xi, ni), textcoords="offset points", xytext=(6, 6),
                    fontsize=9)
    budget = getattr(study, "budget", None)
    cheapest = getattr(study, "cheapest", None)
    lo, hi = ax.get_xlim()
    if budget:
        grid = np.linspace(max(lo, x.min() * 0.5, 1e-9), hi, 200)
        ax.plot(grid, budget / grid, "--", color="tab:red", lw=1.2,
                label=f"budget {budget:,.0f} documents (n = budget / x)")
        ax.fill_between(grid, 0, budget / grid, color="tab:red", alpha=0.06)
        ax.set_xlim(lo, hi)
    if cheapest is not None and "cost" in table:
        cost = (cost_text or "{:,.0f}".format)(cheapest["cost"])
        ax.plot([cheapest["docs_per_topic"]], [cheapest["n"]], "o", ms=14, mfc="none",
                mec="tab:green", mew=2, label=f"cheapest: pd={cheapest.name}, cost {cost}")
    top = _interval_bars(ax, study, table, x, n)
    ax.set_ylim(0, max(n.max(), top) * 1.25)
    ax.set_xlabel("documents judged per topic (mean over topics)")
    ax.set_ylabel("required number of topics n")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize=9)
    ax.set_xlim(right=ax.get_xlim()[1] + 0.08 * (x.max() - x.min() + 1))
    if title:
        import textwrap

        ax.set_title("\n".join(textwrap.wrap(title, 90)), fontsize=9)
    from pathlib import Path

    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, format="png")
    return Path(path)


def plot_reliability(curves, path, *, title: str | None = None, lines=()):
    """Eρ², Φ (with their confidence bands) and the ANOVA power against n, on one figure (PNG).

    The n axis is logarithmic: Eρ² and Φ level off within tens of topics, the power of a small
    minD only after hundreds or thousands.

    Parameters
    ----------
    curves : mapping of name -> DataFrame
        One :func:`topicsetsize.report.reliability_curves` frame per matrix (index n).
    path : str or Path
        The PNG to write (atomically).
    title : str, optional
    lines : sequence of (float, str)
        Horizontal reference lines (e.g. the target .95 and the power 1 − β) and their labels.

    Returns
    -------
    pathlib.Path
    """
    from pathlib import Path

    from .atomic import atomic_path

    Figure = require_matplotlib()
    fig = Figure(figsize=(7.5, 5.0 + 0.5 * len(curves)), dpi=120, layout="constrained")
    ax = fig.add_subplot()
    colours = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")
    for k, (name, frame) in enumerate(curves.items()):
        colour = colours[k % len(colours)]
        n = frame.index.to_numpy(float)
        label = f" ({name})" if len(curves) > 1 else ""
        for column, style in (("Erho2", "-"), ("Phi", "--")):
            ax.plot(n, frame[column], style, color=colour, lw=1.8,
                    label={"Erho2": "Eρ²", "Phi": "Φ"}[column] + label)
            ax.fill_between(n, frame[f"{column} low"], frame[f"{column} high"], color=colour,
                            alpha=0.12)
        ax.plot(n, frame["ANOVA power"], ":", color=colour, lw=2.0,
                label="one-way ANOVA power (exact)" + label)
    for y, text in lines:
        ax.axhline(y, color="grey", lw=0.8, ls="-.")
        ax.annotate(text, (0.005, y), xycoords=("axes fraction", "data"), fontsize=7,
                    color="dimgrey", va="bottom")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of topics n (log scale)")
    ax.set_ylabel("Eρ², Φ (bands: confidence intervals), power")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=7.5)
    if title:
        import textwrap

        ax.set_title("\n".join(textwrap.wrap(title, 90)), fontsize=9)
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, format="png")
    return Path(path)
