"""The one module that reads YAML.

Safe constructors only, duplicate keys rejected, anchors and aliases rejected, dates kept as
strings, and every mapping/list remembers the line of each of its items so that errors can point
at `file:line`. Uses libyaml (the C loader) when present.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml

from orkestra.core.errors import InputError
from orkestra.core.textfile import MAX_BYTES as MAX_BYTES
from orkestra.core.textfile import read_text as read_text

#: mappings and lists nested deeper than this are refused (at the line where it happens): no
#: registry needs it, and the reader recurses once per level
MAX_DEPTH = 64  # as core.jsonio

try:
    _Base: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Base = yaml.SafeLoader


class LineDict(dict[Any, Any]):
    """A mapping that knows its own line and the line of each key (1-based)."""

    __slots__ = ("key_lines", "line")

    def __init__(self, line: int = 0) -> None:
        super().__init__()
        self.line = line
        self.key_lines: dict[Any, int] = {}


class LineList(list[Any]):
    """A sequence that knows its own line and the line of each item (1-based)."""

    __slots__ = ("item_lines", "line")

    def __init__(self, line: int = 0) -> None:
        super().__init__()
        self.line = line
        self.item_lines: list[int] = []


class _FastLoader(_Base):  # type: ignore[misc]
    """libyaml's loader with a cheaper tag resolver (same answers).

    libyaml calls back into Python's `resolve` for every scalar; most registry scalars start with
    a letter no implicit type (bool, int, float, null, timestamp) can start with, so they are
    strings without trying any pattern. Path resolvers do not exist in safe loading.
    """

    _starts: frozenset[str | None] = frozenset(yaml.SafeLoader.yaml_implicit_resolvers)
    #: set by `_build` when it made a value a JSON round trip would change (a key that is not
    #: a string, an infinite or NaN float): the parse cache stores plain data only
    impure = False

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and (
            not implicit[0] or (value and value[0] not in self._starts)
        ):
            return _STR
        return super().resolve(kind, value, implicit)

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        return None

    def ascend_resolver(self) -> None:
        return None


_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_SCALARS: dict[str, Any] = {
    "tag:yaml.org,2002:null": lambda c, n: None,
    "tag:yaml.org,2002:bool": yaml.constructor.SafeConstructor.construct_yaml_bool,
    "tag:yaml.org,2002:int": yaml.constructor.SafeConstructor.construct_yaml_int,
    "tag:yaml.org,2002:float": yaml.constructor.SafeConstructor.construct_yaml_float,
    # Dates stay strings ("2026-01-26"): models validate them, YAML never makes them objects.
    "tag:yaml.org,2002:timestamp": lambda c, n: n.value,
}


class _Problem(Exception):
    def __init__(self, message: str, node: yaml.Node) -> None:
        super().__init__(message)
        self.message = message
        self.line = node.start_mark.line + 1


_NUL = "a NUL character (\\0) is not allowed in YAML text; remove it"


def _build(loader: Any, node: yaml.Node, depth: int = 0) -> Any:
    """Nodes to plain data with line-aware containers.

    A small dedicated builder instead of PyYAML's constructor: only the safe scalar types, no
    object tags, no merge keys, duplicate keys rejected, no NUL in text, at most MAX_DEPTH
    levels; and about twice as fast.
    """
    tag = node.tag
    if tag == _STR and isinstance(node, yaml.ScalarNode):
        if "\x00" in node.value:
            raise _Problem(_NUL, node)
        return node.value
    if depth >= MAX_DEPTH and not isinstance(node, yaml.ScalarNode):
        raise _Problem(f"YAML nested deeper than {MAX_DEPTH} levels; flatten the structure", node)
    if tag == _MAP and isinstance(node, yaml.MappingNode):
        data = LineDict(node.start_mark.line + 1)
        lines = data.key_lines
        for key_node, value_node in node.value:
            if key_node.tag == _STR:
                key = key_node.value
                if "\x00" in key:
                    raise _Problem(_NUL, key_node)
            elif (
                isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge"
            ):
                key = _build(loader, key_node)
                if type(key) is not str:
                    loader.impure = True
            else:
                raise _Problem(
                    "mapping keys must be plain scalars (no merge keys, no lists)", key_node
                )
            if key in data:
                raise _Problem(
                    f"duplicate key {key!r} (first defined on line {lines[key]}); "
                    "YAML keeps only the last one, so remove or rename one of them",
                    key_node,
                )
            data[key] = _build(loader, value_node, depth + 1)
            lines[key] = key_node.start_mark.line + 1
        return data
    if tag == _SEQ and isinstance(node, yaml.SequenceNode):
        seq = LineList(node.start_mark.line + 1)
        seq.extend(_build(loader, child, depth + 1) for child in node.value)
        seq.item_lines = [child.start_mark.line + 1 for child in node.value]
        return seq
    construct = _SCALARS.get(tag)
    if tag in (_STR, _MAP, _SEQ) or (
        construct is not None and not isinstance(node, yaml.ScalarNode)
    ):
        raise _Problem(
            f"the tag '{tag}' does not fit this {_KIND[type(node)]}; remove the tag", node
        )
    if construct is None:
        raise _Problem(
            f"could not determine a constructor for the tag '{tag}' "
            "(only plain YAML is allowed: remove the tag)",
            node,
        )
    try:
        value = construct(loader, node)
    except (ValueError, TypeError, KeyError):  # an explicit tag on a value it cannot read
        raise _Problem(_unreadable(node, tag), node) from None
    if type(value) is float and not math.isfinite(value):
        loader.impure = True
    return value


#: how much of an unreadable value a message shows
_SHOWN = 40


def _unreadable(node: yaml.Node, tag: str) -> str:
    """Why a scalar cannot be read as `tag`, the value shortened: a plain number too long for
    Python's int (over 4300 digits) has no tag to remove, so the advice is to quote it."""
    value = str(node.value)
    shown = repr(value if len(value) <= _SHOWN else f"{value[:_SHOWN]}...")
    if tag == "tag:yaml.org,2002:int" and len(value) > 4000:
        return (
            f"the number {shown} has {len(value)} digits, more than can be read; quote it "
            '("...") to keep it as text'
        )
    return f"{shown} is not a valid '{tag}'; remove the tag"


