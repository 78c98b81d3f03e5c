"""The calculators' inputs: names, labels, starting values and the ranges the workbook accepts.

The ranges start from the package registry (:data:`topicsetsize.params.PARAMS`). A few are
narrower in the workbook, where the formulas have been verified against the engine:

* α ∈ [1e-6, 0.5] (the registry's ``ALPHA_MIN_SHEET``, as the Excel functions) and
  β ∈ [1e-9, 0.5] (the registry's smallest β, ``BETA_MIN``): the legacy
  approximations wobble at small n, and the workbook scans n = 2..128 and bisects above; above
  n = 128 the legacy criterion "power ≥ 1 − β" rises monotonically for these α and β (the
  engine's own sweep and the tests agree). One half is the registry's usual bound too
  (``ERROR_USUAL``): above it, the command line warns that the value is most likely a
  confidence level or a power.
* m ≤ 1000 systems.

The same ranges drive the data validation of the input cells and the checks of a spec's
``[calculators]`` table, so a workbook never starts from a value its own validation rejects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from topicsetsize.errors import InputError
from topicsetsize.params import ALPHA_MIN_SHEET, BETA_MIN, ERROR_USUAL, PARAMS, Range, check

__all__ = ["Input", "SHEET_INPUTS", "REPORT_INPUTS", "alpha_input", "beta_input", "your_n_input",
           "WORKBOOK_RANGES", "allowed", "check_input",
           "reader_range"]

#: Where the workbook is narrower than the package registry.
WORKBOOK_RANGES: dict[str, Range] = {
    "alpha": Range(low=ALPHA_MIN_SHEET, high=ERROR_USUAL[1], low_open=False, high_open=False,
                   doc=PARAMS["alpha"].doc),
    "beta": Range(low=BETA_MIN, low_open=False, high=ERROR_USUAL[1], high_open=False,
                  doc=PARAMS["beta"].doc),
    "m": Range(low=2, high=1000, low_open=False, high_open=False, integer=True,
               doc=PARAMS["m"].doc),
}


def allowed(key: str) -> Range:
    """The range the workbook accepts for parameter ``key``.

    >>> allowed("alpha").describe("alpha")
    '1e-06 <= alpha <= 0.5'
    >>> allowed("variance").describe("variance")
    'variance > 0'
    """
    return WORKBOOK_RANGES.get(key, PARAMS[key])


def reader_range(key: str) -> str:
    """The workbook's range for ``key`` as a reader would write it (not as code).

    >>> reader_range("alpha"), reader_range("beta")
    ('from 0.000001 to 0.5', 'from 0.000000001 to 0.5')
    >>> reader_range("m"), reader_range("variance")
    ('a whole number from 2 to 1,000', 'more than 0')
    """
    rng = allowed(key)

    def number(x: float) -> str:
        return f"{int(x):,}" if float(x).is_integer() else f"{x:.12f}".rstrip("0")

    parts = []
    if rng.low != -np.inf:
        parts.append(f"{'more than' if rng.low_open else 'from'} {number(rng.low)}")
    if rng.high != np.inf:
        if rng.low_open or rng.high_open or not parts:
            parts.append(f"{'less than' if rng.high_open else 'at most'} {number(rng.high)}")
        else:
            parts[-1] += f" to {number(rng.high)}"
    text = ", ".join(parts) or "any number"
    return f"a whole number {text}" if rng.integer else text


def check_input(key: str, value):
    """Validate a calculator input: the registry's range, then the workbook's.

    Returns the value as a number; raises ``ValueError`` with one line naming the key, the
    value and the allowed range.

    >>> check_input("m", 10)
    10
    >>> check_input("beta", 0.8)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: beta=0.8 asks for a power of only 1 - beta = 0.2 (power 0.8 is
    beta=0.2: did you mean beta=0.2?): allowed 1e-09 <= beta <= 0.5
    >>> check_input("alpha", 1e-7)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: alpha=1e-07 is outside the workbook's range: allowed 1e-06 <= alpha
    <= 0.5
    """
    number = check(key, value, allow_array=False)
    rng = allowed(key)
    if not rng.contains(np.asarray(float(number))):     # β = .8: most likely a power, said so
        said = (PARAMS[key].unusual(key, float(number)) if key in PARAMS else None) or \
            f"{key}={number!r} is outside the workbook's range"
        raise InputError(f"{said}: allowed {rng.describe(key)}")
    return number


@dataclass(frozen=True)
class Input:
    """One input cell of a calculator.

    ``name`` is the workbook-level defined name, ``key`` the registry parameter, ``symbol``
    and ``label`` what the sheet shows, ``default`` the starting value.
    """

    name: str
    key: str
    symbol: str
    label: str
    default: float | None
    optional: bool = False     # blank is allowed and means "follow the value computed above"


def alpha_input(calc: str, meaning: str = "significance level (Type I error rate)") -> Input:
    return Input(f"{calc}_alpha", "alpha", "α", meaning, 0.05)


def beta_input(calc: str) -> Input:
    return Input(f"{calc}_beta", "beta", "β", "Type II error rate (power = 1 − β)",
                 0.20)


def your_n_input(calc: str, what: str, per: str = "n to check") -> Input:
    return Input(f"{calc}_your_n", "n", "your n", f"{per}: {what}", 100)


#: The inputs of the sheets that are not calculators (Decide, Budget); the calculators' inputs
#: are in their declarations (:mod:`.calculators`), and :data:`.calculators.INPUTS` has both.
SHEET_INPUTS: dict[str, tuple[Input, ...]] = {
    "decide": (
        alpha_input("decide"), beta_input("decide"),
        Input("decide_n", "n", "candidate n", "the number of topics you consider", 100),
        Input("decide_min_d", "min_d", "minD",
              "smallest best − worst difference to detect", 0.10),
        Input("decide_variance", "variance", "σ̂²",
              "within-system variance (a past matrix's V_E)", 0.0601),
    ),
    "budget": (
        Input("budget_documents", "budget", "budget",
              "documents you can afford to judge in all", 150000),
    ),
}

#: The live inputs of the Report sheet (a workbook with score matrices): n′ of the D-study
#: (registry entry ``n_dstudy``: a whole number from 1) and the target Eρ² or Φ.
REPORT_INPUTS: tuple[Input, ...] = (
    Input("report_n", "n_dstudy", "n′", "topics of the D-study: Eρ² and Φ at n′ topics", 100),
    Input("report_target", "target", "target", "Eρ² or Φ to reach: the n′ for each", 0.95),
)
