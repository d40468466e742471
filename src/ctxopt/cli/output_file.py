"""`pack -o FILE`: the prompt written to a file, its missing parent folders created."""

from __future__ import annotations

from pathlib import Path

from ctxopt.errors import CtxoptError


def write_output(target: Path, text: str) -> None:
    """Write text to target (UTF-8), creating missing parent folders; a target that cannot
    be written is one CtxoptError naming it and the reason."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        folder = exc.filename or target.parent
        raise CtxoptError(
            f"cannot create the folder {folder} for -o {target}: {_reason(exc)}"
        ) from None
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CtxoptError(f"cannot write -o {target}: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
