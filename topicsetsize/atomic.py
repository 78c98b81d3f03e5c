"""Write files atomically: to a temporary name in the same folder, then rename.

A crash, a full disk or Ctrl-C never leaves half a file under the final name. Every
:class:`OSError` raised while writing names the caller's path, never the temporary file's.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

__all__ = ["atomic_path", "atomic_write_text"]


def _output_error(exc: OSError, path: Path, tmp: Path | None) -> OSError:
    """``exc`` again (same type and errno), about ``path``: "cannot write: REASON".

    A component of the path other than ``path`` or the temporary file (a parent
    folder, say) is kept in the reason; the temporary file's name never appears.
    """
    reason = exc.strerror or str(exc)
    if tmp is not None:
        reason = reason.replace(str(tmp), str(path))
    other = exc.filename
    if other is not None and str(other) != str(path) and not _is_temporary(other, path):
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


@contextlib.contextmanager
def atomic_path(path, *, suffix: str | None = None):
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    Parameters
    ----------
    path : str or os.PathLike
        The final file. Its folder is created if needed.
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
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "cannot write: it is a folder (give a file name)",
                                str(path))
    try:
        _ensure_folder(path)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.",  # see _is_temporary
                                    suffix=suffix or path.suffix or ".tmp", dir=path.parent)
        os.close(fd)
        tmp = Path(name)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)   # mkstemp makes the file private; give it the usual mode
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        if exc.filename == str(path) and (exc.strerror or "").startswith("cannot write"):
            raise
        raise _output_error(exc, path, tmp) from exc
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()


def atomic_write_text(path, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically and return the path.

    >>> import tempfile, pathlib
    >>> atomic_write_text(pathlib.Path(tempfile.mkdtemp()) / "a.txt", "x").read_text()
    'x'
    """
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)
    return Path(path)
