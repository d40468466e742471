"""Killing real `ctxopt index` runs at random moments: the index survives every kill.

A repository of a few hundred small files; `python -m ctxopt.cli index` in a subprocess
(its own session, so SIGINT reaches it as Ctrl-C would), killed with SIGKILL or SIGINT
after a seeded random delay spread over the run's measured length, over first runs,
--full runs and incremental runs after edits.  After each kill `query` works or says to
run `ctxopt index` in one line; after the next (uninterrupted) run the chunks table holds
exactly what a clean build holds, once each, and full-text search works.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from clitools import run_cli
from ctxopt.config.settings import load_settings
from ctxopt.discover import walk as discovery
from ctxopt.index.process import process_file
from ctxopt.index.store import IndexReader
from ctxopt.retrieve.candidates import CandidateSource
from helpers import commit_all, init_repo, write_files

pytestmark = pytest.mark.slow

KILLS = 21
FILES = 120
Key = tuple[str, int, int, str]


def module(i: int, version: int = 0) -> str:
    functions = "\n\n".join(
        f"def handler_{i}_{j}(value, extra=None):\n"
        f'    """Handle case {j} of module {i} (v{version})."""\n'
        f"    total = value * {j + version} + {i}\n"
        f"    return total + (extra or 0)\n"
        for j in range(3)
    )
    return f"import os\n\n{functions}\n\nclass Service{i}:\n    def run(self):\n        return 1\n"


def make_repo(root: Path) -> Path:
    repo = init_repo(root / "killed")
    write_files(repo, {f"pkg{i % 12}/mod_{i}.py": module(i) for i in range(FILES)})
    commit_all(repo, "initial")
    return repo


@pytest.fixture(autouse=True)
def killed_runs_temp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temp folder for the killed runs: what a SIGKILLed run leaves there (its worker pool's
    pymp-* folder) goes with it, not into the machine's /tmp.  Short, under the system temp
    folder, so the fork server's socket path stays within the Unix limit."""
    folder = Path(tempfile.mkdtemp(prefix="ck-"))
    monkeypatch.setenv("TMPDIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def start(repo: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "ctxopt.cli", "index", str(repo), "--quiet", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


def kill_after(run: subprocess.Popen[str], delay: float, sig: signal.Signals) -> tuple[int, str]:
    try:
        run.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        if sig is signal.SIGINT:
            os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        else:
            run.kill()
    _out, err = run.communicate(timeout=120)
    return run.returncode, err


def expected_chunks(repo: Path) -> Counter[Key]:
    """What a clean build stores: every discovered file chunked as the index run does."""
    settings = load_settings(repo)
    found = discovery.discover(settings.root, extra_ignored_dirs=[settings.db_path])
    keys: Counter[Key] = Counter()
    for source in found.files:
        for c in process_file(source, settings.parse_timeout).chunked.chunks:
            keys[(c.path, c.start_line, c.end_line, c.content_hash)] += 1
    return keys


def stored_chunks(db: Path) -> tuple[Counter[Key], Counter[str], bool]:
    reader = IndexReader(db)
    table = reader.dataset("chunks").to_table(
        columns=["id", "path", "start_line", "end_line", "content_hash"]
    )
    rows = table.to_pylist()
    keys = Counter((r["path"], r["start_line"], r["end_line"], r["content_hash"]) for r in rows)
    searchable = bool(CandidateSource(reader).full_text("handler total value", 5))
    return keys, Counter(r["id"] for r in rows), searchable


def check_query(repo: Path) -> None:
    result = run_cli("query", "handler total value", "--path", str(repo), "--no-refresh", "-k", "3")
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    if result.code != 0:
        lines = [line for line in result.err.splitlines() if line.strip()]
        assert len(lines) == 1, result.err
        assert "run `ctxopt index`" in lines[0], result.err
        assert "--full" not in lines[0], result.err  # a kill never damages the index


def check_interrupt_message(code: int, err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    if code == 130:
        assert len(lines) == 1 and lines[0].startswith("ctxopt: error: interrupted"), err
    else:  # finished first (0), or killed by the default handler before Python set its own
        assert code in (0, -signal.SIGINT), (code, err)


def edit(repo: Path, rng: random.Random, version: int) -> None:
    """Change a third of the files, add one, delete one."""
    modules = sorted(repo.glob("pkg*/mod_*.py"))
    for target in rng.sample(modules, len(modules) // 3):
        i = int(target.stem.split("_")[1])
        target.write_text(module(i, version), encoding="utf-8")
    rng.choice(modules).unlink()
    new = 10_000 + version
    write_files(repo, {f"pkg_new/mod_{new}.py": module(new)})


def test_kills_at_random_moments_never_break_the_index(tmp_path: Path) -> None:
    rng = random.Random(14)
    repo = make_repo(tmp_path)
    db = repo / ".ctxopt"
    began = time.monotonic()
    first = start(repo)
    assert first.wait(timeout=600) == 0, first.communicate()[1]
    length = {"first": time.monotonic() - began}
    length["full"] = length["first"]
    length["incremental"] = length["first"] / 2
    kills = Counter[str]()
    version = 0
    for attempt in range(KILLS * 2):
        if sum(kills.values()) >= KILLS:
            break
        mode = ("first", "full", "incremental")[attempt % 3]
        if mode == "first":
            shutil.rmtree(db)
        if mode == "incremental":
            version += 1
            edit(repo, rng, version)
        sig = rng.choice([signal.SIGKILL, signal.SIGINT])
        began = time.monotonic()
        code, err = kill_after(
            start(repo, *(["--full"] if mode == "full" else [])),
            rng.uniform(0.05, 1.0) * length[mode],
            sig,
        )
        if code == 0:
            length[mode] = time.monotonic() - began  # it finished first: aim within it
        else:
            kills[f"{mode} {sig.name}"] += 1
        if sig is signal.SIGINT:
            check_interrupt_message(code, err)
        check_query(repo)
        finish = run_cli("index", str(repo), "--quiet")
        assert finish.code == 0, finish.err
        keys, ids, searchable = stored_chunks(db)
        assert keys == expected_chunks(repo), f"after a {mode} run killed with {sig.name}"
        assert max(ids.values()) == 1
        assert searchable
        print(f"{attempt} {mode} {sig.name} code={code} t={time.monotonic() - began:.1f}s")
    assert sum(kills.values()) >= KILLS, kills
    assert {k.split()[0] for k in kills} == {"first", "full", "incremental"}, kills
    clean = run_cli("index", str(repo), "--quiet", "--db", str(tmp_path / "clean"))
    assert clean.code == 0, clean.err
    assert stored_chunks(tmp_path / "clean")[0] == stored_chunks(db)[0] == expected_chunks(repo)
