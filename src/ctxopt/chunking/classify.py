"""Deciding what a top-level or member node declares: its role, kind, inner node and name."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from ctxopt.chunking.nodes import body_of, name_of, text_of
from ctxopt.languages import Quirk, Syntax
from ctxopt.terms import split_identifier

_RECEIVER = re.compile(r"(\w+)(?:\[[^\]]*\])?\s*\)\s*$")


@dataclass(frozen=True)
class Decl:
    """What one node declares."""

    role: str  # "function", "class" (container with members), "leaf", "namespace", "test"
    kind: str  # ChunkKind value for classes and leaves ("" for functions)
    node: Node  # the declaration node inside any wrapper
    name: str
    parent: str = ""  # owner type named by the declaration itself (Go receiver, C++ A::f)
    block: Node | None = None  # a body not found in node's own fields: the block after a C
    # macro call (the grammar's next statement), the callback's body of a `describe` of tests,
    # the function's body in `res.send = function send(body) {...}`


def classify(spec: Syntax, node: Node, source: bytes) -> Decl | None:
    """The declaration node declares, or None for plain module-level code."""
    quirks = spec.quirks
    inner = unwrap(spec, node)
    kind = inner.type
    if Quirk.VARIABLE_FUNCTIONS in quirks:
        found = _classify_js(spec, inner, source)
        if found is not None:
            return found
    if Quirk.BLOCK_CALLS in quirks and kind == "call":
        return _ruby_block_call(spec, inner, source)
    if kind in spec.namespaces:
        return Decl("namespace", "", inner, name_of(source, inner)) if body_of(inner) else None
    if kind in spec.functions:
        return _macro_definition(spec, inner, source) or _function(quirks, inner, source)
    if kind in spec.classes:
        if kind in spec.bodied and body_of(inner) is None:
            return None
        kind_name = _class_kind(quirks, inner, spec.classes[kind], source)
        return Decl("class", kind_name, inner, _cname(spec, inner, source))
    if kind in spec.types:
        return _leaf(quirks, inner, spec.types[kind], source)
    return None


def classify_at(spec: Syntax, items: list[Node], index: int, source: bytes) -> Decl | None:
    """What items[index] declares, reading it with the statement after it where the two are
    one declaration the grammar does not know (a C macro given a block)."""
    if Quirk.MACRO_BLOCKS in spec.quirks:
        found = _macro_block(spec, items, index, source)
        if found is not None:
            return found
    return classify(spec, items[index], source)


def unwrap(spec: Syntax, node: Node) -> Node:
    """The declaration inside decorator / export / template wrappers."""
    while node.type in spec.wrappers:
        inner = node.child_by_field_name("definition") or node.child_by_field_name("declaration")
        if inner is None:
            candidates = [c for c in node.named_children if c.type not in ("decorator", "comment")]
            inner = candidates[-1] if candidates else None
        if inner is None:
            return node
        node = inner
    return node


def _function(quirks: frozenset[Quirk], node: Node, source: bytes) -> Decl:
    name = name_of(source, node) or "<anonymous>"
    parent = ""
    if Quirk.RECEIVER_PARENT in quirks and node.type == "method_declaration":
        receiver = node.child_by_field_name("receiver")
        match = _RECEIVER.search(text_of(source, receiver))
        parent = match.group(1) if match else ""
    elif Quirk.QUALIFIED_NAMES in quirks and "::" in name:
        parent, _, name = name.rpartition("::")
    if Quirk.DOTTED_METHOD_NAMES in quirks and node.type == "singleton_method":
        name = name.split(".")[-1]
    return Decl("function", "", node, name, parent)


def _cname(spec: Syntax, node: Node, source: bytes) -> str:
    return name_of(source, node) or spec.default_names.get(node.type, "<anonymous>")


def _class_kind(quirks: frozenset[Quirk], node: Node, default: str, source: bytes) -> str:
    if Quirk.INTERFACE_KEYWORD in quirks and any(c.type == "interface" for c in node.children):
        return "interface"
    if Quirk.DECLARATION_KIND_FIELD in quirks:
        declared = text_of(source, node.child_by_field_name("declaration_kind"))
        return "type" if declared == "enum" else default
    return default


def _leaf(quirks: frozenset[Quirk], node: Node, default: str, source: bytes) -> Decl:
    if Quirk.TYPE_SPECS in quirks:
        spec = next((c for c in node.named_children if c.type in ("type_spec", "type_alias")), None)
        if spec is None:
            return Decl("leaf", default, node, "<anonymous>")
        shape = spec.child_by_field_name("type")
        kind = {"struct_type": "class", "interface_type": "interface"}.get(
            shape.type if shape is not None else "", "type"
        )
        return Decl("leaf", kind, node, name_of(source, spec))
    if Quirk.TYPEDEF_STRUCTS in quirks and node.type == "type_definition":
        shape = node.child_by_field_name("type")
        kind = default
        if shape is not None and shape.type != "enum_specifier" and body_of(shape) is not None:
            kind = "class"
        return Decl("leaf", kind, node, name_of(source, node))
    return Decl("leaf", default, node, name_of(source, node) or "<anonymous>")


def _classify_js(spec: Syntax, node: Node, source: bytes) -> Decl | None:
    if node.type in spec.bindings:
        declarators = [c for c in node.named_children if c.type == spec.binding_name]
        if len(declarators) != 1:
            return None
        value = declarators[0].child_by_field_name("value")
        name = text_of(source, declarators[0].child_by_field_name("name"))
        if value is not None and value.type in spec.function_values:
            return Decl("function", "", node, name)
        if value is not None and value.type in spec.class_values:
            return Decl("class", "class", value, name)
        wrapped = _wrapped_function(spec, value)
        if wrapped is not None:
            return Decl("function", "", node, name, block=wrapped.child_by_field_name("body"))
        return None
    if node.type == "expression_statement":
        return _js_test_call(spec, node, source) or _js_assignment(spec, node, source)
    return None


def _wrapped_function(spec: Syntax, value: Node | None) -> Node | None:
    """The function a call is given where the call makes what a name is bound to:
    `const $ZodObject = core.$constructor("$ZodObject", (inst, def) => {...})`,
    `const Button = forwardRef((props, ref) => {...})`."""
    if value is None or value.type != "call_expression":
        return None
    return _call_arguments(spec, value)[1]


def _call_arguments(spec: Syntax, call: Node) -> tuple[list[Node], Node | None]:
    """A call's arguments, and the last of them that is a function (None when none is)."""
    args = call.child_by_field_name("arguments")
    values = args.named_children if args is not None else []
    return values, next((v for v in reversed(values) if v.type in spec.function_values), None)


