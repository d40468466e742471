"""Properties of redact and find_secrets (hypothesis): offsets valid, text outside the
findings never changed."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from ctxopt.secrets import SecretFinding, SecretKind, find_secrets, redact
from ctxopt.secrets.findings import merged

PIECES = [
    "password = ",
    "pwd=",
    "API_TOKEN=",
    "://",
    "user:",
    "@",
    "'",
    '"',
    "\n",
    "-----BEGIN " + "RSA PRIVATE KEY-----",
    "-----END " + "RSA PRIVATE KEY-----",
    "AK" + "IA",
    "gh" + "p_",
    "sk" + "_live_",
    "xo" + "xb-",
    "eyJ",
    "İ",
    "é",
]
texts = st.lists(
    st.one_of(
        st.sampled_from(PIECES),
        st.text(alphabet=string.ascii_letters + string.digits + "+/=_-", min_size=1, max_size=45),
        st.text(max_size=8),
    ),
    max_size=25,
).map("".join)


def spans(size: int) -> st.SearchStrategy[list[SecretFinding]]:
    point = st.integers(min_value=-3, max_value=size + 3)
    finding = st.builds(
        lambda a, b, kind: SecretFinding(min(a, b), max(a, b), kind),
        point,
        point,
        st.sampled_from(list(SecretKind)),
    )
    return st.lists(finding, max_size=6)


def assert_outside_kept(text: str, findings: list[SecretFinding], out: str) -> None:
    """Walk the merged, clipped findings: each gap of text sits in out at its shifted place,
    each finding's label at its place, and nothing else is in out."""
    clipped = [
        SecretFinding(max(0, min(f.start, len(text))), max(0, min(f.end, len(text))), f.kind)
        for f in findings
    ]
    at_in = at_out = 0
    for found in merged(clipped):
        gap = text[at_in : found.start]
        assert out[at_out : at_out + len(gap)] == gap
        at_out += len(gap)
        assert out[at_out : at_out + len(found.label)] == found.label
        at_out += len(found.label)
        at_in = found.end
    assert out[at_out:] == text[at_in:]


@settings(max_examples=300, deadline=None)
@given(texts)
def test_find_secrets_offsets_are_valid_sorted_and_disjoint(text: str) -> None:
    findings = find_secrets(text)
    previous_end = -1
    for found in findings:
        assert 0 <= found.start < found.end <= len(text)
        assert found.start > previous_end
        previous_end = found.end
    assert_outside_kept(text, list(findings), redact(text, findings))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_redact_keeps_everything_outside_any_findings(data: st.DataObject) -> None:
    text = data.draw(texts)
    findings = data.draw(spans(len(text)))
    out = redact(text, findings)
    assert_outside_kept(text, findings, out)
    if not any(min(f.end, len(text)) > max(f.start, 0) for f in findings):
        assert out == text


def test_merged_keeps_the_most_specific_kind() -> None:
    wide = SecretFinding(0, 10, SecretKind.HIGH_ENTROPY_STRING)
    inner = SecretFinding(2, 6, SecretKind.GITHUB_TOKEN)
    assert merged([wide, inner]) == (SecretFinding(0, 10, SecretKind.GITHUB_TOKEN),)
    assert redact("0123456789tail", [inner, wide]) == "[REDACTED:github-token]tail"
