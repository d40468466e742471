"""The values of the query filters --lang and --kind, checked and normalised."""

from __future__ import annotations

from collections.abc import Sequence

from ctxopt.errors import UsageError
from ctxopt.languages import KNOWN_LANGUAGES, language_name
from ctxopt.types import ChunkKind


def checked_languages(values: Sequence[str]) -> tuple[str, ...]:
    """Language names for --lang values given as names or extensions ("Python", "py");
    an unknown one is a usage error that lists the names."""
    names = []
    for text in values:
        name = language_name(text)
        if name is None:
            known = ", ".join(sorted(KNOWN_LANGUAGES))
            raise UsageError(f"--lang {text!r} is not a language ctxopt knows; use one of {known}")
        names.append(name)
    return tuple(dict.fromkeys(names))


def checked_kinds(values: Sequence[str]) -> tuple[str, ...]:
    """Chunk kinds for --kind values (any case); an unknown one is a usage error."""
    known = [kind.value for kind in ChunkKind]
    kinds = []
    for text in values:
        kind = text.strip().lower()
        if kind not in known:
            raise UsageError(f"--kind {text!r} is not a chunk kind; use one of {', '.join(known)}")
        kinds.append(kind)
    return tuple(dict.fromkeys(kinds))
