"""Stand-ins for sources a grammar cannot parse as written (pure).

A stand-in has the same bytes at the same offsets except for a few that are blanked or
replaced, and the same line breaks, so a tree parsed from it locates every declaration of
the original: the chunker reads names and text from the original source.

- C and C++: conditional compilation.  The grammars parse `#if`/`#else`/`#endif` as
  declarations, so a directive inside a statement or an expression, or branches that open
  a brace each, break the tree (`if (x)` `#ifdef FREE` ... `#else` ... `#endif` `else`).
  The stand-in keeps the first branch of each conditional and blanks the directive lines
  and the other branches, as a compiler with every condition true would see it.
- TypeScript: members of an interface or type literal written without separators, where
  a member starts with `<` or `(` (overloaded call signatures, one per line).  The grammar
  reads the line break as part of the previous type; the stand-in puts a `;` in the
  indentation before such a member.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_CONDITIONAL = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_OPENS = (b"if", b"ifdef", b"ifndef")
_CPLUSPLUS = re.compile(
    rb"[ \t]*#[ \t]*(ifdef[ \t]+__cplusplus|if[ \t]+defined[ \t(]*__cplusplus\b[ \t)]*)\s*$"
)
_SIGNATURE_START = re.compile(rb"[ \t]+[<(]")
_COMMENT = re.compile(rb"\s*(//|/\*|\*)")
_ENDS_TYPE = re.compile(rb"[\w>\])}]\s*$")


def stand_in(grammar: str, source: bytes) -> bytes | None:
    """The source as the grammar can parse it, or None when there is nothing to repair."""
    repair = _REPAIRS.get(grammar)
    if repair is None:
        return None
    repaired = repair(source)
    return repaired if repaired != source else None


def _blank(line: bytes) -> bytes:
    """The line with every byte but its line break replaced by a space."""
    body = line.rstrip(b"\r\n")
    return b" " * len(body) + line[len(body) :]


def first_branches(source: bytes, *, cplusplus: bool = True) -> bytes:
    """C preprocessor conditionals reduced to their first branch (see the module doc); with
    cplusplus False a test of `__cplusplus` alone is false (a C compiler's view), so C
    headers lose their `extern "C" {` wrapper instead of keeping half of it."""
    out: list[bytes] = []
    live: list[bool] = []  # per open conditional: whether the branch being read is kept
    taken: list[bool] = []  # per open conditional: whether a branch was kept already
    continued = False  # the previous line was a directive ending in a backslash
    for line in source.splitlines(keepends=True):
        if continued:
            continued = line.rstrip(b"\r\n").endswith(b"\\")
            out.append(_blank(line))
            continue
        found = _CONDITIONAL.match(line)
        if found is None:
            out.append(line if all(live) else _blank(line))
            continue
        word = found.group(1)
        if word in _OPENS:
            kept = cplusplus or not _CPLUSPLUS.match(line)
            live.append(kept)
            taken.append(kept)
        elif word == b"endif":
            if live:
                live.pop()
                taken.pop()
        elif live:  # elif / else: the first branch kept wins
            live[-1] = not taken[-1]
            taken[-1] = True
        continued = line.rstrip(b"\r\n").endswith(b"\\")
        out.append(_blank(line))
    return b"".join(out)


def separated_signatures(source: bytes) -> bytes:
    """A `;` before each member that starts a line with `<` or `(` right after a line that
    ends a type (see the module doc)."""
    out: list[bytes] = []
    previous = b""  # the last line that is neither blank nor a comment
    for line in source.splitlines(keepends=True):
        start = _SIGNATURE_START.match(line)
        if start is not None and _ENDS_TYPE.search(previous):
            at = start.end() - 2  # the blank right before `<` or `(`
            line = line[:at] + b";" + line[at + 1 :]
        if line.strip() and not _COMMENT.match(line):
            previous = line
        out.append(line)
    return b"".join(out)


_REPAIRS: dict[str, Callable[[bytes], bytes]] = {
    "c": lambda source: first_branches(source, cplusplus=False),
    "cpp": first_branches,
    "typescript": separated_signatures,
}
