"""Fixtures for the Excel add-in tests: Excel-shaped data and the Office.js worker process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import xlwings

WORKER = Path(__file__).with_name("_officejs_worker.py")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def book_matrix(data_dir) -> list[list[float]]:
    """Table 5.1 of Sakai's book (20 topics × 3 runs; tests/data/PROVENANCE.md), as Excel hands
    over a range: a list of rows of floats."""
    return pd.read_csv(data_dir / "sakai_book_table5_1.csv", index_col=0).values.tolist()


@pytest.fixture(scope="session")
def web2010(data_dir) -> pd.DataFrame:
    """TREC 2010 Web AP, 48 topics × 88 runs (tests/data/PROVENANCE.md)."""
    return pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)


@pytest.fixture(scope="session")
def table2(data_dir) -> pd.DataFrame:
    """Table 2 (parts I and II) of the AIRS 2016 std-AB paper (tests/data/PROVENANCE.md)."""
    return pd.read_csv(data_dir / "anova_table2_parts_I_II.csv")


class OfficeJs:
    """Talks to the worker: xladdin.udfs run through xlwings' Office.js custom-function path."""

    def __init__(self):
        env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
        # The worker runs a script from tests/xladdin: put this checkout first on its path, so
        # that it imports this checkout's xladdin, not whichever one is installed.
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        self._process = subprocess.Popen(
            [sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=env)

    def _ask(self, request: dict):
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the Office.js worker stopped (exit code {self._process.poll()})")
        return json.loads(line)

    def meta(self, module: str = "udfs") -> dict:
        """``xlwings.server.custom_functions_meta`` of the module."""
        return self._ask({"op": "meta", "module": module})

    def toy_meta(self) -> dict:
        """``custom_functions_meta`` of the toy design's functions (_toy_design.py)."""
        return self._ask({"op": "toy_meta"})

    def environment(self) -> dict:
        return self._ask({"op": "environment"})

    def call(self, func_name: str, *args, repeating=None, module: str = "udfs") -> dict:
        """Call ``func_name`` as Excel on Mac / the web does: each argument a 2-D array.

        A number or string becomes ``[[x]]``, a row list ``[[...]]``; lists of rows and None
        (an omitted optional argument) are sent as given. ``repeating`` holds the values of a
        repeating (varargs) last parameter, which Office.js sends as one list of 2-D arrays.
        Returns ``{"result": [[...]]}`` or ``{"error": {"type", "message", "xlwings_error"}}``.
        """
        args = [_office_js_arg(a) for a in args]
        if repeating is not None:
            args.append([_office_js_arg(a) for a in repeating])
        payload = {
            "func_name": func_name,
            "args": args,
            "version": xlwings.__version__,
            "client": "Office.js",
            "runtime": "1.4",
            "culture_info_name": "en-US",
            "date_format": "M/d/yyyy",
            "caller_address": "Sheet1!B2",
        }
        return self._ask({"op": "call", "module": module, "payload": payload})

    def close(self) -> None:
        self._process.stdin.close()
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


def _office_js_arg(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [list(r) for r in value] if value and isinstance(value[0], (list, tuple)) \
            else [list(value)]
    return [[value]]


@pytest.fixture(scope="session")
def officejs():
    worker = OfficeJs()
    yield worker
    worker.close()
