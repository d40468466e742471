"""A real MCP client session (the official SDK's) with `ctxopt mcp` in a subprocess."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

T = TypeVar("T")
TIMEOUT = 300  # seconds a test's whole conversation may take on a loaded machine


def server_command(repo: Path | str, *args: str) -> list[str]:
    return [sys.executable, "-m", "ctxopt.cli", "mcp", "--path", str(repo), *args]


@asynccontextmanager
async def mcp_session(repo: Path | str, *args: str, errlog: Path) -> AsyncIterator[ClientSession]:
    """An initialized session on a folder or a repository URL; the server's stderr goes to
    errlog."""
    command = server_command(repo, *args)
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    with errlog.open("w", encoding="utf-8") as err:
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def run(conversation: Callable[[], Awaitable[T]]) -> T:
    """Run an async conversation to its end, within TIMEOUT."""

    async def bounded() -> T:
        with anyio.fail_after(TIMEOUT):
            return await conversation()

    return anyio.run(bounded)


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    return result


def text(result: CallToolResult) -> str:
    """The result's text content, in one string."""
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


def data(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a successful call (also checked against its text when the
    text is the JSON form)."""
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return json.loads(json.dumps(result.structured_content))
