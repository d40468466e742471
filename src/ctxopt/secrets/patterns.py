"""ctxopt's own precise patterns, for what detect-secrets lacks or reports partly:
whole private key blocks, URL and connection-string passwords with their scheme,
env-style assignments, and newer token formats.  Each returns spans in its input."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ctxopt.secrets.findings import SecretFinding, SecretKind
from ctxopt.secrets.values import plausible_secret

_KEY_LABEL = r"-----{} [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----.*?-----END \1-----", re.S
)
_BEGIN = re.compile(_KEY_LABEL.format("BEGIN"))
_END = re.compile(_KEY_LABEL.format("END"))
# a line of a key's body: base64 with quotes, commas or an escaped "\n" around it
_BODY_LINE = re.compile(r"^[^A-Za-z0-9]*(?:\\n)?[A-Za-z0-9+/=]{16,}(?:\\n)?[^A-Za-z0-9]*$")

DB_SCHEMES = frozenset(
    (
        "postgres postgresql mysql mariadb mongodb redis rediss amqp amqps mssql sqlserver "
        "oracle cockroachdb clickhouse snowflake db2 couchdb neo4j kafka nats memcached "
        "cassandra elasticsearch influxdb sqlalchemy"
    ).split()
)
_URL_PASSWORD = re.compile(
    r"\b([A-Za-z][A-Za-z0-9+.\-]*)://([^\s:/@'\"`<>]*):([^\s/'\"`<>]+)@[^\s/@'\"`<>]"
)
_QUERY_SECRET = re.compile(
    r"[?&;](?:password|passwd|pwd|access_token|auth_token|api_?key|client_secret|secret)"
    r"=([^&\s'\"#;]+)",
    re.I,
)
_CONNECTION_FIELD = re.compile(
    r"(?:^|[;\"'\s])(?:password|pwd|accountkey|sharedaccesskey)\s*=\s*([^;\"'\s]+)(?=;|$|[\"'\s])",
    re.I,
)
_SECRET_NAME = (
    r"[A-Za-z0-9_.\-]*?(?:password|passwd|pwd|secret|token|api_?key|apikey|access_?key|"
    r"private_?key|secret_?key|credentials?)(?:_base|_value)?"
)
# KEY=value as in .env files and shell exports: an upper-case name, no space around "="
# (code has spaces, and lower-case keyword arguments), a value that ends the line
_ENV_ASSIGNMENT = re.compile(
    r"^[ \t]*(?:export[ \t]+)?([A-Z0-9_]*?(?:PASSWORD|PASSWD|PWD|SECRET|TOKEN|API_?KEY|APIKEY"
    r"|ACCESS_?KEY|PRIVATE_?KEY|SECRET_?KEY|CREDENTIALS?)(?:_BASE|_VALUE)?)"
    r"=(['\"]?)([^\s'\"#()\[\]{}]+)\2[ \t]*(?:#.*)?$",
    re.M,
)
# name = "value", name: 'value', "name": "value" (JSON), name := "value"
_QUOTED_ASSIGNMENT = re.compile(
    rf"(?<![\w.])({_SECRET_NAME})['\"]?[ \t]*(?::=|=>|=|:)[ \t]*(['\"])([^'\"\n]+)\2", re.I
)
_TOKENS = (
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{40,}"), SecretKind.GITHUB_TOKEN),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}"), SecretKind.GITHUB_TOKEN),
    (re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}"), SecretKind.STRIPE_KEY),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"), SecretKind.GOOGLE_API_KEY),
    (re.compile(r"\bxox[abposre]-[A-Za-z0-9\-]{10,}"), SecretKind.SLACK_TOKEN),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), SecretKind.AWS_ACCESS_KEY),
    (re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), SecretKind.NPM_TOKEN),
)
_AWS_SECRET = re.compile(
    r"aws[\w.\-]{0,20}?(?:secret|key)[\w.\-]{0,20}?['\"]?[ \t]*[=:][ \t]*['\"]?"
    r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
    re.I,
)


def private_key_blocks(text: str) -> Iterator[SecretFinding]:
    """Whole BEGIN..END private key blocks, and the halves a chunk boundary cut off:
    a BEGIN line with the body lines after it, or body lines before an END line."""
    covered: list[tuple[int, int]] = []
    for match in PRIVATE_KEY_BLOCK.finditer(text):
        covered.append(match.span())
        yield SecretFinding(match.start(), match.end(), SecretKind.PRIVATE_KEY)
    for match in _BEGIN.finditer(text):
        if not any(a <= match.start() < b for a, b in covered):
            end = _body_after(text, match.end())
            yield SecretFinding(match.start(), end, SecretKind.PRIVATE_KEY)
    for match in _END.finditer(text):
        if not any(a <= match.start() < b for a, b in covered):
            yield SecretFinding(
                _body_before(text, match.start()), match.end(), SecretKind.PRIVATE_KEY
            )


def _body_after(text: str, at: int) -> int:
    end = text.find("\n", at)
    while end != -1:
        following = text.find("\n", end + 1)
        line = text[end + 1 : following if following != -1 else len(text)]
        if not _BODY_LINE.match(line):
            return end
        end = following
    return len(text)


def _body_before(text: str, at: int) -> int:
    start = text.rfind("\n", 0, at) + 1
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if not _BODY_LINE.match(text[previous : start - 1]):
            return start
        start = previous
    return 0


def url_passwords(line: str) -> Iterator[SecretFinding]:
    """Passwords in URLs (`scheme://user:password@host`) and URL query strings, and
    password fields of connection strings (`Server=db;User Id=sa;Password=...;`)."""
    for match in _URL_PASSWORD.finditer(line):
        if plausible_secret(match.group(3), min_length=3, letters_only_ok=True):
            scheme = match.group(1).lower().partition("+")[0]
            kind = (
                SecretKind.CONNECTION_STRING if scheme in DB_SCHEMES else SecretKind.PASSWORD_IN_URL
            )
            yield SecretFinding(match.start(3), match.end(3), kind)
    for match in _QUERY_SECRET.finditer(line):
        if plausible_secret(match.group(1), letters_only_ok=True):
            yield SecretFinding(match.start(1), match.end(1), SecretKind.PASSWORD_IN_URL)
    if ";" in line:
        for match in _CONNECTION_FIELD.finditer(line):
            if plausible_secret(match.group(1), min_length=3, letters_only_ok=True):
                yield SecretFinding(match.start(1), match.end(1), SecretKind.CONNECTION_STRING)


def assignments(line: str) -> Iterator[SecretFinding]:
    """Values assigned to secret-sounding names: env style (`DB_PASSWORD=hunter2`, any
    value that is not a placeholder) and quoted (`api_token = "..."`, not a plain word)."""
    for match in _ENV_ASSIGNMENT.finditer(line):
        if plausible_secret(match.group(3), letters_only_ok=True):
            yield SecretFinding(match.start(3), match.end(3), keyword_kind(match.group(1)))
    for match in _QUOTED_ASSIGNMENT.finditer(line):
        if plausible_secret(match.group(3)):
            yield SecretFinding(match.start(3), match.end(3), keyword_kind(match.group(1)))


def keyword_kind(name: str) -> SecretKind:
    lowered = name.lower()
    if "pass" in lowered or "pwd" in lowered:
        return SecretKind.KEYWORD_PASSWORD
    return SecretKind.KEYWORD_SECRET


def tokens(line: str) -> Iterator[SecretFinding]:
    """Token formats detect-secrets lacks or cuts short (fine-grained GitHub tokens, Stripe
    keys longer than 24 characters, Google API keys, newer Slack tokens)."""
    for pattern, kind in _TOKENS:
        for match in pattern.finditer(line):
            yield SecretFinding(match.start(), match.end(), kind)


def aws_secret_keys(line: str) -> Iterator[SecretFinding]:
    """40-character AWS secret keys after a name like aws_secret_access_key, quoted or not."""
    for match in _AWS_SECRET.finditer(line):
        yield SecretFinding(match.start(1), match.end(1), SecretKind.AWS_SECRET_KEY)
