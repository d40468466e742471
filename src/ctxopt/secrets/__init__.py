"""Secrets in text: find them (`find_secrets`) and write `[REDACTED:<kind>]` in their place
(`redact`).  A low stage with no ctxopt imports beyond itself, so index, query and pack
can all use it; detect-secrets is imported on first need."""

from ctxopt.secrets.detect import find_secrets
from ctxopt.secrets.findings import SecretFinding, SecretKind
from ctxopt.secrets.redact import redact, redact_text

__all__ = ["SecretFinding", "SecretKind", "find_secrets", "redact", "redact_text"]
