"""Rows of Table 1 (column g) of the AIRS 2016 std-AB paper, and rankings that reproduce them.

Column g is Kendall's τ between the run rankings by raw and by std-AB mean scores, with its 95%
confidence interval (tests/data/airs2016_table1_variances.csv, tests/data/PROVENANCE.md). The
paper's score matrices are not public, but τ only depends on how many run pairs are discordant,
so two rankings of m runs with the published τ are rebuilt here: runs 1..m, and a permutation
with d = round((1 − τ)·C(m, 2)/2) inversions.
"""

from __future__ import annotations

import csv
from pathlib import Path

_CSV = Path(__file__).parents[1] / "data" / "airs2016_table1_variances.csv"

with _CSV.open(newline="") as _file:
    #: (task, measure, m, tau, low, high) for each of the 19 rows.
    KENDALL_ROWS = [(r["task"], r["measure"], int(r["runs"]), float(r["tau"]),
                     float(r["tau_ci_low"]), float(r["tau_ci_high"]))
                    for r in csv.DictReader(_file)]


def ranks_with_tau(m: int, tau: float) -> tuple[list[int], list[int]]:
    """Two rankings of m runs whose Kendall's τ rounds to ``tau`` (3 decimals).

    >>> ranks_with_tau(4, 0.667)
    ([1, 2, 3, 4], [2, 1, 3, 4])
    """
    pairs = m * (m - 1) // 2
    inversions = round((1 - tau) * pairs / 2)
    # Lehmer code: the run at each position jumps over up to (runs left - 1) later runs.
    left, code = inversions, []
    for position in range(m):
        jump = min(left, m - 1 - position)
        code.append(jump)
        left -= jump
    pool, perm = list(range(1, m + 1)), []
    for jump in code:
        perm.append(pool.pop(jump))
    return list(range(1, m + 1)), perm
