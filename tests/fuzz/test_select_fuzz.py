"""Budget selection over chunks of generated and mutated files (hypothesis): selection,
compression, rendering and fitting as a pack runs them; the prompt, counted as rendered,
never exceeds the budget, and every entry shows a valid line range of its file."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import assume, event, given
from hypothesis import strategies as st

from ctxopt import tokens
from ctxopt.chunking import chunk_file, source_lines
from ctxopt.pack.compress import LEVELS
from ctxopt.pack.content import make_renderer
from ctxopt.pack.fit import Fitting, fit_prompt
from ctxopt.pack.render import FORMATS, RenderInput, render
from ctxopt.pack.select import SelectOptions, select
from ctxopt.pack.work_tree import WorkTree
from ctxopt.types import Choice, Chunk, Fidelity, ScoredChunk
from fuzzsource import EXTENSIONS, fuzz_settings, sources


@dataclass(frozen=True)
class Pack:
    room: int  # the budget less the headers' tokens (below 1: the pack is refused)
    format: str
    level: str
    order: str
    line_numbers: bool
    cap: int


packs = st.builds(
    Pack,
    room=st.integers(-20, 5_000),
    format=st.sampled_from(FORMATS),
    level=st.sampled_from(LEVELS),
    order=st.sampled_from(["relevance", "edges"]),
    line_numbers=st.booleans(),
    cap=st.integers(1, 8),
)


@st.composite
def scored(draw: st.DrawFn, chunk: Chunk) -> ScoredChunk:
    """A ranked hit as retrieval hands it over: a score, sometimes named by the task,
    sometimes mandatory, sometimes with the lines the task's words gather in."""
    features = {
        "symbol": draw(st.sampled_from([0.0, 0.0, 0.9])),
        "proximity": draw(st.sampled_from([0.0, 0.0, 1.0])),
    }
    focus = None
    if draw(st.booleans()):
        first = draw(st.integers(chunk.start_line, chunk.end_line))
        focus = (first, draw(st.integers(first, chunk.end_line)))
    return ScoredChunk(
        chunk,
        draw(st.floats(0.0, 1.0, allow_nan=False)),
        {},
        ("fuzz",),
        features,
        focus_lines=focus,
        mandatory=draw(st.integers(0, 9)) == 0,
    )


@fuzz_settings(70)
@given(st.lists(sources(), min_size=1, max_size=4), packs, st.data())
def test_a_pack_never_exceeds_its_budget(
    files: list[tuple[str, str]], pack: Pack, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        chunks: list[Chunk] = []
        for number, (language, text) in enumerate(files):
            path = f"src/file_{number}{EXTENSIONS[language]}"
            (root / "src").mkdir(exist_ok=True)
            (root / path).write_text(text, encoding="utf-8", newline="")
            chunks += chunk_file(path, text, language).chunks
        assume(chunks)
        hits = [data.draw(scored(chunk)) for chunk in chunks]
        hits.sort(key=lambda h: -h.score)
        prompt, chosen, budget = run_pack(root, hits, pack)
        if prompt is None:
            event("refused: the headers alone exceed the budget")
            return  # the budget cannot hold the headers: the pack refuses (BudgetError)
        used = tokens.count(prompt)
        assert used <= budget
        event("budget nearly full" if used > 0.8 * budget else "budget not binding")
        assert len({c.hit.chunk.id for c in chosen}) == len(chosen)
        for choice in chosen:
            chunk = choice.hit.chunk
            lines = source_lines(root / chunk.path)
            assert lines is not None
            assert 1 <= choice.start_line <= choice.end_line <= len(lines)
            assert chunk.start_line <= choice.start_line <= choice.end_line <= chunk.end_line
            if choice.fidelity != Fidelity.PATH:
                ranges = re.findall(r"(\d+)-(\d+)", prompt)
                single = re.findall(r"\bline (\d+)\b", prompt)  # a one-line entry: "line 90"
                shown = [*ranges, *((n, n) for n in single)]
                assert any(
                    int(a) <= choice.start_line <= choice.end_line <= int(b) for a, b in shown
                ), (choice.start_line, choice.end_line)


def run_pack(
    root: Path, hits: list[ScoredChunk], pack: Pack
) -> tuple[str | None, list[Choice], int]:
    """Selection within the budget left by the headers, then fitting (pack.packing's order);
    the prompt (None when the headers leave no room), its entries and the budget."""
    base = RenderInput(
        repo_name="fuzz",
        task="fix the parser when the input is cut short",
        groups=(),
        elsewhere=(),
        overview="",
        shown_files=0,
        total_files=len({h.chunk.path for h in hits}),
        repo_tokens=sum(h.chunk.tokens for h in hits),
        line_numbers=pack.line_numbers,
    )
    fixed = tokens.count(render(base, pack.format))
    budget = fixed + pack.room
    if pack.room < 1:
        return None, [], budget
    renderer = make_renderer(pack.level)  # type: ignore[arg-type]
    small = budget < 1000
    selection = select(
        hits,
        SelectOptions(
            budget=budget - fixed,
            max_chunks_per_file=pack.cap,
            named_files=frozenset(h.chunk.path for h in hits if h.named_by_task),
            start_fidelity=Fidelity.SIGNATURE if small else Fidelity.FULL,
        ),
        renderer,
    )
    fitting = Fitting(
        renderer,
        WorkTree(root).only_blank_between,
        None,
        top_up=not small,
        order=pack.order,
        format=pack.format,
    )
    prompt, _data, fitted = fit_prompt(base, selection, budget, fitting)
    return prompt, list(fitted.chosen), budget
