"""Text-level facts about code: imports, referenced identifiers, complexity, doc comments."""

from __future__ import annotations

import re

from ctxopt.chunking.keywords import KEYWORDS

MAX_REFERENCES = 200

_M = re.MULTILINE
_IMPORT_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "python": (
        re.compile(
            r"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?"
            r"(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)",
            _M,
        ),
        re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import\b", _M),
    ),
    "js": (
        re.compile(
            r"(?:\bfrom|^[ \t]*import|\bimport[ \t]*\(|\brequire[ \t]*\()"
            r"""[ \t]*['"]([^'"\n]+)['"]""",
            _M,
        ),
    ),
    "go": (
        re.compile(r'^[ \t]*import[ \t]+(?:[\w.]+[ \t]+)?"([^"\n]+)"', _M),
        re.compile(r'^[ \t]*(?:[\w.]+[ \t]+)?"([^"\n]+)"[ \t]*$', _M),  # inside import ( ... )
    ),
    "rust": (
        re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+([\w:]+)", _M),
        re.compile(r"^[ \t]*extern[ \t]+crate[ \t]+(\w+)", _M),
    ),
    "jvm": (re.compile(r"^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.*]+)", _M),),
    "csharp": (
        re.compile(
            r"^[ \t]*(?:global[ \t]+)?using[ \t]+(?:static[ \t]+)?"
            r"(?:\w+[ \t]*=[ \t]*)?([\w.]+)[ \t]*;",
            _M,
        ),
    ),
    "c": (re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', _M),),
    "ruby": (
        re.compile(
            r"^[ \t]*(?:require|require_relative|load|autoload[ \t]*\(?[ \t]*:\w+[ \t]*,)"
            r"""[ \t]*\(?[ \t]*['"]([^'"\n]+)['"]""",
            _M,
        ),
    ),
    "php": (
        re.compile(r"^[ \t]*use[ \t]+(?:function[ \t]+|const[ \t]+)?\\?([\w\\]+)", _M),
        re.compile(r"""\b(?:require|include)(?:_once)?[ \t]*\(?[^;'"\n]*['"]([^'"\n]+)['"]""", _M),
    ),
    "swift": (
        re.compile(
            r"^[ \t]*(?:@\w+[ \t]+)*import[ \t]+"
            r"(?:(?:class|struct|func|enum|protocol|typealias|var|let)[ \t]+)?([\w.]+)",
            _M,
        ),
    ),
    "bash": (re.compile(r"^[ \t]*(?:source|\.)[ \t]+['\"]?([^\s;'\"]+)", _M),),
}
_FAMILY = {
    "javascript": "js",
    "typescript": "js",
    "tsx": "js",
    "java": "jvm",
    "kotlin": "jvm",
    "scala": "jvm",
    "cpp": "c",
}
_GO_BLOCK = re.compile(r"^import[ \t]*\(([^)]*)\)", _M)


def file_imports(language: str, text: str) -> tuple[str, ...]:
    """The modules, packages or paths the file imports, in order of first appearance."""
    family = _FAMILY.get(language, language)
    patterns = _IMPORT_PATTERNS.get(family, ())
    found: dict[str, None] = {}
    if family == "go":
        singles, in_block = patterns
        for m in singles.finditer(text):
            found[m.group(1)] = None
        for block in _GO_BLOCK.finditer(text):
            for m in in_block.finditer(block.group(1)):
                found[m.group(1)] = None
        return tuple(found)
    hits = sorted(
        (m.start(), item)
        for pattern in patterns
        for m in pattern.finditer(text)
        for item in _split_import(family, m.group(1))
    )
    return tuple(dict.fromkeys(item for _, item in hits))


def _split_import(family: str, raw: str) -> list[str]:
    if family == "python":
        return [part.split()[0] for part in raw.split(",") if part.strip()]
    if family == "rust":
        return [raw.rstrip(":")]
    if family == "jvm":
        return [raw.rstrip(".")]
    return [raw]


_STRINGS_C = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
_BLANK_PATTERNS: dict[str, re.Pattern[str]] = {
    "c": re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|" + _STRINGS_C),  # `templates` kept
    "rust": re.compile(r'//[^\n]*|/\*[\s\S]*?\*/|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\\n])\''),
    "python": re.compile(  # an f-string is matched whole (and kept: its {fields} are code)
        r"#[^\n]*|(?P<f>\b[fF][rR]?|\b[rR][fF])?(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"
        + _STRINGS_C
        + ")"
    ),
    "hash": re.compile(r"(?:^|(?<=\s))#[^\n]*|" + _STRINGS_C, _M),
    "php": re.compile(r"//[^\n]*|#(?!\[)[^\n]*|/\*[\s\S]*?\*/|" + _STRINGS_C),
}
_BLANK_FAMILY = {"python": "python", "ruby": "hash", "bash": "hash", "rust": "rust", "php": "php"}


def code_only(language: str, text: str) -> str:
    """text with comments and string literals replaced by a space (approximate, regex-based)."""
    family = _BLANK_FAMILY.get(language, "c")
    if family == "python":
        return _BLANK_PATTERNS[family].sub(_keep_fstring, text)
    return _BLANK_PATTERNS[family].sub(" ", text)


def _keep_fstring(match: re.Match[str]) -> str:
    return match.group() if match.group("f") else " "


_IDENT = re.compile(r"(?<![\w$])[A-Za-z_][\w$]*")
_BRANCH_WORDS = frozenset(
    {"if", "elif", "elsif", "for", "foreach", "while", "until", "unless", "case", "when"}
    | {"catch", "except", "rescue", "guard", "and", "or"}
)
_BRANCH_OPS = re.compile(r"&&|\|\||\?\?|(?<=\s)\?(?=\s)")


def code_facts(code: str, own_name: str) -> tuple[tuple[str, ...], int]:
    """References and cyclomatic complexity of code (comments and strings already blanked).

    References: identifiers minus keywords and own_name, first MAX_REFERENCES by first use, sorted.
    Complexity: 1 + branch keywords + short-circuit / null-coalescing / ternary operators.
    """
    idents = _IDENT.findall(code)
    branches = sum(1 for ident in idents if ident in _BRANCH_WORDS)
    seen = dict.fromkeys(ident for ident in idents if len(ident) > 1 and ident not in KEYWORDS)
    seen.pop(own_name, None)
    refs = tuple(sorted(list(seen)[:MAX_REFERENCES]))
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
