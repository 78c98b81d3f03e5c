"""Where the bundled specs live: ``workbook_templates/`` in a clone (or an editable install),
``generator/templates/`` in an installed wheel (pyproject maps the one onto the other)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_SPEC", "templates_dir", "bundled_spec", "bundled_specs"]

#: The spec that ``topicsetsize workbook`` builds when given none.
DEFAULT_SPEC = "ntcir12_std_ab"

_HERE = Path(__file__).resolve().parents[1]      # the generator package


def templates_dir() -> Path:
    """The folder of the bundled specs.

    >>> (templates_dir() / "ntcir12_std_ab.toml").is_file()
    True
    """
    for folder in (_HERE / "templates", _HERE.parent / "workbook_templates"):
        if any(folder.glob("*.toml")):
            return folder
    raise FileNotFoundError("the bundled workbook specs are missing: neither "
                            f"{_HERE / 'templates'} nor {_HERE.parent / 'workbook_templates'} "
                            "holds any .toml file")


def bundled_specs() -> list[str]:
    """Names of the bundled specs (file names without .toml)."""
    return sorted(p.stem for p in templates_dir().glob("*.toml"))


def bundled_spec(name: str = DEFAULT_SPEC) -> Path:
    """Path of the bundled spec ``name`` (with or without ``.toml``).

    >>> bundled_spec().name
    'ntcir12_std_ab.toml'
    """
    stem = name[:-5] if name.endswith(".toml") else name
    path = templates_dir() / f"{stem}.toml"
    if not path.is_file():
        raise FileNotFoundError(f"no bundled spec {name!r}: the bundled specs are "
                                f"{', '.join(bundled_specs())}")
    return path
