"""The fast prefilter: which lines of a text may hold a secret, and which checks they need.

Two Aho-Corasick passes (ahocorasick-rs, every needle in one pass): secret-sounding names
in the lower-cased text, token prefixes and "://" in the text as written; then one regex
for long quoted random-looking strings.  A Python regex alternation of the same needles is
about ten times slower (`re` tries each alternative at every position), and one
`str.find` pass per needle three times slower.  Only the lines found here reach the full
checks.
"""

from __future__ import annotations

import re
from functools import lru_cache

import ahocorasick_rs


class Check:
    """Bits naming the full checks a tripped line goes through (plain ints: enum.Flag's
    operators cost a fifth of the scan)."""

    NONE = 0
    KEYWORD = 1  # a name on detect-secrets' keyword list: its keyword rules, and NAME's
    NAME = 2  # another secret-sounding name: assignments, connection fields, AWS keys
    TOKEN = 4  # a vendor token prefix: token patterns and detect-secrets' regex plugins
    URL = 8  # "://": passwords in URLs
    ENTROPY = 16  # a long quoted base64/hex-looking string


# searched in the lower-cased text, with NAMES; together they cover detect-secrets'
# keyword list
KEYWORDS = (
    "passw",  # password, passwd
    "pwd",
    "secret",
    "contrase",
    "api_key",
    "apikey",
    "api-key",
    "auth_key",
    "authkey",
    "service_key",
    "servicekey",
    "account_key",
    "accountkey",
    "db_key",
    "dbkey",
    "database_key",
    "priv_key",
    "privkey",
    "private_key",
    "privatekey",
    "client_key",
    "clientkey",
    "db_pass",
    "dbpass",
    "database_pass",
    "key_pass",
    "keypass",
)
# names ctxopt's own rules know beyond detect-secrets' list
NAMES = ("token", "credential", "access_key", "accesskey")
# searched as written: the fixed starts of the token formats detected
TOKEN_PREFIXES = (
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
    "A3T",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "xox",
    "hooks.slack.com",
    "k_live_",
    "k_test_",
    "eyJ",
    "AIza",
    "glpat-",
    "gldt-",
    "glft-",
    "glsoat-",
    "glrt-",
    "glcbt-",
    "glimt-",
    "glptt-",
    "glagent-",
    "gloas-",
    "GR1348941",
    "T3BlbkFJ",
    "SG.",
    "npm_",
    "pypi-",
    "AccountKey=",
    "sq0csp-",
)
# 20 or more base64 characters in quotes, a digit among them
_QUOTED_RANDOM = re.compile(r"['\"](?=[A-Za-z+/=_\-]*[0-9])[A-Za-z0-9+/=_\-]{20,}['\"]")


@lru_cache(maxsize=1)
def _automata() -> tuple[ahocorasick_rs.AhoCorasick, ahocorasick_rs.AhoCorasick]:
    """Searchers for str text (character offsets)."""
    return ahocorasick_rs.AhoCorasick([*KEYWORDS, *NAMES]), ahocorasick_rs.AhoCorasick(
        [*TOKEN_PREFIXES, "://"]
    )


@lru_cache(maxsize=1)
def _byte_automata() -> tuple[ahocorasick_rs.BytesAhoCorasick, ahocorasick_rs.BytesAhoCorasick]:
    """Searchers for ASCII text as bytes (offsets equal; about twice as fast)."""
    return ahocorasick_rs.BytesAhoCorasick(
        [w.encode() for w in (*KEYWORDS, *NAMES)]
    ), ahocorasick_rs.BytesAhoCorasick([w.encode() for w in (*TOKEN_PREFIXES, "://")])


def _needle_hits(text: str) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """(needle, start, end) matches of the names in lower case and of the prefixes as written."""
    if text.isascii():
        raw = text.encode("ascii")
        keywords, prefixes = _byte_automata()
        return keywords.find_matches_as_indexes(raw.lower()), prefixes.find_matches_as_indexes(raw)
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters lower-case to two ("İ"): keep them
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    names, prefixes_str = _automata()
    return names.find_matches_as_indexes(lowered), prefixes_str.find_matches_as_indexes(text)


def tripped_lines(text: str) -> list[tuple[int, int, int]]:
    """(start, end, checks) of each line that may hold a secret, sorted; end excludes the
    newline; checks is a sum of Check bits."""
    lines: dict[int, tuple[int, int]] = {}
    name_hits, prefix_hits = _needle_hits(text)
    url, name = len(TOKEN_PREFIXES), len(KEYWORDS)
    for index, start, _ in name_hits:
        _add(lines, text, start, Check.NAME if index >= name else Check.KEYWORD)
    for index, start, _ in prefix_hits:
        _add(lines, text, start, Check.URL if index == url else Check.TOKEN)
    for match in _QUOTED_RANDOM.finditer(text):
        _add(lines, text, match.start(), Check.ENTROPY)
    return [(start, end, checks) for start, (end, checks) in sorted(lines.items())]


def _add(lines: dict[int, tuple[int, int]], text: str, at: int, check: int) -> int:
    """Mark the line holding position at; return the end of that line."""
    start = text.rfind("\n", 0, at) + 1
    known = lines.get(start)
    if known is not None:
        end, checks = known
    else:
        end, checks = text.find("\n", at), Check.NONE
        end = len(text) if end == -1 else end
    lines[start] = (end, checks | check)
    return end
