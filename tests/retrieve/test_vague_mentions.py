"""A name or bare file name that many places of a repository have points at none of them:
`main.rs` in a workspace of binaries must not put every `main` first in the pack."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctxopt.app.pack import refresh_then_pack
from ctxopt.config.settings import Settings, load_settings
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader
from ctxopt.pack.api import PackOptions
from ctxopt.retrieve.entities import extract_entities
from ctxopt.retrieve.scoring import VAGUE_COUNT, path_proximity, symbol_match
from ctxopt.retrieve.search import QueryOptions, rank, vague_mentions
from ctxopt.types import Chunk, ChunkKind, Fidelity
from helpers import HashEmbedder, commit_all, init_repo, write_files

BINARIES = VAGUE_COUNT + 3
TASK = (
    "docs: hint at the missing docs lint\n\n"
    "`#![deny(missing_docs)]` does not work when the parser lives in `main.rs`; "
    "point readers of the derive reference at the lint that does."
)
REFERENCE = """//! The derive reference.
//!
//! - Always remember to document args and commands with `#![deny(missing_docs)]`
//! - The lint misses a parser declared in a binary's own file.

pub fn reference_lint_hint() -> &'static str {
    "deny missing docs lint"
}
"""


def binary(n: int) -> str:
    steps = "\n".join(f'    println!("step {n}.{i}");' for i in range(40))
    return f"fn main() {{\n{steps}\n}}\n"


def chunk(path: str, name: str, qualified: str = "") -> Chunk:
    return Chunk(
        id=f"{path}:{name}", path=path, language="rust", kind=ChunkKind.FUNCTION, name=name,
        qualified_name=qualified or name, signature=f"fn {name}()", docstring="", start_line=1,
        end_line=3, text="x", tokens=10, content_hash=f"{path}{name}",
    )  # fmt: skip


def test_a_quoted_file_name_is_a_path_not_a_symbol() -> None:
    entities = extract_entities("it breaks in `main.rs` and `Parser.parse`")
    assert "main.rs" in entities.paths
    assert "main" not in entities.symbol_names
    assert {"Parser", "parse", "Parser.parse"} <= set(entities.symbol_names)


def test_names_and_file_names_many_files_have_are_vague() -> None:
    entities = extract_entities("fix `main` in main.rs and cli.rs, and `Table.render`")
    named = [chunk(f"bin{i}/main.rs", "main") for i in range(VAGUE_COUNT + 1)]
    named += [chunk(f"ui/t{i}.rs", "render", f"Widget{i}.render") for i in range(VAGUE_COUNT + 1)]
    named.append(chunk("ui/table.rs", "render", "Table.render"))
    # one file that defines a name many times (overloads, parts of one long function)
    named += [chunk("src/cli.rs", "parse_args") for _ in range(VAGUE_COUNT + 2)]
    indexed = sorted({c.path for c in named} | {"src/lib.rs"})
    vague = vague_mentions(entities, named, indexed)
    assert {"main", "main.rs", "render"} <= vague
    assert "cli.rs" not in vague  # one indexed file has that name
    assert "Table.render" not in vague
    assert "parse_args" not in vague


def test_a_vague_mention_matches_below_what_makes_a_chunk_required() -> None:
    entities = extract_entities("fix `main` in main.rs")
    words, names = frozenset(entities.words), frozenset(entities.symbol_names)
    main = chunk("bin1/main.rs", "main")
    assert symbol_match(main, entities, words, names) == 1.0
    assert path_proximity("bin1/main.rs", entities) == 1.0
    vague = frozenset({"main", "main.rs"})
    assert 0.0 < symbol_match(main, entities, words, names, vague) < 0.8
    assert 0.0 < path_proximity("bin1/main.rs", entities, vague) < 1.0
    qualified = chunk("ui/table.rs", "render", "Table.render")
    table = extract_entities("fix `Table.render`")
    both = frozenset(table.symbol_names)
    assert symbol_match(qualified, table, frozenset(), both, frozenset({"render"})) == 1.0


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    repo = init_repo(tmp_path_factory.mktemp("vague") / "repo")
    files = {f"examples/tool{n}/main.rs": binary(n) for n in range(BINARIES)}
    files["src/derive_reference.rs"] = REFERENCE
    write_files(repo, files)
    commit_all(repo)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    return settings


def test_many_binaries_named_by_file_name_are_not_required(workspace: Settings) -> None:
    ranked = rank(workspace, TASK, QueryOptions(), reader=IndexReader(workspace.db_path)).ranked
    mains = [hit for hit in ranked if hit.chunk.path.endswith("main.rs")]
    assert len({hit.chunk.path for hit in mains}) == BINARIES
    assert not any(hit.named_by_task for hit in mains)
    reference = next(h for h in ranked if h.chunk.path == "src/derive_reference.rs")
    assert ranked.index(reference) < min(ranked.index(h) for h in mains)


def test_the_pack_leads_with_the_reference_not_the_binaries(workspace: Settings) -> None:
    options = PackOptions(task=TASK, budget=1500, compression="none")
    result = refresh_then_pack(workspace, options, refresh=False)
    assert result.chosen[0].hit.chunk.path == "src/derive_reference.rs"
    reference = [c for c in result.chosen if c.hit.chunk.path == "src/derive_reference.rs"]
    assert len(reference) == 2  # the module's doc and the function, both whole
    assert all(choice.fidelity is Fidelity.FULL for choice in reference)


def test_one_main_rs_is_still_the_file_the_task_names(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"src/main.rs": binary(0), "src/derive_reference.rs": REFERENCE})
    commit_all(repo)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    ranked = rank(settings, TASK, QueryOptions(), reader=IndexReader(settings.db_path)).ranked
    (main,) = [hit for hit in ranked if hit.chunk.path == "src/main.rs"]
    assert main.named_by_task
