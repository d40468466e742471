"""Class splitting, long-chunk splitting, module chunks, coverage, ids and invariants."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

import pytest

from ctxopt import tokens
from ctxopt.chunking import CHUNKER_VERSION, chunk_file
from ctxopt.languages import detect_language
from ctxopt.types import Chunk, ChunkKind
from goldentools import check_golden
from helpers import ROOT, ruby_plugin_source
from tests.chunking.conftest import by_name

FIXTURES = ROOT / "fixtures"
GOLDEN = ROOT / "tests" / "golden"


def _big_python_class(methods: int = 40) -> str:
    parts = ["class Engine(Base):", '    """Runs jobs."""', "", "    limit: int = 10", ""]
    for i in range(methods):
        parts += [
            f"    def step_{i}(self, value: int) -> int:",
            f'        """Step number {i}."""',
            f"        if value > {i} and self.limit:",
            f"            return value * {i} + self.helper_{i}(value)",
            "        for item in range(value):",
            "            value += item",
            "        return value",
            "",
        ]
    return "import os\n\n\n" + "\n".join(parts) + "\n"


def test_big_class_becomes_summary_plus_methods():
    text = _big_python_class()
    chunks = chunk_file("engine.py", text, "python").chunks
    summary = [c for c in chunks if c.summary]
    assert len(summary) == 1
    head = summary[0]
    assert (head.kind, head.name, head.start_line) == (ChunkKind.CLASS, "Engine", 4)
    assert head.text.splitlines()[:2] == ["class Engine(Base):", '    """Runs jobs."""']
    assert "    limit: int = 10" in head.text
    assert "    def step_7(self, value: int) -> int:" in head.text
    assert "return value" not in head.text  # no bodies
    assert head.tokens == tokens.count(head.text) < 2000
    methods = [c for c in chunks if c.kind == ChunkKind.METHOD]
    assert len(methods) == 40
    step3 = by_name(chunks, "Engine.step_3")
    assert (step3.parent, step3.docstring) == ("Engine", "Step number 3.")
    assert step3.text.startswith("    def step_3(") and step3.end_line - step3.start_line == 6


def test_small_class_is_one_chunk_defining_its_methods():
    chunks = chunk_file("engine.py", _big_python_class(3), "python").chunks
    engine = by_name(chunks, "Engine", "class")
    assert not engine.summary
    assert engine.defines == ("Engine", "Engine.step_0", "Engine.step_1", "Engine.step_2")
    assert not [c for c in chunks if c.kind == ChunkKind.METHOD]


def test_big_java_class_split_keeps_braces_and_signatures():
    methods = "\n".join(
        f"    /** Doc {i}. */\n    public int calc{i}(int x) {{\n"
        + "".join(f"        x = x * {j} + {i};\n" for j in range(12))
        + "        return x;\n    }\n"
        for i in range(25)
    )
    text = f"package a;\n\npublic class Big {{\n    private int f;\n\n{methods}}}\n"
    chunks = chunk_file("Big.java", text, "java").chunks
    head = next(c for c in chunks if c.summary)
    assert head.text.splitlines()[0] == "public class Big {"
    assert head.text.splitlines()[-1] == "}"
    assert "    public int calc4(int x) {" in head.text and "x = x *" not in head.text
    calc4 = by_name(chunks, "Big.calc4")
    assert calc4.kind == ChunkKind.METHOD and calc4.docstring == "Doc 4."
    assert calc4.text.startswith("    /** Doc 4. */")


def test_chunk_over_500_lines_is_split():
    body = "".join(f"    x{i} = {i}\n" for i in range(1200))
    text = f"def huge():\n{body}    return 1\n"
    chunks = chunk_file("huge.py", text, "python").chunks
    assert [c.name for c in chunks[:3]] == ["huge", "huge#2", "huge#3"]
    assert len(chunks) == 16
    assert all(c.end_line - c.start_line + 1 <= 80 for c in chunks)
    assert chunks[0].start_line == 1 and chunks[-1].end_line == 1202
    assert [c.start_line for c in chunks[1:]] == [c.end_line + 1 for c in chunks[:-1]]
    assert len({c.id for c in chunks}) == 16


def test_file_without_declarations_is_one_module_chunk():
    text = "import sys\n\nx = 1\nprint(x, sys.argv)\n"
    chunks = chunk_file("scripts/run.py", text, "python").chunks
    assert len(chunks) == 1
    only = chunks[0]
    assert (only.kind, only.name, only.qualified_name) == (ChunkKind.MODULE, "run", "scripts.run")
    assert (only.start_line, only.end_line, only.imports) == (1, 4, ("sys",))


def test_decorators_and_comments_join_the_declaration():
    text = "import x\n\n# Helper.\n# Second line.\n@cache\n@other(1)\ndef f():\n    return 1\n"
    chunks = chunk_file("m.py", text, "python").chunks
    f = by_name(chunks, "f")
    assert (f.start_line, f.end_line, f.docstring) == (3, 8, "Helper.\nSecond line.")
    assert f.signature == "def f()"


def test_star_parameters_on_their_own_lines_stay_in_the_signature():
    """`*objects` and `**kwargs` one per line were read as a block comment's ` * ` lines and
    left out (rich's `Console.print` lost `*objects: Any`); a stepped-down entry then found no
    signature in its stub and showed only `def print(`.  A C block comment's lines still go."""
    text = (
        "def echo(\n    self,\n    *objects: Any,\n    sep: str = ' ',\n    **kwargs: Any,\n"
        ") -> None:\n    return None\n"
    )
    echo = by_name(chunk_file("m.py", text, "python").chunks, "echo")
    assert (
        echo.signature == "def echo( self, *objects: Any, sep: str = ' ', **kwargs: Any, ) -> None"
    )
    c_text = "static void\nfree_it(char *p,\n        /* the count */\n        int n)\n{\n}\n"
    free_it = by_name(chunk_file("m.c", c_text, "c").chunks, "free_it")
    assert free_it.signature == "static void free_it(char *p, int n)"


def test_every_nonblank_line_is_covered(fixture_files):
    for path in fixture_files:
        text = path.read_text(encoding="utf-8")
        chunks = chunk_file(path.name, text, detect_language(path.name)).chunks
        covered = {n for c in chunks for n in range(c.start_line, c.end_line + 1)}
        missing = [
            n for n, line in enumerate(text.splitlines(), 1) if line.strip() and n not in covered
        ]
        assert not missing, (path.name, missing)


def test_text_is_exact_lines_and_fields_consistent(fixture_files):
    for path in fixture_files:
        text = path.read_text(encoding="utf-8")
        rel = path.name
        result = chunk_file(rel, text, detect_language(rel))
        assert result.fallback_reason == "", rel
        lines = text.splitlines()
        for c in result.chunks:
            assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line]), (rel, c.name)
            assert c.tokens == tokens.count(c.text)
            assert len(c.signature) <= 300 and "\n" not in c.signature
            assert len(c.references) <= 200 and list(c.references) == sorted(c.references)
        assert len({c.id for c in result.chunks}) == len(result.chunks)


