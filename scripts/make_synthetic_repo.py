"""Make a large, deterministic, multi-language git repository for benchmarks.

Usage: python scripts/make_synthetic_repo.py TARGET [--lines 1000000] [--seed 16] [--json]

The same seed and line count always give the same files and the same commits (fixed
author and dates), so anyone reproduces the figures measured on it.  The repository looks
like a product monorepo: services in Python, TypeScript, Go, Rust and Java, each with
modules of classes and functions that call one another and import their neighbours, tests
beside them, Markdown docs, and YAML, TOML and JSON configs.  Three commits: most files,
then more, then the rest with a few earlier files edited.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

WORDS = (
    "account address alert audit balance batch billing bucket buffer cache cart channel "
    "checkout client cluster config coupon credit cursor customer delivery device digest "
    "discount document event export feature filter gateway graph group handler history "
    "image import index inventory invoice item journal ledger limit listing locale lookup "
    "message metric order owner package parcel partner payment payload policy price "
    "product profile queue quota rate receipt record refund region report request "
    "reservation route schedule schema search session shipment signal snapshot source "
    "stock store stream subscription supplier tariff task tenant ticket token trace "
    "transfer user vendor voucher warehouse webhook window"
).split()
VERBS = (
    "apply build check collect compute create decode encode fetch filter find flush format "
    "load merge normalize parse publish read refresh register render resolve retry route "
    "save scan sort split store sync transform update validate write"
).split()
LANGUAGE_SHARE = (("python", 30), ("typescript", 22), ("go", 18), ("java", 15), ("rust", 15))
DATES = ("2024-01-15T09:00:00+00:00", "2024-06-03T14:30:00+00:00", "2025-02-20T11:15:00+00:00")


@dataclass(frozen=True)
class Names:
    """Identifiers of one module, drawn from the vocabulary."""

    noun: str
    classes: tuple[str, ...]
    functions: tuple[str, ...]


def camel(words: list[str]) -> str:
    return "".join(w.capitalize() for w in words)


def lower_camel(name: str) -> str:
    """snake_case to lowerCamelCase."""
    upper = camel(name.split("_"))
    return upper[0].lower() + upper[1:]


def snake(words: list[str]) -> str:
    return "_".join(words)


def module_names(rng: random.Random, noun: str, classes: int, functions: int) -> Names:
    return Names(
        noun,
        tuple(
            camel(
                [
                    noun,
                    rng.choice(WORDS),
                    rng.choice(("Service", "Store", "Client", "Builder", "Policy")),
                ]
            )
            for _ in range(classes)
        ),
        tuple(snake([rng.choice(VERBS), noun, rng.choice(WORDS)]) for _ in range(functions)),
    )


def body_lines(rng: random.Random, indent: str, names: Names, style: str) -> list[str]:
    """A function body of 4 to 24 statements in a language's style."""
    out = []
    for _ in range(rng.randint(2, 12)):
        word, other, callee = rng.choice(WORDS), rng.choice(WORDS), rng.choice(names.functions)
        limit = rng.randint(2, 500)
        if style == "python":
            out += [
                f"{indent}if {word}_count > {limit}:",
                f"{indent}    {word}_count = {callee}({other}_items)",
            ]
        elif style == "rust":
            out += [
                f"{indent}if {word}_count > {limit} {{",
                f"{indent}    {word}_count = {callee}(&{other}_items);",
                f"{indent}}}",
            ]
        else:
            out += [
                f"{indent}if ({word}Count > {limit}) {{",
                f"{indent}    {word}Count = {lower_camel(callee)}({other}Items);",
                f"{indent}}}",
            ]
    return out


