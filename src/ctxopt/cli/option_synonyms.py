"""What other tools call our options: an unknown option that means one of a command's own
options (`query --limit`, `pack --max-tokens`) is answered with the option to use instead."""

from __future__ import annotations

from collections.abc import Collection

# an option name used by other tools of this kind -> ours, in order of preference; only the
# ones the command at hand has are offered
SYNONYMS: dict[str, tuple[str, ...]] = {
    "--limit": ("--top", "--budget"),
    "-n": ("--top",),
    "--count": ("--top",),
    "--num": ("--top",),
    "--top-k": ("--top",),
    "--topk": ("--top",),
    "--max-results": ("--top",),
    "--results": ("--top",),
    "--max-tokens": ("--budget", "--window-tokens"),
    "--tokens": ("--budget", "--window-tokens"),
    "--token-budget": ("--budget",),
    "--token-limit": ("--budget",),
    "--context-size": ("--budget", "--window-tokens"),
    "--context-window": ("--window-tokens", "--budget"),
    "--window": ("--window-tokens",),
    "--chunk-size": ("--window-tokens",),
    "--tokenizer": ("--model",),
    "--encoding": ("--model",),
    "--out": ("--output",),
    "--output-file": ("--output",),
    "--language": ("--lang",),
    "--languages": ("--lang",),
    "--type": ("--kind",),
    "--include": ("--glob",),
    "--filter": ("--glob",),
    "--ignore": ("--glob", "--exclude"),
    "--exclude": ("--glob",),
    "--verbose": ("--explain",),
    "-v": ("--explain",),
    "--debug": ("--explain",),
    "--why": ("--explain",),
    "--repo": ("--path",),
    "--dir": ("--path",),
    "--directory": ("--path",),
    "--root": ("--path",),
    "-C": ("--path",),
    "--force": ("--full",),
    "--rebuild": ("--full",),
    "--reindex": ("--full",),
    "--clean": ("--full", "--reset"),
    "--branch": ("--ref",),
    "--rev": ("--ref",),
    "--commit": ("--ref",),
    "--style": ("--format",),
    "--silent": ("--quiet",),
    "--clipboard": ("--copy",),
}


def instead_of(unknown: str, known: Collection[str]) -> str | None:
    """The command's own option that `unknown` (as another tool spells it) stands for, if the
    command has one: `--limit` is `--top` in `query` and `--budget` in `pack`."""
    name = unknown.split("=", 1)[0]
    return next((ours for ours in SYNONYMS.get(name, ()) if ours in known), None)
