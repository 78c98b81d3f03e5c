"""The README and the docs pages hold together: every relative link and image resolves, and the
README stays a page (at most 250 lines) with the guide in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (page.parent / target.split("#")[0]).exists():
            broken.append(target)
    assert not broken, broken


def test_the_readme_is_short_and_links_every_docs_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    linked = set(LINK.findall(text))
    missing = [p.name for p in PAGES[1:] if f"docs/{p.name}" not in linked]
    assert not missing, missing


def _shell_examples(page: Path) -> list[tuple[str, str]]:
    """The ``$ topicsetsize ...`` code blocks of a page: (command line, the output shown)."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", page.read_text(encoding="utf-8"),
                        flags=re.M | re.S)
    return [(block.split("\n", 1)[0][2:], block.split("\n", 1)[1]) for block in blocks
            if block.startswith("$ topicsetsize ")]


def test_the_readme_has_shell_examples():
    assert _shell_examples(ROOT / "README.md")


@pytest.mark.parametrize("command, shown", _shell_examples(ROOT / "README.md"),
                         ids=lambda value: value[:60] if isinstance(value, str) else None)
def test_readme_shell_examples_print_what_the_readme_shows(capsys, monkeypatch, command, shown):
    # byte for byte: the README's output blocks are copies of the real output
    import shlex

    from topicsetsize.cli import main

    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "topicsetsize"
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out == shown
