"""Configuration and prose: YAML, JSON, TOML, Markdown and plain text."""

from __future__ import annotations

from ctxopt.languages.record import Chunker, ConfigKeys, Family, Language

YAML = Language(
    name="yaml",
    family=Family.CONFIG,
    chunker=Chunker.CONFIG,
    extensions=(".yaml", ".yml"),
    grammar="yaml",
    comment_kinds=("comment",),
    mention_extensions=(".yaml", ".yml"),
    marker_comment=("# ", ""),
    keeps_indentation=True,
    config_keys=ConfigKeys.YAML,
)

JSON = Language(
    name="json",
    family=Family.CONFIG,
    chunker=Chunker.CONFIG,
    extensions=(".json",),
    grammar="json",
    comment_kinds=("comment",),
    mention_extensions=(".json",),
    marker_comment=("// ", ""),
    config_keys=ConfigKeys.JSON,
)

TOML = Language(
    name="toml",
    family=Family.CONFIG,
    chunker=Chunker.CONFIG,
    extensions=(".toml",),
    grammar="toml",
    comment_kinds=("comment",),
    mention_extensions=(".toml",),
    marker_comment=("# ", ""),
    config_keys=ConfigKeys.TOML,
)

MARKDOWN = Language(
    name="markdown",
    family=Family.DOC,
    chunker=Chunker.MARKDOWN,
    extensions=(".md", ".markdown"),
    mention_extensions=(".md",),
    marker_comment=("<!-- ", " -->"),
    secondary=True,
)

TEXT = Language(
    name="text",
    family=Family.DOC,
    chunker=Chunker.LINES,
    filenames=("Dockerfile", "Makefile"),
)

LANGUAGES = (YAML, JSON, TOML, MARKDOWN, TEXT)
