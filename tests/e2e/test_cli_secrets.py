"""Secrets never leave: planted secrets of many kinds in code, config, docs and an untracked
file of a real git repository are redacted in every output of the real CLI.

Every secret is built here at run time from pieces and a seeded random generator, so no
literal secret sits in this repository.
"""

from __future__ import annotations

import base64
import json
import random
import string
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from clitools import Run, run_cli

pytestmark = pytest.mark.slow
TASK = "deploy over ssh with the deploy key and the database password"
RNG = random.Random(1414_14)
ALNUM = string.ascii_letters + string.digits
WIDE = ["--budget", "30000", "--max-chunks-per-file", "50"]


def rand(size: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(size))


def b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


@dataclass(frozen=True)
class Planted:
    value: str  # what no output may show
    kind: str  # the [REDACTED:<kind>] it becomes


def planted() -> dict[str, Planted]:
    upper = string.ascii_uppercase + string.digits
    armour = " ".join(["OPENSSH", "PRIVATE", "KEY"])
    body = [rand(70, ALNUM + "+/") for _ in range(5)]
    return {
        "aws_id": Planted("AK" + "IA" + rand(16, upper), "aws-access-key"),
        "aws_secret": Planted(rand(40, ALNUM + "/+"), "aws-secret-key"),
        "github": Planted("gh" + "p_" + rand(36), "github-token"),
        "slack": Planted(
            "xo" + "xb-" + rand(12, string.digits) + "-" + rand(13, string.digits) + "-" + rand(24),
            "slack-token",
        ),
        "stripe": Planted("sk" + "_live_" + rand(40), "stripe-key"),
        "jwt": Planted(
            b64url({"alg": "HS256", "typ": "JWT"})
            + "."
            + b64url({"sub": rand(10), "deploy": True})
            + "."
            + rand(43, ALNUM + "_-"),
            "jwt",
        ),
        "pem": Planted(
            "\n".join([f"-----BEGIN {armour}-----", *body, f"-----END {armour}-----"]),
            "private-key",
        ),
        "yaml_password": Planted("Qz" + rand(10) + "!4", "keyword-password"),
        "toml_password": Planted(rand(12) + "#7", "keyword-password"),
        "ini_password": Planted(rand(10) + "!k2", "keyword-password"),
        "json_secret": Planted(rand(26) + "3", "keyword-secret"),
        "code_password": Planted("hunter2!" + rand(6), "keyword-password"),
        "url_password": Planted("S3c" + rand(12), "password-in-url"),
        "db_password": Planted("dbpw" + rand(8, string.digits), "connection-string"),
        "env_token": Planted(rand(32), "keyword-secret"),
    }


def repo_files(p: dict[str, Planted]) -> dict[str, str]:
    pem = p["pem"].value
    return {
        "deploy/ssh.py": (
            '"""Deploy over ssh with the deploy key."""\n\n'
            "import paramiko\n\n"
            f'DEPLOY_KEY = """{pem}"""\n\n'
            f'AWS_ACCESS_KEY_ID = "{p["aws_id"].value}"\n'
            f'AWS_SECRET_ACCESS_KEY = "{p["aws_secret"].value}"\n'
            f'password = "{p["code_password"].value}"\n\n\n'
            "def deploy_over_ssh(host):\n"
            "    key = paramiko.RSAKey.from_private_key(DEPLOY_KEY)\n"
            "    return connect(host, key, password)\n"
        ),
        "deploy/auth.py": (
            '"""Database password checks for the deploy (no secret here)."""\n\n\n'
            "def check_password(password):\n"
            "    return password == load_database_password()\n\n\n"
            "def load_database_password():\n"
            "    password = get_password()\n"
            "    return password\n"
        ),
        "web/deploy.ts": (
            f'const token = "{p["github"].value}";\n'
            f"const slack = '{p['slack'].value}';\n"
            f"export const stripe = `{p['stripe'].value}`;\n"
            f'export const deployHeaders = {{ Authorization: "Bearer {p["jwt"].value}" }};\n'
            "export function deployOverSsh(host: string): string {\n"
            "  return host + token + slack;\n"
            "}\n"
        ),
        "config/deploy.yaml": (
            "database:\n  user: deploy\n"
            f"  password: {p['yaml_password'].value}\n"
            f"  url: postgres://deploy:{p['db_password'].value}@db.internal:5432/app\n"
        ),
        "config/deploy.toml": f'[database]\npassword = "{p["toml_password"].value}"\n',
        "config/deploy.ini": f"[database]\nuser = deploy\npassword = {p['ini_password'].value}\n",
        "config/deploy.json": f'{{"client_secret": "{p["json_secret"].value}", "port": 22}}\n',
        "docs/deploy.md": (
            "# Deploy over ssh\n\nClone with the deploy key, then:\n\n"
            f"    git clone https://deploy:{p['url_password'].value}@git.example.com/app.git\n\n"
            f"```\n{pem}\n```\n"
        ),
        "deploy/notes.conf": f"API_TOKEN={p['env_token'].value}\nHOST=deploy.example.com\n",
    }


