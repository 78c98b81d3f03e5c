"""xladdin: the topicsetsize engine as Excel functions (xlwings), for the classic Windows add-in
and for xlwings Lite / xlwings Server.

The functions are in :mod:`xladdin.udfs` (``UDF Modules = xladdin.udfs`` in the classic add-in,
``from xladdin.udfs import *`` in xlwings Lite's main.py); ``docs/excel.md`` explains the
set-up and how errors show in a cell.
"""
