"""Embedders: the protocol and shared helpers (base), the static default (static), MiniLM
through sentence-transformers (minilm) and through numpy (minilm_numpy); built by name in
factory and imported lazily."""