UNTRACKED = "deploy/notes.conf"


def leaks(text: str, secrets: dict[str, Planted]) -> list[str]:
    """The planted secrets any 8-character window of which is in text (PEM armour lines,
    which are not secret, left out)."""
    found = []
    for name, secret in secrets.items():
        for line in secret.value.splitlines():
            if line.startswith("-----"):
                continue
            if any(line[i : i + 8] in text for i in range(max(1, len(line) - 7))):
                found.append(name)
                break
    return found


@dataclass(frozen=True)
class Repo:
    root: Path
    secrets: dict[str, Planted]

    def cli(self, *args: str) -> Run:
        result = run_cli(*args, "--path", str(self.root))
        assert result.code == 0, result.err
        return result


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    root = tmp_path_factory.mktemp("secrets") / "repo"
    root.mkdir()
    secrets = planted()
    files = repo_files(secrets)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    for args in (["init", "-q"], ["add", *[f for f in files if f != UNTRACKED]]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "deploy"],
        cwd=root,
        check=True,
        capture_output=True,
    )
    done = run_cli("index", str(root), "--quiet")
    assert done.code == 0, done.err
    return Repo(root, secrets)


@pytest.mark.parametrize("fmt", ["markdown", "xml", "plain"])
def test_no_secret_reaches_a_pack(repo: Repo, fmt: str) -> None:
    result = repo.cli("pack", TASK, "-f", fmt, *WIDE)
    assert leaks(result.out + result.err, repo.secrets) == []
    for secret in repo.secrets.values():
        assert f"[REDACTED:{secret.kind}]" in result.out, secret.kind
    # the rest of each line is kept, and code that only names a password is untouched
    assert "postgres://deploy:[REDACTED:connection-string]@db.internal:5432/app" in result.out
    assert "password = get_password()" in result.out
    assert "def check_password(password):" in result.out


def test_pack_json_prompt_chunks_and_count(repo: Repo) -> None:
    result = repo.cli("pack", TASK, "--json", *WIDE)
    data = json.loads(result.out)
    assert leaks(data["prompt"], repo.secrets) == []
    for chunk in data["chunks"]:
        assert leaks(chunk["compressed"] + chunk["name"], repo.secrets) == [], chunk["file"]
    shown = sum(c["compressed"].count("[REDACTED:") for c in data["chunks"])
    assert data["secrets_redacted"] == shown == data["prompt"].count("[REDACTED:")
    assert data["secrets_redacted"] >= len(repo.secrets)
    assert f"redacted {data['secrets_redacted']} secrets" in result.err
    assert UNTRACKED in data["files"]


def test_redaction_keeps_line_numbers(repo: Repo) -> None:
    """The key block above the function shrinks to one marker and empty lines, so the
    function's number is its line in the file."""
    result = repo.cli("pack", TASK, "--line-numbers", "-c", "none", *WIDE)
    source = (repo.root / "deploy/ssh.py").read_text(encoding="utf-8").splitlines()
    for wanted in ("def deploy_over_ssh(host):", "AWS_ACCESS_KEY_ID = "):
        number = next(i for i, line in enumerate(source, 1) if line.startswith(wanted))
        shown = [r for r in result.out.splitlines() if wanted in r]
        assert shown, wanted
        assert shown[0].split("|")[0].strip() == str(number), shown[0]


def test_query_json_and_table(repo: Repo) -> None:
    as_json = repo.cli("query", TASK, "--json", "-k", "50")
    hits = json.loads(as_json.out)
    assert {h["file"] for h in hits} >= {"deploy/ssh.py", "config/deploy.yaml"}
    assert leaks(as_json.out + as_json.err, repo.secrets) == []
    table = repo.cli("query", TASK, "-k", "50")
    assert leaks(table.out + table.err, repo.secrets) == []


