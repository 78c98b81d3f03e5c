"""The package namespace: every public name resolves lazily, nothing heavy at import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import topicsetsize as tss

ROOT = Path(__file__).resolve().parents[2]


def test_every_exported_name_resolves_to_its_module():
    assert set(tss.__all__) == {"__version__"} | set(tss._MODULE_OF)
    for name in tss.__all__:
        value = getattr(tss, name)
        if name != "__version__" and callable(value):
            # a class may be shown under its public name (topicsetsize.InputError)
            assert value.__module__ in (f"topicsetsize.{tss._MODULE_OF[name]}", "topicsetsize"), \
                name
            assert getattr(tss, value.__name__) is value
    assert set(tss.__all__) <= set(dir(tss))


def test_submodules_and_unknown_names():
    assert tss.power.anova_effect(0.1, 0.005) == pytest.approx(1.0)
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        tss.nope  # noqa: B018


def test_import_loads_no_numerical_library():
    code = ("import sys, topicsetsize; print(topicsetsize.__version__, sorted({m.split('.')[0] "
            "for m in sys.modules} & {'numpy', 'scipy', 'pandas'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.stdout.split() == [tss.__version__, "[]"], done.stderr


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    """The file names in a wheel built from a clean copy of this checkout (via its sdist, as
    ``python -m build`` does by default). A copy: the checkout's stale ``*.egg-info`` and
    ``build/`` would slip files into the wheel that a fresh clone does not get. The copy gets
    the bytecode that running Python leaves in a checkout, though, where ``"**/*"`` of the
    package data would take it in: a ``__pycache__`` in the data folder and in a subfolder."""
    import shutil
    import zipfile

    pytest.importorskip("build")
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, source / name)
    for name in ("topicsetsize", "xladdin", "generator", "workbook_templates", "compat"):
        shutil.copytree(ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    for folder in ("", "clef2017_tar"):
        cache = source / "topicsetsize" / "data" / folder / "__pycache__"
        cache.mkdir(parents=True)
        (cache / "stale.cpython-311.pyc").write_bytes(b"stale bytecode")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(source)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # every folder of the tree is either a package of the wheel or declared data (issue 24)
    assert "would be ignored" not in done.stdout + done.stderr
    (wheel,) = out.glob("*.whl")
    assert list(out.glob("*.tar.gz")), "no sdist"
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def _source_files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.glob(pattern)
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


#: Where each source folder lands in the wheel: under the project's own name (issue 24: a
#: top-level ``generator`` collided with any ``generator.py`` in the user's folder).
INSTALLED_AS = {"topicsetsize": "topicsetsize", "generator": "topicsetsize/generator",
                "xladdin": "topicsetsize/xladdin", "compat/xladdin": "xladdin"}


def _installed(path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    top = max((t for t in INSTALLED_AS if f"{rel}/".startswith(f"{t}/")), key=len)
    return INSTALLED_AS[top] + rel[len(top):]


@pytest.mark.slow
def test_the_wheel_holds_every_package(wheel_names):
    """A package folder that setuptools misses breaks the installed command (issue 18: the
    hand-written list lacked topicsetsize.formats, now topicsetsize.matrices.formats)."""
    packages = [_installed(p.parent) for top in INSTALLED_AS
                for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts]
    assert {"topicsetsize/matrices/formats", "topicsetsize/generator/sheets/calculators",
            "topicsetsize/xladdin", "xladdin"} <= set(packages)
    missing = [p for p in packages if f"{p}/__init__.py" not in wheel_names]
    assert not missing, missing
    modules = [_installed(p) for top in INSTALLED_AS for p in _source_files(ROOT / top, "**/*.py")]
    assert not [m for m in modules if m not in wheel_names]
    assert not [n for n in wheel_names if n.split("/")[0] in ("generator", "workbook_templates")]


@pytest.mark.slow
def test_the_wheel_holds_the_bundled_data_and_specs(wheel_names):
    data = [p.relative_to(ROOT).as_posix() for p in _source_files(ROOT / "topicsetsize" / "data",
                                                                   "**/*")]
    assert "topicsetsize/data/trec2010web_ap.csv" in data
    assert not [d for d in data if d not in wheel_names]
    specs = [f"topicsetsize/generator/templates/{p.name}"
             for p in _source_files(ROOT / "workbook_templates", "*.toml")]
    assert specs and not [s for s in specs if s not in wheel_names]


@pytest.mark.slow
def test_the_wheel_holds_no_bytecode(wheel_names):
    """The bytecode of a checkout's __pycache__ folders stays out of the wheel: the package data's
    "**/*" took in topicsetsize/data/__pycache__/*.pyc (the fixture puts stale bytecode there);
    the fixture checks that setuptools warned of no ignored package (a __pycache__ one each)."""
    assert "topicsetsize/data/trec2010web_ap.csv" in wheel_names
    assert not [n for n in wheel_names if n.endswith(".pyc") or "__pycache__" in n.split("/")]


@pytest.mark.slow
def test_a_users_generator_py_is_never_imported(tmp_path):
    """Issue 24: the generator was installed as a top-level ``generator``, so ``python -m
    topicsetsize workbook`` failed in any folder holding a ``generator.py``. It is
    ``topicsetsize.generator`` now (setup.py), and a user's modules of those names stay theirs."""
    for mod in ("generator", "workbook_templates"):
        (tmp_path / f"{mod}.py").write_text(f"raise SystemExit('a user module: {mod}.py')\n")
    done = subprocess.run([sys.executable, "-m", "topicsetsize", "workbook", "--out", "w.xlsx"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "w.xlsx").stat().st_size > 10_000
