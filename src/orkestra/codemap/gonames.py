"""Go reads of package-level names: `DefaultTimeout`, `limit`, a function passed as a value.

A Go package is its folder: a name one file reads may be defined in any other file of it, so no
file alone knows the package's names. What a file does know is which of its identifiers are its
own locals (parameters, results, receivers, `:=`, `var`/`const` in a function, `range` and `select`
variables, a type switch's variable, type parameters), which are predeclared (`len`, `nil`,
`iota`) and which are imported package names (`http` in `http.Get`). Every other identifier read
is a package-level name of the file's own package (Go has no other scope it could come from), so
it is a "use" reference, resolved by name in the file's folder (`resolve`).

A local's scope begins at the end of its declaration (`x := x + 1` reads the outer `x`; a `range`
or type switch's variable is visible in the body only) and ends with the innermost block, case or
statement around it.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterator
from typing import Any

from orkestra.codemap.facts import Import

#: Go's predeclared identifiers (the universe block), which no package defines
PREDECLARED = frozenset(
    {"true", "false", "nil", "iota", "append", "cap", "clear", "close", "complex", "copy",
     "delete", "imag", "len", "make", "max", "min", "new", "panic", "print", "println", "real",
     "recover", "any", "bool", "byte", "comparable", "complex64", "complex128", "error",
     "float32", "float64", "int", "int8", "int16", "int32", "int64", "rune", "string", "uint",
     "uint8", "uint16", "uint32", "uint64", "uintptr"}
)  # fmt: skip
#: identifiers that are never a package's name: the blank one and the predeclared ones
UNIVERSE = frozenset({b"_", *(name.encode() for name in PREDECLARED)})
#: the nodes a local declared in a statement list belongs to (its scope ends with them)
BLOCKS = frozenset({"block", "expression_case", "type_case", "default_case", "communication_case"})
#: statements whose initializer's `:=` binds for the whole statement (`if v, ok := m[k]; ok`)
HEADERS = frozenset(
    {"if_statement", "for_statement", "expression_switch_statement", "type_switch_statement"}
)
FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
#: composite literal types whose keys are values (`[]string{KindA: "a"}`, `map[K]V{key: v}`);
#: any other type's keys are a struct's field names (`Config{Timeout: timeout}`)
KEYED_BY_VALUE = frozenset({"slice_type", "array_type", "implicit_length_array_type", "map_type"})

#: the identifiers that may declare a local (`@bind`; a `range` or `select` with `=` assigns,
#: which reads), struct literal keys (`@key`) and every identifier (`@id`)
QUERY = """
(parameter_declaration name: (identifier) @name)
(variadic_parameter_declaration name: (identifier) @name)
(type_parameter_declaration name: (identifier) @name)
(var_spec name: (identifier) @name)
(const_spec (identifier) @name)
(short_var_declaration left: (expression_list (identifier) @bind))
(range_clause left: (expression_list (identifier) @bind))
(receive_statement left: (expression_list (identifier) @bind))
(type_switch_statement alias: (expression_list (identifier) @bind))
(keyed_element key: (literal_element (identifier) @key))
(identifier) @id
"""


@functools.cache
def _query(ts: Any, lang: Any) -> Any:
    return ts.Query(lang, QUERY)


def uses(
    ts: Any, lang: Any, tree: Any, imports: list[Import], defined: set[int], called: set[int]
) -> tuple[list[tuple[str, Any, Any]], set[int]]:
    """The file's reads of package-level names, as ("use", node, node), and the start bytes of
    the identifiers in `called` (already referenced: a call `f(x)`) that name a local (a
    parameter `f func()` called, `check := func…` then `check()`), which are no package's;
    `defined`: the start bytes of the names defined here."""
    captures = ts.QueryCursor(_query(ts, lang)).captures(tree.root_node)
    locals_: dict[bytes, list[tuple[int, int, int]]] = {}
    taken = set(defined)
    for capture in ("name", "bind"):
        for node in captures.get(capture, []):
            bound = _binding(node)
            if bound is not None:
                locals_.setdefault(node.text, []).append(bound)
            if bound is not None or capture == "name":
                taken.add(node.start_byte)  # a declaration (a name in a `func` type too)
    for node in captures.get("key", []):
        if _literal_type(node.parent.parent.parent) not in KEYED_BY_VALUE:
            taken.add(node.start_byte)  # `Config{Timeout: t}`: a field's name
    scopes = {text: _Spans(spans) for text, spans in locals_.items()}
    packages = {name.encode() for name in _package_names(imports)}
    out: list[tuple[str, Any, Any]] = []
    shadowed: set[int] = set()
    for node in captures.get("id", []):
        at = node.start_byte
        if at in taken:
            continue
        text = node.text
        if text in UNIVERSE:
            continue
        spans = scopes.get(text)
        if spans is not None and spans.cover(at):
            if at in called:
                shadowed.add(at)
            continue
        if at in called or (text in packages and _operand(node)):
            continue
        out.append(("use", node, node))
    return out, shadowed


class _Spans:
    """The scopes of one name's locals: (start, end) by where each becomes visible."""

    def __init__(self, spans: list[tuple[int, int, int]]) -> None:
        spans.sort(key=lambda span: span[2])
        self.visible = [span[2] for span in spans]
        self.spans = spans

    def cover(self, at: int) -> bool:
        """True when a local declared before `at` is in scope there (the nearest declaration
        before it nearly always is the one)."""
        for index in range(bisect.bisect_right(self.visible, at) - 1, -1, -1):
            start, end, _visible = self.spans[index]
            if start <= at < end:
                return True
        return False