# `module.exports = ...`, `exports.x = ...` and a module's top-level `this.x = ...` bind the
# module's own names, not an object's.
_JS_MODULE_OBJECTS = frozenset({"exports", "module.exports", "this"})


def _js_assignment(spec: Syntax, node: Node, source: bytes) -> Decl | None:
    """A function or class bound by assignment, the CommonJS way: `res.send = function
    send(body) {...}` is method send of res, `Router.prototype.route = ...` method route of
    Router, `exports.etag = ...` function etag, `module.exports = class Router {...}` class
    Router. Of a chain (`res.contentType = res.type = function contentType(type) {...}`) the
    first target names it."""
    expression = node.named_children[0] if node.named_children else None
    if expression is None or expression.type != "assignment_expression":
        return None
    target = expression.child_by_field_name("left")
    value = expression.child_by_field_name("right")
    while value is not None and value.type == "assignment_expression":  # `a.x = a.y = f`
        value = value.child_by_field_name("right")
    if target is None or value is None or target.type not in ("identifier", "member_expression"):
        return None
    if value.type not in spec.function_values and value.type not in spec.class_values:
        return None
    path = [part for part in text_of(source, target).split(".") if part != "prototype"]
    owner = ".".join(path[:-1])
    name = path[-1]
    if ".".join(path) in _JS_MODULE_OBJECTS:  # `module.exports = function createApp() {...}`
        owner, name = "", name_of(source, value) or name
    elif owner in _JS_MODULE_OBJECTS:
        owner = ""
    if value.type in spec.class_values:
        return Decl("class", "class", value, name)
    return Decl("function", "", node, name, owner, block=value.child_by_field_name("body"))


