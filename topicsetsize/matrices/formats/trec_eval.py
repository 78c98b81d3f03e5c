"""``trec_eval -q`` output: ``measure  topic  value`` per line, one file per run."""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import InputError
from .common import (
    SUMMARY_TOPIC,
    cells_from_records,
    decode_text,
    folder_files,
    nonempty_bytes,
    pick_measure,
    refuse_trec_input,
)

__all__ = ["parse_trec_eval", "read_trec_eval_files"]


def parse_trec_eval(text: str, path: Path, measure: str | None):
    """One ``trec_eval -q`` file: (run name, {topic: (value text, where)}, measure)."""
    run = path.stem
    per_measure: dict[str, dict[str, tuple[str, str]]] = {}
    for line_no, line in enumerate(text.splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != 3:    # a run file or qrels in the folder: what to do with them
            refuse_trec_input(path, text[:8192])
            raise InputError(f"{path}: line {line_no} is not trec_eval -q output (measure, topic, "
                             f"value): {line.strip()[:60]!r}")
        name, topic, value = tokens
        if topic == SUMMARY_TOPIC:
            if name == "runid":
                run = value
            continue
        topics = per_measure.setdefault(name, {})
        if topic in topics:
            raise InputError(f"{path}: duplicate score for measure {name!r}, topic {topic!r} "
                             f"({topics[topic][1]} and line {line_no})")
        topics[topic] = (value, f"line {line_no} of {path.name}")
    measure = pick_measure(measure, per_measure, path)
    return run, per_measure[measure], measure


def read_trec_eval_files(paths: list[Path], source: Path, fmt: str | None,
                          measure: str | None):
    """Cells of a folder, or a list, of ``trec_eval -q`` files (one run each)."""
    if fmt not in (None, "trec_eval"):
        raise InputError(f"{source}: only trec_eval output is read from a folder or a list of "
                         "files (one file per run)")
    if len(paths) == 1:
        paths = sorted(folder_files(source, "trec_eval files"), key=_natural)
        if not paths:
            raise InputError(f"{source}: the folder has no files (expected one trec_eval -q "
                             "file per run)")
    records, origins = {}, {}
    for path in paths:
        if path.is_dir():
            raise InputError(f"{path} is a folder: give trec_eval -q files, or one folder")
        run, by_topic, measure_here = parse_trec_eval(decode_text(path, nonempty_bytes(path)),
                                                       path, measure)
        if run in records:
            raise InputError(f"{source}: duplicate run name {run!r} in {origins[run]} and "
                             f"{path.name}")
        if measure is None:
            measure = measure_here
        records[run], origins[run] = by_topic, path.name
    return cells_from_records(records, origins), "trec_eval", measure


def _natural(path: Path) -> list:
    """Sort key that puts run2.txt before run10.txt."""
    return [int(part) if part.isdigit() else part.lower()
            for part in re.split(r"(\d+)", path.name)]
