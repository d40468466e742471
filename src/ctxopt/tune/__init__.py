"""Ranking weights learned from a repository's own history (`ctxopt tune`)."""

DEFAULT_COMMITS = 300  # the recent commits tuning reads
