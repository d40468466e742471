"""Check the CPU before importing LanceDB: its wheels need AVX2 and FMA."""

from __future__ import annotations

import platform
from functools import lru_cache
from pathlib import Path

from ctxopt.errors import CtxoptError

REQUIRED_FLAGS = ("avx2", "fma")


def missing_cpu_flags(cpuinfo: str, machine: str) -> list[str]:
    """The required x86 flags absent from a /proc/cpuinfo text (none on other architectures)."""
    if machine.lower() not in ("x86_64", "amd64", "i386", "i686"):
        return []
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            return [flag for flag in REQUIRED_FLAGS if flag not in flags]
    return []


@lru_cache(maxsize=1)
def ensure_lancedb_cpu() -> None:
    """Raise a one-line error instead of letting LanceDB crash the process."""
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return
    missing = missing_cpu_flags(cpuinfo, platform.machine())
    if missing:
        raise CtxoptError(
            "this CPU lacks "
            + " and ".join(f.upper() for f in missing)
            + ", which LanceDB's wheels need; run ctxopt on a CPU with AVX2 and FMA"
        )
