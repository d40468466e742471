"""The tools' published schemas are valid JSON Schema, closed to unknown arguments, and
`schema_problem` names what is wrong in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema.validators import validator_for

from ctxopt.config.settings import Settings
from ctxopt.mcp_server.schema_check import compiled, schema_problem
from ctxopt.mcp_server.service import RepoService
from ctxopt.mcp_server.tools import build_tools


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict]:
    tools = build_tools(RepoService(Settings(root=Path("/nonexistent"))))
    return {tool.name: tool.parameters for tool in tools}


def test_every_schema_is_valid_and_closed(schemas: dict[str, dict]) -> None:
    for schema in schemas.values():
        validator_for(schema).check_schema(schema)
        assert schema["additionalProperties"] is False


@pytest.mark.parametrize(
    ("tool", "arguments", "problem"),
    [
        ("pack", {"task": "fix it", "budget": 8000, "glob": ["src/**"]}, None),
        ("pack", {"task": "fix it", "budget": None, "compression": None}, None),
        ("pack", {"task": "fix it", "budget": "8000"}, "budget: '8000' is not of type 'integer'"),
        ("pack", {"task": "fix it", "glob": "src/**"}, "glob: 'src/**' is not of type 'array'"),
        ("pack", {"task": "fix it", "reserve": 1.0}, "reserve: 1.0 is greater than or equal"),
        ("pack", {"task": "fix it", "format": "XML", "compression": "Medium"}, None),
        ("pack", {"task": "fix it", "format": 3}, "format: 3 is not of type 'string'"),
        ("query", {"task": "x", "lang": [3]}, "lang/0: 3 is not of type 'string'"),
        ("query", {"task": "x", "explain": "yes"}, "explain: 'yes' is not of type 'boolean'"),
        ("read_file", {"path": "a.py", "end_line": 0}, "end_line: 0 is less than the minimum"),
        ("refresh", {"full": True}, "('full' was unexpected)"),
    ],
)
def test_schema_problems_in_one_line(
    schemas: dict[str, dict], tool: str, arguments: dict, problem: str | None
) -> None:
    found = schema_problem(compiled(schemas[tool]), arguments)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found and "\n" not in found


def test_a_long_value_is_cut_in_the_message(schemas: dict[str, dict]) -> None:
    found = schema_problem(compiled(schemas["pack"]), {"task": "x", "model": ["y" * 5000]})
    assert found is not None and len(found) < 400 and found.endswith("...")