def _package_names(imports: list[Import]) -> set[str]:
    """The names the file's imports may bind: an alias, or what `package_names` tells."""
    out: set[str] = set()
    for item in imports:
        out.update({item.alias} if item.alias else package_names(item.module))
    return out


def package_names(module: str) -> set[str]:
    """The names an import of `module` without an alias may bind: the path's last element (its
    major version suffix `/v2`, `.v3` and a `go-` prefix or `-go` suffix also tried)."""
    parts = [p for p in module.split("/") if p]
    if not parts:
        return set()
    last = parts[-1]
    if len(parts) > 1 and last[:1] == "v" and last[1:].isdigit():
        last = parts[-2]
    return {
        name.replace("-", "_").replace(".", "_")
        for name in (last, last.split(".v")[0], last.removeprefix("go-"), last.removesuffix("-go"))
    }


def _operand(node: Any) -> bool:
    parent = node.parent
    return (
        parent is not None
        and parent.type == "selector_expression"
        and (parent.child_by_field_name("operand") == node)
    )


def _binding(node: Any) -> tuple[int, int, int] | None:
    """(scope start, scope end, visible from) when `node` declares a local, else None (a read,
    or a package-level declaration, which the tags query defines)."""
    parent = node.parent
    if parent is None:
        return None
    kind = parent.type
    if kind in ("parameter_declaration", "variadic_parameter_declaration"):
        return _whole(_up(parent, FUNCTIONS))  # a parameter's name (the query's `@name`)
    if kind == "type_parameter_declaration":
        return _whole(_up(parent, FUNCTIONS | {"type_declaration"}))
    if kind in ("var_spec", "const_spec"):  # `const a, b = …`: the grammar names `a` only
        spec = parent
        scope = _up(spec, BLOCKS)
        return None if scope is None else (scope.start_byte, scope.end_byte, spec.end_byte)
    if kind != "expression_list":
        return None
    statement = parent.parent
    if statement is None:
        return None
    field = _field(statement, parent)
    kind = statement.type
    if kind == "short_var_declaration" and field == "left":
        around = statement.parent
        if around is not None and around.type == "for_clause":
            around = around.parent
        scope = around if around is not None and around.type in HEADERS else _up(statement, BLOCKS)
        return None if scope is None else (scope.start_byte, scope.end_byte, statement.end_byte)
    if kind in ("range_clause", "receive_statement") and field == "left" and _declares(statement):
        scope = statement.parent
        if kind == "receive_statement":
            scope = _up(statement, BLOCKS)
        return None if scope is None else (scope.start_byte, scope.end_byte, statement.end_byte)
    if kind == "type_switch_statement" and field == "alias":
        value = statement.child_by_field_name("value")
        visible = value.end_byte if value is not None else parent.end_byte
        return statement.start_byte, statement.end_byte, visible
    return None


def _literal_type(value: Any) -> str:
    """The node type of the type a `literal_value` is of (an elided one's from the literal
    around it: `[]S{{Name: x}}` is an `S`), or "" when it cannot be told."""
    if value is None or value.type != "literal_value":
        return ""
    written = _literal_node(value)
    if written is not None:
        return str(written.type)
    element = value.parent
    if element is None or element.type != "literal_element":
        return ""
    holder = element.parent
    if holder is not None and holder.type == "keyed_element":
        outer_value = holder.parent
        position = "key" if _field(holder, element) == "key" else "value"
    else:
        outer_value = holder
        position = "value"
    outer = _literal_node(outer_value)
    if outer is None:
        return ""
    if outer.type == "map_type":
        inner = outer.child_by_field_name(position)
    elif outer.type in ("slice_type", "array_type", "implicit_length_array_type"):
        inner = outer.child_by_field_name("element")
    else:
        return ""
    return inner.type if inner is not None else ""


def _literal_node(value: Any) -> Any:
    """The type node of the composite literal a `literal_value` is of, when written there."""
    if value is None or value.type != "literal_value":
        return None
    parent = value.parent
    if parent is not None and parent.type == "composite_literal":
        return parent.child_by_field_name("type")
    return None


def _field(parent: Any, child: Any) -> str | None:
    for index, each in enumerate(parent.children):
        if each == child:
            name: str | None = parent.field_name_for_child(index)
            return name
    return None


def _declares(statement: Any) -> bool:
    """A `range` clause or `select` receive with `:=` (not `=`, which assigns)."""
    return any(child.type == ":=" for child in _tokens(statement))


def _tokens(node: Any) -> Iterator[Any]:
    for child in node.children:
        if not child.is_named:
            yield child


def _up(node: Any, kinds: frozenset[str]) -> Any:
    current = node.parent
    while current is not None and current.type not in kinds:
        current = current.parent
    return current


def _whole(scope: Any) -> tuple[int, int, int] | None:
    return None if scope is None else (scope.start_byte, scope.end_byte, scope.start_byte)
