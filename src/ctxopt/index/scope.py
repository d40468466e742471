"""The scope of an index: the discovery options it was built with, kept in its commit marker.

`ctxopt index --exclude 'docs/**' --max-file-bytes 20000000` must not be undone by the
refresh before the next query, which runs without those flags: a setting that no layer
(flag, environment, config file) sets is taken from the index, as the embedder is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ctxopt.config.settings import Settings

SCOPE_FIELDS = ("include", "exclude", "max_file_bytes")


@dataclass(frozen=True)
class Scope:
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    max_file_bytes: int

    def to_json(self) -> dict[str, object]:
        return {
            "include": list(self.include),
            "exclude": list(self.exclude),
            "max_file_bytes": self.max_file_bytes,
        }

    @classmethod
    def from_json(cls, data: object) -> Scope:
        """Raises ValueError, KeyError or TypeError for anything but a written scope."""
        if not isinstance(data, dict):
            raise TypeError("scope is not an object")
        include, exclude = data["include"], data["exclude"]
        if not all(isinstance(p, str) for p in [*include, *exclude]):
            raise TypeError("scope patterns are not strings")
        return cls(tuple(include), tuple(exclude), int(data["max_file_bytes"]))


def scope_of(settings: Settings) -> Scope:
    return Scope(settings.include, settings.exclude, settings.max_file_bytes)


def with_stored_scope(settings: Settings, stored: Scope | None) -> Settings:
    """settings, with each scope field that no layer set taken from the stored scope."""
    if stored is None:
        return settings
    kept = {
        name: getattr(stored, name)
        for name in SCOPE_FIELDS
        if settings.source(name) == "default" and getattr(stored, name) != getattr(settings, name)
    }
    return replace(settings, **kept) if kept else settings  # type: ignore[arg-type]


RESET = "--reset-scope"  # the source of a scope field that a run resets to its layers' value


def without_stored_scope(settings: Settings) -> Settings:
    """settings whose scope no stored scope overrides: each field no layer set keeps its
    default, and the run that uses them stores that as the index's new scope."""
    sources = dict(settings.sources)
    for name in SCOPE_FIELDS:
        if settings.source(name) == "default":
            sources[name] = RESET
    return replace(settings, sources=tuple(sorted(sources.items())))
