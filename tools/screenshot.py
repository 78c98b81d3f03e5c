"""Render one sheet of a generated workbook to PNG (for the README), with LibreOffice.

    python tools/screenshot.py docs/workbook.png [--sheet ANOVA] [--range A1:H44]
        [--spec decide_example]

Builds the workbook of a bundled spec (default: NTCIR-12), hides every other sheet, sets a
print area, prints it to PDF with headless LibreOffice (which computes every formula on load)
and rasterises the first page with pdftoppm (poppler-utils). Needs ``soffice`` and
``pdftoppm`` on the PATH.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from topicsetsize.generator.build import build_workbook
from topicsetsize.generator.content.bundled import DEFAULT_SPEC, bundled_spec
from topicsetsize.generator.content.spec_reader import load_spec

from topicsetsize.atomic import atomic_path

__all__ = ["render_sheet", "main"]


def render_sheet(out, *, sheet: str = "ANOVA", area: str = "A1:N47", dpi: int = 110,
                 spec: str = DEFAULT_SPEC) -> Path:
    """Write a PNG of ``area`` of ``sheet`` of the workbook of the bundled ``spec`` to ``out``."""
    tools = {name: shutil.which(name) for name in ("soffice", "pdftoppm")}
    missing = [name for name, path in tools.items() if path is None]
    if missing:
        raise FileNotFoundError(f"{', '.join(missing)} not found: install LibreOffice "
                                "(libreoffice-calc-nogui) and poppler-utils")
    wb = build_workbook(load_spec(bundled_spec(spec)))
    for ws in wb.worksheets:
        ws.sheet_state = "visible" if ws.title == sheet else "hidden"
        ws.sheet_view.tabSelected = ws.title == sheet
        if ws.title != sheet:
            ws.print_area = None      # LibreOffice prints a hidden sheet that has a print area
    wb.active = wb.sheetnames.index(sheet)
    ws = wb[sheet]
    ws.print_area = area
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 1
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins.left = ws.page_margins.right = 0.2
    ws.page_margins.top = ws.page_margins.bottom = 0.2
    work = Path(tempfile.mkdtemp(prefix="tss_shot_"))
    try:
        book = work / "sheet.xlsx"
        wb.save(book)
        subprocess.run([tools["soffice"], f"-env:UserInstallation={(work / 'profile').as_uri()}",
                        "--headless", "--norestore", "--convert-to", "pdf", "--outdir",
                        str(work), str(book)], check=True, capture_output=True, timeout=300)
        pdf = work / "sheet.pdf"
        if not pdf.is_file():
            raise RuntimeError("LibreOffice did not write the PDF")
        subprocess.run([tools["pdftoppm"], "-png", "-r", str(dpi), "-f", "1", "-l", "1",
                        "-singlefile", str(pdf), str(work / "page")], check=True,
                       capture_output=True, timeout=120)
        out = Path(out)
        with atomic_path(out) as tmp:
            shutil.copyfile(work / "page.png", tmp)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sheet", default="ANOVA")
    parser.add_argument("--range", dest="area", default="A1:N47")
    parser.add_argument("--dpi", type=int, default=110)
    parser.add_argument("--spec", default=DEFAULT_SPEC, help="a bundled spec")
    args = parser.parse_args(argv)
    out = render_sheet(args.out, sheet=args.sheet, area=args.area, dpi=args.dpi, spec=args.spec)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
