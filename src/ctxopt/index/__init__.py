"""The index: refresh plan, LanceDB store and build pipeline."""
