"""What the exact test says of a legacy answer the command line prints: a warning on stderr
where the legacy approximation promises a power (at its n, its table's cells, its minimum
difference or at a given n) that the exact noncentral t or F does not give (as the workbook's
"Legacy vs exact" row says). The legacy rows' own powers are the approximation's."""

from __future__ import annotations

import warnings

from ..designs.registry import Design
from ._common import ceil_sig, floor_power, power_decimals

__all__ = ["n_shortfall", "table_shortfall", "min_shortfall", "power_shortfall"]


def n_shortfall(design: Design, values: dict, given: dict, rows: list[dict],
                n_label: str) -> None:
    """Warn where the exact power at the legacy n is below 1 − β: the legacy approximation
    promised a power the design does not have there (as the workbook's "Legacy vs exact"
    sentence says). The legacy row's power columns are the approximation's own."""
    n_legacy = rows[0][n_label]
    exact_power = design.function("power")(n_legacy, **given, method="exact")
    target = 1.0 - values["beta"]
    if exact_power >= target:
        return
    digits = power_decimals(values["beta"])
    n_exact = next((row[n_label] for row in rows if row["method"] == "exact"), None)
    if n_exact is None:
        n_exact = design.function("n")(**values, method="exact")
    warnings.warn(f"at the legacy n = {n_legacy:,} the exact power is only "
                  f"{floor_power(exact_power, digits):.{digits}g} < 1 - beta = "
                  f"{target:.{digits}g} (the legacy "
                  f"powers above are the approximation's own); the exact method needs "
                  f"n = {n_exact:,} (--method exact)", UserWarning, stacklevel=2)


def table_shortfall(args, frame, exact_printed: bool) -> None:
    """Warn where the exact power at a legacy table's n is below 1 − β (as
    :func:`n_shortfall` does for one n): how many cells, and the first of them."""
    import numpy as np

    from ..params import check

    design = args.spec
    rows, effect = design.table_rows, design.effect
    fixed = {k: check(k, getattr(args, k), allow_array=False)
             for k in design.inputs if k not in (rows, effect, "beta")}
    n = frame.to_numpy()
    power = design.function("power")(
        n, **{rows: np.asarray(frame.index, float)[:, None],
              effect: np.asarray(frame.columns, float)[None, :]}, **fixed, method="exact")
    target = 1.0 - args.beta
    short = np.asarray(power) < target
    if not short.any():
        return
    i, j = np.argwhere(short)[0]
    digits = power_decimals(args.beta)
    warnings.warn(f"in {int(short.sum()):,} of {short.size:,} cells of the legacy table the "
                  f"exact power at its n is below 1 - beta = {target:.{digits}g} (e.g. {rows}="
                  f"{frame.index[i]:g}, {effect}={frame.columns[j]:g}: n = {n[i, j]:,} has "
                  f"{floor_power(float(power[i, j]), digits):.{digits}g}); "
                  + ("the exact table is printed with it" if exact_printed
                     else "--method exact gives the exact table"),
                  UserWarning, stacklevel=2)


def min_shortfall(design: Design, n: int, given: dict, rows: list[dict]) -> None:
    """Warn where the exact power at the legacy minimum difference (as printed) is below 1 − β:
    the legacy approximation promises to detect a difference the exact test detects less often
    (as :func:`n_shortfall` does for n)."""
    shown = rows[0][design.effect]
    if not shown > 0 and 1.0 - given["beta"] <= given["alpha"]:
        return              # any difference has the power, in both methods (said already)
    if not shown > 0:       # the approximation's own error gives the power at no difference
        warnings.warn(f"the legacy {design.effect} = 0 detects nothing: the legacy "
                      "approximation reaches 1 - beta with no difference at all (its error at "
                      f"this alpha); the exact method's {design.effect} is "
                      f"{_exact_min(design, n, given, rows):.6g} (--method exact)", UserWarning,
                      stacklevel=2)
        return
    power_args = {k: v for k, v in given.items() if k != "beta"}
    exact_power = design.function("power")(n, **{design.effect: shown}, **power_args,
                                           method="exact")
    target = 1.0 - given["beta"]
    if exact_power >= target:
        return
    digits = power_decimals(given["beta"])
    warnings.warn(f"at the legacy {design.effect} = {shown:.6g} the exact power is only "
                  f"{floor_power(exact_power, digits):.{digits}g} < 1 - beta = "
                  f"{target:.{digits}g}; the exact method's {design.effect} is "
                  f"{_exact_min(design, n, given, rows):.6g} (--method exact)", UserWarning,
                  stacklevel=2)


def _exact_min(design: Design, n: int, given: dict, rows: list[dict]) -> float:
    """The exact method's minimum difference as printed: its row's, or computed where only the
    legacy row was asked for."""
    exact = next((row[design.effect] for row in rows if row["method"] == "exact"), None)
    return exact if exact is not None else ceil_sig(
        design.function("min_effect")(n, **given, method="exact"))


def power_shortfall(legacy: float, exact: float, decimals: int) -> None:
    """Warn where the legacy power at a given n (as printed, cut to ``decimals``) is above the
    exact one: the approximation promises more than the exact test has (``power``)."""
    shown = floor_power(exact, decimals)
    if legacy > shown:      # NaN (undefined) compares False: said in the table already
        warnings.warn(f"the legacy power {legacy:.{decimals}g} is the approximation's own: the "
                      f"exact test has {shown:.{decimals}g} (--method exact)", UserWarning,
                      stacklevel=2)
