"""What one source file contributes to the map: definitions, references and imports."""

from __future__ import annotations

from dataclasses import dataclass, field

#: every kind of definition the extractor gives (the tags queries' `@definition.KIND`s);
#: `code symbol --kind` takes one of these
KINDS = (
    "class", "constant", "enum", "field", "function", "interface", "macro", "method", "module",
    "namespace", "package", "property", "prototype", "struct", "type", "variable",
)  # fmt: skip
#: definition kinds whose functions are methods
CONTAINERS = frozenset({"class", "interface", "struct", "trait", "impl", "enum", "object"})


@dataclass(frozen=True)
class Symbol:
    """A definition: `qualname` is the dotted path of enclosing definitions plus `name`."""

    name: str
    qualname: str
    kind: str
    line: int
    end_line: int
    signature: str


@dataclass(frozen=True)
class Ref:
    """A use of `name` at `line`; `member` for `x.name`; `scope` is the enclosing qualname."""

    name: str
    line: int
    col: int
    kind: str
    member: bool
    scope: str
    #: for `x.name`: `x` when it is a plain name (a module alias, a variable), else ""
    owner: str = ""


@dataclass(frozen=True)
class Import:
    """`module` imported at `line`; `name` when one name is taken from it, `alias` when renamed."""

    module: str
    line: int
    name: str = ""
    alias: str = ""


@dataclass
class FileFacts:
    """Everything extracted from one file."""

    language: str
    symbols: list[Symbol] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
