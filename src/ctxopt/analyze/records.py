"""Results of a rolling run, as frozen records that round-trip through the run folder's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ctxopt.analyze.llm import Call, Outcome
from ctxopt.analyze.memory import (
    Entity,
    Findings,
    Memory,
    Relation,
    findings_dict,
    memory_dict,
)


class MemorySource(str, Enum):
    COMPACTED = "compacted"  # the LLM's compaction
    TRUNCATED = "truncated"  # the fallback: known items plus the last N characters
    LAST = "last"  # the last window: its findings go to the final pass as they are
    EXTRACTED = "extracted"  # the offline digest's chosen sentences


@dataclass(frozen=True)
class Step:
    """One logical LLM call as recorded: how it ended and what went wrong."""

    outcome: Outcome
    tries: int
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome in (Outcome.OK, Outcome.REPAIRED)

    @classmethod
    def of(cls, call: Call) -> Step:
        return cls(call.outcome, len(call.attempts), call.detail)

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome.value, "tries": self.tries, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        return cls(Outcome(data["outcome"]), int(data["tries"]), str(data.get("detail", "")))


@dataclass(frozen=True)
class WindowResult:
    index: int
    analysis: Step
    compaction: Step | None  # None: skipped (last window, or the analysis failed)
    findings: Findings | None  # None when the analysis failed
    memory: Memory
    memory_source: MemorySource
    tokens_sent: int
    answers: tuple[str, ...]  # raw answers, kept for inspection

    @property
    def failed(self) -> bool:
        return self.memory_source is MemorySource.TRUNCATED

    def to_dict(self) -> dict[str, Any]:
        return {
            "window": self.index,
            "analysis": self.analysis.to_dict(),
            "compaction": self.compaction.to_dict() if self.compaction else None,
            "findings": findings_dict(self.findings) if self.findings else None,
            "memory": memory_dict(self.memory),
            "memory_source": self.memory_source.value,
            "failed": self.failed,
            "tokens_sent": self.tokens_sent,
            "answers": list(self.answers),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WindowResult:
        findings = data.get("findings")
        compaction = data.get("compaction")
        return cls(
            index=int(data["window"]),
            analysis=Step.from_dict(data["analysis"]),
            compaction=Step.from_dict(compaction) if compaction else None,
            findings=findings_of(findings) if findings is not None else None,
            memory=memory_of(data["memory"]),
            memory_source=MemorySource(data["memory_source"]),
            tokens_sent=int(data["tokens_sent"]),
            answers=tuple(data.get("answers", ())),
        )


@dataclass(frozen=True)
class FinalResult:
    step: Step | None  # None offline
    executive_summary: str
    insights: tuple[str, ...]
    compliance_flags: tuple[str, ...]
    cross_references: tuple[str, ...]
    tokens_sent: int = 0
    answer: str = ""

    @property
    def failed(self) -> bool:
        return self.step is not None and not self.step.ok

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step.to_dict() if self.step else None,
            "executive_summary": self.executive_summary,
            "insights": list(self.insights),
            "compliance_flags": list(self.compliance_flags),
            "cross_references": list(self.cross_references),
            "failed": self.failed,
            "tokens_sent": self.tokens_sent,
            "answer": self.answer,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FinalResult:
        step = data.get("step")
        return cls(
            Step.from_dict(step) if step else None,
            str(data["executive_summary"]),
            tuple(data["insights"]),
            tuple(data["compliance_flags"]),
            tuple(data["cross_references"]),
            int(data.get("tokens_sent", 0)),
            str(data.get("answer", "")),
        )


def _entities(items: list[dict[str, Any]]) -> tuple[Entity, ...]:
    return tuple(Entity(str(i["name"]), str(i.get("type", ""))) for i in items)


def _relations(items: list[dict[str, Any]]) -> tuple[Relation, ...]:
    return tuple(Relation(str(i["source"]), str(i["relation"]), str(i["target"])) for i in items)


def findings_of(data: dict[str, Any]) -> Findings:
    return Findings(
        tuple(data["insights"]),
        _entities(data["entities"]),
        _relations(data["relationships"]),
        tuple(data["compliance_flags"]),
        tuple(data["cross_references"]),
    )


def memory_of(data: dict[str, Any]) -> Memory:
    return Memory(
        _entities(data["key_entities"]),
        _relations(data["key_relationships"]),
        tuple(data["running_insights"]),
        tuple(data["compliance_flags"]),
        tuple(data["cross_references"]),
        str(data.get("carried_text", "")),
    )
