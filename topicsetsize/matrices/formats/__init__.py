"""Parsers of the score-matrix file formats (wide CSV/TSV, .xlsx, ``trec_eval -q``, long).

Each module parses one format into :class:`topicsetsize.matrices.formats.common.Cells`;
:func:`topicsetsize.read_matrix` detects the format, dispatches and checks the result.
"""

__all__ = ["FORMATS"]

#: The file formats :func:`topicsetsize.read_matrix` understands (``fmt=``, ``--format``).
FORMATS = ("wide", "xlsx", "trec_eval", "long")
