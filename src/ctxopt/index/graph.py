"""The file import graph: resolving import strings to files, and a PageRank prior (pure)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ctxopt.languages import ALL

_SPLIT = re.compile(r"::|\.|/|\\")
_RULES = [language.imports for language in ALL if language.imports is not None]
_STRIP_EXT = re.compile(
    r"\.("
    + "|".join(sorted({ext[1:] for rules in _RULES for ext in rules.module_extensions}))
    + ")$"
)
_INDEX_NAMES = frozenset(name for rules in _RULES for name in rules.index_names)
_PATH_NOISE = frozenset(part for rules in _RULES for part in rules.path_noise)


@dataclass(frozen=True)
class FileGraph:
    imports: dict[str, tuple[str, ...]]  # file -> files it imports
    imported_by: dict[str, tuple[str, ...]]  # file -> files importing it
    rank: dict[str, float]  # PageRank, mean 1.0


def _module_key(path: str) -> tuple[str, ...]:
    """Path parts without extension; a package index file stands for its folder."""
    stem = _STRIP_EXT.sub("", path)
    parts = tuple(p for p in stem.split("/") if p)
    if len(parts) > 1 and parts[-1] in _INDEX_NAMES:
        return parts[:-1]
    return parts


def _folder_parts(path: str) -> tuple[str, ...]:
    """The folders of a repository-relative POSIX path, outermost first (what
    PurePosixPath(path).parent.parts gives for such a path, without building one)."""
    return tuple([part for part in path.split("/") if part not in ("", ".")][:-1])


def _suffix_table(paths: Sequence[str]) -> dict[tuple[str, ...], list[str]]:
    """Every suffix of every file's module key -> files (for import resolution)."""
    table: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for path in paths:
        key = _module_key(path)
        for start in range(len(key)):
            table[key[start:]].append(path)
        folder = _folder_parts(path)
        for start in range(len(folder)):
            table[("<dir>", *folder[start:])].append(path)
    return table


def _relative_parts(source: str, spec: str) -> tuple[str, ...] | None:
    """Resolve ./x, ../x and Python's leading-dot relative imports against source's folder."""
    base = list(_folder_parts(source))
    if spec.startswith("."):
        if spec.startswith("./") or spec.startswith("../"):
            parts = []
            for part in spec.split("/"):
                if part == "..":
                    if base:
                        base.pop()
                elif part and part != ".":
                    parts.append(part)
            return (*base, *_module_key("/".join(parts)))
        dots = len(spec) - len(spec.lstrip("."))
        for _ in range(dots - 1):
            if base:
                base.pop()
        rest = [p for p in spec.lstrip(".").split(".") if p]
        return (*base, *rest)
    return None


def resolve_import(source: str, spec: str, table: Mapping[tuple[str, ...], list[str]]) -> list[str]:
    """Files an import string most likely refers to (empty for external packages)."""
    relative = _relative_parts(source, spec)
    candidates: list[tuple[str, ...]] = []
    if relative is not None:
        candidates.append(relative)
    else:
        cleaned = _STRIP_EXT.sub("", spec.strip("<>\"' "))
        parts = tuple(p for p in _SPLIT.split(cleaned) if p and p not in _PATH_NOISE)
        for start in range(len(parts)):
            candidates.append(parts[start:])
            if len(parts) - start <= 1:
                break
    for parts in candidates:
        for trim in range(0, min(2, len(parts))):
            key = parts[: len(parts) - trim] if trim else parts
            if not key:
                continue
            hits = table.get(key) or table.get(("<dir>", *key))
            if hits and len(hits) <= 12:
                return [h for h in hits if h != source]
    return []


def build_graph(file_imports: Mapping[str, Sequence[str]]) -> FileGraph:
    """Resolve every file's imports to files of the repository and rank the files."""
    paths = sorted(file_imports)
    table = _suffix_table(paths)
    imports: dict[str, tuple[str, ...]] = {}
    imported_by: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        targets: set[str] = set()
        for spec in file_imports[path]:
            targets.update(resolve_import(path, spec, table))
        imports[path] = tuple(sorted(targets))
        for target in targets:
            imported_by[target].add(path)
    return FileGraph(
        imports=imports,
        imported_by={p: tuple(sorted(imported_by.get(p, ()))) for p in paths},
        rank=pagerank(paths, imports),
    )


def pagerank(
    nodes: Sequence[str],
    edges: Mapping[str, Sequence[str]],
    *,
    damping: float = 0.85,
    rounds: int = 30,
) -> dict[str, float]:
    """PageRank scaled so the mean is 1.0; cycles are fine (power iteration)."""
    n = len(nodes)
    if n == 0:
        return {}
    rank = dict.fromkeys(nodes, 1.0 / n)
    for _ in range(rounds):
        nxt = dict.fromkeys(nodes, (1 - damping) / n)
        dangling = 0.0
        for node in nodes:
            targets = edges.get(node, ())
            if targets:
                share = damping * rank[node] / len(targets)
                for target in targets:
                    if target in nxt:
                        nxt[target] += share
            else:
                dangling += damping * rank[node]
        for node in nodes:
            nxt[node] += dangling / n
        rank = nxt
    return {node: round(value * n, 6) for node, value in rank.items()}
