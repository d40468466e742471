"""Rendering a selection as a prompt: markdown, xml or plain, grouped by file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from ctxopt.languages import by_name
from ctxopt.pack.labels import chunk_place, entry_label, shown_name
from ctxopt.pack.row_numbers import shown_rows
from ctxopt.pack.xml_text import xml_cdata, xml_comment, xml_escape
from ctxopt.types import Choice, Chunk, Fidelity
from ctxopt.wording import PROMPT_HEADER_START, line_span, lines_words, shown_path

FORMATS = ("markdown", "xml", "plain")

INSTRUCTIONS = (
    "Use the code above to do the task. It is a selected subset of the repository, "
    "not the whole codebase: some bodies are shortened (markers give the elided line "
    "ranges) and other files exist. Cite file paths and line numbers; if you need code "
    "that is not shown, ask for it by path."
)


MAX_MERGE_GAP = 3  # whole chunks at most this many blank lines apart share one entry
GapCheck = Callable[[Chunk, Chunk], bool]  # are only blank lines between these two chunks?
OutlineRows = Callable[[Chunk], tuple[int, ...] | None]  # work_tree.WorkTree.outline_rows


@dataclass(frozen=True)
class FileGroup:
    path: str
    language: str
    entries: tuple[tuple[Choice, ...], ...]  # in line order; neighbouring whole chunks merged

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(c for entry in self.entries for c in entry)

    @property
    def ranges(self) -> str:
        return ", ".join(line_span(run[0].start_line, run[-1].end_line) for run in self.entries)

    @property
    def lines(self) -> str:
        """ "lines 3-9, 12" or "line 12": what the file's header says it shows."""
        single = (
            len(self.entries) == 1 and self.entries[0][0].start_line == self.entries[0][-1].end_line
        )
        return lines_words(self.ranges, single)


def merge_runs(
    choices: Sequence[Choice], gap_is_blank: GapCheck | None
) -> tuple[tuple[Choice, ...], ...]:
    """Whole chunks (in line order) that only blank lines separate, as one entry each: one
    label and one fence instead of several."""
    runs: list[list[Choice]] = []
    for choice in choices:
        if runs and _neighbours(runs[-1][-1], choice, gap_is_blank):
            runs[-1].append(choice)
        else:
            runs.append([choice])
    return tuple(tuple(run) for run in runs)


def _neighbours(before: Choice, after: Choice, gap_is_blank: GapCheck | None) -> bool:
    if not before.fidelity == after.fidelity == Fidelity.FULL:
        return False
    gap = after.start_line - before.end_line - 1
    if gap == 0:
        return True
    return (
        0 < gap <= MAX_MERGE_GAP
        and gap_is_blank is not None
        and gap_is_blank(before.hit.chunk, after.hit.chunk)
    )


@dataclass(frozen=True)
class RenderInput:
    repo_name: str
    task: str
    groups: tuple[FileGroup, ...]
    elsewhere: tuple[Choice, ...]  # path-only entries
    overview: str  # repository structure, "" for none
    shown_files: int
    total_files: int
    repo_tokens: int
    line_numbers: bool
    # the file line of each row of a class outline (whose rows skip the bodies), or None
    outline_rows: OutlineRows | None = None


def group_by_file(
    choices: Sequence[Choice], order: str = "relevance", gap_is_blank: GapCheck | None = None
) -> list[FileGroup]:
    """Files by their best score (ties: path); chunks in line order inside a file, whole
    chunks next to each other merged into one entry (gap_is_blank vouches for the lines
    between them; without it only chunks with no line between are merged).

    With order "edges" the most relevant files sit at both ends (against "lost in
    the middle"): 1st, 3rd, 5th ... then ... 6th, 4th, 2nd.
    """
    by_file: dict[str, list[Choice]] = {}
    for choice in choices:
        by_file.setdefault(choice.hit.chunk.path, []).append(choice)
    best = {p: max(c.hit.score for c in cs) for p, cs in by_file.items()}
    paths = sorted(by_file, key=lambda p: (-best[p], p))
    if order == "edges":
        paths = paths[0::2] + paths[1::2][::-1]
    groups = []
    for path in paths:
        ordered = sorted(by_file[path], key=lambda c: (c.start_line, c.end_line))
        runs = merge_runs(ordered, gap_is_blank)
        groups.append(FileGroup(path, ordered[0].hit.chunk.language, runs))
    return groups


def run_text(
    run: Sequence[Choice],
    *,
    line_numbers: bool,
    outline_rows: OutlineRows | None = None,
) -> str:
    """The body of an entry: one chunk, or neighbouring whole chunks with the blank lines
    between them; line numbers for whole chunks and excerpts whose every row is found among
    the lines they were indexed from (a compressed chunk's rows skip the comments it left
    out, a marker's row gets none; a class outline's rows by outline_rows, where its file
    still holds them)."""
    parts = [run[0].content]
    for before, after in pairwise(run):
        parts.append("\n" * (after.start_line - before.end_line - 1) + after.content)
    text = "\n".join(parts)
    if not line_numbers or not all(c.fidelity in NUMBERED for c in run):
        return text
    rows = text.split("\n")
    numbers = _row_numbers(run, outline_rows)
    if numbers is None or len(numbers) != len(rows):
        return text
    width = len(str(max((n for n in numbers if n is not None), default=0)))
    return "\n".join(
        f"{'' if n is None else n:>{width}}| {row}" for n, row in zip(numbers, rows, strict=True)
    )