def python_module(rng: random.Random, names: Names, imports: list[str]) -> str:
    lines = [f'"""{names.noun.capitalize()} handling: {", ".join(names.classes)}."""', ""]
    lines += [f"from {m} import {rng.choice(WORDS)}_helper" for m in imports] + ["", ""]
    for func in names.functions:
        lines += [
            f"def {func}({names.noun}_items, limit=100):",
            f'    """{func.replace("_", " ").capitalize()} for the given items."""',
        ]
        lines += [f"    {w}_count = 0" for w in WORDS[:3]] + body_lines(
            rng, "    ", names, "python"
        )
        lines += [f"    return len({names.noun}_items) + limit", "", ""]
    for cls in names.classes:
        lines += [
            f"class {cls}:",
            f'    """A {cls} keeps {names.noun} records and their state."""',
            "",
            "    def __init__(self, store, limit=100):",
            "        self.store = store",
            "        self.limit = limit",
            "",
        ]
        for method in rng.sample(VERBS, rng.randint(2, 6)):
            lines += [
                f"    def {method}(self, {names.noun}_items):",
                f'        """{method.capitalize()} the {names.noun} items."""',
            ]
            lines += [
                *body_lines(rng, "        ", names, "python"),
                f"        return self.store.{method}({names.noun}_items)",
                "",
            ]
        lines.append("")
    return "\n".join(lines) + "\n"


def brace_module(rng: random.Random, names: Names, imports: list[str], language: str) -> str:
    """TypeScript, Go, Java or Rust: the same shapes in each language's syntax."""
    lower = [lower_camel(f) for f in names.functions]
    if language == "typescript":
        lines = [f'import {{ {rng.choice(WORDS)}Helper }} from "{m}";' for m in imports] + [""]
        for func in lower:
            lines += [
                f"/** {func} for the given items. */",
                f"export function {func}(items: string[], limit = 100): number {{",
            ]
            lines += [
                *body_lines(rng, "  ", names, "brace"),
                "  return items.length + limit;",
                "}",
                "",
            ]
        for cls in names.classes:
            lines += [
                f"/** A {cls} keeps {names.noun} records. */",
                f"export class {cls} {{",
                "  constructor(private readonly limit: number) {}",
                "",
            ]
            for method in rng.sample(VERBS, rng.randint(2, 6)):
                lines += [
                    f"  {method}(items: string[]): number {{",
                    *body_lines(rng, "    ", names, "brace"),
                    "    return items.length;",
                    "  }",
                    "",
                ]
            lines += ["}", ""]
    elif language == "go":
        lines = (
            [f"package {names.noun}", "", "import ("] + [f'\t"{m}"' for m in imports] + [")", ""]
        )
        for func in lower:
            lines += [
                f"// {func.capitalize()} handles the given items.",
                f"func {func[0].upper() + func[1:]}(items []string, limit int) int {{",
            ]
            lines += [
                *body_lines(rng, "\t", names, "brace"),
                "\treturn len(items) + limit",
                "}",
                "",
            ]
        for cls in names.classes:
            lines += [
                f"// {cls} keeps {names.noun} records.",
                f"type {cls} struct {{",
                "\tlimit int",
                "}",
                "",
            ]
            for method in rng.sample(VERBS, rng.randint(2, 6)):
                lines += [
                    f"func (s *{cls}) {method.capitalize()}(items []string) int {{",
                    *body_lines(rng, "\t", names, "brace"),
                    "\treturn len(items)",
                    "}",
                    "",
                ]
    elif language == "java":
        lines = (
            [f"package com.example.{names.noun};", ""] + [f"import {m};" for m in imports] + [""]
        )
        cls = names.classes[0]
        lines += [
            f"/** {cls} keeps {names.noun} records. */",
            f"public class {cls} {{",
            "    private final int limit;",
            "",
        ]
        for func in lower:
            lines += [
                f"    /** {func} for the given items. */",
                f"    public int {func}(java.util.List<String> items) {{",
            ]
            lines += [
                *body_lines(rng, "        ", names, "brace"),
                "        return items.size() + limit;",
                "    }",
                "",
            ]
        lines += ["}", ""]
    else:  # rust
        lines = [f"use crate::{m};" for m in imports] + [""]
        for func in names.functions:
            lines += [
                f"/// {func.replace('_', ' ')} for the given items.",
                f"pub fn {func}(items: &[String], limit: usize) -> usize {{",
            ]
            lines += [*body_lines(rng, "    ", names, "rust"), "    items.len() + limit", "}", ""]
        for cls in names.classes:
            lines += [
                f"/// {cls} keeps {names.noun} records.",
                f"pub struct {cls} {{",
                "    limit: usize,",
                "}",
                "",
                f"impl {cls} {{",
            ]
            for method in rng.sample(VERBS, rng.randint(2, 6)):
                lines += [
                    f"    pub fn {method}(&self, items: &[String]) -> usize {{",
                    *body_lines(rng, "        ", names, "rust"),
                    "        items.len() + self.limit",
                    "    }",
                    "",
                ]
            lines += ["}", ""]
    return "\n".join(lines) + "\n"


