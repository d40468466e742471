"""Stand-ins for sources a grammar cannot parse as written (pure).

A stand-in has the same bytes at the same offsets except for a few that are blanked or
replaced, and the same line breaks, so a tree parsed from it locates every declaration of
the original: the chunker reads names and text from the original source.

- C and C++: conditional compilation.  The grammars parse `#if`/`#else`/`#endif` as
  declarations, so a directive inside a statement or an expression, or branches that open
  a brace each, break the tree (`if (x)` `#ifdef FREE` ... `#else` ... `#endif` `else`).
  The stand-in keeps one branch of each conditional, its longest, and blanks the directive
  lines and the other branches: a compiler with every condition true would see the first,
  but a file's main code is often its second branch (`#if TARGET_OS_IPHONE` stubs, then
  `#else` the whole macOS implementation), and what is blanked is chunked as lines.
- C and C++: a macro alone on its line.  `NLOHMANN_JSON_NAMESPACE_BEGIN` (which opens two
  namespaces), `NLOHMANN_BASIC_JSON_TPL_DECLARATION` (a `template<...>` head) before a
  member or `JSON_PRIVATE_UNLESS_TESTED:` (an access specifier) reads as a stray expression
  or label and takes the class with it.  A line that holds only an upper-case name with an
  underscore, perhaps followed by a colon, is blanked (a label blanked this way leaves its
  function's tree intact).  Such a name called on one line with no `;` or brace, as
  attribute macros are written over a declaration (`JSON_HEDLEY_NON_NULL(3)`,
  `JSON_HEDLEY_DEPRECATED_FOR(3.11.0, to_string())`), becomes an attribute of the same
  length (`[[_____]]`) when the next line of code starts a declaration; the grammars attach
  it to that declaration, so the definition's chunk still starts at its attribute line.
  When the next line of code opens a body with `{`, the call is the declaration and stays
  (`TEST(Pool, Drain)`); before anything else (a `case`, an enum member: an X-macro list such
  as `UV_ERRNO_MAP(XX)`) it is blanked.
- C#: the same conditional compilation (`#if NET6_0_OR_GREATER` around one of two
  method headers), reduced the same way.
- TypeScript: members of an interface or type literal written without separators, where
  a member starts with `<` or `(` (overloaded call signatures, one per line).  The grammar
  reads the line break as part of the previous type; the stand-in puts a `;` in the
  indentation before such a member.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate

_CONDITIONAL = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_OPENS = (b"if", b"ifdef", b"ifndef")
_CPLUSPLUS = re.compile(
    rb"[ \t]*#[ \t]*(ifdef[ \t]+__cplusplus|if[ \t]+defined[ \t(]*__cplusplus\b[ \t)]*)\s*$"
)
_LONE_MACRO = re.compile(rb"[ \t]*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[ \t]*:?[ \t]*(?://.*)?")
_MACRO_LINE_START = re.compile(rb"^[ \t]*[A-Z][A-Z0-9]*_", re.MULTILINE)  # candidates only
_MACRO_HEAD = re.compile(rb"[ \t]*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[ \t]*\(")
_DECLARATION_START = re.compile(  # `static int f(`, `friend bool operator==(`, `template<`
    rb"\s*(?!(?:case|default|return|goto|else|do|if|while|for|switch|break|continue|throw|delete"
    rb"|using|namespace|public|private|protected)\b)"
    rb"(?:template\s*<|[A-Za-z_][\w:]*(?:<[^;]*>)?[\s*&]+[~A-Za-z_*&(])"
)
_LOOK_AHEAD = 300  # bytes of the next line read for a declaration's start
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


def longest_branches(source: bytes, *, cplusplus: bool = True) -> bytes:
    """C preprocessor conditionals reduced to their longest branch (the first of equals; see
    the module doc); with cplusplus False a test of `__cplusplus` alone is false (a C
    compiler's view), so C headers lose their `extern "C" {` wrapper instead of keeping half
    of it.  One pass: each conditional, once its `#endif` is read, blanks its other branches
    (a conditional nested in one of them goes with it), and every directive line is blanked."""
    lines = source.splitlines(keepends=True)
    hidden = [False] * len(lines)
    open_: list[tuple[list[int], bool]] = []  # per open conditional: branch starts, C++ test
    for at, word in _directives(lines):
        if word is None:
            continue
        hidden[at] = True  # a directive, or a directive's continuation line (b"")
        if word in _OPENS:
            open_.append(([at], not cplusplus and bool(_CPLUSPLUS.match(lines[at]))))
        elif word == b"endif":
            if open_:
                _hide_all_but_longest(*open_.pop(), end=at, hidden=hidden)
        elif word and open_:  # elif / else: the next branch of the innermost conditional
            open_[-1][0].append(at)
    while open_:  # unclosed at the end of the file
        _hide_all_but_longest(*open_.pop(), end=len(lines), hidden=hidden)
    return b"".join(_blank(line) if h else line for line, h in zip(lines, hidden, strict=True))


def _directives(lines: list[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """Each line's index with its conditional directive's word (`if`, `else`, ...), or None
    for any other line; a directive continued with a backslash counts as a directive, its
    continuation lines as b"" (blanked, never kept)."""
    continued = False  # the previous line was a directive ending in a backslash
    for at, line in enumerate(lines):
        if continued:
            continued = line.rstrip(b"\r\n").endswith(b"\\")
            yield at, b""
            continue
        found = _CONDITIONAL.match(line)
        if found is None:
            yield at, None
            continue
        continued = line.rstrip(b"\r\n").endswith(b"\\")
        yield at, found.group(1)


def _hide_all_but_longest(
    starts: list[int], cplusplus_test: bool, *, end: int, hidden: list[bool]
) -> None:
    """Hide every branch of one conditional (`#else` and `#elif` start branches) but its
    longest, the first of equals.  In the source a fix reads, the code of a platform is often
    the second branch (`#if TARGET_OS_IPHONE` stubs, then `#else` the whole macOS
    implementation): keeping the first made it line windows.  A false `__cplusplus` test is
    never kept (with nothing else, nothing is)."""
    bounds = list(zip(starts, [*starts[1:], end], strict=True))
    candidates = range(1 if cplusplus_test else 0, len(bounds))
    keep = max(candidates, key=lambda n: (bounds[n][1] - bounds[n][0], -n), default=None)
    for number, (start, stop) in enumerate(bounds):
        if number != keep:
            hidden[start:stop] = [True] * (stop - start)


def without_lone_macros(source: bytes) -> bytes:
    """Each line that is only an upper-case macro name blanked, and each such macro called
    over a declaration turned into an attribute (see the module doc)."""
    found = [match.start() for match in _MACRO_LINE_START.finditer(source)]
    if not found:
        return source
    lines = source.splitlines(keepends=True)
    starts = list(accumulate((len(line) for line in lines), initial=0))
    for at in sorted({bisect_right(starts, offset) - 1 for offset in found}):
        line = lines[at]
        body = line.rstrip(b"\r\n")
        if _LONE_MACRO.fullmatch(body):
            lines[at] = _blank(line)
        elif _macro_call(body):
            lines[at] = _macro_call_stand_in(line, _next_code(lines, at))
    return b"".join(lines)


def _as_attribute(line: bytes) -> bytes:
    """`  MACRO(x)  // note` as `  [[______________]]`: the same length, an attribute."""
    body = line.rstrip(b"\r\n")
    indent = len(body) - len(body.lstrip())
    return body[:indent] + b"[[" + b"_" * (len(body) - indent - 4) + b"]]" + line[len(body) :]


def _macro_call(body: bytes) -> bool:
    """An upper-case macro called alone on its line: no `;` or brace, parentheses balanced."""
    if b";" in body or b"{" in body or b"}" in body or not _MACRO_HEAD.match(body):
        return False
    code = body.split(b"//")[0].rstrip()
    return code.endswith(b")") and code.count(b"(") == code.count(b")")


def _macro_call_stand_in(line: bytes, following: bytes) -> bytes:
    """A macro call alone on its line (see the module doc), given the next line of code:
    kept when that line opens its body, an attribute over a declaration, else blanked."""
    if following.lstrip().startswith(b"{"):
        return line
    if _DECLARATION_START.match(following[:_LOOK_AHEAD]):
        return _as_attribute(line)
    return _blank(line)


def _next_code(lines: list[bytes], at: int) -> bytes:
    """The first line after `at` that is neither blank nor a comment (b"" at the end)."""
    return next(
        (line for line in lines[at + 1 :] if line.strip() and not _COMMENT.match(line)), b""
    )


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
    "c": lambda source: longest_branches(without_lone_macros(source), cplusplus=False),
    "cpp": lambda source: longest_branches(without_lone_macros(source)),
    "csharp": longest_branches,
    "typescript": separated_signatures,
}
