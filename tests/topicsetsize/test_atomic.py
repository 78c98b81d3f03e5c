"""Atomic writes: all or nothing, with the usual file mode."""

from __future__ import annotations

import errno
import os
import stat

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


# Special files (issue 24.2). Never a real system device replaced: FIFOs, sockets and links are
# made in tmp_path; /dev/null and /dev/full are reached only through a link made here, which
# the old writer replaced (the link, never the device).

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and links: POSIX")


@posix_only
def test_a_fifo_is_written_in_place_not_renamed_over(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)     # a reader waits on the FIFO
    try:
        atomic_write_text(fifo, "topic,a\n1,0.5\n")
        assert os.read(reader, 1000) == b"topic,a\n1,0.5\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]    # no temporary left


@posix_only
def test_a_link_is_followed_and_kept(tmp_path):
    target = atomic_write_text(tmp_path / "data.csv", "old")
    link = tmp_path / "link.csv"
    link.symlink_to(target.name)
    atomic_write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == "data.csv"
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv", "link.csv"]


@posix_only
@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_dev_null_through_a_link_is_written_in_place(tmp_path):
    link = tmp_path / "null.csv"
    link.symlink_to("/dev/null")
    atomic_write_text(link, "discarded")
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    from topicsetsize.atomic import write_target

    assert write_target(link)[1] is True and write_target(tmp_path / "new.csv")[1] is False


@posix_only
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_device_is_a_write_error_naming_the_path(tmp_path):
    link = tmp_path / "full.csv"
    link.symlink_to("/dev/full")
    with pytest.raises(OSError) as err:
        atomic_write_text(link, "x" * 100_000)
    assert err.value.errno == errno.ENOSPC and err.value.filename == str(link)
    assert err.value.strerror == "cannot write: No space left on device"
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


@posix_only
def test_a_socket_is_refused(tmp_path):
    import socket

    name = tmp_path / "s.csv"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(name))
        with pytest.raises(OSError, match="cannot write: it is a socket") as err:
            atomic_write_text(name, "x")
        assert err.value.filename == str(name)
        assert stat.S_ISSOCK(os.stat(name).st_mode)
    finally:
        server.close()


def test_a_folder_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(IsADirectoryError, match="it is a folder"):
        atomic_write_text(tmp_path, "x")
    assert list(tmp_path.iterdir()) == []


@posix_only
def test_same_file_sees_hard_and_symbolic_links(tmp_path):
    from topicsetsize.atomic import same_file

    data = atomic_write_text(tmp_path / "qrels.txt", "1 0 d 1\n")
    os.link(data, tmp_path / "hard.txt")
    (tmp_path / "soft.txt").symlink_to(data)
    other = atomic_write_text(tmp_path / "other.txt", "1 0 d 1\n")
    assert same_file(tmp_path / "hard.txt", data) and same_file(tmp_path / "soft.txt", data)
    assert not same_file(other, data) and not same_file(tmp_path / "new.txt", data)


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux only")
def test_read_whole_names_the_file_of_a_read_error():
    from topicsetsize.atomic import read_whole

    with pytest.raises(OSError) as err:
        read_whole("/proc/self/mem")        # opens, but reading offset 0 is EIO
    assert err.value.filename == "/proc/self/mem"
    assert err.value.strerror.startswith("cannot read: ")


def _device_node(path, kind: int, major: int, minor: int):
    """A device node made in tmp_path (root only: skipped elsewhere)."""
    try:
        os.mknod(path, kind | 0o600, os.makedev(major, minor))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    return path


@posix_only
def test_a_character_device_node_is_written_in_place(tmp_path):
    node = _device_node(tmp_path / "null.csv", stat.S_IFCHR, 1, 3)     # a null device's numbers
    atomic_write_text(node, "discarded")
    assert stat.S_ISCHR(os.stat(node).st_mode)                        # not renamed over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null.csv"]


@posix_only
def test_a_block_device_node_is_refused(tmp_path):
    node = _device_node(tmp_path / "disk.csv", stat.S_IFBLK, 7, 250)   # a loop device's numbers
    with pytest.raises(OSError, match="cannot write: it is a block device") as err:
        atomic_write_text(node, "x")
    assert err.value.filename == str(node) and stat.S_ISBLK(os.stat(node).st_mode)
