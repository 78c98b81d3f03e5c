"""Recalculate generated workbooks in headless LibreOffice and read the values back.

One ``soffice --convert-to xlsx`` call converts a whole batch of workbooks (a launch costs
about 1.5 s). The throw-away user profile sets "recalculate on load: always" for xlsx and ods
(Calc/Formula/Load/OOXMLRecalcMode = 0), so every formula is computed by LibreOffice, whatever
the file carries. The re-saved files are only read (openpyxl, ``data_only=True``); numbers
come back with 15 significant digits.

Where LibreOffice is absent the tests that need it are skipped with a reason, except in CI
(environment variable ``CI`` set), where they fail: CI must never skip them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

__all__ = ["find_soffice", "require_soffice", "recalculate_batch", "ERROR_PREFIXES",
           "filled_cells_without_errors", "chart_gap_cells"]

_ITEM = ('<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="{}" '
         'oor:op="fuse"><value>0</value></prop></item>')    # 0 = always recalculate on load
_PROFILE = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
            'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
            + "\n".join(_ITEM.format(key) for key in ("OOXMLRecalcMode", "ODFRecalcMode"))
            + "\n</oor:items>\n")

#: How spreadsheet errors look once read back (xlsx: '#NAME?'...; LibreOffice-only: 'Err:502').
ERROR_PREFIXES = ("#", "Err:")


def chart_gap_cells(ws) -> set[str]:
    """The cells of ``ws`` whose values are the x or y values of a chart's series: there, and
    only there, #N/A is meant (a gap in the chart, e.g. while an input is bad)."""
    from openpyxl.utils import range_boundaries

    out = set()
    for chart in ws._charts:
        for series in chart.series:
            for values in (series.xVal, series.yVal):
                ref = values.numRef.f if values is not None and values.numRef else ""
                sheet, _, cells = ref.rpartition("!")
                if sheet.strip("'") != ws.title:
                    continue
                c1, r1, c2, r2 = range_boundaries(cells.replace("$", ""))
                out |= {ws.cell(r, c).coordinate for r in range(r1, r2 + 1)
                        for c in range(c1, c2 + 1)}
    return out


def filled_cells_without_errors(wb, name: str) -> int:
    """Assert that no cell of the recalculated workbook ``wb`` (called ``name`` in the message)
    is an error value, except #N/A as a chart's gap (:func:`chart_gap_cells`); return how many
    cells hold a value, so callers can check the scan covered the workbook."""
    cells = 0
    for ws in wb.worksheets:
        gaps = chart_gap_cells(ws)
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and not (cell.value == "#N/A"
                                                        and cell.coordinate in gaps):
                    assert not cell.value.startswith(ERROR_PREFIXES), \
                        (name, ws.title, cell.coordinate, cell.value)
                cells += cell.value is not None
    return cells


def find_soffice() -> str | None:
    """The LibreOffice executable, or None."""
    for cand in (os.environ.get("SOFFICE"), "soffice", "libreoffice"):
        if cand and shutil.which(cand):
            return shutil.which(cand)
    return None


def require_soffice() -> str:
    """The LibreOffice executable; skip the test without it (fail when ``CI`` is set)."""
    exe = find_soffice()
    if exe is None:
        reason = ("LibreOffice (soffice) is not installed: apt-get install "
                  "libreoffice-calc-nogui, or set $SOFFICE")
        if os.environ.get("CI"):
            pytest.fail(f"{reason} -- CI must not skip the spreadsheet tests")
        pytest.skip(reason)
    return exe


def recalculate_batch(paths, outdir, *, timeout: float = 600) -> tuple[dict, str]:
    """Recalculate every workbook in ``paths`` with one LibreOffice run.

    Returns ``({input path: recalculated copy}, LibreOffice's console output)``. The inputs
    must have distinct file names; ``outdir`` must not be their folder.
    """
    paths = [Path(p).resolve() for p in paths]
    names = [p.name for p in paths]
    if len(set(names)) != len(names):
        raise ValueError(f"workbook names must be distinct: {names}")
    outdir = Path(outdir).resolve()
    if any(p.parent == outdir for p in paths):
        raise ValueError("the output folder must differ from the inputs' folder")
    exe = require_soffice()
    outdir.mkdir(parents=True, exist_ok=True)
    profile = Path(tempfile.mkdtemp(prefix="lo_profile_"))
    try:
        (profile / "user").mkdir()
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        cmd = [exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
               "--nologo", "--nodefault", "--convert-to", "xlsx:Calc MS Excel 2007 XML",
               "--outdir", str(outdir), *map(str, paths)]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    console = res.stdout + res.stderr
    out = {p: outdir / p.name for p in paths}
    missing = [str(p) for p, o in out.items() if not o.is_file()]
    # soffice exits 0 even when it cannot load a file: check that every output exists
    if res.returncode != 0 or missing:
        raise RuntimeError(f"LibreOffice failed (rc={res.returncode}, missing {missing}):\n"
                           f"{console}")
    return out, console
