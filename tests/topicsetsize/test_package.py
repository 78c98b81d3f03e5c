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
