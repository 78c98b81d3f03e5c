"""The two ANOVA designs a decision sizes (``budget``, ``pool-depth``, ``recommend``), declared
once: the one-way ANOVA at V_E, the papers' (Sakai, AIRS 2016; CIKM 2014), and the two-way ANOVA
with topics as blocks at V_E2 (:func:`topicsetsize.anova2_n`), the test for runs that share one
topic set; each one's default method, residual variance, and the check of a design and method.
"""

from __future__ import annotations

from ..errors import InputError

__all__ = ["DESIGN_METHODS", "ESTIMATORS", "AS_OPTION", "check_design", "variance_name"]

#: The designs, and each one's default method (the two-way ANOVA has no legacy approximation).
DESIGN_METHODS = {"anova": "legacy", "anova2": "exact"}
#: Each design's residual variance (:func:`topicsetsize.pooled_variance`'s estimator) and the
#: prefix of its columns in a study's table: V_E for the one-way, V_E2 for the two-way ANOVA.
ESTIMATORS = {"anova": ("one-way", "v_e"), "anova2": ("two-way", "v_e2")}


def check_design(design: str, method: str | None, *, said=None) -> tuple[str, str]:
    """``(design, method)`` checked, the method by default the design's own
    (:data:`DESIGN_METHODS`); ``said(key, value)`` names an
    argument in the message (by default as the API takes it, ``method='legacy'``; a command
    names its option or its plan file's key).

    >>> check_design("anova2", None)
    ('anova2', 'exact')
    >>> check_design("anova2", "legacy", said=lambda k, v: f"--{k} {v}")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: --method legacy is the legacy Excel tools' approximation \
of the one-way ANOVA: --design anova2 is sized exactly (--method exact)
    """
    from ..params import check_choice, check_method

    design = check_choice("design", design, tuple(DESIGN_METHODS))
    method = check_method(method or DESIGN_METHODS[design])
    if design == "anova2" and method == "legacy":
        said = said or (lambda k, v: f"{k}={v!r}")
        raise InputError(f"{said('method', 'legacy')} is the legacy Excel tools' approximation "
                         f"of the one-way ANOVA: {said('design', 'anova2')} is sized exactly "
                         f"({said('method', 'exact')})")
    return design, method


def variance_name(design: str) -> str:
    """The variance a design's n is sized from, as the commands name it.

    >>> variance_name("anova"), variance_name("anova2")
    ('V_E', 'V_E2')
    """
    return ESTIMATORS[design][1].upper()


#: How a command names an option in a message (:func:`check_design`'s ``said``).
AS_OPTION = "--{} {}".format
