"""Benchmark: ``evaluate`` on the 20 bundled CLEF 2017 TAR runs, CPU and memory against ir_measures.

Run from the repository root::

    python benchmarks/bench_evaluate.py [--repeat 3]

The runs and qrels are the package's own (:func:`topicsetsize.examples.example_runs`: 20 real
runs x 30 topics, top 100 documents a topic; one run retrieves documents twice). Each
measurement runs in its own fresh child of this small parent (``_resident.py``), which reports
its CPU time (``time.process_time``) and its peak resident memory above its imports (the same
imports on both sides: pandas, ir_measures, pytrec_eval, topicsetsize's evaluation module):

- ``topicsetsize``: :func:`topicsetsize.matrices.evaluation.evaluate_measures` on the folder, as
  ``topicsetsize evaluate RUNS QRELS --measure ... --duplicates first`` calls it, with 1 measure
  (AP) and with 4 (AP, nDCG@10, P@10, RR) in one call;
- ``ir_measures`` (the peer): the qrels and each run read by ir_measures' own readers
  (``read_trec_qrels``, ``read_trec_run``), a run's repeated document keeping its first line
  (as ``duplicates="first"``), and ``evaluator.iter_calc`` of one evaluator of the same
  measures, one pass over the runs.

Then the whole commands, imports and start-up included, each measured by a fresh meter process
(``getrusage`` of its one child: CPU user + system, peak resident): ``topicsetsize evaluate
--runs RUNS --qrels QRELS --measure ... --duplicates first`` against a script that imports only
ir_measures and does the peer's pass, printing ``run topic measure value`` (the issue's figures,
79 MB against 33 MB, are of this kind).

Both must give the same value for every run, topic and measure (to 1e-9; the topics are
topicsetsize's rows, a topic a run does not retrieve counting 0), else the benchmark fails.
Each side runs ``--repeat`` times (interleaved), and the least CPU and the least peak of each
are kept. The ratios topicsetsize / ir_measures are the claim (issue 28: at most 1.2 for CPU
and memory, one measure and four). Linux/macOS only (``resource``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402
from _resident import run_child, whole_command  # noqa: E402

#: The two sizes of the claim: one measure and four.
MEASURES = {"one": ["AP"], "four": ["AP", "nDCG@10", "P@10", "RR"]}

#: Largest difference allowed between the two sides' per-topic values.
TOLERANCE = 1e-9

#: The peer: ``out`` = {run file: [(measure, topic, value), ...]} of ``runs``, ``qrels`` and
#: ``measures`` by ir_measures alone, one pass (indented as the body of an ``if``).
PEER = r"""
    evaluator = ir_measures.evaluator([ir_measures.parse_measure(m) for m in measures],
                                      ir_measures.read_trec_qrels(str(qrels)))
    out = {}
    for path in sorted(runs.iterdir()):
        run = {}
        for doc in ir_measures.read_trec_run(str(path)):   # a repeated document: its first line
            run.setdefault(doc.query_id, {}).setdefault(doc.doc_id, doc.score)
        out[path.name] = [(str(m.measure), m.query_id, m.value) for m in evaluator.iter_calc(run)]
"""

#: The peer as a whole command (only ir_measures imported), printing ``run topic measure value``.
PEER_COMMAND = r"""
import sys
from pathlib import Path
import ir_measures
runs, qrels, measures = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
if True:
""" + PEER + r"""
for name, rows in out.items():
    for measure, topic, value in rows:
        print(name, topic, measure, value)
"""

CHILD = r"""
import json, sys, time, warnings
sys.path.insert(0, {root!r})
from pathlib import Path
import pandas as pd
import ir_measures
import pytrec_eval
from topicsetsize.examples import example_runs
from topicsetsize.matrices.evaluation import evaluate_measures
from topicsetsize.matrices.runfiles import run_files
from _resident import above_imports

runs, qrels = example_runs()
measures, side = {measures!r}, {side!r}
warnings.simplefilter("ignore")        # the duplicates and tied-scores notes of the real runs
memory = above_imports()
start, cpu = time.perf_counter(), time.process_time()
if side == "topicsetsize":
    out = evaluate_measures(runs, qrels, measures, duplicates="first")
else:
{peer}result = {{"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
          **memory.report(), "runs": str(runs), "qrels": str(qrels)}}
values = {{}}                           # {{measure: {{run file: {{topic: value}}}}}}, not timed
if side == "topicsetsize":
    files = [p.name for p in run_files(runs)]       # the columns' order (named by run tags)
    for measure, matrix in out.items():
        values[measure] = {{f: matrix.iloc[:, j].to_dict() for j, f in enumerate(files)}}
else:
    names = {{str(ir_measures.parse_measure(m)): m for m in measures}}
    for f, rows in out.items():
        for measure, topic, value in rows:
            values.setdefault(names[measure], {{}}).setdefault(f, {{}})[topic] = value
with open({dump!r}, "w") as handle:
    json.dump(values, handle)