_JS_LABELS = frozenset({"string", "template_string", "identifier", "member_expression"})


def _js_test_call(spec: Syntax, node: Node, source: bytes) -> Decl | None:
    """`it("...", () => {...})`: a test-framework call given a function. One whose function
    holds more of them (a `describe` of tests) is a namespace."""
    found = _js_test_shape(spec, node, source)
    if found is None:
        return None
    callee, label, callback = found
    block = callback.child_by_field_name("body")
    holds_tests = (
        block is not None
        and block.type == "statement_block"
        and any(_js_test_shape(spec, c, source) for c in block.named_children)
    )
    if holds_tests:
        return Decl("namespace", "", node, label[:120], block=block)  # `describe` of tests
    return Decl("test", "test", node, (label or callee)[:120])


def _js_test_shape(spec: Syntax, node: Node, source: bytes) -> tuple[str, str, Node] | None:
    """Callee, label and function of a statement that is a test-framework call. A call on a
    variable named like one (`test.set("Content-Type", ...)`, with `const test =
    request(app)`) is not: a test call is given a function."""
    call = (
        node.named_children[0]
        if node.type == "expression_statement" and node.named_children
        else None
    )
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    callee = text_of(source, function).split(".")[0]
    values, callback = _call_arguments(spec, call)
    if callback is None:
        return None
    helper = function is not None and function.type == "identifier"
    if callee not in spec.test_calls and not (helper and _test_helper(spec, callee, values)):
        return None
    label = _string_text(text_of(source, values[0])) if values[0].type in _JS_LABELS else ""
    return callee, label, callback


def _test_helper(spec: Syntax, callee: str, values: list[Node]) -> bool:
    """A project's own test function (a plain name) given a title, named like one: ky's
    `defaultBrowsersTest('baseUrl option', async (t, page) => {...})`."""
    words = split_identifier(callee)
    titled = bool(values) and values[0].type in ("string", "template_string")
    return titled and len(words) > 1 and words[-1] in spec.test_calls


_RUBY_LABELS = frozenset({"string", "simple_symbol", "constant", "scope_resolution", "regex"})
_REGEX_LITERAL = re.compile(r"(?s)^(?:%r.|/)(.*?)[/!}\])|]?[imxounse]*$")  # `%r!...!`, `/.../i`


def _ruby_block_call(spec: Syntax, node: Node, source: bytes) -> Decl | None:
    """A call given a block that is a block of its own: a test-framework call (`it "..." do`,
    `RSpec.describe Foo do`), or any call named by a string, symbol or regex given a `do ... end`
    block (`get "/users" do`, `task :build do`, `Given(%r!^I have a "(.*)" page$!) do`)."""
    block = node.child_by_field_name("block")
    method = text_of(source, node.child_by_field_name("method"))
    args = node.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if block is None or first is None or first.type not in _RUBY_LABELS:
        return None
    literal = text_of(source, first)
    if first.type == "regex":  # a step (`Given(%r!^I have a "(.*)" page$!) do`), a route
        match = _REGEX_LITERAL.match(literal)
        label = " ".join((match.group(1) if match else literal).split())
    else:
        label = _string_text(literal).lstrip(":")
    if method in spec.test_calls:
        inner = decl_body(spec, node)
        if inner is not None and any(
            c.type == "call" and _ruby_block_call(spec, c, source) for c in inner.named_children
        ):
            return Decl("namespace", "", node, label[:120])  # `describe`/`context` of tests
        return Decl("test", "test", node, label[:120])
    if block.type == "do_block":
        return Decl("function", "", node, f"{method} {label}"[:120])
    return None


_MACRO = re.compile(r"[A-Z][A-Z0-9_]*")
_WORD = re.compile(r"\w+")


