"""Recalculate generated workbooks in headless LibreOffice and read the values back.

One ``soffice --convert-to xlsx`` call converts a chunk of workbooks (a launch costs about
1.5 s) and is watched as it goes: it may take a while to start and then a while for each
workbook, both scaled by the machine's load, and is killed where it writes no workbook for
longer (a hang costs that, not the whole chunk's time). A chunk that fails is retried one
workbook at a time, so a busy machine fails at most the tests of the workbooks it could not
recalculate, each with the cause. The throw-away user profile sets
"recalculate on load: always" for xlsx and ods (Calc/Formula/Load/OOXMLRecalcMode = 0), so
every formula is computed by LibreOffice, whatever the file carries. The re-saved files are
only read (openpyxl, ``data_only=True``); numbers come back with 15 significant digits.

Where LibreOffice is absent the tests that need it are skipped with a reason, except in CI
(environment variable ``CI`` set), where they fail: CI must never skip them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

__all__ = ["find_soffice", "require_soffice", "recalculate_batch", "ERROR_PREFIXES",
           "filled_cells_without_errors", "chart_gap_cells", "stall_limit", "Recalculated"]

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
    is an error value, except #N/A as a chart's gap (:func:`chart_gap_cells`) and an input cell
    (yellow, named) that holds an error typed into it (``=1/0``: the user's, which the Status
    names); return how many cells hold a value, so callers can check the scan covered the
    workbook."""
    cells = 0
    typed = _input_cells(wb)
    for ws in wb.worksheets:
        gaps = None
        # The cells the file holds (not ws.iter_rows(), which makes and visits every empty
        # cell of the used rectangle: a hundred times slower on these sheets)
        for cell in list(ws._cells.values()):
            value = cell.value
            if value is None:
                continue
            cells += 1
            if isinstance(value, str) and value.startswith(ERROR_PREFIXES):
                if value == "#N/A":
                    gaps = chart_gap_cells(ws) if gaps is None else gaps
                    if cell.coordinate in gaps:
                        continue
                if (ws.title, cell.coordinate) in typed:
                    continue
                raise AssertionError((name, ws.title, cell.coordinate, value))
    return cells


def _input_cells(wb) -> set[tuple[str, str]]:
    """(sheet, coordinate) of every calculator input cell that ``wb`` names."""
    from topicsetsize.generator.content.calculators import INPUTS

    out = set()
    for items in INPUTS.values():
        for item in items:
            if item.name in wb.defined_names:
                sheet, coord = next(iter(wb.defined_names[item.name].destinations))
                out.add((sheet, coord.replace("$", "")))
    return out


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


#: How many workbooks one ``soffice`` call converts: a launch costs about 1.5 s, and a batch that
#: fails (a crash, a time-out on a busy machine) is retried one workbook at a time, so one slow
#: or broken workbook costs only its own tests.
CHUNK = 8
#: Seconds a LibreOffice call may go without writing its next workbook: a fixed part before the
#: first (the launch) plus a part per workbook, both multiplied by the machine's load per core
#: where that is above 1 (on an idle 2-core machine a workbook of the suite takes 1-4 s; the
#: budget is ten times that). ``TSS_LO_SECONDS_PER_BOOK`` raises it.
BASE_SECONDS, SECONDS_PER_BOOK = 60.0, 30.0
#: Seconds between two looks at a call's progress.
POLL_SECONDS = 0.5


def load_per_core() -> float:
    """The 1-minute load average divided by the number of cores (0 where unknown)."""
    try:
        return os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:                                          # pragma: no cover (no getloadavg)
        return 0.0


def _per_book() -> float:
    return float(os.environ.get("TSS_LO_SECONDS_PER_BOOK", SECONDS_PER_BOOK))


def stall_limit(done: int) -> float:
    """Seconds a LibreOffice call that has written ``done`` workbooks may take for the next one
    on this machine, now (the launch as well before the first).

    >>> stall_limit(0) >= BASE_SECONDS + SECONDS_PER_BOOK > stall_limit(1) >= SECONDS_PER_BOOK
    True
    """
    return ((BASE_SECONDS if done == 0 else 0.0) + _per_book()) * max(1.0, load_per_core())


