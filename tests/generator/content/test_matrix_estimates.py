"""Score matrices named by a spec: read, summarised, turned into measures."""

from __future__ import annotations

import math

import numpy as np
import pytest
from topicsetsize.generator.content.matrix_estimates import estimate, measures_of
from topicsetsize.generator.content.spec import MatrixSpec

import topicsetsize as tss


def test_estimate_from_a_file_and_the_measures_it_yields(tmp_path, data_dir):
    spec = MatrixSpec(name="robust", path="trec2004robust_ap.csv", base=data_dir,
                      scores=("std-ab",))
    est = estimate(spec)
    scores = tss.read_matrix(data_dir / "trec2004robust_ap.csv")
    x = scores.to_numpy()
    ve = ((x - x.mean(axis=0)) ** 2).sum() / (x.shape[1] * (x.shape[0] - 1))   # Eq. 1
    assert math.isclose(est.summary.var_raw, ve, rel_tol=1e-12)
    assert est.file == "trec2004robust_ap.csv"      # its name: never a path of the machine
    (measure,) = measures_of(est)
    assert measure.name == "robust, std-AB" and measure.variance == est.summary.var_std_ab
    assert est.runs.loc["sys1", "rank_raw"] == 1 + int((x.mean(axis=0) > x[:, 0].mean()).sum())
    assert np.allclose(est.topics["sd"], x.std(axis=1, ddof=1))


def test_missing_matrix_names_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.csv"):
        estimate(MatrixSpec(name="x", path="nope.csv", base=tmp_path))
