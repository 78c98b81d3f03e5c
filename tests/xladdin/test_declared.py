"""The Excel functions follow the design registry: the first Excel function a design declares
sizes n, takes the design's inputs in the declared order (Excel names for the parameters) and a
``method`` exactly where the design has a choice of methods, and answers what the engine does;
every argument has its doc from the parameter registry."""

from __future__ import annotations

import inspect

import pytest
from topicsetsize.xladdin import udfs
from topicsetsize.xladdin._register import ARG_DOCS

from topicsetsize.designs.registry import DESIGNS

#: The Excel spelling of each parameter (the legacy sheets' names).
EXCEL_NAME = {"alpha": "alpha", "beta": "beta", "min_d": "minD", "min_dt": "minDt",
              "delta": "delta", "variance": "var", "variance_t": "var_t", "m": "m"}

#: One cell per input, inside every parameter's range.
CELL = {"alpha": 0.05, "beta": 0.2, "min_d": 0.1, "min_dt": 0.1, "delta": 0.1,
        "variance": 0.05, "variance_t": 0.1, "m": 5}

DECLARED = [k for k, d in DESIGNS.items() if d.excel]


@pytest.mark.parametrize("key", DECLARED)
def test_the_n_function_takes_the_declared_inputs(key):
    design = DESIGNS[key]
    function = getattr(udfs, design.excel[0])
    names = list(inspect.signature(function).parameters)
    expected = [EXCEL_NAME[p] for p in design.inputs]
    assert names == expected + (["method"] if len(design.methods) > 1 else [])
    assert all(name in ARG_DOCS for name in names)
    value = function(*(CELL[p] for p in design.inputs))
    assert value == design.function("n")(**{p: CELL[p] for p in design.inputs})


@pytest.mark.parametrize("key", DECLARED)
def test_every_declared_function_has_documented_arguments(key):
    for name in DESIGNS[key].excel:
        parameters = inspect.signature(getattr(udfs, name)).parameters
        assert all(p in ARG_DOCS for p in parameters), name
