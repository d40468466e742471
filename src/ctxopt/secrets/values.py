"""Is a value found next to a secret-sounding name a secret, or code, a placeholder, a path?

Precision on code comes from here: `password = get_password()`, `password: str` and
`PASSWORD_FIELD = "password"` all put a non-secret after a secret-sounding name.
"""

from __future__ import annotations

import itertools
import re

PLACEHOLDERS = frozenset(
    (
        "password passwd pass secret secrets token apikey api_key key changeme change_me "
        "changeit example sample test testing dummy fake none null nil undefined true false "
        "yes no on off todo tbd redacted hidden masked default admin root user username "
        "required optional string str bytes env"
    ).split()
)
_PLACEHOLDER_WORDS = re.compile(
    r"example|placeholder|changeme|change_me|your[_-]|<[^>]*>|dummy|\*\*\*|xxxx|\.\.\."
    r"|\[REDACTED:",  # ctxopt's own marker: redacting twice changes nothing
    re.I,
)
_TEMPLATED = re.compile(r"^(?:\$|%\(|%[sd]\b|\{|<|@@)|\{\{|\$\{|%\(|\{[a-z_]*\}")
_PATH = re.compile(r"^(?:[~.]{0,2}/|[A-Za-z]:\\)[\w./\\ -]*$")
_LETTERS_ONLY = re.compile(r"^[A-Za-z_.\-]+$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\)?)?$")
_ONE_CHAR = re.compile(r"^(.)\1*$")
_REGEX_LIKE = re.compile(r"\\[dDwWsSbB]|\.[*+]|\[\^?[a-zA-Z0-9]-|^\^|\(\?")


def looks_like_alphabet(value: str) -> bool:
    """A run of 8 consecutive characters ("abcdefgh", "23456789"): an alphabet, not a key."""
    run = 1
    for before, after in itertools.pairwise(value):
        run = run + 1 if ord(after) == ord(before) + 1 else 1
        if run >= 8:
            return True
    return False


def plausible_secret(
    value: str,
    *,
    min_length: int = 6,
    letters_only_ok: bool = False,
    identifier_ok: bool = True,
) -> bool:
    """False for values that are not secrets however they are named: short values,
    placeholders, templates and environment references, paths, regular expressions,
    numbers, alphabets, a single repeated character; letters-only words unless
    letters_only_ok; identifiers (`hashed_pw2`, `config.db_password`) unless identifier_ok."""
    value = value.strip()
    if len(value) < min_length or value.lower() in PLACEHOLDERS:
        return False
    if _TEMPLATED.search(value) or _PLACEHOLDER_WORDS.search(value):
        return False
    if _REGEX_LIKE.search(value):
        return False
    if (
        _PATH.match(value)
        or _ONE_CHAR.match(value)
        or looks_like_alphabet(value)
        or not any(c.isalnum() for c in value)
    ):
        return False
    if value.replace(".", "").replace("-", "").isdigit():
        return False
    if not letters_only_ok and _LETTERS_ONLY.match(value):
        return False
    return identifier_ok or not _IDENTIFIER.match(value)
