"""Parsers of the score-matrix file formats (wide CSV/TSV, .xlsx, ``trec_eval -q``, long).

Each module parses one format into :class:`topicsetsize.formats.common.Cells`;
:func:`topicsetsize.read_matrix` detects the format, dispatches and checks the result.
"""
