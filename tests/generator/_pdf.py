"""Print generated workbooks to PDF with headless LibreOffice and read the pages' text back
(poppler's pdftotext): the workbook as a recipient prints it.

One ``soffice --convert-to pdf`` call prints a whole batch, with the throw-away profile of
:mod:`tests.generator._libreoffice` (recalculate on load). Without LibreOffice or poppler-utils
the tests that need them are skipped, except in CI (environment variable ``CI``), where they
fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ._libreoffice import _PROFILE, require_soffice

__all__ = ["print_batch", "pdf_pages"]


def print_batch(paths, outdir, *, timeout: float = 900) -> dict[Path, Path]:
    """Print every workbook of ``paths`` (distinct file names) to PDF in ``outdir`` with one
    LibreOffice run; returns ``{resolved input path: PDF}``."""
    paths = [Path(p).resolve() for p in paths]
    if len({p.stem for p in paths}) != len(paths):
        raise ValueError(f"workbook names must be distinct: {[p.name for p in paths]}")
    exe = require_soffice()
    outdir = Path(outdir).resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    profile = Path(tempfile.mkdtemp(prefix="lo_profile_"))
    try:
        (profile / "user").mkdir()
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        res = subprocess.run([exe, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                              "--norestore", "--nologo", "--nodefault", "--convert-to", "pdf",
                              "--outdir", str(outdir), *map(str, paths)],
                             capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    out = {p: outdir / f"{p.stem}.pdf" for p in paths}
    missing = [str(p) for p, pdf in out.items() if not pdf.is_file()]
    if res.returncode != 0 or missing:     # soffice exits 0 even when it cannot load a file
        raise RuntimeError(f"LibreOffice failed (rc={res.returncode}, missing {missing}):\n"
                           f"{res.stdout}{res.stderr}")
    return out


def pdf_pages(pdf) -> list[str]:
    """The text of each page of ``pdf``, in the order it was drawn (``pdftotext -raw``)."""
    exe = shutil.which("pdftotext")
    if exe is None:
        reason = "pdftotext is not installed: apt-get install poppler-utils"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} -- CI must not skip the spreadsheet tests")
        pytest.skip(reason)
    res = subprocess.run([exe, "-raw", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                         check=True, timeout=120)
    pages = res.stdout.decode("utf-8").split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages
