"""Ranking weights learned from a repository's own history (`ctxopt tune`)."""