def test_ids_are_stable_across_an_edit_of_another_function():
    before = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\nclass C:\n    pass\n"
    after = before.replace("return 1", "x = 5\n    y = 6\n    return x + y")
    old = {c.qualified_name: c for c in chunk_file("m.py", before, "python").chunks}
    new = {c.qualified_name: c for c in chunk_file("m.py", after, "python").chunks}
    assert old["b"].id == new["b"].id and old["C"].id == new["C"].id
    assert old["b"].start_line != new["b"].start_line
    assert old["a"].id == new["a"].id and old["a"].content_hash != new["a"].content_hash
    again = {c.qualified_name: c.id for c in chunk_file("m.py", before, "python").chunks}
    assert again == {k: v.id for k, v in old.items()}


def test_special_token_text_is_counted_normally():
    text = 'MARK = "<|endoftext|>"\n\n\ndef f():\n    return "<|endoftext|> <|fim_prefix|>"\n'
    chunks = chunk_file("m.py", text, "python").chunks
    f = by_name(chunks, "f")
    assert f.tokens == tokens.count(f.text) > 10


def test_empty_and_blank_files_have_no_chunks():
    assert chunk_file("e.py", "", "python").chunks == ()
    assert chunk_file("e.md", "\n\n  \n", "markdown").chunks == ()


