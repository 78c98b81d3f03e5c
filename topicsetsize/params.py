"""Valid parameter ranges, declared once and checked in one place.

Every public function of the package validates its numeric arguments through :func:`check`, so
every error names the argument, the value given and the allowed range in one line, e.g.::

    topicsetsize.InputError: alpha=1.5 is out of range: allowed 0 < alpha < 1

The registry :data:`PARAMS` is what the command line, the Excel add-in and the generator read.

Examples
--------
>>> check("alpha", 0.05)
0.05
>>> check("m", 10.0)      # counts may arrive from Excel as floats
10
>>> check("alpha", 1.5)
Traceback (most recent call last):
...
topicsetsize.InputError: alpha=1.5 is out of range: allowed 0 < alpha < 1
>>> check("m", "ten")
Traceback (most recent call last):
...
topicsetsize.InputError: m='ten' is not a number: allowed 2 <= m <= 1000000000 (a whole number)
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import InputError, decimal_comma

if TYPE_CHECKING:       # numpy is loaded where an array is checked, not to check one number
    import numpy as np

__all__ = ["Range", "PARAMS", "ERROR_USUAL", "BETA_MIN", "ALPHA_MIN_SHEET", "METHODS", "check",
           "check_all", "check_each", "check_scalars", "check_method", "check_choice", "check_flag"]


@dataclass(frozen=True)
class Range:
    """An interval of valid values for one parameter.

    ``low``/``high`` are the bounds, ``low_open``/``high_open`` say whether the
    bound itself is excluded, and ``integer`` asks for a whole number. ``usual`` is the
    (closed) interval where a value is meant as documented; ``mistaken`` says, for a valid
    value outside it, what the value asks for and what was most likely meant (a format string
    of ``name``, ``value`` and ``complement`` = 1 − value): see :meth:`unusual`.
    """

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True
    integer: bool = False
    doc: str = ""
    usual: tuple[float, float] = (-math.inf, math.inf)
    mistaken: str = ""

    def unusual(self, name: str, value: float) -> str | None:
        """What a valid ``value`` outside :attr:`usual` asks for, in one line (else None).

        A swapped probability (β = .8 for a power of .8, α = .95 for a 95% confidence level)
        is valid, and answers another question: the command line says so (``check_registered``
        of ``cli._common``); the workbook refuses it and asks the question.

        >>> PARAMS["beta"].unusual("beta", 0.8)[:56]
        'beta=0.8 asks for a power of only 1 - beta = 0.2 (power '
        >>> PARAMS["beta"].unusual("beta", 0.2) is None
        True
        """
        low, high = self.usual
        if low <= value <= high or not self.mistaken:
            return None
        return self.mistaken.format(name=name, value=_fmt(value), percent=f"{100 * value:.10g}%",
                                    complement=_fmt(round(1.0 - value, 12)))

    def describe(self, name: str) -> str:
        """Human-readable form of the range, e.g. ``0 < alpha < 1``."""
        lo = None if self.low == -math.inf else _fmt(self.low)
        hi = None if self.high == math.inf else _fmt(self.high)
        lo_op = "<" if self.low_open else "<="
        hi_op = "<" if self.high_open else "<="
        if lo is not None and hi is not None:
            text = f"{lo} {lo_op} {name} {hi_op} {hi}"
        elif lo is not None:
            text = f"{name} {'>' if self.low_open else '>='} {lo}"
        elif hi is not None:
            text = f"{name} {hi_op} {hi}"
        else:
            text = f"{name} finite"
        return text + (" (a whole number)" if self.integer else "")

    def contains(self, values: np.ndarray) -> np.ndarray:
        """Boolean mask of the values that lie in the range."""
        import numpy as np

        # NaN fails every comparison (without a warning) and an open bound, infinite or not,
        # keeps ±inf out: only a closed infinite bound needs the finiteness test
        ok = (values > self.low) if self.low_open else (values >= self.low)
        ok &= (values < self.high) if self.high_open else (values <= self.high)
        if not (self.low_open or math.isfinite(self.low)) \
                or not (self.high_open or math.isfinite(self.high)):
            ok &= np.isfinite(values)
        if self.integer:
            ok &= values == np.round(values)
        return ok

    def holds(self, x: float) -> bool:
        """Whether the float ``x`` lies in the range: :meth:`contains` for one plain number."""
        return (math.isfinite(x) and (x > self.low if self.low_open else x >= self.low)
                and (x < self.high if self.high_open else x <= self.high)
                and (not self.integer or x == round(x)))


def _fmt(x: float) -> str:
    """A number as typed: ``2``, ``0.05``, ``1.5``; magnitudes from 1e16 up as ``1e+300``."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e16 else repr(x)


