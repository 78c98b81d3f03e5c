"""The LibreOffice test helper: skip without LibreOffice, but fail in CI (CI never skips)."""

from __future__ import annotations

import pytest

from . import _libreoffice


def test_missing_libreoffice_skips_locally_and_fails_in_ci(monkeypatch):
    monkeypatch.setattr(_libreoffice, "find_soffice", lambda: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="LibreOffice .* not installed"):
        _libreoffice.require_soffice()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must not skip"):
        _libreoffice.require_soffice()


def test_batch_inputs_are_checked(tmp_path):
    a, b = tmp_path / "x" / "w.xlsx", tmp_path / "y" / "w.xlsx"
    with pytest.raises(ValueError, match="distinct"):
        _libreoffice.recalculate_batch([a, b], tmp_path / "out")
