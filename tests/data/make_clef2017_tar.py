"""Trim the CLEF 2017 eHealth TAR runs and qrels into the bundled copy (run by hand).

    python tests/data/make_clef2017_tar.py SOURCE [DEST]

SOURCE holds ``runs/*.gz``, ``test.clef2017.qrels.gz``
and ``LICENSE`` (GitHub CLEF-TAR/tar @ dbc13d02bb3e2f8ebc90e62ff47f5eb591e5ca20, MIT). DEST
(default topicsetsize/data/clef2017_tar) receives:

- ``runs/NAME.gz``: of each run, the lines of the top 100 documents per topic in trec_eval order
  (score descending, ties by document id descending; the rank column ignored; of a document
  retrieved twice, its first line ranks it), plus every line of a document retrieved twice
  within a topic (the duplicates of UOS TMAL30Q_BM25, kept on purpose). Lines are copied
  unchanged and in the order of the file, so the quirks survive: the non-Q0 second column,
  repeated rank values, the constant 0.0 scores of the UOS runs.
- ``qrels.gz``: the lines of the qrels that judge a document of a kept run, plus every line with
  relevance at least 1 (so that each topic keeps all its relevant documents: recall-based
  measures, AP and nDCG, have the same denominators as on the full qrels), in the file's order.
- ``LICENSE``: copied unchanged (the copyright notice).

Only this script reads SOURCE; the tests and the package read DEST.
"""

from __future__ import annotations

import gzip
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPTH = 100


def _lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line for line in f if line.strip()]


def _write(path: Path, lines: list[str]) -> None:
    # mtime=0: the same input gives byte-identical output
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                 filename="") as f:
        f.write("".join(lines).encode("utf-8"))


def trim_run(lines: list[str], depth: int = DEPTH) -> list[str]:
    """The lines of the top ``depth`` documents per topic in trec_eval order, and of every
    document retrieved twice within a topic."""
    first: dict[tuple[str, str], float] = {}
    count: dict[tuple[str, str], int] = {}
    for line in lines:
        qid, _, doc, _, score = line.split()[:5]
        count[(qid, doc)] = count.get((qid, doc), 0) + 1
        first.setdefault((qid, doc), float(score))
    by_topic: dict[str, list[tuple[float, str]]] = {}
    for (qid, doc), score in first.items():
        by_topic.setdefault(qid, []).append((score, doc))
    keep = {(qid, doc) for qid, docs in by_topic.items()
            for _, doc in sorted(docs, reverse=True)[:depth]}
    keep |= {key for key, n in count.items() if n > 1}
    return [line for line in lines if tuple(line.split()[0:3:2]) in keep]


def main(source: Path, dest: Path) -> None:
    (dest / "runs").mkdir(parents=True, exist_ok=True)
    kept: set[tuple[str, str]] = set()
    for path in sorted((source / "runs").glob("*.gz")):
        lines = trim_run(_lines(path))
        kept |= {tuple(line.split()[0:3:2]) for line in lines}
        _write(dest / "runs" / path.name, lines)
        print(f"{path.name}: {len(lines)} lines")
    qrels = [line for line in _lines(source / "test.clef2017.qrels.gz")
             if int(line.split()[3]) >= 1 or (line.split()[0], line.split()[2]) in kept]
    _write(dest / "qrels.gz", qrels)
    print(f"qrels: {len(qrels)} lines")
    shutil.copyfile(source / "LICENSE", dest / "LICENSE")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not 1 <= len(args) <= 2:
        sys.exit("usage: python tests/data/make_clef2017_tar.py SOURCE [DEST]")
    main(Path(args[0]),
         Path(args[1]) if len(args) > 1 else ROOT / "topicsetsize" / "data" / "clef2017_tar")
