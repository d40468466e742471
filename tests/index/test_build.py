"""The index pipeline with real tree-sitter, tiktoken, git and LanceDB; a fake embedder."""

from __future__ import annotations

import os
from pathlib import Path

import lance
import pytest

from ctxopt.config.settings import load_settings
from ctxopt.errors import IndexMismatchError, UsageError
from ctxopt.index.build import build_index
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.store import IndexReader, ignore_self
from helpers import (
    HashEmbedder,
    commit_all,
    git,
    init_repo,
    run_in_fresh_python,
    sample_repo,
    write_files,
)


def chunk_paths(db: Path) -> list[str]:
    table = lance.dataset(str(db / "chunks.lance")).to_table(columns=["path"])
    return sorted(set(table.column("path").to_pylist()))


def test_cold_index_stores_chunks_files_and_meta(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    stats = build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert stats.files >= 10
    assert stats.chunks > stats.files
    assert stats.added == stats.files
    assert {"python", "typescript", "go", "markdown", "yaml"} <= set(stats.languages)
    reader = IndexReader(settings.db_path)
    meta = reader.meta()
    assert meta.embedder == HashEmbedder.name
    assert len(meta.last_commit) == 40
    records = reader.file_records()
    assert "inventory/storage.py" in records
    assert records["inventory/storage.py"].commit_time > 0
    assert "inventory/storage.py" in chunk_paths(settings.db_path)
    graph = reader.graph()
    assert "inventory/storage.py" in graph.imports["inventory/api.py"]


def test_incremental_reembeds_only_changed_files(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)

    again = HashEmbedder()
    stats = build_index(settings, embedder=again, workers=IN_PROCESS)
    assert again.embedded == []
    assert (stats.added, stats.changed, stats.deleted) == (0, 0, 0)

    storage = repo / "inventory" / "storage.py"
    storage.write_text(storage.read_text() + "\n\ndef brand_new_helper():\n    return 42\n")
    (repo / "docs" / "design.md").unlink()
    write_files(repo, {"inventory/audit.py": "def audit_trail(items):\n    return list(items)\n"})
    third = HashEmbedder()
    stats = build_index(settings, embedder=third, workers=IN_PROCESS)
    assert (stats.added, stats.changed, stats.deleted) == (1, 1, 1)
    embedded_paths = {text.split(" ", 1)[0] for text in third.embedded}
    assert embedded_paths == {"inventory/storage.py", "inventory/audit.py"}
    paths = chunk_paths(settings.db_path)
    assert "docs/design.md" not in paths
    assert "inventory/audit.py" in paths
    names = lance.dataset(str(settings.db_path / "chunks.lance")).to_table(
        columns=["name"], filter="path = 'inventory/storage.py'"
    )
    assert "brand_new_helper" in names.column("name").to_pylist()
    records = IndexReader(settings.db_path).file_records()
    assert "docs/design.md" not in records


def chunk_commit_times(db: Path, path: str) -> set[int]:
    table = lance.dataset(str(db / "chunks.lance")).to_table(
        columns=["commit_time"], filter=f"path = '{path}'"
    )
    return set(table.column("commit_time").to_pylist())


def test_commit_times_follow_head_as_a_full_rebuild_gives_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    write_files(repo, {"inventory/audit.py": "def audit_trail(items):\n    return list(items)\n"})
    models = repo / "inventory" / "models.py"
    models.write_text(models.read_text() + "\n# noted\n")
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)  # not committed yet
    before = IndexReader(settings.db_path).file_records()
    assert before["inventory/audit.py"].commit_time == 0  # new: no commit yet
    git(repo, "add", "inventory/audit.py")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1600000000")
    git(repo, "commit", "-q", "-m", "audit")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1700000000")
    git(repo, "commit", "-q", "--amend", "--no-edit")
    committed = int(git(repo, "log", "-1", "--format=%ct"))
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1800000000")
    git(repo, "commit", "-q", "-am", "note")  # models.py was indexed at its old commit
    noted = int(git(repo, "log", "-1", "--format=%ct"))
    assert before["inventory/models.py"].commit_time not in (0, noted)
    embedder = HashEmbedder()
    build_index(settings, embedder=embedder, workers=IN_PROCESS)
    records = IndexReader(settings.db_path).file_records()
    assert records["inventory/audit.py"].commit_time == committed > 0
    assert chunk_commit_times(settings.db_path, "inventory/audit.py") == {committed}
    assert records["inventory/models.py"].commit_time == noted
    assert chunk_commit_times(settings.db_path, "inventory/models.py") == {noted}
    redone = {text.split(" ", 1)[0] for text in embedder.embedded}
    assert redone == {"inventory/audit.py", "inventory/models.py"}  # nothing else
    unchanged = HashEmbedder()
    build_index(settings, embedder=unchanged, workers=IN_PROCESS)
    assert unchanged.embedded == []


