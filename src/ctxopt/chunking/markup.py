"""Markdown sections (doc chunks) and config files (config chunks grouped by top-level key)."""

from __future__ import annotations

import re
from posixpath import basename

from ctxopt import tokens
from ctxopt.chunking.draft import Draft
from ctxopt.chunking.lines import HEAVY_LINES, split_range, trim
from ctxopt.languages import ConfigKeys
from ctxopt.types import ChunkKind

SECTION_MAX_LINES = 120
SECTION_LEVEL = 3  # headings of this level or higher start a section
CONFIG_SMALL_TOKENS = 800
CONFIG_GROUP_LINES = 80
CONFIG_PIECE_LINES = HEAVY_LINES  # longer pieces would be cut again, as name#2#2

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def markdown_drafts(path: str, lines: list[str]) -> list[Draft]:
    """One doc chunk per section (heading to next heading); long sections are split."""
    drafts: list[Draft] = []
    trail: list[tuple[int, str]] = []  # (level, title) of the enclosing headings
    title, start = basename(path), 1
    for line_no, level, heading in _headings(lines):
        drafts.extend(_section(lines, start, line_no - 1, title, trail))
        trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, heading)]
        title, start = heading, line_no
    drafts.extend(_section(lines, start, len(lines), title, trail))
    return drafts


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line number, level, text) of section headings outside fenced code blocks."""
    found: list[tuple[int, int, str]] = []
    fence = ""
    for index, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened:
            marker = opened.group(1)
            if not fence:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = ""
            continue
        if fence:
            continue
        atx = _ATX.match(line)
        if atx and len(atx.group(1)) <= SECTION_LEVEL:
            found.append((index + 1, len(atx.group(1)), atx.group(2).strip()))
        elif _SETEXT.match(line) and index > 0 and _is_setext_title(lines[index - 1]):
            found.append((index, 1 if line.strip()[0] == "=" else 2, lines[index - 1].strip()))
    return [h for i, h in enumerate(found) if i == 0 or h[0] != found[i - 1][0]]


def _is_setext_title(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith(("#", "-", "*", ">", "|", "`", "+"))


def _section(
    lines: list[str], start: int, end: int, title: str, trail: list[tuple[int, str]]
) -> list[Draft]:
    span = trim(lines, start, end)
    if span is None:
        return []
    qualified = " > ".join(t for _, t in trail) or title
    out: list[Draft] = []
    for s, e in split_range(lines, span[0], span[1], SECTION_MAX_LINES):
        suffix = f"#{len(out) + 1}" if out else ""
        out.append(
            Draft(
                ChunkKind.DOC, title + suffix, qualified + suffix, s, e, signature=title, code=False
            )
        )
    return out


_YAML_KEY = re.compile(r"^(?:\"([^\"]+)\"|'([^']+)'|([^\s#:\-][^:#]*?))[ \t]*:(?:\s|$)")
_TOML_TABLE = re.compile(r"^[ \t]*\[\[?[ \t]*([^\]]+?)[ \t]*\]\]?")
_TOML_KEY = re.compile(r"^[ \t]*([\w\-.\"']+)[ \t]*=")
_JSON_KEY = re.compile(r'^[ \t]{1,4}"((?:\\.|[^"\\])*)"[ \t]*:')


def config_drafts(path: str, style: ConfigKeys, lines: list[str], text: str) -> list[Draft]:
    """A small file is one config chunk; a larger one is grouped by top-level key or table.

    Small neighbouring sections share a chunk named after the first key; a large section
    stands alone, and its pieces are named after its own key (`sections`, `sections#2`...).
    """
    span = trim(lines, 1, len(lines))
    if span is None:
        return []
    keys = _top_keys(style, lines)
    name = basename(path)
    if tokens.count(text) <= CONFIG_SMALL_TOKENS or not keys:
        return _plain_config(name, lines, span, keys)
    ends = [line - 1 for line, _ in keys[1:]] + [span[1]]
    sections = [
        (span[0] if index == 0 else line, end, key)
        for index, ((line, key), end) in enumerate(zip(keys, ends, strict=True))
    ]
    half = CONFIG_GROUP_LINES // 2
    drafts: list[Draft] = []
    group: list[tuple[int, int, str]] = []
    for section in sections:
        if group and section[1] - section[0] + 1 >= half:
            drafts.extend(_config_group(lines, group))
            group = []
        group.append(section)
        if group[-1][1] - group[0][0] + 1 >= half:
            drafts.extend(_config_group(lines, group))
            group = []
    if group:
        drafts.extend(_config_group(lines, group))
    return drafts


def _plain_config(
    name: str, lines: list[str], span: tuple[int, int], keys: list[tuple[int, str]]
) -> list[Draft]:
    defines = tuple(dict.fromkeys(key for _, key in keys))
    out: list[Draft] = []
    for s, e in split_range(lines, span[0], span[1], CONFIG_PIECE_LINES):
        piece = name if not out else f"{name}#{len(out) + 1}"
        out.append(Draft(ChunkKind.CONFIG, piece, piece, s, e, defines=defines, code=False))
    return out


def _config_group(lines: list[str], group: list[tuple[int, int, str]]) -> list[Draft]:
    """The chunks of consecutive sections (start, end, key), named after the first key."""
    span = trim(lines, group[0][0], group[-1][1])
    if span is None:
        return []
    first = group[0][2]
    defines = tuple(dict.fromkeys(key for _, _, key in group))
    out: list[Draft] = []
    for s, e in split_range(lines, span[0], span[1], CONFIG_PIECE_LINES):
        piece = first if not out else f"{first}#{len(out) + 1}"
        out.append(Draft(ChunkKind.CONFIG, piece, piece, s, e, defines=defines, code=False))
    return out


def _top_keys(style: ConfigKeys, lines: list[str]) -> list[tuple[int, str]]:
    """(line number, key) of each top-level key (yaml/json) or table header (toml)."""
    found: list[tuple[int, str]] = []
    if style is ConfigKeys.TOML:
        for index, line in enumerate(lines):
            table = _TOML_TABLE.match(line)
            if table:
                found.append((index + 1, table.group(1).strip()))
            elif not found:
                assignment = _TOML_KEY.match(line)
                if assignment:
                    found.append((index + 1, assignment.group(1)))
        return found
    json = style is ConfigKeys.JSON
    pattern = _JSON_KEY if json else _YAML_KEY
    indent = _json_indent(lines) if json else ""
    for index, line in enumerate(lines):
        if json and not line.startswith(indent + '"'):
            continue
        found_key = pattern.match(line)
        if found_key:
            key = next(g for g in found_key.groups() if g is not None)
            found.append((index + 1, key.strip()))
    return found


def _json_indent(lines: list[str]) -> str:
    """The indentation of the first key line (the top-level key indentation of pretty JSON)."""
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith('"'):
            return line[: len(line) - len(stripped)]
    return "  "
