"""Shared test fixtures. Test data lives in tests/data/ with its provenance."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


def pytest_collection_modifyitems(config, items):
    """Every LibreOffice test launches soffice: it is also ``slow`` (``pytest -m "not slow"``)."""
    for item in items:
        if item.get_closest_marker("libreoffice") and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
