"""The layout of docs/architecture.md holds: imports run only downwards between the floors of
topicsetsize/ and of the generator, at most 12 modules sit directly in topicsetsize/, no module
is over 450 lines, no sheet builder function over 60, no module imports another's private
names, and the generator's names are not the engine's."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "topicsetsize"

#: The floors of docs/architecture.md: a group may import only from lower floors (and itself).
#: ``""`` is ``topicsetsize/__init__.py``: the version and the lazy map of public names, with no
#: import of its own.
FLOORS = {
    "": 0, "errors": 0, "params": 1, "atomic": 1, "tomlfile": 1, "numbertext": 1,
    "numerics": 2, "matrices": 2, "plots": 2,
    "designs": 3,
    "estimates": 4, "examples": 4,
    "decide": 5, "checks": 5,
    "report": 6,
    "generator": 7, "xladdin": 7,
    "cli": 8, "__main__": 9,
}
#: The folders beside topicsetsize/ that install inside it (setup.py), as topicsetsize.<name>.
BESIDE = ("generator", "xladdin")


def _group(module: str) -> str:
    """``topicsetsize.designs.anova`` -> ``designs``; ``topicsetsize`` -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _module(path: Path) -> str:
    """The installed name of a file: ``generator/build.py`` -> ``topicsetsize.generator.build``."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return f"topicsetsize.{module}" if module.split(".")[0] in BESIDE else module


def _imports(path: Path) -> list[str]:
    """Every topicsetsize module the file imports (module level and inside functions)."""
    module = _module(path)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module[:-9]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append(target)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [t for t in found if t == "topicsetsize" or t.startswith("topicsetsize.")]


def _modules(top: Path) -> list[Path]:
    return sorted(p for p in top.rglob("*.py") if "__pycache__" not in p.parts)


def test_imports_run_only_downwards():
    upward = []
    for path in [*_modules(PACKAGE), *(p for name in BESIDE for p in _modules(ROOT / name))]:
        if path.parts[len(PACKAGE.parts)] == "data":
            continue
        module = _module(path)
        group = _group(module.removesuffix(".__init__"))
        for target in _imports(path):
            other = _group(target)
            if other == group:
                continue
            if FLOORS[other] >= FLOORS[group]:
                upward.append(f"{module} (floor {FLOORS[group]}) imports {target} "
                              f"(floor {FLOORS[other]})")
    assert not upward, "\n".join(upward)


def test_every_group_has_a_floor():
    groups = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
              if (p.suffix == ".py" or (p / "__init__.py").exists()) and p.name != "data"}
    assert groups - {"__init__"} <= set(FLOORS)


def test_at_most_12_modules_at_the_top():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


@pytest.mark.parametrize("package", ["topicsetsize", "generator", "xladdin"])
def test_no_module_over_450_lines(package):
    long = {str(p.relative_to(ROOT)): n for p in _modules(ROOT / package)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert not long, long


#: The floors of the generator (docs/architecture.md), as the engine's: the workbook's content
#: (spec, reader, bundled specs, inputs, the calculators' declarations); the spreadsheet
#: primitives (cells, rows, layout, formulas) and the saved values (the evaluator, its sheet
#: functions, the cached answers), which know nothing of each other; the sheets; the assembly.
#: ``""`` is ``generator/__init__.py``, which names the public API.
GENERATOR_FLOORS = {"content": 0, "spreadsheet": 1, "saved": 1, "sheets": 2, "build": 3, "": 4}
GENERATOR = ROOT / "generator"


def _generator_group(module: str) -> str:
    """``topicsetsize.generator.sheets.tables_sheet`` -> ``sheets``."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else ""


def test_generator_imports_run_only_downwards():
    upward = []
    for path in _modules(GENERATOR):
        module = _module(path)
        group = _generator_group(module.removesuffix(".__init__"))
        for target in _imports(path):
            if not target.startswith("topicsetsize.generator"):
                continue
            other = _generator_group(target)
            if other != group and GENERATOR_FLOORS[other] >= GENERATOR_FLOORS[group]:
                upward.append(f"{module} (floor {GENERATOR_FLOORS[group]}) imports {target} "
                              f"(floor {GENERATOR_FLOORS[other]})")
    assert not upward, "\n".join(upward)


def test_every_generator_group_has_a_floor():
    groups = {p.stem if p.is_file() else p.name for p in GENERATOR.iterdir()
              if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert groups - {"__init__"} <= set(GENERATOR_FLOORS)


def _own_submodule(path: Path, node: ast.ImportFrom, name: str) -> bool:
    """``from . import _files``: a package's own private module, not another module's name."""
    if node.level == 0 or node.module:
        return False
    folder = path.parent
    for _ in range(node.level - 1):
        folder = folder.parent
    return (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists()


@pytest.mark.parametrize("package", ["topicsetsize", "generator", "xladdin", "tools"])
def test_no_module_imports_another_modules_private_names(package):
    """Of the project's own modules (a third party's private names, such as scipy's
    ``_ncf_sf``, are that party's business and are named where they are used)."""
    private = []
    for path in _modules(ROOT / package):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            own = node.level > 0 or (node.module or "").split(".")[0] in (
                "topicsetsize", "generator", "xladdin", "tools")
            private += [f"{path.relative_to(ROOT)}: {alias.name} from "
                        f"{'.' * node.level}{node.module or ''}" for alias in node.names
                        if own and alias.name.startswith("_") and not alias.name.startswith("__")
                        and not _own_submodule(path, node, alias.name)]
    assert not private, "\n".join(private)


def _public_names(path: Path) -> set[str]:
    """The public classes and functions a module defines at its top."""
    return {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and not node.name.startswith("_")}


def test_generator_and_engine_names_do_not_collide():
    """A generator module or class named as an engine's (``tables``, ``estimates``, ``Design``)
    made a reader take one for the other."""
    engine = [p for p in _modules(PACKAGE) if "data" not in p.parts]
    engine_modules = {p.stem for p in engine} | {p.name for p in PACKAGE.iterdir() if p.is_dir()}
    generator = _modules(GENERATOR)
    modules = {p.stem for p in generator} - {"__init__"}
    assert not modules & engine_modules, sorted(modules & engine_modules)
    names = set().union(*map(_public_names, engine)) & set().union(*map(_public_names, generator))
    assert not names, sorted(names)


def test_no_sheet_builder_function_over_60_lines():
    long = {f"{p.relative_to(ROOT)}: {node.name}": node.end_lineno - node.lineno + 1
            for p in _modules(GENERATOR / "sheets")
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno + 1 > 60}
    assert not long, long


def test_the_package_holds_no_tool():
    """Tools that are run by hand (the README's screenshot) live in tools/, not the package."""
    assert not [str(p.relative_to(ROOT)) for p in _modules(GENERATOR)
                if '__name__ == "__main__"' in p.read_text(encoding="utf-8")]
