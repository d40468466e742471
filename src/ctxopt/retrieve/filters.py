"""The values of the query filters --lang and --kind, checked and normalised."""

from __future__ import annotations

from collections.abc import Sequence

from ctxopt.errors import UsageError, Worded
from ctxopt.languages import KNOWN_LANGUAGES, language_name
from ctxopt.types import ChunkKind


def checked_languages(values: Sequence[str]) -> tuple[str, ...]:
    """Language names for --lang values given as names or extensions ("Python", "py");
    an unknown one is a usage error that lists the names."""
    names = []
    for text in values:
        name = language_name(text)
        if name is None:
            known = sorted(KNOWN_LANGUAGES)
            raise UsageError(_unknown("lang", text, "a language ctxopt knows", known))
        names.append(name)
    return tuple(dict.fromkeys(names))


def checked_kinds(values: Sequence[str]) -> tuple[str, ...]:
    """Chunk kinds for --kind values (any case); an unknown one is a usage error."""
    known = [kind.value for kind in ChunkKind]
    kinds = []
    for text in values:
        kind = text.strip().lower()
        if kind not in known:
            raise UsageError(_unknown("kind", text, "a chunk kind", known))
        kinds.append(kind)
    return tuple(dict.fromkeys(kinds))


def _unknown(option: str, text: str, what: str, known: Sequence[str]) -> Worded:
    """The message for a value that is not what the option takes, naming the option."""
    return lambda names: f"{names(option)} {text!r} is not {what}; use one of {', '.join(known)}"