def test_allow_secrets_shows_them_with_one_warning(repo: Repo) -> None:
    result = repo.cli("pack", TASK, "--json", "--allow-secrets", *WIDE)
    data = json.loads(result.out)
    assert sorted(leaks(data["prompt"], repo.secrets)) == sorted(repo.secrets)
    assert data["secrets_redacted"] == 0 and "[REDACTED:" not in data["prompt"]
    warnings = [line for line in result.err.splitlines() if "secrets are not redacted" in line]
    assert len(warnings) == 1
    query = repo.cli("query", TASK, "--allow-secrets", "--json")
    assert "secrets are not redacted" in query.err


def test_allow_secrets_from_the_environment(repo: Repo) -> None:
    result = run_cli(
        "pack", TASK, "--path", str(repo.root), *WIDE, env={"CTXOPT_ALLOW_SECRETS": "1"}
    )
    assert result.code == 0, result.err
    assert repo.secrets["github"].value in result.out
    assert "secrets are not redacted" in result.err


def test_stats_counts_findings_by_kind(repo: Repo) -> None:
    data = json.loads(repo.cli("stats", "--json").out)
    counts = data["secrets"]
    for secret in repo.secrets.values():
        assert counts.get(secret.kind, 0) >= 1, secret.kind
    # the key block sits in two files, every other value once
    assert counts["private-key"] == 2
    assert sum(counts.values()) == len(repo.secrets) + 1
    table = repo.cli("stats")
    assert f"secrets redacted in outputs: {sum(counts.values())} (" in table.out


def test_a_secret_added_after_indexing_is_redacted_after_the_refresh(
    repo: Repo, tmp_path: Path
) -> None:
    token = "gh" + "p_" + rand(36)
    notes = repo.root / UNTRACKED
    original = notes.read_text(encoding="utf-8")
    try:
        notes.write_text(original + f"DEPLOY_GITHUB={token}\n", encoding="utf-8")
        result = repo.cli("pack", TASK, *WIDE)
        assert token[:12] not in result.out and token[-8:] not in result.out
        assert "[REDACTED:github-token]" in result.out
    finally:
        notes.write_text(original, encoding="utf-8")
        repo.cli("index", "--quiet")


def test_the_diff_a_pack_shows_is_redacted(repo: Repo) -> None:
    token = "xo" + "xb-" + rand(12, string.digits) + "-" + rand(13, string.digits) + "-" + rand(24)
    target = repo.root / "deploy/auth.py"
    original = target.read_text(encoding="utf-8")
    try:
        target.write_text(original + f'\nSLACK_DEPLOY = "{token}"\n', encoding="utf-8")
        result = repo.cli("pack", "review the deploy change", "--diff", *WIDE)
        assert "```diff" in result.out
        assert leaks(result.out, {"slack": Planted(token, "slack-token")}) == []
        assert '+SLACK_DEPLOY = "[REDACTED:slack-token]"' in result.out
    finally:
        target.write_text(original, encoding="utf-8")
        repo.cli("index", "--quiet")


def test_a_staged_env_file_and_a_shell_export_never_reach_the_diff(repo: Repo) -> None:
    """A .env line and `export NAME=value` in a diff: the `+` in front kept the line-anchored
    .env rule from matching, and a secrets file's own diff went out whole."""
    password = "hunter2" + rand(14)
    env_file = repo.root / ".env.production"
    script = repo.root / "deploy/release.sh"
    env_file.write_text(f"DB_PASSWORD={password}\nAPI_TOKEN=t{rand(20)}\n", encoding="utf-8")
    script.write_text(f"#!/bin/sh\nexport DB_PASSWORD={password}\n", encoding="utf-8")
    try:
        subprocess.run(["git", "add", "-f", str(env_file), str(script)], cwd=repo.root, check=True)
        result = repo.cli("pack", "review the release change", "--staged", *WIDE)
        assert result.code == 0, result.err
        assert "```diff" in result.out and password not in result.out
        assert "[the change to .env.production is not shown: a secrets file]" in result.out
        assert "+export DB_PASSWORD=[REDACTED:keyword-password]" in result.out
    finally:
        subprocess.run(["git", "reset", "-q", "--", str(env_file), str(script)], cwd=repo.root)
        env_file.unlink()
        script.unlink()
        repo.cli("index", "--quiet")
