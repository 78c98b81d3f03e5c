"""The work and memory a long command is about to take, estimated from its sizes before it starts.

A command that may run for hours or fill the memory (``check-power --trials 1e8``, ``hsd`` on
thousands of runs) estimates both with a cheap formula of its sizes, then refuses in one line
(``--force`` runs it anyway) where the memory exceeds what the machine has free or the time
exceeds :data:`LONG_RUN_SECONDS`, and warns on stderr where it will take a while. The figures
are estimates, said as such ("about"): the rates were measured on a small machine (2 cores),
so a faster one finishes sooner.

Only the standard library is used here.
"""

from __future__ import annotations

import os
import sys

from ..errors import InputError

#: Estimated seconds beyond which a command is refused without --force (ten minutes).
LONG_RUN_SECONDS = 600.0
#: Estimated seconds beyond which a command says on stderr how long it will take.
WARN_SECONDS = 30.0


def available_memory() -> int | None:
    """Bytes of memory free for a new process: ``MemAvailable`` of /proc/meminfo (Linux), else
    the physical memory (``os.sysconf``); None where neither is known.

    >>> available_memory() is None or available_memory() > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii", errors="replace") as info:
            for line in info:
                fields = line.split()
                if fields[:1] == ["MemAvailable:"] and fields[1:2] and fields[1].isdigit():
                    return int(fields[1]) * 1024
    except OSError:             # no /proc (not Linux), or unreadable
        pass
    names = getattr(os, "sysconf_names", {})
    if "SC_PAGE_SIZE" in names and "SC_PHYS_PAGES" in names:
        try:
            return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except OSError:
            return None
    return None


def _size(nbytes: float) -> str:
    """``2.7 GB``, ``350 MB``.

    >>> _size(2.7e9), _size(3.5e8), _size(1e5)
    ('2.7 GB', '350 MB', '0 MB')
    """
    return f"{nbytes / 1e9:,.1f} GB" if nbytes >= 1e9 else f"{nbytes / 1e6:,.0f} MB"


def _duration(seconds: float) -> str:
    """``2 hours``, ``7 minutes``, ``40 seconds`` (rounded: an estimate)."""
    for unit, scale in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= scale:
            count = round(seconds / scale)
            return f"{count:,} {unit}{'s' if count != 1 else ''}"
    return f"{round(seconds)} seconds"


def check_workload(what: str, *, seconds: float, memory: float = 0.0, force: bool = False,
                   fewer: str = "--trials") -> None:
    """Refuse (unless ``force``) or announce a command whose estimated time or memory is large.

    Parameters
    ----------
    what : str
        The work, as the message says it (``"5,000 runs: 12,497,500 pairs"``).
    seconds, memory : float
        The estimates, in seconds and bytes.
    force : bool
        ``--force``: run it anyway (the warning is still printed).
    fewer : str
        The option that makes the work smaller, for the message.

    Raises
    ------
    InputError
        One line: the estimate, what the machine has or the threshold, and ``--force``.

    Examples
    --------
    >>> check_workload("1e8 trials", seconds=7200.0)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: 1e8 trials would take about 2 hours (more than 10 minutes): give \
fewer --trials, or --force to run it anyway
    """
    free = available_memory()
    if not force and free is not None and memory > free:
        raise InputError(f"{what} would need about {_size(memory)} of memory, more than the "
                         f"{_size(free)} this machine has free: give fewer {fewer}, or --force "
                         "to run it anyway")
    if not force and seconds > LONG_RUN_SECONDS:
        about, limit = _duration(seconds), _duration(LONG_RUN_SECONDS)
        said = (f"a little over {limit}" if about == limit       # not "about 10 minutes (more
                else f"about {about} (more than {limit})")      # than 10 minutes)"
        raise InputError(f"{what} would take {said}: give fewer {fewer}, or --force to run it "
                         "anyway")
    if seconds > WARN_SECONDS or (free is not None and memory > free / 4):
        memory_note = f" and about {_size(memory)} of memory" if memory > 1e8 else ""
        print(f"topicsetsize: warning: {what}: this will take about {_duration(seconds)}"
              f"{memory_note}", file=sys.stderr)


#: Seconds per bootstrap resample of ``report`` (the heaviest: every minD row's n recomputed
#: in every resample), measured in-process on a 2-core machine with ``/usr/bin/time``:
#: ``report tests/data/trec2004robust_ap.csv --boot 50000`` minus ``--boot 2000`` is 4.9 s for
#: 48,000 resamples on 249 topics x 110 runs, and ``report --example`` (48 x 88) 4.7 s: about
#: 100 microseconds a resample, growing a little with the cells (the matrix products).
BOOT_SECONDS = 1e-4
#: Further seconds per resample and cell (topic x run): 249 x 110 cells add ~3e-9 s each above
#: the example's 48 x 88 (variance and pool-depth take less; the estimate is an upper one).
BOOT_SECONDS_PER_CELL = 1e-9
#: Bytes per resample, and per resample and topic: the resample counts (8 bytes a topic), the
#: resampled variances and each row's n; measured peak RSS of the runs above, 470 MB against
#: 154 MB (robust, 249 topics: 6.6 kB a resample) and 262 against 145 MB (example, 48 topics:
#: 2.4 kB), a line through both.
BOOT_BYTES, BOOT_BYTES_PER_TOPIC = 1400.0, 21.0


def check_bootstrap(n_boot: int | None, *, topics: int | None, runs: int | None,
                    repeats: int = 1, force: bool = False) -> None:
    """:func:`check_workload` for ``--boot N``: the bootstrap of ``topics x runs`` scores,
    ``repeats`` times (a pool depth each), estimated from the rates above. Where the sizes are
    not known yet (``pool-depth``, before its runs are read), the per-resample rates alone give
    a lower estimate.

    >>> check_bootstrap(10**6, topics=249, runs=110, repeats=20)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: --boot 1,000,000 on 249 topics x 110 runs x 20 depths would take \
about 42 minutes (more than 10 minutes): give fewer --boot, or --force to run it anyway
    """
    if not n_boot:
        return
    cells = (topics or 0) * (runs or 0)
    seconds = n_boot * repeats * (BOOT_SECONDS + BOOT_SECONDS_PER_CELL * cells)
    memory = n_boot * (BOOT_BYTES + BOOT_BYTES_PER_TOPIC * (topics or 0))
    where = f" on {topics:,} topics x {runs:,} runs" if topics else ""
    where += f" x {repeats} depths" if repeats > 1 else ""
    check_workload(f"--boot {n_boot:,}{where}",
                   seconds=seconds, memory=memory, force=force, fewer="--boot")
