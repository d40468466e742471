"""The import graph of the ctxopt package, read with `ast`, and the two rules it must keep:
a stage imports only stages below it, and no import cycle exists between modules."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from pathlib import Path

# Lowest first.  A top-level module or package of ctxopt not listed here is an error,
# so a new stage has to be placed in the order before it can be imported.
STAGES: tuple[str, ...] = (
    "types",
    "interrupts",
    "errors",
    "bounded_cache",
    "token_tables",
    "token_counter",
    "tokens",
    "wording",
    "terms",
    "secrets",
    "config",
    "languages",
    "discover",
    "embed",
    "chunking",
    "index",
    "retrieve",
    "pack",
    "tune",
    "analyze",
    "app",
    "cli",
    "mcp_server",
    "background",
    "launch",
)
# Front ends at the same level: the CLI registers `ctxopt mcp`, and the MCP server reuses the
# CLI's JSON forms of results; the module graph must still have no cycle.
PEERS: dict[str, str] = {"mcp_server": "cli"}
PACKAGE = "ctxopt"

Graph = dict[str, set[str]]


def module_name(package_dir: Path, file: Path) -> str:
    parts = list(file.relative_to(package_dir.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(package_dir: Path) -> Graph:
    """Module -> the ctxopt modules it imports, at module level or inside functions."""
    files = {module_name(package_dir, f): f for f in sorted(package_dir.rglob("*.py"))}
    graph: Graph = {}
    for name, file in files.items():
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        is_package = file.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(tree):
            targets.update(_imported(node, name, is_package, files))
        targets.discard(name)
        graph[name] = targets
    return graph


def _imported(node: ast.AST, module: str, is_package: bool, known: Mapping[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        return {_known(a.name, known) for a in node.names if _ours(a.name)}
    if not isinstance(node, ast.ImportFrom):
        return set()
    base = node.module or ""
    if node.level:
        anchor = module.split(".")
        anchor = anchor if is_package else anchor[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    if not _ours(base):
        return set()
    out = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        out.add(sub if sub in known else _known(base, known))
    return out


def _ours(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _known(name: str, known: Mapping[str, Path]) -> str:
    """The longest prefix of name that is a module of the package."""
    parts = name.split(".")
    while parts and ".".join(parts) not in known:
        parts.pop()
    return ".".join(parts) or name


def stage_of(module: str) -> str | None:
    """The stage a module belongs to (its first name under ctxopt); None for the package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def layer_violations(graph: Mapping[str, set[str]], stages: Sequence[str] = STAGES) -> list[str]:
    """Every import of a higher (or unknown) stage, as 'a -> b' lines."""
    rank = {stage: i for i, stage in enumerate(stages)}
    rank.update({peer: rank[of] for peer, of in PEERS.items() if peer in rank and of in rank})
    problems = []
    for module, targets in sorted(graph.items()):
        own = stage_of(module)
        for target in sorted(targets):
            other = stage_of(target)
            if own is None or other is None or own == other:
                continue
            if own not in rank or other not in rank:
                problems.append(f"{module} -> {target}: stage not in the order")
            elif rank[other] > rank[own]:
                problems.append(f"{module} -> {target}: {own} imports the higher stage {other}")
    return problems


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found