def test_an_edit_that_puts_the_old_size_and_mtime_back_is_seen(tmp_path: Path) -> None:
    """rsync -t, an archive or `touch -d` can give an edited file its old size and mtime;
    its ctime still moves, as git's own stat check relies on."""
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    target = repo / "inventory" / "models.py"
    before = target.stat()
    text = target.read_text()
    target.write_text(text.replace("class ", "klass ", 1))  # the same size
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = target.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    embedder = HashEmbedder()
    stats = build_index(settings, embedder=embedder, workers=IN_PROCESS)
    assert stats.changed == 1
    assert {text.split(" ", 1)[0] for text in embedder.embedded} == {"inventory/models.py"}


def test_a_reworded_amend_moves_the_commit_time_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same content under a new commit (an amend of the message, a rebase): its time is
    the new commit's, as a full rebuild gives it."""
    repo = small_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1900000000")
    git(repo, "commit", "-q", "--amend", "-m", "reworded")
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    times = {r.commit_time for r in IndexReader(settings.db_path).file_records().values()}
    assert times == {1_900_000_000}


def test_files_indexed_before_the_first_commit_are_dated_once_committed(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "fresh")
    write_files(repo, {"app.py": "def main():\n    return 1\n", "scratch.py": "x = 1\n"})
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)  # no commit yet
    git(repo, "add", "app.py")
    git(repo, "commit", "-q", "-m", "first")
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    records = IndexReader(settings.db_path).file_records()
    assert records["app.py"].commit_time == int(git(repo, "log", "-1", "--format=%ct"))
    assert records["scratch.py"].commit_time == 0  # untracked: no commit dates it


