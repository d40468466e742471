"""Tests of scripts/bench_retrieval.py on a small git repository built per test."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from benchlib.bounds import ENTRY_LABEL, FILE_HEADER, oracle_coverage, ranking_coverage
from benchlib.corpus import BlobCache
from benchlib.ctxopt_runner import CtxoptRunner
from benchlib.gitutil import BenchError
from benchlib.metrics import ChangedUnit, score_case, summarise, unit_shown
from benchlib.mine import GoldFile, message_skip_reason, mine_cases
from benchlib.run import CODE_WINDOWS, DEFAULT_METHODS, baseline_spans
from benchlib.select import Span, fill_budget, rank_segments
from benchlib.split_report import from_json, overall, render_split
from benchlib.splits import load_splits, split_repos
from benchlib.units import changed_units, units_of

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _load_script(name: str = "bench_retrieval.py") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), SCRIPTS / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


APP_OLD = """import os

def parse(text):
    if text is None:
        return []
    return text.split(",")

def unused():
    return 1

def render(items):
    return ", ".join(items)
"""
APP_NEW = """import os
import sys

def parse(text):
    if not text:
        return []
    return text.split(",")


def render(items):
    return ", ".join(items)
"""
UTIL_OLD = "def first(items):\n    return items[0]\n\ndef last(items):\n    return items[-1]\n"
UTIL_NEW = UTIL_OLD.replace(
    "\ndef last", "\ndef join_parts(parts):\n    return '/'.join(parts)\n\ndef last"
)


class Repo:
    """A git repository with fixed identities and increasing commit dates."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tick = 0
        path.mkdir()
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        self.tick += 1
        stamp = f"{1_700_000_000 + self.tick * 60} +0000"
        env = dict(
            os.environ,
            GIT_AUTHOR_NAME="T",
            GIT_AUTHOR_EMAIL="t@example.com",
            GIT_COMMITTER_NAME="T",
            GIT_COMMITTER_EMAIL="t@example.com",
            GIT_AUTHOR_DATE=stamp,
            GIT_COMMITTER_DATE=stamp,
            GIT_CONFIG_NOSYSTEM="1",
        )
        cmd = ["git", "-C", str(self.path), "-c", "commit.gpgsign=false", *args]
        return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout

    def commit(self, message: str, files: dict[str, str]) -> str:
        for name, text in files.items():
            target = self.path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD").strip()


@pytest.fixture
def history(tmp_path: Path) -> tuple[Repo, dict[str, str]]:
    repo = Repo(tmp_path / "repo")
    shas = {}
    shas["root"] = repo.commit(
        "Initial import of the app and its helpers",
        {"src/app.py": APP_OLD, "src/util.py": UTIL_OLD, "README.md": "# App\n"},
    )
    shas["fix"] = repo.commit(
        "Fix parse so it treats empty text as no items\n\nAlso drop the unused helper.\n\n"
        "Signed-off-by: T <t@example.com>",
        {"src/app.py": APP_NEW},
    )
    shas["docs"] = repo.commit(
        "Document the installation steps in the readme", {"README.md": "# App\n\npip install\n"}
    )
    shas["bump"] = repo.commit("Bump version to 1.2.0 for release", {"src/version.py": "V = 1\n"})
    shas["format"] = repo.commit(
        "Tidy the render function of the app module", {"src/app.py": APP_NEW.replace("    ", "\t")}
    )
    repo.git("checkout", "-q", "-b", "feature")
    shas["feature"] = repo.commit(
        "Add a helper next to first and last that joins path parts", {"src/util.py": UTIL_NEW}
    )
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge branch feature into main branch", "feature")
    shas["short"] = repo.commit("fix it", {"src/version.py": "V = 2\n"})
    return repo, shas


def test_miner_keeps_real_changes_and_skips_the_rest(history: tuple[Repo, dict[str, str]]) -> None:
    repo, shas = history
    mined = mine_cases(repo.path, 10)
    assert [c.sha for c in mined.cases] == [shas["fix"], shas["feature"]]
    assert mined.skipped == {
        "docs only": 1,
        "formatting only": 1,
        "merge": 1,
        "root commit": 1,
        "short message": 1,
        "version bump": 1,
    }
    assert "Signed-off-by" in mined.cases[0].message
    assert mined.cases[0].task.endswith("Also drop the unused helper.")


