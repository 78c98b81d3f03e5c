"""In-memory score matrices: one-line messages naming the offending cell."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from topicsetsize.errors import InputError
from topicsetsize.matrices.matrix import check_matrix


def test_check_matrix_messages():
    frame = pd.DataFrame({"a": [0.1, "x"], "b": [0.2, 0.3]}, index=["t1", "t2"])
    with pytest.raises(InputError, match=re.escape("scores: non-numeric value 'x' at topic 't2', "
                                                   "run 'a'")):
        check_matrix(frame)
    with pytest.raises(InputError, match=re.escape("scores: missing or non-finite value None at "
                                                   "row 1, column 2")):
        check_matrix([[0.1, None], [0.2, 0.3]])
    with pytest.raises(InputError, match=re.escape("scores: missing or non-finite value nan at "
                                                   "row 1, column 2")):
        check_matrix(np.array([[0.1, np.nan], [0.2, 0.3]]))
    # numbers stored as text are refused, not parsed: the data is never silently changed
    with pytest.raises(InputError, match=re.escape("scores: non-numeric value '0.5' at row 1, "
                                                   "column 1")):
        check_matrix([["0.5", 0.2], [0.3, 0.4]])
    assert check_matrix([[0.1], [0.2]], min_runs=1).values.shape == (2, 1)
