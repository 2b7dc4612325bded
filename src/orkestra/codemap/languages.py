"""Supported languages: file extensions, grammar wheels and tags queries (loaded lazily)."""

from __future__ import annotations

import functools
import importlib
import re
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from orkestra.core.errors import OrkestraError

INSTALL_HINT = "pip install 'orkestra[code]'"


class MissingExtra(OrkestraError):
    """The optional `code` extra (tree-sitter and its grammars) is not installed."""

    code = "missing_extra"


class Spec(NamedTuple):
    """A language: its grammar module, the factory function, file extensions, wheel queries used."""

    module: str
    factory: str
    extensions: tuple[str, ...]
    #: grammar modules whose shipped `TAGS_QUERY` is used (before our own supplement)
    tags_from: tuple[str, ...]
    #: our supplements, `queries/<name>.scm` each, in order (none named: the language's own)
    supplements: tuple[str, ...] = ()


LANGUAGES: dict[str, Spec] = {
    "python": Spec("tree_sitter_python", "language", (".py", ".pyi"), ("tree_sitter_python",)),
    "javascript": Spec(
        "tree_sitter_javascript", "language", (".js", ".jsx", ".mjs", ".cjs"),
        ("tree_sitter_javascript",),
    ),
    "typescript": Spec(
        "tree_sitter_typescript", "language_typescript", (".ts", ".mts", ".cts"),
        ("tree_sitter_javascript", "tree_sitter_typescript"),
    ),
    "tsx": Spec(
        "tree_sitter_typescript", "language_tsx", (".tsx",),
        ("tree_sitter_javascript", "tree_sitter_typescript"), ("typescript", "tsx"),
    ),
    "go": Spec("tree_sitter_go", "language", (".go",), ("tree_sitter_go",)),
    "rust": Spec("tree_sitter_rust", "language", (".rs",), ("tree_sitter_rust",)),
    "java": Spec("tree_sitter_java", "language", (".java",), ("tree_sitter_java",)),
    "c": Spec("tree_sitter_c", "language", (".c", ".h"), ("tree_sitter_c",)),
    "cpp": Spec(
        "tree_sitter_cpp", "language", (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"),
        ("tree_sitter_cpp",),
    ),
    "csharp": Spec("tree_sitter_c_sharp", "language", (".cs",), ()),
    "ruby": Spec("tree_sitter_ruby", "language", (".rb",), ("tree_sitter_ruby",)),
    "php": Spec("tree_sitter_php", "language_php", (".php",), ("tree_sitter_php",)),
    "bash": Spec("tree_sitter_bash", "language", (".sh", ".bash"), ()),
}  # fmt: skip

_BY_EXTENSION = {ext: name for name, spec in LANGUAGES.items() for ext in spec.extensions}


def language_of(path: str, data: bytes | None = None) -> str | None:
    """The language of a file by its extension, or None (text search only). A `.h` header is
    C unless its text (`data`, when given) is C++'s: a class (`class X;` too), an `enum class`,
    a namespace, a template, an access specifier, `std::`, an extensionless standard include
    (`#include <vector>`)."""
    dot = path.rfind(".")
    if dot <= path.rfind("/"):
        return None
    extension = path[dot:].lower()
    language = _BY_EXTENSION.get(extension)
    if extension == ".h" and data is not None and _cpp_header().search(data):
        return "cpp"
    return language


@functools.cache
def _cpp_header() -> re.Pattern[bytes]:
    """What only C++ says, at the start of a line (never in a `//` or `/* */` comment's text):
    C has no `class`, `namespace`, `template` nor `public:`; `std::` and `#include <vector>`
    name C++'s library."""
    return re.compile(
        rb"^[ \t]*(?:template[ \t]*<|namespace(?:[ \t]+[\w:]+)?[ \t]*\{|class[ \t]+\w+"
        rb"(?:[ \t]+final)?[ \t]*(?:[:{;]|$)|enum[ \t]+(?:class|struct)[ \t]"
        rb"|(?:public|private|protected)[ \t]*:(?!:)"
        rb"|using[ \t]+namespace\b|#[ \t]*include[ \t]*<\w+>)"
        rb"|^[^/*\n]*\bstd::",
        re.MULTILINE,
    )


def require() -> Any:
    """The `tree_sitter` module, or `MissingExtra` naming the install command."""
    try:
        return importlib.import_module("tree_sitter")
    except ImportError as exc:
        raise MissingExtra(
            f"the code map needs tree-sitter and its grammars: {INSTALL_HINT}"
        ) from exc


@functools.cache
def load(name: str) -> tuple[Any, Any]:
    """(Language, Query) for a language: the wheels' tags queries plus our supplement."""
    ts = require()
    spec = LANGUAGES[name]
    try:
        grammar = importlib.import_module(spec.module)
        language = ts.Language(getattr(grammar, spec.factory)())
        shipped = [importlib.import_module(m).TAGS_QUERY for m in spec.tags_from]
    except ImportError as exc:
        raise MissingExtra(f"the {name} grammar is not installed: {INSTALL_HINT}") from exc
    folder = resources.files("orkestra.codemap").joinpath("queries")
    own = [folder.joinpath(f"{q}.scm").read_text("utf-8") for q in spec.supplements or (name,)]
    return language, ts.Query(language, "\n".join([*shipped, *own]))


@functools.cache
def extractor_stamp() -> str:
    """What the facts stored in a map depend on besides the files: Orkestra's version, the code
    map's own code and tags queries, and the installed tree-sitter and grammar packages (their
    files' size and time; nothing is imported). A map stored under another stamp is rebuilt:
    an upgrade that extracts differently must not leave old facts for unchanged files."""
    import importlib.util

    from orkestra import __version__
    from orkestra.core.digest import blake2b  # no OpenSSL: `system status` checks the stamp
    from orkestra.core.stamp import file_marks

    here = Path(__file__).parent
    paths: list[str | Path] = sorted([*here.glob("*.py"), *here.glob("queries/*.scm")])
    for module in sorted({"tree_sitter", *(spec.module for spec in LANGUAGES.values())}):
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            found = None
        paths.append(found.origin if found is not None and found.origin else f"<{module}>")
    return blake2b("|".join([__version__, *file_marks(paths)]).encode()).hexdigest()


def available() -> bool:
    """True when tree-sitter can be imported."""
    try:
        require()
    except MissingExtra:
        return False
    return True