def test_module(rng: random.Random, names: Names, language: str, module: str) -> str:
    cases = rng.sample(names.functions, min(len(names.functions), rng.randint(2, 5)))
    if language == "python":
        lines = [f"from {module} import {', '.join(cases)}", ""]
        for case in cases:
            lines += [
                "",
                f"def test_{case}_handles_empty_and_full_lists():",
                f"    assert {case}([], limit=0) == 0",
                f"    assert {case}(['a', 'b'], limit=1) == 3",
            ]
        return "\n".join(lines) + "\n"
    lines = [f"// Tests of {module}."]
    for case in cases:
        lines += [f"// case: {case} handles empty and full lists", f"// expect {case}([]) == 0"]
    return "\n".join(lines) + "\n"


def doc_page(rng: random.Random, service: str, modules: list[Names]) -> str:
    lines = [
        f"# The {service} service",
        "",
        f"The {service} service owns {', '.join(m.noun for m in modules[:6])} data.",
        "",
    ]
    for names in modules:
        lines += [
            f"## {names.noun.capitalize()}",
            "",
            f"Classes: {', '.join(names.classes)}. They {rng.choice(VERBS)} and "
            f"{rng.choice(VERBS)} {names.noun} records",
            f"before the {rng.choice(WORDS)} step; see `{names.functions[0]}` for the "
            f"{rng.choice(WORDS)} limits.",
            "",
        ]
    return "\n".join(lines) + "\n"


def configs(rng: random.Random, service: str) -> dict[str, str]:
    keys = rng.sample(WORDS, 8)
    yaml = [f"service: {service}", "settings:"] + [
        f"  {k}_limit: {rng.randint(1, 900)}" for k in keys
    ]
    toml = [f"[tool.{service}]", f'name = "{service}"'] + [
        f"{k} = {rng.randint(1, 90)}" for k in keys
    ]
    data = {"service": service, "routes": [f"/{k}/{rng.choice(VERBS)}" for k in keys]}
    return {
        "config.yaml": "\n".join(yaml) + "\n",
        "settings.toml": "\n".join(toml) + "\n",
        "routes.json": json.dumps(data, indent=2) + "\n",
    }


EXTENSIONS = {"python": "py", "typescript": "ts", "go": "go", "java": "java", "rust": "rs"}


def module_path(service: str, language: str, names: Names, index: int) -> str:
    stem = f"{names.noun}_{index}"
    if language == "java":
        return f"services/{service}/src/main/java/com/example/{names.classes[0]}{index}.java"
    folder = {"python": service, "typescript": "src", "go": "internal", "rust": "src"}[language]
    return f"services/{service}/{folder}/{stem}.{EXTENSIONS[language]}"