def test_test_kinds_by_path_and_name():
    text = (
        "def helper():\n    return 1\n\n\nclass TestThing:\n    def test_a(self):\n        pass\n"
    )
    in_tests = chunk_file("tests/test_x.py", text, "python").chunks
    assert {c.name: c.kind for c in in_tests if c.kind != ChunkKind.MODULE} == {
        "helper": ChunkKind.TEST,
        "TestThing": ChunkKind.TEST,
    }
    elsewhere = chunk_file("pkg/x.py", text, "python").chunks
    assert by_name(elsewhere, "helper").kind == ChunkKind.FUNCTION
    assert by_name(elsewhere, "TestThing").kind == ChunkKind.TEST
    go = chunk_file("pkg/cache_test.go", "package p\n\nfunc helper() {}\n", "go").chunks
    assert by_name(go, "helper").kind == ChunkKind.TEST
    ts = "import { x } from './x';\n\ndescribe('x', () => {\n  it('works', () => {});\n});\n"
    spec = chunk_file("src/x.test.ts", ts, "typescript").chunks
    assert by_name(spec, "x.works").kind == ChunkKind.TEST


def chunk_record(chunk: Chunk) -> str:
    """One line per chunk: where it is, and a digest of every field the chunker sets."""
    fields = asdict(chunk)
    del fields["commit_time"]  # set by the indexer, not the chunker
    del fields["secrets"]  # found by the indexer's secret scan, not the chunker
    digest = hashlib.sha1(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:12]
    span = f"{chunk.start_line}-{chunk.end_line}"
    return f"  {chunk.kind.value} {chunk.qualified_name} {span} {chunk.tokens} {digest}"


def test_chunk_output_is_what_this_chunker_version_recorded(fixture_files):
    """CHUNKER_VERSION is what tells an index its chunks are outdated: output that changes
    without a bump would leave every existing index with the old chunks."""
    lines: list[str] = []
    for path in fixture_files:
        rel = path.relative_to(FIXTURES).as_posix()
        result = chunk_file(rel, path.read_text(encoding="utf-8"), detect_language(rel))
        lines.append(rel + (f" ({result.fallback_reason})" if result.fallback_reason else ""))
        lines.extend(chunk_record(c) for c in result.chunks)
    golden = GOLDEN / f"chunks.v{CHUNKER_VERSION}.txt"
    check_golden(
        golden,
        "\n".join(lines) + "\n",
        hint="if the change is deliberate, bump CHUNKER_VERSION in ctxopt/chunking/__init__.py "
        "(indexes then rebuild their chunks) and record the new output",
    )
    assert sorted(GOLDEN.glob("chunks.v*.txt")) == [golden], "delete the older chunks.v*.txt"


def test_long_heavy_function_is_split_but_long_light_one_is_not():
    heavy = "".join(
        f"    value_{i} = compute_something_long(argument_{i}, other_{i})\n" for i in range(200)
    )
    light = "".join(f"    x{i} = {i}\n" for i in range(200))
    heavy_chunks = chunk_file("h.py", f"def heavy():\n{heavy}", "python").chunks
    light_chunks = chunk_file("l.py", f"def light():\n{light}", "python").chunks
    assert [c.name for c in heavy_chunks] == ["heavy", "heavy#2", "heavy#3"]
    assert (
        heavy_chunks[1].docstring == "" and heavy_chunks[1].signature == heavy_chunks[0].signature
    )
    assert [c.name for c in light_chunks] == ["light"]


def _held_lines(chunks: tuple[Chunk, ...]) -> set[int]:
    """The lines some chunk other than a class summary holds (what a pack can show whole)."""
    return {n for c in chunks if not c.summary for n in range(c.start_line, c.end_line + 1)}


def summary_rows(chunks: tuple[Chunk, ...]) -> set[str]:
    return {row for c in chunks if c.summary for row in c.text.splitlines()}


def _ruby_contexts(label: str) -> str:
    """Twelve `context` blocks of three `should` tests each (jekyll's style), the contexts
    labelled label.format(i): enough to make the class holding them a summarised one."""
    return "".join(
        f'  context "{label.format(i)}" do\n'
        + "".join(
            f'    should "read plugins number {i}{j} from the site directory" do\n'
            f"      site = Site.new(site_configuration('plugins_dir' => 'dir_{i}{j}'))\n"
            f"      assert_equal [source_dir('dir_{i}{j}')], site.plugins, 'folder {i}{j}'\n"
            "    end\n\n"
            for j in range(3)
        )
        + "  end\n\n"
        for i in range(12)
    )


