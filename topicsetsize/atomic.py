"""Files in and out safely: write atomically, never rename over a special file, read once.

A regular file is written to a temporary name in the same folder, then renamed: a crash, a full
disk or Ctrl-C never leaves half a file under the final name. A symbolic link is followed: its
target is replaced and the link kept. A character device or a FIFO (``/dev/null``, ``/dev/full``,
a named pipe, ``/dev/stdout``) is written in place, never renamed over; a block device or a
socket is refused. Every :class:`OSError` raised while writing names the caller's path, never
the temporary file's. :func:`same_file` tells whether an output would overwrite an input, and
:func:`read_whole` reads an input once (a pipe or ``/dev/stdin`` cannot be read twice).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["atomic_path", "atomic_write_text", "read_whole", "same_file", "write_target"]


def _output_error(exc: OSError, path: Path, tmp: Path | None) -> OSError:
    """``exc`` again (same type and errno), about ``path``: "cannot write: REASON".

    A component of the path other than ``path`` or the temporary file (a parent
    folder, say) is kept in the reason; the temporary file's name never appears.
    """
    reason = exc.strerror or str(exc)
    if tmp is not None:
        reason = reason.replace(str(tmp), str(path))
    other = exc.filename
    if other is not None and str(other) not in (str(path), str(tmp)) \
            and not _is_temporary(other, path):
        reason = f"{other}: {reason}"
    return type(exc)(exc.errno, f"cannot write: {reason}", str(path))


def _is_temporary(name, path: Path) -> bool:
    """True for the name of a temporary file of ``path`` (``.NAME.xxxx`` in its folder)."""
    name = Path(name)
    return name.parent == path.parent and name.name.startswith(f".{path.name}.")


def _ensure_folder(path: Path) -> None:
    """Create the folder of ``path``; a file in the way is a one-line error."""
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, f"cannot write: {parent} is not a folder",
                                     str(path))
    path.parent.mkdir(parents=True, exist_ok=True)


#: Paths whose links lead to a file descriptor the process already holds (``/dev/stdout``).
_DESCRIPTOR_FOLDERS = ("/proc/", "/dev/fd/")


def _links(path) -> list[str]:
    """``path`` and each link it leads through, as absolute names (at most 40, the kernel's
    limit on nested links)."""
    names = [os.path.abspath(path)]
    while len(names) < 40 and os.path.islink(names[-1]) \
            and not names[-1].startswith(_DESCRIPTOR_FOLDERS):
        names.append(os.path.abspath(os.path.join(os.path.dirname(names[-1]),
                                                  os.readlink(names[-1]))))
    return names


def _through_descriptor(path: Path) -> bool:
    """Whether ``path`` is, or links through, ``/proc/.../fd/N`` or ``/dev/fd/N``: a file the
    shell opened for the process (``--out /dev/stdout > file``), written in place."""
    return any(name.startswith(_DESCRIPTOR_FOLDERS) for name in _links(path))


def _own_descriptor(path: Path) -> int | None:
    """N where ``path`` leads to this process's descriptor N (``/dev/stdout``: 1)."""
    import re

    for name in _links(path):
        match = re.fullmatch(r"/(?:proc/(self|\d+)/fd|dev/fd)/(\d+)", name)
        if match and match.group(1) in (None, "self", str(os.getpid())):
            return int(match.group(2))
    return None


