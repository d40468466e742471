"""Conditional compilation and region lines join the declaration they guard: a guard is shown
with its code, a doc comment above a guard stays with its declaration, and no chunk is only
directive lines."""

from __future__ import annotations

import re

from ctxopt.chunking import chunk_file
from ctxopt.types import Chunk, ChunkKind
from tests.chunking.conftest import many_methods

_DIRECTIVE = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif|region|endregion)\b")

GUARDED_C = """\
#include <stdlib.h>

static int plain(void) {
  return 1;
}

/* Frees the thing and everything it holds. */
#ifdef HAVE_FREE
static void free_thing(void *p) {
  free(p);
}
#endif

#if defined(__linux__)
int platform_rank(int x) {
  return x + 1;
}
#else
int platform_rank(int x) {
  return x;
}
#endif

#ifdef UNUSED_BLOCK

int spaced_out(void) { return 0; }
#endif
"""


def _only_directives(chunk: Chunk) -> bool:
    lines = [line for line in chunk.text.splitlines() if line.strip()]
    return bool(lines) and all(_DIRECTIVE.match(line) for line in lines)


def _spans(chunks: list[Chunk], name: str) -> list[tuple[int, int]]:
    return [(c.start_line, c.end_line) for c in chunks if c.name == name]


def test_c_guards_join_the_functions_they_guard() -> None:
    result = chunk_file("guards.c", GUARDED_C, "c")
    assert result.fallback_reason == ""
    chunks = list(result.chunks)
    assert _spans(chunks, "plain") == [(3, 5)]
    assert _spans(chunks, "free_thing") == [(7, 12)]  # comment, `#ifdef`, body, `#endif`
    free_thing = next(c for c in chunks if c.name == "free_thing")
    assert "Frees the thing" in free_thing.docstring
    assert _spans(chunks, "platform_rank") == [(14, 17), (18, 22)]  # `#if` ... `#else` ... `#endif`
    assert not [c for c in chunks if c.kind is not ChunkKind.MODULE and _only_directives(c)]
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind is ChunkKind.MODULE]
    assert not [m for m in modules if all(n in (12, 14, 18, 22) for n in range(m[0], m[1] + 1))]


def test_a_guard_apart_from_its_function_stays_where_it_is() -> None:
    """A blank line between a guard and a declaration: nothing says which it guards."""
    chunks = list(chunk_file("guards.c", GUARDED_C, "c").chunks)
    assert _spans(chunks, "spaced_out") == [(26, 27)]  # its `#endif` right below, not the `#ifdef`
    guard = [c for c in chunks if c.start_line <= 24 <= c.end_line]
    assert [c.kind for c in guard] == [ChunkKind.MODULE]


GUARDED_CS = """\
namespace Ledger;

public class Sink : ILogSink, IDisposable
#if FEATURE_ASYNCDISPOSABLE
    , IAsyncDisposable
#endif
{
    public bool IsDisposed { get; set; }

    public void Dispose()
    {
        IsDisposed = true;
    }

    /// <summary>Disposes without blocking.</summary>
#if FEATURE_ASYNCDISPOSABLE
    public ValueTask DisposeAsync()
    {
        Dispose();
        return default;
    }
#endif

    #region Writing
    public void Emit(LogEvent logEvent)
    {
        Write(logEvent);
    }
    #endregion
"""


def _long_class(text: str) -> str:
    """text closed with enough methods that the class is cut into its members."""
    methods = many_methods(
        "\n    public int Step{i}(int x)\n    {{\n",
        '        x = Mix(x, {j}, "step {i} part {j}");\n',
        "        return x;\n    }\n",
    )
    return text + methods + "}\n"


def test_csharp_member_under_a_guard_keeps_its_guard_and_its_doc_comment() -> None:
    text = _long_class(GUARDED_CS)
    result = chunk_file("Sink.cs", text, "csharp")
    assert result.fallback_reason == ""
    chunks = list(result.chunks)
    assert _spans(chunks, "DisposeAsync") == [(15, 22)]  # doc comment through `#endif`
    dispose_async = next(c for c in chunks if c.name == "DisposeAsync")
    assert "Disposes without blocking" in dispose_async.docstring
    assert _spans(chunks, "Emit") == [(24, 29)]  # `#region` through `#endregion`
    assert not [c for c in chunks if _only_directives(c)]