#: Largest number of topics the searches consider (well beyond any practical topic set: 1e9).
N_MAX = 10**9
#: Most documents judged per topic: N_MAX x DOCS_MAX = 1e15 < 2**53, so a cost is exact.
DOCS_MAX = 10**6
#: Largest assessment budget: the largest cost, N_MAX x DOCS_MAX = 1e15 documents (beyond it no
#: cost could exceed the budget, and the budget would print with float artifacts).
BUDGET_MAX = N_MAX * DOCS_MAX
#: The whole numbers of a TREC file (a qrels relevance level, a run's rank): a C int, as
#: trec_eval's readers and pytrec_eval (which ir_measures uses) hold them on every platform.
_C_INT = dict(low=-2**31, high=2**31 - 1, low_open=False, high_open=False, integer=True)

#: Default number of bootstrap resamples of the topics for an interval on n (Efron and
#: Tibshirani 1993, ch. 13, ask for 1,000 or more for a percentile interval; 2,000 resamples of a
#: TREC-sized matrix take a fraction of a second).
N_BOOT = 2000

#: Default number of random halves of the topics that correct the top-k minD candidates for
#: their selection (:func:`topicsetsize.estimates.differences.split_half_differences`, whose
#: docstring gives the measurements; ``realistic_min_d``, ``collection_report`` and ``report
#: --trials`` read it): at 1,000 halves TREC 2010 Web AP's top-10 median is 17% above its
#: long-run value (n 27% too small), at 64,000 1.0% (0.85 s of CPU on TREC 2004 Robust).
N_HALVES = 64000

_PROB, _POS = dict(low=0.0, high=1.0), dict(low=0.0)
#: The smallest β: the powers are certified to 3e-11 (``F_POWER_TOLERANCE``); below 1e-16, 1 − β
#: is 1.0 and the search answered too few topics (1,615, not 1,986, at β = 1e-20, one-way ANOVA).
BETA_MIN = 1e-9
#: α and β as meant: at most one half (as the workbook takes them); above, most likely the
#: complement of the one meant (a confidence level, a power), which asks another question.
ERROR_USUAL = (0.0, 0.5)
#: The Excel functions' and the workbook's smallest α (at 1e-30, n = 3, one exact minD took 24 s).
ALPHA_MIN_SHEET = 1e-6

