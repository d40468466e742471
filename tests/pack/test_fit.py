"""Rendering a selection within its budget (pack.fit): what a prompt over its budget drops."""

from __future__ import annotations

from ctxopt import tokens
from ctxopt.pack.fit import Fitting, fit_prompt
from ctxopt.pack.render import RenderInput
from ctxopt.pack.select import TOP_RANKED, Selection
from ctxopt.types import Choice, Chunk, ChunkKind, Fidelity, PickReason, ScoredChunk
from ctxopt.types.pack import Dropped, DropReason


def _chunk(path: str, name: str, first: int) -> Chunk:
    text = f"def {name}():\n" + "\n".join(f"    step_{name}_{i}()" for i in range(6))
    return Chunk(
        id=f"{path}:{name}", path=path, language="python", kind=ChunkKind.FUNCTION, name=name,
        qualified_name=name, signature=f"def {name}():", docstring="", start_line=first,
        end_line=first + 6, text=text, tokens=tokens.count(text), content_hash=f"{path}:{name}",
    )  # fmt: skip


def _entry(path: str, name: str, score: float, first: int, why: PickReason) -> Choice:
    chunk = _chunk(path, name, first)
    return Choice(
        ScoredChunk(chunk, score, {}, (), {}), Fidelity.FULL, chunk.text, chunk.tokens, why
    )


def _render_entry(chunk: Chunk, fidelity: Fidelity, lines: object = None) -> tuple[str, int]:
    return chunk.text, chunk.tokens


BASE = RenderInput(
    repo_name="shop", task="fix the refund of a cancelled order", groups=(), elsewhere=(),
    overview="", shown_files=0, total_files=3, repo_tokens=10_000, line_numbers=False,
)  # fmt: skip
FITTING = Fitting(_render_entry, lambda before, after: False, None, False, "relevance", "markdown")


def _fitted(chosen: list[Choice], over_by: int, dropped: tuple[Dropped, ...] = ()) -> list[str]:
    """The entries kept when the budget is over_by tokens short of the whole rendering
    (dropped: hits the selection turned away, which rank the entries among all hits)."""
    selection = Selection(tuple(chosen), dropped, 0)
    whole = tokens.count(fit_prompt(BASE, selection, 10**6, FITTING)[0])
    _, _, fitted = fit_prompt(BASE, selection, whole - over_by, FITTING)
    return [c.hit.chunk.name for c in fitted.chosen]


def _better_hits_turned_away(count: int) -> tuple[Dropped, ...]:
    """count hits scoring above every entry of the tests, turned away by a cap (not top-ups)."""
    return tuple(
        Dropped(_entry(f"c{i}.py", f"better_{i}", 0.95, 1, PickReason.SCORE).hit,
                DropReason.PER_FILE_CAP)
        for i in range(count)
    )  # fmt: skip


def test_a_prompt_a_little_over_its_budget_keeps_every_file() -> None:
    chosen = [
        _entry("a.py", "best", 0.9, 1, PickReason.LEAD),
        _entry("a.py", "second", 0.4, 20, PickReason.SCORE),
        _entry("b.py", "alone", 0.3, 1, PickReason.SCORE),  # the weakest, and its file's only entry
    ]
    assert _fitted(chosen, 5) == ["best", "alone"]  # before: ["best", "second"], b.py gone


def test_a_top_up_goes_before_the_selections_own_entries() -> None:
    chosen = [
        _entry("a.py", "best", 0.9, 1, PickReason.LEAD),
        _entry("a.py", "second", 0.3, 20, PickReason.SCORE),
        _entry("a.py", "extra", 0.5, 40, PickReason.TOP_UP),
    ]
    assert _fitted(chosen, 5) == ["best", "second"]


def test_a_files_last_entry_goes_when_every_candidate_is_one() -> None:
    chosen = [
        _entry("a.py", "best", 0.9, 1, PickReason.LEAD),
        _entry("b.py", "other", 0.3, 1, PickReason.SCORE),
    ]
    assert _fitted(chosen, 5) == ["best"]


def test_a_files_declaration_line_goes_before_its_only_code() -> None:
    """A file shown as one chunk's code and another's signature keeps the code (until
    2026-12-02 the weaker code went, as the file had two entries, leaving a declaration line),
    where the declared chunk is not among the TOP_RANKED best hits."""
    chosen = _code_beside_a_better_declaration()
    assert _fitted(chosen, 3, _better_hits_turned_away(TOP_RANKED)) == ["best", "code"]


def test_a_top_ranked_declaration_stays_and_its_files_weaker_code_goes() -> None:
    """Issue 18's rule: a top-ranked chunk does not go while a weaker entry of its own file
    stays (requests at 4k: `Session.request`'s signature went, `Session.__getstate__` stayed)."""
    chosen = _code_beside_a_better_declaration()
    assert _fitted(chosen, 3, _better_hits_turned_away(TOP_RANKED - 3)) == ["best", "declared"]


def _code_beside_a_better_declaration() -> list[Choice]:
    """b.py shows one chunk's code and a better-scored chunk's signature."""
    return [
        _entry("a.py", "best", 0.9, 1, PickReason.LEAD),
        _entry("b.py", "code", 0.3, 1, PickReason.SCORE),
        _signature("b.py", "declared", 0.5, 20),
    ]


def _signature(path: str, name: str, score: float, first: int) -> Choice:
    chunk = _chunk(path, name, first)
    return Choice(
        ScoredChunk(chunk, score, {}, (), {}), Fidelity.SIGNATURE, chunk.signature,
        tokens.count(chunk.signature), PickReason.SCORE,
    )  # fmt: skip
