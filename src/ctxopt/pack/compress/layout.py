"""Medium compression: light, then blank lines and trailing spaces dropped, indents re-ranked."""

from __future__ import annotations

from ctxopt.languages import by_name
from ctxopt.pack.compress.comments import light
from ctxopt.pack.compress.parsing import comment_rows, guarded, parse, string_rows, width

_INDENT_UNIT = 1


def relayout(text: str, language: str) -> str:
    """Blank lines and trailing whitespace dropped, indentation widths re-ranked.

    Lines that begin or end inside a string literal are never changed; YAML keeps its
    indentation.  The rank map is strictly increasing, so nesting is unchanged.
    """
    parsed = parse(text, language)
    in_comment = comment_rows(parsed, language)
    begins, ends = string_rows(parsed, language, in_comment)
    lines = text.split("\n")
    free = [i for i, ln in enumerate(lines) if i not in begins and ln.strip()]
    ranks: dict[int, int] = {}
    record = by_name(language)
    if record is None or not record.keeps_indentation:
        ranks = {w: r for r, w in enumerate(sorted({width(lines[i]) for i in free}))}
    out = []
    for i, line in enumerate(lines):
        if i in begins:
            head = in_comment.get(i)
            if ranks and head is not None and head not in begins:  # moved as its opening line
                before = width(lines[head])
                line = _dedented(line, before - ranks[before] * _INDENT_UNIT)
            out.append(line if i in ends else line.rstrip())
            continue
        if not line.strip():
            continue
        if i not in ends:
            line = line.rstrip()
        if ranks:
            line = " " * (ranks[width(line)] * _INDENT_UNIT) + line.lstrip(" \t")
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") and out else "")


def _dedented(line: str, columns: int) -> str:
    """line with up to `columns` of its leading spaces removed (a block comment's inner line
    moved left as far as its opening line was)."""
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, max(columns, 0)) :]


def medium(text: str, language: str) -> str:
    """Medium compression; falls back to light if the output parses worse or on any error."""
    lighter = light(text, language)
    try:
        out = relayout(lighter, language)
        return out if guarded(text, out, language) else lighter
    except Exception:
        return lighter


def plain_medium(text: str) -> str:
    """Medium for text without a grammar: trailing whitespace and blank runs dropped."""
    out: list[str] = []
    for line in text.split("\n"):
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out)