def test_ruby_test_blocks_in_a_summarised_class_are_chunks_named_by_their_labels():
    blocks = _ruby_contexts("when site {} is configured")
    text = f"class TestSite < JekyllUnitTest\n  def helper\n    1\n  end\n\n{blocks}end\n"
    chunks = chunk_file("test/test_site.rb", text, "ruby").chunks
    assert [c.name for c in chunks if c.summary] == ["TestSite"]
    lines = text.splitlines()
    code = {n for n, line in enumerate(lines, 1) if line.strip() and line != "end"}
    contexts = {n for n, line in enumerate(lines, 1) if line.startswith("  context ")}
    assert contexts <= {n for n, line in enumerate(lines, 1) if line in summary_rows(chunks)}
    assert code - contexts - {1} <= _held_lines(chunks)  # the rest is in chunks a pack shows
    body = next(c for c in chunks if "dir_72" in c.text and not c.summary)
    assert (
        body.text.splitlines()[0].strip()
        == 'should "read plugins number 72 from the site directory" do'
    )
    assert body.text.splitlines()[-1] == "    end"
    assert body.kind == ChunkKind.TEST
    assert body.qualified_name == (
        "TestSite.when site 7 is configured.read plugins number 72 from the site directory"
    )


def test_a_summarised_class_gets_no_chunk_for_what_its_summary_already_shows():
    text = _big_python_class()
    chunks = chunk_file("engine.py", text, "python").chunks
    summary = next(c for c in chunks if c.summary)
    assert "    limit: int = 10" in summary.text
    assert [c for c in chunks if c.kind == ChunkKind.MODULE and c.parent == "Engine"] == []


def test_a_long_table_in_a_summarised_class_body_is_chunked_whole():
    table = "".join(f'        "code_{i}": "meaning of code {i}",\n' for i in range(30))
    text = _big_python_class().replace("    limit: int = 10", f"    CODES = {{\n{table}    }}")
    chunks = chunk_file("engine.py", text, "python").chunks
    summary = next(c for c in chunks if c.summary)
    assert '"code_25"' not in summary.text
    table_chunk = next(c for c in chunks if '"code_25"' in c.text and not c.summary)
    assert "    CODES = {" in table_chunk.text.splitlines()
    assert table_chunk.text.splitlines()[-1] == "    }"


def test_a_long_comment_between_a_module_line_and_its_first_member_is_a_doc_chunk():
    """Ruby parses comments between `module Plugins` and its first statement as children of
    the module before its body; a plugin's guide there is documentation of its own, not a
    header every outline of the file repeats."""
    chunks = chunk_file("lib/app/plugins/assets.rb", ruby_plugin_source(40, 80), "ruby").chunks
    outlines = [c for c in chunks if c.summary]
    assert outlines and all("Step 7:" not in c.text for c in outlines)
    assert all(c.tokens < 200 for c in outlines)
    docs = [c for c in chunks if c.kind == ChunkKind.DOC]
    shown = {n for c in docs for n in range(c.start_line, c.end_line + 1)}
    assert shown == set(range(3, 43))  # the whole guide, in documentation chunks only
    assert all(c.references == () for c in docs)
    assert by_name(chunks, "App.Plugins.Assets").text.startswith("    module Assets\n")


def test_a_ruby_spec_file_is_chunked_per_example_and_a_route_block_per_route():
    spec = (
        "RSpec.describe Router do\n  let(:app) { App.new }\n\n"
        '  describe "#call" do\n    it "routes GET /users" do\n      get "/users"\n'
        "      expect(last_response).to be_ok\n    end\n\n"
        '    it "answers 404 for an unknown path" do\n      get "/nope"\n'
        "      expect(last_response.status).to eq(404)\n    end\n  end\nend\n"
    )
    chunks = chunk_file("spec/router_spec.rb", spec, "ruby").chunks
    names = {c.qualified_name: c for c in chunks}
    missing = names["Router.#call.answers 404 for an unknown path"]
    assert (missing.kind, missing.start_line, missing.end_line) == (ChunkKind.TEST, 10, 13)
    assert names["Router.#call.routes GET /users"].start_line == 5
    app = 'require "sinatra"\n\nget "/users" do\n  User.all.to_json\nend\n'
    route = by_name(chunk_file("app.rb", app, "ruby").chunks, "get /users")
    assert (route.kind, route.start_line, route.end_line) == (ChunkKind.FUNCTION, 3, 5)


