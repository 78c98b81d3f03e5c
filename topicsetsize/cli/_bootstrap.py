"""The command line's bootstrap options: ``--boot`` and ``--seed`` of the intervals on n over the
past topics, how many resamples may run, and the line that says how an interval was made."""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..numbertext import as_number
from ._common import checked

#: The help of ``--boot``; its default is :data:`topicsetsize.params.N_BOOT` (a test keeps the
#: number here in step; params imports numpy, which building the parser must not).
BOOT_HELP = ("bootstrap resamples of the past topics for the 95%% interval on every n from the "
             "data (default 2000; 0: no interval)")


#: The seed of the bootstrap when ``--seed`` is not given: fixed, so that the same command gives
#: the same interval, and ``report`` the numbers of the workbook's Report sheet (which uses it
#: too). Simulations (check-power, hsd, reliability) still draw a fresh seed, printed.
BOOT_SEED = 0


def whole_number(flag: str):
    """An argparse ``type=`` for a whole number written as ``--trials`` takes it (``2000``,
    ``1e6``); the error names ``flag``; the range is checked after parsing."""
    def convert(text: str) -> int:
        value = as_number(text)
        if value is None or not value.is_integer():
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        return int(value)
    convert.__name__ = flag
    return convert


def add_boot_options(parser, *, seed: bool = True) -> None:
    """``--boot N`` and ``--seed S``: the bootstrap interval on n over the past topics
    (:func:`topicsetsize.estimates.uncertainty.n_interval`); read back with :func:`boot_args`."""
    parser.add_argument("--boot", dest="n_boot", type=whole_number("--boot"), default=None,
                        metavar="N", help=BOOT_HELP)
    parser.add_argument("--force", action="store_true",
                        help="run a bootstrap estimated to take over 10 minutes or more memory "
                             "than is free")
    if seed:
        parser.add_argument("--seed", type=checked("seed"), default=BOOT_SEED,
                            help=f"random seed of the resamples (default {BOOT_SEED})")


def boot_args(args) -> tuple[int | None, int]:
    """``(n_boot, seed)`` of :func:`add_boot_options`: n_boot None for ``--boot 0``, the
    registry's default when not given; the seed given, or :data:`BOOT_SEED`. A ``--boot``
    out of range is one line naming ``--boot``."""
    from ..params import N_BOOT, PARAMS

    seed = BOOT_SEED if args.seed is None else args.seed
    if args.n_boot == 0:
        return None, seed
    if args.n_boot is None:
        return N_BOOT, seed
    allowed = PARAMS["n_boot"]
    if not allowed.low <= args.n_boot <= allowed.high:
        raise InputError(f"--boot {args.n_boot} is out of range: allowed {allowed.low:.15g} <= "
                         f"--boot <= {allowed.high:.15g} (a whole number), or 0 for no interval")
    return args.n_boot, seed


def check_boot_workload(args, n_boot, matrices) -> None:
    """Refuse (without ``--force``) or announce a bootstrap of ``n_boot`` resamples of the
    matrices (a dict of frames) that is long or large (:func:`.workload.check_bootstrap`)."""
    from .workload import check_bootstrap

    shapes = [matrix.shape for matrix in matrices.values()]
    check_bootstrap(n_boot, topics=sum(t for t, _ in shapes), runs=max(r for _, r in shapes),
                    force=args.force)


def interval_note(level: float, n_boot: int, seed: int, topics: str, *, of: str = "n",
                  count: int = 10**9, whose: str = "",
                  estimators=("one-way", "two-way")) -> str:
    """The line that says how an interval (on n, or on ``of``) was made, and how to repeat it;
    below it, from few past topics (``count``, of the matrix ``whose`` where there are several),
    the note that its upper end runs low, for the residual variances the table's intervals
    resample (``estimators``; :func:`~topicsetsize.estimates.interval_coverage.few_topics_note`)."""
    from ..estimates.interval_coverage import few_topics_note

    then = "sigma2 re-estimated, n recomputed" if of == "n" else f"{of} re-estimated"
    few = few_topics_note(count, estimators)
    return (f"[low, high] = {level:.0%} interval of {of} over {topics}: expanded percentile "
            f"bootstrap (topics resampled with replacement, {then}; docs/formulas.md), "
            f"{n_boot} resamples, seed={seed} (--seed {seed} repeats it)"
            + (f"\nnote: {whose + ': ' if whose else ''}{few}" if few else ""))
