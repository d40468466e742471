"""Retrieval: entities and intent of a task, hybrid candidates, scoring, graph expansion."""
