"""Which options of a matrix command go with which of its inputs (a matrix FILE, ``--example``,
``--runs``): declared once, and an option given with an input it does not apply to is refused in
one line instead of being silently ignored (``--transpose`` with ``--runs``, ``--sheet`` taken
for ``--measure``).

Only the standard library is used here.
"""

from __future__ import annotations

from ..errors import InputError

__all__ = ["INPUT_OPTIONS", "check_input_options", "reader_measure"]


#: The inputs of a matrix command and the options that go with each (one place: an option given
#: with an input it does not apply to is refused, :func:`check_input_options`). ``FILE`` is a
#: score matrix file (``--matrix FILE`` of ``workbook``); the reader's options are its own.
INPUT_OPTIONS = {
    "FILE": ("--measure", "--sheet", "--format", "--transpose", "--drop-incomplete-topics",
             "--topic-ids"),
    "--example": (),
    "--runs": ("--measure", "--qrels", "--duplicates"),
}
#: The ``args`` attribute of an option of :data:`INPUT_OPTIONS` whose name differs.
_DESTS = {"--format": "fmt"}
#: Options whose False is a choice (``--no-topic-ids``), not "not given": only None is unset.
_TRI_STATE = {"--topic-ids"}


def check_input_options(args, given: dict[str, bool], *, file: str = "FILE") -> None:
    """Refuse, in one line, an option of :data:`INPUT_OPTIONS` that was given (not None, not
    False) although none of the inputs given (``given``: input -> whether given) takes it; and
    ``--sheet`` with ``--measure`` (both name the sheet of an .xlsx file).

    >>> import argparse
    >>> args = argparse.Namespace(transpose=True, fmt=None, measure="AP", qrels="q")
    >>> check_input_options(args, {"FILE": False, "--runs": True})
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: --transpose goes with FILE, not with --runs: drop it
    """
    inputs = [name for name, on in given.items() if on]
    for option in dict.fromkeys(o for options in INPUT_OPTIONS.values() for o in options):
        unset = (None,) if option in _TRI_STATE else (None, False)
        if getattr(args, _DESTS.get(option, option[2:].replace("-", "_")), None) in unset:
            continue
        takes = [name for name, options in INPUT_OPTIONS.items() if option in options]
        if not any(name in takes for name in inputs):
            where = " or ".join(file if name == "FILE" else name for name in takes)
            shown = " and ".join(file if name == "FILE" else name for name in inputs)
            if option in _TRI_STATE and getattr(args, _DESTS.get(
                    option, option[2:].replace("-", "_")), None) is False:
                option = "--no-" + option[2:]           # as the user typed it
            raise InputError(f"{option} goes with {where}, "
                             f"{f'not with {shown}' if shown else 'which is not given'}: drop it")
    if getattr(args, "sheet", None) is not None and getattr(args, "measure", None) is not None:
        raise InputError("give --sheet or --measure, not both (each names the sheet of an .xlsx "
                         "file)")


def reader_measure(args):
    """The measure (or .xlsx sheet) a matrix file is read with: ``--sheet`` or ``--measure``."""
    return args.measure if getattr(args, "sheet", None) is None else args.sheet
