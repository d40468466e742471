"""The development, test and held-out splits of the retrieval benchmark, read from splits.toml."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from benchlib.gitutil import BenchError

SPLITS_FILE = Path(__file__).resolve().with_name("splits.toml")
ROLES = ("dev", "test", "heldout")


@dataclass(frozen=True)
class SplitRepo:
    repo: str  # owner/name on GitHub
    dir: str  # folder name under the bench dir
    role: str  # "dev", "test" or "heldout"
    language: str
    commit: str  # cases are mined from the commits reachable from this one


def _roles() -> str:
    return ", ".join(ROLES[:-1]) + " or " + ROLES[-1]


def load_splits(path: Path = SPLITS_FILE) -> tuple[SplitRepo, ...]:
    """Every repository of the file, in file order; BenchError on a malformed entry."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BenchError(f"cannot read {path}: {exc}") from exc
    out: list[SplitRepo] = []
    for entry in data.get("repo", []):
        try:
            repo = SplitRepo(
                repo=str(entry["repo"]),
                dir=str(entry["dir"]),
                role=str(entry["role"]),
                language=str(entry["language"]),
                commit=str(entry["commit"]),
            )
        except KeyError as exc:
            raise BenchError(f"{path}: an entry lacks {exc.args[0]!r}: {entry}") from exc
        if repo.role not in ROLES:
            raise BenchError(f"{path}: {repo.repo} has role {repo.role!r}, not {_roles()}")
        out.append(repo)
    return tuple(out)


def split_repos(role: str, only: Sequence[str] = (), path: Path = SPLITS_FILE) -> list[SplitRepo]:
    """The repositories of one split, narrowed to the given folder names when any."""
    if role not in ROLES:
        raise BenchError(f"--split must be {_roles()}, not {role!r}")
    repos = [r for r in load_splits(path) if r.role == role]
    if only:
        unknown = sorted(set(only) - {r.dir for r in repos})
        if unknown:
            names = ", ".join(r.dir for r in repos)
            raise BenchError(f"not in the {role} split: {', '.join(unknown)} (it has {names})")
        repos = [r for r in repos if r.dir in only]
    return repos
