"""The parser workers' fork server loads the static model the parent names, so a worker
forked from it embeds its first file without reading the model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ctxopt.embed.static import StaticEmbedder
from ctxopt.index.file_jobs import MODEL_CACHE_VARIABLE

MODEL_CACHE = Path.home() / ".cache" / "ctxopt"  # where the test run's static model lives

# What a fork server does (import worker_preload), then what a worker forked from it does.
SERVER_THEN_WORKER = """
import json, sys
import numpy as np
import ctxopt.index.worker_preload
from ctxopt.embed.static import StaticEmbedder
from ctxopt.index.worker_embed import worker_embedder
from pathlib import Path
cache = sys.argv[1]
model = worker_embedder(cache)
fresh = StaticEmbedder(Path(cache))
loaded = model._vectors is not None
text = ["def refund(order): return order.total"]
same = bool(np.array_equal(model.embed(text), fresh.embed(text))) if loaded else None
print(json.dumps({"loaded": loaded, "same": same, "made": (fresh.model_dir).exists()}))
"""


def _server_then_worker(cache: Path, named: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop(MODEL_CACHE_VARIABLE, None)
    if named:
        env[MODEL_CACHE_VARIABLE] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parents[2] / "src"), *sys.path])
    done = subprocess.run(
        [sys.executable, "-c", SERVER_THEN_WORKER, str(cache)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_worker_gets_the_model_the_server_loaded_and_embeds_the_same() -> None:
    StaticEmbedder(MODEL_CACHE).embed(["make the model once, as the parent does"])
    result = _server_then_worker(MODEL_CACHE, named=True)
    assert result == {"loaded": True, "same": True, "made": True}


def test_without_a_named_cache_the_worker_loads_the_model_itself() -> None:
    result = _server_then_worker(MODEL_CACHE, named=False)
    assert result["loaded"] is False


def test_a_cache_without_a_model_is_left_alone(tmp_path: Path) -> None:
    result = _server_then_worker(tmp_path / "empty-cache", named=True)
    assert result == {"loaded": False, "same": None, "made": False}
