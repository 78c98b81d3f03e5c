"""Generate the synthetic TREC runs and qrels in tests/data/pool_runs/ (seeded, reproducible).

No small, redistributable set of real TREC runs with qrels ships in a package that the project
can install (ir_measures, pytrec_eval-terrier and trectools carry no test data in their wheels or
sdists), so the pool-depth tests use runs drawn from this documented model:

* two "collections" (years), A with 25 topics and B with 20 topics; every topic has a document
  universe of 400 documents, of which R ~ 5 + Poisson(15) are relevant, a third of them highly
  relevant (grade 2);
* each collection has 8 runs of different quality q (0.4 ... 2.5); a run scores document d on
  topic t as  q * grade(d) + popularity(t, d) + N(0, 1), where popularity ~ N(0, 1) is shared by
  all runs (so the runs overlap, as real runs do), rounded to 2 decimals (so there are ties,
  which trec_eval breaks by docno, descending);
* every run returns its top 60 documents per topic (ranks 1..60 in trec_eval order);
* the qrels judge the depth-60 pool of all the runs (the union of every run's top 60), as a
  TREC pool is built; a document outside the pool is not in the qrels.

Run from the repository root: ``python tests/data/make_pool_runs.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "pool_runs"
SEED = 20140101
UNIVERSE, LENGTH = 400, 60
QUALITIES = (0.4, 0.7, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5)


def make_collection(name: str, first_topic: int, topics: int, rng: np.random.Generator) -> None:
    folder = OUT / name
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    grades = {}
    lines = {f"{name}run{k + 1}": [] for k in range(len(QUALITIES))}
    pool: dict[int, set[str]] = {}
    for t in range(first_topic, first_topic + topics):
        r = 5 + rng.poisson(15)
        grade = np.zeros(UNIVERSE, int)
        relevant = rng.choice(UNIVERSE, size=r, replace=False)
        grade[relevant] = 1
        grade[relevant[: r // 3]] = 2
        grades[t] = grade
        docnos = np.array([f"{name}{t}-{d:04d}" for d in range(UNIVERSE)])
        popularity = rng.normal(size=UNIVERSE)
        pool[t] = set()
        for (tag, out), q in zip(lines.items(), QUALITIES):
            score = np.round(q * grade + popularity + rng.normal(size=UNIVERSE), 2)
            # trec_eval order: score descending, ties by docno descending
            order = sorted(range(UNIVERSE), key=lambda d: (-score[d], _desc(docnos[d])))
            for rank, d in enumerate(order[:LENGTH], start=1):
                out.append(f"{t} Q0 {docnos[d]} {rank} {score[d]:.2f} {tag}\n")
                pool[t].add(docnos[d])
    for tag, out in lines.items():
        (folder / "runs" / tag).write_text("".join(out))
    with open(folder / "qrels.txt", "w") as qrels:
        for t in sorted(pool):
            for docno in sorted(pool[t]):
                qrels.write(f"{t} 0 {docno} {grades[t][int(docno.split('-')[1])]}\n")


def _desc(text: str) -> tuple[int, ...]:
    """A key that sorts strings in descending order."""
    return tuple(-ord(c) for c in text) + (0,)


def main() -> None:
    rng = np.random.default_rng(SEED)
    make_collection("A", 401, 25, rng)
    make_collection("B", 501, 20, rng)


if __name__ == "__main__":
    main()