def test_a_ruby_block_named_by_a_regex_is_a_chunk_named_by_its_pattern():
    """jekyll's cucumber steps are `Given(%r!^I have a "(.*)" page$!) do |name| ... end`, and a
    Sinatra route may be `get %r{/posts/(\\d+)} do`: each is a chunk named by its call and the
    pattern as written, not a piece of the module around it."""
    steps = (
        "Before do\n  Dir.chdir(dir)\nend\n\n"
        'Given(%r!^I have a "(.*)" page$!) do |name|\n  File.write(name, "")\nend\n\n'
        "get %r{/posts/(\\d+)}i do |id|\n  Post.find(id)\nend\n"
    )
    chunks = chunk_file("features/step_definitions.rb", steps, "ruby").chunks
    assert [(c.kind, c.qualified_name, c.start_line, c.end_line) for c in chunks] == [
        (ChunkKind.MODULE, "features.step_definitions", 1, 3),
        (ChunkKind.FUNCTION, 'Given ^I have a "(.*)" page$', 5, 7),
        (ChunkKind.FUNCTION, "get /posts/(\\d+)", 9, 11),
    ]


def test_a_c_function_declared_through_a_macro_is_named_by_its_inner_name():
    source = (
        '#include "task.h"\n\nTEST_IMPL(tcp_close) {\n  int r = run();\n  ASSERT(r == 0);\n'
        "  return 0;\n}\n\nstatic void (on_close)(uv_handle_t* handle) {\n  free(handle);\n}\n"
    )
    chunks = chunk_file("test/test-tcp-close.c", source, "c").chunks
    test = by_name(chunks, "tcp_close")
    assert (test.start_line, test.end_line) == (3, 7)
    assert by_name(chunks, "on_close").start_line == 9
    assert not [c.qualified_name for c in chunks if "(" in c.qualified_name]


def _doctest_case(name: str, sections: int, checks: int) -> str:
    body = "".join(
        f'    SECTION("{name} section {s}")\n    {{\n'
        + "".join(
            f"        CHECK(parse_value_{s}_{c}(input) == expected_{c});\n" for c in range(checks)
        )
        + "    }\n\n"
        for s in range(sections)
    )
    return f'TEST_CASE("{name}" * doctest::skip())\n{{\n    json j = make();\n\n{body}}}\n\n'


def test_a_big_doctest_case_is_split_into_its_sections_and_a_small_one_is_one_chunk():
    source = '#include "doctest.h"\n\n' + _doctest_case("small", 2, 2) + _doctest_case("big", 4, 60)
    chunks = chunk_file("tests/src/unit-parse.cpp", source, "cpp").chunks
    small = by_name(chunks, "small")
    assert (small.kind, small.start_line) == (ChunkKind.TEST, 3)
    assert "small section 1" in small.text and not small.summary
    big = next(c for c in chunks if c.qualified_name == "big" and c.summary)
    assert '"big section 3"' in big.text and "CHECK(" not in big.text
    section = by_name(chunks, "big.big section 2")
    assert section.kind == ChunkKind.TEST and section.parent == "big"
    assert "parse_value_2_59(input)" in section.text and "parse_value_3_0" not in section.text
    whole = [c for c in chunks if not c.summary]
    outline = {row.strip() for row in big.text.splitlines()}
    for n, line in enumerate(source.splitlines(), 1):
        held = any(c.start_line <= n <= c.end_line for c in whole)
        assert held or line.strip() in outline or not line.strip(), (n, line)


def test_googletest_and_boost_test_macros_are_tests_named_by_their_arguments():
    source = (
        "#include <gtest/gtest.h>\n\nTEST(ParserTest, ReadsNumbers) {\n"
        '  EXPECT_EQ(parse("1"), 1);\n}\n\nTEST_F(ParserFixture, RejectsGarbage) {\n'
        '  EXPECT_THROW(parse("x"), Error);\n}\n\nstatic int helper(int x) { return x; }\n'
    )
    chunks = chunk_file("src/parser.cpp", source, "cpp").chunks
    reads = by_name(chunks, "ParserTest.ReadsNumbers")
    assert (reads.kind, reads.start_line, reads.end_line) == (ChunkKind.TEST, 3, 5)
    assert by_name(chunks, "ParserFixture.RejectsGarbage").kind == ChunkKind.TEST
    assert by_name(chunks, "helper").kind == ChunkKind.FUNCTION
    in_c = chunk_file("src/parser_check.c", source.replace("#include <gtest/gtest.h>", ""), "c")
    assert by_name(in_c.chunks, "ParserTest.ReadsNumbers").kind == ChunkKind.TEST


