"""Retrieval: entities and intent of a task, hybrid candidates, scoring, graph expansion.
It reads the index and never writes it (the refresh before a query is in app/)."""