_KIND = {yaml.ScalarNode: "value", yaml.SequenceNode: "list", yaml.MappingNode: "mapping"}


# Cheap hint: only a file containing `&x` or `*x` in a node position is re-parsed for events.
_ANCHOR_HINT = re.compile(r"(?:^|[\s\[{,:?-])[&*][^\s,\[\]{}]", re.MULTILINE)


def _check_anchors(text: str, name: str) -> None:
    if ("&" not in text and "*" not in text) or not _ANCHOR_HINT.search(text):
        return
    try:
        for event in yaml.parse(text, Loader=_Base):
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                kind = "alias" if isinstance(event, yaml.AliasEvent) else "anchor"
                raise InputError(
                    f"YAML {kind} '{anchor}' is not allowed in registries; write the value out",
                    file=name,
                    line=event.start_mark.line + 1 if event.start_mark else None,
                )
    except yaml.YAMLError:
        return  # the real load reports the syntax error with its line


def _deep_line(text: str) -> int | None:
    """The line where nesting first goes deeper than MAX_DEPTH (the event parser is iterative)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Base):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH and event.start_mark is not None:
                    return int(event.start_mark.line) + 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return int(mark.line) + 1 if mark is not None else None
    return None


#: what to do about a YAML syntax error (PyYAML says only what it expected)
SYNTAX_FIX = (
    "fix the YAML at this line or the one above: an unclosed quote or bracket, the "
    "indentation, or a value holding ': ' or ' #' that needs quotes"
)


def loads(text: str, name: str = "<string>") -> Any:
    """Parse one YAML document from text; raises InputError with file:line."""
    return _document(text, name)[0]


def _document(text: str, name: str) -> tuple[Any, bool]:
    """(the document's data, True when that data survives a JSON round trip unchanged)."""
    _check_anchors(text, name)
    loader = _FastLoader(text)
    try:
        node = loader.get_single_node()
        return (None if node is None else _build(loader, node)), not loader.impure
    except _Problem as exc:
        raise InputError(exc.message, file=name, line=exc.line) from None
    except RecursionError:  # only where the composer itself recurses (no libyaml)
        raise InputError(
            "YAML nested too deeply to read; flatten the structure",
            file=name,
            line=_deep_line(text),
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or "invalid YAML"
        lines = text.splitlines()
        if line is not None and 0 < line <= len(lines) and "\t" in lines[line - 1]:
            problem += " (YAML forbids tabs for indentation; use spaces)"
        if exc.context:
            problem = f"{exc.context}: {problem}"
        problem += f"; {SYNTAX_FIX}"
        raise InputError(problem, file=name, line=line) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", file=name) from None
    finally:
        loader.dispose()


def load_mapping(path: Path, *, display: str | None = None, allow_empty: bool = False) -> LineDict:
    """Load a YAML file whose root must be a mapping."""
    name = display or str(path)
    return parse_mapping(read_text(path, display=name), name, allow_empty=allow_empty)


def parse_mapping(text: str, name: str, *, allow_empty: bool = False) -> LineDict:
    """Parse YAML text whose root must be a mapping (`name` locates errors)."""
    return parse_document(text, name, allow_empty=allow_empty)[0]


def parse_document(text: str, name: str, *, allow_empty: bool = False) -> tuple[LineDict, bool]:
    """`parse_mapping`, and whether its data is plain: string keys and finite numbers only, so
    that a JSON round trip gives it back unchanged (what the parse cache stores)."""
    data, plain = _document(text, name)
    if data is None:
        if allow_empty:
            return LineDict(1), True
        raise InputError("file is empty; expected a YAML mapping", file=name, line=1)
    if not isinstance(data, LineDict):
        kind = "list" if isinstance(data, list) else f"plain value ({type(data).__name__})"
        raise InputError(
            f"the document root is a {kind}; expected a mapping of keys to values",
            file=name,
            line=1,
        )
    return data, plain


def line_of(data: Any, loc: tuple[int | str, ...]) -> int | None:
    """Best line for a location path (as in Pydantic error `loc`) inside loaded data."""
    line: int | None = getattr(data, "line", None)
    node = data
    for part in loc:
        if isinstance(node, LineDict) and part in node:  # a key YAML read as 1, true, null too
            line = node.key_lines.get(part, line)
            node = node[part]
        elif isinstance(node, LineList) and isinstance(part, int) and 0 <= part < len(node):
            line = node.item_lines[part]
            node = node[part]
        else:
            break
    return line


def reads_back_plain(text: str) -> bool:
    """True when `key: <text>` reads back, under standard YAML (dates, numbers, booleans as YAML
    types), as the mapping `{key: text}`: then `text` may be written without quotes."""
    try:
        return bool(yaml.load(f"k: {text}\n", Loader=_Base) == {"k": text})
    except yaml.YAMLError:  # not even YAML: the caller quotes it, which is the answer wanted
        return False


def dumps(data: Any) -> str:
    """Deterministic block-style YAML for files Orkestra writes."""
    return yaml.dump(
        _plain(data),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # indent list items under their key


#: characters YAML reads as line breaks (PyYAML writes them raw in single quotes, and they come back
#: folded to a space) or may not hold raw: such strings are written double-quoted, escaped.
_NEEDS_ESCAPE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if _NEEDS_ESCAPE.search(value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str_presenter)
