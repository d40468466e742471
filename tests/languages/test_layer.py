"""languages/ and terms.py are the lowest layer: they import no other ctxopt stage."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "ctxopt"


def ctxopt_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found.update(name for name in names if name.split(".")[0] == "ctxopt")
    return found


def test_languages_and_terms_import_only_themselves() -> None:
    files = [*sorted((SRC / "languages").glob("*.py")), SRC / "terms.py"]
    assert len(files) > 5
    for path in files:
        for name in ctxopt_imports(path):
            assert name.startswith("ctxopt.languages"), (path.name, name)
