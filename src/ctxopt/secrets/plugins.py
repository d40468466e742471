"""detect-secrets' plugins, run on one line and located in it.

detect-secrets reports secret values, not places; each value is found again in the line
(every occurrence) and widened over the rest of its token, since some patterns stop
short (a Stripe key after 24 characters, a JWT before its signature).  The plugins are
called directly (`analyze_string`), never through detect-secrets' global settings, so no
verification request can be made and no state is shared with other users of the library.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ctxopt.secrets.findings import SecretFinding, SecretKind
from ctxopt.secrets.patterns import keyword_kind
from ctxopt.secrets.values import looks_like_alphabet, plausible_secret

# detect-secrets plugin class name -> kind (plugins left out: Artifactory and IP address
# patterns match ordinary words and addresses; the keyword-based Cloudant, SoftLayer and
# IBM plugins are covered by the keyword rules)
_REGEX_PLUGINS = {
    "AWSKeyDetector": SecretKind.AWS_ACCESS_KEY,
    "AzureStorageKeyDetector": SecretKind.AZURE_STORAGE_KEY,
    "DiscordBotTokenDetector": SecretKind.DISCORD_TOKEN,
    "GitHubTokenDetector": SecretKind.GITHUB_TOKEN,
    "GitLabTokenDetector": SecretKind.GITLAB_TOKEN,
    "JwtTokenDetector": SecretKind.JWT,
    "MailchimpDetector": SecretKind.SERVICE_TOKEN,
    "NpmDetector": SecretKind.NPM_TOKEN,
    "OpenAIDetector": SecretKind.OPENAI_KEY,
    "PypiTokenDetector": SecretKind.PYPI_TOKEN,
    "SendGridDetector": SecretKind.SENDGRID_KEY,
    "SlackDetector": SecretKind.SLACK_TOKEN,
    "SquareOAuthDetector": SecretKind.SERVICE_TOKEN,
    "StripeDetector": SecretKind.STRIPE_KEY,
    "TelegramBotTokenDetector": SecretKind.SERVICE_TOKEN,
    "TwilioKeyDetector": SecretKind.TWILIO_KEY,
}
# characters a token of each kind may continue with past the end of the plugin's match
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9_\-]*")
_JWT_TAIL = re.compile(r"[A-Za-z0-9_\-.+/=]*")
_QUOTES = "'\"`"
# detect-secrets' default limits (bits per character) for its high-entropy plugins; a hex
# value must also be long enough to be a key rather than a short hash or colour
_HEX_MIN_LENGTH = 32
# a bare value with a space or a bracket is code (`password=None)`, `password: str | None`)
_BARE_CODE = re.compile(r"[\s()\[\]{}]")
_SECRET_WORD = re.compile(r"secret|token|passw|api_?key|private|credential", re.I)


@dataclass(frozen=True)
class _Plugins:
    regex: tuple[tuple[Any, SecretKind], ...]
    keyword: Any
    keyword_rules: tuple[Any, ...]  # detect-secrets' {regex: group} tables, code then config
    base64: Any
    hex: Any
    heuristics: Any  # the detect_secrets.filters.heuristic module


@lru_cache(maxsize=1)
def _plugins() -> _Plugins:
    """Instances of the plugins, built on first use (detect-secrets takes ~0.5 s to import)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.filters import heuristic
    from detect_secrets.plugins import high_entropy_strings, keyword

    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    by_name = {cls.__name__: cls for cls in classes}
    return _Plugins(
        regex=tuple((by_name[name](), kind) for name, kind in _REGEX_PLUGINS.items()),
        keyword=keyword.KeywordDetector(),
        keyword_rules=(
            keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP,
            keyword.CONFIG_DENYLIST_REGEX_TO_GROUP,
        ),
        base64=high_entropy_strings.Base64HighEntropyString(),
        hex=high_entropy_strings.HexHighEntropyString(),
        heuristics=heuristic,
    )


def regex_findings(line: str) -> Iterator[SecretFinding]:
    """Findings of detect-secrets' token plugins in one line (offsets within the line)."""
    for plugin, kind in _plugins().regex:
        for value in set(plugin.analyze_string(line)):
            found_kind = kind
            if kind is SecretKind.AWS_ACCESS_KEY and len(value) == 40:
                found_kind = SecretKind.AWS_SECRET_KEY
            tail = _JWT_TAIL if kind is SecretKind.JWT else _TOKEN_TAIL
            for start in _occurrences(line, value):
                end = tail.match(line, start + len(value))
                yield SecretFinding(start, end.end() if end else start + len(value), found_kind)


def keyword_findings(line: str) -> Iterator[SecretFinding]:
    """Findings of detect-secrets' keyword plugin in one line."""
    return _keyword_findings(line, _plugins())


def entropy_findings(line: str) -> Iterator[SecretFinding]:
    """Findings of detect-secrets' high-entropy plugins in one line."""
    return _entropy_findings(line, _plugins())


def _keyword_findings(line: str, plugins: _Plugins) -> Iterator[SecretFinding]:
    """Values after secret-sounding names (password, secret, api_key, ...), quoted as in
    code or bare as in config files.  Bare values stop at ";" or "&" and must hold no
    space or bracket and not be an identifier or an attribute (`password = user.password`)."""
    for rules in plugins.keyword_rules:
        for raw in set(plugins.keyword.analyze_string(line, rules)):
            for start in _occurrences(line, raw):
                value = raw
                quoted = start > 0 and line[start - 1] in _QUOTES
                if not quoted:
                    value = re.split(r"[;&]|\s+#", value, maxsplit=1)[0].rstrip()
                    if _BARE_CODE.search(value) or plugins.heuristics.is_indirect_reference(line):
                        continue
                if not plausible_secret(value, identifier_ok=quoted):
                    continue
                if _noise(plugins, value, line):
                    continue
                name = line[:start].rstrip(" \t:=!>'\"`[]@")
                yield SecretFinding(start, start + len(value), keyword_kind(name[-40:]))


def _entropy_findings(line: str, plugins: _Plugins) -> Iterator[SecretFinding]:
    """Quoted strings of random-looking base64 (with a digit and a letter: 40 random base64
    characters lack a digit once in a thousand, words and alphabets always do), or long
    hex on a line that names a secret (test vectors and digests are hex too)."""
    for plugin, min_length in ((plugins.base64, 20), (plugins.hex, _HEX_MIN_LENGTH)):
        for value in set(plugin.analyze_string(line)):
            if len(value) < min_length or _noise(plugins, value, line):
                continue
            if plugin is plugins.base64 and not _digit_and_letter(value):
                continue
            if plugin is plugins.hex and not _SECRET_WORD.search(line):
                continue
            if plugin.calculate_shannon_entropy(value) <= plugin.entropy_limit:
                continue
            for start in _occurrences(line, value):
                yield SecretFinding(start, start + len(value), SecretKind.HIGH_ENTROPY_STRING)


def _digit_and_letter(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _noise(plugins: _Plugins, value: str, line: str) -> bool:
    """detect-secrets' own false-positive heuristics for a value."""
    heuristics = plugins.heuristics
    return bool(
        looks_like_alphabet(value)
        or heuristics.is_sequential_string(value)
        or heuristics.is_potential_uuid(value)
        or heuristics.is_templated_secret(value)
        or heuristics.is_prefixed_with_dollar_sign(value)
        or heuristics.is_not_alphanumeric_string(value)
        or heuristics.is_likely_id_string(value, line)
    )


def _occurrences(line: str, value: str) -> Iterator[int]:
    if not value:
        return
    start = line.find(value)
    while start != -1:
        yield start
        start = line.find(value, start + len(value))
