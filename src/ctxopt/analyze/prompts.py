"""The prompts sent to the LLM command: one per window, one compaction, the final synthesis."""

from __future__ import annotations

import json
from typing import Any

PROMPT_VERSION = "analyze-prompts-1"

WINDOW_SHAPE = (
    '{"insights": ["..."], "entities": [{"name": "...", "type": "..."}], '
    '"relationships": [{"source": "...", "relation": "...", "target": "..."}], '
    '"compliance_flags": ["..."], "cross_references": ["..."]}'
)
MEMORY_SHAPE = (
    '{"key_entities": [{"name": "...", "type": "..."}], '
    '"key_relationships": [{"source": "...", "relation": "...", "target": "..."}], '
    '"running_insights": ["..."], "compliance_flags": ["..."], "cross_references": ["..."]}'
)
FINAL_SHAPE = (
    '{"executive_summary": "...", "insights": ["..."], "compliance_flags": ["..."], '
    '"cross_references": ["..."]}'
)
ONLY_JSON = "Answer with one JSON object of this shape and nothing else (no prose, no fences):"


def window_prompt(*, index: int, count: int, memory_json: str, overlap: str, new_text: str) -> str:
    return (
        f"You are analysing a long document in windows, one at a time. This is window "
        f"{index} of {count}.\n"
        "MEMORY holds what the earlier windows found (JSON; empty for the first window):\n"
        f"<memory>\n{memory_json}\n</memory>\n\n"
        "OVERLAP is the end of the previous window, repeated for context only; it was "
        "analysed already:\n"
        f"<overlap>\n{overlap}\n</overlap>\n\n"
        f"NEW TEXT to analyse:\n<new_text>\n{new_text}\n</new_text>\n\n"
        "Find the insights of the new text (in the light of the memory), the entities it "
        "names and the relationships between them, compliance or risk flags, and references "
        f"to other parts of the document.\n{ONLY_JSON}\n{WINDOW_SHAPE}\n"
    )


def compaction_prompt(
    *, index: int, count: int, memory_json: str, findings_json: str, memory_chars: int
) -> str:
    return (
        f"You keep the running memory of a document read in {count} windows. Merge the "
        f"memory so far with the findings of window {index}: keep what later windows will "
        "need, merge duplicates, drop detail, and keep the JSON under "
        f"{memory_chars:,} characters.\n\n"
        f"<memory>\n{memory_json}\n</memory>\n\n"
        f'<findings window="{index}">\n{findings_json}\n</findings>\n\n'
        f"{ONLY_JSON}\n{MEMORY_SHAPE}\n"
    )


def final_prompt(
    *,
    count: int,
    memories: list[dict[str, Any]],
    graph: dict[str, Any],
    last_text: str,
) -> str:
    return (
        f"Write the final analysis of a document read in {count} windows.\n"
        "You have the memory carried after each window and the findings of the last "
        "window:\n"
        f"<memories>\n{json.dumps(memories, ensure_ascii=False)}\n</memories>\n\n"
        "The entities and relationships merged over all windows:\n"
        f"<graph>\n{json.dumps(graph, ensure_ascii=False)}\n</graph>\n\n"
        f"The raw text of the last window:\n<last_window>\n{last_text}\n</last_window>\n\n"
        "Write an executive summary of the whole document, its main insights, and the "
        f"compliance or risk flags.\n{ONLY_JSON}\n{FINAL_SHAPE}\n"
    )


def repair_prompt(original: str, reason: str) -> str:
    return (
        f"{original}\n\nYour previous answer could not be used: {reason}. Answer again "
        "with only the complete JSON object described above, with nothing before or after it."
    )


def overhead_tokens() -> tuple[int, int]:
    """Tokens of the instructions of a window call and of a compaction call."""
    from ctxopt import tokens

    window = window_prompt(index=1, count=1, memory_json="", overlap="", new_text="")
    compact = compaction_prompt(index=1, count=1, memory_json="", findings_json="", memory_chars=1)
    return tokens.count(window), tokens.count(compact)