class Recalculated(dict):
    """{input path: recalculated copy}; a workbook that LibreOffice did not recalculate fails
    the test that asks for it, with the cause (:attr:`failures`), and only that test."""

    def __init__(self, done=(), failures=None):
        super().__init__(done)
        self.failures: dict = dict(failures or {})

    def __missing__(self, key):
        if key in self.failures:
            pytest.fail(self.failures[key], pytrace=False)
        raise KeyError(key)


def _convert(exe: str, paths: list[Path], outdir: Path) -> tuple[str, str | None]:
    """One ``soffice --convert-to xlsx`` call on ``paths``: (console output, why it failed or
    None). A call that writes no workbook within :func:`stall_limit` is killed with its whole
    process group."""
    outputs = [outdir / p.name for p in paths]
    for out in outputs:                 # a failed call's partial output is no progress
        out.unlink(missing_ok=True)
    profile = Path(tempfile.mkdtemp(prefix="lo_profile_"))
    try:
        (profile / "user").mkdir()
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        cmd = [exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
               "--nologo", "--nodefault", "--convert-to", "xlsx:Calc MS Excel 2007 XML",
               "--outdir", str(outdir), *map(str, paths)]
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              stdin=subprocess.DEVNULL, start_new_session=True) as proc:
            console, stalled = _watch(proc, outputs)
            if stalled is not None:
                return console, stalled
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    missing = [p.name for p in paths if not (outdir / p.name).is_file()]
    # soffice exits 0 even when it cannot load a file: check that every output exists
    if proc.returncode != 0 or missing:
        return console, (f"LibreOffice failed (rc={proc.returncode}, missing {missing}):\n"
                         f"{console}")
    return console, None


def _watch(proc: subprocess.Popen, outputs: list[Path]) -> tuple[str, str | None]:
    """Wait for ``proc`` (LibreOffice writing ``outputs`` in turn): (its console output, None),
    or, where it writes no new output within :func:`stall_limit`, kill its process group and
    say why (a hang, after the last workbook too, costs that limit, not the chunk's time)."""
    done, since = 0, time.monotonic()
    while True:
        try:
            return proc.communicate(timeout=POLL_SECONDS)[0], None
        except subprocess.TimeoutExpired:
            pass
        made = sum(out.is_file() for out in outputs)
        if made > done:
            done, since = made, time.monotonic()
        limit = stall_limit(done)
        if time.monotonic() - since > limit:
            os.killpg(proc.pid, signal.SIGKILL)
            cores = os.cpu_count() or 1
            return proc.communicate()[0], (
                f"LibreOffice recalculated {done} of {len(outputs)} workbook(s), then nothing "
                f"for {limit:.0f} s (load average {load_per_core() * cores:.1f} on {cores} "
                f"cores): the machine is too busy or LibreOffice hangs; rerun when it is "
                f"quieter, or raise TSS_LO_SECONDS_PER_BOOK (now {_per_book():g} s)")


def recalculate_batch(paths, outdir, *, strict: bool = True) -> tuple[Recalculated, str]:
    """Recalculate every workbook in ``paths`` with LibreOffice, :data:`CHUNK` at a time.

    Returns ``({input path: recalculated copy}, LibreOffice's console output)``. A chunk that
    fails or times out is retried one workbook at a time; a workbook that still fails raises
    RuntimeError with the cause (``strict``), or is left out of the mapping, where asking for
    it fails that test alone with the cause. The inputs must have distinct file names;
    ``outdir`` must not be their folder.
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
    result, consoles = Recalculated(), []
    for start in range(0, len(paths), CHUNK):
        chunk = paths[start:start + CHUNK]
        console, failed = _convert(exe, chunk, outdir)
        consoles.append(console)
        if failed and len(chunk) > 1:     # one at a time: a workbook fails only on its own
            for path in chunk:
                console, why = _convert(exe, [path], outdir)
                consoles.append(console)
                if why:
                    result.failures[path] = why
        elif failed:
            result.failures[chunk[0]] = failed
        result.update({p: outdir / p.name for p in chunk if p not in result.failures})
    if strict and result.failures:
        raise RuntimeError(next(iter(result.failures.values())))
    return result, "".join(consoles)