def _run_text(run: Sequence[Choice], data: RenderInput) -> str:
    return run_text(run, line_numbers=data.line_numbers, outline_rows=data.outline_rows)


NUMBERED = (Fidelity.FULL, Fidelity.EXCERPT)  # what --line-numbers numbers


def _row_numbers(
    run: Sequence[Choice], outline_rows: OutlineRows | None
) -> list[int | None] | None:
    """The file line of each row of a run's text (its chunks and the blank lines between;
    None for an elision marker's row)."""
    numbers: list[int | None] = []
    for i, choice in enumerate(run):
        chunk = choice.hit.chunk
        if i:
            numbers.extend(range(run[i - 1].end_line + 1, choice.start_line))
        if chunk.summary:
            lines = outline_rows(chunk) if outline_rows is not None else None
        else:
            lines = tuple(range(chunk.start_line, chunk.end_line + 1))
        if lines is None:
            return None
        if choice.content != chunk.text:  # compressed: its rows are some of the chunk's rows
            rows = shown_rows(chunk.text, choice.content, chunk.start_line)
            if rows is None or len(lines) != chunk.text.count("\n") + 1:
                return None
            numbers.extend(None if row is None else lines[row] for row in rows)
            continue
        numbers.extend(lines)
    return numbers


def run_label(run: Sequence[Choice]) -> str:
    """One chunk's label, or the names of the merged chunks and the lines they span."""
    return entry_label(run)


def header_text(data: RenderInput) -> str:
    return (
        f"{PROMPT_HEADER_START} `{data.repo_name}` "
        f"({data.shown_files} of {data.total_files} files), chosen by ctxopt from "
        f"{data.repo_tokens:,} tokens of code. It is not the entire codebase."
    )


def _fence(text: str) -> str:
    if "```" not in text:
        return "```"  # no line of three backticks or more
    longest = max((len(run) for run in text.split("\n") if set(run) == {"`"}), default=0)
    return "`" * max(3, longest + 1)


def render_markdown(data: RenderInput) -> str:
    parts = [f"# Context\n\n{header_text(data)}\n"]
    if data.overview:
        parts.append(f"## Repository structure\n\n```\n{data.overview}\n```\n")
    for group in data.groups:
        parts.append(f"## {shown_path(group.path)} ({group.language}, {group.lines})\n")
        for run in group.entries:
            body = _run_text(run, data)
            fence = _fence(body)
            label = run_label(run)
            parts.append(f"{label}\n{fence}{_lang_tag(group.language)}\n{body}\n{fence}\n")
    if data.elsewhere:
        lines = [f"- {_place(c)}" for c in data.elsewhere]
        parts.append("## Other relevant places (not shown)\n\n" + "\n".join(lines) + "\n")
    parts.append(f"## Task\n\n{data.task}\n\n## Instructions\n\n{INSTRUCTIONS}\n")
    return "\n".join(parts)


def render_xml(data: RenderInput) -> str:
    """One well-formed XML document whatever the code holds: code in CDATA sections, every
    other text escaped, characters XML 1.0 forbids replaced (see `ctxopt.pack.xml_text`)."""
    parts = ["<prompt>", "<context>", f"<note>{xml_escape(header_text(data))}</note>"]
    if data.overview:
        overview = xml_escape(data.overview)
        parts.append(f"<repository_structure>\n{overview}\n</repository_structure>")
    parts.append("<documents>")
    for index, group in enumerate(data.groups, 1):
        parts.append(f'<document index="{index}">')
        parts.append(f"<source>{xml_escape(group.path)}</source>")
        parts.append(f"<language>{xml_escape(group.language)}</language>")
        parts.append(f"<lines>{group.ranges}</lines>")
        parts.append("<document_content>")
        for run in group.entries:
            parts.append(xml_comment(run_label(run)))
            parts.append(xml_cdata(_run_text(run, data)))
        parts.append("</document_content>")
        parts.append("</document>")
    parts.append("</documents>")
    if data.elsewhere:
        places = "\n".join(xml_escape(_place(c)) for c in data.elsewhere)
        parts.append(f"<other_relevant_places>\n{places}\n</other_relevant_places>")
    parts.append("</context>")
    parts.append(f"<task>\n{xml_escape(data.task)}\n</task>")
    parts.append(f"<instructions>\n{xml_escape(INSTRUCTIONS)}\n</instructions>")
    parts.append("</prompt>")
    return "\n".join(parts) + "\n"


def render_plain(data: RenderInput) -> str:
    parts = [header_text(data), ""]
    if data.overview:
        parts += ["Repository structure:", data.overview, ""]
    for group in data.groups:
        parts.append(f"=== {shown_path(group.path)} ({group.language}, {group.lines}) ===")
        for run in group.entries:
            parts.append(f"--- {run_label(run)}")
            parts.append(_run_text(run, data))
        parts.append("")
    if data.elsewhere:
        parts += ["Other relevant places (not shown):", *(_place(c) for c in data.elsewhere), ""]
    parts += ["TASK:", data.task, "", "INSTRUCTIONS:", INSTRUCTIONS]
    return "\n".join(parts) + "\n"


RENDERERS = {"markdown": render_markdown, "xml": render_xml, "plain": render_plain}


def render(data: RenderInput, fmt: str) -> str:
    return RENDERERS[fmt](data)


def _place(choice: Choice) -> str:
    chunk = choice.hit.chunk
    name = shown_name(chunk)
    return f"{chunk_place(chunk)} {chunk.kind.value} {name}".rstrip()


def _lang_tag(language: str) -> str:
    record = by_name(language)
    return record.fence_tag if record is not None else language