def test_a_javascript_describe_of_tests_is_chunked_test_by_test():
    expects = ["    expect(parse('{n}-0')).toBe(0);", "    expect(parse('{n}-2')).toBe(2);"]
    case = "\n".join(["  it('parses case {n}', () => {", *expects, "", "  });", "", ""])
    tests = "".join(case.replace("{n}", str(n)) for n in range(3))
    source = (
        "import { parse } from '../src/parse';\n\n"
        f"describe('parse', () => {{\n  const input = load();\n\n{tests}}});\n\n"
        "describe('empty', () => {});\n"
    )
    request = (
        "  it('posts a body', function (done) {\n    var test = request(app).post('/')\n"
        "    test.set('Content-Length', '13')\n    test.expect(200, done)\n  })\n"
    )
    source = source.replace(
        "describe('empty'", f"describe('post', function () {{\n{request}}})\n\ndescribe('empty'"
    )
    chunks = chunk_file("test/parse.test.js", source, "javascript").chunks
    posts = by_name(chunks, "post.posts a body")  # `test.set(...)` on a variable is no test
    assert (posts.kind, posts.end_line - posts.start_line) == (ChunkKind.TEST, 4)
    second = by_name(chunks, "parse.parses case 1")
    assert (second.kind, second.start_line, second.end_line) == (ChunkKind.TEST, 12, 16)
    assert "parse('1-2')" in second.text and "parse('2-0')" not in second.text
    assert by_name(chunks, "empty").kind == ChunkKind.TEST  # no tests inside: one chunk
    covered = {n for c in chunks for n in range(c.start_line, c.end_line + 1)}
    lines = source.splitlines()
    assert all(n in covered for n, line in enumerate(lines, 1) if line.strip())


def test_functions_bound_by_assignment_are_chunks_named_by_their_target():
    """CommonJS code defines its API by assignment (express's `res.send = function send(...)`);
    each such function is a chunk named by what it is assigned to, not a line of a module
    piece."""
    statements = [  # one string per statement, a blank line after each
        "'use strict';",
        "var res = Object.create(http.ServerResponse.prototype);",
        "res.send = function send(body) {\n  var chunk = body;\n  return this.end(chunk);\n};",
        "Router.prototype.route = function route(path) {\n  return new Route(path);\n};",
        "exports.etag = (body) => hash(body);\nthis.fresh = function () {};",
        "module.exports = function createApplication() {\n  return app;\n};",
        "exports.Layer = class Layer {\n  match(path) {\n    return true;\n  }\n};",
        "res.contentType =\nres.type = function contentType(type) {\n  return this.set(type);\n};",
        "res.locals = {};\nres.count = 1 + 2;",
    ]
    source = "\n\n".join(statements) + "\n"
    chunks = chunk_file("lib/response.js", source, "javascript").chunks
    send = by_name(chunks, "res.send")
    assert (send.kind, send.start_line, send.end_line) == (ChunkKind.METHOD, 5, 8)
    assert send.signature.startswith("res.send = function send(body)")
    assert by_name(chunks, "Router.route").kind == ChunkKind.METHOD  # `prototype` left out
    assert by_name(chunks, "etag").kind == ChunkKind.FUNCTION  # `exports.` is the module
    assert by_name(chunks, "fresh").kind == ChunkKind.FUNCTION  # so is a module's `this.`
    assert by_name(chunks, "createApplication").kind == ChunkKind.FUNCTION
    assert by_name(chunks, "Layer").kind == ChunkKind.CLASS
    chained = by_name(chunks, "res.contentType")  # a chain is named by its first target
    assert (chained.kind, chained.start_line, chained.end_line) == (ChunkKind.METHOD, 27, 30)
    plain = [c for c in chunks if c.start_line >= 32]  # plain values stay module code
    assert plain and all(c.kind == ChunkKind.MODULE for c in plain)
    in_ts = chunk_file("src/res.ts", source.replace("'use strict';", ""), "typescript").chunks
    assert by_name(in_ts, "res.send").kind == ChunkKind.METHOD


def test_a_test_label_that_starts_with_a_dot_joins_its_group_with_one_dot():
    source = (
        "describe('res', function () {\n  describe('.send(null)', function () {\n"
        "    it('should set body to \"\"', function () {\n      send(null);\n    });\n  });\n});\n"
    )
    chunks = chunk_file("test/res.send.js", source, "javascript").chunks
    assert by_name(chunks, 'res.send(null).should set body to ""').kind == ChunkKind.TEST
    blocks = _ruby_contexts(".from_{}")  # Ruby: inside a test class split by its members
    text = f"class TestConfiguration < JekyllUnitTest\n{blocks}end\n"
    chunks = chunk_file("test/test_configuration.rb", text, "ruby").chunks
    assert [c.name for c in chunks if c.summary] == ["TestConfiguration"]
    name = "TestConfiguration.from_7.read plugins number 72 from the site directory"
    assert by_name(chunks, name).kind == ChunkKind.TEST


