"""The output-shape rule shared by every public function: scalars in, scalars out.

Every function of the engine broadcasts its arguments with numpy. When all the
arguments a caller gave were scalars, the answer is a plain Python number;
otherwise it is an ndarray of the broadcast shape.
"""

from __future__ import annotations

import numpy as np

__all__ = ["as_output"]


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
