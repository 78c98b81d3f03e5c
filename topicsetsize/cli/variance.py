"""``topicsetsize variance FILE...``: one Table-1-style row per score matrix (Sakai, AIRS 2016).

Each FILE (a CSV/TSV, an .xlsx workbook, a long-format file, or a folder of ``trec_eval -q``
files, one per run) is one matrix. The row gives its runs and topics, the one-way residual
variance V_E of the raw and of the std-AB scores, the two-way (runs x topics) residual variance
V_E2 of both (the variance of the two-way ANOVA design, ``topicsetsize n anova2``), and Kendall's
τ [95% CI] between the run rankings by mean raw and by mean std-AB score. Runs that are copies
of others (equal scores on every topic) are kept, each as a run of its own; a warning names them.
``--example`` adds the bundled TREC 2010 Web AP matrix.
"""

from __future__ import annotations

from ..errors import InputError
from ._bootstrap import add_boot_options, boot_args, check_boot_workload, interval_note
from ._common import (
    add_std_ab_options,
    fixed,
    path,
    print_frame,
    reporting_warnings,
)
from ._inputs import add_input_options, load_matrices


def register(sub, designs) -> None:
    """Add the ``variance`` sub-command to the parser."""
    parser = sub.add_parser(
        "variance",
        help="V_E raw and std-AB, and Kendall's tau, of past score matrices (AIRS 2016 Table 1)",
        description=__doc__.split("\n\n")[1].replace("``", ""),
    )
    parser.add_argument("files", nargs="*", type=path, metavar="FILE",
                        help="a score matrix file, or a folder of trec_eval -q files")
    add_input_options(parser)
    add_std_ab_options(parser)
    add_boot_options(parser)
    parser.add_argument("--csv", action="store_true", help="print CSV, full precision")
    parser.add_argument("--example", action="store_true",
                        help="also summarise the bundled TREC 2010 Web AP matrix (48 x 88)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Read every matrix, summarise it and print the table."""
    matrices = load_matrices(args, args.files)
    import pandas as pd

    from ..estimates.summary import COPIES, summarise_many
    from ..matrices.copies import identical_runs

    rows = []
    for name, matrix in matrices.items():
        try:
            with reporting_warnings(about=name, when_done=True):     # the copies of runs
                identical_runs(matrix).warn(COPIES)
                rows.append(summarise_many({name: matrix}, a=args.a, b=args.b))
        except InputError as exc:       # e.g. a constant matrix: tau is undefined
            raise InputError(f"{name}: {exc}") from exc
    table = pd.concat(rows)
    n_boot, seed = boot_args(args)
    check_boot_workload(args, n_boot, matrices)
    limits = None if n_boot is None else _limits(matrices, args, n_boot, seed)
    if args.csv:
        print_frame(table if limits is None else table.join(limits.assign(n_boot=n_boot,
                                                                          seed=seed)), csv=True)
    else:
        zeros = _zeros(table, matrices)
        print_frame(_readable(table, zeros), title=(
            f"V_E = one-way residual variance (Sakai, AIRS 2016, Eq. 1) of the raw and the std-AB "
            f"(A={args.a:.15g}, B={args.b:.15g}) scores; size n with the one on minD's scale (a "
            "std-AB variance goes with a minD between std-AB scores, a raw one with a minD "
            "between raw scores); shown to 4 decimals: copy a variance from --csv, which has "
            "every digit (the n of a rounded one can be a topic off)\n"
            "tau = Kendall's tau between the run rankings by mean raw and mean std-AB score; "
            "[AIRS interval] = Sakai's \"95% CI\" (AIRS 2016, Table 1): tau +- z*sqrt(2(2m+5)/"
            "(9m(m-1))), the spread of tau between unrelated rankings, not a confidence "
            "interval for this tau\n"
            "V_E2 = two-way (runs x topics) residual variance, for the two-way ANOVA design "
            "(topicsetsize n anova2)"))
        for line in _zero_notes(zeros) + _paired_notes(table, zeros) + _scale_notes(matrices):
            print(line)
        if ((table["tau_ci_low"] < -1) | (table["tau_ci_high"] > 1)).any():
            print("note: an interval bound of tau beyond [-1, 1] is not an error: Sakai's "
                  "interval is kept unclipped as published")
        if limits is not None:
            print()
            print_frame(_readable_limits(limits, zeros), title=(
                "Each sigma2 with its 95% interval over the topics: an n sized on it has the "
                "interval n(low) to n(high)\n"
                + interval_note(0.95, n_boot, seed, "the topics of each matrix",
                                of="sigma2", **_fewest(matrices))))
    return 0


def _fewest(matrices) -> dict:
    """The fewest topics of the matrices, and (where there are several) the matrix that has them:
    the few-topics note names it."""
    name = min(matrices, key=lambda k: len(matrices[k]))
    return {"count": len(matrices[name]), "whose": name if len(matrices) > 1 else ""}


def _zeros(table, matrices) -> dict[str, dict[str, tuple]]:
    """Per matrix, the estimates (of :data:`_ESTIMATES`) that are 0 up to rounding
    (``negligible``: constant runs give about 1e-33 rather than 0), by column: their
    (estimator, scale)."""
    import numpy as np

    from ..estimates.variance import negligible

    zeros = {}
    for name, row in table.iterrows():
        raw = float(np.abs(matrices[name].to_numpy(float)).max())
        zeros[name] = {column: (estimator, scale) for column, estimator, scale in _ESTIMATES
                       if negligible(row[column], 1.0 if scale == "std-ab" else raw)}
    return zeros


def _zero_notes(zeros) -> list[str]:
    """A note for each matrix with a variance of 0 up to rounding (:func:`_zeros`): no n can be
    sized on it (every design needs σ² > 0), and what the 0 says about the scores
    (``ZERO_MEANS``)."""
    from ..estimates.variance import ZERO_MEANS

    return [f"note: {name}: {', '.join(_label(*kind) for kind in zero.values())} = 0 "
            f"({ZERO_MEANS[next(iter(zero.values()))[0]]}): no topic set size can be sized on "
            "a variance of 0" for name, zero in zeros.items() if zero]


def _paired_notes(table, zeros) -> list[str]:
    """Per matrix, σ̂t² of the paired t-test and CI both ways: 2·V_E, the legacy convention
    (covariance ignored), and 2·V_E2, which is exactly the mean, over every pair of its runs, of
    the variance of their per-topic differences (the two-way residuals e_ij of runs i and i′
    give d_j − d̄ = e_ij − e_i′j, and Σ over pairs of Σ_j (e_ij − e_i′j)² = m′·SS_e, since
    Σ_i e_ij = 0); none for a matrix whose variances are 0 (:func:`_zero_notes` speaks of it).
    """
    return [f"note: {name}: for the paired t-test and CI, sigma_t^2 = 2 x V_E = "
            f"{fixed(2 * row['var_raw'])} (std-AB {fixed(2 * row['var_std_ab'])}) leaves out "
            f"that runs score alike on the same topics; 2 x V_E2 = {fixed(2 * row['var2_raw'])} "
            f"(std-AB {fixed(2 * row['var2_std_ab'])}) is the mean, over every pair of its runs, "
            "of the variance of their per-topic differences"
            for name, row in table.iterrows() if not zeros[name]]


def _scale_notes(matrices) -> list[str]:
    """A note for each matrix whose scores are not all within [0, 1]: its raw variances are in
    the scores' units, and so must be a minD sized on them (the designs' ScaleWarning,
    topicsetsize.designs.scales, checks the pair where it is given)."""
    notes = []
    for name, matrix in matrices.items():
        values = matrix.to_numpy(float)
        low, high = float(values.min()), float(values.max())
        if low < 0 or high > 1:
            notes.append(f"note: {name}: the scores run from {low:.6g} to {high:.6g}, not within "
                         "[0, 1]: V_E raw and V_E2 raw are in their units, and so must be a minD "
                         "sized on them (the std-AB scores are in [0, 1]; AIRS 2016 sized the "
                         "M-measure, not bounded by 1, on std-AB only)")
    return notes


#: The four estimates whose intervals are shown: (column of the summary, estimator, scale).
_ESTIMATES = (("var_raw", "one-way", "raw"), ("var_std_ab", "one-way", "std-ab"),
              ("var2_raw", "two-way", "raw"), ("var2_std_ab", "two-way", "std-ab"))


def _limits(matrices, args, n_boot, seed):
    """Per matrix, the low and high end of each estimate's interval
    (:func:`topicsetsize.estimates.variance_interval.variance_interval`, one seed)."""
    import pandas as pd

    from ..estimates.variance_interval import variance_interval

    rows = {}
    for name, matrix in matrices.items():
        row = {}
        for column, estimator, scale in _ESTIMATES:
            ci = variance_interval(matrix, estimator=estimator, scale=scale, a=args.a, b=args.b,
                                   n_boot=n_boot, seed=seed)
            row[f"{column}_low"], row[f"{column}_high"] = ci.low, ci.high
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def _label(estimator: str, scale: str) -> str:
    """An estimate's column heading: ``V_E raw``, ``V_E2 std-AB``."""
    return f"V_E{'2' * (estimator == 'two-way')} {'std-AB' if scale == 'std-ab' else 'raw'}"


def _variance_text(x: float, zero: bool = False) -> str:
    """A variance as the paper shows it, to 4 decimals; one below 0.001 (scores on a small
    scale) to 3 significant digits instead (:func:`~._common.fixed`), so that it shows as 0.0000
    only where it is 0 up to rounding (``zero``, :func:`_zeros`).

    >>> _variance_text(0.06011), _variance_text(8.44e-07), _variance_text(4.8e-34, zero=True)
    ('0.0601', '8.44e-07', '0.0000')
    """
    return fixed(0.0 if zero else x)


def _readable_limits(limits, zeros):
    import pandas as pd

    return pd.DataFrame({_label(estimator, scale): [
        f"[{_variance_text(lo, zero)}, {_variance_text(hi, zero)}]"
        for lo, hi, zero in zip(limits[f"{column}_low"], limits[f"{column}_high"],
                                (column in zeros[name] for name in limits.index))]
        for column, estimator, scale in _ESTIMATES}, index=limits.index)


def _readable(table, zeros):
    """The paper's layout: V_E to 4 decimals (:func:`_variance_text`; 0.0000 where it is 0 up
    to rounding, ``zeros`` of :func:`_zeros`), tau and its CI to 3."""
    import pandas as pd

    return pd.DataFrame({
        "runs": table["runs"],
        "topics": table["topics"],
        **{_label(estimator, scale): [
            _variance_text(x, column in zeros[name])
            for name, x in table[column].items()] for column, estimator, scale in _ESTIMATES},
        "tau [AIRS interval]": [f"{t:.3f} [{lo:.3f}, {hi:.3f}]" if t == t else "undefined"  # tied
                         for t, lo, hi in                                    # means: NaN
                         table[["tau", "tau_ci_low", "tau_ci_high"]].itertuples(index=False)],
    }, index=table.index.rename(None))
