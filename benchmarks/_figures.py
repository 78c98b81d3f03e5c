"""The figures the benchmarks state, in a form ``run_all.py`` can collect and summarise.

Each ``bench_*.py`` prints its human-readable log and, for every figure the README or
``docs/performance.md`` quotes, one machine-readable line::

    FIGURE {"name": "tables.anova_exact_us", "value": 4.7, "unit": "us/cell", "how": "..."}

(``FIGURE`` then one JSON object: ``name``, ``value``, ``unit`` and ``how``, a few words on how
it was measured). ``run_all.py --repeat K`` runs each benchmark K times and summarises each
figure as min / median / max over the repeats (:func:`summarise`); ``perf_table.py`` turns that
summary into the README's and the docs' tables.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable

PREFIX = "FIGURE "


def figure(name: str, value: float, unit: str, how: str) -> None:
    """Print one machine-readable figure line (see the module docstring)."""
    print(PREFIX + json.dumps({"name": name, "value": float(value), "unit": unit, "how": how}),
          flush=True)


def parse_figures(lines: Iterable[str]) -> list[dict]:
    """The figures among ``lines`` (the output of one benchmark), in order.

    >>> parse_figures(['x', 'FIGURE {"name": "a", "value": 1, "unit": "s", "how": "h"}'])
    [{'name': 'a', 'value': 1.0, 'unit': 's', 'how': 'h'}]
    """
    out = []
    for line in lines:
        if line.startswith(PREFIX):
            record = json.loads(line[len(PREFIX):])
            out.append({"name": str(record["name"]), "value": float(record["value"]),
                        "unit": str(record.get("unit", "")), "how": str(record.get("how", ""))})
    return out


def summarise(runs: Iterable[Iterable[dict]]) -> dict[str, dict]:
    """Min, median and max of each figure over repeated runs (one list of figures per run).

    A figure missing from some runs is summarised over the runs that have it (``repeats``
    says how many).

    >>> s = summarise([[{"name": "a", "value": v, "unit": "s", "how": "h"}] for v in (3, 1, 2)])
    >>> s["a"]["min"], s["a"]["median"], s["a"]["max"], s["a"]["repeats"]
    (1.0, 2.0, 3.0, 3)
    """
    values: dict[str, list[float]] = {}
    meta: dict[str, dict] = {}
    for run in runs:
        for record in run:
            values.setdefault(record["name"], []).append(float(record["value"]))
            meta[record["name"]] = {"unit": record["unit"], "how": record["how"]}
    return {name: {"min": min(v), "median": statistics.median(v), "max": max(v),
                   "repeats": len(v), "values": v, **meta[name]}
            for name, v in values.items()}


def fmt(value: float) -> str:
    """A figure with three significant digits (thousands separated), as the tables print it.

    >>> fmt(4.6789), fmt(0.0721), fmt(1654.5), fmt(5818.2)
    ('4.68', '0.0721', '1,650', '5,820')
    """
    if value == 0 or not (abs(value) < float("inf")):
        return f"{value:g}"
    text = f"{float(f'{value:.3g}'):,.10f}".rstrip("0").rstrip(".")
    return text


def spread(summary: dict[str, dict], name: str, unit: bool = True) -> str:
    """``median (min–max)`` of one summarised figure, with its unit; ``?`` if not measured.

    >>> s = summarise([[{"name": "a", "value": v, "unit": "s", "how": ""}] for v in (3, 1, 2)])
    >>> spread(s, "a"), spread(s, "b")
    ('2 s (1–3)', '? (not measured)')
    """
    if name not in summary:
        return "? (not measured)"
    s = summary[name]
    text = fmt(s["median"]) + (f" {s['unit']}" if unit and s["unit"] else "")
    if s["repeats"] > 1:
        text += f" ({fmt(s['min'])}–{fmt(s['max'])})"
    return text
