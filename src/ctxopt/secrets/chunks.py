"""Secrets of chunks: found once at index time (`with_secrets`), redacted on the way out
(`redacted_chunk`) so that no output shows them.

Redaction keeps a chunk's line count: a finding that spans lines (a private key block)
becomes its label on its first line and empty lines after, so line numbers, excerpts and
`--line-numbers` stay right.  The fields derived from the text (signature, docstring,
names) lose every line of each secret value too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ctxopt import tokens
from ctxopt.secrets.detect import find_secrets
from ctxopt.secrets.findings import SecretFinding, SecretKind
from ctxopt.secrets.redact import redact
from ctxopt.types import Choice, Chunk, ChunkedFile, Fidelity, ScoredChunk, SecretSpan

MIN_PIECE = 4  # shorter lines of a secret value are not looked for in the other fields


def chunk_secrets(text: str) -> tuple[SecretSpan, ...]:
    """The secrets of a chunk's text as spans to store.  Should the detector fail on a text,
    the whole text counts as one secret: an output then shows none of it."""
    try:
        found = find_secrets(text)
    except Exception:
        return (SecretSpan(0, len(text), SecretKind.HIGH_ENTROPY_STRING.value),) if text else ()
    return tuple(SecretSpan(f.start, f.end, f.kind.value) for f in found)


def with_secrets(chunked: ChunkedFile) -> ChunkedFile:
    """The chunks of a file, each carrying the secrets found in its text."""
    chunks = tuple(_with_spans(c, chunk_secrets(c.text)) for c in chunked.chunks)
    return replace(chunked, chunks=chunks)


def _with_spans(chunk: Chunk, spans: tuple[SecretSpan, ...]) -> Chunk:
    """The chunk carrying spans (itself when they are what it carries: most chunks hold none
    and a copy per chunk costs more than the scan)."""
    return chunk if spans == chunk.secrets else replace(chunk, secrets=spans)


def _findings(spans: Iterable[SecretSpan]) -> list[SecretFinding]:
    return [SecretFinding(s.start, s.end, SecretKind(s.kind)) for s in spans]


def redact_keeping_lines(text: str, findings: Iterable[SecretFinding]) -> str:
    """text with each finding replaced by its label, followed by as many line breaks as the
    finding held (spans outside the text are clipped to it)."""
    return redact(text, findings, keep_lines=True)


def redacted_chunk(chunk: Chunk) -> Chunk:
    """The chunk as outputs may show it: its stored secrets replaced by `[REDACTED:<kind>]`
    in the text, and in the signature, docstring and names wherever a line of a secret
    value appears.  A chunk without secrets is returned as it is."""
    if not chunk.secrets:
        return chunk
    findings = _findings(chunk.secrets)
    text = redact_keeping_lines(chunk.text, findings)
    pieces = _pieces(chunk.text, findings)
    return replace(
        chunk,
        text=text,
        signature=_scrub(chunk.signature, pieces, scan=True),
        docstring=_scrub(chunk.docstring, pieces, scan=True),
        name=_scrub(chunk.name, pieces),
        qualified_name=_scrub(chunk.qualified_name, pieces),
        tokens=tokens.count(text),
    )


def _pieces(text: str, findings: Sequence[SecretFinding]) -> list[tuple[str, str]]:
    """(line of a secret value, its label), longest first."""
    pieces = {
        line.strip(): found.label
        for found in findings
        for line in text[found.start : found.end].splitlines()
        if len(line.strip()) >= MIN_PIECE
    }
    return sorted(pieces.items(), key=lambda item: -len(item[0]))


def _scrub(value: str, pieces: Sequence[tuple[str, str]], *, scan: bool = False) -> str:
    if scan and value:
        value = redact_keeping_lines(value, find_secrets(value))
    for piece, label in pieces:
        if piece in value:
            value = value.replace(piece, label)
    return value


def shown_secrets(chosen: Iterable[Choice]) -> int:
    """How many stored findings fall on the lines the chosen entries show: every line of a
    full entry, the first line and the shown lines of an excerpt, the signature's lines of a
    signature (every line of a class summary), the first line of a stub."""
    count = 0
    for choice in chosen:
        chunk = choice.hit.chunk
        if not chunk.secrets or choice.fidelity is Fidelity.PATH:
            continue
        first, last = _shown_lines(choice)
        for span in chunk.secrets:
            line = chunk.start_line + chunk.text.count("\n", 0, span.start)
            end_line = chunk.start_line + chunk.text.count("\n", 0, span.end)
            shown_first = choice.fidelity is Fidelity.EXCERPT and line == chunk.start_line
            if shown_first or (line <= last and end_line >= first):
                count += 1
    return count


def _shown_lines(choice: Choice) -> tuple[int, int]:
    chunk = choice.hit.chunk
    if choice.fidelity is Fidelity.FULL:
        return chunk.start_line, chunk.end_line
    if choice.fidelity is Fidelity.EXCERPT:
        return choice.start_line, choice.end_line
    if choice.fidelity is Fidelity.SIGNATURE:
        if chunk.summary:
            return chunk.start_line, chunk.end_line
        return chunk.start_line, chunk.start_line + max(0, chunk.signature.count("\n"))
    return chunk.start_line, chunk.start_line


def redacted_hits(hits: Iterable[ScoredChunk]) -> list[ScoredChunk]:
    """The hits with their chunks redacted (`redacted_chunk`)."""
    return [replace(h, chunk=redacted_chunk(h.chunk)) if h.chunk.secrets else h for h in hits]
