"""The bundled specs are found from a clone and are packaged into a wheel."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.bundled import DEFAULT_SPEC, bundled_spec, bundled_specs, templates_dir

ROOT = Path(__file__).resolve().parents[2]


def test_bundled_specs_are_found():
    assert templates_dir() == ROOT / "workbook_templates"
    assert bundled_specs() == ["decide_example", "ntcir12_std_ab", "trec2010_web_example"]
    assert bundled_spec() == bundled_spec(DEFAULT_SPEC + ".toml") == \
        ROOT / "workbook_templates" / "ntcir12_std_ab.toml"
    with pytest.raises(FileNotFoundError,
                       match="the bundled specs are decide_example, ntcir12_std_ab, "):
        bundled_spec("nope")


def test_wheel_maps_workbook_templates_into_the_generator_package():
    """setup.py installs workbook_templates/*.toml as generator/templates/ (see bundled.py);
    tests/topicsetsize/test_package.py builds the wheel and finds every spec there."""
    import ast

    tomllib = pytest.importorskip("tomllib")                 # Python 3.11+
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setup["package-data"]["generator.templates"] == ["*.toml"]
    call = next(node for node in ast.walk(ast.parse((ROOT / "setup.py").read_text()))
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setup")
    kwargs = {k.arg: k.value for k in call.keywords}
    assert ast.literal_eval(kwargs["package_dir"]) == {"generator.templates": "workbook_templates"}
    assert "generator.templates" in ast.unparse(kwargs["packages"])
