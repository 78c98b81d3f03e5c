"""The files and streams of a command, checked before any work is done.

- An output (``--out``, ``--plot``, a workbook's default output) that is one of the command's
  inputs (FILE, ``--matrix``, ``--runs`` and its files, ``--qrels``, SPEC, ``--plan``,
  ``--file``), through symbolic or hard links too, is refused: writing it would destroy the
  input. So is a standard output redirected to an input.
- ``-`` as an input is standard input (read once, as a pipe is); ``--out -`` is standard output
  where the output is text (``evaluate``'s CSV) and refused where it is not (.xlsx, PNG).
- Standard output closed (``>&-``) is refused before any work; a write error on it (a full
  disk) is one line naming it, and a reader that closes the pipe (``| head``) ends the command
  quietly with status 141 (128 + SIGPIPE), as Unix tools do: never a success that did not
  happen.
- SIGTERM becomes :class:`Terminated` (a :class:`KeyboardInterrupt`), so that the temporary
  file of a write is removed as on Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from pathlib import Path

from ..errors import InputError

__all__ = ["INPUTS", "OUTPUTS", "Terminated", "check_files", "closed_pipe", "guarded_stdout",
           "input_files", "refuse_output_over_inputs", "sigterm_as_interrupt"]

#: The argparse destinations that hold input files or folders, and how the command line names
#: them (positional arguments by their metavar).
INPUTS = {"file": "FILE", "files": "FILE", "matrix": "--matrix", "runs": "--runs",
          "qrels": "--qrels", "spec": "SPEC", "plan": "--plan"}
#: The input destinations where ``-`` means standard input (a file read once, not a folder).
_STDIN_INPUTS = ("file", "files", "matrix", "qrels", "plan", "spec")
#: The output destinations: flag, and the commands whose output is text that may go to
#: standard output (``--out -``; a workbook and a PNG may not).
OUTPUTS = {"out": ("--out", {"evaluate"}), "plot": ("--plot", set())}
_NOT_TEXT = {"out": "an .xlsx workbook", "plot": "a PNG image"}
#: Exit status of a command whose reader closed the pipe, as a shell reports one killed by
#: SIGPIPE; and of one terminated by SIGTERM.
EXIT_CLOSED_PIPE, EXIT_TERMINATED = 128 + 13, 128 + 15


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that ``finally`` blocks (a temporary file's
    removal) run as on Ctrl-C."""


def _values(value) -> list:
    """The file names in an argparse value (None, a name or a list of them); other values (a
    design's declaration under the same name) are not files."""
    values = value if isinstance(value, (list, tuple)) else [value]
    return [v for v in values if isinstance(v, (str, os.PathLike))]


def _stdin_inputs(args) -> None:
    """``-`` as an input: standard input (``/dev/stdin``), once."""
    dashes = [dest for dest in _STDIN_INPUTS for v in _values(getattr(args, dest, None))
              if str(v) == "-"]
    if not dashes:
        return
    if len(dashes) > 1:
        raise InputError(f"- (standard input) is given {len(dashes)} times: it can be read "
                         "once; give files for the others")
    if not os.path.exists("/dev/stdin"):
        raise InputError("- (standard input) is not supported on this system: give a file")
    dest = dashes[0]
    value = getattr(args, dest)
    if isinstance(value, list):
        setattr(args, dest, ["/dev/stdin" if str(v) == "-" else v for v in value])
    else:
        setattr(args, dest, "/dev/stdin")


def input_files(args) -> list[tuple[str, Path]]:
    """(how to name it, file) for every input of ``args``: ``--qrels q.txt``; a folder stands
    for itself and for each file in it (``r1 (in --runs runs)``)."""
    out = []
    for dest, flag in INPUTS.items():
        for value in _values(getattr(args, dest, None)):
            path = Path(value)
            out.append((f"{flag} {path}", path))
            with contextlib.suppress(OSError):
                if path.is_dir():
                    out += [(f"{p} (in {flag} {path})", p) for p in path.iterdir()]
    return out


def refuse_output_over_inputs(flag: str, output, inputs) -> None:
    """Raise :class:`InputError` where the file ``output`` would overwrite one of ``inputs``
    (pairs from :func:`input_files`): the same file, through links too."""
    from ..atomic import same_file, write_target

    target, in_place = write_target(output)          # a folder or a block device: refused
    if in_place:
        return
    for name, path in inputs if target.is_file() else ():
        if same_file(target, path):
            linked = "" if str(path) == str(output) else " (the same file, through a link)"
            raise InputError(f"{flag} {output} is the input {name}{linked}: writing it would "
                             "destroy it; give another file name")
    for name, path in inputs:
        if name.startswith("--runs ") and same_file(target.parent, path):
            raise InputError(f"{flag} {output} is inside the input folder {name}: every file "
                             "there is read as a run, so the next command would take it for "
                             "one; write it to another folder")


def _stdout_over_inputs(inputs) -> None:
    """Standard output redirected to an input file (``> runs.csv``, ``>> qrels``)."""
    import stat

    try:
        out = os.fstat(1)
    except OSError:
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for name, path in inputs:
        with contextlib.suppress(OSError):
            st = os.stat(path)
            if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
                raise InputError(f"standard output is the input {name}: redirect it to "
                                 "another file (a shell's > has already emptied it)")


