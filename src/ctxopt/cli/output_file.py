"""`-o FILE` of `pack` and `analyze-doc` (and `stats --json-file`): the product written to a
file, its missing parent folders created; `-o -` is standard output."""

from __future__ import annotations

from pathlib import Path

from ctxopt.errors import CtxoptError, UsageError

STDOUT = "-"


def output_target(value: str | None) -> Path | None:
    """The file `-o value` names, or None for standard output (no -o, or `-o -`)."""
    if value is None or value == STDOUT:
        return None
    if not value.strip():
        raise UsageError("-o is empty: give a file name, or - for standard output")
    return Path(value)


def check_output_target(target: Path, flag: str = "-o") -> None:
    """Refuse, before any work, a target that cannot be written: a folder, or a path whose
    parent cannot be made (the folders are made now, as writing would make them)."""
    if target.is_dir():
        raise UsageError(f"{flag} {target} is a folder; give a file name")
    _make_parent(target, flag)


def write_output(target: Path, text: str) -> None:
    """Write text to target (UTF-8), creating missing parent folders; a target that cannot
    be written is one CtxoptError naming it and the reason."""
    _make_parent(target)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CtxoptError(f"cannot write -o {target}: {_reason(exc)}") from None


def _make_parent(target: Path, flag: str = "-o") -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        folder = exc.filename or target.parent
        reason = "a file is in the way" if isinstance(exc, FileExistsError) else _reason(exc)
        raise CtxoptError(
            f"cannot create the folder {folder} for {flag} {target}: {reason}"
        ) from None


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