#: The registry: every numeric argument of the public API and its valid range.
PARAMS: dict[str, Range] = {
    "alpha": Range(**_PROB, doc="significance level (probability of a Type I error)",
                   usual=ERROR_USUAL,
                   mistaken="{name}={value} is the probability of a Type I error, not a "
                            "confidence level: a confidence level c is alpha = 1 - c (did you "
                            "mean {name}={complement}?)"),
    "beta": Range(low=BETA_MIN, low_open=False, high=1.0, usual=ERROR_USUAL,
                  doc="probability of a Type II error; the power is 1 - beta",
                  mistaken="{name}={value} asks for a power of only 1 - beta = {complement} "
                           "(power 0.8 is beta=0.2: did you mean {name}={complement}?)"),
    "min_d": Range(**_POS, doc="minimum detectable range between the best and the worst system"),
    "min_dt": Range(**_POS, doc="minimum detectable difference between two systems"),
    "min_delta_t": Range(**_POS, doc="minimum detectable effect size minDt / sigma_t"),
    "delta": Range(**_POS, doc="largest acceptable expected width of the confidence interval"),
    "variance": Range(**_POS, doc="within-system variance estimate (V_E)"),
    "variance_t": Range(**_POS, doc="variance of the per-topic score differences"),
    "m": Range(low=2, high=10**9, low_open=False, high_open=False, integer=True,
               doc="number of systems to compare"),
    "n": Range(low=2, high=N_MAX, low_open=False, high_open=False, integer=True,
               doc="number of topics"),
    "n_dstudy": Range(low=1, high=N_MAX, low_open=False, high_open=False, integer=True,
                      doc="number of topics n' of a generalizability theory D-study (one topic "
                          "gives the one-topic coefficients)"),
    "a": Range(**_POS, doc="std-AB spread A: the standard deviation of the standardised scores "
                           "before they are clipped to [0, 1] (a large A sends most of them to 0 "
                           "or 1)"),
    "b": Range(**_PROB, doc="std-AB centre B: the mean of the standardised scores, inside the "
                            "[0, 1] they are clipped to"),
    # The Excel functions' α and β: at most one half, as in the workbook (see ERROR_USUAL)
    "alpha_excel": Range(low=ALPHA_MIN_SHEET, low_open=False, high=ERROR_USUAL[1],
                         high_open=False, doc="significance level of an Excel function"),
    "beta_excel": Range(low=BETA_MIN, low_open=False, high=ERROR_USUAL[1], high_open=False,
                        doc="probability of a Type II error of an Excel function"),
    "m_simulated": Range(low=2, high=1000, low_open=False, high_open=False, integer=True,
                         doc="number of systems of a simulated design (the simulation holds "
                             "trials x m normals per chunk)"),
    "trials": Range(low=1, low_open=False, high=10**8, high_open=False, integer=True, doc="number "
                    "of random trials"),
    "fraction": Range(low=0.0, high=1.0, high_open=False, doc="a fraction of the runs"),
    "half": Range(low=2, low_open=False, integer=True, doc="topics per half in a split-half "
                  "trial (at most half the topics)"),
    "depth": Range(low=1, low_open=False, high=10**9, high_open=False, integer=True,
                   doc="pool depth pd: every run's top pd documents per topic are judged"),
    "docs_per_topic": Range(**_POS, high=DOCS_MAX, high_open=False, doc="mean number of documents "
                            "judged per topic (the cost n x docs_per_topic stays exact)"),
    "budget": Range(**_POS, high=BUDGET_MAX, high_open=False, integer=True, doc="assessment "
                    "budget: the number of documents that can be judged (at most 1e9 x 1e6)"),
    "round_to": Range(low=1, high=N_MAX, low_open=False, high_open=False, integer=True,
                      doc="the recommended number of topics is rounded up to a multiple of this"),
    "decimals": Range(low=0, high=15, low_open=False, high_open=False, integer=True,
                      doc="decimal places shown (values are rounded up, never down)"),
    "seed": Range(low=0, high=2**32 - 1, low_open=False, high_open=False, integer=True,
                  doc="seed of the random number generator (reproducible runs)"),
    "n_boot": Range(low=100, high=10**6, low_open=False, high_open=False, integer=True,
                    doc="number of bootstrap resamples of the topics for the interval on n (at "
                        "least 100: a 95% percentile interval needs its tail order statistics)"),
    "values": Range(doc="numbers to round up for display (any finite real numbers)"),
    "target": Range(**_PROB, doc="reliability coefficient to reach (E rho^2 or Phi)"),
    "level": Range(**_PROB, doc="confidence level of an interval, e.g. 0.95", usual=(0.5, 1.0),
                   mistaken="{name}={value} asks for a {percent} confidence interval (a 95% "
                            "interval is level=0.95: did you mean {name}={complement}?)"),
    "relevance": Range(**_C_INT, doc="relevance level of a qrels line (graded; negative allowed)"),
    "rank": Range(**_C_INT, doc="rank of a run line (ignored for the order, as by trec_eval)"),
    "top_k": Range(low=2, high=10**9, low_open=False, high_open=False, integer=True,
                   doc="number of best runs whose differences are summarised"),
}

METHODS = ("legacy", "exact")


