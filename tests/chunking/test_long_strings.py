"""Long string and template bodies are cut into pieces like long functions."""

from __future__ import annotations

from ctxopt.chunking import chunk_file
from ctxopt.chunking.build import PIECE_LINES
from ctxopt.types import ChunkKind

OPTIONS = "".join(
    f"  --option-{i}  set value number {i} of the generated script, with a few more words\n"
    for i in range(130)
)


def _spans(path: str, text: str, language: str) -> list[tuple[str, str, int, int]]:
    result = chunk_file(path, text, language)
    assert result.fallback_reason == ""
    return [(c.kind.value, c.name, c.start_line, c.end_line) for c in result.chunks]


def test_a_long_help_template_held_in_a_constant_is_cut_into_pieces() -> None:
    text = f'import sys\n\nHELP = """Usage: tool [OPTIONS]\n{OPTIONS}"""\n'
    text += "\n\ndef main():\n    print(HELP)\n"
    spans = _spans("tool.py", text, "python")
    module = [s for s in spans if s[0] == ChunkKind.MODULE.value]
    assert len(module) == 2 and all(end - start + 1 <= PIECE_LINES for _, _, start, end in module)
    assert module[0][2] == 1 and module[-1][3] == 134  # the whole constant, in two pieces
    assert ("function", "main", 137, 138) in spans


def test_a_go_script_template_constant_is_cut_and_a_function_returning_one_too() -> None:
    template = f"const script = `# completion for %s\n{OPTIONS}`\n"
    function = f"func gen(name string) string {{\n\treturn `# completion\n{OPTIONS}{OPTIONS}`\n}}\n"
    text = f"package comp\n\n{template}\n{function}"
    pieces = [s for s in _spans("comp.go", text, "go") if s[3] - s[2] > 3]
    assert all(end - start + 1 <= PIECE_LINES for _, _, start, end in pieces)
    assert [name for kind, name, _, _ in pieces if kind == "function"] == [
        "gen", "gen#2", "gen#3", "gen#4",
    ]  # fmt: skip


def test_a_short_module_constant_stays_whole() -> None:
    text = 'HELP = """\n' + OPTIONS[: len(OPTIONS) // 3] + '"""\n'
    assert len(_spans("short.py", text, "python")) == 1
