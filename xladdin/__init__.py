"""xladdin: the topicsetsize engine as Excel functions (xlwings), for the classic Windows add-in
and for xlwings Lite / xlwings Server.

The functions are in :mod:`topicsetsize.xladdin.udfs` (``UDF Modules =
topicsetsize.xladdin.udfs`` in the classic add-in, ``from topicsetsize.xladdin.udfs import *`` in
xlwings Lite's main.py; the old ``xladdin.udfs`` still works); ``docs/excel.md`` explains the
set-up and how errors show in a cell.
"""
