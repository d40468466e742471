"""What a secret finding is: a kind and where it sits in the scanned text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class SecretKind(str, Enum):
    """The kind of a finding; its value is the name written in `[REDACTED:<value>]`."""

    PRIVATE_KEY = "private-key"
    AWS_ACCESS_KEY = "aws-access-key"
    AWS_SECRET_KEY = "aws-secret-key"
    GITHUB_TOKEN = "github-token"
    GITLAB_TOKEN = "gitlab-token"
    SLACK_TOKEN = "slack-token"
    SLACK_WEBHOOK = "slack-webhook"
    STRIPE_KEY = "stripe-key"
    GOOGLE_API_KEY = "google-api-key"
    OPENAI_KEY = "openai-key"
    SENDGRID_KEY = "sendgrid-key"
    TWILIO_KEY = "twilio-key"
    NPM_TOKEN = "npm-token"
    PYPI_TOKEN = "pypi-token"
    DISCORD_TOKEN = "discord-token"
    AZURE_STORAGE_KEY = "azure-storage-key"
    SERVICE_TOKEN = "service-token"  # other vendors' tokens that detect-secrets knows
    JWT = "jwt"
    PASSWORD_IN_URL = "password-in-url"
    CONNECTION_STRING = "connection-string"
    KEYWORD_PASSWORD = "keyword-password"
    KEYWORD_SECRET = "keyword-secret"
    HIGH_ENTROPY_STRING = "high-entropy-string"


# When two findings overlap, the merged span keeps the kind that says the most.
_GENERIC = (SecretKind.HIGH_ENTROPY_STRING, SecretKind.KEYWORD_SECRET, SecretKind.KEYWORD_PASSWORD)


@dataclass(frozen=True, order=True)
class SecretFinding:
    """A secret at text[start:end] (offsets in characters of the scanned text)."""

    start: int
    end: int
    kind: SecretKind

    @property
    def label(self) -> str:
        return f"[REDACTED:{self.kind.value}]"


def _rank(kind: SecretKind) -> int:
    return _GENERIC.index(kind) + 1 if kind in _GENERIC else 0


def merged(findings: Iterable[SecretFinding]) -> tuple[SecretFinding, ...]:
    """Sorted, non-overlapping findings: overlapping or touching spans become one span
    with the most specific kind among them.  Empty spans are dropped."""
    out: list[SecretFinding] = []
    for found in sorted(f for f in findings if f.end > f.start):
        if out and found.start <= out[-1].end:
            last = out[-1]
            kind = min(last.kind, found.kind, key=_rank)
            out[-1] = SecretFinding(last.start, max(last.end, found.end), kind)
        else:
            out.append(found)
    return tuple(out)
