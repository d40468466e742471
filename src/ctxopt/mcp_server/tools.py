"""The server and its tools, built on the SDK's `MCPServer`.

Each tool is a typed function: the SDK derives its input schema from the signature,
`schema_check` holds every call to that schema (unknown arguments refused), and an
expected failure (`CtxoptError`: no index, an unknown model, a budget too small, a path
outside the repository) becomes a tool error with ctxopt's one-line message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from ctxopt import __version__
from ctxopt.config.values import COMPRESSIONS, FORMATS
from ctxopt.errors import CtxoptError, IndexIncompleteError, IndexMissingError, Naming
from ctxopt.mcp_server import answers
from ctxopt.mcp_server.schema_check import SchemaCheck, closed
from ctxopt.mcp_server.service import PackCall, QueryCall, RepoService

INSTRUCTIONS = (
    "ctxopt indexes this repository into code chunks (functions, classes, sections) and "
    "ranks them for a task. Call `pack` with the task for one prompt of the code it needs "
    "within a token budget; `query` to see the ranked chunks; `read_chunk` or `read_file` to "
    "read more; `stats` for the index's figures. Files changed since the last call are "
    "re-indexed before each answer."
)

Task = Annotated[str, Field(min_length=1, description="The task, in your words.")]
Globs = Annotated[
    tuple[str, ...], Field(description="Only paths matching these globs (gitignore syntax).")
]
Languages = Annotated[
    tuple[str, ...],
    Field(description="Only these languages, by name or extension (py, .rs)."),
]
Kinds = Annotated[
    tuple[str, ...],
    Field(
        description="Only these chunk kinds: function, method, class, interface, "
        "type, constant, module, test, config, doc."
    ),
]
Refresh = Annotated[
    bool, Field(description="Re-index files changed since the last call first (default true).")
]
# choice values take any case, as the CLI's flags do (`XML`, `Medium`): a string whose
# description and examples list the values; the settings check refuses any other word
Compression = Annotated[
    str | None,
    Field(
        description="How hard code is compressed: none, light, medium or aggressive, in any "
        "case (default light).",
        examples=list(COMPRESSIONS),
    ),
]
Format = Annotated[
    str | None,
    Field(
        description="Prompt format: markdown, xml or plain, in any case (default markdown).",
        examples=list(FORMATS),
    ),
]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


@contextmanager
def tool_errors(names: Naming) -> Iterator[None]:
    """ctxopt's expected errors as tool errors: the message, no traceback, naming the tools'
    arguments (`budget`) where the CLI's names its flags (`--budget`); a missing or
    incomplete index also names what an agent can do itself, the refresh tool."""
    try:
        yield
    except (IndexMissingError, IndexIncompleteError) as exc:
        raise ToolError(f"{exc.worded(names)} (or call the refresh tool)") from exc
    except CtxoptError as exc:
        raise ToolError(exc.worded(names)) from exc


def argument_names(tools: list[Tool]) -> Naming:
    """Options named as the arguments of these tools; other options (`wait`) they lack."""
    known = frozenset(name for tool in tools for name in tool.parameters["properties"])
    return Naming(flags=False, known=known)


def build_tools(service: RepoService) -> list[Tool]:
    def query(
        task: Task,
        top: Annotated[
            int | None, Field(ge=1, le=500, description="How many results (default 10).")
        ] = None,
        lang: Languages = (),
        kind: Kinds = (),
        glob: Globs = (),
        no_tests: Annotated[bool, Field(description="Leave tests out.")] = False,
        explain: Annotated[bool, Field(description="Each factor's share of the score.")] = False,
        refresh: Refresh = True,
    ) -> CallToolResult:
        """Rank the indexed code for a task: file, lines, name, kind, score, reasons and the
        chunk id (for read_chunk) of each hit, best first."""
        call = QueryCall(
            task=task,
            top=top,
            languages=lang,
            kinds=kind,
            globs=glob,
            no_tests=no_tests,
            refresh=refresh,
        )
        with tool_errors(names):
            result, freshness = service.query(call)
        return answers.query_answer(result, freshness, explain=explain)

    def pack(
        task: Task,
        budget: Annotated[
            int | None,
            Field(
                ge=1,
                description="Token budget of the whole prompt (default 8000; wins over model).",
            ),
        ] = None,
        model: Annotated[
            str | None,
            Field(description="Target model: its window minus reserve is the budget."),
        ] = None,
        reserve: Annotated[
            float | None,
            Field(ge=0, lt=1, description="Share of the model's window kept for the answer."),
        ] = None,
        compression: Compression = None,
        format: Format = None,  # the option's name, as `ctxopt pack --format`
        lang: Languages = (),
        kind: Kinds = (),
        glob: Globs = (),
        line_numbers: Annotated[bool, Field(description="Number the lines shown whole.")] = False,
        edges: Annotated[bool, Field(description="Most relevant files first and last.")] = False,
        overview: Annotated[
            bool, Field(description="Include the repository structure section.")
        ] = True,
        max_chunks_per_file: Annotated[
            int | None,
            Field(ge=1, description="Chunks per file at most, unless the task names the file."),
        ] = None,
        diff: Annotated[
            bool, Field(description="Pack for the work tree's change against HEAD (or diff_ref).")
        ] = False,
        diff_ref: Annotated[
            str | None,
            Field(min_length=1, description="Pack for the change against this commit or branch."),
        ] = None,
        staged: Annotated[bool, Field(description="Pack for the staged change.")] = False,
        refresh: Refresh = True,
        explain: Annotated[
            bool,
            Field(
                description="Also list the candidates left out (every one ranked above the "
                "last chunk packed) and why each is out."
            ),
        ] = False,
    ) -> CallToolResult:
        """The best prompt for a task within a token budget: the code it needs, ranked,
        compressed and grouped by file. The text is the prompt; the data says which chunks
        went in and why, the tokens and the savings."""
        call = PackCall(
            task=task,
            budget=budget,
            model=model,
            reserve=reserve,
            compression=compression,
            format=format,
            max_chunks_per_file=max_chunks_per_file,
            line_numbers=line_numbers,
            edges=edges,
            overview=overview,
            languages=lang,
            kinds=kind,
            globs=glob,
            diff=diff,
            diff_ref=diff_ref,
            staged=staged,
            refresh=refresh,
        )
        with tool_errors(names):
            result = service.pack(call)
        return answers.pack_answer(result, explain=explain)

    def read_chunk(
        id: Annotated[  # the chunk's id, as the other tools name it
            str,
            Field(
                pattern="^[0-9a-f]{40}$",
                description="A chunk id from the query or pack tool.",
            ),
        ],
    ) -> CallToolResult:
        """One indexed chunk as it now stands in its file (secrets redacted)."""
        with tool_errors(names):
            return answers.chunk_answer(service.chunk(id))

    def read_file(
        path: Annotated[
            str, Field(min_length=1, description="A file of the repository, relative to its top.")
        ],
        start_line: Annotated[int, Field(ge=1, description="First line (1-based).")] = 1,
        end_line: Annotated[
            int | None, Field(ge=1, description="Last line, inclusive (default: the end).")
        ] = None,
    ) -> CallToolResult:
        """Lines of an indexed file of the repository (2,000 lines and 100,000 characters at
        most a call: a longer range is cut, `truncated` true and `next_line` where to read
        on; secrets redacted). Paths outside the repository and files the index skips are
        refused."""
        with tool_errors(names):
            return answers.lines_answer(service.lines(path, start_line, end_line))

    def refresh() -> CallToolResult:
        """Re-index the files changed since the index was built (incremental); builds the
        index when there is none."""
        with tool_errors(names):
            return answers.refresh_answer(service.refresh())

    def stats(
        depth: Annotated[int, Field(ge=1, le=10, description="Folder depth of the tokens.")] = 1,
        top: Annotated[int, Field(ge=0, le=100, description="Largest files listed.")] = 10,
    ) -> CallToolResult:
        """The index's figures: files, chunks and tokens per language and folder, the
        largest files, size, embedder, freshness, secrets found, compression per level."""
        with tool_errors(names):
            return answers.stats_answer(service.stats(depth, top))

    read_only: list[Callable[..., CallToolResult]] = [query, pack, read_chunk, read_file, stats]
    tools = [Tool.from_function(fn, annotations=READ_ONLY) for fn in read_only]
    tools.append(Tool.from_function(refresh))
    for tool in tools:
        tool.parameters = closed(tool.parameters)
    names = argument_names(tools)  # read by the tools above when called
    return tools


def build_server(service: RepoService, *, lifespan: Any = None) -> MCPServer[Any]:
    tools = build_tools(service)
    return MCPServer(
        "ctxopt",
        version=__version__,
        instructions=INSTRUCTIONS,
        tools=tools,
        middleware=[SchemaCheck({tool.name: tool.parameters for tool in tools})],
        lifespan=lifespan,
        log_level="WARNING",
    )