def test_a_name_bound_to_a_call_given_a_function_is_that_function():
    """zod defines each schema as `export const $ZodObject = core.$constructor("$ZodObject",
    (inst, def) => {...})`: the function is the definition, so it is a chunk named $ZodObject,
    not part of a module piece. A call given no function stays module code."""
    body = "".join(f"  inst.check{n} = (value) => value > {n};\n" for n in range(6))
    source = (
        "import * as core from './core';\n\nexport const limit = core.config({ max: 3 });\n\n"
        "export const $ZodNumber: core.$constructor<$ZodNumber> = /*@__PURE__*/ "
        f'core.$constructor("$ZodNumber", (inst, def) => {{\n{body}}});\n\n'
        "const Button = forwardRef(function Button(props, ref) {\n"
        "  return render(props, ref);\n});\n"
    )
    chunks = chunk_file("src/schemas.ts", source, "typescript").chunks
    number = by_name(chunks, "$ZodNumber")
    assert (number.kind, number.start_line, number.end_line) == (ChunkKind.FUNCTION, 5, 12)
    assert "inst.check5" in number.text and 'core.$constructor("$ZodNumber"' in number.signature
    assert by_name(chunks, "Button").kind == ChunkKind.FUNCTION
    assert [c.kind for c in chunks if c.start_line <= 3] == [ChunkKind.MODULE]


def test_a_doc_block_one_blank_line_above_a_definition_documents_it():
    """express writes `/** ... */`, a blank line, then `res.links = function (links) {...}`:
    the block documents the function and is part of its chunk. A block that opens the file is
    its licence; a plain `/* */` comment and a `/*****` banner are not documentation."""
    licence = ["/**", " * Licence text.", " */", ""]
    first = ["function first() {", "  return 1;", "}", ""]
    doc = ["/**", " * Set Link header field with the given `links`.", " */", ""]
    links_fn = ["res.links = function (links) {", "  return this.set('Link', links);", "};", ""]
    plain = ["/* a plain note */", "", "function last() {", "  return 2;", "}", ""]
    banner = ["/*********** ROUTES ***********/", "", "// Makes a group.", "function group() {}"]
    source = "\n".join([*licence, *first, *doc, *links_fn, *plain, *banner]) + "\n"
    chunks = chunk_file("lib/response.js", source, "javascript").chunks
    links = by_name(chunks, "res.links")
    assert (links.start_line, links.end_line) == (9, 15)
    assert links.docstring.startswith("Set Link header field")
    assert by_name(chunks, "first").start_line == 5
    assert by_name(chunks, "last").start_line == 19
    assert by_name(chunks, "group").start_line == 25  # its comment, not the banner above


def test_a_projects_own_test_function_given_a_title_is_a_test():
    """ky wraps ava's `test` as `defaultBrowsersTest('baseUrl option', async (t, page) => {...})`:
    a call of an identifier whose last word is a test call, given a title and a function, is a
    test. A call of such a name given no title, or of an expression, is not."""
    statements = [
        "import test from 'ava';",
        "const defaultBrowsersTest = test.macro(withPage);",
        "defaultBrowsersTest('baseUrl option', async (t, page) => {\n  await page.goto(url);\n});",
        "registerTest(handler, () => {\n  run();\n});",
        "(skip ? test.skip : test)('sometimes', () => {\n  run();\n});",
    ]
    chunks = chunk_file("test/browser.ts", "\n\n".join(statements) + "\n", "typescript").chunks
    base = by_name(chunks, "baseUrl option")
    assert (base.kind, base.start_line, base.end_line) == (ChunkKind.TEST, 5, 7)
    assert not [c for c in chunks if c.start_line > 7 and c.qualified_name == "registerTest"]
    assert [c.kind for c in chunks if c.start_line > 7] == [ChunkKind.MODULE]


