"""Tags queries over a tree-sitter parse: definitions with qualified names, references, imports.

Capture names (the wheels' `tags.scm` convention plus ours): `@definition.KIND` / `@reference.KIND`
with `@name`; `@scope` with `@name` qualifies nested names without being a definition (a Rust
`impl`); `@receiver` qualifies a Go method; `@import.module`, `@import.name`, `@import.alias`.
A function whose nearest enclosing definition is a class-like container is a method.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Container, Iterator
from typing import Any, NamedTuple

from orkestra.codemap import gonames, languages
from orkestra.codemap.facts import CONTAINERS, FileFacts, Import, Ref, Symbol

#: parent node types that make a reference a member access (`x.name`)
MEMBER_PARENTS = frozenset(
    {
        "attribute", "member_expression", "field_expression", "selector_expression",
        "member_access_expression", "scoped_identifier", "call", "method_invocation",
        "field_access", "qualified_identifier", "scoped_call_expression",
        "member_call_expression", "nullsafe_member_call_expression", "class_constant_access_expression",
        "qualified_type",
    }
)  # fmt: skip
OWNER_TYPES = frozenset(
    {"identifier", "package_identifier", "name", "constant", "self", "this", "type_identifier",
     "variable_name", "namespace_identifier", "field_identifier", "predefined_type",
     "primitive_type"}
)  # fmt: skip
#: kinds a more specific capture of the same name replaces (a wheel's "type" for an enum)
GENERIC_KINDS = frozenset({"function", "type", "module"})
KIND_ALIASES = {"constructor": "method", "field": "field", "macro": "macro"}
QUOTES = "\"'`<>"
#: Python `name = value` assignments, for the class a local name is constructed from
ASSIGNMENTS = "(assignment left: (identifier) @var right: (_) @value)"
#: JavaScript/TypeScript `name = new …` declarations and `name = value` assignments, for the
#: class a name is an instance of (`const d = new Dog()`; another declarator is a `@bind`)
JS_ASSIGNMENTS = """
(variable_declarator name: (identifier) @var value: (new_expression) @value)
(assignment_expression left: (identifier) @var right: (_) @value)
"""
#: the Python names a scope binds (a read of such a name in it is its own, not the module's);
#: `@global` lists `global` names, which stay the module's (a `nonlocal` name is bound by a
#: function around, which says so itself)
BINDINGS = """
(parameters (identifier) @bind)
(lambda_parameters (identifier) @bind)
(default_parameter name: (identifier) @bind)
(typed_parameter (identifier) @bind)
(typed_default_parameter name: (identifier) @bind)
(list_splat_pattern (identifier) @bind)
(dictionary_splat_pattern (identifier) @bind)
(assignment left: (identifier) @bind !right)
(augmented_assignment left: (identifier) @bind)
(pattern_list (identifier) @bind)
(tuple_pattern (identifier) @bind)
(list_pattern (identifier) @bind)
(for_statement left: (identifier) @bind)
(for_in_clause left: (identifier) @bind)
(as_pattern_target (identifier) @bind)
(named_expression name: (identifier) @bind)
(function_definition name: (identifier) @bind)
(class_definition name: (identifier) @bind)
(aliased_import alias: (identifier) @bind)
(import_from_statement name: (dotted_name . (identifier) @bind .))
(import_statement name: (dotted_name . (identifier) @bind))
(as_pattern_target [(tuple (identifier) @bind) (list (identifier) @bind)])
(case_pattern (dotted_name . (identifier) @bind .))
(keyword_pattern (dotted_name . (identifier) @bind .))
(case_pattern (as_pattern (identifier) @bind .))
(splat_pattern (identifier) @bind)
(delete_statement (identifier) @bind)
(delete_statement [(expression_list (identifier) @bind) (tuple (identifier) @bind)])
(global_statement (identifier) @global)
"""
#: the nodes whose names an import or export lists (Python, JavaScript/TypeScript)
IMPORT_NODES = frozenset(
    {"import_statement", "import_from_statement", "aliased_import", "future_import_statement",
     "import_specifier", "export_specifier", "namespace_import", "import_clause"}
)  # fmt: skip
#: a JS/TS declarator value that makes the declared name a function
JS_FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)
DOTTED = re.compile(r"\w+(?:\.\w+)+")
#: a JavaScript/TypeScript `new` of a class (`new Dog(`, `new ns.Dog<T>(`): a capital name
_NEW_CLASS = re.compile(rb"\bnew\s+(?:[\w$]+\s*\.\s*)*[A-Z]")
#: Go declarations of several names at once (`var i, j int`, `const a, b = 1, 2`)
SPECS = frozenset({"var_spec", "const_spec"})


def extract(language: str, source: bytes) -> FileFacts:
    """Parse `source` as `language` and run its tags queries."""
    ts = languages.require()
    lang, query = languages.load(language)
    tree = ts.Parser(lang).parse(source)
    defs = _Defs()
    scopes: dict[tuple[int, int], str] = {}
    refs: list[tuple[str, Any, Any]] = []
    facts = FileFacts(language)
    binds: list[tuple[str, Any]] = []  # JavaScript/TypeScript: the `@bind` captures
    for _index, match in ts.QueryCursor(query).matches(tree.root_node):
        if "bind" in match:
            binds.append(("bind", match["bind"][0]))
            continue
        _collect(match, defs, scopes, refs, facts)
    lines = source.split(b"\n")
    spans: list[tuple[int, int, str]] = [
        # real scope nodes (a Rust impl); a Go receiver is stored one byte past its method
        (key[0], key[1], name)
        for key, name in scopes.items()
        if (key[0], key[1] - 1) not in defs
    ]
    # C# `namespace A.B;` holds the declarations after it, which are its siblings in the tree
    filed = [d for d in defs.values() if d[2].type == "file_scoped_namespace_declaration"]
    top: set[tuple[int, int]] = set()  # the name spans of the module's own top-level names
    nested: dict[str, list[int]] = {}  # where a function defines a name (`res = v => …`)
    for _span, (kind, name, node, name_node) in sorted(defs.items(), key=lambda item: item[0]):
        chain = _chain(node, defs, scopes)
        if filed and node.start_byte >= filed[0][2].end_byte:
            chain = [filed[0][1], *chain]
        parent_kind = _parent_kind(node, defs, scopes)
        if parent_kind in ("function", "method"):
            nested.setdefault(name, []).append(name_node.start_byte)  # resolution finds it
        if kind == "function" and parent_kind in CONTAINERS:
            kind = "method"
        elif kind == "method" and language == "rust" and parent_kind == "module":
            kind = "function"  # the wheel's `declaration_list` method is also an inline `mod`'s fn
        elif kind in ("constant", "variable") and _is_lambda(node):
            kind = "function"  # `double = lambda v: v * 2`, `const f = () => 1` define functions
        row = name_node.start_point[0]
        qualname = ".".join([*chain, name])
        if not chain:
            top.add((name_node.start_byte, name_node.end_byte))
        end = len(source) if filed and node is filed[0][2] else node.end_byte
        spans.append((node.start_byte, end, qualname))
        facts.symbols.append(
            Symbol(
                name=name,
                qualname=qualname,
                kind=kind,
                line=row + 1,
                end_line=node.end_point[0] + 1,
                signature=_line(lines, row),
            )
        )
    def_names = {(d[3].start_byte, d[3].end_byte) for d in defs.values()}
    seen: set[int] = set()
    scope_of = _Scopes(spans)
    instance: Callable[[Any, str], str] = _untyped
    local: set[int] = set()
    if language == "python":
        assigned, bindings = _python_names(ts, lang, tree)
        python = USES[language]
        instance = _instances(assigned, bindings, python, top)
        local = _local_calls(refs, lambda: bindings, python, top, def_names, nested)
        refs.extend(
            _value_uses(tree, source, facts, def_names, refs, lambda: bindings, python, top)
        )
    elif language in USES:
        if _NEW_CLASS.search(source):  # `const d = new Dog()`: `d.bark` is `Dog`'s `bark`
            assigned = _js_assigned(ts, lang, tree)
            instance = _instances(assigned, [*binds, *_assignments(assigned)], USES[language], top)
        local = _local_calls(refs, lambda: binds, USES[language], top, def_names, nested)
        uses = USES[language]
        refs.extend(_value_uses(tree, source, facts, def_names, refs, lambda: binds, uses, top))
    elif language == "go":
        defined = {start for start, _end in def_names}
        called = {name_node.start_byte for _kind, _node, name_node in refs}
        found, local = gonames.uses(ts, lang, tree, facts.imports, defined, called)
        refs.extend(found)
    refs.sort(key=lambda ref: ref[0] != "base")  # a superclass use is a "base" first of all
    for kind, _node, name_node in refs:
        if (name_node.start_byte, name_node.end_byte) in def_names:
            continue
        if name_node.start_byte in seen or name_node.start_byte in local:
            continue
        if (
            kind == "constant"
            and language in USES
            and not _read(name_node, USES[language].not_reads)
        ):
            continue  # `for LIMIT in …`, `LIMIT, WIDTH = …`: binds the name, reads nothing
        name = _text(name_node)
        if not name:  # a zero-width node the parser made up to recover (`Branch() {` read as C)
            continue
        seen.add(name_node.start_byte)
        member = False if kind == "use" and language == "go" else _is_member(name_node)
        point = name_node.start_point
        scope = scope_of(name_node.start_byte)
        owner = _owner(name_node) if member else ""
        owner = (instance(name_node, owner) or owner) if owner else owner
        facts.refs.append(
            Ref(
                name=name,
                line=point[0] + 1,
                col=point[1] + 1,
                kind=kind,
                member=member,
                scope=scope,
                owner=owner,
            )
        )
    facts.refs.sort(key=lambda r: (r.line, r.col, r.name))
    return facts


class _Scopes:
    """The qualified name of the innermost definition around a byte offset (nested intervals)."""

    def __init__(self, spans: list[tuple[int, int, str]]) -> None:
        self.spans = sorted(spans, key=lambda s: (s[0], -s[1]))
        self.starts = [s[0] for s in self.spans]
        self.up: list[int] = []  # index of the enclosing span, -1 at the top
        stack: list[int] = []
        for index, (start, _end, _name) in enumerate(self.spans):
            while stack and self.spans[stack[-1]][1] <= start:
                stack.pop()
            self.up.append(stack[-1] if stack else -1)
            stack.append(index)

    def __call__(self, offset: int) -> str:
        index = bisect.bisect_right(self.starts, offset) - 1
        while index >= 0:
            start, end, name = self.spans[index]
            if start <= offset < end:
                return name
            index = self.up[index]
        return ""


class _Defs(dict[tuple[int, int], tuple[str, str, Any, Any]]):
    """Definitions by node span -> (kind, name, node, name node), and which span owns a name."""

    def __init__(self) -> None:
        super().__init__()
        self.named: dict[tuple[int, int], tuple[int, int]] = {}


def _collect(
    match: dict[str, list[Any]],
    defs: _Defs,
    scopes: dict[tuple[int, int], str],
    refs: list[tuple[str, Any, Any]],
    facts: FileFacts,
) -> None:
    names = match.get("name")
    if "import.module" in match:
        _import(match, facts)
        return
    if "scope" in match and names:
        node = match["scope"][0]
        scopes[(node.start_byte, node.end_byte)] = _text(names[0])
        return
    for capture, nodes in match.items():
        role, _, kind = capture.partition(".")
        if role not in ("definition", "reference") or not names or not nodes:
            continue
        node, name_node = nodes[0], names[0]
        if (
            role == "definition"
            and node.type.endswith("_specifier")
            and (node.child_by_field_name("body") is None)
        ):
            role, kind = "reference", "type"  # `enum color c;` uses a type, defines nothing
        if role == "definition":
            key = (node.start_byte, node.end_byte)
            if node.type in SPECS and key in defs and defs[key][3] != name_node:
                key = (name_node.start_byte, name_node.end_byte)  # `var i, j, k int`: each
            receiver = match.get("receiver")
            if receiver:
                scopes.setdefault((node.start_byte, node.end_byte + 1), _text(receiver[0]))
            _define(defs, key, KIND_ALIASES.get(kind, kind), node, name_node)
        elif kind != "constant" or not _in_import(name_node):  # an import names, it does not use
            refs.append((kind or "use", node, name_node))


def _in_import(name_node: Any) -> bool:
    """True for a name inside an import or export statement's list of names."""
    parent = name_node.parent
    if parent is not None and parent.type == "dotted_name":
        parent = parent.parent
    return parent is not None and parent.type in IMPORT_NODES


