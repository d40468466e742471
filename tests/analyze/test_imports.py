"""analyze/ sits below cli/: it never imports the CLI, typer or rich, nor the index or retrieval."""

from __future__ import annotations

import ast

import pytest

from helpers import ROOT

ANALYZE = ROOT / "src" / "ctxopt" / "analyze"
FORBIDDEN = (
    "ctxopt.cli",
    "typer",
    "rich",
    "ctxopt.index",
    "ctxopt.retrieve",
    "torch",
    "sentence_transformers",
    "lancedb",
)


def imported(path: object) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(ANALYZE.glob("*.py")), ids=lambda p: p.name)
def test_analyze_modules_import_only_lower_stages(path: object) -> None:
    for name in imported(path):
        assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), name
