"""Synthetic TREC run files and qrels of a chosen size, for the benchmarks at scale.

:func:`write_in_child` writes them in a child process (this file run as a script), so that the
benchmark's own process stays small: a measured child's resident baseline is then not raised by
the writer's peak. ``bench_pool_depth_scale.py`` and ``bench_evaluate.py`` (its case at scale)
use it.

The runs (plain text, ``qid Q0 docno rank score tag``): each of ``runs`` ranks ``docs`` of
each topic's 3 x ``docs`` documents (shared across runs, so that pools overlap; document ids
distinct across topics, as in a real collection), scores with ties (2 decimals), no document
twice in a topic. The qrels judge every document of each topic's universe, 10 % relevant.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def write_collection(folder: Path, runs: int, topics: int, docs: int, seed: int = 2004):
    """Write ``folder/runs/run000, ...`` and ``folder/qrels`` (see the module docstring); return
    the two paths."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    run_dir = folder / "runs"
    run_dir.mkdir()
    universe = 3 * docs
    qids = np.arange(301, 301 + topics).astype(str)
    prefix = np.repeat(np.char.add(np.char.add("D", qids), "-"), docs)
    ranks = np.tile(np.arange(1, docs + 1), topics)
    for r in range(runs):
        picks = np.concatenate([rng.choice(universe, docs, replace=False) for _ in range(topics)])
        scores = np.round(np.sort(rng.gamma(2.0, 2.0, (topics, docs)), axis=1)[:, ::-1], 2)
        pd.DataFrame({"qid": np.repeat(qids, docs), "q0": "Q0",
                      "doc": np.char.add(prefix, picks.astype(str)), "rank": ranks,
                      "score": scores.ravel(), "tag": f"run{r}"}).to_csv(
            run_dir / f"run{r:03d}", sep=" ", header=False, index=False)
    judged = np.tile(np.arange(universe).astype(str), topics)
    pd.DataFrame({"qid": np.repeat(qids, universe), "it": 0,
                  "doc": np.char.add(np.repeat(np.char.add(np.char.add("D", qids), "-"),
                                               universe), judged),
                  "rel": (rng.random(topics * universe) < 0.1).astype(int)}).to_csv(
        folder / "qrels", sep=" ", header=False, index=False)
    return run_dir, folder / "qrels"


def write_in_child(folder: Path, runs: int, topics: int, docs: int) -> tuple[Path, Path]:
    """:func:`write_collection` in a fresh child process; the runs' folder and the qrels."""
    subprocess.run([sys.executable, __file__, str(folder), str(runs), str(topics), str(docs)],
                   check=True)
    return folder / "runs", folder / "qrels"


if __name__ == "__main__":
    write_collection(Path(sys.argv[1]), *map(int, sys.argv[2:5]))