def _define(
    defs: _Defs,
    key: tuple[int, int],
    kind: str,
    node: Any,
    name_node: Any,
) -> None:
    """One definition per name: a specific kind beats "function"; then the larger node wins
    (a whole C function over its declarator)."""
    span = (name_node.start_byte, name_node.end_byte)
    other_key = defs.named.get(span)
    if other_key is not None and other_key in defs:
        other_kind, _n, other, _other_name = defs[other_key]
        specific = kind not in GENERIC_KINDS and other_kind in GENERIC_KINDS
        larger = (kind == other_kind or "function" not in (kind, other_kind)) and (
            node.end_byte - node.start_byte > other.end_byte - other.start_byte
        )
        if not (specific or larger):
            return
        del defs[other_key]
    defs.named[span] = key
    name = _text(name_node)
    if node.type == "operator_declaration":
        name = "operator" + name  # C# `operator +` is named by its symbol alone
    defs[key] = (kind, name, node, name_node)


def _import(match: dict[str, list[Any]], facts: FileFacts) -> None:
    module = match["import.module"][0]
    name = match.get("import.name")
    alias = match.get("import.alias")
    facts.imports.append(
        Import(
            module=("./" if "import.relative" in match else "") + _text(module).strip(QUOTES),
            line=module.start_point[0] + 1,
            name="*"
            if name and name[0].type == "dot"
            else _text(name[0]).strip(QUOTES)
            if name
            else "",
            alias=_text(alias[0]) if alias else "",
        )
    )


