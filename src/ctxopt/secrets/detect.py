"""find_secrets: where the secrets of a text are, and of which kind.

Fast path first: plain substring searches find the lines that may hold a secret and the
checks each needs (`trigger`); only those lines go to detect-secrets' plugins and
ctxopt's own patterns (`plugins`, `patterns`).  Most lines of code trip nothing, which
keeps an index-time scan cheap.  Private key blocks span lines and are looked for in the
whole text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ctxopt.secrets import patterns, plugins
from ctxopt.secrets.findings import SecretFinding, merged
from ctxopt.secrets.trigger import Check, tripped_lines

# every keyword and assignment rule needs one of these after the name
_ASSIGNS = re.compile(r"[=:(]")


def find_secrets(text: str) -> tuple[SecretFinding, ...]:
    """The secrets of text as sorted, non-overlapping spans (character offsets in text)."""
    found: list[SecretFinding] = []
    if "PRIVATE KEY" in text:
        found.extend(patterns.private_key_blocks(text))
    for start, end, checks in tripped_lines(text):
        line = text[start:end].rstrip("\r")
        for finding in _line_findings(line, checks):
            found.append(SecretFinding(finding.start + start, finding.end + start, finding.kind))
    return merged(found)


def _line_findings(line: str, checks: int) -> Iterator[SecretFinding]:
    if checks & Check.TOKEN:
        yield from patterns.tokens(line)
        yield from plugins.regex_findings(line)
    if checks & (Check.URL | Check.KEYWORD | Check.NAME):
        yield from patterns.url_passwords(line)
    if checks & (Check.KEYWORD | Check.NAME) and _ASSIGNS.search(line):
        yield from patterns.aws_secret_keys(line)
        yield from patterns.assignments(line)
        if checks & Check.KEYWORD:
            yield from plugins.keyword_findings(line)
    if checks & Check.ENTROPY:
        yield from plugins.entropy_findings(line)
