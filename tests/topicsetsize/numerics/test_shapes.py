"""Tests of topicsetsize.numerics.shapes."""

from __future__ import annotations

import numpy as np
import pytest

from topicsetsize.numerics.shapes import flat_cells


@pytest.mark.parametrize("values", [
    (0.2, np.array([[2], [3], [5]]), np.array([[0.1, 0.2]]), 0.05),   # a table's search cells
    (np.array([0.2, 0.1]), np.array([0.5, 0.7])),                     # shapes already equal
    (0.2, 0.05),                                                        # all scalars
    (np.arange(6).reshape(2, 3), np.float32(1.5), 7),
])
def test_flat_cells_is_numpys_broadcast_then_ravel(values):
    """The same shape, values and dtypes as numpy's own broadcast_arrays + ravel, and fresh
    arrays (writing to one leaves the caller's argument alone)."""
    shape, flat = flat_cells(*values)
    expected = [np.ravel(x) for x in np.broadcast_arrays(*(np.asarray(v) for v in values))]
    assert shape == np.broadcast_shapes(*(np.shape(v) for v in values))
    for got, want in zip(flat, expected, strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert got.flags.c_contiguous and got.ndim == 1
    flat[-1][...] = -1
    assert not np.any(np.asarray(values[-1]) == -1)


def test_flat_cells_refuses_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError):
        flat_cells(np.zeros(2), np.zeros(3))
