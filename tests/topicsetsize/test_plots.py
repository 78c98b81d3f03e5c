"""topicsetsize.plots: the pool-depth figure's interval bars (matplotlib, an optional extra)."""

from __future__ import annotations

import types

import numpy as np
import pandas as pd
import pytest

from topicsetsize.params import N_MAX


def _bars(table, interval=None):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from topicsetsize.plots import _interval_bars

    ax = Figure().add_subplot()
    table = table.sort_values("docs_per_topic")
    x, n = table["docs_per_topic"].to_numpy(float), table["n"].to_numpy(float)
    top = _interval_bars(ax, types.SimpleNamespace(n_interval=interval), table, x, n)
    [bars] = [c for c in ax.collections if len(c.get_segments()) == len(table)]
    return top, [(seg[0][1], seg[1][1]) for seg in bars.get_segments()], ax


def test_bars_run_from_n_low_to_n_high_and_past_the_limit_where_beyond():
    """Each depth's bar spans [n low, n high] as the table holds them; an end beyond the
    search limit (inf) is drawn past 10⁹ and labelled; the legend names the level."""
    table = pd.DataFrame({"docs_per_topic": [450.0, 35.9], "n": [109, 186],
                          "n low": [50, 122], "n high": [177.0, np.inf]},
                         index=pd.Index([100, 5], name="pd"))
    top, ends, ax = _bars(table, types.SimpleNamespace(level=0.95))
    assert ends[0] == (122, pytest.approx(N_MAX * 1.05)) and ends[1] == (50, 177)
    assert top == pytest.approx(N_MAX * 1.05)
    assert [t.get_text() for t in ax.texts] == ["more than 10⁹"]
    assert ax.get_legend_handles_labels()[1] == ["95% interval of n (bootstrap over the past "
                                                 "topics)"]


def test_a_plan_bar_runs_from_n_to_n_high_and_none_without_it():
    table = pd.DataFrame({"docs_per_topic": [253.0, 100.0], "n": [476, 593],
                          "n high": [655, 811]}, index=pd.Index([30, 10], name="pd"))
    top, ends, _ = _bars(table)
    assert ends == [(593, 811), (476, 655)] and top == 811
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from topicsetsize.plots import _interval_bars

    ax = Figure().add_subplot()
    plain = table.drop(columns="n high")
    assert _interval_bars(ax, None, plain, plain["docs_per_topic"].to_numpy(float),
                          plain["n"].to_numpy(float)) == 0.0 and not ax.collections


def test_the_legend_writes_the_cheapest_cost_as_the_table_does(tmp_path, monkeypatch):
    """A review, 2026-12-08: the legend said "cost 4,200" where the table and CSV said 4,201
    (38 x 110.53 rounded, not rounded up); the commands give the table's rounding."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from topicsetsize.decide.wording import documents_text
    from topicsetsize.plots import plot_pool_depth

    labels = []
    monkeypatch.setattr(Figure, "savefig", lambda fig, *a, **k: labels.extend(
        fig.axes[0].get_legend_handles_labels()[1]))
    table = pd.DataFrame({"docs_per_topic": [458.9, 35.9], "n": [38, 117],
                          "cost": [38 * 458.9, 117 * 35.9]}, index=pd.Index([100, 5], name="pd"))
    study = types.SimpleNamespace(table=table, budget=None, cheapest=table.iloc[1])
    plot_pool_depth(study, tmp_path / "p.png", cost_text=documents_text)
    assert "cheapest: pd=5, cost 4,201" in labels            # 117 x 35.9 = 4200.3
    labels.clear()
    plot_pool_depth(study, tmp_path / "p.png")
    assert "cheapest: pd=5, cost 4,200" in labels            # the API's default: nearest
