"""Benchmark: ``evaluate``, CPU and memory against ir_measures, on the 20 bundled CLEF 2017 TAR
runs and on synthetic runs at scale.

Run from the repository root::

    python benchmarks/bench_evaluate.py [--repeat 3] [--runs 110] [--topics 40] [--docs 1000]

Two cases. The small one: the package's own runs and qrels
(:func:`topicsetsize.examples.example_runs`: 20 real runs x 30 topics, top 100 documents a
topic, 0.6 MiB of run files; one run retrieves documents twice). The one at scale: synthetic runs of
``--runs`` x ``--topics`` x ``--docs`` lines, by default Robust04's shape with 40 of its 249
topics as ``bench_pool_depth_scale.py`` has it (110 x 40 x 1,000, 4.4 M lines, about 130 MiB),
written with its qrels by ``_synthetic.py`` in a child process (so that this process stays
small; no duplicates, scores with ties). Each measurement runs in its own fresh child of this
small parent (``_resident.py``), which reports its CPU time (``time.process_time``) and its peak
resident memory above its imports (the same imports on both sides and in both cases: pandas,
ir_measures, pytrec_eval, topicsetsize's evaluation module):

- ``topicsetsize``: :func:`topicsetsize.matrices.evaluation.evaluate_measures` on the folder, as
  ``topicsetsize evaluate RUNS QRELS --measure ... --duplicates first`` calls it, with 1 measure
  (AP) and with 4 (AP, nDCG@10, P@10, RR) in one call;
- ``ir_measures`` (the peer): the qrels and each run read by ir_measures' own readers
  (``read_trec_qrels``, ``read_trec_run``), a run's repeated document keeping its first line
  (as ``duplicates="first"``), and ``evaluator.iter_calc`` of one evaluator of the same
  measures, one pass over the runs.

In the small case the peaks above the imports are a few MiB, and the excess of topicsetsize's
over the peer's is not the evaluation's data alone: each child also reports what is still
resident at the end of its work above its imports, split by ``/proc/self/status`` (Linux) into
pages of mapped files (``RssFile``, and by file from ``/proc/self/smaps``: the shared libraries'
machine code that the work runs for the first time, numpy's and pandas' for topicsetsize's
block reader; the run files are read, not mapped) and anonymous memory (``RssAnon``: the heap,
live data and the freed blocks the allocator keeps), and one line prints them for the child of
least peak of each side. At scale the peak is stated also as a multiple of the run files' size.

Then, in the small case only, the whole commands, imports and start-up included, each measured
by a fresh meter process
(``getrusage`` of its one child: CPU user + system, peak resident): ``topicsetsize evaluate
--runs RUNS --qrels QRELS --measure ... --duplicates first`` against a script that imports only
ir_measures and does the peer's pass, printing ``run topic measure value`` (the issue's figures,
79 MB against 33 MB, are of this kind). Since 2026-12-06 the command imports no pandas
(:func:`topicsetsize.matrices.evaluation.evaluate_scores`, CSV by the csv module), which was most
of its memory and a third of its CPU on the bundled runs; the children above import pandas on
both sides, as ``evaluate_measures`` returns DataFrames.

Both must give the same value for every run, topic and measure, in both cases (to 1e-9; the
topics are topicsetsize's rows, a topic a run does not retrieve counting 0), else the benchmark
fails. Each side runs ``--repeat`` times (interleaved), and the least CPU and the least peak of
each are kept. The ratios topicsetsize / ir_measures are the claim (issue 28: at most 1.2 for
CPU and memory, one measure and four). Linux/macOS only (``resource``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402
from _resident import run_child, whole_command  # noqa: E402
from _synthetic import write_in_child  # noqa: E402

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

def mapped():       # resident bytes of each mapped file, by library (/proc/self/smaps, a line
    out, name = {{}}, None      # at a time, so that reading it allocates no large block)
    try:
        with open("/proc/self/smaps") as lines:
            for line in lines:
                key = line.split(None, 1)[0]
                if not key.endswith(":"):                     # a mapping's header line
                    parts = line.split(None, 5)
                    path = parts[5].strip() if len(parts) > 5 else ""
                    name = (None if not path.startswith("/") else
                            path.split("site-packages/")[1].split("/")[0].split(".")[0]
                            if "site-packages/" in path else path.rsplit("/", 1)[1].split(".so")[0])
                elif key == "Rss:" and name:
                    out[name] = out.get(name, 0) + int(line.split()[1]) * 1024
    except OSError:
        pass
    return out

runs, qrels = {source}
measures, side = {measures!r}, {side!r}
warnings.simplefilter("ignore")        # the duplicates and tied-scores notes of the real runs
before = mapped()
memory = above_imports()
start, cpu = time.perf_counter(), time.process_time()
if side == "topicsetsize":
    out = evaluate_measures(runs, qrels, measures, duplicates="first")
else:
{peer}result = {{"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
          **memory.report(), "runs": str(runs), "qrels": str(qrels)}}
result["mapped"] = {{k: v - before.get(k, 0) for k, v in mapped().items() if v > before.get(k, 0)}}
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


def child(side: str, measures: list[str], dump: Path, files: tuple[Path, Path] | None) -> dict:
    """One measurement in a fresh child, on the bundled runs or on ``files`` (runs, qrels); its
    per-topic values are written to ``dump``."""
    source = ("example_runs()" if files is None else
              f"Path({str(files[0])!r}), Path({str(files[1])!r})")
    result = run_child(CHILD.format(root=str(ROOT), measures=measures, side=side, source=source,
                                    dump=str(dump), peer=PEER))
    result["values"] = json.loads(dump.read_text(encoding="utf-8"))
    return result


def largest_difference(ours: dict, peer: dict) -> float:
    """The largest |ours - peer| over topicsetsize's cells, a cell the peer lacks counting 0."""
    return max(abs(value - peer.get(measure, {}).get(run, {}).get(topic, 0.0))
               for measure, by_run in ours.items() for run, by_topic in by_run.items()
               for topic, value in by_topic.items())


