"""Entities named in a task: paths, file names, identifiers, quoted strings, errors."""

from __future__ import annotations

import re

from ctxopt.languages import ALL
from ctxopt.terms import split_identifier
from ctxopt.types import Entities

# A bare `name.ext` is a file when ext is one a task names files by (`cli.py`, `lib.rs`).
_EXTENSIONS = "|".join(sorted({ext[1:] for language in ALL for ext in language.mention_extensions}))
# An absolute path ("/home/me/proj/src/a.py") is a path too: its tail names the indexed file.
_PATH = re.compile(
    r"(?<![\w/.-])/?((?:[\w.-]+/)+[\w.-]+\.\w{1,6}|[\w-]+\.(?:" + _EXTENSIONS + r"))\b"
)
# A place in a file: "src/a.rs:975:13", "a.py#L12", a traceback's 'File "/x/a.py", line 12', a
# forge's link (".../blob/main/src/a.py#L12"). It starts where a run of path characters does, or
# right after "://": starting inside a run (after each "/") made a long run of "a/a/a/..." (a
# pasted base64 blob) cost quadratic time.
_LOCATION = re.compile(
    r"(?:(?<=://)|(?<![\w/.-]))/?((?:[\w.-]+/)*[\w.-]+\.[A-Za-z]\w{0,5})"
    r"(?::(\d+)\b|#L(\d+)\b|\", line (\d+)\b)"
)
_DIR = re.compile(r"(?<![\w/.-])((?:[\w.-]+/){1,}[\w.-]*)(?=[\s,;:)'\"`]|$)")
_QUOTED = re.compile(r"`([^`\n]{2,120})`|\"([^\"\n]{2,120})\"|'([^'\n]{2,120})'")
# Identifiers and words in any script (`größe_berechnen`, `ÄnderungsListe`, `计算面积`); on
# ASCII text the same as [A-Za-z_][A-Za-z0-9_]* and [A-Za-z][A-Za-z0-9]+.
_IDENT = re.compile(r"\b[^\W\d]\w*(?:(?:\.|::)[^\W\d]\w*)*\b")
_ERROR = re.compile(r"\b(\w*(?:Error|Exception|Panic|Failure)\b[:\s][^\n]{0,160})")
_WORD = re.compile(r"[^\W\d_][^\W_]+")

_STOP_TEXT = """
a an the and or but if then else when while for to of in on at by with from into onto is are
was were be been being it its this that these those there here we you i me my our your they
them their he she his her not no do does did done doing can could should would will shall may
might must have has had having so as than too very just also only about after before again all
any each few more most other some such own same what which who whom why how where use used using
make makes made get gets got add adds added fix fixes fixed bug issue new now up out over under
way like need needs want wants please
"""
STOPWORDS = frozenset(_STOP_TEXT.split())


def is_code_shaped(token: str) -> bool:
    """CamelCase, snake_case, dotted or call-like tokens (not plain English words)."""
    if "." in token or "::" in token:
        return True
    if "_" in token.strip("_"):
        return True
    has_inner_upper = any(c.isupper() for c in token[1:])
    has_lower = any(c.islower() for c in token)
    return has_inner_upper and has_lower


def _unique(items: list[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        if item and item not in seen:
            seen[item] = None
    return tuple(seen)


def extract_entities(task: str) -> Entities:
    """Find the entities a task names, in order of appearance, without duplicates."""
    paths = [
        m.group(1).strip("./") if m.group(1).startswith("./") else m.group(1)
        for m in _PATH.finditer(task)
    ]
    paths += [m.group(1).rstrip("/") for m in _DIR.finditer(task) if len(m.group(1)) > 2]
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(task)]
    errors = [m.group(1).strip() for m in _ERROR.finditer(task)]
    locations = [
        (m.group(1), int(next(g for g in m.groups()[1:] if g))) for m in _LOCATION.finditer(task)
    ]
    paths += [path for path, _ in locations]
    path_text = set(paths)
    identifiers = [
        tok
        for tok in _IDENT.findall(task)
        if is_code_shaped(tok) and tok not in path_text and not _looks_like_file(tok)
    ]
    for q in quoted:
        identifiers += [
            t
            for t in _IDENT.findall(q)
            if (is_code_shaped(t) or q.strip() == t) and not _looks_like_file(t)
        ]
    words = [w.lower() for w in _WORD.findall(task) if w.lower() not in STOPWORDS and len(w) > 2]
    return Entities(
        paths=_unique(paths),
        identifiers=_unique(identifiers),
        quoted=_unique(quoted),
        errors=_unique(errors),
        words=_unique(words),
        locations=tuple(dict.fromkeys(locations)),
    )


def _looks_like_file(token: str) -> bool:
    return bool(_PATH.fullmatch(token))


def query_terms(task: str) -> str:
    """Full-text query text: the task plus the sub-words of its compound identifiers."""
    extra: list[str] = []
    for ident in _IDENT.findall(task):
        if is_code_shaped(ident):
            extra += split_identifier(ident)
    return task if not extra else f"{task} {' '.join(extra)}"