def _chain(
    node: Any,
    defs: dict[tuple[int, int], tuple[str, str, Any, Any]],
    scopes: dict[tuple[int, int], str],
    *,
    include_self: bool = False,
) -> list[str]:
    """Names of the definitions (and scopes) enclosing `node`, outermost first."""
    receiver = scopes.get((node.start_byte, node.end_byte + 1))
    out: list[str] = [receiver] if receiver and not include_self else []
    own = (node.start_byte, node.end_byte)
    current = node if include_self else node.parent
    last: tuple[int, int] | None = None
    while current is not None:
        key = (current.start_byte, current.end_byte)
        if (key == own and current is not node) or key == last:
            pass  # a wrapper with the same span (Python's expression_statement) is the node itself
        elif current.type == "type_definition":
            pass  # `typedef struct node {...} node_t;`: the struct is `node`, not `node_t.node`
        elif key in defs:
            out.append(defs[key][1])
            go = scopes.get((current.start_byte, current.end_byte + 1))
            if go:
                out.append(go)
        elif key in scopes:
            out.append(scopes[key])
        last = key
        current = current.parent
    out.reverse()
    return out


def _parent_kind(
    node: Any,
    defs: dict[tuple[int, int], tuple[str, str, Any, Any]],
    scopes: dict[tuple[int, int], str],
) -> str | None:
    if (node.start_byte, node.end_byte + 1) in scopes:
        return "impl"  # a Go method's receiver
    own = (node.start_byte, node.end_byte)
    current = node.parent
    while current is not None:
        key = (current.start_byte, current.end_byte)
        if key == own:
            pass  # a wrapper with the same span is the node itself
        elif key in defs:
            return defs[key][0]
        if key in scopes:
            return "impl"
        current = current.parent
    return None


def _is_lambda(node: Any) -> bool:
    """True for a Python assignment (or its statement) whose value is a lambda, or a JS/TS
    declarator whose value is a function."""
    if node.type == "variable_declarator":
        value = node.child_by_field_name("value")
        return value is not None and value.type in JS_FUNCTIONS
    if node.type == "expression_statement" and node.named_child_count:
        node = node.named_children[0]
    right = node.child_by_field_name("right") if node.type == "assignment" else None
    return right is not None and right.type == "lambda"


