"""Which row of a chunk's indexed text each row of its shown (compressed) text is, so that
`--line-numbers` can number a chunk whose comments compression dropped."""

from __future__ import annotations

from ctxopt.languages.elision import marker_range

COMMENT_STARTS = ("#", "//", "/*", "--", ";", "%", "<!--", "'")  # a tail compression cut off


def shown_rows(original: str, shown: str, start_line: int = 1) -> tuple[int | None, ...] | None:
    """The 0-based row of original (whose first row is file line start_line) that each row of
    shown is, found in order (None for an elision marker, which stands for rows left out, so
    the next row is looked for after them); None when a row cannot be matched.  A
    shown row matches an original row with the same text once indentation is set aside
    (medium compression re-ranks it), or one it is the start of when what follows there is a
    comment (light compression cuts trailing comments)."""
    rows = original.split("\n")
    found: list[int | None] = []
    at = 0
    for row in shown.split("\n"):
        elided = marker_range(row)
        if elided is not None:
            found.append(None)
            at = max(at, elided[1] - start_line + 1)  # a `}` after it is not an earlier `}`
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
