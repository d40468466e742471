"""An index on a real S3-compatible server (moto on 127.0.0.1): the commit marker as an
object, readers pinned to the committed versions, recovery by versions, a full rebuild."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ctxopt.config.settings import Settings, load_settings
from ctxopt.errors import IndexCorruptError, IndexMissingError, StorageError
from ctxopt.index.build import build_index
from ctxopt.index.commit import MARKER, TABLES, IndexState, index_state, read_commit
from ctxopt.index.location import RemoteIndex, locate, storage_error
from ctxopt.index.process import IN_PROCESS
from ctxopt.index.recover import drop_index, prepare_update
from ctxopt.index.store import IndexReader, IndexWriter
from ctxopt.retrieve.candidates import CandidateSource
from helpers import HashEmbedder, commit_all, sample_repo, write_files
from s3server import S3Server


@pytest.fixture
def remote(tmp_path: Path, s3_server: S3Server, s3_env: dict[str, str]) -> Settings:
    """The sample repo with its index set to a prefix of a new bucket (nothing built)."""
    return load_settings(sample_repo(tmp_path), {"db": f"s3://{s3_server.bucket()}/team/app"})


def chunk_keys(reader: IndexReader) -> Counter[tuple[str, int, str]]:
    table = reader.dataset("chunks").to_table(columns=["path", "start_line", "content_hash"])
    return Counter((r["path"], r["start_line"], r["content_hash"]) for r in table.to_pylist())


def test_a_build_writes_tables_and_marker_as_objects_and_nothing_locally(remote: Settings) -> None:
    stats = build_index(remote, embedder=HashEmbedder(), workers=IN_PROCESS)
    assert stats.files >= 10 and stats.db_path == remote.db_path
    location = locate(remote.db_path)
    assert isinstance(location, RemoteIndex)
    assert location.exists(MARKER) and all(location.has_table(name) for name in TABLES)
    assert not location.exists("index.lock")  # the lease is gone after the run
    assert not (remote.root / ".ctxopt").exists()
    reader = IndexReader(remote.db_path)
    commit = read_commit(remote.db_path)
    assert commit is not None
    assert {name: reader.dataset(name).version for name in TABLES} == commit.versions
    assert CandidateSource(reader).full_text("save inventory", 5)


def test_an_incremental_run_embeds_only_what_changed(remote: Settings) -> None:
    build_index(remote, embedder=HashEmbedder(), workers=IN_PROCESS)
    write_files(remote.root, {"inventory/extra.py": "def restock_shelf(n):\n    return n + 1\n"})
    (remote.root / "docs" / "design.md").unlink()
    commit_all(remote.root, "restock")
    again = HashEmbedder()
    stats = build_index(remote, embedder=again, workers=IN_PROCESS)
    assert (stats.added, stats.changed, stats.deleted) == (1, 0, 1)
    assert again.embedded and all("restock_shelf" in t for t in again.embedded)
    paths = {key[0] for key in chunk_keys(IndexReader(remote.db_path))}
    assert "inventory/extra.py" in paths and "docs/design.md" not in paths


def test_readers_keep_the_committed_versions_and_a_killed_run_is_rolled_back(
    remote: Settings,
) -> None:
    build_index(remote, embedder=HashEmbedder(), workers=IN_PROCESS)
    reader = IndexReader(remote.db_path)
    before = chunk_keys(reader)
    IndexWriter(remote.db_path, 256).replace_chunks(["inventory/storage.py"], None)  # killed
    assert chunk_keys(IndexReader(remote.db_path)) == before  # a new reader: the commit
    assert chunk_keys(reader) == before  # an open reader too
    assert chunk_keys(IndexReader(remote.db_path, committed=False)) != before
    assert prepare_update(remote.db_path, full=False) is IndexState.COMPLETE  # rolls back
    assert chunk_keys(IndexReader(remote.db_path, committed=False)) == before


def test_dropping_deletes_the_marker_then_every_object(remote: Settings) -> None:
    build_index(remote, embedder=HashEmbedder(), workers=IN_PROCESS)
    drop_index(remote.db_path)
    assert index_state(remote.db_path) is IndexState.MISSING
    with pytest.raises(IndexMissingError, match=r"run `ctxopt index --db s3://.*` first"):
        IndexReader(remote.db_path)


def test_a_full_rebuild_replaces_a_damaged_remote_index(remote: Settings) -> None:
    build_index(remote, embedder=HashEmbedder(), workers=IN_PROCESS)
    locate(remote.db_path).write_text(MARKER, "not json")
    with pytest.raises(IndexCorruptError, match="is damaged"):
        IndexReader(remote.db_path)
    stats = build_index(remote, embedder=HashEmbedder(), workers=IN_PROCESS, full=True)
    assert stats.added == stats.files and IndexReader(remote.db_path).file_records()


def test_a_missing_bucket_is_one_storage_error_naming_it(
    tmp_path: Path, s3_server: S3Server, s3_env: dict[str, str]
) -> None:
    settings = load_settings(sample_repo(tmp_path), {"db": "s3://no-such-bucket-here/app"})
    with pytest.raises(StorageError, match="the bucket 'no-such-bucket-here' does not exist"):
        build_index(settings, embedder=HashEmbedder(), workers=IN_PROCESS)


def test_an_unresolvable_region_names_the_variables_to_set() -> None:
    lance_text = (
        "LanceError(IO): Generic S3 error: Failed to resolve region for bucket 'acme', "
        "/home/runner/work/lance/rust/lance-io/src/object_store/providers/aws.rs:342:13"
    )
    error = storage_error("s3://acme/app", OSError(lance_text))
    assert str(error).startswith("cannot reach the index at s3://acme/app: the region of bucket")
    assert "AWS_REGION" in str(error) and "aws.rs" not in str(error)


@pytest.mark.parametrize(
    ("base", "lance_text", "variables"),
    [
        (
            "gs://b/x",
            "LanceError(IO): Generic GCS error: Error performing token request: Error after 0 "
            "retries in 1.2s, max_retries:10, retry_timeout:180s, source:error sending request "
            "for url (http://169.254.169.254/computeMetadata/v1/instance/service-accounts/"
            "default/token), /home/runner/work/lance/lance/rust/lance-io/src/object_store.rs:9:1",
            "GOOGLE_APPLICATION_CREDENTIALS",
        ),
        (
            "az://c/x",
            "LanceError(IO): Generic MicrosoftAzure error: Configuration error: no storage "
            "account configured., /home/runner/work/lance/lance/rust/lance-io/src/object_store/"
            "providers/azure.rs:61:22",
            "AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY",
        ),
    ],
)
def test_missing_gcs_and_azure_credentials_name_the_variables(
    base: str, lance_text: str, variables: str
) -> None:
    message = str(storage_error(base, OSError(lance_text)))
    assert message == f"cannot reach the index at {base}: no credentials found; set {variables}"


def test_another_library_message_is_one_line_cut_between_words() -> None:
    text = "LanceError(IO): " + "something unexpected happened " * 20 + ", /x/lance/src/a.rs:1:2"
    message = str(storage_error("s3://acme/app", OSError(text)))
    reason = message.removeprefix("cannot reach the index at s3://acme/app: ")
    assert len(reason) <= 204 and reason.endswith("happened ...") and ".rs:" not in message
