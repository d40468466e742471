"""The diff a pack shows for a change: cut between lines with a marker, secrets files left
out, and secrets in the changed lines redacted (the `+` in front does not hide them)."""

from __future__ import annotations

from ctxopt import tokens
from ctxopt.discover.changes import Change, ChangeRequest
from ctxopt.pack.diff import cut_diff, diff_preface, without_secret_files
from ctxopt.secrets.redact import redact_diff


def section(path: str, lines: int, word: str = "value") -> str:
    body = "\n".join(f"+{word}_{i} = compute_{word}({i})" for i in range(lines))
    return (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -0,0 +1,{lines} @@\n{body}"
    )


def test_a_long_diff_is_cut_between_lines_and_says_what_it_leaves_out() -> None:
    diff = "\n".join(section(f"pkg/m{i}.py", 80) for i in range(6))
    cut = cut_diff(diff, 1000)
    assert tokens.count(cut) <= 1000
    *shown, marker = cut.split("\n")
    assert all(line in diff.split("\n") for line in shown)  # whole lines only
    assert marker.startswith("[... the diff is cut here at 1,000 tokens: ")
    lines = diff.split("\n")
    assert f"{len(lines) - len(shown):,} more lines, in pkg/m" in marker and "pkg/m5.py" in marker
    mid_file = not lines[len(shown)].startswith("diff --git")
    assert ("(the rest of it)" in marker) is mid_file
    two_files = cut_diff(section("a.py", 200) + "\n" + section("b.py", 5), 700)
    assert "in a.py (the rest of it), b.py ...]" in two_files  # cut inside a.py
    assert cut_diff(section("a.py", 3), 1000) == section("a.py", 3)  # a short one is whole


def test_a_secrets_file_s_change_is_named_not_shown() -> None:
    diff = section("config/.env", 2, "password") + "\n" + section("app.py", 2)
    shown = without_secret_files(diff)
    assert "password_0" not in shown
    assert "[the change to config/.env is not shown: a secrets file]" in shown
    assert "+value_1 = compute_value(1)" in shown
    request = ChangeRequest(staged=True)
    preface = diff_preface(Change(request, {"app.py": [(1, 2)]}, diff))
    assert preface.startswith("The change under review (git --cached):\n```diff\n")
    assert "password_0" not in preface


def test_secrets_in_changed_lines_are_redacted_whatever_the_mark_in_front() -> None:
    diff = (
        "+export DB_PASSWORD=hunter2swordfish77\n"
        "-DB_PASSWORD=oldvalue1234567\n"
        ' API_TOKEN = "t0k3nv4lu3abcdef"\n'
    )
    redacted = redact_diff(diff)
    assert "hunter2swordfish77" not in redacted and "oldvalue1234567" not in redacted
    assert "t0k3nv4lu3abcdef" not in redacted
    assert redacted.startswith("+export DB_PASSWORD=[REDACTED:keyword-password]\n-DB_PASSWORD=")
