"""Chunk-level redaction: line counts kept, derived fields scrubbed, shown findings counted."""

from __future__ import annotations

import string
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt.secrets import SecretFinding, SecretKind, find_secrets
from ctxopt.secrets.chunks import (
    chunk_secrets,
    redact_keeping_lines,
    redacted_chunk,
    redacted_hits,
    shown_secrets,
)
from ctxopt.types import Choice, Chunk, ChunkKind, Fidelity, PickReason, ScoredChunk

BODY = ["".join(string.ascii_letters[(i * 7 + j) % 52] for j in range(60)) + "9z" for i in range(4)]
HEADER = "-----BEGIN " + "RSA PRIVATE KEY-----"
FOOTER = "-----END " + "RSA PRIVATE KEY-----"
TOKEN = "gh" + "p_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5"
TEXT = "\n".join(
    [
        "def deploy():",
        f'    key = """{HEADER}',
        *BODY,
        f'{FOOTER}"""',
        f'    token = "{TOKEN}"',
        "    return key, token",
    ]
)


def make_chunk(text: str = TEXT, start: int = 10, **fields: object) -> Chunk:
    chunk = Chunk(
        id="c1",
        path="deploy.py",
        language="python",
        kind=ChunkKind.FUNCTION,
        name="deploy",
        qualified_name="deploy",
        signature="def deploy():",
        docstring="",
        start_line=start,
        end_line=start + text.count("\n"),
        text=text,
        tokens=1,
        content_hash="h",
        secrets=chunk_secrets(text),
    )
    return replace(chunk, **fields)  # type: ignore[arg-type]


spans = st.lists(
    st.builds(
        lambda a, b, kind: SecretFinding(min(a, b), max(a, b), kind),
        st.integers(-2, 60),
        st.integers(-2, 60),
        st.sampled_from(list(SecretKind)),
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\n =", max_size=50), spans)
def test_redaction_keeps_the_line_count(text: str, findings: list[SecretFinding]) -> None:
    out = redact_keeping_lines(text, findings)
    assert out.count("\n") == text.count("\n")


def test_a_key_block_becomes_one_marker_and_empty_lines() -> None:
    chunk = redacted_chunk(make_chunk())
    rows = chunk.text.split("\n")
    assert len(rows) == len(TEXT.split("\n"))
    assert rows[1] == '    key = """[REDACTED:private-key]'
    assert rows[2:6] == ["", "", "", ""]
    assert rows[6] == '"""'
    assert rows[7] == '    token = "[REDACTED:github-token]"'
    assert all(part not in chunk.text for part in [*BODY, TOKEN])
    assert find_secrets(chunk.text) == ()


def test_fields_derived_from_the_text_are_scrubbed() -> None:
    chunk = make_chunk(signature=f'    token = "{TOKEN}"', docstring=BODY[1], name=TOKEN)
    out = redacted_chunk(chunk)
    assert TOKEN not in out.signature + out.name and BODY[1] not in out.docstring
    assert "[REDACTED:github-token]" in out.signature
    assert out.tokens > 1  # counted again on the redacted text


def test_a_chunk_without_secrets_is_left_as_it_is() -> None:
    chunk = make_chunk("def check_password(password):\n    return password == get_password()")
    assert chunk.secrets == ()
    assert redacted_chunk(chunk) is chunk


def choice(chunk: Chunk, fidelity: Fidelity, lines: tuple[int, int] | None = None) -> Choice:
    hit = ScoredChunk(chunk, 1.0, {}, (), {})
    return Choice(hit, fidelity, "", 1, PickReason.SCORE, lines=lines)


def test_shown_secrets_counts_the_findings_on_shown_lines() -> None:
    chunk = make_chunk()
    assert len(chunk.secrets) == 2
    key_line, token_line = 11, 17
    assert shown_secrets([choice(chunk, Fidelity.FULL)]) == 2
    assert shown_secrets([choice(chunk, Fidelity.EXCERPT, (token_line, token_line + 1))]) == 1
    assert shown_secrets([choice(chunk, Fidelity.EXCERPT, (key_line, key_line))]) == 1
    assert shown_secrets([choice(chunk, Fidelity.STUB), choice(chunk, Fidelity.PATH)]) == 0


def test_redacted_hits_keep_scores_and_order() -> None:
    clean = make_chunk("x = 1", id="c2")
    hits = [ScoredChunk(make_chunk(), 0.9, {}, (), {}), ScoredChunk(clean, 0.5, {}, (), {})]
    out = redacted_hits(hits)
    assert [h.score for h in out] == [0.9, 0.5]
    assert out[1] is hits[1]
    assert TOKEN not in out[0].chunk.text