def test_limit_takes_the_newest_cases(history: tuple[Repo, dict[str, str]]) -> None:
    repo, shas = history
    assert [c.sha for c in mine_cases(repo.path, 1).cases] == [shas["feature"]]
    since = mine_cases(repo.path, 10, since=shas["fix"])
    assert [c.sha for c in since.cases] == [shas["feature"]]


def test_gold_lines_are_pre_change_line_numbers(history: tuple[Repo, dict[str, str]]) -> None:
    repo, _ = history
    fix, feature = mine_cases(repo.path, 10).cases
    # insertion after old line 1 -> anchors 1 and 3 (line 2 is blank); line 4 modified;
    # lines 8-9 removed
    assert fix.gold == (GoldFile("src/app.py", (1, 3, 4, 8, 9)),)
    # pure insertion after old line 3 (blank) -> the nearest code lines around the point
    assert feature.gold == (GoldFile("src/util.py", (2, 4)),)
    assert feature.parent != fix.sha


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ('Revert "Add the thing to the module"', "revert"),
        ("Fix typo in the option help text", "typo fix"),
        ("Release 2.3.0 of the library today", "version bump"),
        ("bump golang.org/x/text from 0.3 to 0.4", "version bump"),
        ("Run black over the whole code base", "formatting"),
        ("Fix parser", "short message"),
        ("Handle empty input in the option parser", None),
    ],
)
def test_message_filter(message: str, reason: str | None) -> None:
    assert message_skip_reason(message) == reason


