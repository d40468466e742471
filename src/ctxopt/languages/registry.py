"""Every language record, and the lookups by name, extension and path."""

from __future__ import annotations

from pathlib import PurePosixPath

from ctxopt.languages import data, managed, script, systems, web
from ctxopt.languages.record import Family, Language

ALL: tuple[Language, ...] = (
    *script.LANGUAGES,
    *web.LANGUAGES,
    *systems.LANGUAGES,
    *managed.LANGUAGES,
    *data.LANGUAGES,
)
TEXT = data.TEXT  # files of no known language

_BY_NAME = {language.name: language for language in ALL}
_BY_EXTENSION = {ext: language for language in ALL for ext in language.extensions}
_BY_FILENAME = {name: language for language in ALL for name in language.filenames}

KNOWN_LANGUAGES = frozenset(_BY_NAME)
GRAMMAR_LANGUAGES = frozenset(language.name for language in ALL if language.grammar)
CONFIG_LANGUAGES = frozenset(language.name for language in ALL if language.family is Family.CONFIG)


def by_name(name: str) -> Language | None:
    """The record of a language name ("python"), or None."""
    return _BY_NAME.get(name)


def by_extension(extension: str) -> Language | None:
    """The record of a file extension (".py", any case), or None."""
    return _BY_EXTENSION.get(extension.lower())


def is_special_filename(name: str) -> bool:
    """True when a file name alone decides the language (`Makefile`, `Gemfile`)."""
    return name in _BY_FILENAME


def for_path(path: str) -> Language:
    """The record for a repo-relative path; the plain-text record when unknown."""
    name = PurePosixPath(path).name
    if name in _BY_FILENAME:
        return _BY_FILENAME[name]
    return _BY_EXTENSION.get(PurePosixPath(name).suffix.lower(), TEXT)


def detect_language(path: str) -> str:
    """Language name for a repo-relative path; "text" when unknown."""
    return for_path(path).name


def language_name(text: str) -> str | None:
    """The language a user means by a name or an extension ("Python", "py", ".rs"), or None."""
    lowered = text.strip().lower()
    if lowered in KNOWN_LANGUAGES:
        return lowered
    found = _BY_EXTENSION.get(lowered if lowered.startswith(".") else f".{lowered}")
    return found.name if found is not None else None


def named_in_task(word: str) -> Language | None:
    """The language a lower-case task word names ("python", "golang", "c++"), or None."""
    return _BY_TASK_WORD.get(word)


_BY_TASK_WORD = {word: language for language in ALL for word in language.task_words}
