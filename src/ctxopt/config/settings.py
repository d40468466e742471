"""Settings in layers: defaults < user file < repo file < CTXOPT_* environment < flags.

Scalars from a higher layer replace lower ones; include/exclude lists are
appended across layers and weights are merged key by key.  Each value's
source is recorded ("default", "user:<path>", "repo:<path>", "env:CTXOPT_X",
"flag") so `--verbose` can say where a setting came from.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from ctxopt.config.environment import OTHER_VARIABLES, odd_background_values
from ctxopt.config.paths import INDEX_DIR, DbLocation, is_object_store, object_store_uri, user_cache
from ctxopt.config.values import CHECKS, LIST_FIELDS, WEIGHT_NAMES, parse_env
from ctxopt.errors import FLAGS, UsageError, Worded

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ENV_PREFIX = "CTXOPT_"


@dataclass(frozen=True)
class Settings:
    root: Path  # repo folder (resolved)
    db: DbLocation | None = None  # a folder or an s3:// gs:// az:// URI; None -> root/.ctxopt
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = 1_048_576
    embedder: str = "static"  # static | minilm
    parse_timeout: float = 5.0
    budget: int = 8000
    model: str | None = None
    reserve: float = 0.2
    compression: str = "light"  # none | light | medium | aggressive
    format: str = "markdown"  # markdown | xml | plain
    max_chunks_per_file: int = 8
    displace_capped: bool = True  # a file's better chunk, turned away by its cap or for room,
    # takes the place of weaker entries of the file
    path_entries: bool = True  # a chunk with no room for code may still be listed by its path
    history_commits: int = 2000  # the newest commits whose messages rank files (0: none kept)
    auto_tune: bool = False  # `ctxopt index` tunes the ranking weights when history allows
    rerank: bool = False  # a cross-encoder reranks query's and pack's best hits (the rerank extra)
    top_k: int = 10
    weights: tuple[tuple[str, float], ...] = ()  # retrieval weight overrides, sorted by name
    cache_dir: Path | None = None  # distilled models; None -> the user cache folder
    models_file: Path | None = None  # JSON entries laid over the built-in model table
    allow_secrets: bool = False  # outputs show found secrets instead of [REDACTED:<kind>]
    sources: tuple[tuple[str, str], ...] = ()  # field -> source
    warnings: tuple[str, ...] = ()

    @property
    def db_path(self) -> DbLocation:
        return self.db if self.db is not None else self.root / INDEX_DIR

    @property
    def model_cache(self) -> Path:
        """Where distilled embedding models live: cache_dir, else the user cache folder."""
        return self.cache_dir if self.cache_dir is not None else user_cache()

    def source(self, name: str) -> str:
        """Where the value of a field came from ("default" when no layer set it)."""
        return dict(self.sources).get(name, "default")


SETTABLE = tuple(f.name for f in fields(Settings) if f.name not in ("root", "sources", "warnings"))


# --- reading the layers ---------------------------------------------------------------------


def _read_toml(path: Path) -> dict[str, Any]:
    """The parsed file, {} when absent; UsageError naming the file (and line) when broken."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: invalid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read config file: {exc}") from None


def user_config_path(env: Mapping[str, str]) -> Path:
    """$XDG_CONFIG_HOME/ctxopt/config.toml, else ~/.config/ctxopt/config.toml."""
    base = env.get("XDG_CONFIG_HOME")
    if base:
        return Path(base) / "ctxopt" / "config.toml"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".config" / "ctxopt" / "config.toml"


