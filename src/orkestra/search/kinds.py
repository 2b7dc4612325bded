"""The kinds of search hits, in the order `--summary` counts them (§7): a module of its own so
that a query's import path does not load `document` (its dataclasses cost a query ~1 ms)."""

from __future__ import annotations

#: hit types, in the order `--summary` counts them (§7)
TYPES = (
    "agents",
    "skills",
    "scopes",
    "decisions",
    "truths",
    "domains",
    "notes",
    "claims",
    "packages",
)
