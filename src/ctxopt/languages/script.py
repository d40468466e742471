"""Python, Ruby, PHP and Bash."""

from __future__ import annotations

import re

from ctxopt.languages.lexical import LexStyle
from ctxopt.languages.record import (
    Chunker,
    DocStyle,
    Family,
    Fragments,
    Imports,
    ImportSplit,
    Language,
    Outline,
    Quirk,
    Syntax,
)

_M = re.MULTILINE

PYTHON = Language(
    name="python",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".py", ".pyi"),
    grammar="python",
    syntax=Syntax(
        functions=frozenset({"function_definition"}),
        classes={"class_definition": "class"},
        wrappers=frozenset({"decorated_definition"}),
        brace_body=False,
    ),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset({"function_definition"}),
        docstrings=frozenset({"string", "concatenated_string"}),
    ),
    doc_style=DocStyle.DOCSTRING,
    lex_style=LexStyle.PYTHON,
    imports=Imports(
        patterns=(
            re.compile(
                r"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?"
                r"(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)",
                _M,
            ),
            re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import\b", _M),
        ),
        split=ImportSplit.COMMA_LIST,
        module_extensions=(".py", ".pyi"),
        index_names=("__init__",),
    ),
    test_file_patterns=(r"(?:^|/)test_[^/]*\.py$",),
    task_words=("python",),
    mention_extensions=(".py", ".pyi"),
    marker_comment=("# ", ""),
    fragments=Fragments(offside_header="if 1:", offside_block="block"),
)

_RUBY_TEST_CALLS = frozenset(
    {"describe", "context", "it", "specify", "example", "should", "test", "scenario", "feature"}
)

RUBY = Language(
    name="ruby",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".rb",),
    filenames=("Rakefile", "Gemfile"),
    grammar="ruby",
    syntax=Syntax(
        functions=frozenset({"method", "singleton_method"}),
        classes={"class": "class", "module": "class", "singleton_class": "class"},
        brace_body=False,
        quirks=frozenset({Quirk.DOTTED_METHOD_NAMES, Quirk.BLOCK_CALLS}),
        test_calls=_RUBY_TEST_CALLS,
    ),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset({"method", "singleton_method"}),
        scopes=frozenset({"class", "module", "singleton_class"}),
        closers=frozenset({"end"}),
    ),
    doc_style=DocStyle.ADJACENT,
    doc_above=frozenset({"method", "singleton_method", "class", "module"}),
    lex_style=LexStyle.HASH,
    imports=Imports(
        patterns=(
            re.compile(
                r"^[ \t]*(?:require|require_relative|load|autoload[ \t]*\(?[ \t]*:\w+[ \t]*,)"
                r"""[ \t]*\(?[ \t]*['"]([^'"\n]+)['"]""",
                _M,
            ),
        ),
        module_extensions=(".rb",),
    ),
    test_file_patterns=(r"_spec\.rb$",),
    task_words=("ruby",),
    mention_extensions=(".rb",),
    marker_comment=("# ", ""),
    fragments=Fragments(class_wrap=("class W_\n", "\nend")),
)

PHP = Language(
    name="php",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".php",),
    grammar="php",
    syntax=Syntax(
        functions=frozenset({"function_definition", "method_declaration"}),
        classes={
            "class_declaration": "class",
            "trait_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "type",
        },
        namespaces=frozenset({"namespace_definition"}),
        attached=frozenset({"attribute_list"}),
    ),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset({"function_definition", "method_declaration", "arrow_function"}),
        scopes=frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "trait_declaration",
                "enum_declaration",
                "namespace_definition",
            }
        ),
        groups=frozenset({"declaration_list"}),
        closers=frozenset({"endif", "endforeach", "endwhile"}),
    ),
    doc_style=DocStyle.SLASH_STAR,
    lex_style=LexStyle.PHP,
    imports=Imports(
        patterns=(
            re.compile(r"^[ \t]*use[ \t]+(?:function[ \t]+|const[ \t]+)?\\?([\w\\]+)", _M),
            re.compile(
                r"""\b(?:require|include)(?:_once)?[ \t]*\(?[^;'"\n]*['"]([^'"\n]+)['"]""", _M
            ),
        ),
        module_extensions=(".php",),
    ),
    task_words=("php",),
    mention_extensions=(".php",),
    marker_comment=("// ", ""),
    fragments=Fragments(
        class_wrap=("<?php\nclass W_ {\n", "\n}"),
        function_wrap=("<?php\nfunction w_() {\n", "\n}"),
        prelude=("<?", "<?php\n"),
    ),
)

BASH = Language(
    name="bash",
    family=Family.CODE,
    chunker=Chunker.CODE,
    extensions=(".sh", ".bash", ".zsh"),
    grammar="bash",
    syntax=Syntax(functions=frozenset({"function_definition"}), classes={}, brace_body=False),
    comment_kinds=("comment",),
    outline=Outline(
        functions=frozenset({"function_definition"}), closers=frozenset({"fi", "done", "esac"})
    ),
    doc_style=DocStyle.NONE,
    lex_style=LexStyle.HASH,
    imports=Imports(patterns=(re.compile(r"^[ \t]*(?:source|\.)[ \t]+['\"]?([^\s;'\"]+)", _M),)),
    task_words=("bash", "shell"),
    mention_extensions=(".sh",),
    marker_comment=("# ", ""),
    fragments=Fragments(function_wrap=("w_() {\n", "\n}")),
)

LANGUAGES = (PYTHON, RUBY, PHP, BASH)