def test_a_long_run_of_comments_among_module_code_is_a_documentation_chunk():
    """clap's `src/_derive/mod.rs` is a reference guide written as `//!` comments, and most of
    libuv's files open with a twenty-line licence: such a run shows no code, so it is a doc
    chunk of its own (ranked as documentation). A short comment stays with the code it
    explains, and code beside a comment on one line (a namespace's closing
    `}  // namespace geo`) is code."""
    guide = "\n".join(f"//! Line {n} of the guide about `#[arg(value_parser)]`." for n in range(30))
    code = "use std::fmt;\n\n// The most values.\n// Checked on parse.\npub const LIMIT: usize = 3;"
    chunks = chunk_file("src/_derive/mod.rs", f"{guide}\n\n{code}\n", "rust").chunks
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [
        (ChunkKind.DOC, 1, 30),
        (ChunkKind.MODULE, 32, 36),
    ]
    assert chunks[0].references == () and chunks[1].defines == ("LIMIT",)
    cpp = "namespace geo {\n\nint clamp(int v) {\n    return v;\n}\n\n}  // namespace geo\n"
    closing = chunk_file("geo.cpp", cpp, "cpp").chunks[-1]
    assert (closing.kind, closing.start_line) == (ChunkKind.MODULE, 7)


_JAVA_STATE = (
    "    S{n} {{\n        @Override void read(Reader r) {{\n",
    "State",
    "abstract void read(Reader r);",
)
_KOTLIN_STATE = (
    "    S{n} {{\n        override fun read(r: Reader) {{\n",
    "class State",
    "abstract fun read(r: Reader)",
)


@pytest.mark.parametrize(
    ("path", "language", "shape"),
    [
        ("src/main/java/State.java", "java", _JAVA_STATE),
        ("src/main/kotlin/State.kt", "kotlin", _KOTLIN_STATE),
    ],
)
def test_an_enum_constant_given_methods_is_a_chunk_of_its_own(
    path: str, language: str, shape: tuple[str, str, str]
) -> None:
    """jsoup's tokeniser is an enum whose constants each override `read` (`Data { @Override
    void read(...) {...} }`): each such constant is a chunk named under its enum, holding its
    methods (a Kotlin enum entry the same). A plain constant stays part of its enum."""
    opener, header, abstract = shape
    states = "\n".join(
        opener.format(n=n)
        + "".join(f"            r.advance({n}, {i}) // step {i} of state {n}\n" for i in range(9))
        + "        }\n    },"
        for n in range(12)
    )
    source = f"enum {header} {{\n{states}\n    DONE;\n\n    {abstract}\n}}\n"
    chunks = chunk_file(path, source, language).chunks
    enum = [c for c in chunks if c.qualified_name == "State"]
    assert [c.summary for c in enum] == [True]
    first = by_name(chunks, "State.S0", "constant")
    assert (first.start_line, first.end_line) == (2, 14)
    assert first.defines == ("State.S0", "State.S0.read")
    assert "read(" in first.text.splitlines()[1]
    assert len([c for c in chunks if c.kind is ChunkKind.CONSTANT]) == 12
    assert not [c for c in chunks if c.name == "DONE"]


def test_an_enum_of_plain_constants_is_one_chunk():
    small = chunk_file("Color.java", "enum Color {\n    RED,\n    GREEN;\n}\n", "java").chunks
    assert [(c.kind, c.name) for c in small] == [(ChunkKind.TYPE, "Color")]


def test_cpp_friend_functions_defined_in_a_class_are_its_members() -> None:
    """`friend bool operator==(...) { ... }` in a class body (the usual way to write a class's
    operators) was a module piece named after the class; a friend declared without a body and
    `friend class other;` declare nothing of their own."""
    body = "".join(f"        total += step_{i}(lhs, rhs);\n" for i in range(120))
    text = (  # big enough to be cut into its members
        "class key_path\n{\n"
        "    template<typename>\n    friend class key_path;\n\n"
        "    friend bool operator==(const key_path& lhs, const key_path& rhs) noexcept\n    {\n"
        + body
        + "        return total == 0;\n    }\n\n"
        "    template<typename T>\n"
        "    friend key_path operator/(const key_path& lhs, T rhs)\n    {\n"
        + body
        + "        return key_path(lhs) /= rhs;\n    }\n\n"
        "    friend std::ostream& operator<<(std::ostream& out, const key_path& path);\n"
        "};\n"
    )
    chunks = chunk_file("key_path.hpp", text, "cpp").chunks
    methods = [(c.qualified_name, c.start_line) for c in chunks if c.kind is ChunkKind.METHOD]
    assert methods == [("key_path.operator==", 6), ("key_path.operator/", 131)]
    assert not [c for c in chunks if c.kind is ChunkKind.MODULE and "operator" in c.text]
