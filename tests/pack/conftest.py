"""Make src/ importable when ctxopt is not installed (pytest run from a checkout)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("ctxopt") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