def check(name: str, value, *, allow_array: bool = True, key: str | None = None):
    """Validate ``value`` against ``PARAMS[name]`` and return it as a number.

    Parameters
    ----------
    name : str
        A key of :data:`PARAMS`.
    value : number or array-like
        What the caller passed. Numeric strings are not accepted: a value that
        is not a real number raises.
    allow_array : bool
        Whether an array-like is accepted (it is checked element by element).
    key : str, optional
        The registry entry to check against, where an argument has a narrower range in one
        place than elsewhere (e.g. ``m`` of a simulation, ``key="m_simulated"``); the error
        still names the argument ``name``.

    Returns
    -------
    float, int or numpy.ndarray
        A Python ``float`` (``int`` for whole-number parameters) for a scalar,
        a float ndarray for an array-like.

    Raises
    ------
    ValueError
        One line naming the argument, the (first offending) value and the
        allowed range.

    Examples
    --------
    >>> check("variance", [0.01, 0.05])
    array([0.01, 0.05])
    >>> check("variance", [0.01, 0.0])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: variance=0 is out of range: allowed variance > 0
    >>> check("m", 5000, key="m_simulated")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: m=5000 is out of range: allowed 2 <= m <= 1000 (a whole number)
    """
    spec = PARAMS[key or name]
    if _plain_real(value):     # one number: plain Python, no array (a scalar call's fast path)
        return _check_number(name, value, spec)
    arr = _as_float_array(name, value, spec, allow_array)
    ok = spec.contains(arr)
    if not ok.all():
        _refuse(name, float(arr[~ok].flat[0]), spec)
    if arr.ndim == 0:
        return int(arr) if spec.integer else float(arr)
    return arr


def _check_number(name: str, value, spec: Range):
    """:func:`check` of one plain real number (a float, or an int for a whole-number one)."""
    x = float(value)
    if spec.holds(x):
        return int(x) if spec.integer else x
    _refuse(name, x, spec)


def _refuse(name: str, bad: float, spec: Range):
    """Raise the one-line error of :func:`check` for the value ``bad`` (plain Python: a refusal
    at the command line costs no numerical library)."""
    finite = math.isfinite(bad)
    shown = _fmt(bad) if finite else str(bad)
    if spec.integer and finite and bad != round(bad) and (
            spec.holds(math.floor(bad)) or spec.holds(math.ceil(bad))):
        raise InputError(f"{name}={shown} is not a whole number: allowed {spec.describe(name)}")
    what = "out of range" if finite else "not a finite number"     # nan, inf: no range has them
    raise InputError(f"{name}={shown} is {what}: allowed {spec.describe(name)}")


def check_all(**arguments) -> list[np.ndarray]:
    """Validate several arguments with :func:`check` and broadcast them together.

    Returns float ndarrays of one common shape, in the order given. Arguments whose
    shapes do not broadcast raise one line that names them.

    >>> [a.shape for a in check_all(alpha=0.05, m=[2, 10])]
    [(2,), (2,)]
    >>> check_all(min_d=[0.1, 0.2], m=[2, 3, 4])
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: the arguments do not fit together: min_d has 2 values, m has 3 values
    (give one value or the same number of values)
    """
    import numpy as np

    return list(np.broadcast_arrays(*check_each(**arguments)))


def check_each(**arguments) -> list[np.ndarray]:
    """:func:`check_all` without the broadcasting: each argument keeps its own shape.

    Returns float ndarrays in the order given, whose shapes are checked to broadcast together
    (the same one-line error as :func:`check_all`). What depends on some of the arguments only
    can then be computed on their cells before it meets the others.

    >>> [a.shape for a in check_each(alpha=0.05, m=[2, 10])]
    [(), (2,)]
    """
    import numpy as np

    values = [np.asarray(check(name, value), float) for name, value in arguments.items()]
    try:
        np.broadcast_shapes(*(v.shape for v in values))
    except ValueError:
        shapes = ", ".join(f"{name} has {_count(v)}" for name, v in zip(arguments, values)
                           if v.ndim)
        raise InputError(f"the arguments do not fit together: {shapes} "
                         "(give one value or the same number of values)") from None
    return values


