from ctxopt.index.plan import plan_refresh, resolve_touched
from ctxopt.types import FileRecord, SourceFile


def source(path: str, size: int = 10, mtime: int = 1) -> SourceFile:
    return SourceFile(path, f"/r/{path}", size, mtime, "python")


def record(path: str, size: int = 10, mtime: int = 1, digest: str = "h") -> FileRecord:
    return FileRecord(path, digest, size, mtime, "python", 5, 1, 0)


def test_plan_splits_added_touched_deleted_unchanged() -> None:
    stored = {"a.py": record("a.py"), "b.py": record("b.py"), "gone.py": record("gone.py")}
    files = [source("a.py"), source("b.py", mtime=2), source("new.py")]
    plan = plan_refresh(files, stored)
    assert [s.path for s in plan.added] == ["new.py"]
    assert [s.path for s in plan.touched] == ["b.py"]
    assert plan.deleted == ("gone.py",)
    assert plan.unchanged == ("a.py",)
    assert not plan.is_empty


def test_touched_file_with_same_hash_is_not_changed() -> None:
    stored = {"a.py": record("a.py", digest="same"), "b.py": record("b.py", digest="old")}
    plan = plan_refresh([source("a.py", mtime=5), source("b.py", mtime=5)], stored)
    resolved, same = resolve_touched(plan, {"a.py": "same", "b.py": "new"}, stored)
    assert [s.path for s in resolved.changed] == ["b.py"]
    assert [s.path for s in same] == ["a.py"]
    assert "a.py" in resolved.unchanged


def test_full_plan_adds_everything() -> None:
    stored = {"a.py": record("a.py")}
    plan = plan_refresh([source("a.py")], stored, full=True)
    assert [s.path for s in plan.added] == ["a.py"]
    assert plan.unchanged == ()


def test_empty_plan_when_nothing_changed() -> None:
    stored = {"a.py": record("a.py")}
    assert plan_refresh([source("a.py")], stored).is_empty
