"""The bundled specs are found from a clone and are packaged into a wheel."""

from __future__ import annotations

from pathlib import Path

import pytest
from topicsetsize.generator.content.bundled import (
    DEFAULT_SPEC,
    bundled_spec,
    bundled_specs,
    templates_dir,
)

ROOT = Path(__file__).resolve().parents[3]


def test_bundled_specs_are_found():
    assert templates_dir() == ROOT / "workbook_templates"
    assert bundled_specs() == ["decide_example", "ntcir12_std_ab", "trec2010_web_example"]
    assert bundled_spec() == bundled_spec(DEFAULT_SPEC + ".toml") == \
        ROOT / "workbook_templates" / "ntcir12_std_ab.toml"
    with pytest.raises(FileNotFoundError,
                       match="the bundled specs are decide_example, ntcir12_std_ab, "):
        bundled_spec("nope")


def test_the_wheel_installs_everything_under_the_projects_name():
    """setup.py installs generator/ and xladdin/ as topicsetsize.generator and
    topicsetsize.xladdin, workbook_templates/*.toml as topicsetsize/generator/templates/ (see
    bundled.py) and the old ``xladdin.udfs`` path as a shim; tests/topicsetsize/test_package.py
    builds the wheel and finds every file there."""
    import ast

    tomllib = pytest.importorskip("tomllib")                 # Python 3.11+
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setup["package-data"]["topicsetsize.generator.templates"] == ["*.toml"]
    tree = ast.parse((ROOT / "setup.py").read_text())
    assigned = {node.targets[0].id: node.value for node in ast.walk(tree)
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
    assert ast.literal_eval(assigned["BESIDE"]) == ("generator", "xladdin")
    assert ast.literal_eval(assigned["package_dir"]) == {
        "topicsetsize.generator.templates": "workbook_templates", "xladdin": "compat/xladdin"}