def _macro_definition(spec: Syntax, node: Node, source: bytes) -> Decl | None:
    """A macro that defines a function, named by its arguments: `TEST(Parser, ReadsNumbers)
    {...}` is test ReadsNumbers of Parser, `BOOST_AUTO_TEST_CASE(reads_numbers) {...}` is
    test reads_numbers."""
    if Quirk.MACRO_BLOCKS not in spec.quirks or node.child_by_field_name("type") is not None:
        return None
    declarator = node.child_by_field_name("declarator")
    if declarator is None or declarator.type != "function_declarator":
        return None
    callee = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters")
    macro = text_of(source, callee)
    if params is None or not _MACRO.fullmatch(macro):
        return None
    words = [text_of(source, p) for p in params.named_children]
    if not words or not all(_WORD.fullmatch(w) for w in words):
        return None
    role = "test" if macro in spec.test_calls else "function"
    return Decl(role, "test" if role == "test" else "", node, words[-1], ".".join(words[:-1]))


def _macro_block(spec: Syntax, items: list[Node], index: int, source: bytes) -> Decl | None:
    """`TEST_CASE("parses numbers") {...}`: a macro call given a block. A test macro's block
    (a Catch2 or doctest case or section) is a test; one holding more such blocks is a class
    of them, split like a class when big. Another macro's is a function named by the macro
    and its label."""
    found = _macro_call(items, index, source)
    if found is None:
        return None
    macro, label, block = found
    inner = block.named_children
    if any(_macro_call(inner, i, source) for i in range(len(inner))):
        kind = "test" if macro in spec.test_calls else "class"
        return Decl("class", kind, items[index], label or macro, block=block)
    if macro in spec.test_calls:
        return Decl("test", "test", items[index], label or macro, block=block)
    return Decl("function", "", items[index], f"{macro} {label}".strip(), block=block)


def _macro_call(items: list[Node], index: int, source: bytes) -> tuple[str, str, Node] | None:
    """Macro, label and block of `NAME(args)` followed by `{...}`, which the grammar reads
    as a statement missing its `;` and then a block."""
    node = items[index]
    block = items[index + 1] if index + 1 < len(items) else None
    if node.type != "expression_statement" or block is None or block.type != "compound_statement":
        return None
    if not any(child.is_missing for child in node.children):
        return None
    call = node.named_children[0] if node.named_children else None
    callee = call.child_by_field_name("function") if call is not None else None
    if call is None or call.type != "call_expression" or callee is None:
        return None
    macro = text_of(source, callee)
    if callee.type != "identifier" or not _MACRO.fullmatch(macro):
        return None
    return macro, _macro_label(call, source), block


_STRINGS = frozenset({"string_literal", "raw_string_literal"})


def _macro_label(call: Node, source: bytes) -> str:
    """The first string in a macro call's arguments (`TEST_CASE("README" * doctest::skip())`
    is README), else its plain-word arguments."""
    args = call.child_by_field_name("arguments")
    values = args.named_children if args is not None else []
    for value in values:
        found = _first_string(value)
        if found is not None:
            return _string_text(text_of(source, found))[:120]
    return ".".join(text_of(source, v) for v in values if v.type == "identifier")[:120]


def _first_string(node: Node) -> Node | None:
    if node.type in _STRINGS:
        return node
    for child in node.named_children:
        found = _first_string(child)
        if found is not None:
            return found
    return None


_ESCAPED = re.compile(r"\\(.)")
_ESCAPE_CHARS = {"n": " ", "t": " ", "r": " "}


def _string_text(literal: str) -> str:
    """What a string literal says: no quotes, escapes read (`'doesn\\'t'` -> `doesn't`),
    on one line."""
    body = literal.strip()
    if len(body) >= 2 and body[0] == body[-1] and body[0] in "'\"`":
        body = body[1:-1]
    body = _ESCAPED.sub(lambda m: _ESCAPE_CHARS.get(m.group(1), m.group(1)), body)
    return " ".join(body.split())


def body(spec: Syntax, decl: Decl) -> Node | None:
    """The body of what decl declares."""
    return decl.block if decl.block is not None else decl_body(spec, decl.node)


def decl_body(spec: Syntax, node: Node) -> Node | None:
    """The body of a declaration node (for `const f = () => {...}`, the function's body)."""
    body = body_of(node)
    block = node.child_by_field_name("block") if Quirk.BLOCK_CALLS in spec.quirks else None
    if body is None and block is not None:
        return body_of(block) or block
    if body is None and node.type in spec.bindings:
        for declarator in node.named_children:
            value = declarator.child_by_field_name("value")
            if value is not None:
                return value.child_by_field_name("body")
    return body
