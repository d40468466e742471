"""Every `tools/call` is held to its tool's published input schema (JSON Schema, checked
with `jsonschema`) before the tool runs: a wrong type, a missing or unknown argument or a
value out of range comes back as one line in a tool error, and the server keeps serving."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jsonschema import exceptions as schema_errors
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.types import CallToolResult, TextContent

MAX_MESSAGE = 300  # a long value quoted in a message is cut


def closed(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with unknown arguments refused (a misspelt option is an error, not a
    silently ignored value)."""
    return {**schema, "additionalProperties": False}


def compiled(schema: Mapping[str, Any]) -> Validator:
    return validator_for(schema)(schema)  # type: ignore[no-any-return]


def schema_problem(validator: Validator, arguments: object) -> str | None:
    """The most relevant way arguments break the schema, as one line; None when they fit."""
    error = schema_errors.best_match(validator.iter_errors(arguments))
    if error is None:
        return None
    # an optional value (`anyOf: [{type: integer}, {type: null}]`): say what the value
    # should have been, not that it matched neither branch
    branches = [e for e in error.context or () if e.validator_value != "null"]
    if error.validator in ("anyOf", "oneOf") and branches:
        error = schema_errors.best_match(branches) or error
    where = "/".join(str(part) for part in error.absolute_path) or "arguments"
    message = " ".join(error.message.split())
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "..."
    return f"{where}: {message}"


class SchemaCheck:
    """Server middleware over `tools/call`; other requests pass through untouched."""

    def __init__(self, schemas: Mapping[str, Mapping[str, Any]]) -> None:
        self._validators = {name: compiled(schema) for name, schema in schemas.items()}

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        params = ctx.params
        if ctx.method == "tools/call" and isinstance(params, Mapping):
            name = params.get("name")
            validator = self._validators.get(name) if isinstance(name, str) else None
            arguments = params.get("arguments")
            problem = None if validator is None else schema_problem(validator, arguments or {})
            if problem is not None:
                text = f"invalid arguments for {name}: {problem}"
                return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
        return await call_next(ctx)
