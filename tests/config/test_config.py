"""Layered settings: defaults < user file < repo file < environment < flags."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("ctxopt") is None:  # running from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from ctxopt.config.settings import Settings, load_settings, user_config_path
from ctxopt.errors import UsageError


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    return root


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """An environment whose user config folder is empty and private to the test."""
    return {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}


def user_file(env: dict[str, str], text: str) -> Path:
    path = Path(env["XDG_CONFIG_HOME"]) / "ctxopt" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_defaults(repo: Path, env: dict[str, str]) -> None:
    settings = load_settings(repo, env=env)
    assert settings == Settings(root=repo.resolve(), sources=settings.sources)
    assert settings.db_path == repo.resolve() / ".ctxopt"
    assert settings.source("budget") == "default"
    assert dict(settings.sources)["top_k"] == "default"
    assert settings.warnings == ()


def test_each_layer_overrides_the_one_below(repo: Path, env: dict[str, str]) -> None:
    user = user_file(env, "budget = 1000\ntop_k = 4\nformat = 'xml'\ncompression = 'none'\n")
    (repo / "ctxopt.toml").write_text("budget = 2000\ntop_k = 5\nformat = 'plain'\n")
    env |= {"CTXOPT_BUDGET": "3000", "CTXOPT_TOP_K": "6"}
    settings = load_settings(repo, {"budget": 4000, "top_k": None}, env=env)
    assert settings.compression == "none"
    assert settings.source("compression") == f"user:{user}"
    assert settings.format == "plain"
    assert settings.source("format") == f"repo:{repo.resolve() / 'ctxopt.toml'}"
    assert (settings.top_k, settings.source("top_k")) == (6, "env:CTXOPT_TOP_K")
    assert (settings.budget, settings.source("budget")) == (4000, "flag")


def test_pyproject_tool_table_and_ctxopt_toml_wins(repo: Path, env: dict[str, str]) -> None:
    (repo / "pyproject.toml").write_text("[project]\nname='x'\n[tool.ctxopt]\nbudget = 111\n")
    settings = load_settings(repo, env=env)
    assert settings.budget == 111
    assert settings.source("budget") == f"repo:{repo.resolve() / 'pyproject.toml'}"
    (repo / "ctxopt.toml").write_text("top_k = 7\n")
    settings = load_settings(repo, env=env)
    assert (settings.budget, settings.top_k) == (8000, 7)
    assert any("[tool.ctxopt] ignored" in w for w in settings.warnings)


def test_lists_are_appended_across_layers(repo: Path, env: dict[str, str]) -> None:
    user = user_file(env, "include = ['*.py']\nexclude = ['tests/']\n")
    (repo / "ctxopt.toml").write_text("include = ['*.ts', '*.py']\n")
    env["CTXOPT_INCLUDE"] = "*.go, *.rs"
    settings = load_settings(repo, {"include": ("*.md",)}, env=env)
    assert settings.include == ("*.py", "*.ts", "*.go", "*.rs", "*.md")
    assert settings.exclude == ("tests/",)
    repo_file = repo.resolve() / "ctxopt.toml"
    assert settings.source("include") == f"user:{user}+repo:{repo_file}+env:CTXOPT_INCLUDE+flag"


def test_weights_merge_by_name(repo: Path, env: dict[str, str]) -> None:
    user_file(env, "[weights]\nvector = 1.5\nrecency = 0.1\n")
    env["CTXOPT_WEIGHTS"] = "recency=0.3,graph=2"
    settings = load_settings(repo, env=env)
    assert settings.weights == (("graph", 2.0), ("recency", 0.3), ("vector", 1.5))


def test_env_values_are_parsed_by_type(repo: Path, env: dict[str, str]) -> None:
    env |= {
        "CTXOPT_MAX_FILE_BYTES": "2048",
        "CTXOPT_RESERVE": "0.5",
        "CTXOPT_PARSE_TIMEOUT": "1.5",
        "CTXOPT_EXCLUDE": "a/,b/",
        "CTXOPT_MODEL": "gpt-4o",
        "CTXOPT_EMBEDDER": "minilm",
        "CTXOPT_DB": "idx",
        "CTXOPT_UNRELATED": "ignored",
    }
    settings = load_settings(repo, env=env)
    assert settings.max_file_bytes == 2048
    assert settings.reserve == 0.5
    assert settings.parse_timeout == 1.5
    assert settings.exclude == ("a/", "b/")
    assert (settings.model, settings.embedder) == ("gpt-4o", "minilm")
    assert settings.db_path == (Path.cwd() / "idx").resolve()
    assert settings.warnings == ("env: unknown variable CTXOPT_UNRELATED ignored",)


def test_an_unknown_variable_is_warned_with_the_closest_known_one(
    repo: Path, env: dict[str, str]
) -> None:
    env |= {"CTXOPT_BUDGETT": "5", "CTXOPT_DEBUG": "1", "CTXOPT_REPOS_DIR": "/tmp/x"}
    settings = load_settings(repo, env=env)
    assert settings.warnings == (
        "env: unknown variable CTXOPT_BUDGETT ignored; did you mean CTXOPT_BUDGET?",
    )
    assert settings.budget == Settings(root=repo).budget


def test_db_from_repo_file_is_relative_to_root(repo: Path, env: dict[str, str]) -> None:
    (repo / "ctxopt.toml").write_text("db = 'cache/index'\n")
    assert load_settings(repo, env=env).db_path == repo.resolve() / "cache" / "index"
    flagged = load_settings(repo, {"db": repo / "elsewhere"}, env=env)
    assert flagged.db_path == repo.resolve() / "elsewhere"


def test_unknown_keys_warn(repo: Path, env: dict[str, str]) -> None:
    user_file(env, "budgett = 5\n")
    (repo / "ctxopt.toml").write_text("max-file-bytes = 10\nroot = '/x'\n")
    settings = load_settings(repo, env=env)
    assert settings.max_file_bytes == 10  # dashes read as underscores
    assert len(settings.warnings) == 2
    user, repo_file = settings.warnings
    assert user.startswith(env["XDG_CONFIG_HOME"]) and "config.toml" in user
    assert "'budgett' ignored; did you mean 'budget'?" in user
    assert repo_file.startswith(str(repo.resolve() / "ctxopt.toml")) and "'root'" in repo_file


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("budget = 0", "budget must be an integer >= 1"),
        ("budget = 'big'", "budget must be an integer"),
        ("budget = true", "budget must be an integer"),
        ("compression = 'extreme'", "compression must be one of none, light"),
        ("format = 'html'", "format must be one of"),
        ("reserve = 0.95", "reserve must be a number in [0, 0.9]"),
        ("reserve = -0.1", "reserve must be a number in [0, 0.9]"),
        ("parse_timeout = 0", "parse_timeout must be a number > 0"),
        ("include = '*.py'", "include must be a list of strings"),
        ("embedder = 'bert'", "embedder must be one of static, minilm"),
        ("[weights]\nvector = 'high'", "weights must map names to numbers"),
        ("[weights]\nlexical = -1", "weights must map names to numbers of 0 or more"),
    ],
)
def test_bad_file_values_raise(repo: Path, env: dict[str, str], text: str, message: str) -> None:
    (repo / "ctxopt.toml").write_text(text + "\n")
    with pytest.raises(UsageError) as caught:
        load_settings(repo, env=env)
    assert str(caught.value).startswith(f"repo:{repo.resolve() / 'ctxopt.toml'}: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CTXOPT_BUDGET", "lots", "env:CTXOPT_BUDGET: cannot read 'lots'"),
        ("CTXOPT_BUDGET", "-3", "env:CTXOPT_BUDGET: budget must be an integer >= 1"),
        ("CTXOPT_RESERVE", "2", "env:CTXOPT_RESERVE: reserve must be a number in [0, 0.9]"),
        ("CTXOPT_WEIGHTS", "vector", "env:CTXOPT_WEIGHTS: cannot read 'vector'"),
        ("CTXOPT_WEIGHTS", "lexical=-5", "env:CTXOPT_WEIGHTS: weights must map names to numbers"),
    ],
)
def test_bad_env_values_raise(
    repo: Path, env: dict[str, str], name: str, value: str, message: str
) -> None:
    env[name] = value
    with pytest.raises(UsageError, match="^" + message.replace("[", r"\[").replace(".", r"\.")):
        load_settings(repo, env=env)


def test_bad_flag_values_raise(repo: Path, env: dict[str, str]) -> None:
    with pytest.raises(UsageError, match=r"^--top must be an integer >= 1"):
        load_settings(repo, {"top_k": 0}, env=env)
    with pytest.raises(UsageError, match="unknown setting 'colour'"):
        load_settings(repo, {"colour": "red"}, env=env)


def test_malformed_toml_names_file_and_line(repo: Path, env: dict[str, str]) -> None:
    (repo / "ctxopt.toml").write_text("budget = 10\n\ntop_k = = 3\n")
    with pytest.raises(UsageError, match=r"ctxopt\.toml: invalid TOML: .*line 3"):
        load_settings(repo, env=env)
    (repo / "ctxopt.toml").unlink()
    user = user_file(env, "[broken\n")
    with pytest.raises(UsageError, match=str(user).replace(".", r"\.") + ".*line 1"):
        load_settings(repo, env=env)


def test_user_config_path(tmp_path: Path) -> None:
    assert user_config_path({"XDG_CONFIG_HOME": "/x"}) == Path("/x/ctxopt/config.toml")
    expected = tmp_path / ".config" / "ctxopt" / "config.toml"
    assert user_config_path({"HOME": str(tmp_path)}) == expected


@pytest.mark.parametrize("source", ["flag", "env", "file"])
def test_an_object_storage_db_stays_a_uri_not_a_local_folder(
    repo: Path, env: dict[str, str], source: str
) -> None:
    flags: dict[str, object] = {}
    if source == "flag":
        flags["db"] = "S3://bucket/team/index/"
    elif source == "env":
        env["CTXOPT_DB"] = "S3://bucket/team/index/"
    else:
        (repo / "ctxopt.toml").write_text("db = 'S3://bucket/team/index/'\n")
    settings = load_settings(repo, flags, env=env)
    assert settings.db_path == "s3://bucket/team/index"
    assert not (repo / "s3:").exists() and not (Path.cwd() / "s3:").exists()


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        ("ftp://host/index", "takes a local folder or s3://"),
        ("s3://", "names no bucket"),
        ("s3:///prefix", "names no bucket"),
    ],
)
def test_an_unknown_scheme_or_a_missing_bucket_is_a_usage_error(
    repo: Path, env: dict[str, str], uri: str, words: str
) -> None:
    with pytest.raises(UsageError, match=f"^--db {uri!r} {words}"):
        load_settings(repo, {"db": uri}, env=env)


def test_cache_dir_comes_from_the_environment_and_reaches_the_static_model(
    tmp_path: Path,
) -> None:
    from ctxopt.embed.factory import get_embedder

    settings = load_settings(tmp_path, env={"CTXOPT_CACHE_DIR": str(tmp_path / "cache")})
    assert settings.model_cache == tmp_path / "cache"
    assert settings.source("cache_dir") == "env:CTXOPT_CACHE_DIR"
    embedder = get_embedder("static", cache_dir=settings.model_cache)
    assert embedder.model_dir.parent.parent == tmp_path / "cache"  # type: ignore[attr-defined]
    default = load_settings(tmp_path, env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert default.cache_dir is None and default.model_cache.name == "ctxopt"


def test_weight_names_are_the_scoring_factors() -> None:
    from ctxopt.config.values import WEIGHT_NAMES
    from ctxopt.retrieve.scoring import DEFAULT_WEIGHTS

    assert set(WEIGHT_NAMES) == set(DEFAULT_WEIGHTS)


@pytest.mark.parametrize(
    ("layer", "expected_source"),
    [("flag", "flag"), ("env", "env:CTXOPT_FORMAT"), ("file", "repo:")],
)
def test_choices_ignore_case_in_every_layer(
    repo: Path, env: dict[str, str], layer: str, expected_source: str
) -> None:
    flags: dict[str, object] = {}
    if layer == "flag":
        flags = {"format": "XML", "compression": "Medium", "embedder": "MiniLM"}
    elif layer == "env":
        env |= {
            "CTXOPT_FORMAT": "Xml",
            "CTXOPT_COMPRESSION": " MEDIUM",
            "CTXOPT_EMBEDDER": "MiniLM",
        }
    else:
        text = "format = 'XML'\ncompression = 'Medium'\nembedder = 'MINILM'\n"
        (repo / "ctxopt.toml").write_text(text)
    settings = load_settings(repo, flags, env=env)
    assert (settings.format, settings.compression, settings.embedder) == ("xml", "medium", "minilm")
    assert settings.source("format").startswith(expected_source)


def test_a_bad_choice_lists_the_accepted_values(repo: Path, env: dict[str, str]) -> None:
    (repo / "ctxopt.toml").write_text("compression = 'Heavy'\n")
    with pytest.raises(UsageError, match=r"none, light, medium, aggressive.*'Heavy'"):
        load_settings(repo, env=env)


def test_tables_on_a_pipe_are_not_cut_to_80_columns() -> None:
    from ctxopt.config.environment import PIPED_WIDTH, piped_width

    assert piped_width({}) == PIPED_WIDTH > 80
    assert piped_width({"COLUMNS": "90"}) is None  # rich reads COLUMNS itself


def test_background_values_read_as_something_else_are_warned(
    repo: Path, env: dict[str, str]
) -> None:
    env |= {"CTXOPT_BACKGROUND": "maybe", "CTXOPT_BACKGROUND_IDLE": "abc"}
    assert load_settings(repo, env=env).warnings == (
        "env: CTXOPT_BACKGROUND='maybe' is read as on; give 1 or 0 (on/off)",
        "env: CTXOPT_BACKGROUND_IDLE='abc' is not a number of seconds above 0; 900 is used",
    )
    env |= {"CTXOPT_BACKGROUND": "off", "CTXOPT_BACKGROUND_IDLE": "30"}
    assert load_settings(repo, env=env).warnings == ()


def test_an_unknown_weight_in_the_environment_is_warned_as_in_a_file(
    repo: Path, env: dict[str, str]
) -> None:
    env["CTXOPT_WEIGHTS"] = "lexicl=0.2,recency=0.05"
    settings = load_settings(repo, env=env)
    assert settings.warnings == (
        "CTXOPT_WEIGHTS: unknown key 'weights.lexicl' ignored; did you mean 'lexical'?",
    )
    assert dict(settings.weights)["recency"] == 0.05
