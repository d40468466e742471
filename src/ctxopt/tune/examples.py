"""Training examples from past commits: each commit's message is a task, the candidates the
index returns for it carry their feature vectors, and the answer is the code the commit
changed: each candidate chunk of a modified file holding a line the commit added is one unit
to reach, and a modified file none of whose candidates holds one is a unit as a whole (any of
its chunks reaches it).  Features are computed once per commit, with the default weights;
fitting then re-ranks the stored vectors only."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ctxopt.config.settings import Settings
from ctxopt.discover.history import added_lines
from ctxopt.index.store import IndexReader
from ctxopt.languages.naming import is_doc_path, is_test_path
from ctxopt.retrieve.scoring import DEFAULT_WEIGHTS, merge_weights, penalty_factor
from ctxopt.retrieve.search import QueryOptions, rank
from ctxopt.terms import word_count
from ctxopt.types import PastCommit, ScoredChunk

FEATURES = tuple(DEFAULT_WEIGHTS)
MIN_WORDS = 4  # shorter messages ("fix", "wip") say too little to learn from
MAX_FILES = 10  # commits modifying more source files are sweeping changes, not tasks
_SKIP = re.compile(
    r"^(revert\b|merge\b|bump\b|release\b|v?\d+(\.\d+)+\b)|this reverts commit",
    re.IGNORECASE | re.MULTILINE,
)
_TRAILER = re.compile(r"^\s*[A-Za-z]+(-[A-Za-z]+)*:\s.*$", re.MULTILINE)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Example:
    """One commit's candidates, in the default ranking's order."""

    sha: str
    features: npt.NDArray[np.float64]  # candidates x FEATURES
    factor: npt.NDArray[np.float64]  # the secondary (test/doc/changelog) factor of each
    tokens: npt.NDArray[np.float64]
    gold_of: npt.NDArray[np.int64]  # the unit a candidate reaches, -1 for none
    gold: int  # units: chunks holding an added line, and modified files without one
    task: str = ""  # the commit's message as a task
    paths: tuple[str, ...] = ()  # the modified files that are its answer
    added: frozenset[str] = frozenset()  # the lines it added to them (stripped)


def task_of(message: str) -> str:
    """The message without trailers (Signed-off-by:, Co-authored-by:, Closes: ...)."""
    return _TRAILER.sub("", message).strip()


def usable(commit: PastCommit, indexed: set[str]) -> tuple[str, ...] | None:
    """The commit's modified source files the index holds, None when it cannot teach."""
    task = task_of(commit.message)
    if word_count(task) < MIN_WORDS or _SKIP.search(commit.message):
        return None
    gold = tuple(
        p for p in commit.modified if p in indexed and not is_test_path(p) and not is_doc_path(p)
    )
    return gold if 0 < len(gold) <= MAX_FILES else None


def build_examples(
    settings: Settings,
    reader: IndexReader,
    commits: Sequence[PastCommit],
    progress: Progress | None = None,
) -> list[Example]:
    """Examples of the usable commits, in the order given.

    Ranked with the default weights, under which past commit messages do not count: the
    index keeps those of HEAD, where a commit's own message names its answer (and fitting
    their weight did not pay on the test split: README, *History as evidence*)."""
    indexed = set(reader.file_records())
    weights = merge_weights(embedder=reader.meta().embedder)
    chosen = [(c, gold) for c in commits if (gold := usable(c, indexed)) is not None]
    out: list[Example] = []
    for i, (commit, gold) in enumerate(chosen, 1):
        task = task_of(commit.message)
        found = rank(settings, task, QueryOptions(), reader=reader, weights=weights)
        added = added_lines(settings.root, commit.sha, gold)
        out.append(_example(commit.sha, found.ranked, gold, added, task=task))
        if progress is not None:
            progress(i, len(chosen))
    return out


def _example(
    sha: str,
    ranked: Sequence[ScoredChunk],
    gold: Sequence[str],
    added: frozenset[str],
    *,
    task: str = "",
) -> Example:
    holding = {
        hit.chunk.id
        for hit in ranked
        if hit.chunk.path in gold and _holds_any(hit.chunk.text, added)
    }
    files_held = {hit.chunk.path for hit in ranked if hit.chunk.id in holding}
    units: dict[str, int] = {}
    rows, factors, tokens, gold_of = [], [], [], []
    for hit in ranked:
        chunk = hit.chunk
        rows.append([hit.features.get(name, 0.0) for name in FEATURES])
        factors.append(penalty_factor(hit))
        tokens.append(float(chunk.tokens))
        if chunk.id in holding:
            gold_of.append(units.setdefault(chunk.id, len(units)))
        elif chunk.path in gold and chunk.path not in files_held:
            gold_of.append(units.setdefault(f"file:{chunk.path}", len(units)))
        else:
            gold_of.append(-1)
    unreached = sum(1 for path in gold if path not in files_held and f"file:{path}" not in units)
    return Example(
        sha,
        np.asarray(rows, dtype=np.float64).reshape(-1, len(FEATURES)),
        np.asarray(factors, dtype=np.float64),
        np.asarray(tokens, dtype=np.float64),
        np.asarray(gold_of, dtype=np.int64),
        len(units) + unreached,
        task=task,
        paths=tuple(gold),
        added=added,
    )


def _holds_any(text: str, added: frozenset[str]) -> bool:
    return bool(added) and any(line.strip() in added for line in text.split("\n"))
