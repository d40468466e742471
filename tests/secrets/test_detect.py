"""Planted secrets of every kind are found and redacted; code that only names secrets is not.

Every secret is built here at run time from pieces and a seeded random generator, so no
literal secret sits in the repository and no scanner flags it.
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

from ctxopt.discover import walk as discovery
from ctxopt.secrets import SecretKind, find_secrets, redact, redact_text

RNG = random.Random(1414)
ALNUM = string.ascii_letters + string.digits


def rand(size: int, alphabet: str = ALNUM) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(size))


def b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def pem_body(lines: int = 6) -> list[str]:
    return [rand(64, ALNUM + "+/") for _ in range(lines)]


@dataclass(frozen=True)
class Planted:
    value: str  # what must not survive redaction
    kind: SecretKind


def planted() -> dict[str, Planted]:
    upper = string.ascii_uppercase + string.digits
    header = "-----BEGIN " + "RSA PRIVATE KEY-----"
    footer = "-----END " + "RSA PRIVATE KEY-----"
    return {
        "aws_id": Planted("AK" + "IA" + rand(16, upper), SecretKind.AWS_ACCESS_KEY),
        "aws_secret": Planted(rand(40, ALNUM + "/+"), SecretKind.AWS_SECRET_KEY),
        "github": Planted("gh" + "p_" + rand(36), SecretKind.GITHUB_TOKEN),
        "github_pat": Planted(
            "github" + "_pat_" + rand(22) + "_" + rand(59), SecretKind.GITHUB_TOKEN
        ),
        "slack": Planted(
            "xo" + "xb-" + rand(12, string.digits) + "-" + rand(13, string.digits) + "-" + rand(24),
            SecretKind.SLACK_TOKEN,
        ),
        "stripe": Planted("sk" + "_live_" + rand(99), SecretKind.STRIPE_KEY),
        "google": Planted("AI" + "za" + rand(35, ALNUM + "_-"), SecretKind.GOOGLE_API_KEY),
        "jwt": Planted(
            b64url({"alg": "HS256", "typ": "JWT"})
            + "."
            + b64url({"sub": rand(10), "admin": True})
            + "."
            + rand(43, ALNUM + "_-"),
            SecretKind.JWT,
        ),
        "pem": Planted("\n".join([header, *pem_body(), footer]), SecretKind.PRIVATE_KEY),
        "yaml_password": Planted("Hx" + rand(10) + "!9", SecretKind.KEYWORD_PASSWORD),
        "toml_password": Planted(rand(12) + "#2", SecretKind.KEYWORD_PASSWORD),
        "ini_password": Planted(rand(10) + "!x7", SecretKind.KEYWORD_PASSWORD),
        "json_secret": Planted(rand(24) + "9", SecretKind.KEYWORD_SECRET),
        "code_password": Planted("hunter2!" + rand(6), SecretKind.KEYWORD_PASSWORD),
        "url_password": Planted("S3c" + rand(12), SecretKind.PASSWORD_IN_URL),
        "db_password": Planted("hunter" + rand(6, string.digits), SecretKind.CONNECTION_STRING),
        "ado_password": Planted("Pw" + rand(10) + "!", SecretKind.CONNECTION_STRING),
        "env_password": Planted(rand(9, string.ascii_lowercase), SecretKind.KEYWORD_PASSWORD),
        "env_token": Planted(rand(32), SecretKind.KEYWORD_SECRET),
        "quoted_random": Planted(rand(40, ALNUM + "+/"), SecretKind.HIGH_ENTROPY_STRING),
    }


def files(p: dict[str, Planted]) -> dict[str, str]:
    pem_py = p["pem"].value.replace("\n", "\\n")
    return {
        "deploy/aws.py": (
            "import boto3\n\n"
            f'AWS_ACCESS_KEY_ID = "{p["aws_id"].value}"\n'
            f'AWS_SECRET_ACCESS_KEY = "{p["aws_secret"].value}"\n\n'
            "def client():\n"
            "    return boto3.client('s3')\n"
        ),
        "deploy/keys.py": (
            f'DEPLOY_KEY = "{pem_py}"\n'
            f'password = "{p["code_password"].value}"\n'
            f"SESSION = '{p['quoted_random'].value}'\n"
        ),
        "web/client.ts": (
            f'const token = "{p["github"].value}";\n'
            f"const slack = '{p['slack'].value}';\n"
            f"export const stripe = `{p['stripe'].value}`;\n"
            f'const maps = "{p["google"].value}";\n'
            f'headers["Authorization"] = "Bearer {p["jwt"].value}";\n'
        ),
        "config/app.yaml": (
            f"database:\n  user: app\n  password: {p['yaml_password'].value}\n"
            f"  url: postgres://admin:{p['db_password'].value}@db.internal:5432/app\n"
        ),
        "config/app.toml": f'[db]\npassword = "{p["toml_password"].value}"\n',
        "config/app.ini": f"[auth]\nuser = app\npassword = {p['ini_password'].value}\n",
        "config/app.json": f'{{"client_secret": "{p["json_secret"].value}", "port": 8080}}\n',
        "config/db.cs": (
            'var cs = "Server=tcp:db;Database=app;User Id=sa;'
            f'Password={p["ado_password"].value};Encrypt=true";\n'
        ),
        "docs/deploy.md": (
            "# Deploying\n\nClone with\n\n"
            f"    git clone https://deploy:{p['url_password'].value}@git.example.com/app.git\n\n"
            f"The fine-grained token is `{p['github_pat'].value}`.\n\n"
            f"```\n{p['pem'].value}\n```\n"
        ),
        "deploy/settings.conf": (  # an untracked .env-like file under a name not skipped
            f"DB_PASSWORD={p['env_password'].value}\n"
            f"API_TOKEN={p['env_token'].value}\n"
            f"STRIPE_SECRET_KEY={p['stripe'].value}\n"
            "DEBUG=false\n"
        ),
    }


def secret_parts(value: str) -> list[str]:
    """Pieces of a planted value that must not survive: every 8-character window of each
    line that is not a PEM armour line."""
    parts = []
    for line in value.splitlines():
        if not line.startswith("-----"):
            parts += [line[i : i + 8] for i in range(0, max(1, len(line) - 7))]
    return parts


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_planted_secrets_in_a_repository_are_all_found_and_redacted(tmp_path: Path) -> None:
    secrets = planted()
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    texts = files(secrets)
    for rel, text in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "add", *[rel for rel in texts if not rel.endswith(".conf")])
    found = discovery.discover(root)
    assert sorted(f.path for f in found.files) == sorted(texts)  # all indexed, none skipped
    redacted = {}
    for source in found.files:
        text = Path(source.abs_path).read_text(encoding="utf-8")
        redacted[source.path] = redact(text, find_secrets(text))
    everything = "\n".join(redacted.values())
    for name, secret in secrets.items():
        leaked = [part for part in secret_parts(secret.value) if part in everything]
        assert not leaked, f"{name} leaked: {leaked[:3]}"
        assert f"[REDACTED:{secret.kind.value}]" in everything, name
    # the rest of each line is kept
    assert 'AWS_SECRET_ACCESS_KEY = "[REDACTED:aws-secret-key]"' in redacted["deploy/aws.py"]
    assert "return boto3.client('s3')" in redacted["deploy/aws.py"]
    assert "postgres://admin:[REDACTED:connection-string]@db.internal:5432/app" in everything
    assert redacted["deploy/settings.conf"].endswith("DEBUG=false\n")
    assert "[REDACTED:private-key]\n```" in redacted["docs/deploy.md"]


@pytest.mark.parametrize(
    "line",
    [
        "password = get_password()",
        "def check_password(password):",
        "    password: str",
        'PASSWORD_FIELD = "password"',
        'token = request.headers["token"]',
        "self.password = password",
        "password = hashed_pw2",
        "def read(self, name, pwd=None):",
        "conn = connect(user=login, password=password)",
        "password=bytearray(KEY_PASSWORD.encode()))",
        'secret_key = os.environ["SECRET_KEY"]',
        'api_key = settings.get("api_key", "")',
        'PASSWORD_RE = r"^(?=.*\\d).{8,}$"',
        'password = "${DB_PASSWORD}"',
        'password: "<your-password>"',
        "url = 'postgres://user:password@localhost/db'",
        "DATABASE_URL=postgres://${USER}:${PASS}@localhost/app",
        'ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"',
        'digest = "da39a3ee5e6b4b0d3255bfef95601890afd80709"',
        'TOKEN_PATTERN = "[A-Za-z0-9]+"',
        "max_tokens = 4096",
        "    if not password:\n        raise ValueError('password required')",
    ],
)
def test_code_that_names_secrets_is_not_flagged(line: str) -> None:
    assert find_secrets(line) == ()


def test_a_key_block_cut_by_a_chunk_boundary_is_still_redacted() -> None:
    body = pem_body(4)
    begin = "-----BEGIN " + "PRIVATE KEY-----"
    end = "-----END " + "PRIVATE KEY-----"
    head_half = "x = 1\n" + "\n".join([begin, *body[:2]])
    tail_half = "\n".join([*body[2:], end]) + "\ny = 2\n"
    assert redact_text(head_half) == "x = 1\n[REDACTED:private-key]"
    assert redact_text(tail_half) == "[REDACTED:private-key]\ny = 2\n"


def test_findings_carry_offsets_into_the_text() -> None:
    token = "gh" + "p_" + rand(36)
    text = f"a = 1\nb = '{token}'\n"
    (finding,) = find_secrets(text)
    assert text[finding.start : finding.end] == token
    assert finding.kind is SecretKind.GITHUB_TOKEN