def _is_member(name_node: Any) -> bool:
    """True when the name is accessed on something (`x.name`, `x->name`, `A::name`)."""
    parent = name_node.parent
    if parent is not None and parent.type == "token_tree":  # inside a Rust macro call
        prev = name_node.prev_sibling
        return prev is not None and prev.type in (".", "::")
    if parent is None or parent.type not in MEMBER_PARENTS:
        return False
    if parent.type in ("call", "method_invocation"):
        owner = parent.child_by_field_name("receiver") or parent.child_by_field_name("object")
        return owner is not None and owner.start_byte != name_node.start_byte
    return bool(parent.start_byte != name_node.start_byte)


@functools.cache
def _python_query(ts: Any, lang: Any) -> Any:
    return ts.Query(lang, ASSIGNMENTS + BINDINGS)


def _python_names(
    ts: Any, lang: Any, tree: Any
) -> tuple[list[tuple[Any, Any]], list[tuple[str, Any]]]:
    """One pass over a Python tree: each `name = value` assignment (`_constructed`), and each
    name a scope binds or declares `global` ("bind" or "global", `_scope_bindings`)."""
    assigned: list[tuple[Any, Any]] = []
    bindings: list[tuple[str, Any]] = []
    for _index, match in ts.QueryCursor(_python_query(ts, lang)).matches(tree.root_node):
        if "var" in match:  # also a binding of the name
            assigned.append((match["var"][0], match["value"][0]))
            bindings.append(("bind", match["var"][0]))
        for capture in ("bind", "global"):
            if capture in match:
                bindings.append((capture, match[capture][0]))
    return assigned, bindings


@functools.cache
def _js_query(ts: Any, lang: Any) -> Any:
    return ts.Query(lang, JS_ASSIGNMENTS)


def _js_assigned(ts: Any, lang: Any, tree: Any) -> list[tuple[Any, Any]]:
    """Each JavaScript/TypeScript `name = value` (a declarator's or an assignment's)."""
    return [
        (match["var"][0], match["value"][0])
        for _index, match in ts.QueryCursor(_js_query(ts, lang)).matches(tree.root_node)
    ]


def _instance_of(value: Any) -> str:
    """The class a value constructs: Python's `Ledger()` / `gs.Square(2)`, JavaScript's and
    TypeScript's `new Dog()` / `new ns.Dog<T>()`; else ""."""
    if value.type == "call":
        fn = value.child_by_field_name("function")
        if fn is not None and fn.type == "attribute":
            fn = fn.child_by_field_name("attribute")
    elif value.type == "new_expression":
        fn = value.child_by_field_name("constructor")
        if fn is not None and fn.type == "member_expression":
            fn = fn.child_by_field_name("property")
    else:
        return ""
    return _text(fn) if fn is not None and fn.type in INSTANCE_NAMES else ""


#: the node a constructed class's name is (`Ledger` in `Ledger()`, `Dog` in `new ns.Dog()`)
INSTANCE_NAMES = frozenset({"identifier", "property_identifier"})


def _untyped(_name_node: Any, _owner: str) -> str:
    return ""


def _assignments(assigned: list[tuple[Any, Any]]) -> list[tuple[str, Any]]:
    """A JavaScript/TypeScript `d = value` (no declaration) as a binding of `d` where it is."""
    return [("bind", var) for var, _value in assigned if var.parent.type == "assignment_expression"]


def _instances(
    assigned: list[tuple[Any, Any]],
    bindings: list[tuple[str, Any]],
    uses: _Uses,
    top: Container[tuple[int, int]],
) -> Callable[[Any, str], str]:
    """The class a member's receiver is an instance of, for a name that the scope binding it
    (the innermost one around the use, as `_binder` finds it; else the module) binds only ever
    to one class's instance: Python's `ledger = Ledger()` / `s = gs.Square(2)`, JavaScript's and
    TypeScript's `const d = new Dog()` (`ledger.add` is then `Ledger`'s `add`), also a
    module-level one in the functions that use it. A name that scope binds any other way too (a
    parameter, `d = make()`, a `for`) is left untyped, whatever the module binds it to."""
    made = {var.start_byte: _instance_of(value) for var, value in assigned}
    names = {
        bytes(var.text or b"") for var, _value in assigned if made[var.start_byte][:1].isupper()
    }
    if not names:
        return _untyped
    Typed = dict[tuple[tuple[int, int] | None, str], str]
    known: list[tuple[Typed, dict[tuple[int, int], Bound]]] = []

    def scopes() -> tuple[Typed, dict[tuple[int, int], Bound]]:
        """What each scope binds the names to (asked for at the first use of one of them)."""
        if known:
            return known[0]
        typed: Typed = {}
        mine = [(capture, node) for capture, node in bindings if node.text in names]
        for capture, node in mine:
            if capture != "bind":
                continue
            at = None if (node.start_byte, node.end_byte) in top else _bound_in(node, uses)
            key = (None if at is None else (at.start_byte, at.end_byte), _text(node))
            cls = made.get(node.start_byte, "")
            typed[key] = cls if cls[:1].isupper() and typed.get(key, cls) == cls else "?"
        known.append((typed, _scope_bindings(mine, names, uses, top)))
        return known[0]

    def instance(name_node: Any, owner: str) -> str:
        if owner.encode() not in names:
            return ""
        receiver = name_node.parent.child_by_field_name("object")
        if receiver is None or receiver.type != "identifier" or _text(receiver) != owner:
            return ""
        typed, bound = scopes()
        found = _binder(receiver, owner, bound, uses)
        key = (None if found is None else (found[0].start_byte, found[0].end_byte), owner)
        cls = typed.get(key, "")
        return "" if cls == "?" else cls

    return instance


