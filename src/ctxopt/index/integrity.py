"""Whether an index's files are all there: the data files its tables' versions name and the
files of the chunks table's indices (full-text, vector), each checked by a stat against the
size the manifest records.  Lance itself would notice a missing file only when a query reads
it, as an error that names no fix.  Object storage is not checked (a request per file, too
slow for every query): there a missing object shows when it is read, as a damaged table."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ctxopt.config.paths import DbLocation
from ctxopt.errors import IndexCorruptError
from ctxopt.index.commit import corrupt
from ctxopt.index.location import IndexLocation, LocalIndex, table_uri

FULL_TEXT_FIELD = "search"  # the column the full-text index covers (the vector index: "vector")


def check_files(dataset: Any, location: IndexLocation, name: str) -> None:
    """Raise IndexCorruptError when a data file the version names is missing or truncated
    (a stat per file; Lance itself would only notice when a query reads it).  On object
    storage a stat is a request per file, too slow for every query: there a missing object
    shows when it is read (as a damaged table)."""
    if not isinstance(location, LocalIndex):
        return
    db = location.folder
    root = Path(table_uri(db, name)) / "data"
    for fragment in dataset.get_fragments():
        for data_file in fragment.data_files():
            expected = getattr(data_file, "file_size_bytes", None)
            try:
                size = (root / data_file.path).stat().st_size
            except OSError as exc:
                raise corrupt(db, f"a data file of the {name} table is missing") from exc
            if expected and size != expected:
                raise corrupt(db, f"a data file of the {name} table is truncated")


def broken_indices(dataset: Any, location: IndexLocation, name: str) -> tuple[str, ...]:
    """The columns whose index (full-text, vector) in the table has a file missing or
    truncated."""
    if not isinstance(location, LocalIndex):
        return ()
    folder = Path(table_uri(location.folder, name)) / "_indices"
    broken: list[str] = []
    for index in dataset.describe_indices():
        if not all(_segment_intact(folder, segment) for segment in index.segments):
            broken.extend(index.field_names or ())
    return tuple(broken)


def _segment_intact(folder: Path, segment: Any) -> bool:
    try:
        files = list((folder / str(segment.uuid)).iterdir())
        size = sum(f.stat().st_size for f in files)
    except OSError:
        return False
    expected = getattr(segment, "size_bytes", None)
    return bool(files) and (not expected or size == expected)


def index_damage(db: DbLocation, columns: Sequence[str]) -> IndexCorruptError:
    """The error for indices of the chunks table that lost files: the rows are intact, and a
    plain `ctxopt index` rebuilds the indices."""
    return IndexCorruptError(
        f"the index at {db} is damaged (a file of its {_names(columns)} index is missing or "
        "truncated); `ctxopt index` rebuilds it"
    )


def repaired_message(columns: Sequence[str]) -> str:
    """What a run that rebuilt damaged indices says."""
    return f"a file of the {_names(columns)} index was missing or truncated: rebuilt it"


def _names(columns: Sequence[str]) -> str:
    return " and ".join("full-text" if c == FULL_TEXT_FIELD else c for c in columns)
