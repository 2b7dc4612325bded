"""Identifier words: `loadConfig`, `load_config` and `LOAD_CONFIG` are the words `load config`.

The structural retriever ranks files by a BM25 over these words (an FTS5 table with the Porter
tokenizer, `idents`): one field for the path's folders and file name, one for the names,
qualified names and signature lines of the file's definitions. Prose queries then meet code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from orkestra.codemap.facts import Symbol

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def split(identifier: str) -> list[str]:
    """Lower-case parts of an identifier (camelCase, PascalCase, snake_case, digits)."""
    return [part.lower() for part in _PART.findall(identifier)]


def of_text(text: str) -> list[str]:
    """The identifier parts of every identifier in `text`, in order."""
    out: list[str] = []
    for ident in _IDENT.findall(text):
        out.extend(split(ident))
    return out


def path_words(rel: str) -> str:
    """The words of a path's folders and file name (without its extension)."""
    stem = rel.rsplit(".", 1)[0] if "." in rel.rsplit("/", 1)[-1] else rel
    return " ".join(of_text(stem))


def symbol_words(symbols: Iterable[Symbol]) -> str:
    """The words of definitions: each name and its qualified path, then its signature line."""
    out: list[str] = []
    for symbol in symbols:
        out.extend(of_text(symbol.qualname))
        out.extend(of_text(symbol.signature))
    return " ".join(out)
