"""Generate standalone .xlsx workbooks for topic set size design.

A workbook has live calculators (ANOVA, paired t-test, CI) written as spreadsheet formulas,
the topic set size tables of the measures a spec names, charts, a Variance sheet for score
matrices and an About sheet. Nothing at the recipient's end needs Python or an add-in.

>>> from topicsetsize.generator import bundled_spec, load_spec
>>> spec = load_spec(bundled_spec())
>>> spec.alpha, spec.beta, spec.m, len(spec.measures)
(0.05, 0.2, (2, 10, 20, 30, 50), 12)
"""

from __future__ import annotations

from .build import build_workbook, count_steps, write_workbook
from .content.bundled import DEFAULT_SPEC, bundled_spec, templates_dir
from .content.spec import MatrixSpec, Measure, Spec
from .content.spec_reader import load_spec, spec_from_dict, with_matrices

__all__ = ["build_workbook", "write_workbook", "count_steps", "load_spec", "spec_from_dict",
           "with_matrices", "Spec", "Measure", "MatrixSpec", "bundled_spec", "templates_dir",
           "DEFAULT_SPEC"]