def _repo_layer(root: Path) -> tuple[str, dict[str, Any], list[str]]:
    """(source, table, warnings) of ctxopt.toml, else of [tool.ctxopt] in pyproject.toml."""
    own = root / "ctxopt.toml"
    pyproject = root / "pyproject.toml"
    if own.is_file():
        table = _read_toml(own)
        try:
            shadowed = _tool_table(pyproject) is not None
        except UsageError:
            shadowed = False  # a broken pyproject.toml does not matter here
        warnings = [f"{pyproject}: [tool.ctxopt] ignored because {own} exists"] if shadowed else []
        return f"repo:{own}", table, warnings
    tool = _tool_table(pyproject)
    if tool is None:
        return "", {}, []
    if not isinstance(tool, dict):
        raise UsageError(f"repo:{pyproject}: tool.ctxopt must be a table")
    return f"repo:{pyproject}", tool, []


def _tool_table(pyproject: Path) -> object:
    """The [tool.ctxopt] value of a pyproject.toml, None when absent."""
    tool = _read_toml(pyproject).get("tool")
    return tool.get("ctxopt") if isinstance(tool, dict) else None


def _file_values(source: str, table: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Known keys of a file (dashes read as underscores) and warnings for the others, each
    naming the file, the key and the closest valid key."""
    values: dict[str, Any] = {}
    warnings: list[str] = []
    where = _file_of(source)
    for key, value in table.items():
        name = key.replace("-", "_")
        if name in SETTABLE:
            values[name] = value
        else:
            warnings.append(unknown_key(where, key, SETTABLE))
    weights = values.get("weights")
    if isinstance(weights, Mapping):
        for key in weights:
            if key not in WEIGHT_NAMES:
                warnings.append(unknown_key(where, f"weights.{key}", WEIGHT_NAMES, key))
    return values, warnings


def _file_of(source: str) -> str:
    """The file a layer's source names ("repo:/x/ctxopt.toml" -> "/x/ctxopt.toml"), saying
    which table when it is a pyproject.toml."""
    path = source.partition(":")[2] or source
    return f"{path} [tool.ctxopt]" if path.endswith("pyproject.toml") else path


def unknown_key(where: str, key: str, valid: tuple[str, ...], word: str | None = None) -> str:
    """The warning for an unknown key: the file, the key, and the closest valid key."""
    close = difflib.get_close_matches((word or key).replace("-", "_"), valid, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(valid)})"
    return f"{where}: unknown key {key!r} ignored{hint}"


def _env_values(env: Mapping[str, str]) -> dict[str, tuple[str, object]]:
    """{field: (source, parsed value)} from CTXOPT_<FIELD> variables."""
    found: dict[str, tuple[str, object]] = {}
    for name in SETTABLE:
        variable = ENV_PREFIX + name.upper()
        if variable not in env:
            continue
        source = f"env:{variable}"
        try:
            found[name] = (source, parse_env(name, env[variable]))
        except ValueError as exc:
            raise UsageError(f"{source}: cannot read {env[variable]!r}: {exc}") from None
    return found


def unknown_variables(env: Mapping[str, str]) -> list[str]:
    """A warning for each CTXOPT_ variable ctxopt does not read (`CTXOPT_BUDGETT=5`), with
    the closest one it does."""
    known = sorted({ENV_PREFIX + name.upper() for name in SETTABLE} | set(OTHER_VARIABLES))
    warnings = []
    for variable in sorted(env):
        if variable.startswith(ENV_PREFIX) and variable not in known:
            bare = [name.removeprefix(ENV_PREFIX) for name in known]
            close = difflib.get_close_matches(variable.removeprefix(ENV_PREFIX), bare, n=1)
            hint = f"; did you mean {ENV_PREFIX}{close[0]}?" if close else ""
            warnings.append(f"env: unknown variable {variable} ignored{hint}")
    return warnings


# --- merging --------------------------------------------------------------------------------


@dataclass
class _Merge:
    root: Path
    values: dict[str, Any]
    sources: dict[str, str]

    def apply(self, name: str, value: object, source: str) -> None:
        """Check one value and lay it over the lower layers."""
        if name == "db" and isinstance(value, Path):
            value = str(value)
        try:
            clean = CHECKS[name](value)
        except ValueError as exc:
            raise UsageError(_bad_value(name, value, source, str(exc))) from None
        if name == "db":
            clean = _db_path(clean, self.root, source)
        if name in LIST_FIELDS:
            clean = tuple(dict.fromkeys((*self.values.get(name, ()), *clean)))
            previous = self.sources.get(name)
            source = f"{previous}+{source}" if previous else source
        elif name == "weights":
            clean = tuple(sorted({**dict(self.values.get(name, ())), **dict(clean)}.items()))
        self.values[name] = clean
        self.sources[name] = source


def _db_path(text: str, root: Path, source: str) -> DbLocation:
    """An object-store URI as given (checked); a folder: file values are relative to the repo
    root, env and flag values to the current folder."""
    if is_object_store(text):
        try:
            return object_store_uri(text)
        except ValueError as exc:
            where = "--db" if source == "flag" else f"{source}: db"
            raise UsageError(f"{where} {text!r} {exc}") from None
    path = Path(text).expanduser()
    if not path.is_absolute():
        base = root if source.startswith(("user:", "repo:")) else Path.cwd()
        path = base / path
    return path.resolve()


STRING_FIELDS = ("db", "embedder", "model", "compression", "format", "cache_dir", "models_file")


def _flag_value(name: str, value: object) -> object:
    """Flags usually arrive typed; strings for non-string fields are read like env values."""
    if isinstance(value, str) and name not in STRING_FIELDS:
        try:
            return parse_env(name, value)
        except ValueError as exc:
            raise UsageError(f"flag: cannot read {name} {value!r}: {exc}") from None
    return value


OPTION_NAMES = {"top_k": "top"}  # fields whose flag and tool argument are named otherwise


def option_name(field_name: str) -> str:
    """The option that sets a field: `top` for top_k (`--top`, the tool argument `top`)."""
    return OPTION_NAMES.get(field_name, field_name)


def flag_name(field_name: str) -> str:
    """The command-line flag that sets a field."""
    return FLAGS(option_name(field_name))


def _bad_value(name: str, value: object, source: str, reason: str) -> str | Worded:
    """What is wrong with a value, naming where it came from: a file or variable, or the
    option of the call (a flag, or a tool's argument)."""
    if source != "flag":
        return f"{source}: {name} {reason}, got {value!r}"
    return lambda names: f"{names(option_name(name))} {reason}, got {value!r}"


def load_settings(
    root: Path,
    overrides: Mapping[str, object] | None = None,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Settings for the repo at root with every layer applied (None overrides are ignored)."""
    env = os.environ if env is None else env
    root = Path(root).expanduser().resolve()
    merge = _Merge(root, {}, {})
    warnings: list[str] = []
    user = user_config_path(env)
    source, table, repo_warnings = _repo_layer(root)
    warnings += repo_warnings
    for layer_source, layer in ((f"user:{user}", _read_toml(user)), (source, table)):
        values, unknown = _file_values(layer_source, layer)
        warnings += unknown
        for name, value in values.items():
            merge.apply(name, value, layer_source)
    warnings += unknown_variables(env) + odd_background_values(env)
    for name, (env_source, value) in _env_values(env).items():
        if name == "weights" and isinstance(value, Mapping):
            where = env_source.partition(":")[2]
            warnings += [
                unknown_key(where, f"weights.{key}", WEIGHT_NAMES, key)
                for key in value
                if key not in WEIGHT_NAMES
            ]
        merge.apply(name, value, env_source)
    for name, value in (overrides or {}).items():
        if name not in SETTABLE:
            raise UsageError(f"flag: unknown setting {name!r}")
        if value is not None:
            merge.apply(name, _flag_value(name, value), "flag")
    settings = replace(Settings(root=root), **merge.values)
    sources = {name: merge.sources.get(name, "default") for name in SETTABLE}
    return replace(settings, sources=tuple(sorted(sources.items())), warnings=tuple(warnings))
