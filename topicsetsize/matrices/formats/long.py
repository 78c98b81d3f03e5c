"""The long format: one score per line, ``run, topic, measure, value`` (CSV or TSV)."""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from .common import SUMMARY_TOPIC, cells_from_records, csv_rows, pick_measure

__all__ = ["LONG_COLUMNS", "long_header", "parse_long"]

#: Header names of the long format's columns (case-insensitive).
LONG_COLUMNS = {
    "run": ("run", "run_id", "runid", "run_name", "system", "system_id", "sys"),
    "topic": ("topic", "topic_id", "topicid", "query", "query_id", "queryid", "qid"),
    "measure": ("measure", "metric", "measure_name", "metric_name"),
    "value": ("value", "score", "val"),
}


def long_header(fields: list[str]) -> dict[str, int] | None:
    """Column positions of a long-format header, or None when the row is not one."""
    found = {}
    for key, names in LONG_COLUMNS.items():
        hits = [k for k, f in enumerate(fields) if f in names]
        if hits:
            found[key] = hits[0]
    if {"run", "topic", "value"} <= found.keys():
        return found
    return None


def parse_long(text: str, path: Path, measure: str | None):
    rows = csv_rows(text, path)
    columns = long_header([f.lower() for f in rows[0][1]])
    if columns is None:
        if len(rows[0][1]) != 4:
            raise InputError(f"{path}: a long-format file without a header needs 4 columns "
                             f"(run, topic, measure, value); line {rows[0][0]} has "
                             f"{len(rows[0][1])}")
        columns = dict(run=0, topic=1, measure=2, value=3)
    else:
        rows = rows[1:]
    per_measure: dict[str, dict[str, dict[str, tuple[str, str]]]] = {}
    for line, fields in rows:
        name = fields[columns["measure"]] if "measure" in columns else measure
        run, topic, value = (fields[columns[k]] for k in ("run", "topic", "value"))
        if topic == SUMMARY_TOPIC:
            continue
        if not run or not topic:
            raise InputError(f"{path}: line {line}: empty {'run' if not run else 'topic'}")
        by_topic = per_measure.setdefault(name, {}).setdefault(run, {})
        if topic in by_topic:
            raise InputError(f"{path}: duplicate score for run {run!r}, topic {topic!r}, "
                             f"measure {name!r} ({by_topic[topic][1]} and line {line})")
        by_topic[topic] = (value, f"line {line}")
    measure = pick_measure(measure, per_measure, path)
    return cells_from_records(per_measure[measure], {}), measure
