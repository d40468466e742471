"""ctxopt: the smallest prompt that still holds what an LLM needs for a task."""

__version__ = "0.1.0"