def service_files(rng: random.Random, service: str, language: str) -> dict[str, str]:
    files: dict[str, str] = {}
    modules: list[Names] = []
    dotted: list[str] = []
    for index in range(rng.randint(4, 14)):
        names = module_names(rng, rng.choice(WORDS), rng.randint(1, 4), rng.randint(2, 8))
        path = module_path(service, language, names, index)
        imports = rng.sample(dotted, min(len(dotted), rng.randint(0, 3)))
        if language == "python":
            files[path] = python_module(rng, names, imports)
            module = path[len(f"services/{service}/") : -3].replace("/", ".")
            files[f"services/{service}/tests/test_{names.noun}_{index}.py"] = test_module(
                rng, names, language, module
            )
            dotted.append(module)
        else:
            files[path] = brace_module(rng, names, imports, language)
            test = (
                path.rsplit(".", 1)[0]
                + ("_test." if language == "go" else ".test.")
                + EXTENSIONS[language]
            )
            files[test] = test_module(rng, names, language, path)
            dotted.append(path.rsplit("/", 1)[1].rsplit(".", 1)[0])
        modules.append(names)
    files[f"services/{service}/README.md"] = doc_page(rng, service, modules)
    for name, text in configs(rng, service).items():
        files[f"services/{service}/{name}"] = text
    return files


def make_files(lines: int, seed: int) -> dict[str, str]:
    """Every file of the repository, by path, until the line count is reached."""
    rng = random.Random(seed)
    files: dict[str, str] = {
        "README.md": "# Synthetic monorepo\n\nGenerated by scripts/make_synthetic_repo.py.\n"
    }
    total, number = 0, 0
    languages = [name for name, _ in LANGUAGE_SHARE]
    weights = [share for _, share in LANGUAGE_SHARE]
    while total < lines:
        # every language from the first services on, then in their shares
        language = (
            languages[number] if number < len(languages) else rng.choices(languages, weights)[0]
        )
        service = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{number:05}"
        number += 1
        for path, text in service_files(rng, service, language).items():
            files[path] = text
            total += text.count("\n")
    return files


def write_repo(target: Path, files: dict[str, str]) -> None:
    """The files as a git repository of three commits with fixed author and dates (the
    third edits a few files of the first: files is updated to match)."""
    target.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Synthetic",
        "GIT_AUTHOR_EMAIL": "synthetic@example.com",
    }
    env |= {"GIT_COMMITTER_NAME": "Synthetic", "GIT_COMMITTER_EMAIL": "synthetic@example.com"}

    def git(*args: str, **extra: str) -> None:
        command = ["git", "-C", str(target), *args]
        subprocess.run(command, check=True, env=env | extra, stdout=subprocess.DEVNULL)

    git("init", "-q", "-b", "main")
    paths = sorted(files)
    cuts = (0, len(paths) * 8 // 10, len(paths) * 95 // 100, len(paths))
    for step, date in enumerate(DATES):
        for path in paths[cuts[step] : cuts[step + 1]]:
            (target / path).parent.mkdir(parents=True, exist_ok=True)
            (target / path).write_text(files[path], encoding="utf-8")
        if step == 2:
            for path in paths[: cuts[1] : max(1, cuts[1] // 20)]:  # a few earlier files edited
                files[path] += "\n" if path.endswith(".json") else f"{comment(path)} revised\n"
                (target / path).write_text(files[path], encoding="utf-8")
        git("add", "-A")
        git(
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-q",
            "-m",
            f"Step {step + 1}",
            GIT_AUTHOR_DATE=date,
            GIT_COMMITTER_DATE=date,
        )


def comment(path: str) -> str:
    return (
        "#"
        if path.endswith((".py", ".yaml", ".toml"))
        else "<!-- -->"
        if path.endswith(".md")
        else "//"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    if args.target.exists() and any(args.target.iterdir()):
        sys.exit(f"{args.target} is not empty")
    files = make_files(args.lines, args.seed)
    write_repo(args.target, files)
    languages = Counter(Path(p).suffix.lstrip(".") for p in files)
    summary = {
        "files": len(files),
        "lines": sum(t.count("\n") for t in files.values()),
        "extensions": dict(sorted(languages.items())),
    }
    print(
        json.dumps(summary)
        if args.json
        else f"{args.target}: {summary['files']:,} files, {summary['lines']:,} lines, "
        f"{summary['extensions']}"
    )


if __name__ == "__main__":
    main()
