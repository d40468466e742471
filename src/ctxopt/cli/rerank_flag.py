"""`--rerank/--no-rerank`, shared by query and pack: a cross-encoder reranks the best hits."""

from __future__ import annotations

from typing import Annotated

import typer

from ctxopt.embed.cross_encoder import INSTALL_HINT

RerankOption = Annotated[
    bool | None,
    typer.Option(
        "--rerank/--no-rerank",
        help=(
            "Rerank the 20 best hits with a cross-encoder that reads the task and each hit "
            f"together (better packs, about 0.8 s more; needs the rerank extra: {INSTALL_HINT}). "
            "Config: rerank = true. Env: CTXOPT_RERANK."
        ),
        show_default=False,
    ),
]
