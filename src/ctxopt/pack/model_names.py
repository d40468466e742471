"""Finding a model of the table by the name a user types: exact names and aliases in any
case, then the same with separators ignored (`gpt4o`, `claude-sonnet-4.5`), then a unique
prefix; otherwise a one-line error listing every model the name could mean."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Protocol

from ctxopt.errors import UsageError

_SEPARATORS = re.compile(r"[\s._:/-]+")
MAX_SUGGESTIONS = 8
SUGGEST_CUTOFF = 0.6  # 0.5 offered `opus` for "nope" (two letters in common)


class Named(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...


def squash(name: str) -> str:
    """A name in lower case without separators: `GPT-4o` and `gpt4o` squash alike."""
    return _SEPARATORS.sub("", name.strip().lower())


def _keys(models: Iterable[Named], fold: bool) -> dict[str, set[str]]:
    """Each key (a name or alias, lowered or squashed) -> the names of the models it means."""
    keys: dict[str, set[str]] = {}
    for model in models:
        for key in (model.name, *model.aliases):
            folded = squash(key) if fold else key.strip().lower()
            keys.setdefault(folded, set()).add(model.name)
    return keys


def match_model_name(wanted: str, models: Mapping[str, Named], hint: str = "") -> str:
    """The table name wanted means; UsageError naming every candidate when it is ambiguous
    or unknown (hint: how to add a model, appended to the unknown-model message)."""
    for fold, text in ((False, wanted.strip().lower()), (True, squash(wanted))):
        exact = _keys(models.values(), fold).get(text)
        if exact is not None and len(exact) == 1:
            return next(iter(exact))
    squashed = squash(wanted)
    keys = _keys(models.values(), True)
    starts = sorted({n for key, names in keys.items() if squashed and key.startswith(squashed)
                     for n in names})  # fmt: skip
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise UsageError(
            lambda names: (
                f"model {wanted!r} is ambiguous: it could be {', '.join(starts)}; "
                f"give one of these as {names('model')}"
            )
        )
    close = difflib.get_close_matches(squashed, list(keys), n=len(keys), cutoff=SUGGEST_CUTOFF)
    names = list(dict.fromkeys(n for key in close for n in sorted(keys[key])))
    names += [n for n in sorted(models) if squashed and squashed in squash(n) and n not in names]
    shown = names[:MAX_SUGGESTIONS]
    suggestion = f"; close names: {', '.join(shown)}" if shown else ""
    raise UsageError(f"unknown model {wanted!r}{suggestion}{hint}")
