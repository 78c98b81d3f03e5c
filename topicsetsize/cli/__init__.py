"""The ``topicsetsize`` command line.

Each sub-command lives in its own module, which exposes ``register(subparsers, designs)``.
``designs`` maps the design groups ``"n"``, ``"table"`` and ``"min-d"`` to their sub-parsers, so
that a module can add a design (``topicsetsize n DESIGN``) without editing another module. This
module only assembles them and turns every user error into a one-line
message and exit status 2. User errors are :class:`ValueError` (the engine's validation and
:class:`topicsetsize.errors.InputError`) and :class:`OSError` (a file that cannot be read or
written; the message names the user's path). Anything else is a bug and keeps its traceback.

Only the standard library is imported here: ``topicsetsize --version`` and ``--help`` never load
numpy, scipy or pandas.
"""

from __future__ import annotations

import argparse
import sys
import warnings

from .. import __version__
from . import (allpairs, budget, design, evaluate, guarantees, hsd, pool_depth, recommend,
               reliability, report, twoway, unpaired, variance, workbook)

_MODULES = (design, twoway, unpaired, allpairs, variance, workbook, reliability, hsd, guarantees,
            recommend, budget, pool_depth, evaluate, report)

#: The design groups: ``topicsetsize n|table|min-d DESIGN ...``.
_DESIGN_GROUPS = {
    "n": "required number of topics for one design",
    "table": "a table of topic set sizes over a grid",
    "min-d": "what n topics guarantee: the minimum detectable difference",
}

#: Exceptions that mean "the user's input is wrong": one line, exit status 2.
USER_ERRORS = (ValueError, OSError)


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (no usage dump), exit status 2."""

    def error(self, message):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


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
    for module in _MODULES:
        module.register(sub, designs)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings():
            # scipy's numerical RuntimeWarnings are handled by the engine (NaN guards,
            # fallbacks); they must not break the one-line contract of stderr.
            warnings.simplefilter("ignore", RuntimeWarning)
            return int(args.handler(args) or 0)
    except USER_ERRORS as exc:
        print(f"topicsetsize: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("topicsetsize: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: Exception) -> str:
    """The message of a user error on one line; an OSError names its path."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}"
    else:
        text = str(exc)
    return " ".join(text.splitlines())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
