"""The shape of a language record: everything ctxopt knows about one language, as data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from ctxopt.languages.lexical import LexStyle


class Family(Enum):
    """What a file of the language is to a reader: code, configuration or prose."""

    CODE = "code"
    CONFIG = "config"
    DOC = "doc"


class Chunker(Enum):
    """How files of the language are cut into chunks."""

    CODE = "code"  # tree-sitter declarations (needs `syntax`)
    MARKDOWN = "markdown"  # one chunk per section
    CONFIG = "config"  # one chunk per group of top-level keys (see `config_keys`)
    LINES = "lines"  # line windows (prose or module text)


class ConfigKeys(Enum):
    """How top-level keys of a configuration file are written."""

    NONE = "none"
    YAML = "yaml"  # `key:` at column 0
    JSON = "json"  # `"key":` at the indentation of the first key line
    TOML = "toml"  # `[table]` headers, else `key =` before the first one


class DocStyle(Enum):
    """Where a declaration's documentation lives."""

    NONE = "none"  # no doc comments: every comment is a plain one
    DOCSTRING = "docstring"  # the first string of the body; comments are plain
    SLASH_STAR = "slash_star"  # `/** */`, `///`, `//!`, `/*!` comments
    ADJACENT = "adjacent"  # SLASH_STAR, and plain comment blocks right above a declaration


class ImportSplit(Enum):
    """How one matched import string becomes module names."""

    AS_IS = "as_is"
    COMMA_LIST = "comma_list"  # `import a, b as c`: a and b
    STRIP_COLONS = "strip_colons"  # `use a::b::{...}`: a::b
    STRIP_DOTS = "strip_dots"  # `import a.b.*` matched as `a.b.`: a.b


class Quirk(Enum):
    """Grammar shapes that need a special reading when classifying declarations."""

    VARIABLE_FUNCTIONS = "variable_functions"  # `const f = () => {}`; test-framework calls
    RECEIVER_PARENT = "receiver_parent"  # Go: the receiver type owns a method
    QUALIFIED_NAMES = "qualified_names"  # C++: `A::f` is method f of A
    DOTTED_METHOD_NAMES = "dotted_method_names"  # Ruby: `self.f` is named f
    INTERFACE_KEYWORD = "interface_keyword"  # Kotlin: `interface` child makes an interface
    DECLARATION_KIND_FIELD = "declaration_kind_field"  # Swift: declaration_kind `enum`
    TYPE_SPECS = "type_specs"  # Go: a type_declaration names its type_spec's shape
    TYPEDEF_STRUCTS = "typedef_structs"  # C: `typedef struct {...} T` is a class
    BLOCK_CALLS = "block_calls"  # Ruby: `it "..." do ... end`, `get "/x" do ... end`
    MACRO_BLOCKS = "macro_blocks"  # C, C++: `TEST_CASE("...") {...}`, `TEST(Suite, Name) {...}`


@dataclass(frozen=True)
class Syntax:
    """Node kinds of one grammar, grouped by the role they play in chunking."""

    functions: frozenset[str]  # function-like: a function at top level, a method in a class
    classes: dict[str, str]  # container node kind -> chunk kind (class, interface, type)
    bodied: frozenset[str] = frozenset()  # of classes: a declaration only with a body (a C
    # `struct s;` declares nothing; a Java enum constant given methods is a chunk, a plain one
    # part of its enum)
    types: dict[str, str] = field(default_factory=dict)  # leaf declarations -> chunk kind
    namespaces: frozenset[str] = frozenset()  # children chunked separately, name prefixed
    groups: frozenset[str] = frozenset()  # wrappers whose children are top-level items
    wrappers: frozenset[str] = frozenset()  # look inside for the declaration, keep the range
    attached: frozenset[str] = frozenset()  # besides comments: siblings above that belong
    brace_body: bool = True  # the body node starts on the signature line ("{")
    quirks: frozenset[Quirk] = frozenset()
    test_calls: frozenset[str] = frozenset()  # calls whose top-level statements are tests
    # VARIABLE_FUNCTIONS: a binding (`const f = ...`) of one of these values is a declaration
    bindings: frozenset[str] = frozenset()  # statements that bind names to values
    binding_name: str = ""  # the one-name node inside a binding (holds `name` and `value`)
    function_values: frozenset[str] = frozenset()  # a value that makes it a function
    class_values: frozenset[str] = frozenset()  # a value that makes it a class
    default_names: dict[str, str] = field(default_factory=dict)  # kind -> name when unnamed


