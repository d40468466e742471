"""The application layer: what a command does, in order (refresh the index, then query,
pack or read a git change), so that retrieval only reads and packing takes a ready result.
The CLI and the benchmark runner call these functions."""
