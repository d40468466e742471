"""The rolling run: each window analysed with the carried memory, compacted, then one synthesis.

Every finished window is written to the run folder at once; a resumed run reads
the finished windows back and continues after the last one, so it ends with the
same records, and the same report, as a run that was never interrupted.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from ctxopt import tokens
from ctxopt.analyze import prompts
from ctxopt.analyze.layout import Layout, Window
from ctxopt.analyze.llm import Call, call_json
from ctxopt.analyze.memory import (
    Findings,
    Memory,
    findings_dict,
    findings_from,
    fit_memory,
    memory_dict,
    memory_from,
    merge_graph,
    truncated_memory,
)
from ctxopt.analyze.records import FinalResult, MemorySource, Step, WindowResult
from ctxopt.analyze.runfolder import (
    FINAL_FILE,
    finished_run,
    open_run,
    read_json,
    run_key,
    run_lock,
    window_file,
    write_atomic,
)
from ctxopt.errors import BudgetError, LlmCommandError
from ctxopt.wording import plural


class EventKind(str, Enum):
    RESUMED = "resumed"  # windows read back from the run folder
    CALL = "call"  # one LLM call finished
    WINDOW_DONE = "window_done"
    FALLBACK = "fallback"  # a window's memory fell back to truncation
    FINAL_FAILED = "final_failed"
    FINAL_TRIMMED = "final_trimmed"  # the synthesis left out the oldest memories to fit


@dataclass(frozen=True)
class Event:
    kind: EventKind
    window: int  # 0 for the final pass
    calls: int  # calls finished so far (retries included)
    tokens_sent: int
    detail: str = ""


@dataclass(frozen=True)
class RunOptions:
    llm: list[str]
    final_llm: list[str]
    timeout: float
    memory_chars: int
    run_dir: Path | None = None
    resume: bool = False
    restart: bool = False  # replace an interrupted run's windows instead of refusing
    cache_dir: Path | None = None  # holds the default run folders (Settings.model_cache)
    final_tokens: int | None = None  # the synthesis prompt's limit (None: no limit)
    max_calls: int | None = None  # refuse, before the first call, a run that needs more


@dataclass(frozen=True)
class RunResult:
    folder: Path
    windows: tuple[WindowResult, ...]
    final: FinalResult
    resumed: int  # windows read back from the folder


BROKEN_AFTER = 3  # failed steps (a call and its retry) and no success: the command is broken


class _Meter:
    """Counts calls and tokens; stops the run once its command is clearly broken."""

    def __init__(self, notify: Callable[[Event], None], folder: Path, *, answered: bool) -> None:
        self.notify = notify
        self.folder = folder
        self.calls = 0
        self.tokens = 0
        self.failed_steps = 0
        self.answered = answered  # a step of this run succeeded (windows read back count)
        self.last_failed: tuple[list[str], Call] | None = None

    def call(
        self, argv: list[str], prompt: str, parse: Callable[[Any], Any], timeout: float
    ) -> Call:
        sent = tokens.count(prompt)
        result = call_json(argv, prompt, parse, timeout=timeout)
        self.calls += len(result.attempts)
        self.tokens += sent * len(result.attempts)
        if result.ok:
            self.answered = True
        else:
            self.failed_steps += 1
            self.last_failed = (argv, result)
        if self.failed_steps >= BROKEN_AFTER:
            self.stop_if_broken()
        return result

    def stop_if_broken(self) -> None:
        """LlmCommandError when steps failed and none of this run succeeded."""
        if self.answered or self.last_failed is None:
            return
        argv, last = self.last_failed
        raise LlmCommandError(
            f"the LLM command `{shlex.join(argv)}` gave no usable answer: "
            f"{plural(self.failed_steps, 'step')} of this run failed, each after a retry; "
            f"its last error: {last.last_error()}. Fix the command and run again with --resume "
            f"(run folder {self.folder})"
        )

    def emit(self, kind: EventKind, window: int, detail: str = "") -> None:
        self.notify(Event(kind, window, self.calls, self.tokens, detail))


def run_key_for(text: str, layout: Layout, options: RunOptions) -> str:
    parts = {
        "prompts": prompts.PROMPT_VERSION,
        "windows": [(w.start, w.new_start, w.end) for w in layout.windows],
        "llm": options.llm,  # the synthesis command is not part of it: it can be run again
        "memory_chars": options.memory_chars,
    }
    return run_key(parts, text)


def run_folder(text: str, layout: Layout, options: RunOptions) -> Path:
    """Where this run's windows are kept: --run-dir, else a folder named by the run's key."""
    from ctxopt.analyze.runfolder import default_run_dir

    return options.run_dir or default_run_dir(run_key_for(text, layout, options), options.cache_dir)


def rolling_run(
    text: str, layout: Layout, options: RunOptions, notify: Callable[[Event], None]
) -> RunResult:
    folder = run_folder(text, layout, options)
    with run_lock(folder):  # one run at a time in a folder
        return _run_in(folder, text, layout, options, notify)


def _run_in(
    folder: Path,
    text: str,
    layout: Layout,
    options: RunOptions,
    notify: Callable[[Event], None],
) -> RunResult:
    key = run_key_for(text, layout, options)
    header = {"chars": len(text), "windows": len(layout.windows)}
    # The same run again reads a finished run back (its calls were paid for); --restart redoes it.
    resume = options.resume or (not options.restart and finished_run(folder, key))
    count = len(layout.windows)
    if not resume:  # checked before open_run clears the folder
        _check_calls(count, 0, final=True, limit=options.max_calls)
    stored = open_run(folder, key, resume=resume, restart=options.restart, header=header)
    done = _until_a_fallback([WindowResult.from_dict(r) for r in stored[:count]])
    if resume:
        synthesis = not (len(done) == count and _stored_final(folder, options) is not None)
        _check_calls(count, len(done), final=synthesis, limit=options.max_calls)
    meter = _Meter(notify, folder, answered=bool(done))
    if done:
        meter.emit(EventKind.RESUMED, len(done))
    memory = done[-1].memory if done else Memory()
    results = list(done)
    for window in layout.windows[len(done) :]:
        result = _window(text, window, len(layout.windows), memory, options, meter)
        write_atomic(window_file(folder, window.index), result.to_dict())
        results.append(result)
        memory = result.memory
        if result.failed:
            meter.emit(EventKind.FALLBACK, window.index, _why(result))
        meter.emit(EventKind.WINDOW_DONE, window.index)
    every_window_read_back = len(done) == len(layout.windows)  # else the synthesis is stale
    reuse = resume and every_window_read_back
    final = _final(text, layout, tuple(results), options, meter, folder, reuse)
    meter.stop_if_broken()  # a run of fewer than BROKEN_AFTER steps, all of them failed
    return RunResult(folder, tuple(results), final, len(done))


def calls_left(count: int, done: int, *, final: bool) -> int:
    """The calls a run of count windows still makes with done of them stored: an analysis per
    window, a compaction for each but the last, and the synthesis when final."""
    left = count - done
    return left + max(left - 1, 0) + int(final)


def _check_calls(count: int, done: int, *, final: bool, limit: int | None) -> None:
    """Stop before the first call when the run needs more than --max-calls."""
    needed = calls_left(count, done, final=final)
    if limit is None or needed <= limit:
        return
    if done:
        raise BudgetError(
            f"the run needs {plural(needed, 'more LLM call')} ({done} of "
            f"{plural(count, 'window')} read back from the run folder), over --max-calls "
            f"{limit}; raise --max-calls"
        )
    raise BudgetError(
        f"the run needs {plural(needed, 'LLM call')} ({plural(count, 'window')}), over "
        f"--max-calls {limit}; raise --max-calls or use a larger --window-tokens / --model"
    )


def _until_a_fallback(done: list[WindowResult]) -> list[WindowResult]:
    """The stored windows a resumed run keeps: those before the first that fell back (it
    and the windows after it, which carried its truncated memory, are run again)."""
    failed = next((i for i, result in enumerate(done) if result.failed), len(done))
    return done[:failed]


def _why(result: WindowResult) -> str:
    step = result.analysis if not result.analysis.ok else result.compaction
    return step.detail if step else ""


def _window(
    text: str, window: Window, count: int, memory: Memory, options: RunOptions, meter: _Meter
) -> WindowResult:
    before = meter.tokens
    prompt = prompts.window_prompt(
        index=window.index,
        count=count,
        memory_json=memory.to_json(),
        overlap=text[window.start : window.new_start],
        new_text=text[window.new_start : window.end],
    )
    analysis = meter.call(options.llm, prompt, findings_from, options.timeout)
    meter.emit(EventKind.CALL, window.index)
    answers = [a.answer for a in analysis.attempts]
    body = text[window.start : window.end]
    findings: Findings | None = analysis.value if analysis.ok else None
    compaction: Call | None = None
    if findings is None:
        new_memory = truncated_memory(memory, None, body, options.memory_chars)
        source = MemorySource.TRUNCATED
    elif window.index == count:
        new_memory, source = memory, MemorySource.LAST
    else:
        compaction = meter.call(
            options.llm,
            prompts.compaction_prompt(
                index=window.index,
                count=count,
                memory_json=memory.to_json(),
                findings_json=json.dumps(findings_dict(findings), ensure_ascii=False),
                memory_chars=options.memory_chars,
            ),
            memory_from,
            options.timeout,
        )
        meter.emit(EventKind.CALL, window.index)
        answers += [a.answer for a in compaction.attempts]
        if compaction.ok:
            new_memory = fit_memory(compaction.value, options.memory_chars)
            source = MemorySource.COMPACTED
        else:
            new_memory = truncated_memory(memory, findings, body, options.memory_chars)
            source = MemorySource.TRUNCATED
    return WindowResult(
        index=window.index,
        analysis=Step.of(analysis),
        compaction=Step.of(compaction) if compaction else None,
        findings=findings,
        memory=new_memory,
        memory_source=source,
        tokens_sent=meter.tokens - before,
        answers=tuple(answers),
    )


def final_inputs(results: tuple[WindowResult, ...]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """What the synthesis sees: the memory after every window, and the merged graph."""
    memories: list[dict[str, Any]] = []
    for result in results:
        entry: dict[str, Any] = {"window": result.index, "memory": memory_dict(result.memory)}
        if result.memory_source is MemorySource.LAST and result.findings is not None:
            entry["findings"] = findings_dict(result.findings)
        memories.append(entry)
    graph = merge_graph([r.findings for r in results if r.findings is not None])
    return memories, {
        "entities": [{"name": e.name, "type": e.type} for e in graph.entities],
        "relationships": [
            {"source": r.source, "relation": r.relation, "target": r.target}
            for r in graph.relationships
        ],
    }


def _final(
    text: str,
    layout: Layout,
    results: tuple[WindowResult, ...],
    options: RunOptions,
    meter: _Meter,
    folder: Path,
    reuse: bool,
) -> FinalResult:
    stored = _stored_final(folder, options) if reuse else None
    if stored is not None:
        return FinalResult.from_dict(stored)
    last = layout.windows[-1]
    memories, graph = final_inputs(results)
    prompt, left_out = fitted_final_prompt(
        len(layout.windows), memories, graph, text[last.start : last.end], options.final_tokens
    )
    if left_out:
        meter.emit(EventKind.FINAL_TRIMMED, 0, f"{left_out}")
    before = meter.tokens
    call = meter.call(options.final_llm, prompt, _final_from, options.timeout)
    meter.emit(EventKind.CALL, 0)
    answer = call.attempts[-1].answer if call.attempts else ""
    if call.ok:
        summary, insights, flags, refs = call.value
    else:
        meter.emit(EventKind.FINAL_FAILED, 0, call.detail)
        summary, insights, flags, refs = "", (), (), ()
    final = FinalResult(
        Step.of(call), summary, insights, flags, refs, meter.tokens - before, answer
    )
    write_atomic(folder / FINAL_FILE, {**final.to_dict(), "final_llm": options.final_llm})
    return final


def _stored_final(folder: Path, options: RunOptions) -> dict[str, Any] | None:
    """The stored synthesis a resumed run keeps: one that succeeded, with the same command."""
    stored = read_json(folder / FINAL_FILE)
    if stored is None or stored.get("failed") or stored.get("final_llm") != options.final_llm:
        return None
    return dict(stored)


def fitted_final_prompt(
    count: int,
    memories: list[dict[str, Any]],
    graph: dict[str, Any],
    last_text: str,
    limit: int | None,
) -> tuple[str, int]:
    """The synthesis prompt within limit tokens, and how many of the oldest windows'
    memories it left out for that (the newest memory carries what came before); a last
    window's text still too long keeps its end."""
    from ctxopt import tokens

    kept = list(memories)

    def build() -> str:
        return prompts.final_prompt(count=count, memories=kept, graph=graph, last_text=last_text)

    prompt = build()
    if limit is None:
        return prompt, 0
    size = tokens.count(prompt)
    while size > limit and len(kept) > 1:
        kept.pop(0)
        prompt = build()
        size = tokens.count(prompt)
    while size > limit and last_text:  # each pass drops at least a character: it ends
        last_text = last_text[max(1, len(last_text) // 4) :]  # its end: where the document stops
        prompt = build()
        size = tokens.count(prompt)
    return prompt, len(memories) - len(kept)  # still over: one memory alone is (the call says)


def _final_from(value: Any) -> tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    from ctxopt.analyze.memory import ShapeError

    if not isinstance(value, dict) or not isinstance(value.get("executive_summary"), str):
        raise ShapeError("expected a JSON object with an 'executive_summary' string")
    lists = []
    for key in ("insights", "compliance_flags", "cross_references"):
        items = value.get(key, [])
        if not isinstance(items, list):
            raise ShapeError(f"{key!r} must be a list")
        lists.append(tuple(i if isinstance(i, str) else json.dumps(i) for i in items))
    return value["executive_summary"], lists[0], lists[1], lists[2]