#: Python nodes that open a scope of names
PY_SCOPES = frozenset(
    {"function_definition", "lambda", "class_definition", "list_comprehension",
     "set_comprehension", "dictionary_comprehension", "generator_expression"}
)  # fmt: skip
#: where a Python `:=` binds: the nearest of these (a comprehension's is the scope around it)
PY_NOT_COMPREHENSIONS = frozenset({"function_definition", "lambda", "class_definition"})
#: a Python identifier under these parents (in that field, when one is named) binds or names,
#: it does not read: a parameter, a keyword argument's name, an assignment's target, ...
PY_NOT_READS: dict[str, str | None] = {
    "parameters": None, "lambda_parameters": None, "default_parameter": "name",
    "typed_parameter": None, "typed_default_parameter": "name", "list_splat_pattern": None,
    "dictionary_splat_pattern": None, "keyword_argument": "name", "assignment": "left",
    "pattern_list": None, "tuple_pattern": None, "list_pattern": None, "for_statement": "left",
    "for_in_clause": "left", "as_pattern_target": None, "named_expression": "name",
    "function_definition": "name", "class_definition": "name", "global_statement": None,
    "nonlocal_statement": None, "keyword_pattern": None, "splat_pattern": None,
    "delete_statement": None,
}  # fmt: skip
#: Python `case` patterns where a dotted name is a value (`Color.RED`), a lone name a capture
PATTERNS = frozenset({"case_pattern", "union_pattern", "keyword_pattern"})


#: JavaScript/TypeScript functions: a `var` binds in the nearest one, a `let`/`const` in its block
JS_FUNCTIONS_SCOPES = frozenset(
    {"function_declaration", "function_expression", "arrow_function", "method_definition",
     "generator_function_declaration", "generator_function", "function"}
)  # fmt: skip
JS_SCOPES = JS_FUNCTIONS_SCOPES | {
    "statement_block", "for_statement", "for_in_statement", "catch_clause", "switch_body",
    "enum_body",  # a TypeScript enum's members are names inside it: `enum E { a = 1, b = a }`
}  # fmt: skip
JS_NOT_READS: dict[str, str | None] = {
    "variable_declarator": "name", "formal_parameters": None, "required_parameter": "pattern",
    "optional_parameter": "pattern", "assignment_pattern": "left", "rest_pattern": None,
    "array_pattern": None, "pair_pattern": "value", "arrow_function": "parameter",
    "function_declaration": "name", "function_expression": "name",
    "generator_function_declaration": "name", "class_declaration": "name",
    "catch_clause": "parameter", "for_in_statement": "left", "assignment_expression": "left",
    "labeled_statement": "label", "index_signature": "name",
}  # fmt: skip


class _Uses(NamedTuple):
    """How a language's reads of module names are told from its bindings (`_value_uses`)."""

    scopes: frozenset[str]
    not_reads: dict[str, str | None]
    #: node types a read may be (`{ config }` in a JavaScript object reads `config`)
    reads: frozenset[str]
    #: definitions whose `name` binds in the scope around them
    named_outside: frozenset[str]
    #: Python: a class body's names reach no further than its own statements
    class_body: str = ""


USES = {
    "python": _Uses(
        PY_SCOPES, PY_NOT_READS, frozenset({"identifier"}),
        frozenset({"function_definition", "class_definition"}), "class_definition",
    ),
    **dict.fromkeys(
        ("javascript", "typescript", "tsx"),
        _Uses(
            JS_SCOPES, JS_NOT_READS, frozenset({"identifier", "shorthand_property_identifier"}),
            frozenset({"function_declaration", "generator_function_declaration",
                       "class_declaration"}),
        ),
    ),
}  # fmt: skip


def _value_uses(
    tree: Any,
    source: bytes,
    facts: FileFacts,
    def_names: set[tuple[int, int]],
    refs: list[tuple[str, Any, Any]],
    bindings: Callable[[], list[tuple[str, Any]]],
    uses: _Uses,
    top: set[tuple[int, int]],
) -> list[tuple[str, Any, Any]]:
    """Reads of a name this module defines at its top level (`registry[x]`, `logger.info(...)`,
    a function passed as a value) or imports by name (`from m import settings`, `import {
    config } from './c'`), as "use" references; a read inside a scope that binds the same name
    itself (a parameter, a local assignment without `global`, a comprehension's variable, a
    block's `let`) is that scope's own and left out, as are names already referenced (a call)
    and CONSTANT_NAMES (the tags query's). `bindings`: the names each scope binds, asked for
    only when there is a read to place."""
    names = {s.name for s in facts.symbols if s.qualname == s.name}
    names.update(i.alias or i.name for i in facts.imports if i.name != "*")
    names = {n for n in names if n.isidentifier() and not _CONSTANT.fullmatch(n)}
    if not names:
        return []
    taken = {name_node.start_byte for _kind, _node, name_node in refs}
    root = tree.root_node
    found: list[Any] = []
    bound_somewhere: set[str] = set()  # names some scope may bind: only those are looked up
    for name, start, end in _occurrences(source, names):
        if start in taken:
            continue
        if (start, end) in def_names:
            if (start, end) not in top:
                bound_somewhere.add(name)  # a nested definition of the same name
            continue
        node = root.descendant_for_byte_range(start, end)
        if node is None or (node.start_byte, node.end_byte) != (start, end):
            continue  # part of a longer token, a string's or a comment's
        if node.type not in uses.reads:
            if node.type in BINDABLE or (node.parent and node.parent.type in ENUM_MEMBERS):
                bound_somewhere.add(name)  # `const { config } = …`, `enum E { config }`
            continue
        if not _read(node, uses.not_reads) or _binds_too(node):
            bound_somewhere.add(name)  # a parameter, an assignment, `global`, ...
            if not _read(node, uses.not_reads):
                continue
        if _is_member(node):
            continue
        if _in_import(node) and not _local_export(node):
            if not _top_import(node):
                bound_somewhere.add(name)  # imported inside a function: its own
            continue
        found.append(node)
    if not found:
        return []
    texts = [_text(node) for node in found]
    shadowable = bound_somewhere.intersection(texts)
    bound: dict[tuple[int, int], Bound] = {}  # nothing shadows the others
    if shadowable:
        bound = _scope_bindings(bindings(), {n.encode() for n in shadowable}, uses, top)
    out: list[tuple[str, Any, Any]] = []
    for node, name in zip(found, texts, strict=True):
        if name not in shadowable:
            out.append(("use", node, node))
            continue
        if _binder(node, name, bound, uses) is None:
            out.append(("use", node, node))
    return out


