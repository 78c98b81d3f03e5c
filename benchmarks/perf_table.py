"""The README's and docs/performance.md's performance tables, from the summary of a run_all run.

    python benchmarks/run_all.py --repeat 3 --log benchmarks/last_run.txt \\
        --summary benchmarks/last_summary.json
    python benchmarks/perf_table.py benchmarks/last_summary.json [--write]

Prints both tables (Markdown); with ``--write`` it replaces, in ``README.md`` and
``docs/performance.md``, the text between ``<!-- perf-table:NAME -->`` and
``<!-- /perf-table:NAME -->`` (NAME ``readme`` or ``docs``), each file written to a temporary
name first. Every figure is the median over the run's repeats with (min–max) after it; a figure
the run did not measure prints as ``?``. Which FIGURE each cell quotes is in :data:`README_ROWS`
and :data:`DOCS_ROWS` (the names the ``bench_*.py`` print).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from _figures import spread  # noqa: E402

#: README rows: (path, topicsetsize, peer or floor, ratio); ``{name}`` is a figure's spread.
README_ROWS = [
    ("ANOVA table, 1,680 cells, exact / legacy (`tables`)",
     "{tables.anova_exact_us} / {tables.anova_legacy_us}",
     "statsmodels `solve_power`: {tables.anova_statsmodels_us}",
     "{tables.anova_exact_speedup} / {tables.anova_legacy_speedup} faster; exact / its "
     "certifying floor, all tables in one call: {tables.anova_exact_to_floor} (thread CPU: "
     "{tables.anova_exact_to_floor_cpu}), each table in its own: "
     "{tables.anova_exact_to_table_floor} (thread CPU: {tables.anova_exact_to_table_floor_cpu}); "
     "target 1.5×"),
    ("legacy / exact time, same ANOVA table (`tables`)",
     "{tables.anova_legacy_to_exact}", "—",
     "legacy at least as fast as exact: {tables.anova_legacy_to_exact<=1}"),
    ("paired t-test table, 120 cells, exact (`tables`)", "{tables.ttest_exact_us}",
     "statsmodels `solve_power`: {tables.ttest_statsmodels_us}",
     "{tables.ttest_exact_speedup} faster (its certifying calls alone: "
     "{tables.ttest_floor_speedup}); exact / its certifying floor, all tables in one call: "
     "{tables.ttest_exact_to_floor} (thread CPU: {tables.ttest_exact_to_floor_cpu}), each table "
     "in its own: {tables.ttest_exact_to_table_floor} (thread CPU: "
     "{tables.ttest_exact_to_table_floor_cpu}); target 1.5×"),
    ("two-sample t-test table, 120 cells (`unpaired`)", "{unpaired.exact_us}",
     "statsmodels `TTestIndPower`: {unpaired.statsmodels_us}", "{unpaired.speedup} faster"),
    ("one scalar call, worst over a random grid of (α, β, m, n ≤ 10⁹), 6 functions (`scalar`)",
     "median {scalar.grid_median_ratio}, worst {scalar.grid_worst_ratio} a table cell; vs the "
     "same cells in one vectorised call: median {scalar.grid_median_vs_same_cells}, worst "
     "{scalar.grid_worst_vs_same_cells} (its band of n alone: worst "
     "{scalar.grid_worst_vs_same_band})",
     "a cell of the exact table: {scalar.cell_us}", "worst {scalar.grid_worst_ratio} "
     "(target 15×; the README's 8 examples: {scalar.examples_worst_ratio})"),
    ("one answer at the command line, slowest of 4 commands (`startup`)", "{startup.answer_s}",
     "`import numpy, scipy.special`: {startup.answer_floor_s}",
     "{startup.answer_ratio} (target 1.5×)"),
    ("reading a 50 MB wide CSV (`read_matrix`)", "{read_matrix.ours_s}, {read_matrix.ours_mb}",
     "`pandas.read_csv`: {read_matrix.pandas_s}, {read_matrix.pandas_mb}",
     "{read_matrix.time_ratio} time, {read_matrix.memory_ratio} memory (target 2×)"),
    ("pool depth, 4 depths, Robust04's shape with 40 topics, {pool_depth_scale.run_files_mib} "
     "of run files (`pool_depth_scale`)", "CPU {pool_depth_scale.study4_cpu_s}; "
     "{pool_depth_scale.study4_mib} resident above the imports",
     "reading the runs {pool_depth_scale.floor_read_cpu_s} + one ir_measures pass at full "
     "depth {pool_depth_scale.floor_eval_cpu_s}",
     "{pool_depth_scale.study4_passes} passes per depth (target 1.2×; 1 depth: "
     "{pool_depth_scale.study1_passes}, the reading and checking of the runs not shared); "
     "memory {pool_depth_scale.study4_to_files} the run files (1 depth: "
     "{pool_depth_scale.study1_to_files}; target 0.5×)"),
    ("randomised Tukey HSD, B = 5000 (`tukey`)", "{tukey.test_s} best, {tukey.test_median_s} "
     "median", "one `rng.random` call for its numbers: {tukey.floor_s} best, "
     "{tukey.floor_median_s} median", "{tukey.to_floor_min} min/min, {tukey.to_floor_median} "
     "median/median (target 2×)"),
    ("Voorhees split-half, 6.8 M t-tests (`split_half`)", "{split_half.full_s}",
     "a `scipy.stats.ttest_rel` loop", "{split_half.speedup} faster"),
    ("the default workbook, CPU (`workbook`)", "{workbook.cpu_s}",
     "`import numpy, scipy.special, openpyxl`: {workbook.floor_cpu_s}",
     "{workbook.to_floor} the imports (target 3×)"),
    ("`evaluate`, 20 real CLEF 2017 TAR runs, 1 / 4 measures (`evaluate`)",
     "CPU {evaluate.one_cpu_s} / {evaluate.four_cpu_s}; {evaluate.one_mib} / "
     "{evaluate.four_mib} resident above the imports",
     "ir_measures' readers + `iter_calc`: CPU {evaluate.peer_one_cpu_s} / "
     "{evaluate.peer_four_cpu_s}; {evaluate.peer_one_mib} / {evaluate.peer_four_mib}",
     "whole commands, imports included (the issue's measure; no pandas imported): CPU "
     "{evaluate.command_one_cpu_ratio} / {evaluate.command_four_cpu_ratio}, memory "
     "{evaluate.command_one_mib_ratio} / {evaluate.command_four_mib_ratio} (target 1.2×); the "
     "work alone: CPU {evaluate.one_cpu_ratio} / {evaluate.four_cpu_ratio}, memory "
     "{evaluate.one_mib_ratio} / {evaluate.four_mib_ratio} of a few MiB (numpy's code run "
     "the first time is 1.1 MiB of it)"),
    ("`evaluate` at scale, synthetic, Robust04's shape with 40 topics, "
     "{evaluate.scale_run_files_mib} of run files, 1 / 4 measures (`evaluate`)",
     "CPU {evaluate.scale_one_cpu_s} / {evaluate.scale_four_cpu_s}; {evaluate.scale_one_mib} / "
     "{evaluate.scale_four_mib} resident above the imports",
     "ir_measures' readers + `iter_calc`: CPU {evaluate.scale_peer_one_cpu_s} / "
     "{evaluate.scale_peer_four_cpu_s}; {evaluate.scale_peer_one_mib} / "
     "{evaluate.scale_peer_four_mib}",
     "CPU {evaluate.scale_one_cpu_ratio} / {evaluate.scale_four_cpu_ratio}, memory "
     "{evaluate.scale_one_mib_ratio} / {evaluate.scale_four_mib_ratio} (target 1.2×; memory "
     "{evaluate.scale_one_to_files} / {evaluate.scale_four_to_files} the run files)"),
]

#: docs/performance.md rows: (benchmark, topicsetsize, peer or floor, ratio).
DOCS_ROWS = README_ROWS[:1] + [
    ("the certification floor of that table: only the special-function calls that certify each "
     "exact cell, power at n − 1 and at n, the cheaper way (one F point and two noncentral F "
     "tails, n − 1's own F point where the bound does not settle it), all cells in one call",
     "{tables.anova_floor_us}", "same", "{tables.anova_floor_speedup}"),
    ("legacy / exact time, 1,680 ANOVA cells (best / best in each run)",
     "{tables.anova_legacy_to_exact}", "—", "{tables.anova_legacy_to_exact<=1}"),
    ("paired t-test table, 120 cells, exact / legacy",
     "{tables.ttest_exact_us} / {tables.ttest_legacy_us}",
     "statsmodels `TTestPower().solve_power`: {tables.ttest_statsmodels_us}",
     "{tables.ttest_exact_speedup} / {tables.ttest_legacy_speedup}"),
    ("its floor: one t point and two noncentral F tails (t′² ~ F′(1, φ, λ²)) per cell, the "
     "bound shortcut as for the ANOVA", "{tables.ttest_floor_us}", "same",
     "{tables.ttest_floor_speedup}; exact / floor {tables.ttest_exact_to_floor}; the same calls' "
     "validation and DataFrame alone, n given: {tables.ttest_fixed_to_floor_cpu} the floor "
     "(ANOVA: {tables.anova_fixed_to_floor_cpu}), thread CPU"),
    ("long ANOVA table, 99,999 cells (m = 2, …, 100,000; minD = .1, σ̂² = .0601), exact / "
     "legacy", "{tables.long_exact_us} / {tables.long_legacy_us}", "—",
     "legacy/exact time {tables.long_legacy_to_exact}"),
    README_ROWS[3],
    ("`guarantees`, 300 cells, legacy / exact (`guarantees`)",
     "{guarantees.legacy_us} / {guarantees.exact_us}",
     "a loop of `anova_min_d`/`ttest_min_dt`/`ci_delta` calls: {guarantees.legacy_loop_us} / "
     "{guarantees.exact_loop_us}", "{guarantees.legacy_speedup} / {guarantees.exact_speedup}"),
    README_ROWS[4],
    ("the certificate of the grid's worst point alone: the precise powers at n − 1 and n that "
     "certify its answer (refined F points and, from φE = 10⁶ on, the Poisson series)",
     "{scalar.certificate_us}", "a cell of the exact table", "{scalar.certificate_ratio}"),
    ("command-line start-up, `--version` / `--help` (`startup`)",
     "{startup.version_s} / {startup.help_s}", "the engine imported eagerly, as before",
     "{startup.version_eager_ratio} / {startup.help_eager_ratio} faster"),
    README_ROWS[5], README_ROWS[6],
    ("`evaluate` (`evaluate_measures`, `--duplicates first`) on the 20 bundled CLEF 2017 TAR "
     "runs (30 topics, top 100 documents), AP / AP, nDCG@10, P@10 and RR in one call, each in "
     "a fresh child, least of 3 (`evaluate`)",
     "CPU {evaluate.one_cpu_s} / {evaluate.four_cpu_s}; peak {evaluate.one_mib} / "
     "{evaluate.four_mib} resident above the imports",
     "ir_measures' `read_trec_qrels`, `read_trec_run` (a repeated document's first line kept) "
     "and one evaluator's `iter_calc`, one pass: CPU {evaluate.peer_one_cpu_s} / "
     "{evaluate.peer_four_cpu_s}; peak {evaluate.peer_one_mib} / {evaluate.peer_four_mib}; "
     "same values (largest difference {evaluate.largest_difference})",
     "CPU {evaluate.one_cpu_ratio} / {evaluate.four_cpu_ratio}, memory "
     "{evaluate.one_mib_ratio} / {evaluate.four_mib_ratio} (target 1.2×); whole commands "
     "(imports included; `topicsetsize evaluate` {evaluate.command_one_cpu_s}, "
     "{evaluate.command_one_mib} against an ir_measures-only script "
     "{evaluate.peer_command_one_cpu_s}, {evaluate.peer_command_one_mib}): CPU "
     "{evaluate.command_one_cpu_ratio} / {evaluate.command_four_cpu_ratio}, memory "
     "{evaluate.command_one_mib_ratio} / {evaluate.command_four_mib_ratio}"),
    ("`evaluate` at scale, the same comparison on synthetic runs (`_synthetic.py`, as "
     "`pool_depth_scale`'s): 110 runs × 40 topics × 1,000 documents, no duplicates, scores with "
     "ties, AP / AP, nDCG@10, P@10 and RR in one call, each in a fresh child, least of 3 "
     "(`evaluate`)",
     "CPU {evaluate.scale_one_cpu_s} / {evaluate.scale_four_cpu_s}; peak "
     "{evaluate.scale_one_mib} / {evaluate.scale_four_mib} resident above the imports "
     "({evaluate.scale_one_to_files} / {evaluate.scale_four_to_files} the run files, "
     "{evaluate.scale_run_files_mib})",
     "the same ir_measures pass: CPU {evaluate.scale_peer_one_cpu_s} / "
     "{evaluate.scale_peer_four_cpu_s}; peak {evaluate.scale_peer_one_mib} / "
     "{evaluate.scale_peer_four_mib} ({evaluate.scale_peer_one_to_files} / "
     "{evaluate.scale_peer_four_to_files} the run files); same values (largest difference "
     "{evaluate.scale_largest_difference})",
     "CPU {evaluate.scale_one_cpu_ratio} / {evaluate.scale_four_cpu_ratio}, memory "
     "{evaluate.scale_one_mib_ratio} / {evaluate.scale_four_mib_ratio} (target 1.2×)"),
    ("pool-depth study, 2 collections, 16 runs, 5 depths (`pool_depth`)", "{pool_depth.study_s}",
     "a naive per-depth, per-run pooling loop with ir_measures: {pool_depth.naive_s}",
     "naive / study {pool_depth.naive_to_study}"),
    ("pool-depth study, synthetic, Robust04's shape with 40 of its topics: 110 runs × 40 "
     "topics × 1,000 documents, AP (`pool_depth_scale`), 1 depth (100) / 4 depths (100, 50, "
     "20, 10)",
     "CPU {pool_depth_scale.study1_cpu_s} / {pool_depth_scale.study4_cpu_s}; peak "
     "{pool_depth_scale.study1_mib} / {pool_depth_scale.study4_mib} resident above the imports",
     "one pass at full depth: reading the runs (`pandas.read_csv`) "
     "{pool_depth_scale.floor_read_cpu_s} + evaluating them (ir_measures) "
     "{pool_depth_scale.floor_eval_cpu_s}",
     "{pool_depth_scale.study1_passes} / {pool_depth_scale.study4_passes} passes per depth "
     "(target 1.2×); memory {pool_depth_scale.study1_to_files} / "
     "{pool_depth_scale.study4_to_files} the run files ({pool_depth_scale.run_files_mib}; "
     "target 0.5×)"),
    README_ROWS[8][:3] + ("{tukey.to_floor_min} min/min, {tukey.to_floor_median} median/median; "
                          "to the floor in the test's chunks {tukey.to_chunked_floor}; "
                          "{tukey.loop_speedup} faster than a per-trial loop",),
    README_ROWS[9], README_ROWS[10],
]

UNITS = {"us": "µs", "us/cell": "µs/cell", "x": "×"}


def render(template: str, summary: dict) -> str:
    """``template`` with each ``{name}`` replaced by that figure's median (min–max) and unit,
    and each ``{name<=LIMIT}`` (or ``>=``) by whether the claim held in every run.

    >>> s = {"t.r": {"min": 0.8, "median": 0.9, "max": 1.1, "repeats": 3, "unit": "x",
    ...              "values": [0.9, 1.1, 0.8]}}
    >>> render("{t.r}; {t.r<=1}", s)
    '0.9× (0.8–1.1); ≤ 1 in 2 of 3 runs, not in every run'
    """
    def one(match: re.Match) -> str:
        name, op, limit = match.groups()
        if op and name in summary:
            values = summary[name]["values"]
            held = sum((v <= float(limit)) if op == "<=" else (v >= float(limit)) for v in values)
            sign = "≤" if op == "<=" else "≥"
            if held == len(values):
                return f"{sign} {limit} in every run ({held} of {held})"
            return f"{sign} {limit} in {held} of {len(values)} runs, not in every run"
        text = spread(summary, name)
        if name in summary:
            unit = summary[name]["unit"]
            text = text.replace(f" {unit}", "×" if unit == "x" else f" {UNITS.get(unit, unit)}",
                                1)
        return text
    return re.sub(r"\{([a-z_]+\.[a-z_0-9]+)(?:(<=|>=)([0-9.]+))?\}", one, template)


def header(record: dict) -> str:
    """The sentence that says where the figures come from."""
    scale = record.get("scale_repeat", 1)
    small = " (**`--small`: not the stated sizes**)" if record.get("small") else ""
    low_high = record.get("load_1min")
    load = (f"; load average (1 min) before each benchmark {low_high[0]:.1f}–{low_high[1]:.1f}"
            if low_high else "")
    return (f"Median (min–max) over {record['repeat']} runs of each benchmark "
            f"(`pool_depth_scale`: {scale} run{'s' if scale > 1 else ''}, no spread where one), "
            f"`python benchmarks/run_all.py --repeat {record['repeat']}`{small}, "
            f"{record['date'].removeprefix('date: ')}, "
            f"{'; '.join(line.split(': ', 1)[-1] for line in record['machine'])}{load}. "
            "Regenerated with `python benchmarks/perf_table.py "
            "benchmarks/last_summary.json --write`.")


def table(rows, record: dict, head: tuple[str, ...]) -> str:
    summary = record["figures"]
    lines = [header(record), "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for row in rows:
        lines.append("| " + " | ".join(render(cell, summary) for cell in row) + " |")
    return "\n".join(lines)


def replace_block(text: str, name: str, block: str) -> str:
    """``text`` with the lines between the ``perf-table:name`` markers replaced by ``block``.

    >>> replace_block("a\\n<!-- perf-table:x -->\\nold\\n<!-- /perf-table:x -->\\nb", "x", "new")
    'a\\n<!-- perf-table:x -->\\nnew\\n<!-- /perf-table:x -->\\nb'
    """
    start, end = f"<!-- perf-table:{name} -->", f"<!-- /perf-table:{name} -->"
    if text.count(start) != 1 or text.count(end) != 1:
        raise SystemExit(f"perf_table: markers {start} ... {end} not found once")
    before, rest = text.split(start)
    _, after = rest.split(end)
    return f"{before}{start}\n{block}\n{end}{after}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summary", type=Path, help="the JSON written by run_all.py --summary")
    parser.add_argument("--write", action="store_true",
                        help="rewrite the tables in README.md and docs/performance.md")
    args = parser.parse_args(argv)
    record = json.loads(args.summary.read_text(encoding="utf-8"))
    blocks = {"readme": table(README_ROWS, record, ("path", "topicsetsize", "peer or floor",
                                                    "ratio")),
              "docs": table(DOCS_ROWS, record, ("benchmark", "topicsetsize",
                                                "peer or floor, same run", "ratio"))}
    wanted = {m.group(1) for rows in (README_ROWS, DOCS_ROWS) for row in rows for cell in row
              for m in re.finditer(r"\{([a-z_]+\.[a-z_0-9]+)", cell)}
    missing = sorted(wanted - set(record["figures"]))
    if missing:
        print(f"perf_table: not in the summary (printed as ?): {', '.join(missing)}",
              file=sys.stderr)
    if not args.write:
        for name, block in blocks.items():
            print(f"<!-- {name} -->\n{block}\n")
        return 0
    for name, path in (("readme", ROOT / "README.md"), ("docs", ROOT / "docs" / "performance.md")):
        text = replace_block(path.read_text(encoding="utf-8"), name, blocks[name])
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        print(f"rewrote the table in {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