def test_touching_a_file_without_changing_it_embeds_nothing(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    target = repo / "inventory" / "models.py"
    target.write_text(target.read_text())
    embedder = HashEmbedder()
    stats = build_index(settings, embedder=embedder, workers=IN_PROCESS)
    assert embedder.embedded == []
    assert stats.changed == 0


def test_versions_are_cleaned_up(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    for round_ in range(4):
        write_files(repo, {f"inventory/extra_{round_}.py": f"def extra_{round_}():\n    pass\n"})
        build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    versions = lance.dataset(str(settings.db_path / "chunks.lance")).versions()
    assert len(versions) <= 2


def test_other_embedder_requires_full(tmp_path: Path) -> None:
    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    other = load_settings(repo, {"embedder": "minilm"})
    with pytest.raises(IndexMismatchError, match="--full --embedder minilm`"):
        build_index(other, workers=IN_PROCESS)  # the command that switches, in flag names


def test_pool_and_serial_give_the_same_chunks(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "many")
    write_files(
        repo,
        {f"pkg/mod_{i}.py": f"def func_{i}(x):\n    return x + {i}\n" for i in range(80)},
    )
    commit_all(repo)
    serial = load_settings(repo, {"db": tmp_path / "serial"})
    pooled = load_settings(repo, {"db": tmp_path / "pooled"})
    a = build_index(serial, embedder=HashEmbedder(), workers=IN_PROCESS)
    b = build_index(pooled, embedder=HashEmbedder(), workers=2)
    assert a.chunks == b.chunks == 80
    assert chunk_paths(tmp_path / "serial") == chunk_paths(tmp_path / "pooled")


def test_full_text_index_stays_in_step_with_the_rows_after_many_changes(tmp_path: Path) -> None:
    from ctxopt.index.store import STALE_FTS_SHARE, stale_share
    from ctxopt.retrieve.candidates import CandidateSource

    repo = sample_repo(tmp_path / "changed")
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    for path in sorted(repo.rglob("*.py"))[:4]:  # rewrite a good share of the chunks
        path.write_text(path.read_text() + "\n\ndef audit_hook():\n    return 'audit'\n")
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)

    chunks = IndexReader(settings.db_path).dataset("chunks")
    fts = next(i.name for i in chunks.describe_indices() if "Inverted" in str(i.type_url))
    assert stale_share(chunks, fts) <= STALE_FTS_SHARE

    fresh_repo = sample_repo(tmp_path / "fresh")
    for path in sorted(fresh_repo.rglob("*.py"))[:4]:
        path.write_text(path.read_text() + "\n\ndef audit_hook():\n    return 'audit'\n")
    fresh = load_settings(fresh_repo)
    build_index(fresh, embedder=HashEmbedder(), workers=IN_PROCESS)

    def ranking(db: Path) -> list[tuple[float, str, str]]:
        """Scores and chunks, ties in path order (equal chunks of several files tie)."""
        found = CandidateSource(IndexReader(db)).full_text("audit inventory storage", 10)
        return sorted((-round(score, 2), c.path, c.name) for c, score in found)

    assert ranking(settings.db_path) == ranking(fresh.db_path)


def test_a_small_update_defers_the_full_text_merge_and_still_finds_and_scores_the_same(
    tmp_path: Path,
) -> None:
    from ctxopt.index.store import unindexed_rows
    from ctxopt.retrieve.candidates import CandidateSource

    repo = sample_repo(tmp_path / "repo")
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    target = sorted(repo.rglob("*.py"))[0]
    target.write_text(target.read_text() + "\n\ndef audit_hook():\n    return 'audit'\n")
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)

    chunks = IndexReader(settings.db_path).dataset("chunks")
    fts = next(i.name for i in chunks.describe_indices() if "Inverted" in str(i.type_url))
    assert unindexed_rows(chunks, fts) > 0  # the merge waits for more rows

    def ranking() -> list[tuple[float, str, str]]:
        found = CandidateSource(IndexReader(settings.db_path)).full_text("audit hook storage", 10)
        return sorted((-round(score, 4), c.path, c.name) for c, score in found)

    deferred = ranking()
    assert any(name == "audit_hook" for _, _, name in deferred)
    lance.dataset(str(settings.db_path / "chunks.lance")).optimize.optimize_indices()
    assert ranking() == deferred  # what a merged index gives


def test_lancedb_opens_the_index_and_its_full_text_search_ranks_as_ours(tmp_path: Path) -> None:
    """The index is built with pylance alone, in LanceDB's layout: LanceDB itself lists the
    full-text index under its own name and its search gives the chunks ours gives."""
    import lancedb

    from ctxopt.index.store import FTS_INDEX_NAME
    from ctxopt.retrieve.candidates import CandidateSource

    repo = sample_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)

    table = lancedb.connect(str(settings.db_path)).open_table("chunks")
    indices = {i.name: i for i in table.list_indices()}
    assert "FTS" in str(indices[FTS_INDEX_NAME].index_type)
    assert indices[FTS_INDEX_NAME].columns == ["search"]
    query = "inventory storage"
    theirs = table.search(query, query_type="fts").select(["path", "name"]).limit(10).to_list()
    ours = CandidateSource(IndexReader(settings.db_path)).full_text(query, 10)
    assert theirs
    assert [(row["path"], row["name"]) for row in theirs] == [(c.path, c.name) for c, _ in ours]
    assert [round(row["_score"], 4) for row in theirs] == [round(s, 4) for _, s in ours]


