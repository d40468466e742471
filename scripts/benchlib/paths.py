"""Path rules shared by the miner and the baselines: code, docs, and files to leave out."""

from __future__ import annotations

from pathlib import PurePosixPath

CODE_EXTENSIONS = frozenset(
    {
        ".c", ".cc", ".cjs", ".cpp", ".cs", ".cxx", ".dart", ".ex", ".exs", ".go", ".h",
        ".hpp", ".java", ".js", ".jsx", ".kt", ".kts", ".lua", ".m", ".mjs", ".mts", ".cts",
        ".php", ".pl", ".py", ".pyi", ".pyx", ".r", ".rb", ".rs", ".scala", ".sh", ".bash",
        ".swift", ".ts", ".tsx", ".vue", ".svelte", ".zig", ".hs", ".ml", ".clj", ".erl",
    }
)  # fmt: skip
DOC_EXTENSIONS = frozenset({".md", ".rst", ".txt", ".adoc"})
DOC_DIRS = frozenset({"docs", "doc"})
VENDOR_DIRS = frozenset({"node_modules", "vendor", "third_party", "dist", "build"})
LOCK_NAMES = frozenset(
    {
        "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "cargo.lock", "go.sum",
        "poetry.lock", "pipfile.lock", "composer.lock", "gemfile.lock", "uv.lock",
        "bun.lockb", "npm-shrinkwrap.json", "flake.lock",
    }
)  # fmt: skip
MINIFIED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", ".map")


def is_code(path: str) -> bool:
    """True for a source file of a programming language (judged by its extension)."""
    return PurePosixPath(path).suffix.lower() in CODE_EXTENSIONS


def is_doc(path: str) -> bool:
    """True for documentation: .md/.rst/.txt/.adoc files or anything under a docs/ folder."""
    parts = PurePosixPath(path).parts
    in_doc_dir = any(part.lower() in DOC_DIRS for part in parts[:-1])
    return in_doc_dir or PurePosixPath(path).suffix.lower() in DOC_EXTENSIONS


def is_excluded(path: str) -> bool:
    """True for lock files, minified files and vendored or built folders."""
    pure = PurePosixPath(path)
    name = pure.name.lower()
    if name in LOCK_NAMES or name.endswith(".lock") or name.endswith(MINIFIED_SUFFIXES):
        return True
    return any(part in VENDOR_DIRS for part in pure.parts[:-1])
