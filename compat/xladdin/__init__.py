"""The old import path of the Excel functions, kept for workbooks and add-ins set up with it.

The functions live in :mod:`topicsetsize.xladdin.udfs`; ``UDF Modules = xladdin.udfs`` (classic
Excel) and ``from xladdin.udfs import *`` (xlwings Lite's main.py) keep working through
:mod:`xladdin.udfs`, which re-exports them. In a source checkout the folder ``xladdin/`` itself
answers to this name.
"""
