"""The ``topicsetsize`` command line.

Each sub-command lives in its own module, which exposes ``register(subparsers, designs)``.
``designs`` maps the design groups ``"n"``, ``"table"``, ``"min-d"`` and ``"power"`` to their
sub-parsers, so that a module can add a design (``topicsetsize n DESIGN``) without editing
another module. This
module only assembles them and turns every user error into a one-line
message and exit status 2. User errors are :class:`topicsetsize.errors.InputError` (the
engine's validation) and :class:`OSError` about the user's own path (the OS names the file, or
the project raised it with a message naming it). Anything else, a ``ValueError`` included, is a
bug and keeps its traceback. The engine names its arguments as the API does (``method='exact'``);
here they are said as the flags of the command (``--method exact``). A closed pipe
(``topicsetsize ... | head``) ends quietly with exit status 141, as Unix tools killed by SIGPIPE
do; Ctrl-C ends with one line and exit status 130, SIGTERM with one line and 143 (the files and
streams: :mod:`topicsetsize.cli._files`).

Only the standard library is imported here: ``topicsetsize --version`` and ``--help`` never load
numpy, scipy or pandas.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import re
import sys
import warnings

from .. import __version__
from ..errors import InputError
from ..numbertext import NUMBER
from ._common import check_registered

#: The sub-command modules, in the order of ``--help``. :func:`build_parser` imports them, so
#: that a Ctrl-C while they load is main's (one line, exit status 130), not a traceback.
_MODULES = ("design", "power_at", "allpairs", "variance", "workbook", "reliability",
            "hsd", "guarantees", "recommend", "budget", "pool_depth",
            "evaluate", "report")

#: The design groups: ``topicsetsize n|table|min-d DESIGN ...``.
_DESIGN_GROUPS = {
    "n": "required number of topics for one design",
    "table": "a table of topic set sizes over a grid",
    "min-d": "what n topics guarantee: the minimum detectable difference",
    "power": "the power at n topics (a CI design: its expected width)",
}

#: Exit statuses: a user error, and an interrupt (128 + SIGINT, as shells report it).
EXIT_USER_ERROR, EXIT_INTERRUPTED = 2, 130


#: A command-line token that is a negative number, or a comma-separated list of numbers that
#: starts with one (``--min-d -1e-2,0.1``).
_NEGATIVE_NUMBER = re.compile(rf"^-{NUMBER}(?:,\s*[-+]?{NUMBER})*$", re.IGNORECASE)


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (no usage dump), exit status 2, and which
    takes an option only as spelled in full: argparse's prefix matching would read ``--n`` as
    ``--no-topic-ids`` or ``--m 10`` as ``--measure 10``, another option than the one meant,
    silently. Every sub-parser is of this class (argparse builds them with the class of their
    parent), so the rule holds for every command.

    A token that starts with ``-`` is taken as a value where it is a number in any spelling
    (``-1e-3``, ``-inf``, ``-nan``) or a list of numbers (``-1e-2,0.1``), not only ``-0.1``:
    argparse read ``--min-d -1e-3`` as an option missing its value ("expected one argument"),
    where the value's own check names it and its range. No option looks like a number.

    >>> bool(_NEGATIVE_NUMBER.match("-1e-3")), bool(_NEGATIVE_NUMBER.match("-inf,0.1"))
    (True, True)
    >>> bool(_NEGATIVE_NUMBER.match("-m")), bool(_NEGATIVE_NUMBER.match("--min-d"))
    (False, False)
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})
        self._negative_number_matcher = _NEGATIVE_NUMBER     # argparse's, wider (see above)

    def parse_known_args(self, args=None, namespace=None):
        self._tokens = list(sys.argv[1:] if args is None else args)    # for error()'s hint
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:          # the options of the command that ran, for the hint on a typo
            options = [o for p in (self, *_chosen(self, parsed)) for o in p._option_string_actions]
            self.error(f"unrecognized arguments: {' '.join(extras)}"
                       f"{near_options(extras, options)}")
        return parsed

    def error(self, message):  # noqa: D401 - argparse API
        if message.startswith("the following arguments are required"):
            message += near_options(getattr(self, "_tokens", []), self._option_string_actions)
        self.exit(2, f"{self.prog}: error: {message}\n")


def near_options(tokens, options) -> str:
    """A hint on the tokens of ``tokens`` that look like options but are none of ``options``
    (a command's option strings): the options spelled so but for case or ``_`` for ``-``,
    else those that start so (at most 3, and only after 3 letters or more: ``--m`` is no hint of
    ``--measure``), else the closest in spelling; "" where none is near.

    >>> options = ["--variance", "--variance-t", "--min-d", "--alpha", "--help"]
    >>> near_options(["--var", "0.05", "--min_d", "0.1", "-5", "--alpah=.05"], options)
    ' (--var: did you mean --variance or --variance-t?; --min_d: did you mean --min-d?; \
--alpah: did you mean --alpha?)'
    >>> near_options(["--zzz", "-", "--m", "10"], options)
    ''
    """
    import difflib  # here: only an error needs it, not every start-up

    longs = sorted(o for o in options if o.startswith("--"))
    notes = []
    for token in dict.fromkeys(t.split("=", 1)[0] for t in tokens):
        if not token.startswith("-") or token in ("-", "--") or token in options \
                or _NEGATIVE_NUMBER.match(token):
            continue
        spelled = "--" + token.lstrip("-").replace("_", "-").lower()
        starts = [o for o in longs if o.startswith(spelled)] if len(spelled) >= 5 else []
        near = ([spelled] if spelled in longs else starts if 0 < len(starts) <= 3
                else difflib.get_close_matches(spelled, longs, n=2, cutoff=0.75))
        if near:
            notes.append(f"{token}: did you mean {' or '.join(near)}?")
    return f" ({'; '.join(notes)})" if notes else ""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="topicsetsize",
        description="Topic set size design: how many topics a test collection needs.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    designs = {name: sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
               .add_subparsers(dest="design", metavar="DESIGN", required=True)
               for name, text in _DESIGN_GROUPS.items()}
    for name in _MODULES:
        importlib.import_module(f".{name}", __name__).register(sub, designs)
    return parser


def main(argv: list[str] | None = None, *, process_ends: bool = False) -> int:
    """Run the command of ``argv`` (default: the command line); return its exit code.

    ``process_ends``: the process ends once the command returns (:func:`console`), so a
    command may leave Python's cyclic garbage collector paused (``args.process_ends``).
    """
    from . import _files
    from ._inputs import said_what_was_read

    said_what_was_read(False)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        args.process_ends = process_ends
        notes = check_registered(_chosen(parser, args), args)
        _files.check_files(args)        # outputs that are inputs, -, a closed stdout
        with warnings.catch_warnings(), _files.sigterm_as_interrupt(), _files.guarded_stdout():
            # scipy's numerical RuntimeWarnings are handled by the engine (NaN guards,
            # fallbacks); they must not break the one-line contract of stderr.
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.showwarning = functools.partial(_one_line_warning, shown=set())
            for note in notes:          # a valid value that most likely means another one
                warnings.warn(note, UserWarning, stacklevel=1)
            code = int(args.handler(args) or 0)
        said_what_was_read(code == 0)       # what each matrix gave: one line each, on stderr
        return code
    except (InputError, OSError) as exc:
        if isinstance(exc, BrokenPipeError) and exc.filename is None:
            return _files.closed_pipe()     # standard output's reader has gone
        if isinstance(exc, OSError) and not is_user_path_error(exc):
            raise
        flags = _flags(parser, args) if "args" in locals() else {}
        print(f"topicsetsize: error: {_one_line(exc, flags)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt as exc:
        if isinstance(exc, _files.Terminated):
            print("topicsetsize: terminated", file=sys.stderr)
            return _files.EXIT_TERMINATED
        print("topicsetsize: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _one_line_warning(message, category, filename, lineno, file=None, line=None, *,
                      shown: set) -> None:
    """Every warning of a command (the engine's ``PrecisionWarning``, a reader's) as one line
    on stderr, as the command line's errors are: no source line, no traceback. A
    warning is said once (``shown``: the lines said already): a command may reach the same
    note along more than one path."""
    text = " ".join(str(message).split())
    if text in shown:
        return
    shown.add(text)
    print(f"topicsetsize: warning: {text}", file=sys.stderr)


def console() -> None:
    """The ``topicsetsize`` command and ``python -m topicsetsize``: :func:`main`, then exit.

    The process ends here, so the cyclic garbage collector's pass over every object at
    interpreter exit (a workbook's openpyxl objects, some 70,000 of them in cycles: about
    0.1 s of the ``workbook`` command's CPU) is skipped with :func:`gc.freeze`. It only spares
    the collector a walk: files are closed by the commands themselves, and ``atexit`` handlers
    still run. For the same reason the ``workbook`` command leaves the collector paused after
    writing (``process_ends``: no scan of the workbook's objects, about 0.025 s). Tests call
    :func:`main`, which leaves the collector alone.
    """
    code = main(process_ends=True)
    gc.freeze()
    sys.exit(code)


def is_user_path_error(exc: OSError) -> bool:
    """Whether an OSError is about the user's input: the OS names the path (``open('x')``), or
    the project raised it with a message naming the path (no errno). An OSError of the OS on no
    path (a full disk on stdout, a socket) is not the user's input: it keeps its traceback."""
    return exc.filename is not None or exc.errno is None


def _chosen(parser: argparse.ArgumentParser, args) -> list[argparse.ArgumentParser]:
    """The parsers of the command that ran, outermost first (``n``, then ``n anova``)."""
    out = []
    for key in ("command", "design"):
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                   None)
        if sub is None or getattr(args, key, None) not in sub.choices:
            break
        parser = sub.choices[getattr(args, key)]
        out.append(parser)
    return out


def _flags(parser: argparse.ArgumentParser, args) -> dict[str, str]:
    """API argument name -> the flag of the command that ran (``min_d`` -> ``--min-d``)."""
    out: dict[str, str] = {}
    for chosen in _chosen(parser, args):
        for action in chosen._actions:
            longs = [o for o in action.option_strings if o.startswith("--")]
            if longs and action.dest != "help":
                out.setdefault(action.dest, longs[0])
                out.setdefault(longs[0][2:].replace("-", "_"), longs[0])
    return out


def _one_line(exc: Exception, flags: dict[str, str] | None = None) -> str:
    """The message of a user error on one line; an OSError names its path. With ``flags``
    (API name -> flag), the API's ``name=value`` is said as ``--flag value``."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}"
    else:
        text = str(exc)
    text = " ".join(text.splitlines())
    return _as_flags(text, flags) if flags else text


def _as_flags(text: str, flags: dict[str, str]) -> str:
    """``method='exact'`` -> ``--method exact``; ``transpose=True (--transpose)`` ->
    ``--transpose``; a list, ``pair=['a', 'b']``, as it is typed: ``--pair a,b``.

    >>> _as_flags("use method='exact'; or drop_incomplete_topics=True (--drop-incomplete-topics)",
    ...           {"method": "--method", "drop_incomplete_topics": "--drop-incomplete-topics"})
    'use --method exact; or --drop-incomplete-topics'
    >>> _as_flags("pair=['sys1', 'sys1'] must name two different runs", {"pair": "--pair"})
    '--pair sys1,sys1 must name two different runs'
    """
    def with_hint(match):                   # name=value (--flag ...): the hint says it
        return match.group(3) if match.group(1) in flags else match.group(0)

    def named(match):
        name, value = match.group(1), match.group(2)
        if name not in flags:
            return match.group(0)
        if value.startswith("["):
            value = _as_typed_list(value)
            if value is None:
                return match.group(0)
        value = value[1:-1] if value[:1] == value[-1:] == "'" and len(value) > 1 else value
        return flags[name] if value == "True" else f"{flags[name]} {value}"

    text = re.sub(r"(?<![\w.-])(\w+)=(\S*?)\s*\((--[\w-]+[^)]*)\)", with_hint, text)
    return re.sub(r"(?<![\w./-])(\w+)=('[^']*'|\[[^\]]*\]|[^\s,;:)]+)", named, text)


def _as_typed_list(value: str) -> str | None:
    """A list of texts or numbers as Python shows it (``['a', 'b']``), comma-separated as a list
    option takes it (``a,b``); None if it is not one.

    >>> _as_typed_list("['sys1', 'sys2']"), _as_typed_list("[10, 10]"), _as_typed_list("[x]")
    ('sys1,sys2', '10,10', None)
    """
    inner = _TYPED_LIST.fullmatch(value.strip())
    if inner is None:
        return None
    return ",".join(item.strip("'\"") for item in re.findall(_LIST_ITEM, inner.group(1) or ""))


#: An item of a list as Python shows it: a text in quotes (without escapes), or a number.
_LIST_ITEM = rf"'[^'\\]*'|\"[^\"\\]*\"|[-+]?{NUMBER}"
_TYPED_LIST = re.compile(rf"\[\s*((?:{_LIST_ITEM})(?:\s*,\s*(?:{_LIST_ITEM}))*)?\s*\]",
                         re.IGNORECASE)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
