"""README's layout paragraph names every folder of the package and no folder that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = ROOT / "src" / "ctxopt"


def _layout_paragraph() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("Layout: `src/ctxopt/`")
    return readme[start : readme.index("\n\n", start)]


def test_the_layout_paragraph_names_the_folders_as_they_are() -> None:
    folders = {p.name for p in PACKAGE_DIR.iterdir() if p.is_dir() and p.name != "__pycache__"}
    named = set(re.findall(r"`(\w+)/`", _layout_paragraph()))
    assert named == folders, {"not described": folders - named, "gone": named - folders}


def test_the_layout_paragraph_names_the_flat_modules() -> None:
    modules = {p.name for p in PACKAGE_DIR.glob("*.py")} - {"__init__.py"}
    paragraph = _layout_paragraph()
    assert [m for m in sorted(modules) if f"`{m}`" not in paragraph] == []