#: a scope's names: (bound there, declared `global` there, bound by a `def`/`class`/import)
Bound = tuple[set[str], set[str], set[str]]


def _binder(
    node: Any, name: str, bound: dict[tuple[int, int], Bound], uses: _Uses
) -> tuple[Any, Bound] | None:
    """The innermost scope around `node` that binds `name` itself, with its names, or None when
    the name read there is the module's."""
    child, scope = node, node.parent
    first = True  # a class body's names reach no further than its own statements
    while scope is not None:
        if scope.type in uses.scopes and not _evaluated_outside(scope, child, node):
            names = bound.get((scope.start_byte, scope.end_byte))
            if names is not None:
                if name in names[1]:
                    return None  # `global name`: the module's, whatever the scopes around bind
                if name in names[0] and (first or scope.type != uses.class_body):
                    return scope, names
            first = False
        child, scope = scope, scope.parent
    return None


def _local_calls(
    refs: list[tuple[str, Any, Any]],
    bindings: Callable[[], list[tuple[str, Any]]],
    uses: _Uses,
    top: set[tuple[int, int]],
    defs: set[tuple[int, int]],
    nested: dict[str, list[int]],
) -> set[int]:
    """The start bytes of bare references (a call `scan_once(s, 0)`) to a name the scope they
    are in binds as a value (a parameter, a local variable): no definition of the map is meant.
    A name a scope binds by a definition (a nested `def`, `const format = (n) => …`) or an
    import is left to resolution, and so is a name that scope also defines (`let res; res = v =>
    cb(v)`: the definition is the assignment)."""
    bare = [(name_node, bytes(name_node.text or b"")) for _k, _n, name_node in refs]
    if not bare:
        return set()
    bound = _scope_bindings(bindings(), {name for _n, name in bare}, uses, top, defs)
    anywhere = {name.encode() for own, _g, _n in bound.values() for name in own}
    out: set[int] = set()
    for name_node, text in bare:  # only a name some scope binds is looked up
        if text not in anywhere or _is_member(name_node):
            continue
        name = text.decode()
        found = _binder(name_node, name, bound, uses)
        if found is None or name in found[1][2]:
            continue
        scope = found[0]
        if not any(scope.start_byte <= at < scope.end_byte for at in nested.get(name, ())):
            out.add(name_node.start_byte)
    return out


_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")
#: the fields of a Python scope's node that the scope around it evaluates
OUTSIDE_FIELDS = {
    "function_definition": ("parameters", "return_type"), "lambda": ("parameters",),
    "class_definition": ("superclasses",),
}  # fmt: skip


def _evaluated_outside(scope: Any, child: Any, node: Any) -> bool:
    """True when `node`, under `scope` through its child `child`, is read in the scope around:
    a Python parameter's default or annotation (`def copy(x, deepcopy=deepcopy)`), a return
    annotation, a class's bases, a comprehension's first iterable (`[f(v) for v in values]`)."""
    fields = OUTSIDE_FIELDS.get(scope.type)
    if fields is not None:
        return any(scope.child_by_field_name(field) == child for field in fields)
    if child.type != "for_in_clause" or scope.type not in PY_SCOPES:
        return False
    first = next(c for c in scope.named_children if c.type == "for_in_clause")
    right = child.child_by_field_name("right")
    return first == child and right is not None and node.start_byte >= right.start_byte


#: above this many names times source bytes, `_occurrences` scans the words once instead of
#: looking for each name (a minified bundle: thousands of names on one long line)
SCAN_WORDS_AT = 50_000_000
_WORD_RUN = re.compile(rb"[A-Za-z0-9_$]+")


