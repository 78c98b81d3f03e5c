"""The output-shape rule shared by every public function: scalars in, scalars out.

Every function of the engine broadcasts its arguments with numpy. When all the
arguments a caller gave were scalars, the answer is a plain Python number;
otherwise it is an ndarray of the broadcast shape.
"""

from __future__ import annotations

import numpy as np

__all__ = ["as_output", "flat_cells"]


def as_output(value, *inputs):
    """``value`` as a Python scalar when every input was a scalar, else as an ndarray.

    Parameters
    ----------
    value : array_like
        The computed result.
    *inputs
        The arguments exactly as the caller passed them.

    Examples
    --------
    >>> as_output(np.float64(0.5), 0.05, 10)
    0.5
    >>> as_output(np.array([1, 2]), 0.05, [2, 3])
    array([1, 2])
    """
    if all(np.ndim(x) == 0 for x in inputs):
        return np.asarray(value).item()
    return np.asarray(value)


def flat_cells(*values) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """The broadcast shape of ``values`` and each of them broadcast to it, flattened (fresh
    contiguous 1-D arrays, each of its own dtype).

    What ``[np.ravel(x) for x in np.broadcast_arrays(*values)]`` gives, at a third of its cost
    for the few small arrays of a table's search (issue 28.4).

    >>> shape, (a, m) = flat_cells(0.05, np.array([[2], [3]]))
    >>> shape, a.tolist(), m.tolist()
    ((2, 1), [0.05, 0.05], [2, 3])
    """
    shape = np.broadcast(*values).shape
    flat = []
    for x in values:
        cell = np.empty(shape, np.result_type(x))
        cell[...] = x
        flat.append(cell.reshape(-1))
    return shape, flat
