"""Which indexed file a path from another machine names: the one sharing its longest tail.

An installed copy's traceback names `/usr/lib/python3.12/site-packages/click/types.py`, the
repository holds `src/click/types.py`: neither is a tail of the other, yet they share
`click/types.py`, which no other indexed file ends with.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

MIN_TAIL = 2  # a package folder and a file name (`click/types.py`); a file name alone is vague


def _parts(path: str) -> list[str]:
    return [part for part in path.split("/") if part]


def _common_tail(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def tail_matches(mentions: Iterable[str], indexed: Collection[str]) -> dict[str, str]:
    """mention -> the one indexed path sharing its longest tail of MIN_TAIL parts or more,
    for the mentions no indexed path is a tail of (or the tail of: same_file matches those);
    a mention two indexed files share that tail with names neither."""
    wanted = [m for m in dict.fromkeys(mentions) if len(_parts(m)) >= MIN_TAIL]
    if not wanted:
        return {}  # most tasks name no path: no pass over the indexed files
    names = {_parts(m)[-1] for m in wanted}
    by_name: dict[str, list[list[str]]] = {}
    for path in indexed:  # one pass: a mention is compared with the files of its name only
        if path.rpartition("/")[2] in names:
            parts = _parts(path)
            by_name.setdefault(parts[-1], []).append(parts)
    found: dict[str, str] = {}
    for mention in wanted:
        parts = _parts(mention)
        best, at = 0, []
        for other in by_name.get(parts[-1], ()):
            n = _common_tail(parts, other)
            if n in (len(parts), len(other)):  # one is a tail of the other: same_file's match
                break
            if n > best:
                best, at = n, [other]
            elif n == best:
                at.append(other)
        else:
            if best >= MIN_TAIL and len(at) == 1:
                found[mention] = "/".join(at[0])
    return found