def test_bm25_ranks_the_matching_window_first(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    filler = [f"value_{i} = compute_total(amount_{i})\n" for i in range(130)]
    filler[70] = "def load_config_file(path):\n"
    filler[71] = "    return read_yaml_settings(path)\n"
    repo.commit("Initial files for the ranking test", {"big.py": "".join(filler)})
    repo.commit("Add a second module with other code", {"other.py": "def config():\n  pass\n"})
    snapshot = BlobCache().snapshot(repo.path)
    assert [(w.path, w.start_line, w.end_line) for w in snapshot.windows] == [
        ("big.py", 1, 60),
        ("big.py", 61, 120),
        ("big.py", 121, 130),
        ("other.py", 1, 2),
    ]
    ranked = rank_segments("Load yaml settings from the config file", snapshot.windows)
    assert (ranked[0].file, ranked[0].start_line) == ("big.py", 61)
    assert all(s.score > 0 for s in ranked)
    assert [s.score for s in ranked] == sorted((s.score for s in ranked), reverse=True)


def test_sliding_windows_start_every_thirty_lines_and_never_overlap_in_a_fill(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "repo")
    lines = [f"value_{i} = compute_total(amount_{i})\n" for i in range(130)]
    lines[75] = "def load_config_file(path):\n"
    repo.commit("Initial files for the sliding test", {"big.py": "".join(lines)})
    assert BlobCache().snapshot(repo.path).sliding == ()  # made only when asked for
    snapshot = BlobCache(sliding=True).snapshot(repo.path)
    assert [(w.start_line, w.end_line) for w in snapshot.sliding] == [
        (1, 60), (31, 90), (61, 120), (91, 130),
    ]  # fmt: skip
    ranked = rank_segments("load the config file", snapshot.sliding)
    assert [(s.start_line, s.end_line) for s in ranked] == [(31, 90), (61, 120)]
    chosen = fill_budget(ranked, 10_000, disjoint=True)
    assert [(s.start_line, s.end_line) for s in chosen] == [(31, 90)]  # (61, 120) overlaps it


def test_code_windows_leave_docs_and_data_out_while_the_windows_hold_them(
    tmp_path: Path,
) -> None:
    repo = Repo(tmp_path / "repo")
    notes = "".join(f"Fixed the config file loader, release {i}.\n" for i in range(40))
    repo.commit(
        "Initial files for the code windows test",
        {
            "CHANGES.md": notes,
            "settings.json": '{"config": "file", "load": true}\n',
            "docs/loader.py": "def load_config_file_example():\n    pass\n",
            "src/loader.py": "def load_config_file(path):\n    return open(path).read()\n",
        },
    )
    snapshot = BlobCache().snapshot(repo.path)
    everything = {s.file for s in baseline_spans("load the config file", snapshot, "bm25-window")}
    code = [s.file for s in baseline_spans("load the config file", snapshot, CODE_WINDOWS)]
    assert {"CHANGES.md", "settings.json", "src/loader.py"} <= everything
    assert sorted(code) == ["docs/loader.py", "src/loader.py"]  # source files, wherever they are
    assert CODE_WINDOWS in DEFAULT_METHODS


def test_fill_budget_skips_what_does_not_fit_and_never_exceeds() -> None:
    spans = [Span(f"f{i}.py", 1, 10, tokens) for i, tokens in enumerate([5, 100, 3, 50, 2, 7])]
    chosen = fill_budget(spans, 60)
    assert [s.tokens for s in chosen] == [5, 3, 50, 2]
    for budget in range(0, 180):
        picked = fill_budget(spans, budget)
        used = sum(s.tokens for s in picked)
        assert used <= budget
        skipped = [s for s in spans if s not in picked]
        assert all(s.tokens > budget - used for s in skipped)


def test_metrics_on_a_hand_built_case() -> None:
    gold = (GoldFile("a.py", (1, 2, 3, 10)), GoldFile("b.py", (5,)))
    spans = [Span("a.py", 1, 2, 40), Span("a.py", 9, 12, 30), Span("c.py", 1, 60, 100)]
    score = score_case(gold, spans)
    assert score.file_recall == 0.5
    assert score.hit is True
    assert score.line_coverage == pytest.approx(3 / 5)
    assert score.tokens == 170
    assert score.files_hit == ("a.py",)
    miss = score_case(gold, [Span("c.py", 1, 60, 100)])
    assert (miss.file_recall, miss.hit, miss.line_coverage) == (0.0, False, 0.0)
    summary = summarise([score, miss])
    assert summary.file_recall == 0.25
    assert summary.hit_rate == 0.5
    assert summary.line_coverage == pytest.approx(0.3)
    assert summary.mean_tokens == 135


def test_all_files_needs_every_changed_file_shown_as_code() -> None:
    gold = (GoldFile("a.py", (3,)), GoldFile("b.py", (5,)))
    one = score_case(gold, [Span("a.py", 1, 10, 9)])
    both = score_case(gold, [Span("a.py", 3, 3, 1), Span("b.py", 40, 50, 9)])
    assert (one.all_files, both.all_files) == (False, True)  # b.py shown, if not its line
    assert summarise([one, both]).all_files == 0.5
    assert score_case((), [Span("a.py", 1, 1, 1)]).all_files is False


def test_a_changed_function_counts_whole_or_by_every_changed_line_of_it() -> None:
    unit = ChangedUnit("a.py", 10, 40, (12, 35))
    assert unit_shown(unit, [(10, 40)])  # whole
    assert unit_shown(unit, [(1, 25), (26, 50)])  # whole, from two windows
    assert unit_shown(unit, [(11, 13), (30, 36)])  # an excerpt holding both changed lines
    assert not unit_shown(unit, [(11, 30)])  # holds 12, not 35
    assert not unit_shown(unit, [(1, 9), (41, 60)])  # its neighbours only


def test_function_figures_of_a_hand_built_case() -> None:
    gold = (GoldFile("a.py", (12, 35, 70)), GoldFile("b.py", (5,)))
    units = [
        ChangedUnit("a.py", 10, 40, (12, 35)),
        ChangedUnit("a.py", 60, 80, (70,)),
        ChangedUnit("b.py", 1, 9, (5,)),
    ]
    spans = [Span("a.py", 10, 40, 50), Span("a.py", 65, 75, 20), Span("b.py", 6, 9, 5)]
    score = score_case(gold, spans, units)
    assert score.function_recall == pytest.approx(2 / 3)  # b.py's misses line 5
    assert score.all_functions is False
    assert score.line_coverage == pytest.approx(3 / 4)
    full = score_case(gold, [*spans, Span("b.py", 1, 5, 5)], units)
    assert (full.function_recall, full.all_functions) == (1.0, True)
    summary = summarise([score, full])
    assert summary.all_functions == 0.5
    assert summary.function_recall == pytest.approx(5 / 6)
    alone = score_case(gold, spans)  # no units: every changed line is its own
    assert alone.function_recall == pytest.approx(3 / 4)


def test_units_take_the_smallest_chunk_holding_each_line() -> None:
    ranges = [(1, 50), (10, 20), (30, 45)]  # a class and two of its methods
    units = units_of("a.py", [12, 15, 31, 48, 60], ranges)
    assert units == [
        ChangedUnit("a.py", 1, 50, (48,)),
        ChangedUnit("a.py", 10, 20, (12, 15)),
        ChangedUnit("a.py", 30, 45, (31,)),
        ChangedUnit("a.py", 60, 60, (60,)),  # in no chunk: a unit of its own
    ]


def test_changed_units_come_from_the_chunker(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text(APP_OLD)
    units = changed_units(tmp_path, (GoldFile("src/app.py", (4, 5, 9)),))
    assert [(u.start_line, u.end_line, u.lines) for u in units] == [(3, 6, (4, 5)), (8, 9, (9,))]


def test_splits_file_has_three_disjoint_splits_wide_enough() -> None:
    repos = load_splits()
    dev = [r for r in repos if r.role == "dev"]
    test = [r for r in repos if r.role == "test"]
    heldout = [r for r in repos if r.role == "heldout"]
    assert len(dev) >= 12 and len({r.language for r in dev}) >= 7
    assert len(test) >= 4 and len({r.language for r in test}) >= 4
    assert len(heldout) >= 4 and len({r.language for r in heldout}) >= 4
    assert len(dev) + len(test) + len(heldout) == len(repos)
    assert len({r.repo for r in repos}) == len(repos)
    assert len({r.dir for r in repos}) == len(repos)
    assert all(len(r.commit) == 40 for r in repos)
    assert [r.dir for r in split_repos("test", ("chi",))] == ["chi"]
    with pytest.raises(BenchError, match="not in the test split: click"):
        split_repos("test", ("click",))
    assert [r.dir for r in split_repos("heldout", ("jq",))] == ["jq"]
    with pytest.raises(BenchError, match="not in the heldout split: chi"):
        split_repos("heldout", ("chi",))
    with pytest.raises(BenchError, match="dev, test or heldout"):
        split_repos("train")


def test_a_split_entry_with_an_unknown_role_stops(tmp_path: Path) -> None:
    bad = tmp_path / "splits.toml"
    bad.write_text(
        '[[repo]]\nrepo = "a/b"\ndir = "b"\nrole = "train"\nlanguage = "Go"\ncommit = "0"\n'
    )
    with pytest.raises(BenchError, match="role 'train', not dev, test or heldout"):
        load_splits(bad)


def test_split_overall_is_the_mean_over_cases_not_repositories() -> None:
    def run(name: str, recalls: list[float]) -> dict[str, object]:
        details = [
            {"results": {"ctxopt": {"4000": {
                "file_recall": r, "hit": r > 0, "line_coverage": r, "tokens": 10, "spans": 1,
                "files_hit": ["a.py"] if r else [], "all_files": r == 1.0,
                "function_recall": r, "all_functions": r == 1.0,
            }}}}
            for r in recalls
        ]  # fmt: skip
        return {"repo": name, "head": "0" * 40, "details": details}

    repos = [from_json(run("one", [1.0])), from_json(run("two", [0.0, 0.0, 1.0]), language="Go")]
    mean = overall(repos)["ctxopt"][4000]
    assert mean.cases == 4
    assert mean.file_recall == 0.5  # (1 + 0 + 0 + 1) / 4, not (1 + 1/3) / 2
    assert mean.all_files == 0.5
    table = render_split("test", repos)
    assert "two (Go)" in table and "overall" in table and "cases 4" in table


def test_unusable_ctxopt_stops_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CtxoptRunner("pack")
    monkeypatch.setattr(runner, "command", [sys.executable, "-c", "import sys; sys.exit(3)"])
    with pytest.raises(BenchError, match="--methods bm25-file,bm25-window"):
        runner.check()


def test_end_to_end_json_is_deterministic(
    history: tuple[Repo, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, shas = history
    script = _load_script()
    args = ["--repo", str(repo.path), "--methods", "bm25-file,bm25-window", "--json"]
    work = ["--work", str(tmp_path / "w")]
    assert script.main([*args, "--budgets", "50,400", *work]) == 0
    first = capsys.readouterr()
    assert script.main([*args, "--budgets", "400,50", *work]) == 0  # reuses the clone
    assert capsys.readouterr().out == first.out
    assert script.main([*args, "--budgets", "400,50"]) == 0  # a temporary work tree
    assert capsys.readouterr().out == first.out
    payload = json.loads(first.out)
    assert payload["cases"] == 2
    assert payload["range"] == {"from": shas["root"], "to": shas["feature"], "since": None}
    assert [d["sha"] for d in payload["details"]] == [shas["fix"], shas["feature"]]
    assert set(payload["methods"]) == {"bm25-file", "bm25-window"}
    for by_budget in payload["methods"].values():
        assert by_budget["50"]["mean_tokens"] <= 50
        assert by_budget["400"]["hit_rate"] == 1.0
    assert "[2/2]" in first.err
    assert (tmp_path / "w" / "repo" / ".git").is_dir()


FAKE_CTXOPT = """#!{python}
import json, pathlib, sys
args = sys.argv[1:]
with open({log!r}, "a") as log:
    log.write(json.dumps(args) + "\\n")
if "--help" in args:
    sys.exit(0)
if args[0] == "index":
    print(json.dumps({{"files": 1}}))
    sys.exit(0)
root = pathlib.Path(args[args.index("--path") + 1])
items = [
    {{"file": "./src/" + p.name, "start_line": 1, "end_line": 4, "tokens": 30, "score": 1.0}}
    for p in sorted((root / "src").glob("*.py"))
]
if args[0] == "pack":
    budget = int(args[args.index("--budget") + 1])
    if budget < 20:
        sys.exit("ctxopt: the budget cannot hold even the task")  # exit code 1
    if budget < 30:
        print("ctxopt: the budget cannot hold even the task", file=sys.stderr)
        sys.exit(3)
    print(json.dumps({{"chunks": items[: budget // 30], "tokens": 99}}))
else:
    print(json.dumps(items))
"""


@pytest.mark.parametrize("mode", ["pack", "query"])
def test_ctxopt_contract_with_a_fake_cli(
    history: tuple[Repo, dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mode: str,
) -> None:
    repo, _ = history
    log = tmp_path / "calls.jsonl"
    fake = tmp_path / "bin" / "ctxopt"
    fake.parent.mkdir()
    fake.write_text(FAKE_CTXOPT.format(python=sys.executable, log=str(log)))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    script = _load_script()
    args = ["--repo", str(repo.path), "--methods", "ctxopt", "--mode", mode, "--json"]
    assert script.main([*args, "--budgets", "30,100"]) == 0
    payload = json.loads(capsys.readouterr().out)
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    work = [c for c in calls if "--help" not in c]
    assert [c[0] for c in work][:2] == ["index", mode]
    assert work[0][2:] == ["--json", "--quiet"]
    if mode == "pack":
        assert work[1][-5:] == ["--budget", "30", "--compression", "none", "--json"]
        assert len(work) == 2 * 3
    else:
        assert work[1][-3:] == ["-k", "400", "--json"]
        assert len(work) == 2 * 2
    fix = payload["details"][0]["results"]["ctxopt"]
    # src/app.py sorts first: lines 1-4 cover gold lines 1, 2 and 4 of 1, 2, 4, 8, 9
    assert fix["30"]["files_hit"] == ["src/app.py"]
    assert fix["30"]["line_coverage"] == pytest.approx(3 / 5)
    if mode == "pack":
        # a pack's tokens are its rendered prompt's (the fake says 99), not its spans' (30)
        assert fix["30"]["tokens"] == 99 and fix["30"]["over_budget"] is True
        assert fix["100"]["tokens"] == 99 and fix["100"]["over_budget"] is False
        assert payload["methods"]["ctxopt"]["30"]["over_budget"] == 2
        assert payload["methods"]["ctxopt"]["100"]["over_budget"] == 0
    else:
        assert fix["30"]["tokens"] == 30 and fix["30"]["over_budget"] is False
        assert fix["100"]["tokens"] == 60


def test_a_task_over_the_budget_scores_nothing_but_other_failures_stop_the_run(
    history: tuple[Repo, dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo, _ = history
    fake = tmp_path / "bin" / "ctxopt"
    fake.parent.mkdir()
    fake.write_text(FAKE_CTXOPT.format(python=sys.executable, log=str(tmp_path / "calls.jsonl")))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    script = _load_script()
    args = ["--repo", str(repo.path), "--methods", "ctxopt", "--json"]
    assert script.main([*args, "--budgets", "25,100"]) == 0
    fix = json.loads(capsys.readouterr().out)["details"][0]["results"]["ctxopt"]
    assert fix["25"]["tokens"] == 0 and fix["25"]["line_coverage"] == 0.0
    assert fix["25"]["over_budget"] is False
    assert fix["100"]["tokens"] == 99
    assert script.main([*args, "--budgets", "10"]) != 0


def test_diagnosis_sorts_every_changed_line_and_agrees_with_the_benchmark(
    history: tuple[Repo, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = history
    diagnose = _load_script("diagnose_retrieval.py")
    assert diagnose.main(["--repo", str(repo.path), "--budgets", "300,2000", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    bench = _load_script()
    args = ["--repo", str(repo.path), "--methods", "ctxopt", "--runner", "library", "--json"]
    assert bench.main([*args, "--budgets", "300,2000"]) == 0
    measured = json.loads(capsys.readouterr().out)["methods"]["ctxopt"]
    for budget in ("300", "2000"):
        shares = report["budgets"][budget]["categories"]
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-3)
        assert shares["shown"] == pytest.approx(measured[budget]["line_coverage"], abs=1e-3)
    assert report["budgets"]["2000"]["categories"]["shown"] > 0.5
    for budget in ("300", "2000"):  # the real pack's prompt, counted, holds to its budget
        assert measured[budget]["over_budget"] == 0
        assert 0 < measured[budget]["mean_tokens"] <= int(budget)
    for budget in ("300", "2000"):
        bounds = report["budgets"][budget]["bounds"]
        assert set(bounds) == {"ranking", "oracle"}
        assert all(0.0 <= share <= 1.0 for share in bounds.values())
    # with room for every changed chunk, the oracle shows every changed line
    assert report["budgets"]["2000"]["bounds"]["oracle"] == pytest.approx(1.0)
    lines = report["details"][0]["lines"]["300"]
    assert {f["category"] for f in lines} <= {
        "shown",
        "shown-partly",
        "turned-away",
        "not-candidate",
        "no-chunk",
    }
    assert diagnose.main(["--repo", str(repo.path / "src"), "--json"]) == 1


def test_the_diagnosis_names_every_reason_a_pack_drops_a_chunk_for() -> None:
    from benchlib.diagnose import REASON_KEYS
    from ctxopt.types import DropReason

    assert {reason.value for reason in DropReason} <= set(REASON_KEYS)


GOLD = [GoldFile("a.py", (2, 3, 10)), GoldFile("b.py", (5,))]


def _entry(tokens: int, new_file: bool = True) -> int:
    return tokens + ENTRY_LABEL + (FILE_HEADER if new_file else 0)


def test_ranking_bound_takes_ranked_chunks_in_order_and_skips_what_does_not_fit() -> None:
    ranked = [
        Span("a.py", 1, 4, 30),  # lines 2, 3
        Span("c.py", 1, 50, 500),  # too big: skipped, the rest still tried
        Span("b.py", 1, 9, 40),  # line 5
        Span("a.py", 8, 12, 20),  # line 10, but no room left for it
    ]
    room = _entry(30) + _entry(40)
    assert ranking_coverage(GOLD, ranked, room) == pytest.approx(3 / 4)
    assert ranking_coverage(GOLD, ranked, room + _entry(20, new_file=False)) == 1.0
    # too little room for the first: a later, smaller one still goes in
    assert ranking_coverage(GOLD, ranked, _entry(30) - 1) == pytest.approx(1 / 4)
    assert ranking_coverage(GOLD, ranked, _entry(20) - 1) == 0.0
    assert ranking_coverage([], ranked, room) == 0.0


def test_oracle_bound_picks_by_changed_lines_per_token_and_counts_nested_lines_once() -> None:
    chunks = [
        Span("a.py", 1, 4, 30),
        Span("a.py", 8, 12, 20),
        Span("a.py", 1, 12, 60),  # holds both of the above: the best value per token
        Span("b.py", 1, 9, 40),
        Span("b.py", 20, 30, 5),  # cheap but holds no changed line
    ]
    # room for the whole of a.py and for b.py: every changed line
    assert oracle_coverage(GOLD, chunks, _entry(60) + _entry(40)) == 1.0
    # room for a.py only: its three lines; the nested chunks add nothing after it
    assert oracle_coverage(GOLD, chunks, _entry(60) + _entry(40) - 1) == pytest.approx(3 / 4)
    assert oracle_coverage(GOLD, chunks, _entry(20) - 1) == 0.0


def test_split_merge_renders_saved_runs_and_a_missing_clone_stops(
    history: tuple[Repo, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = history
    script = _load_script()
    args = ["--repo", str(repo.path), "--methods", "bm25-window", "--budgets", "400", "--json"]
    assert script.main(args) == 0
    saved = tmp_path / "repo.json"
    saved.write_text(capsys.readouterr().out)
    assert script.main(["--split", "test", "--merge", str(saved), "--methods", "bm25-window"]) == 0
    table = capsys.readouterr().out
    single = json.loads(saved.read_text())["methods"]["bm25-window"]["400"]
    overall_row = next(line for line in table.splitlines() if line.startswith("overall"))
    assert f"{single['file_recall']:.3f}" in overall_row
    assert overall_row.split()[-1] == "2"
    files_args = ["--repo", str(repo.path), "--methods", "bm25-file", "--budgets", "400", "--json"]
    assert script.main(files_args) == 0
    other = tmp_path / "files.json"
    other.write_text(capsys.readouterr().out)
    assert script.main(["--split", "test", "--merge", str(saved), str(other)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert {r[1] for r in rows if r and r[0] == "overall"} == {"bm25-file", "bm25-window"}
    assert script.main(["--split", "test", "--merge", str(saved), str(saved)]) == 1
    assert "has bm25-window in an earlier file too" in capsys.readouterr().err
    (tmp_path / "other.json").write_text('{"repo": "x"}')
    assert script.main(["--split", "test", "--merge", str(tmp_path / "other.json")]) == 1
    assert "is not the --json output of bench_retrieval.py" in capsys.readouterr().err
    empty = tmp_path / "none"
    empty.mkdir()
    assert script.main(["--split", "test", "--bench-dir", str(empty)]) == 1
    assert "no clone of requests" in capsys.readouterr().err


def test_tuned_method_needs_the_library_runner(tmp_path: Path) -> None:
    from benchlib.run import RunOptions, validate

    repo = tmp_path / "r"
    (repo / ".git").mkdir(parents=True)
    with pytest.raises(BenchError, match="ctxopt-tuned runs with --runner library"):
        validate(RunOptions(repo=repo, methods=("ctxopt-tuned",), runner="cli"))
    validate(RunOptions(repo=repo, methods=("ctxopt-tuned",), runner="library"))