def compare(files: tuple[Path, Path] | None, repeat: int, tmp: str, label: str,
            commands: bool) -> tuple[dict, float]:
    """Each side in ``repeat`` fresh children a size, on the bundled runs or on ``files``, and
    with ``commands`` the whole commands too; the least CPU and peak of each (with the resident
    split of the child of least peak) and the largest difference between the sides' values."""
    best: dict[tuple[str, str], dict] = {}
    worst_difference = 0.0
    for rep in range(max(1, repeat)):
        for size, measures in MEASURES.items():
            got = {side: child(side, measures, Path(tmp) / f"{side}.json", files)
                   for side in ("topicsetsize", "ir_measures")}
            cells = sum(len(t) for r in got["topicsetsize"]["values"].values()
                        for t in r.values())
            difference = largest_difference(got["topicsetsize"]["values"],
                                            got["ir_measures"]["values"])
            worst_difference = max(worst_difference, difference)
            if rep == 0:
                print(f"{label}{size} ({', '.join(measures)}): {cells:,} values (runs x topics x "
                      f"measures), largest difference {difference:.1e}", flush=True)
            if commands:
                runs, qrels = got["topicsetsize"]["runs"], got["topicsetsize"]["qrels"]
                got["command"] = whole_command([sys.executable, "-m", "topicsetsize", "evaluate",
                                                "--runs", runs, "--qrels", qrels, "--measure",
                                                *measures, "--duplicates", "first"])
                got["peer_command"] = whole_command([sys.executable, "-c", PEER_COMMAND, runs,
                                                     qrels, *measures])
            for side, r in got.items():
                kept = best.setdefault((size, side), dict(r))
                if r["peak"] < kept["peak"]:      # what the least peak is made of: its child's
                    kept.update((k, r[k]) for k in ("whole", "imports", "file", "anon", "mapped")
                                if k in r)
                kept["cpu"], kept["peak"] = min(kept["cpu"], r["cpu"]), min(kept["peak"],
                                                                            r["peak"])
    return best, worst_difference


def differ(worst_difference: float) -> bool:
    """Whether the two sides differ beyond :data:`TOLERANCE` (said so if they do)."""
    if worst_difference > TOLERANCE:
        print(f"FAILED: topicsetsize and ir_measures differ by {worst_difference:.1e} "
              f"(allowed {TOLERANCE:g})")
        return True
    return False


