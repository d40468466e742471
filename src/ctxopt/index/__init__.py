"""The index: refresh plan, build (plan, then apply), LanceDB store, import graph, figures."""
