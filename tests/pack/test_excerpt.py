from ctxopt.pack.content import excerpt_content, make_renderer
from ctxopt.pack.select import SelectOptions, excerpt_lines, select
from ctxopt.types import Chunk, ChunkKind, Fidelity, ScoredChunk, StepReason


def long_function(start: int = 10, body_lines: int = 120) -> Chunk:
    rows = ["def handle(request):"]
    rows += [f"    step_{i} = prepare(step_{i - 1})" for i in range(1, body_lines)]
    rows[70] = "    retry_delay = backoff(attempt)  # the line the task is about"
    text = "\n".join(rows)
    return Chunk(
        id="app.py:handle", path="app.py", language="python", kind=ChunkKind.FUNCTION,
        name="handle", qualified_name="handle", signature="def handle(request):",
        docstring="", start_line=start, end_line=start + len(rows) - 1, text=text,
        tokens=12 * len(rows), content_hash="h",
    )  # fmt: skip


def hit_with_focus(chunk: Chunk, focus: tuple[int, int] | None) -> ScoredChunk:
    return ScoredChunk(chunk, 0.9, {}, (), {"symbol": 0.0}, focus)


def test_excerpt_shows_the_focus_lines_under_the_signature_with_markers() -> None:
    chunk = long_function()
    text = excerpt_content(chunk, (60, 100), "none")
    lines = text.split("\n")
    assert lines[0] == "def handle(request):"
    assert "lines 11-59 elided" in lines[1]
    assert "retry_delay = backoff(attempt)" in text
    assert "lines 101-129 elided" in lines[-1]
    assert "step_5 " not in text  # before the focus lines


def test_an_excerpt_needs_focus_lines_that_save_enough() -> None:
    chunk = long_function()
    assert excerpt_lines(hit_with_focus(chunk, None)) is None
    assert excerpt_lines(hit_with_focus(chunk, (12, 125))) is None  # barely shorter
    assert excerpt_lines(hit_with_focus(chunk, (60, 100))) == (60, 100)


def test_a_chunk_too_big_for_the_budget_comes_in_as_its_excerpt() -> None:
    chunk = long_function()
    hit = hit_with_focus(chunk, (60, 100))
    render = make_renderer("none")
    full_cost = render(chunk, Fidelity.FULL)[1]
    excerpt_cost = render(chunk, Fidelity.EXCERPT, (60, 100))[1]
    assert excerpt_cost < full_cost
    selection = select([hit], SelectOptions(budget=excerpt_cost + 40), render)
    (choice,) = selection.chosen
    assert choice.fidelity == Fidelity.EXCERPT
    assert (choice.start_line, choice.end_line) == (60, 100)
    assert "retry_delay" in choice.content
    assert selection.spent <= excerpt_cost + 40


def test_without_focus_lines_a_big_chunk_steps_down_to_its_signature() -> None:
    chunk = long_function()
    render = make_renderer("none")
    selection = select([hit_with_focus(chunk, None)], SelectOptions(budget=300), render)
    (choice,) = selection.chosen
    assert choice.fidelity == Fidelity.SIGNATURE


def filler(name: str, tokens: int, score: float) -> ScoredChunk:
    chunk = Chunk(
        id=f"{name}.py:f", path=f"{name}.py", language="python", kind=ChunkKind.FUNCTION,
        name=name, qualified_name=name, signature=f"def {name}():", docstring="",
        start_line=1, end_line=3, text=f"def {name}():\n    x = 1\n    return x",
        tokens=tokens, content_hash=name,
    )  # fmt: skip
    return ScoredChunk(chunk, score, {}, (), {"symbol": 0.0})


def fake_render(chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None):  # type: ignore[no-untyped-def]
    if fidelity == Fidelity.EXCERPT and lines is not None:
        share = (lines[1] - lines[0] + 1) / (chunk.end_line - chunk.start_line + 1)
        return "excerpt", int(chunk.tokens * share) + 12
    if fidelity == Fidelity.FULL:
        return "full", chunk.tokens + 12
    return "sig", 20


def test_a_long_chunk_competes_as_its_excerpt_when_room_is_short() -> None:
    # 1,440 tokens, its excerpt about 480: it goes in before cheaper weaker chunks that
    # would otherwise leave it room for its signature only
    long_hit = ScoredChunk(long_function(), 0.6, {}, (), {"symbol": 0.0}, (60, 100))
    leads = [filler(f"lead{i}", 100, 0.9) for i in range(5)]
    others = [filler(f"f{i}", 300, 0.45) for i in range(6)]
    hits = [*leads, long_hit, *others]
    chosen = select(hits, SelectOptions(budget=2000), fake_render).chosen
    by_name = {c.hit.chunk.name: c for c in chosen}
    assert by_name["handle"].fidelity == Fidelity.EXCERPT
    assert by_name["handle"].lines == (60, 100)
    assert by_name["handle"].stepped is StepReason.LONG_CHUNK


def test_an_excerpt_is_widened_to_the_whole_chunk_when_room_is_left() -> None:
    long_hit = ScoredChunk(long_function(), 0.5, {}, (), {"symbol": 0.0}, (60, 100))
    chosen = select([long_hit], SelectOptions(budget=8000), fake_render).chosen
    assert [c.fidelity for c in chosen] == [Fidelity.FULL]
