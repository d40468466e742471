from ctxopt.chunking import chunk_file
from ctxopt.pack.content import chunk_content, excerpt_content, make_renderer
from ctxopt.pack.select import SelectOptions, excerpt_lines, select
from ctxopt.types import Chunk, ChunkKind, Fidelity, ScoredChunk
from helpers import ruby_plugin_source


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


def _ruby_plugin_guide() -> list[Chunk]:
    chunks = chunk_file("lib/app/assets.rb", ruby_plugin_source(30, 80), "ruby").chunks
    return [c for c in chunks if c.kind is ChunkKind.DOC]


def test_a_code_files_documentation_chunk_is_shown_whole_and_in_excerpts() -> None:
    """A long comment chunked as documentation is what it shows: compression that drops
    comments (light, the default) must not leave it empty."""
    (doc,) = _ruby_plugin_guide()
    for level in ("light", "medium", "aggressive"):
        whole = chunk_content(doc, Fidelity.FULL, level)
        assert "# Step 12: pass option :opt_12 to +r.assets+." in whole
        assert "# Step 29:" in whole
    part = excerpt_content(doc, (doc.start_line + 10, doc.start_line + 14), "light")
    assert "# Step 12: pass option :opt_12" in part and "# Step 20:" not in part
    code = chunk_file("lib/app/x.rb", "# a note\nX = 1\n", "ruby").chunks[0]
    assert "# a note" not in chunk_content(code, Fidelity.FULL, "light")  # code still loses them
