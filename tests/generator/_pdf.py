"""Print generated workbooks to PDF with headless LibreOffice and read the pages' text back
(poppler's pdftotext): the workbook as a recipient prints it; and find the words that print
cut (:func:`cut_words`): text clipped at the page's edge or by the next cell is still in the
PDF's text, whole, so only the drawn page shows it.

One ``soffice --convert-to pdf`` call prints a whole batch, with the throw-away profile of
:mod:`tests.generator._libreoffice` (recalculate on load). Without LibreOffice or poppler-utils
the tests that need them are skipped, except in CI (environment variable ``CI``), where they
fail.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from ._libreoffice import _PROFILE, require_soffice

__all__ = ["print_batch", "pdf_pages", "cut_words"]


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


def _poppler(tool: str) -> str:
    """The poppler tool ``tool``; skip the test without it (fail when ``CI`` is set)."""
    exe = shutil.which(tool)
    if exe is None:
        reason = f"{tool} is not installed: apt-get install poppler-utils"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} -- CI must not skip the spreadsheet tests")
        pytest.skip(reason)
    return exe


def pdf_pages(pdf, *, layout: bool = False) -> list[str]:
    """The text of each page of ``pdf``, in the order it was drawn (``pdftotext -raw``), or
    as laid out on the page (``layout``: a line is what prints on one line, where -raw breaks
    a line at a combining mark, the hat of σ̂)."""
    exe = _poppler("pdftotext")
    res = subprocess.run([exe, "-layout" if layout else "-raw", "-enc", "UTF-8", str(pdf), "-"],
                         capture_output=True, check=True, timeout=120)
    pages = res.stdout.decode("utf-8").split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                   r'(.*?)</word>')

#: Resolution of the drawn pages: a stroke of a 7-point character (11 pt at the calculators'
#: 66 %) is a pixel or more.
DPI = 150

#: Grey levels between the darkest and the lightest pixel of a word's last letter, at least:
#: a drawn letter (struck-through grey text, #A6A6A6 on white, has about 90), not a bare
#: background (white, or a cell's fill).
INK = 60


def _gray_pages(pdf, folder: Path) -> list[np.ndarray]:
    subprocess.run([_poppler("pdftoppm"), "-gray", "-r", str(DPI), str(pdf),
                    str(folder / "page")], check=True, timeout=600)
    pages = []
    for path in sorted(folder.glob("page-*.pgm"), key=lambda p: int(p.stem.split("-")[-1])):
        data = path.read_bytes()
        head = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        width, height = int(head[1]), int(head[2])
        pages.append(np.frombuffer(data, np.uint8, width * height, head.end())
                     .reshape(height, width).astype(int))
    return pages


def cut_words(pdf) -> list[tuple[int, str, float]]:
    """The words of ``pdf`` that do not print whole: (page, word, its right edge in points).

    pdftotext gives every word with its box, clipped or not; a word is whole where its last
    letter (its box's last 1/len part; a word set vertically, an axis title, its whole box)
    has ink on the page drawn by pdftoppm. A word clipped at the page's edge, by the next
    cell or by the page's foot has none there.
    """
    res = subprocess.run([_poppler("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True,
                         check=True, timeout=120)
    boxes = [[(float(a), float(b), float(c), float(d), html.unescape(t))
              for a, b, c, d, t in _WORD.findall(page)]
             for page in res.stdout.decode("utf-8").split("<page ")[1:]]
    out = []
    with tempfile.TemporaryDirectory(prefix="tss_pages_") as folder:
        pages = _gray_pages(pdf, Path(folder))
        assert len(pages) == len(boxes), (len(pages), len(boxes))
        s = DPI / 72
        for number, (image, words) in enumerate(zip(pages, boxes), start=1):
            for x1, y1, x2, y2, word in words:
                left = x1 if y2 - y1 > x2 - x1 else x2 - (x2 - x1) / len(word)
                box = image[int(y1 * s):int(np.ceil(y2 * s)) + 1,
                            int(left * s):int(np.ceil(x2 * s)) + 1]
                if box.size == 0 or box.max() - box.min() < INK:
                    out.append((number, word, round(x2, 1)))
    return out
