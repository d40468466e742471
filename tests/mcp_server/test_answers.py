"""What the MCP server says of one chunk: a long function's part is named as the CLI names it."""

from __future__ import annotations

from ctxopt.chunking import chunk_file
from ctxopt.languages import detect_language
from ctxopt.mcp_server.answers import chunk_answer


def test_read_chunk_names_a_part_of_a_long_function_as_the_cli_does() -> None:
    body = "\n".join(f"    total_{i} = settle(order_{i}, rate_{i}, cost_{i})" for i in range(400))
    chunks = chunk_file(
        "billing.py", f"def settle_invoices(orders):\n{body}\n", detect_language("billing.py")
    ).chunks
    parts = [c for c in chunks if c.name.startswith("settle_invoices")]
    assert len(parts) >= 3
    second = parts[1]
    answer = chunk_answer(second)
    head = answer.content[0].text.splitlines()[0]  # type: ignore[union-attr]
    assert head.endswith("function settle_invoices (part 2)"), head
    assert head.startswith(f"billing.py:{second.start_line}-{second.end_line} ")
    data = answer.structured_content or {}
    assert (data["name"], data["part"]) == ("settle_invoices", 2)
    assert data["text"] == second.text
