"""Helpers shared by the sub-commands: list parsing, table output, progress bars."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys

from ..errors import InputError, decimal_comma, refuse_repeated
from ..numbertext import as_number, beyond_floats, refusal


def number(name: str, *, key: str | None = None):
    """An argparse ``type=`` for the registered parameter ``name`` (one-line errors).

    The value is checked against the registry (``PARAMS[key or name]``) by
    :func:`check_registered` once the command line is parsed, before any numerical library is
    loaded; the engine checks it again, in its own words where a design narrows the range.
    """
    def convert(text: str) -> float:
        value = as_number(text)
        if value is not None and not beyond_floats(text, value):
            return value
        from ..params import PARAMS

        raise argparse.ArgumentTypeError(refusal(name, text, PARAMS[key or name]))
    convert.__name__ = name
    convert.param = (name, key)
    return convert


def numbers(name: str, *, key: str | None = None, whole: bool = False, labels: bool = True):
    """An argparse ``type=`` for a comma-separated list of the registered parameter ``name``
    (:func:`int_list` with ``whole=True``, else :func:`float_list`); every value is checked as
    by :func:`number`. With ``labels`` (the values label the rows of the output: n, m, depths,
    minD), a repeated value is refused (:func:`check_registered`); without, the list holds one
    figure per row of another list (a variance per depth) and may repeat."""
    def convert(text: str) -> list:
        return _Typed(int_list(text) if whole else float_list(text), text)
    convert.__name__ = name
    convert.param = (name, key)
    convert.labels = labels
    return convert


class _Typed(list):
    """A list option's values, with the text typed (for the hint on a decimal comma)."""

    def __init__(self, values, text: str):
        super().__init__(values)
        self.text = text


def check_registered(parsers: list[argparse.ArgumentParser], args) -> list[str]:
    """Check every option of ``parsers`` (the command's) typed by :func:`number`,
    :func:`numbers` or :func:`checked` against the parameter registry: one rule for all of
    them, run before the command's handler imports numpy, scipy or pandas (a refusal costs
    Python's start-up only).

    A list option's values are labels of the rows it gives: each value once (a repeated one is
    most likely a typo, and the long CSV of a table cannot hold it).

    Returns the warnings for valid values outside their usual range, one line each
    (:meth:`topicsetsize.params.Range.unusual`: β = .8, a power of .2, where a power of .8 was
    most likely meant).
    """
    from ..params import PARAMS, check

    notes = []

    for action in (a for parser in parsers for a in parser._actions):
        name, key = getattr(action.type, "param", (None, None))
        value = getattr(args, action.dest, None)
        if name is None or value is None:
            continue
        values = value if isinstance(value, list) else [value]
        try:
            for item in values:
                check(name, item, key=key)
        except InputError as exc:      # "--min-d 0,02": the values 0 and 2, the first refused
            hint = decimal_comma(getattr(value, "text", ""), PARAMS[key or name])
            if not hint:
                raise
            raise InputError(f"{exc}{hint}") from None
        note = next(filter(None, (PARAMS[key or name].unusual(name, v) for v in values)), None)
        if note is not None:
            notes.append(note)
        if isinstance(value, _Typed) and action.type.labels:     # "--variance-t 1,5": 1.5?
            notes.extend(_read_as_list(action, value, PARAMS[key or name]))
        if isinstance(value, list) and getattr(action.type, "labels", False):
            refuse_repeated(name, values, ".15g")
    alpha, beta = getattr(args, "alpha", None), getattr(args, "beta", None)
    if isinstance(alpha, float) and isinstance(beta, float) and 1.0 - beta <= alpha \
            and not notes:          # an unusual α or β has been asked about already
        from ..designs.detectable import powerless  # (numpy: not for a refusal)

        notes.append(powerless(alpha, beta))
    return notes


def _read_as_list(action, value: _Typed, spec) -> list[str]:
    """A note where the text of a list option whose values label the rows of the output, all
    of them valid, may also be one number with a decimal comma: "--variance-t 1,5 is read as 2
    values, 1 and 5 (a decimal point, not a comma: 1.5?)"; none otherwise. A refused value
    gets the hint in its error, and a list of one figure per depth is checked against the
    number of depths (``--docs-per-topic 731,253`` is two depths' figures, not 731.253)."""
    hint = decimal_comma(value.text, spec)
    if not hint:
        return []
    flag = max(action.option_strings, key=len)
    items = [item.strip() for item in value.text.split(",")]
    listed = ", ".join(items[:-1]) + f" and {items[-1]}"
    return [f"{flag} {value.text} is read as {len(items)} values, {listed}{hint}"]


