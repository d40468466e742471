"""Write `[REDACTED:<kind>]` in place of each finding, keeping every other character."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ctxopt.secrets.findings import SecretFinding, merged


def redact(text: str, findings: Iterable[SecretFinding], *, keep_lines: bool = False) -> str:
    """text with each finding's span replaced by its label.  Findings may come in any order
    and overlap (they are merged first); spans outside the text are clipped to it.  With
    keep_lines, each label is followed by as many line breaks as its finding held, so the
    text keeps its line count (line numbers and excerpts stay right)."""
    size = len(text)
    clipped = (
        SecretFinding(max(0, min(f.start, size)), max(0, min(f.end, size)), f.kind)
        for f in findings
    )
    parts: list[str] = []
    at = 0
    for found in merged(clipped):
        parts.append(text[at : found.start])
        breaks = text.count("\n", found.start, found.end) if keep_lines else 0
        parts.append(found.label + "\n" * breaks)
        at = found.end
    parts.append(text[at:])
    return "".join(parts)


def redact_text(text: str) -> str:
    """Find the secrets of text and redact them in one call."""
    from ctxopt.secrets.detect import find_secrets

    return redact(text, find_secrets(text))


_DIFF_MARK = re.compile(r"^[+-]", re.M)


def redact_diff(diff: str) -> str:
    """redact_text for a unified diff: each line is read as the code it holds, without the
    `+` or `-` in front (`+export DB_PASSWORD=x` is `export DB_PASSWORD=x`, a line-anchored
    .env assignment); the offsets stay the same, so the marks are kept in the output."""
    from ctxopt.secrets.detect import find_secrets

    return redact(diff, find_secrets(_DIFF_MARK.sub(" ", diff)))