def test_a_cold_index_and_a_full_text_rebuild_never_import_lancedb(tmp_path: Path) -> None:
    """Importing lancedb costs the parent 1.5 CPU s; pylance builds and rebuilds the index."""
    repo = sample_repo(tmp_path)
    code = (
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parents[1])!r})\n"
        "from ctxopt.config.settings import load_settings\n"
        "from ctxopt.index.build import build_index\n"
        "from ctxopt.index.process import IN_PROCESS\n"
        "from ctxopt.index.store import IndexWriter\n"
        "from helpers import HashEmbedder\n"
        f"settings = load_settings({str(repo)!r})\n"
        "stats = build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)\n"
        "IndexWriter(settings.db_path, HashEmbedder.dimensions).update_fts(rebuild=True)\n"
        "print(stats.chunks)\n"
    )
    out, heavy = run_in_fresh_python(code)
    assert int(out) > 0
    assert heavy == []


def small_repo(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {"app.py": "def main():\n    return 1\n", "README.md": "# app\n"})
    commit_all(repo, "initial")
    return repo


def test_index_folder_ignores_itself_through_full_rebuilds(tmp_path: Path) -> None:
    repo = small_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    ignore = settings.db_path / ".gitignore"
    assert ignore.read_text().splitlines()[-1] == "*"
    assert git(repo, "status", "--porcelain") == ""
    build_index(settings, full=True, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert ignore.is_file()
    assert git(repo, "status", "--porcelain") == ""
    assert IndexReader(settings.db_path).file_records().keys() == {"app.py", "README.md"}


def test_an_older_index_gets_its_gitignore_on_the_next_run(tmp_path: Path) -> None:
    repo = small_repo(tmp_path)
    settings = load_settings(repo)
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    (settings.db_path / ".gitignore").unlink()
    assert git(repo, "status", "--porcelain") == "?? .ctxopt/\n"
    nothing = HashEmbedder()
    build_index(settings, embedder=nothing, workers=IN_PROCESS)
    assert nothing.embedded == []
    assert git(repo, "status", "--porcelain") == ""


def test_an_edited_gitignore_is_left_alone(tmp_path: Path) -> None:
    repo = small_repo(tmp_path)
    settings = load_settings(repo)
    settings.db_path.mkdir()
    (settings.db_path / ".gitignore").write_text("# keep the index in git\n")
    build_index(settings, full=True, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert (settings.db_path / ".gitignore").read_text() == "# keep the index in git\n"


def test_a_users_existing_folder_is_not_marked_ignored(tmp_path: Path) -> None:
    repo = small_repo(tmp_path)
    write_files(repo, {"shared/notes.txt": "mine\n"})
    settings = load_settings(repo, {"db": repo / "shared"})
    with pytest.raises(UsageError, match="holds other files"):  # they would leave the index
        build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert not (repo / "shared" / ".gitignore").exists()
    assert "?? shared/" in git(repo, "status", "--porcelain")
    elsewhere = tmp_path / "indexes"
    write_files(elsewhere, {"notes.txt": "mine\n"})
    build_index(load_settings(repo, {"db": elsewhere}), embedder=HashEmbedder(), workers=IN_PROCESS)
    assert not (elsewhere / ".gitignore").exists() and (elsewhere / "notes.txt").exists()


def test_ignore_self_writes_nothing_for_object_storage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    ignore_self("s3://bucket/index")
    assert list(tmp_path.iterdir()) == []


def stored_chunks(db: Path) -> list[tuple[str, int, str, str, tuple[float, ...]]]:
    table = lance.dataset(str(db / "chunks.lance")).to_table(
        columns=["path", "start_line", "id", "text", "search", "vector"]
    )
    rows = table.to_pylist()
    return sorted(
        (r["path"], r["start_line"], r["id"], r["text"] + r["search"], tuple(r["vector"]))
        for r in rows
    )


def test_sharded_workers_keep_every_chunk_once_as_one_worker_makes_them(tmp_path: Path) -> None:
    # files of very different sizes, so the run splits into several token shards, embedded
    # by the real static model in the workers (two) and in this process (one)
    repo = init_repo(tmp_path / "sharded")
    bodies = {}
    for i in range(60):
        functions = "".join(
            f"def func_{i}_{j}(value):\n    '''Step {j}.'''\n    return value * {j} + {i}\n\n"
            for j in range(1 + (i * 7) % 40)
        )
        bodies[f"pkg/mod_{i:02}.py"] = functions
    bodies["docs/guide.md"] = "".join(
        f"# Part {k}\n\nSome words on part {k}.\n\n" for k in range(300)
    )
    write_files(repo, bodies)
    commit_all(repo)
    cache = {"cache_dir": Path.home() / ".cache" / "ctxopt"}
    one = load_settings(repo, {"db": tmp_path / "one", **cache})
    two = load_settings(repo, {"db": tmp_path / "two", **cache})
    a = build_index(one, workers=IN_PROCESS)
    b = build_index(two, workers=2)
    first, second = stored_chunks(tmp_path / "one"), stored_chunks(tmp_path / "two")
    assert a.chunks == b.chunks == len(second) > 500
    assert len({(path, line, cid) for path, line, cid, _, _ in second}) == len(second)
    assert {row[0] for row in second} == set(bodies)
    assert [row[:4] for row in first] == [row[:4] for row in second]
    assert all(
        max(abs(x - y) for x, y in zip(p[4], q[4], strict=True)) < 1e-5
        for p, q in zip(first, second, strict=True)
    )


def _fragment_rows(db: Path, table: str) -> list[int]:
    dataset = lance.dataset(str(db / f"{table}.lance"))
    return [fragment.metadata.physical_rows for fragment in dataset.get_fragments()]


def test_only_small_fragments_are_compacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full build's write batches stay as written (rewriting them is slow and reads no
    faster); the small fragments updates leave are merged once there are many."""
    from ctxopt.index import build, store

    repo = tmp_path / "repo"
    repo.mkdir()
    init_repo(repo)
    files = {f"pkg/mod_{i}.py": f"def func_{i}(x):\n    return x + {i}\n" for i in range(60)}
    write_files(repo, files)
    commit_all(repo)
    settings = load_settings(repo)
    monkeypatch.setattr(build, "WRITE_BATCH", 6)  # ten write batches of six chunks
    monkeypatch.setattr(store, "SMALL_FRAGMENT_ROWS", 4)  # six rows: not small
    build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
    written = _fragment_rows(settings.db_path, "chunks")
    assert written == [6] * 10  # more than COMPACT_FRAGMENTS, none compacted
    limit = store.IndexWriter.COMPACT_FRAGMENTS
    for round_ in range(2 * limit):  # each update leaves a one-row fragment
        write_files(repo, {f"pkg/mod_{round_}.py": f"def changed_{round_}():\n    return 0\n"})
        build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)
        rows = _fragment_rows(settings.db_path, "chunks")
        assert sum(1 for n in rows if n < 4) <= limit
        assert sum(rows) - _deleted(settings.db_path) == 60
    assert len(rows) < len(written) + 2 * limit  # merged at least once
    assert chunk_paths(settings.db_path) == sorted(files)


def _deleted(db: Path) -> int:
    dataset = lance.dataset(str(db / "chunks.lance"))
    return sum(fragment.metadata.physical_rows for fragment in dataset.get_fragments()) - (
        dataset.count_rows()
    )
