"""Before a run writes: bring the tables to a state it can build on.

- A complete index whose tables moved past the commit (a run killed after writing some
  versions) is rolled back to the committed versions: the killed run's work is redone.
- An incomplete index (a first run killed before its commit) is resumed: chunks of files
  the files table does not claim are dropped (the table is written after the chunks, so
  it never claims a file whose chunks are missing) and the run adds the rest.
- A damaged index stops a plain run with one line naming `ctxopt index --full`; under
  --full it is deleted and rebuilt, as is an incomplete one.

All of it works by Lance versions and the commit marker, so it is the same on a local
folder and on object storage (restore makes an old version the latest; deleting a table
deletes its objects).
"""

from __future__ import annotations

from collections import Counter

from ctxopt import interrupts
from ctxopt.config.environment import LANCE, quiet_library
from ctxopt.config.paths import DbLocation
from ctxopt.errors import CtxoptError, IndexCorruptError, StorageError
from ctxopt.index import schema
from ctxopt.index.commit import TABLES, IndexState, index_state, read_commit, remove_commit
from ctxopt.index.integrity import check_files
from ctxopt.index.location import locate
from ctxopt.index.store import LANCE_ERRORS, IndexReader, damaged, in_list


def prepare_update(db: DbLocation, *, full: bool) -> IndexState:
    """Roll back, resume or clear the index at db; the state the run starts from."""
    state = index_state(db)
    if state is IndexState.COMPLETE:
        try:
            roll_back(db)
        except IndexCorruptError:
            if not full:
                raise
            drop_index(db)
            return IndexState.MISSING
        return state
    if state is IndexState.INCOMPLETE and (full or not _resumable(db)):
        drop_index(db)
        return IndexState.MISSING
    return state


def roll_back(db: DbLocation) -> None:
    """Make each table's committed version its latest again (a new Lance version)."""
    quiet_library(LANCE)  # before the import: no Rust-side warnings on stderr
    import lance

    commit = read_commit(db)
    assert commit is not None
    location = locate(db)
    before = interrupts.count()
    for name, version in commit.versions.items():
        try:
            dataset = lance.dataset(
                location.uri(name), version=version, storage_options=location.options
            )
            check_files(dataset, location, name)
            if dataset.latest_version != dataset.version:
                dataset.restore()
        except LANCE_ERRORS as exc:
            raise damaged(db, f"the {name} table cannot be opened", before) from exc


def _resumable(db: DbLocation) -> bool:
    """Whether an interrupted run without a commit can be finished: its meta and files are
    readable.  Files whose chunks do not match their record (a run killed between deleting
    a file's chunks and adding the new ones) and chunks of unclaimed files are dropped, so
    the run adds them again.  If the tables cannot be read, the run starts over."""
    try:
        reader = IndexReader(db, committed=False)
        reader.meta()
        records = reader.file_records()
        chunks = reader.dataset(schema.CHUNKS)
        counts = Counter(chunks.to_table(columns=["path"]).column("path").to_pylist())
        wrong = [p for p, r in records.items() if counts.get(p, 0) != r.chunks]
        stray = sorted(set(counts) - set(records) | set(wrong))
        for start in range(0, len(stray), 500):
            chunks.delete(in_list("path", stray[start : start + 500]))
        files = reader.dataset(schema.FILES)
        for start in range(0, len(wrong), 500):
            files.delete(in_list("path", wrong[start : start + 500]))
    except StorageError:
        raise
    except (CtxoptError, *LANCE_ERRORS):
        return False
    return True


def drop_index(db: DbLocation) -> None:
    """Delete the marker first (a reader must never see a marker without its tables)."""
    remove_commit(db)
    location = locate(db)
    for name in TABLES:
        location.remove_table(name)
