"""Text-level facts about code: imports, referenced identifiers, complexity, doc comments."""

from __future__ import annotations

import re
import string
from itertools import filterfalse

from ctxopt.languages import ImportSplit, LexStyle, by_name
from ctxopt.languages.keywords import KEYWORDS
from ctxopt.languages.lexical import blank_literals

MAX_REFERENCES = 200

_M = re.MULTILINE


def file_imports(language: str, text: str) -> tuple[str, ...]:
    """The modules, packages or paths the file imports, in order of first appearance."""
    record = by_name(language)
    rules = record.imports if record is not None else None
    if rules is None:
        return ()
    found: dict[str, None] = {}
    if rules.block is not None and rules.block_item is not None:
        for pattern in rules.patterns:
            for m in pattern.finditer(text):
                found[m.group(1)] = None
        for block in rules.block.finditer(text):
            for m in rules.block_item.finditer(block.group(1)):
                found[m.group(1)] = None
        return tuple(found)
    hits = sorted(
        (start + m.start(), item)
        for start, part in _searched_parts(text, rules.line_words)
        for pattern in rules.patterns
        for m in pattern.finditer(part)
        for item in _split_import(rules.split, m.group(1))
    )
    return tuple(dict.fromkeys(item for _, item in hits))


def _searched_parts(text: str, words: tuple[str, ...]) -> list[tuple[int, str]]:
    """(offset, text) to search: the whole text, or with words only its lines holding one
    of them, in order (each line once)."""
    if not words:
        return [(0, text)]
    starts: set[int] = set()
    for word in words:
        at = text.find(word)
        while at != -1:
            line_start = text.rfind("\n", 0, at) + 1
            starts.add(line_start)
            line_end = text.find("\n", at)
            at = -1 if line_end == -1 else text.find(word, line_end)
    parts = []
    for start in sorted(starts):
        end = text.find("\n", start)
        parts.append((start, text[start : len(text) if end == -1 else end]))
    return parts


def _split_import(split: ImportSplit, raw: str) -> list[str]:
    if split is ImportSplit.COMMA_LIST:
        return [part.split()[0] for part in raw.split(",") if part.strip()]
    if split is ImportSplit.STRIP_COLONS:
        return [raw.rstrip(":")]
    if split is ImportSplit.STRIP_DOTS:
        return [raw.rstrip(".")]
    return [raw]


def code_only(language: str, text: str) -> str:
    """text with comments and string literals replaced by a space (approximate, regex-based)."""
    record = by_name(language)
    return blank_literals(record.lex_style if record is not None else LexStyle.C, text)


# An identifier not inside a longer word.  Both patterns start with the characters a match
# starts with (any look-behind comes after it): the regex engine then skips the others at C
# speed, where a leading look-behind or alternation has it try every position, several times
# slower.
_IDENT = re.compile(r"[A-Za-z_](?<![\w$][A-Za-z_])[\w$]*")
_BRANCH_WORDS = frozenset(
    {"if", "elif", "elsif", "for", "foreach", "while", "until", "unless", "case", "when"}
    | {"catch", "except", "rescue", "guard", "and", "or"}
)
_BRANCH_OPS = re.compile(r"&&|\|\||\?\?|\?(?<=\s\?)(?=\s)")
# What _IDENT finds that is not a reference: keywords and one-letter names.
_NOT_REFERENCES = frozenset(KEYWORDS) | frozenset(string.ascii_letters + "_")


def code_facts(code: str, own_name: str) -> tuple[tuple[str, ...], int]:
    """References and cyclomatic complexity of code (comments and strings already blanked).

    References: identifiers minus keywords and own_name, first MAX_REFERENCES by first use, sorted.
    Complexity: 1 + branch keywords + short-circuit / null-coalescing / ternary operators.
    """
    idents = _IDENT.findall(code)
    branches = sum(map(_BRANCH_WORDS.__contains__, idents))
    # each name once, by first use, without keywords, one-letter names and own_name
    kept = list(filterfalse(_NOT_REFERENCES.__contains__, dict.fromkeys(idents)))
    if own_name in kept:
        kept.remove(own_name)
    refs = tuple(sorted(kept[:MAX_REFERENCES]))
    return refs, 1 + branches + len(_BRANCH_OPS.findall(code))


_DOC_MARKERS = re.compile(r"^\s*(?:///?!?|/\*\*?|\*/|\*(?!/)|#+!?|--)?\s?")
_XML_TAGS = re.compile(r"</?(?:summary|remarks|returns|para)>")


def clean_comment(raw: str) -> str:
    """The text of a comment block without comment markers."""
    out = []
    for line in raw.splitlines():
        line = _DOC_MARKERS.sub("", line, count=1).rstrip()
        if line.endswith("*/"):
            line = line[:-2].rstrip()
        out.append(_XML_TAGS.sub("", line))
    return "\n".join(out).strip()


def clean_docstring(raw: str) -> str:
    """A Python docstring literal without quotes and common indentation."""
    body = raw.strip()
    body = re.sub(r"^[rRbBuU]{0,2}(\"\"\"|'''|\"|')", "", body)
    body = re.sub(r"(\"\"\"|'''|\"|')$", "", body)
    lines = body.splitlines()
    if len(lines) > 1:
        rest = [ln for ln in lines[1:] if ln.strip()]
        indent = min((len(ln) - len(ln.lstrip()) for ln in rest), default=0)
        lines = [lines[0]] + [ln[indent:] for ln in lines[1:]]
    return "\n".join(lines).strip()


_CONST_PATTERNS = (
    re.compile(
        r"^(?:export[ \t]+)?(?:pub(?:\([^)]*\))?[ \t]+)?(?:const|static)[ \t]+"
        r"(?:val[ \t]+|mut[ \t]+)?([A-Za-z_]\w*)",
        _M,
    ),
    re.compile(r"^([A-Z][A-Z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)", _M),
    re.compile(r"^#[ \t]*define[ \t]+([A-Za-z_]\w*)", _M),
)


def constant_names(text: str) -> tuple[str, ...]:
    """Names of top-level constants: UPPER_CASE assignments, const/static items, #defines."""
    found: dict[str, None] = {}
    for pattern in _CONST_PATTERNS:
        for m in pattern.finditer(text):
            if m.group(1) not in KEYWORDS:
                found[m.group(1)] = None
    return tuple(found)
