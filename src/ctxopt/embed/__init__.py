"""Embedders: the protocol, the static default and MiniLM; imported lazily."""
