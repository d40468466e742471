"""Packs started together after an edit (as an agent's parallel calls are): one refreshes the
index, the others wait for that short refresh instead of answering from the old index with a
warning that blames a `ctxopt index` nobody ran."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import commit_all, init_repo, write_files


def test_parallel_packs_after_an_edit_all_see_it(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    files = {f"pkg/mod_{i}.py": f"def helper_{i}(x):\n    return x + {i}\n" for i in range(40)}
    write_files(repo, files)
    commit_all(repo)
    env = {**os.environ, "NO_COLOR": "1", "CTXOPT_BACKGROUND": "0"}
    command = [sys.executable, "-m", "ctxopt.cli"]
    subprocess.run([*command, "index", str(repo), "--quiet"], env=env, check=True)
    with (repo / "pkg/mod_7.py").open("a", encoding="utf-8") as handle:
        handle.write("\n\ndef zz_concurrent_marker():\n    return 42\n")
    packs = [
        subprocess.Popen(
            [*command, "pack", "zz_concurrent_marker", "--path", str(repo), "--budget", "2000"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(3)
    ]
    for pack in packs:
        out, err = pack.communicate(timeout=600)
        assert pack.returncode == 0, err
        assert "def zz_concurrent_marker():" in out, err
        assert "another `ctxopt index` is running" not in err
