"""Which row of a chunk's indexed text each row of its shown (compressed) text is, so that
`--line-numbers` can number a chunk whose comments compression dropped."""

from __future__ import annotations

from ctxopt.languages.elision import marker_range

COMMENT_STARTS = ("#", "//", "/*", "--", ";", "%", "<!--", "'")  # a tail compression cut off


def shown_rows(original: str, shown: str) -> tuple[int | None, ...] | None:
    """The 0-based row of original that each row of shown is, found in order (None for an
    elision marker, which stands for rows left out); None when a row cannot be matched.  A
    shown row matches an original row with the same text once indentation is set aside
    (medium compression re-ranks it), or one it is the start of when what follows there is a
    comment (light compression cuts trailing comments)."""
    rows = original.split("\n")
    found: list[int | None] = []
    at = 0
    for row in shown.split("\n"):
        if marker_range(row) is not None:
            found.append(None)
            continue
        wanted = row.strip()
        while at < len(rows) and not _same_row(rows[at].strip(), wanted):
            at += 1
        if at == len(rows):
            return None
        found.append(at)
        at += 1
    return tuple(found)


def _same_row(have: str, wanted: str) -> bool:
    if have == wanted:
        return True
    return (
        bool(wanted)
        and have.startswith(wanted)
        and have[len(wanted) :].lstrip().startswith(COMMENT_STARTS)
    )
