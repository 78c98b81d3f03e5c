"""``xladdin.udfs``: the Excel functions of :mod:`topicsetsize.xladdin.udfs`, under their old
import path (xlwings registers the functions it finds in this module's namespace)."""

from topicsetsize.xladdin.udfs import *  # noqa: F401,F403
from topicsetsize.xladdin.udfs import __all__  # noqa: F401