def path(text: str) -> str:
    """An argparse ``type=`` for a file or folder: an empty name is an error (``''`` would
    otherwise mean the current folder); argparse names the option."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is an empty path: give a file or folder name")
    return text


def _items(text: str) -> list[str]:
    """The comma-separated items of ``text``; an empty item is an error (``2,,10``)."""
    items = [part.strip() for part in text.split(",")]
    if any(not item for item in items):
        what = "is empty" if not text.strip() else "has an empty item"
        raise argparse.ArgumentTypeError(f"{text!r} {what}: give comma-separated values, "
                                         "e.g. 2,10,20")
    return items


def float_list(text: str) -> list[float]:
    """Parse ``"0.02,0.05,0.1"`` into floats, for argparse ``type=``."""
    values = [as_number(x) for x in _items(text)]
    if None in values:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of numbers")
    return values


#: An end of a range in a list of whole numbers (``2-10``): digits, an optional sign.
_WHOLE = re.compile(r"\s*[-+]?\d+\s*")

#: The most values a list option may expand to (a range such as ``2-1000000000`` would fill the
#: memory before any check of its values).
MAX_LIST_VALUES = 10_000


def int_list(text: str) -> list[int]:
    """Parse ``"2,10,20"`` (or ranges ``"2-10,20"``) into whole numbers (at most
    :data:`MAX_LIST_VALUES` of them).

    >>> int_list("2-4,10")
    [2, 3, 4, 10]
    >>> int_list("1-100000000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1-100000000' gives 100,000,000 values: allowed at most 10,000
    """
    out: list[int] = []
    for part in _items(text):
        if "-" in part[1:]:           # a range A-B of two whole numbers as int() reads them
            lo, hi = part.split("-", 1) if not part.startswith("-") else (part, part)
            ends = _WHOLE.fullmatch(lo) and _WHOLE.fullmatch(hi)
            values = range(int(lo), int(hi) + 1) if ends else None
        else:
            value = as_number(part)
            whole = value is not None and value.is_integer()
            values = range(int(value), int(value) + 1) if whole else None
        if values is None:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a comma-separated list of whole numbers")
        if len(out) + len(values) > MAX_LIST_VALUES:      # counted before it is built
            raise argparse.ArgumentTypeError(
                f"{text!r} gives {len(out) + len(values):,} values: allowed at most "
                f"{MAX_LIST_VALUES:,}")
        out.extend(values)
    if not out:
        raise argparse.ArgumentTypeError(f"{text!r} is an empty range")
    return out


def checked(name: str):
    """An argparse ``type=`` that checks the value against the registered parameter ``name``.

    The message names the parameter, the value and the allowed range; argparse adds the option.
    Whole-number parameters come back as ``int``.
    """
    convert_number = number(name)

    def convert(text: str):
        from ..params import PARAMS, check

        value = convert_number(text)
        try:
            check(name, value, allow_array=False)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return int(value) if PARAMS[name].integer else value
    convert.__name__ = name
    convert.param = (name, None)
    return convert


#: std-AB's A and B of ``--a`` and ``--b`` when not given (those of
#: :func:`topicsetsize.estimates.standardise.std_ab`, which building the parser must not import).
STD_AB_DEFAULTS = {"a": 0.15, "b": 0.5}


def add_std_ab_options(parser) -> None:
    """``--a`` and ``--b``: std-AB's A and B, whose ranges, said in the help, are the registry's
    (checked with the other registered options by :func:`check_registered`)."""
    from ..params import PARAMS

    for name, default in STD_AB_DEFAULTS.items():
        parser.add_argument(f"--{name}", type=number(name), default=default,
                            help=f"{PARAMS[name].doc}; allowed {PARAMS[name].describe(name)} "
                                 f"(default {default})")


def records_frame(records, columns: dict[str, str], *, index: str = "n"):
    """A DataFrame of result objects: column ``name`` holds each record's ``field``
    (``columns`` maps name to field), indexed by the column ``index``."""
    import pandas as pd

    return pd.DataFrame({name: [getattr(r, field) for r in records]
                         for name, field in columns.items()}).set_index(index)


def with_settings(frame, **settings):
    """``frame`` with the run's settings as constant columns after its own, those it holds
    already left out: a saved CSV of a simulation then says how it was made (its α, trials and
    seed), as the designs' CSVs carry their inputs.

    >>> import pandas as pd
    >>> with_settings(pd.DataFrame({"p_value": [0.01], "trials": [10]}), alpha=0.05, trials=10,
    ...               seed=1).columns.tolist()
    ['p_value', 'trials', 'alpha', 'seed']
    """
    return frame.assign(**{k: v for k, v in settings.items() if k not in frame.columns})


def print_frame(frame, *, csv: bool = False, index: bool = True,
                title: str | None = None, file=None) -> None:
    """Print a DataFrame as a readable table, or as CSV with ``csv=True``."""
    file = file or sys.stdout
    if csv:
        csv_safe(frame).to_csv(file, index=index, lineterminator="\n")
        return
    if title:
        print(title, file=file)
    print(frame.to_string(index=index, float_format=_float_format(frame)), file=file)


#: A text cell starting with one of these is run as a formula by a spreadsheet opening the CSV.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A text field made inert for a spreadsheet: one starting with ``=``, ``+``, ``-``, ``@``,
    tab or carriage return gets a leading single quote (OWASP, "CSV Injection"); numbers, and
    text that reads as a number (``-0.5``), are left alone.

    >>> [csv_cell(v) for v in ["=HYPERLINK(1)", "@SUM(1+1)", "+run", "-0.5", -0.5, "r"]]
    ["'=HYPERLINK(1)", "'@SUM(1+1)", "'+run", '-0.5', -0.5, 'r']
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_START) \
            or as_number(value) is not None:
        return value
    return "'" + value


def csv_safe(frame):
    """``frame`` with every text cell, label and axis name passed through :func:`csv_cell`."""
    import pandas as pd

    def labels(index):
        if isinstance(index, pd.MultiIndex):
            return index.set_levels([labels(level) for level in index.levels]).set_names(
                [csv_cell(n) for n in index.names])
        return index.map(csv_cell).rename(csv_cell(index.name))

    out = frame.copy()
    for k in range(out.shape[1]):
        if not pd.api.types.is_numeric_dtype(out.dtypes.iloc[k]):
            out.isetitem(k, out.iloc[:, k].map(csv_cell))
    out.index, out.columns = labels(out.index), labels(out.columns)
    return out


def _float_format(frame):
    """None (pandas' own layout), or, when a float is from 1e16 up, each float in its shortest
    exact form (``7.91951e+149``) instead of a 150-digit integer."""
    import numpy as np

    columns = [frame.iloc[:, k] for k in range(frame.shape[1])]    # by position: labels repeat
    values = [np.asarray(c, float) for c in columns if c.dtype.kind == "f"]
    values += [np.array([v for v in c if isinstance(v, float)], float)
               for c in columns if c.dtype == object]
    with np.errstate(invalid="ignore"):
        huge = any(np.any(np.abs(v[np.isfinite(v)]) >= 1e16) for v in values if v.size)
    return (lambda v: repr(float(v))) if huge else None


def fresh_seed(seed, *, csv: bool = False) -> int:
    """``seed`` (from ``--seed``), or a fresh one to print so that the run can be repeated: the
    table's title prints it, and with ``csv`` (no title) stderr says it."""
    from ..estimates.uncertainty import fresh_seed as fresh

    drawn = fresh(seed)
    if seed is None and csv:
        print(f"topicsetsize: seed={drawn} (drawn: --seed {drawn} repeats this run)",
              file=sys.stderr)
    return drawn


#: Warnings said on stderr once the command has succeeded (``reporting_warnings(...,
#: when_done=True)``), before what was read (``_inputs.said_what_was_read``).
WHEN_DONE: list[str] = []


@contextlib.contextmanager
def reporting_warnings(about: str | None = None, *, when_done: bool = False):
    """Collect the warnings of a block and print each on stderr as one line after it (not when
    it fails: then the error is the one line), a line said twice (one call a row, say) once;
    ``about`` (the input the block works on, where a command takes several) begins each line.
    ``when_done``: say them once the whole command has succeeded (:data:`WHEN_DONE`), for
    warnings about its result (a later error is then the one line). Yields the list they are
    collected in."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", RuntimeWarning)     # numerical, handled by the engine
        yield caught
    where = f"{about}: " if about else ""
    for text in dict.fromkeys(" ".join(str(w.message).splitlines()) for w in caught):
        line = f"topicsetsize: warning: {where}{text}"
        if when_done:
            WHEN_DONE.append(line)
        else:
            print(line, file=sys.stderr)


def progress(total: int, desc: str, *, disable: bool | None = None):
    """A tqdm progress bar on stderr (hidden when stderr is not a terminal, unless forced).

    The console bar (``tqdm.tqdm``), not ``tqdm.auto``: a command line has no notebook, and
    ``tqdm.auto`` imports asyncio and ssl (about 40 ms of every command that shows a bar).
    A hidden bar is :class:`_HiddenBar`, without importing tqdm (whose version lookup reads
    package metadata through the email parser: about 15 ms of a command's CPU)."""
    if disable is None:
        disable = not sys.stderr.isatty()
    if disable:
        return _HiddenBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="step", file=sys.stderr, disable=False,
                leave=False, dynamic_ncols=True)


class _HiddenBar:
    """A progress bar that shows nothing: what a disabled ``tqdm`` does for the calls the
    commands make (a context manager, ``update``, ``set_postfix_str``, ``close``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def update(self, n: float = 1) -> None:
        """Nothing to show."""

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""


def ceil_sig(x: float, digits: int = 6) -> float:
    """Round up to ``digits`` significant figures: a shown minimum difference is never below
    the true one.

    >>> ceil_sig(3.0305e-05), ceil_sig(0.1370471)
    (3.0305e-05, 0.137048)
    """
    import math

    if x <= 0 or not math.isfinite(x):
        return x
    quantum = 10.0 ** (math.floor(math.log10(x)) - digits + 1)
    return float(f"{math.ceil(x / quantum - 1e-9) * quantum:.{digits}g}")


def fixed(x: float, decimals: int = 4) -> str:
    """``x`` to ``decimals`` decimals, as the papers show scores and variances; a non-zero ``x``
    below 10^-(decimals − 1) to 3 significant digits (never 0), one of 10⁶ or more to 6.

    >>> fixed(0.06011), fixed(8.44e-07), fixed(0.0), fixed(2.4e-06, 6), fixed(float("nan"))
    ('0.0601', '8.44e-07', '0.0000', '2.4e-06', 'nan')
    >>> fixed(1e300)                # report --min-d 1e300 printed 300 digits
    '1e+300'
    """
    small = x != 0 and abs(x) < 10.0 ** (1 - decimals)      # False for NaN
    return f"{x:.3g}" if small else f"{x:.6g}" if abs(x) >= 1e6 else f"{x:.{decimals}f}"


def power_decimals(beta: float) -> int:
    """Decimals that show a power beside the target 1 − β: 6, or two more than β's first
    significant decimal where β is below 10⁻⁴ (at β = 1e-9, 0.999999 would show both the
    power at n − 1 and at n, one below the target 0.999999999 and one above it, alike).

    >>> power_decimals(0.2), power_decimals(1e-5), power_decimals(1e-9)
    (6, 7, 11)
    """
    import math

    return max(6, 1 - math.floor(math.log10(beta)) + 1) if 0 < beta < 1 else 6


def floor_power(p: float, decimals: int = 6) -> float:
    """Truncate a power to ``decimals`` decimals: 0.7999996 shows as 0.799999, never as 0.8.

    NaN (legacy power where Nagata's approximation is undefined) stays NaN.

    >>> floor_power(0.7999996), floor_power(float("nan")), floor_power(0.99999999987, 11)
    (0.799999, nan, 0.99999999987)
    """
    import math

    scale = 10.0 ** decimals
    return math.floor(p * scale) / scale if math.isfinite(p) else p


def around_n(n: int, value_of, name: str, *, missing=None) -> dict:
    """The ``name(n-1)`` and ``name(n)`` cells of a topic set size report.

    ``value_of(k)`` is the power (or width) at k topics; at n − 1 it shows that n is the
    smallest size. Where n − 1 < 2 there is no design to evaluate, and the cell is ``missing``.

    >>> around_n(3, lambda k: k / 10, "power")
    {'power(n-1)': 0.2, 'power(n)': 0.3}
    >>> around_n(2, lambda k: k / 10, "power")
    {'power(n-1)': None, 'power(n)': 0.2}
    """
    return {f"{name}(n-1)": value_of(n - 1) if n > 2 else missing, f"{name}(n)": value_of(n)}
