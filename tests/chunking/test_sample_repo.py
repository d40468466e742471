"""The sample repo chunks into the symbols EXPECTED.md relies on."""

from __future__ import annotations

from ctxopt.chunking import chunk_file, read_source
from ctxopt.languages import detect_language
from ctxopt.types import Chunk, ChunkKind
from tests.chunking.conftest import REPO_DIR


def _all_chunks() -> list[Chunk]:
    out: list[Chunk] = []
    for path in sorted(REPO_DIR.rglob("*")):
        if path.is_file():
            rel = path.relative_to(REPO_DIR).as_posix()
            text, errors = read_source(str(path))
            assert errors == 0
            result = chunk_file(rel, text, detect_language(rel))
            assert result.fallback_reason == "", rel
            out.extend(result.chunks)
    return out


def test_expected_symbols_are_chunks():
    found = {(c.path, c.qualified_name, c.kind) for c in _all_chunks()}
    for expected in [
        ("inventory/storage.py", "save_inventory", ChunkKind.FUNCTION),
        ("inventory/storage.py", "load_inventory", ChunkKind.FUNCTION),
        ("inventory/api.py", "handle_reserve", ChunkKind.FUNCTION),
        ("inventory/models.py", "Warehouse", ChunkKind.CLASS),
        ("inventory/errors.py", "OutOfStockError", ChunkKind.CLASS),
        ("tests/test_storage.py", "test_load_rejects_unknown_version", ChunkKind.TEST),
        ("tests/test_storage.py", "make_warehouse", ChunkKind.TEST),
        ("web/src/format.ts", "formatCents", ChunkKind.FUNCTION),
        ("web/src/client.ts", "InventoryClient", ChunkKind.CLASS),
        ("cmd/report/main.go", "fetchReport", ChunkKind.FUNCTION),
        ("docs/design.md", "Design notes > Storage", ChunkKind.DOC),
        ("config/settings.yaml", "settings.yaml", ChunkKind.CONFIG),
    ]:
        assert expected in found, expected


def test_cross_file_imports_and_references():
    chunks = _all_chunks()
    api = next(c for c in chunks if c.qualified_name == "handle_reserve")
    assert "inventory.storage" in api.imports and "inventory.models" in api.imports
    assert {"load_inventory", "save_inventory", "OutOfStockError"} <= set(api.references)
    client = next(c for c in chunks if c.qualified_name == "itemRow")
    assert client.imports == ("./format",)
    assert {"formatCents", "stockLabel"} <= set(client.references)
    warehouse = next(c for c in chunks if c.qualified_name == "Warehouse")
    assert "Warehouse.reserve" in warehouse.defines
