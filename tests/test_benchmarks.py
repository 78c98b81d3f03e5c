"""The benchmarks' machinery (not their timings): FIGURE lines are parsed, summarised over
repeated runs as min / median / max, and the performance tables are rendered from the summary.

``run_all.py`` is run end to end on a fake benchmark that prints known figures, so nothing here
is timed.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

import _figures  # noqa: E402
import perf_table  # noqa: E402
import run_all  # noqa: E402


def test_parse_figures_reads_only_figure_lines():
    lines = ["a table", 'FIGURE {"name": "x.a", "value": 2, "unit": "s", "how": "best of 3"}',
             "FIGURES are not figures", 'FIGURE {"name": "x.b", "value": 0.5, "unit": "x"}']
    assert _figures.parse_figures(lines) == [
        {"name": "x.a", "value": 2.0, "unit": "s", "how": "best of 3"},
        {"name": "x.b", "value": 0.5, "unit": "x", "how": ""}]


def test_summarise_min_median_max_over_runs():
    runs = [[{"name": "a", "value": v, "unit": "s", "how": "h"}] for v in (5.0, 1.0, 2.0, 9.0)]
    runs.append([])                               # a run that failed before printing it
    s = _figures.summarise(runs)["a"]
    assert (s["min"], s["median"], s["max"], s["repeats"]) == (1.0, 3.5, 9.0, 4)


def test_render_states_median_range_and_whether_a_claim_held_in_every_run():
    s = _figures.summarise([[{"name": "t.r", "value": v, "unit": "x", "how": ""}]
                            for v in (0.76, 0.91, 1.11)])
    assert perf_table.render("{t.r}", s) == "0.91× (0.76–1.11)"
    assert perf_table.render("{t.r<=1}", s) == "≤ 1 in 2 of 3 runs, not in every run"
    assert perf_table.render("{t.r<=1.2}", s) == "≤ 1.2 in every run (3 of 3)"
    assert perf_table.render("{t.missing}", s) == "? (not measured)"


def test_every_benchmark_is_run_by_run_all_and_quoted_by_the_tables():
    benchmarks = {p.stem.removeprefix("bench_") for p in BENCH.glob("bench_*.py")}
    assert "evaluate" in benchmarks
    assert benchmarks == set(run_all.BENCHMARKS)
    quoted = {m.group(1) for rows in (perf_table.README_ROWS, perf_table.DOCS_ROWS)
              for row in rows for cell in row for m in re.finditer(r"\{([a-z_]+)\.", cell)}
    assert benchmarks <= quoted, f"not in the tables: {sorted(benchmarks - quoted)}"


def test_every_scalar_figure_the_tables_quote_is_printed_by_bench_scalar():
    quoted = {m.group(1) for rows in (perf_table.README_ROWS, perf_table.DOCS_ROWS)
              for row in rows for cell in row for m in re.finditer(r"\{(scalar\.[a-z_]+)", cell)}
    printed = set(re.findall(r'figure\("(scalar\.[a-z_]+)"',
                             (BENCH / "bench_scalar.py").read_text(encoding="utf-8")))
    assert "scalar.grid_worst_vs_same_cells" in quoted
    assert quoted <= printed, f"quoted, never printed: {sorted(quoted - printed)}"


def test_replace_block_needs_its_markers():
    with pytest.raises(SystemExit, match="markers"):
        perf_table.replace_block("no markers here", "readme", "x")


FAKE = '''
import json
from pathlib import Path
count = Path(__file__).with_name("count")
k = int(count.read_text()) if count.exists() else 0
count.write_text(str(k + 1))
for name, unit, values in (("fake.time_s", "s", [3.0, 1.0, 2.0]),
                           ("fake.ratio", "x", [0.9, 1.1, 0.8])):
    record = {"name": name, "value": values[k % 3], "unit": unit, "how": "fake"}
    print("FIGURE " + json.dumps(record))
'''


def test_run_all_summarises_repeated_runs_of_a_benchmark(tmp_path, monkeypatch, capsys):
    (tmp_path / "bench_fake.py").write_text(FAKE, encoding="utf-8")
    monkeypatch.setattr(run_all, "HERE", tmp_path)
    monkeypatch.setattr(run_all, "BENCHMARKS", {"fake": ([], [])})
    summary = tmp_path / "summary.json"
    assert run_all.main(["--repeat", "3", "--summary", str(summary)]) == 0
    record = json.loads(summary.read_text(encoding="utf-8"))
    assert record["repeat"] == 3
    fake = record["figures"]["fake.time_s"]
    assert (fake["min"], fake["median"], fake["max"], fake["repeats"]) == (1.0, 2.0, 3.0, 3)
    out = capsys.readouterr().out
    assert "fake (pass 3 of 3)" in out
    assert "fake.ratio" in out.split("## summary")[1]
    rendered = perf_table.render("{fake.time_s}; {fake.ratio<=1}", record["figures"])
    assert rendered == "2 s (1–3); ≤ 1 in 2 of 3 runs, not in every run"
    header = perf_table.table([("{fake.time_s}",)], record, ("fake",))
    assert header.startswith("Median (min–max) over 3 runs of each benchmark")
    assert "load average (1 min) before each benchmark" in header
    assert header.endswith("| 2 s (1–3) |")
