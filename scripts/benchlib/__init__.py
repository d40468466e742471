"""Helpers for scripts/bench_retrieval.py: mine cases, run methods, score and report."""
