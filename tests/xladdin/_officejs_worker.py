"""A worker process that runs xladdin.udfs through xlwings' Office.js custom-function path.

xlwings picks its decorators when it is first imported: with ``XLWINGS_ON_SERVER=true`` they
are the Office.js ones of xlwings Lite / xlwings Server, otherwise (on Linux) no-ops. The test
process imports xlwings the ordinary way, so the Office.js path runs here, in a separate
process started by the ``officejs`` fixture (tests/xladdin/conftest.py) with that environment.

Protocol: one JSON request per line on stdin, one JSON answer per line on stdout.

* ``{"op": "meta", "module": M}`` -> ``xlwings.server.custom_functions_meta(M)``
* ``{"op": "call", "module": M, "payload": {...}}`` -> ``{"result": ...}`` or
  ``{"error": {"type", "message", "xlwings_error"}}``, from
  ``xlwings.server.custom_functions_call(payload, M)``
* ``{"op": "toy_meta"}`` -> ``custom_functions_meta`` of a module holding the Excel functions
  that ``design_functions`` builds for the toy design of ``_toy_design.py``
* ``{"op": "environment"}`` -> which decorators xlwings chose, the error policy of
  ``xladdin._register`` and whether any Windows-only module was imported

``M`` is ``"udfs"`` (the module ``xladdin.udfs``) or ``"lite_main"``: a module whose whole
source is ``from xladdin.udfs import *``, as a user would write in xlwings Lite's main.py.
"""

from __future__ import annotations

import sys

#: Modules that exist only on Windows (pywin32), or that import pywin32 at import time.
WINDOWS_ONLY = ("pythoncom", "pywintypes", "win32api", "win32com", "xlwings._xlwindows",
                "xlwings.udfs", "xlwings.com_server")


def main() -> None:
    import asyncio
    import json
    import types

    import xlwings
    import xlwings.server

    import xladdin._register
    import xladdin.udfs

    lite_main = types.ModuleType("main")
    exec("from xladdin.udfs import *", lite_main.__dict__)  # noqa: S102 - what a Lite user writes
    modules = {"udfs": xladdin.udfs, "lite_main": lite_main}

    def answer(request: dict):
        op = request["op"]
        if op == "meta":
            return xlwings.server.custom_functions_meta(modules[request["module"]])
        if op == "call":
            try:
                result = asyncio.run(xlwings.server.custom_functions_call(
                    request["payload"], modules[request["module"]]))
            except Exception as error:  # noqa: BLE001 - reported to the test
                return {"error": {"type": type(error).__name__, "message": str(error),
                                  "xlwings_error": isinstance(error, xlwings.XlwingsError)}}
            return {"result": result}
        if op == "toy_meta":
            import _toy_design
            from topicsetsize.xladdin.udfs import design_functions

            sys.modules[_toy_design.MODULE] = _toy_design.toy_module()
            toy = types.ModuleType("toy")
            toy.__dict__.update(design_functions(_toy_design.toy_design()))
            return xlwings.server.custom_functions_meta(toy)
        if op == "environment":
            return {"func_module": xlwings.func.__module__,
                    "errors": xladdin._register.ERRORS,
                    "windows_modules": sorted(m for m in sys.modules if m in WINDOWS_ONLY
                                              or m.split(".")[0] in WINDOWS_ONLY)}
        raise ValueError(f"unknown op {op!r}")

    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
