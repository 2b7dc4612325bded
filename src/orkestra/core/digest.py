"""BLAKE2b without loading OpenSSL: `hashlib` imports `_hashlib` (OpenSSL, ~2.5 ms), which the
search's start-up does not need; CPython's own `_blake2` gives the same digests. Falls back to
`hashlib` where `_blake2` is absent (another interpreter)."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython always has _blake2
    from hashlib import blake2b

__all__ = ["blake2b"]