def _refuse_repeated_inputs(args) -> None:
    """The same file or folder given twice to a list input (``variance w.csv w.csv``,
    ``pool-depth --runs r ... --runs r``), by name or through a link, is refused: it would be
    counted twice (a row printed twice, a collection pooled twice, an interval narrowed)."""
    from ..atomic import same_file

    for dest, flag in INPUTS.items():
        values = getattr(args, dest, None)
        # a qrels shared by two --runs folders is theirs to share: --runs names the collection
        if dest == "qrels" or not isinstance(values, (list, tuple)):
            continue
        values = _values(values)
        for k, later in enumerate(values):
            earlier = next((v for v in values[:k] if same_file(v, later)), None)
            if earlier is None:
                continue
            how = "" if str(earlier) == str(later) else \
                f" ({earlier} and {later} are the same, through a link)"
            raise InputError(f"{flag} {earlier} is given twice{how}: give each once")


def check_files(args) -> None:
    """Check the files and streams of a parsed command line before any work (see the module
    notes); ``-`` inputs become ``/dev/stdin``, ``--out -`` standard output."""
    if sys.stdout is None:
        raise InputError("standard output is closed: nothing could be printed; redirect it "
                         "(> FILE, or > /dev/null to discard it)")
    _stdin_inputs(args)
    _refuse_repeated_inputs(args)
    inputs = input_files(args)
    for dest, (flag, text_commands) in OUTPUTS.items():
        value = getattr(args, dest, None)
        if value is None:
            continue
        if str(value) == "-":
            if getattr(args, "command", None) not in text_commands:
                raise InputError(f"{flag} -: {_NOT_TEXT[dest]} cannot go to standard output "
                                 "(text only): give a file name")
            setattr(args, dest, None)           # standard output
            continue
        refuse_output_over_inputs(flag, value, inputs)
        _refuse_missing_folder(flag, value)
        say_replaced(flag, value)
    _stdout_over_inputs(inputs)


def say_replaced(flag: str, output) -> None:
    """Where the file ``output`` exists, say (not ask: the output names the file to write)
    that the command replaced it, once it has succeeded (:data:`._common.WHEN_DONE`: a command
    that fails leaves the file as it was and says its error alone, where a review found the note
    before the error, two lines for one); not of one written in place (``/dev/stdout``
    redirected to a file, which a review found said as replaced)."""
    from ..atomic import write_target
    from ._common import WHEN_DONE

    if os.path.isfile(output) and not write_target(output)[1]:
        WHEN_DONE.append(f"topicsetsize: note: {flag} {output} existed: the command replaced it")


def _refuse_missing_folder(flag: str, output) -> None:
    """An output whose folder does not exist (``--out nodir/x.csv``, or a link to such a
    place) is refused before any work, rather than the folders being made silently (a typo in
    the folder would otherwise put the output where nobody looks)."""
    from ..atomic import write_target

    target, in_place = write_target(output)
    if in_place or target.parent.is_dir():
        return
    folder = next((p for p in reversed(target.parents) if not p.is_dir()), target.parent)
    if os.path.lexists(folder):         # a file in the way: the write says so, in one line
        return
    through = f" (through the link {output})" if os.path.islink(output) else ""
    raise InputError(f"{flag} {output}: the folder {folder}{through} does not exist: create it "
                     "first")


class _Stdout:
    """Standard output whose write errors name it (one line at the command line), a closed
    pipe aside (:class:`BrokenPipeError`, ended quietly by the caller)."""

    def __init__(self, stream):
        self._stream = stream

    def _guard(self, name, *arguments):
        try:
            return getattr(self._stream, name)(*arguments)
        except BrokenPipeError:
            raise
        except OSError as exc:
            if exc.filename is not None:
                raise
            raise type(exc)(exc.errno, f"cannot write: {exc.strerror or exc}",
                            "standard output") from None

    def write(self, text):
        return self._guard("write", text)

    def flush(self):
        return self._guard("flush")

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout():
    """``sys.stdout`` for the block: write errors name it; flushed at the end, so that an
    error of the last write (a full disk) is the command's, not the interpreter's at exit."""
    stream = sys.stdout
    if stream is None:
        yield
        return
    sys.stdout = _Stdout(stream)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = stream


@contextlib.contextmanager
def sigterm_as_interrupt():
    """SIGTERM raises :class:`Terminated` in the block (outside the main thread, or where
    signals cannot be set, nothing changes)."""
    def terminated(signum, frame):
        raise Terminated

    if threading.current_thread() is not threading.main_thread():   # signals are its alone
        yield
        return
    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except OSError:                                 # a platform that cannot set it
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def closed_pipe() -> int:
    """A reader that closed standard output's pipe: exit quietly with status 141 (128 +
    SIGPIPE). Python's recipe (the ``signal`` module's note on SIGPIPE): point stdout at
    devnull so that the interpreter's final flush does not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):   # a test's capture
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
    return EXIT_CLOSED_PIPE