def check_scalars(**arguments) -> list | None:
    """:func:`check_all` for a call whose arguments are all single numbers, in plain Python.

    Returns the checked values as Python floats (ints for whole-number parameters) in the
    order given, or None if some argument is not a single real number (an array, a string,
    ...): the caller then takes its vectorised path. An argument out of range raises the
    one-line error of :func:`check`, the first in the order given, as :func:`check_all` does.

    >>> check_scalars(alpha=0.05, m=10.0)
    [0.05, 10]
    >>> check_scalars(alpha=0.05, m=[2, 10]) is None
    True
    >>> check_scalars(alpha=0.0, m=10)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: alpha=0 is out of range: allowed 0 < alpha < 1
    """
    if not all(_plain_real(value) for value in arguments.values()):
        return None
    return [_check_number(name, value, PARAMS[name]) for name, value in arguments.items()]


def _plain_real(value) -> bool:
    """A single real number that :func:`check` reads as ``float(value)`` (not a bool)."""
    if type(value) is float or type(value) is int:     # the usual case: no abstract-class check
        return type(value) is float or abs(value) < 2 ** 1023   # an int float() can take
    return isinstance(value, numbers.Real) and not _is_bool(value)


def _is_bool(value) -> bool:
    """A Python or numpy bool (numpy is looked at only if loaded: no value can be one before)."""
    numpy = sys.modules.get("numpy")
    return isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_))


def _count(values: np.ndarray) -> str:
    return f"{values.size} values" if values.ndim == 1 else f"shape {values.shape}"


def _as_float_array(name: str, value, spec: Range, allow_array: bool) -> np.ndarray:
    import numpy as np

    if isinstance(value, (str, bytes)) or _is_bool(value) or value is None:
        hint = decimal_comma(value, spec) if isinstance(value, str) else ""     # "0,05"
        raise InputError(f"{name}={value!r} is not a number{hint}: allowed {spec.describe(name)}")
    if _plain_real(value):
        return np.asarray(float(value))
    try:    # numbers only: no text, bool, complex or date (numpy would read many), none masked
        raw = np.asarray(value, dtype=object if isinstance(value, (list, tuple)) else None)
        if raw.dtype.kind not in "iufO" or any(isinstance(x, (str, bytes)) or _is_bool(x) for x in (
                raw.flat if raw.dtype.kind == "O" else ())) or np.ma.is_masked(value):
            raise ValueError
        arr = np.asarray(raw, dtype=float)
    except (TypeError, ValueError, OverflowError):      # 10**400: beyond the floats
        raise InputError(
            f"{name}={_short(value)} is not a number: allowed {spec.describe(name)}") from None
    if arr.ndim and not allow_array:
        raise InputError(f"{name}={_short(value)} must be a single number: allowed "
                         f"{spec.describe(name)}")
    if arr.size == 0:
        raise InputError(f"{name} is empty: allowed {spec.describe(name)}")
    return arr


def _short(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_method(method) -> str:
    """Validate the ``method`` argument.

    >>> check_method("exact")
    'exact'
    >>> check_method("fast")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: method='fast' is not one of 'legacy', 'exact'
    """
    return check_choice("method", method, METHODS)


def check_choice(name: str, value, choices) -> str:
    """Validate that ``value`` is one of ``choices`` (case-insensitive for strings)."""
    if isinstance(value, str) and value.lower() in choices:
        return value.lower()
    allowed = ", ".join(repr(c) for c in choices)
    raise InputError(f"{name}={value!r} is not one of {allowed}")


def check_flag(name: str, value) -> bool:
    """Validate a yes-or-no argument: True or False (a numpy bool too), returned as a Python bool.

    Anything else is refused rather than read by its truth value: ``"no"`` and ``"False"``
    are true.

    >>> check_flag("condensed", False)
    False
    >>> check_flag("condensed", "no")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: condensed='no' is not one of True, False
    """
    if _is_bool(value):
        return bool(value)
    raise InputError(f"{name}={_short(value)} is not one of True, False")