print(json.dumps(result))
"""


def child(side: str, measures: list[str], dump: Path) -> dict:
    """One measurement in a fresh child; its per-topic values are written to ``dump``."""
    result = run_child(CHILD.format(root=str(ROOT), measures=measures, side=side,
                                    dump=str(dump), peer=PEER))
    result["values"] = json.loads(dump.read_text(encoding="utf-8"))
    return result


def largest_difference(ours: dict, peer: dict) -> float:
    """The largest |ours - peer| over topicsetsize's cells, a cell the peer lacks counting 0."""
    return max(abs(value - peer.get(measure, {}).get(run, {}).get(topic, 0.0))
               for measure, by_run in ours.items() for run, by_topic in by_run.items()
               for topic, value in by_topic.items())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3,
                        help="children per side and size; the least CPU and peak are kept")
    args = parser.parse_args()
    best: dict[tuple[str, str], dict] = {}
    worst_difference = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(max(1, args.repeat)):
            for size, measures in MEASURES.items():
                got = {side: child(side, measures, Path(tmp) / f"{side}.json")
                       for side in ("topicsetsize", "ir_measures")}
                cells = sum(len(t) for r in got["topicsetsize"]["values"].values()
                            for t in r.values())
                difference = largest_difference(got["topicsetsize"]["values"],
                                                got["ir_measures"]["values"])
                worst_difference = max(worst_difference, difference)
                if rep == 0:
                    print(f"{size} ({', '.join(measures)}): {cells} values (runs x topics x "
                          f"measures), largest difference {difference:.1e}")
                runs, qrels = got["topicsetsize"]["runs"], got["topicsetsize"]["qrels"]
                got["command"] = whole_command([sys.executable, "-m", "topicsetsize", "evaluate",
                                                "--runs", runs, "--qrels", qrels, "--measure",
                                                *measures, "--duplicates", "first"])
                got["peer_command"] = whole_command([sys.executable, "-c", PEER_COMMAND, runs,
                                                     qrels, *measures])
                for side, r in got.items():
                    kept = best.setdefault((size, side), r)
                    kept["cpu"], kept["peak"] = min(kept["cpu"], r["cpu"]), min(kept["peak"],
                                                                                r["peak"])
    if worst_difference > TOLERANCE:
        print(f"FAILED: topicsetsize and ir_measures differ by {worst_difference:.1e} "
              f"(allowed {TOLERANCE:g})")
        return 1
    method = best["one", "topicsetsize"]["method"]
    how = (f"20 CLEF 2017 TAR runs (bundled), least of {args.repeat} fresh children; CPU by "
           f"time.process_time; memory: {method} above the imports")
    for (size, side), r in best.items():
        if "command" in side:
            continue
        print(f"{size:4s} {side:12s} CPU {r['cpu']:5.2f} s (wall {r['seconds']:5.2f} s)   peak "
              f"above imports {r['peak'] / 2**20:5.1f} MiB (whole {r['whole'] / 2**20:.0f} MiB, "
              f"imports {r['imports'] / 2**20:.0f} MiB)")
        key = "" if side == "topicsetsize" else "peer_"
        figure(f"evaluate.{key}{size}_cpu_s", r["cpu"], "s", how)
        figure(f"evaluate.{key}{size}_mib", r["peak"] / 2**20, "MiB", how)
    for size, measures in MEASURES.items():
        ours, peer = best[size, "topicsetsize"], best[size, "ir_measures"]
        cpu, mib = ours["cpu"] / peer["cpu"], ours["peak"] / peer["peak"]
        print(f"{size} measure{'s' if len(measures) > 1 else ''}: topicsetsize / ir_measures "
              f"CPU {cpu:.2f}, memory {mib:.2f} (goal <= 1.2 each)")
        figure(f"evaluate.{size}_cpu_ratio", cpu, "x",
               "topicsetsize evaluate CPU / ir_measures' readers + iter_calc CPU, same run")
        figure(f"evaluate.{size}_mib_ratio", mib, "x",
               "topicsetsize evaluate / ir_measures peak resident above the imports, same run")
    whole = (f"the whole command, imports included, least of {args.repeat}; CPU user + system "
             "and peak resident by getrusage of a meter's one child")
    for size in MEASURES:
        ours, peer = best[size, "command"], best[size, "peer_command"]
        print(f"{size:4s} whole commands: `topicsetsize evaluate` CPU {ours['cpu']:.2f} s, "
              f"resident peak {ours['peak'] / 2**20:.0f} MiB; an ir_measures-only script CPU "
              f"{peer['cpu']:.2f} s, {peer['peak'] / 2**20:.0f} MiB: ratios CPU "
              f"{ours['cpu'] / peer['cpu']:.2f}, memory {ours['peak'] / peer['peak']:.2f}")
        for key, r in (("command", ours), ("peer_command", peer)):
            figure(f"evaluate.{key}_{size}_cpu_s", r["cpu"], "s", whole)
            figure(f"evaluate.{key}_{size}_mib", r["peak"] / 2**20, "MiB", whole)
        figure(f"evaluate.command_{size}_cpu_ratio", ours["cpu"] / peer["cpu"], "x",
               "`topicsetsize evaluate` / an ir_measures-only script, whole commands, CPU")
        figure(f"evaluate.command_{size}_mib_ratio", ours["peak"] / peer["peak"], "x",
               "`topicsetsize evaluate` / an ir_measures-only script, whole resident peak")
    figure("evaluate.largest_difference", worst_difference, "",
           "largest |topicsetsize - ir_measures| over every run, topic and measure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
