"""The refresh plan: which files an incremental run must look at (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ctxopt.types import FileRecord, RefreshPlan, SourceFile


def plan_refresh(
    files: Sequence[SourceFile], stored: Mapping[str, FileRecord], *, full: bool = False
) -> RefreshPlan:
    """Compare discovered files with stored records by size and mtime.

    Files whose size and mtime match are unchanged; files whose stat differs are
    "touched" and get hashed to tell a real change from a touch.  With ``full``
    every file counts as added.
    """
    if full:
        return RefreshPlan(added=tuple(files), changed=(), deleted=(), unchanged=())
    added: list[SourceFile] = []
    touched: list[SourceFile] = []
    unchanged: list[str] = []
    for source in files:
        record = stored.get(source.path)
        if record is None:
            added.append(source)
        elif record.size == source.size and record.mtime_ns == source.mtime_ns:
            unchanged.append(source.path)
        else:
            touched.append(source)
    present = {source.path for source in files}
    deleted = sorted(path for path in stored if path not in present)
    return RefreshPlan(
        added=tuple(added),
        changed=(),
        deleted=tuple(deleted),
        unchanged=tuple(unchanged),
        touched=tuple(touched),
    )


def resolve_touched(
    plan: RefreshPlan, hashes: Mapping[str, str], stored: Mapping[str, FileRecord]
) -> tuple[RefreshPlan, tuple[SourceFile, ...]]:
    """Split touched files into changed ones and ones whose content is the same.

    Returns the plan with ``changed`` filled and ``touched`` emptied, and the
    files whose only change was their stat (their records need a new mtime).
    """
    changed: list[SourceFile] = []
    same: list[SourceFile] = []
    for source in plan.touched:
        if hashes.get(source.path) == stored[source.path].content_hash:
            same.append(source)
        else:
            changed.append(source)
    resolved = RefreshPlan(
        added=plan.added,
        changed=tuple(changed),
        deleted=plan.deleted,
        unchanged=plan.unchanged + tuple(s.path for s in same),
    )
    return resolved, tuple(same)
