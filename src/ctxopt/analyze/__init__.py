"""analyze-doc: document windows, rolling runs, the external LLM command, offline digest."""