def _occurrences(source: bytes, names: set[str]) -> Iterator[tuple[str, int, int]]:
    """The byte spans where one of `names` stands as a whole word not after one dot (a parse
    node then tells an identifier from a string's or a comment's word; a spread `...name`
    reads it). A name of one or two letters is searched for by a regular expression that
    rejects what follows it (a minified file's `e` would stop a `find` at every letter e); a
    longer one by `find` (compiling a pattern per name cost more than its false starts). Many
    names in a large file (a minified bundle) are found in one pass over its words instead,
    the same spans (an ASCII name is a whole run of `[A-Za-z0-9_$]`): a search per name would
    read the file once per name."""
    if len(names) * len(source) > SCAN_WORDS_AT:
        wanted = {name.encode(): name for name in names if name.isascii()}
        for hit in _WORD_RUN.finditer(source):
            name = wanted.get(hit.group())
            if name is not None:
                at = hit.start()
                if source[at - 1 : at] != b"." or source[at - 3 : at] == b"...":
                    yield name, at, hit.end()
        names = {name for name in names if not name.isascii()}
    for name in names:
        word = name.encode()
        for at, end in _starts(source, word):
            before = source[at - 1 : at] if at else b""
            if before == b"." and source[at - 3 : at] == b"...":
                before = b""  # a spread (`[...seen]`) reads the name; `x.seen` is a member
            if not (before.isalnum() or before in (b"_", b"$", b".")):
                yield name, at, end


def _starts(source: bytes, word: bytes) -> Iterator[tuple[int, int]]:
    """Where `word` occurs not followed by a letter, a digit, `_` or `$`."""
    if len(word) <= SHORT_NAME:
        for hit in _short(word).finditer(source):
            yield hit.start(), hit.end()
        return
    at = source.find(word)
    while at >= 0:
        end = at + len(word)
        after = source[end : end + 1]
        if not (after.isalnum() or after in (b"_", b"$")):
            yield at, end
        at = source.find(word, end)


#: names this long or shorter are found by `_short`'s pattern
SHORT_NAME = 2


@functools.lru_cache(maxsize=1024)
def _short(word: bytes) -> re.Pattern[bytes]:
    """`word` not followed by a letter, a digit, `_` or `$` (what comes before is checked by
    the caller: a pattern that begins with a look-behind is not searched for as a literal)."""
    return re.compile(re.escape(word) + rb"(?![\w$])")


#: the node types a binding of a name may have besides `identifier`
BINDABLE = frozenset({"identifier", "shorthand_property_identifier_pattern"})
#: the parents of a TypeScript enum member's name
ENUM_MEMBERS = frozenset({"enum_body", "enum_assignment"})


def _binds_too(node: Any) -> bool:
    """A Python `name += …`: it reads the name and makes it the function's own."""
    parent = node.parent
    return (
        parent is not None
        and parent.type == "augmented_assignment"
        and parent.child_by_field_name("left") == node
    )


def _local_export(node: Any) -> bool:
    """The name `export { config, start as begin }` exports from this module (a read of it);
    `export { x } from './m'` names another module's."""
    specifier = node.parent
    if specifier is None or specifier.type != "export_specifier":
        return False
    statement = specifier.parent.parent if specifier.parent is not None else None
    return (
        specifier.child_by_field_name("name") == node
        and statement is not None
        and statement.type == "export_statement"
        and statement.child_by_field_name("source") is None
    )


def _top_import(node: Any) -> bool:
    """An import statement directly in the module (not in a function, a class or a `try`)."""
    statement = node.parent
    while statement is not None and statement.type not in (
        "import_statement", "import_from_statement"
    ):  # fmt: skip
        statement = statement.parent
    parent = statement.parent if statement is not None else None
    return parent is not None and parent.type in ("module", "program")


def _read(node: Any, not_reads: dict[str, str | None]) -> bool:
    """False for an identifier that binds or names rather than reads (`PY_NOT_READS`,
    `JS_NOT_READS`: under that parent, in that field when one is named)."""
    parent = node.parent
    if parent is not None and parent.type in ("dotted_name", "as_pattern"):
        return _pattern_read(node, parent)
    if parent is not None and parent.type in JSX_ELEMENTS:
        return _jsx_read(node, parent)
    if parent is not None and parent.type in ("tuple", "list"):  # `with x as (a, b)` binds
        return parent.parent is None or parent.parent.type not in TUPLE_TARGETS
    if parent is not None and parent.type == "expression_list":  # `del a, b` reads neither
        return parent.parent is None or parent.parent.type != "delete_statement"
    if parent is None or parent.type not in not_reads:
        return True
    field = not_reads[parent.type]
    if field is None:
        return False
    target = parent.child_by_field_name(field)  # `registry[key] = …` assigns to a subscript
    return target is None or (target.start_byte, target.end_byte) != (
        node.start_byte,
        node.end_byte,
    )


#: the JSX nodes that name an element (a `member_expression` for `<ui.Button>`)
JSX_ELEMENTS = frozenset(
    {"jsx_opening_element", "jsx_self_closing_element", "jsx_closing_element", "member_expression"}
)


def _jsx_read(node: Any, parent: Any) -> bool:
    """A JSX element's name reads a component (`<Button>`, `<ui.Button>`) where it opens; a
    closing tag repeats it, and a lower-case name is the host's element (`<input>`), not the
    module's `input`."""
    element = parent
    if parent.type == "member_expression":
        element = parent.parent
        if element is None or element.type not in JSX_ELEMENTS or element.type == parent.type:
            return True  # `config.port`: an ordinary member access reads `config`
    if element.child_by_field_name("name") != (node if element is parent else parent):
        return True  # `<Comp>{config}</Comp>`: not the element's name
    if element.type == "jsx_closing_element":
        return False
    return element is not parent or _text(node)[:1].isupper()


#: the Python statements whose tuple names what they bind or delete (`del (a, b)`)
TUPLE_TARGETS = frozenset({"as_pattern_target", "delete_statement"})


