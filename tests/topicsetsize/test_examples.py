"""The bundled example matrix is the TREC 2010 Web AP matrix of the test data, unchanged."""

from __future__ import annotations

import numpy as np
import pandas as pd

import topicsetsize
from topicsetsize.examples import example_matrix


def test_bundled_matrix_reads_as_pandas_reads_it(data_dir):
    # read with pandas, independently of the package's reader (PROVENANCE.md)
    expected = pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)
    frame = example_matrix()
    assert frame.shape == (48, 88)
    assert frame.index.tolist() == [f"q{k:02d}" for k in range(1, 49)]
    assert frame.columns.tolist() == [f"sys{k}" for k in range(1, 89)]
    np.testing.assert_array_equal(frame.to_numpy(), expected.to_numpy())
    assert frame.attrs["measure"] == "AP"


def test_exported_and_fresh_on_each_call():
    first = topicsetsize.example_matrix()
    first.iloc[0, 0] = -1.0
    assert topicsetsize.example_matrix().iloc[0, 0] != -1.0


def test_public_names_are_exported():
    for name in ("read_matrix", "write_trec_eval", "write_long", "residual_variance",
                 "two_way_residual_variance", "pooled_variance", "standardisation_factors",
                 "std_ab", "std_cdf", "kendall_tau_ci", "summarise", "summarise_many",
                 "example_matrix"):
        assert callable(getattr(topicsetsize, name)), name


def test_the_identical_runs_named_in_the_provenance_are_all_and_only_those():
    # topicsetsize/data/PROVENANCE.md names the pairs of identical runs "sysA = sysB"; the
    # bundled matrix itself (exact equality of every topic's score) says which they are
    import re
    from pathlib import Path

    text = (Path(topicsetsize.__file__).parent / "data" / "PROVENANCE.md").read_text("utf-8")
    named = {tuple(p) for p in re.findall(r"(sys\d+) = (sys\d+)", text)}
    x = example_matrix()
    columns = list(x.columns)
    found = {(a, b) for i, a in enumerate(columns) for b in columns[i + 1:]
             if np.array_equal(x[a].to_numpy(), x[b].to_numpy())}
    assert named == found and len(found) == 10
    assert not np.array_equal(x["sys4"].to_numpy(), x["sys5"].to_numpy())