@dataclass(frozen=True)
class Outline:
    """Node kinds aggressive compression reads to outline a chunk (bodies elided, the
    statements that matter kept).  Compression matches the union over all languages."""

    functions: frozenset[str] = frozenset()  # a body to outline, nested ones too (lambdas)
    scopes: frozenset[str] = frozenset()  # containers whose members are outlined one by one
    groups: frozenset[str] = frozenset()  # member groups opened (preprocessor, export, lists)
    docstrings: frozenset[str] = frozenset()  # a body's first statement of these is its docstring
    closers: frozenset[str] = frozenset()  # keywords alone on a line that close a block


@dataclass(frozen=True)
class Imports:
    """How the import graph reads a file's imports and resolves them to files."""

    patterns: tuple[re.Pattern[str], ...]  # group 1 is the import string
    split: ImportSplit = ImportSplit.AS_IS
    block: re.Pattern[str] | None = None  # Go's `import ( ... )`: group 1 holds the items
    block_item: re.Pattern[str] | None = None  # one item inside `block`
    module_extensions: tuple[str, ...] = ()  # stripped from paths when resolving imports
    index_names: tuple[str, ...] = ()  # a file that stands for its folder (`__init__`)
    path_noise: tuple[str, ...] = ()  # parts of an import path that name no file
    # Where every match of `patterns` lies within one line that holds one of these words,
    # only such lines are searched (an unanchored pattern costs a try at every position).
    line_words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fragments:
    """How a chunk's text (a fragment of a file) is wrapped so it parses in context."""

    class_wrap: tuple[str, str] | None = None  # a member inside a class body
    function_wrap: tuple[str, str] | None = None  # statements inside a function body
    prelude: tuple[str, str] = ("", "")  # (text that shows it is there, text to prepend)
    offside_header: str = ""  # an indented fragment goes under nested headers like this
    offside_block: str = ""  # node kind of an indented block (a lone marker needs `...`)


@dataclass(frozen=True)
class Directives:
    """Preprocessor lines about the code next to them: conditional compilation and region
    markers.  A declaration's chunk takes the openers right above it and the closers right
    below it, so a guard is shown with what it guards and is never a chunk of its own."""

    opens: re.Pattern[str]  # `#ifdef X`, `#else`, `#region`: belongs to the declaration below
    closes: re.Pattern[str]  # `#endif`, `#endregion`: belongs to the declaration above


@dataclass(frozen=True)
class Language:
    """One language: how files are recognised, parsed, chunked, compressed and linked."""

    name: str
    family: Family
    chunker: Chunker
    extensions: tuple[str, ...] = ()  # lower-case, with the dot
    filenames: tuple[str, ...] = ()  # special file names (`Makefile`)
    grammar: str | None = None  # tree-sitter-language-pack name; None: no parsing
    syntax: Syntax | None = None  # declarations, for the tree-sitter chunker
    comment_kinds: tuple[str, ...] = ()  # comment node kinds of the grammar
    doc_style: DocStyle = DocStyle.NONE
    doc_above: frozenset[str] = frozenset()  # ADJACENT: declaration kinds a block documents
    lex_style: LexStyle = LexStyle.C
    imports: Imports | None = None
    test_file_patterns: tuple[str, ...] = ()  # regexes over a repo path: a test file
    task_words: tuple[str, ...] = ()  # words in a task that name the language
    mention_extensions: tuple[str, ...] = ()  # a bare `name.ext` in a task is a file
    marker_comment: tuple[str, str] = ("", "")  # opener and closer of a one-line comment
    keeps_indentation: bool = False  # indentation is data: compression never re-ranks it
    fragments: Fragments = Fragments()
    outline: Outline = Outline()  # for aggressive compression
    directives: Directives | None = None  # guard lines that join the declaration they guard
    # a file the grammar reads with ERROR stretches is read with this one too, and the tree that
    # leaves fewer bytes unread is chunked (its node kinds must be the ones `syntax` names)
    second_grammar: str | None = None
    retry_as: str | None = None  # parse errors: try this language's grammar instead
    config_keys: ConfigKeys = ConfigKeys.NONE
    secondary: bool = False  # all its chunks are documentation (rank below code)

    @property
    def docstring_in_body(self) -> bool:
        return self.doc_style is DocStyle.DOCSTRING

    @property
    def attached(self) -> frozenset[str]:
        """Sibling kinds above a declaration that belong to its chunk."""
        extra = self.syntax.attached if self.syntax is not None else frozenset()
        return frozenset(self.comment_kinds) | extra

    @property
    def fence_tag(self) -> str:
        """The info string of a Markdown code fence holding this language."""
        return "" if self.chunker is Chunker.LINES else self.name
