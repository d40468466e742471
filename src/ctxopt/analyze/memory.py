"""What a window yields and what is carried forward: findings, memory, the merged graph.

An LLM answer is checked against the asked-for shape (``findings_from``,
``memory_from``); anything else is a ``ShapeError`` whose reason goes into the
repair instruction.  ``fit_memory`` keeps a memory under its character target by
dropping the oldest items; ``truncated_memory`` is the fallback when compaction
fails: the last N characters of the window's text beside what was already known.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

MEMORY_KEYS = (
    "key_entities",
    "key_relationships",
    "running_insights",
    "compliance_flags",
    "cross_references",
)
FINDING_KEYS = ("insights", "entities", "relationships", "compliance_flags", "cross_references")
MIN_TAIL_SHARE = 0.25


class ShapeError(ValueError):
    """An answer that is JSON but not the asked-for object."""


@dataclass(frozen=True)
class Entity:
    name: str
    type: str = ""


@dataclass(frozen=True)
class Relation:
    source: str
    relation: str
    target: str


@dataclass(frozen=True)
class Findings:
    """One window's analysis: insights and graph data."""

    insights: tuple[str, ...] = ()
    entities: tuple[Entity, ...] = ()
    relationships: tuple[Relation, ...] = ()
    compliance_flags: tuple[str, ...] = ()
    cross_references: tuple[str, ...] = ()


@dataclass(frozen=True)
class Memory:
    """What is carried into the next window (at most memory_chars of JSON)."""

    key_entities: tuple[Entity, ...] = ()
    key_relationships: tuple[Relation, ...] = ()
    running_insights: tuple[str, ...] = ()
    compliance_flags: tuple[str, ...] = ()
    cross_references: tuple[str, ...] = ()
    carried_text: str = ""  # set only by the truncation fallback

    def to_json(self) -> str:
        return json.dumps(memory_dict(self), ensure_ascii=False, separators=(",", ":"))

    def is_empty(self) -> bool:
        return self == Memory()


@dataclass(frozen=True)
class Graph:
    entities: tuple[Entity, ...] = ()
    relationships: tuple[Relation, ...] = ()
    mentions: dict[str, int] = field(default_factory=dict)  # entity name -> windows naming it


def memory_dict(memory: Memory) -> dict[str, Any]:
    data = asdict(memory)
    if not memory.carried_text:
        data.pop("carried_text")
    return data


def findings_dict(findings: Findings) -> dict[str, Any]:
    return asdict(findings)


def _object(value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ShapeError(f"expected a JSON object with {', '.join(keys)}")
    if not any(key in value for key in keys):
        raise ShapeError(f"the object has none of the keys {', '.join(keys)}")
    for key in keys:
        if key in value and not isinstance(value[key], list):
            raise ShapeError(f"{key!r} must be a list")
    return value


def _texts(items: Iterable[Any]) -> tuple[str, ...]:
    out = []
    for item in items:
        text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
        if text.strip():
            out.append(text.strip())
    return tuple(out)


def _entities(items: Iterable[Any]) -> tuple[Entity, ...]:
    out = []
    for item in items:
        if isinstance(item, str) and item.strip():
            out.append(Entity(item.strip()))
        elif isinstance(item, dict) and str(item.get("name", "")).strip():
            out.append(Entity(str(item["name"]).strip(), str(item.get("type", "") or "")))
    return tuple(out)


def _relations(items: Iterable[Any]) -> tuple[Relation, ...]:
    out = []
    for item in items:
        if isinstance(item, dict):
            source = str(item.get("source", "") or "").strip()
            target = str(item.get("target", "") or "").strip()
            relation = str(item.get("relation", item.get("type", "")) or "").strip()
            if source and target:
                out.append(Relation(source, relation or "related to", target))
        elif isinstance(item, list) and len(item) == 3:
            out.append(Relation(*(str(part) for part in item)))
    return tuple(out)


def findings_from(value: Any) -> Findings:
    data = _object(value, FINDING_KEYS)
    return Findings(
        insights=_texts(data.get("insights", [])),
        entities=_entities(data.get("entities", [])),
        relationships=_relations(data.get("relationships", [])),
        compliance_flags=_texts(data.get("compliance_flags", [])),
        cross_references=_texts(data.get("cross_references", [])),
    )


def memory_from(value: Any) -> Memory:
    data = _object(value, MEMORY_KEYS)
    return Memory(
        key_entities=_entities(data.get("key_entities", [])),
        key_relationships=_relations(data.get("key_relationships", [])),
        running_insights=_texts(data.get("running_insights", [])),
        compliance_flags=_texts(data.get("compliance_flags", [])),
        cross_references=_texts(data.get("cross_references", [])),
        carried_text=str(data.get("carried_text", "") or ""),
    )


def _unique(items: Iterable[Any]) -> tuple[Any, ...]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = json.dumps(asdict(item) if hasattr(item, "__dataclass_fields__") else item).lower()
        if key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def absorb(memory: Memory, findings: Findings) -> Memory:
    """The memory with a window's findings appended (no LLM): used by the fallback."""
    return Memory(
        key_entities=_unique((*memory.key_entities, *findings.entities)),
        key_relationships=_unique((*memory.key_relationships, *findings.relationships)),
        running_insights=_unique((*memory.running_insights, *findings.insights)),
        compliance_flags=_unique((*memory.compliance_flags, *findings.compliance_flags)),
        cross_references=_unique((*memory.cross_references, *findings.cross_references)),
        carried_text=memory.carried_text,
    )


def fit_memory(memory: Memory, limit: int) -> Memory:
    """Drop the oldest items (longest list first) until the JSON holds at most limit chars."""
    if len(memory.carried_text) > limit:
        memory = replace(memory, carried_text=memory.carried_text[-limit:])
    while len(memory.to_json()) > limit:
        lists = {key: getattr(memory, key) for key in MEMORY_KEYS if getattr(memory, key)}
        if not lists:
            excess = len(memory.to_json()) - limit
            return replace(memory, carried_text=memory.carried_text[excess:])
        longest = max(lists, key=lambda key: (len(lists[key]), key))
        memory = replace(memory, **{longest: lists[longest][1:]})
    return memory


def truncated_memory(
    previous: Memory, findings: Findings | None, window_text: str, limit: int
) -> Memory:
    """Compaction's fallback: what is known so far plus the last N characters of the window."""
    known = absorb(replace(previous, carried_text=""), findings or Findings())
    keep = max(int(limit * MIN_TAIL_SHARE), limit - len(known.to_json()) - 40)
    structured = fit_memory(known, max(limit - keep - 40, 2))
    tail = window_text[-keep:] if keep > 0 else ""
    return fit_memory(replace(structured, carried_text=tail), limit)


def merge_graph(parts: Iterable[Findings | Memory]) -> Graph:
    """Entities and relationships of every window, deduplicated by name (case-insensitive)."""
    entities: dict[str, Entity] = {}
    mentions: dict[str, int] = {}
    relations: dict[tuple[str, str, str], Relation] = {}
    for part in parts:
        names = part.entities if isinstance(part, Findings) else part.key_entities
        links = part.relationships if isinstance(part, Findings) else part.key_relationships
        for entity in names:
            key = entity.name.lower()
            known = entities.get(key)
            if known is None or (not known.type and entity.type):
                entities[key] = Entity(known.name if known else entity.name, entity.type)
            mentions[entities[key].name] = mentions.get(entities[key].name, 0) + 1
        for link in links:
            relations.setdefault(
                (link.source.lower(), link.relation.lower(), link.target.lower()), link
            )
    return Graph(tuple(entities.values()), tuple(relations.values()), mentions)
