"""Atomic writes: all or nothing, with the usual file mode."""

from __future__ import annotations

import os

import pytest

from topicsetsize.atomic import atomic_path, atomic_write_text


def test_crash_leaves_no_file(tmp_path):
    target = tmp_path / "out.xlsx"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("crash mid-write")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []          # the temporary file is gone too


def test_existing_file_survives_a_crash(tmp_path):
    target = atomic_write_text(tmp_path / "out.txt", "old")
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target) as tmp:
            tmp.write_text("new, half")
            raise KeyboardInterrupt
    assert target.read_text() == "old"


def test_mode_follows_umask(tmp_path):
    old = os.umask(0o022)
    try:
        target = atomic_write_text(tmp_path / "out.txt", "x")
    finally:
        os.umask(old)
    assert target.stat().st_mode & 0o777 == 0o644


def test_errors_name_the_callers_path_never_the_temporary_file(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(OSError) as err:
        with atomic_path(target) as tmp:
            raise PermissionError(13, "Permission denied", str(tmp))
    assert err.value.filename == str(target) and isinstance(err.value, PermissionError)
    assert err.value.strerror == "cannot write: Permission denied"
    assert ".out.txt." not in str(err.value) and list(tmp_path.iterdir()) == []
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(NotADirectoryError) as err:
        atomic_write_text(blocker / "deeper" / "out.txt", "x")
    assert err.value.filename == str(blocker / "deeper" / "out.txt")
    assert err.value.strerror == f"cannot write: {blocker} is not a folder"
