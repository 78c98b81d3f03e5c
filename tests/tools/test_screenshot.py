"""The README screenshot (tools/screenshot.py, outside the package): a sheet rendered to PNG by
LibreOffice and pdftoppm."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "screenshot.py"
_SPEC = importlib.util.spec_from_file_location("screenshot", _TOOL)
screenshot = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(screenshot)


def test_missing_tools_are_named(monkeypatch, tmp_path):
    monkeypatch.setattr(screenshot.shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match="soffice, pdftoppm not found"):
        screenshot.render_sheet(tmp_path / "x.png")


@pytest.mark.libreoffice
@pytest.mark.skipif(not (shutil.which("soffice") and shutil.which("pdftoppm")),
                    reason="needs LibreOffice (soffice) and poppler-utils (pdftoppm)")
def test_render_a_sheet(tmp_path):
    out = screenshot.main([str(tmp_path / "shot.png"), "--sheet", "CI", "--range", "A1:D12",
                           "--dpi", "40"])
    data = (tmp_path / "shot.png").read_bytes()
    assert out == 0 and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]
