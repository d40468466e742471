from ctxopt.index.graph import build_graph, pagerank, resolve_import


def test_resolves_python_js_go_and_relative_imports() -> None:
    graph = build_graph(
        {
            "inventory/api.py": ["inventory.storage", ".models", "json"],
            "inventory/storage.py": ["inventory.models"],
            "inventory/models.py": [],
            "web/src/client.ts": ["./format", "react"],
            "web/src/format.ts": [],
            "cmd/report/main.go": ["example.com/inv/internal/report", "fmt"],
            "internal/report/report.go": [],
        }
    )
    assert graph.imports["inventory/api.py"] == ("inventory/models.py", "inventory/storage.py")
    assert graph.imports["web/src/client.ts"] == ("web/src/format.ts",)
    assert graph.imports["cmd/report/main.go"] == ("internal/report/report.go",)
    assert graph.imported_by["inventory/models.py"] == ("inventory/api.py", "inventory/storage.py")


def test_external_packages_resolve_to_nothing() -> None:
    assert resolve_import("a.py", "numpy", {}) == []


def test_pagerank_favours_imported_files_and_survives_cycles() -> None:
    nodes = ["a", "b", "c", "d"]
    edges = {"a": ["c"], "b": ["c"], "c": ["d"], "d": ["c"]}
    rank = pagerank(nodes, edges)
    assert rank["c"] > rank["a"]
    assert abs(sum(rank.values()) / len(rank) - 1.0) < 1e-6