def made_of(r: dict) -> str:
    """What is still resident at the end of a child's work above its imports, by kind."""
    if "file" not in r:
        return "not measured (no /proc/self/status)"
    top = sorted(r.get("mapped", {}).items(), key=lambda kv: -kv[1])[:2]
    files = ", ".join(f"{name} {size / 2**20:.2f}" for name, size in top if size >= 2**16)
    return (f"files {r['file'] / 2**20:.2f} MiB{f' ({files})' if files else ''}, anonymous "
            f"{r['anon'] / 2**20:.2f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3,
                        help="children per side, size and case; the least CPU and peak are kept")
    parser.add_argument("--runs", type=int, default=110, help="runs at scale")
    parser.add_argument("--topics", type=int, default=40, help="topics at scale")
    parser.add_argument("--docs", type=int, default=1000, help="documents a topic at scale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        best, worst_difference = compare(None, args.repeat, tmp, "", commands=True)
        if differ(worst_difference):
            return 1
        report_small(best, worst_difference, args.repeat)
        start = time.perf_counter()
        (Path(tmp) / "scale").mkdir()
        files = write_in_child(Path(tmp) / "scale", args.runs, args.topics, args.docs)
        size = sum(p.stat().st_size for p in files[0].iterdir())
        print(f"\nat scale: {args.runs} runs x {args.topics} topics x {args.docs:,} documents "
              f"(synthetic, _synthetic.py): {args.runs * args.topics * args.docs:,} lines, "
              f"{size / 2**20:.0f} MiB of run files, qrels {files[1].stat().st_size / 2**20:.1f} "
              f"MiB (written in {time.perf_counter() - start:.0f} s)", flush=True)
        scale, worst_scale = compare(files, args.repeat, tmp, "scale ", commands=False)
    if differ(worst_scale):
        return 1
    report_scale(scale, worst_scale, args, size)
    return 0


def ratios(best: dict, key: str, where: str) -> None:
    """Each size's ratios topicsetsize / ir_measures, printed (``key`` with ``_`` as a space
    before) and as figures ``evaluate.{key}{size}_cpu_ratio`` and ``..._mib_ratio``."""
    for size, measures in MEASURES.items():
        ours, peer = best[size, "topicsetsize"], best[size, "ir_measures"]
        cpu, mib = ours["cpu"] / peer["cpu"], ours["peak"] / peer["peak"]
        print(f"{key.replace('_', ' ')}{size} measure{'s' if len(measures) > 1 else ''}: "
              f"topicsetsize / ir_measures CPU {cpu:.2f}, memory {mib:.2f} (goal <= 1.2 each)")
        figure(f"evaluate.{key}{size}_cpu_ratio", cpu, "x",
               f"topicsetsize evaluate CPU / ir_measures' readers + iter_calc CPU, {where}"
               "same run")
        figure(f"evaluate.{key}{size}_mib_ratio", mib, "x",
               f"topicsetsize evaluate / ir_measures peak resident above the imports, {where}"
               "same run")


def report_small(best: dict, worst_difference: float, repeat: int) -> None:
    """The small case's lines and figures."""
    method = best["one", "topicsetsize"]["method"]
    how = (f"20 CLEF 2017 TAR runs (bundled), least of {repeat} fresh children; CPU by "
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
    print("what these small peaks are made of, measured in each side's child of least peak at "
          "the end of its work, above its imports (RssFile and RssAnon of /proc/self/status; "
          "the files by /proc/self/smaps, largest two): "
          + "; ".join(f"{size} {side} {made_of(best[size, side])}" for size in MEASURES
                      for side in ("topicsetsize", "ir_measures"))
          + ". The files' pages are the libraries' machine code run for the first time after "
          "the imports (the run files are read, not mapped), a constant of the process; the "
          "anonymous ones the heap, live data and the freed blocks the allocator keeps (the "
          "case at scale below states the peak against the run files' size).")
    ratios(best, "", "")
    whole = (f"the whole command, imports included, least of {repeat}; CPU user + system "
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


def report_scale(best: dict, worst_difference: float, args: argparse.Namespace,
                 size: int) -> None:
    """The lines and figures of the case at scale (``size``: the run files' bytes)."""
    method = best["one", "topicsetsize"]["method"]
    shape = f"{args.runs} runs x {args.topics} topics x {args.docs} documents"
    how = (f"synthetic, {shape}, least of {args.repeat} fresh children; CPU by "
           f"time.process_time; memory: {method} above the imports")
    figure("evaluate.scale_run_files_mib", size / 2**20, "MiB", how)
    for (what, side), r in best.items():
        print(f"scale {what:4s} {side:12s} CPU {r['cpu']:6.2f} s (wall {r['seconds']:6.2f} s)   "
              f"peak above imports {r['peak'] / 2**20:6.1f} MiB ({r['peak'] / size:.3f} x the "
              f"run files; whole {r['whole'] / 2**20:.0f} MiB, imports "
              f"{r['imports'] / 2**20:.0f} MiB); at the end {made_of(r)}")
        key = "scale_" + ("" if side == "topicsetsize" else "peer_") + what
        figure(f"evaluate.{key}_cpu_s", r["cpu"], "s", how)
        figure(f"evaluate.{key}_mib", r["peak"] / 2**20, "MiB", how)
        figure(f"evaluate.{key}_to_files", r["peak"] / size, "x",
               f"peak resident above the imports / run files' size, {shape}")
    ratios(best, "scale_", f"{shape}, ")
    figure("evaluate.scale_largest_difference", worst_difference, "",
           f"largest |topicsetsize - ir_measures| over every run, topic and measure, {shape}")


if __name__ == "__main__":
    sys.exit(main())
