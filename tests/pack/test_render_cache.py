"""Renderings kept across calls: the same content and cost as rendering afresh, and a
chunk whose text changed (an edit, or a redaction that keeps its content hash) is
rendered anew."""

from __future__ import annotations

from dataclasses import replace

from ctxopt.pack.content import make_renderer, rendered
from ctxopt.pack.render_cache import RENDERS
from ctxopt.types import Chunk, ChunkKind, Fidelity

LEVELS = ("none", "light", "medium", "aggressive")
FIDELITIES = (Fidelity.FULL, Fidelity.SIGNATURE, Fidelity.STUB, Fidelity.PATH)


def function(body: str = "return secret_token", start: int = 10) -> Chunk:
    text = (
        "def handle(request):\n"
        '    """Answer one request."""\n'
        "    # look the user up\n"
        f"    user = find(request)\n    {body}\n"
    )
    return Chunk(
        id="app.py:handle", path="app.py", language="python", kind=ChunkKind.FUNCTION,
        name="handle", qualified_name="handle", signature="def handle(request):",
        docstring="Answer one request.", start_line=start, end_line=start + 4, text=text,
        tokens=30, content_hash="same",
    )  # fmt: skip


def test_cached_renderings_equal_fresh_ones() -> None:
    RENDERS.clear()
    chunk = function()
    for level in LEVELS:
        render = make_renderer(level)  # type: ignore[arg-type]
        for fidelity in FIDELITIES:
            first = render(chunk, fidelity)
            assert first == rendered(chunk, fidelity, level)  # type: ignore[arg-type]
            assert make_renderer(level)(chunk, fidelity) == first  # type: ignore[arg-type]
        excerpt = render(chunk, Fidelity.EXCERPT, (13, 14))
        assert excerpt == rendered(chunk, Fidelity.EXCERPT, level, (13, 14))  # type: ignore[arg-type]
    assert RENDERS.hits >= len(LEVELS) * len(FIDELITIES)


def test_a_changed_text_is_rendered_anew_whatever_its_id_and_hash() -> None:
    render = make_renderer("none")
    before = render(function(), Fidelity.FULL)[0]
    assert "return secret_token" in before
    redacted = replace(function(), text=function().text.replace("secret_token", "[REDACTED]"))
    after = render(redacted, Fidelity.FULL)[0]
    assert "[REDACTED]" in after and "secret_token" not in after
    edited = render(function("return None"), Fidelity.FULL)[0]
    assert "return None" in edited
    moved = render(function(start=40), Fidelity.FULL)
    assert moved == rendered(function(start=40), Fidelity.FULL, "none")