def write_target(path) -> tuple[Path, bool]:
    """The file a write to ``path`` goes to, and whether it is written in place.

    A regular file (or a new one) is replaced atomically; through a symbolic link, its target
    is (the link stays). A character device or a FIFO, or a file reached through ``/proc`` or
    ``/dev/fd`` (``/dev/stdout``), is written in place. A folder, a block device or a socket is
    refused with a one-line :class:`OSError` naming ``path``.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "link.csv").symlink_to(folder / "data.csv")
    >>> write_target(folder / "link.csv") == (folder.resolve() / "data.csv", False)
    True
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode                # follows links
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "cannot write: it is a folder (give a file name)",
                                str(path))
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            return path, True
        kind = "a block device" if stat.S_ISBLK(mode) else "a socket or other special file"
        raise OSError(errno.EINVAL, f"cannot write: it is {kind}, not a file (give a file "
                      "name)", str(path))
    if _through_descriptor(path):
        return path, True
    if os.path.islink(path) or os.path.realpath(path) != os.path.abspath(path):
        return Path(os.path.realpath(path)), False
    return path, False


@contextlib.contextmanager
def atomic_path(path, *, suffix: str | None = None):
    """Yield a temporary path; on success its content goes to ``path``.

    A regular file ``path`` is replaced by renaming the temporary file, which is created next
    to it (its folder is created if needed). Through a symbolic link, the link's target is
    replaced and the link kept. A character device or FIFO is written in place: the temporary
    file, in the system's temporary folder, is copied into it (see :func:`write_target`).

    Parameters
    ----------
    path : str or os.PathLike
        The final file.
    suffix : str, optional
        Suffix of the temporary file (default: that of ``path``).

    Raises
    ------
    OSError
        Of the original type and errno, with ``filename`` set to ``path`` and a
        reason that never names the temporary file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_path(target) as tmp:
    ...     _ = tmp.write_text("done")
    >>> target.read_text()
    'done'
    """
    path = Path(path)
    tmp = None
    try:
        target, in_place = write_target(path)
        if not in_place:
            _ensure_folder(target)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.",  # see _is_temporary
                                    suffix=suffix or path.suffix or ".tmp",
                                    dir=None if in_place else target.parent)
        os.close(fd)
        tmp = Path(name)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)   # mkstemp makes the file private; give it the usual mode
        yield tmp
        if in_place:
            _copy_in_place(tmp, target)
        else:
            os.replace(tmp, target)
    except OSError as exc:
        if exc.filename == str(path) and (exc.strerror or "").startswith("cannot write"):
            raise
        raise _output_error(exc, path, tmp) from exc
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()


def _copy_in_place(source: Path, target: Path) -> None:
    """Copy ``source`` into the special file ``target``: opened for writing as it is (never
    created, truncated or renamed over). One of this process's descriptors (``/dev/stdout``)
    is written through itself, after what Python holds for it, so that a file the shell opened
    keeps one offset; another is appended to."""
    import shutil
    import sys

    number = _own_descriptor(target)
    if number is not None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, ValueError, OSError):
                stream.flush()
        fd = os.dup(number)
    else:
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0))
    with open(fd, "wb", closefd=True) as out, source.open("rb") as data:
        shutil.copyfileobj(data, out)


def same_file(a, b) -> bool:
    """Whether the paths ``a`` and ``b`` name the same existing file: the same device and inode
    (so through symbolic and hard links), else the same resolved path.

    >>> import tempfile, pathlib, os
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.csv").write_text("x")
    >>> os.link(folder / "a.csv", folder / "b.csv")
    >>> same_file(folder / "a.csv", folder / "b.csv"), same_file(folder / "a.csv", folder)
    (True, False)
    """
    try:
        first, second = os.stat(a), os.stat(b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def read_whole(path) -> bytes:
    """The bytes of the file ``path``, read once (a pipe, ``/dev/stdin`` or a FIFO cannot be
    read twice); a read error is a one-line :class:`OSError` naming ``path``.

    >>> import tempfile, pathlib
    >>> read_whole(atomic_write_text(pathlib.Path(tempfile.mkdtemp()) / "a.txt", "x"))
    b'x'
    """
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError as exc:
        if exc.filename is not None:        # open() names the file
            raise
        # a read error (/proc/self/mem: EIO) names no file
        raise type(exc)(exc.errno, f"cannot read: {exc.strerror or exc}", str(path)) from None


def atomic_write_text(path, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically and return the path.

    >>> import tempfile, pathlib
    >>> atomic_write_text(pathlib.Path(tempfile.mkdtemp()) / "a.txt", "x").read_text()
    'x'
    """
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)
    return Path(path)