def _pattern_read(node: Any, parent: Any) -> bool:
    """A Python name in a dotted name or an `as`: an import's names and a `case` pattern's
    captures (`case [x, *rest]`, `case str() as text`, `case Point(x=px)`) bind, the class of a
    class pattern (`case Point(...)`) and a value pattern's first name (`case Color.RED`) are
    read; `with lock as held` reads `lock`."""
    pattern = parent.parent
    if parent.type == "as_pattern":
        return pattern is None or pattern.type != "case_pattern" or node != parent.children[-1]
    if pattern is None or node != parent.children[0]:
        return False
    if pattern.type == "class_pattern":
        return True
    return pattern.type in PATTERNS and parent.named_child_count > 1


def _scope_bindings(
    bindings: list[tuple[str, Any]],
    names: Container[bytes],
    uses: _Uses,
    top: Container[tuple[int, int]],
    defs: Container[tuple[int, int]] = (),
) -> dict[tuple[int, int], Bound]:
    """Each scope's (span) `names` it binds, those it declares `global` (Python) and those it
    binds by a definition or an import. A function's or class's own name binds in the scope
    around it; a JavaScript `var` in the function around it."""
    out: dict[tuple[int, int], Bound] = {}
    for capture, node in bindings:
        if node.text not in names or (node.start_byte, node.end_byte) in top:
            continue  # the usual: a local of a name the module does not define (or the
            # definition itself, inside an anonymous wrapper: `(function () { function f() …`)
        scope = _bound_in(node, uses)
        if scope is None:
            continue  # the module's own: what a read refers to
        own, outer, named = out.setdefault(
            (scope.start_byte, scope.end_byte), (set(), set(), set())
        )
        (own if capture == "bind" else outer).add(_text(node))
        if (node.parent is not None and node.parent.type in NAMING) or (
            node.start_byte,
            node.end_byte,
        ) in defs:
            named.add(_text(node))
    return out


def _bound_in(node: Any, uses: _Uses) -> Any:
    """The scope a binding of a name binds it in (a function's or class's own name: the scope
    around it; a JavaScript `var`: the function around it), or None: the module, or no binding
    at all (`for (key in o)` assigns a name declared elsewhere)."""
    scope = node.parent
    if (
        scope is not None
        and scope.type in uses.named_outside
        and scope.child_by_field_name("name") == node
    ):
        scope = scope.parent
    wanted = uses.scopes
    if scope is not None and scope.type == "named_expression":
        wanted = PY_NOT_COMPREHENSIONS  # `[y for x in xs if (y := f(x))]` binds around
    if scope is not None and scope.type == "for_in_statement":
        kind = scope.child_by_field_name("kind")
        if kind is None:
            return None  # `for (key in o)` assigns a name declared elsewhere
        if kind.type == "var":
            wanted = JS_FUNCTIONS_SCOPES  # `for (var key in o)`: hoisted to the function
    if scope is not None and scope.type == "variable_declarator":
        declaration = scope.parent
        if declaration is not None and declaration.type == "variable_declaration":
            wanted = JS_FUNCTIONS_SCOPES  # `var`: hoisted to the function
    while scope is not None and scope.type not in wanted:
        scope = scope.parent
    return scope


#: the parents of a name bound by a definition or an import (resolution finds what it means)
NAMING = frozenset(
    {"function_definition", "class_definition", "aliased_import", "dotted_name",
     "function_declaration", "generator_function_declaration", "class_declaration",
     "function_expression"}
)  # fmt: skip


def _python_owner(owner: Any) -> str:
    """`super` for `super().name` / `super(C, self).name` (a base's, never C's own); the dotted
    text of `logging.FileHandler.emit` / `typer.main.get_command`; else ""."""
    if owner.type == "call":
        called = owner.child_by_field_name("function")
        return "super" if called is not None and _text(called) == "super" else ""
    text = _text(owner)
    return text if DOTTED.fullmatch(text) else ""


def _owner(name_node: Any) -> str:
    """The plain name a member (`_is_member`) is accessed on (`st` in `st.Total`), else ""."""
    parent = name_node.parent
    if parent is None:
        return ""
    if parent.type == "token_tree":
        before = name_node.prev_sibling.prev_sibling
        return _text(before) if before is not None and before.type in OWNER_TYPES else ""
    owner = (
        parent.child_by_field_name("object")
        or parent.child_by_field_name("operand")
        or parent.child_by_field_name("receiver")
        or parent.child_by_field_name("value")
        or parent.child_by_field_name("path")
        or parent.child_by_field_name("scope")
        or parent.named_children[0]
    )
    if owner is not None and owner.type in ("call", "attribute"):
        return _python_owner(owner)
    if owner is None or owner.start_byte == name_node.start_byte or owner.type not in OWNER_TYPES:
        return ""
    return _text(owner)


def _text(node: Any) -> str:
    return bytes(node.text or b"").decode("utf-8", "replace")


#: a line longer than this is decoded from its first bytes only, when they hold the 200
#: characters kept (a minified file's one line is a definition's line thousands of times)
LONG_LINE = 4096


def _line(lines: list[bytes], row: int) -> str:
    if row >= len(lines):
        return ""
    line = lines[row]
    if len(line) > LONG_LINE:
        head = line.lstrip()[:LONG_LINE].decode("utf-8", "replace").strip()
        if len(head) > 200:
            return head[:200]
    return line.decode("utf-8", "replace").strip()[:200]
