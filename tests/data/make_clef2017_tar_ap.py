"""Build tests/data/clef2017_tar_ap.csv: per-topic AP of the CLEF 2017 eHealth TAR test runs.

Run by hand from the repository root (``python tests/data/make_clef2017_tar_ap.py SOURCE``);
SOURCE is a folder with the full runs (``runs/*.gz``) and ``test.clef2017.qrels.gz`` of GitHub
CLEF-TAR/tar @ dbc13d02bb3e2f8ebc90e62ff47f5eb591e5ca20 (MIT, (c) 2017 Leif Azzopardi).
The tests never run it: they read the CSV it wrote.

What it does, as trec_eval would:

* AP with binary relevance rel >= 1 (``ir_measures`` ``AP(rel=1)``; the qrels are graded 0/1/2);
* each run's documents per topic are ordered by score, descending, ties broken by document id,
  descending (as strings), the scores compared in single precision as trec_eval stores them
  (two ECNU scores of topic CD011145 differ only beyond float32); the rank column is ignored
  (the Padua runs repeat ranks, both UOS runs score every document 0.0, so document-id order
  decides);
* the run ``UOS__test__sis.TMAL30Q_BM25.res`` is left out: it retrieves documents twice within a
  topic, and trec_eval refuses it ("duplicate docs");
* all 30 topics of the qrels are rows; a topic that a run did not retrieve (IIIT has 27) scores
  0, as ``trec_eval -c`` gives it.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import ir_measures
import numpy as np
import pandas as pd

OUT = Path(__file__).parent / "clef2017_tar_ap.csv"
EXCLUDED = {"UOS__test__sis.TMAL30Q_BM25.res": "duplicate documents within a topic"}
MEASURE = ir_measures.AP(rel=1)


def read_qrels(source: Path) -> pd.DataFrame:
    with gzip.open(source / "test.clef2017.qrels.gz", "rt") as f:
        q = pd.read_csv(f, sep=r"\s+", header=None, names=["query_id", "it", "doc_id", "rel"],
                        dtype=str)
    return q.assign(relevance=q["rel"].astype(int))[["query_id", "doc_id", "relevance"]]


def read_run(path: Path) -> pd.DataFrame:
    """``topic action docid rank score tag``: trec_eval's order, then a strictly falling score."""
    with gzip.open(path, "rt") as f:
        rows = [line.split() for line in f if line.strip()]
    run = pd.DataFrame([r[:5] for r in rows], columns=["query_id", "action", "doc_id", "rank",
                                                       "score"])
    run["score"] = run["score"].astype(np.float32).astype(float)   # trec_eval's float sim
    run = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False],
                          kind="mergesort")
    # the order is fixed here; every evaluator then sees the same ranking
    run["score"] = -run.groupby("query_id").cumcount().astype(float)
    return run[["query_id", "doc_id", "score"]]


def main(source: Path) -> None:
    qrels = read_qrels(source)
    topics = sorted(qrels["query_id"].unique())
    columns = {}
    for path in sorted((source / "runs").glob("*.gz")):
        name = path.name[:-3]
        if name in EXCLUDED:
            print(f"left out {name}: {EXCLUDED[name]}")
            continue
        run = read_run(path)
        scores = {m.query_id: m.value for m in MEASURE.iter_calc(qrels, run)}
        columns[name] = [scores.get(t, 0.0) for t in topics]
        print(f"{name}: {len(scores)} topics, MAP {sum(columns[name]) / len(topics):.4f}")
    table = pd.DataFrame(columns, index=pd.Index(topics, name="topic"))
    table.round(6).to_csv(OUT, float_format="%.6f")
    print(f"wrote {OUT}: {len(topics)} topics x {len(columns)} runs")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/data/make_clef2017_tar_ap.py SOURCE")
    main(Path(sys.argv[1]))
