"""File extensions and names mapped to language names (tree-sitter-language-pack names)."""

from __future__ import annotations

from pathlib import PurePosixPath

EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".md": "markdown",
    ".markdown": "markdown",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".toml": "toml",
}

FILENAMES: dict[str, str] = {
    "Dockerfile": "text",
    "Makefile": "text",
    "Rakefile": "ruby",
    "Gemfile": "ruby",
}

CODE_LANGUAGES = frozenset(
    {
        "python",
        "javascript",
        "typescript",
        "tsx",
        "go",
        "rust",
        "java",
        "c",
        "cpp",
        "csharp",
        "ruby",
        "php",
        "kotlin",
        "swift",
        "scala",
        "bash",
    }
)
CONFIG_LANGUAGES = frozenset({"yaml", "json", "toml"})
DOC_LANGUAGES = frozenset({"markdown", "text"})


KNOWN_LANGUAGES = frozenset(
    {*EXTENSIONS.values(), *FILENAMES.values(), *CODE_LANGUAGES, *CONFIG_LANGUAGES, *DOC_LANGUAGES}
)


def language_name(text: str) -> str | None:
    """The language a user means by a name or an extension ("Python", "py", ".rs"), or None."""
    lowered = text.strip().lower()
    if lowered in KNOWN_LANGUAGES:
        return lowered
    return EXTENSIONS.get(lowered if lowered.startswith(".") else f".{lowered}")


def detect_language(path: str) -> str:
    """Language name for a repo-relative path; "text" when unknown."""
    name = PurePosixPath(path).name
    if name in FILENAMES:
        return FILENAMES[name]
    suffix = PurePosixPath(name).suffix.lower()
    return EXTENSIONS.get(suffix, "text")
