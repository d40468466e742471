"""Tokens per compression level over the indexed code, measured from the index.

The chunks' text is stored in the index exactly as it stands in the files, with its
cl100k count.  Each level's compressor (the same one `pack` uses) runs on that stored
text and the output is counted: no file is read and the repository is not re-chunked.
On a large index a deterministic sample of chunks (ordered by id, a hash of path and
name, so it spreads over the repository) stands for the whole; the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from ctxopt import tokens
from ctxopt.index.stats import outline_totals, stored_chunks
from ctxopt.index.store import IndexReader
from ctxopt.pack.compress import LEVELS, compress

DEFAULT_SAMPLE_TOKENS = 200_000  # about 7 s of compressing (ctxopt: 193k tokens); 0: all


@dataclass(frozen=True)
class LevelRatio:
    level: str  # none, light, medium, aggressive
    tokens: int  # cl100k tokens of the measured chunks at this level
    ratio: float  # tokens at this level / tokens uncompressed
    saved_percent: float  # 100 * (1 - ratio)


@dataclass(frozen=True)
class CompressionReport:
    chunks: int  # chunks measured
    tokens: int  # their tokens, uncompressed
    index_chunks: int  # code chunks in the index (class outlines left out)
    index_tokens: int
    levels: tuple[LevelRatio, ...]
    outline_chunks: int = 0  # class outlines (summaries of split classes), not measured:
    outline_tokens: int = 0  # their methods are chunks too

    @property
    def sampled(self) -> bool:
        return self.chunks < self.index_chunks


def compression_ratios(
    reader: IndexReader, *, sample_tokens: int = DEFAULT_SAMPLE_TOKENS
) -> CompressionReport:
    """Tokens and ratio per level over the stored chunks (a sample past sample_tokens)."""
    everything = stored_chunks(reader)
    measured = everything
    if sample_tokens > 0:
        held = 0
        for count, chunk in enumerate(everything):
            if held >= sample_tokens:
                measured = everything[:count]
                break
            held += chunk.tokens
    totals = dict.fromkeys(LEVELS, 0)
    for chunk in measured:
        totals["none"] += chunk.tokens
        for level in LEVELS[1:]:
            out = compress(chunk.text, chunk.language, level, start_line=chunk.start_line)
            totals[level] += tokens.count(out)
    base = totals["none"]
    levels = tuple(
        LevelRatio(
            level=level,
            tokens=totals[level],
            ratio=round(totals[level] / base, 4) if base else 1.0,
            saved_percent=round(100 * (1 - totals[level] / base), 2) if base else 0.0,
        )
        for level in LEVELS
    )
    outlines = outline_totals(reader)
    return CompressionReport(
        chunks=len(measured),
        tokens=base,
        index_chunks=len(everything),
        index_tokens=sum(c.tokens for c in everything),
        levels=levels,
        outline_chunks=outlines.chunks,
        outline_tokens=outlines.tokens,
    )
