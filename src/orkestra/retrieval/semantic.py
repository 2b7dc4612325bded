"""The optional semantic retriever: a plug-in interface, off by default (nothing downloads a model).

A caller that has an embedding model registers an `Embedder` with `register`; until then
`embedder()` is None and search fuses its other retrievers only (weights renormalise over the
retrievers present, `fusion.renormalise`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from orkestra.retrieval.fusion import Hit


class Embedder(Protocol):
    """Turns texts into vectors of one fixed size."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...


_EMBEDDER: list[Embedder] = []


def register(embedder: Embedder | None) -> None:
    """Turn the semantic retriever on with `embedder`, or off again with None."""
    _EMBEDDER.clear()
    if embedder is not None:
        _EMBEDDER.append(embedder)


def embedder() -> Embedder | None:
    """The registered embedder, None when the semantic retriever is off (the default)."""
    return _EMBEDDER[0] if _EMBEDDER else None


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity (0.0 when either vector is zero)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def rank(
    model: Embedder, query: str, texts: Mapping[str, str], hits: Mapping[str, Hit]
) -> list[Hit]:
    """`hits` (by key) ordered by the similarity of their `texts` to the query, best first."""
    keys = [key for key in texts if key in hits]
    if not keys:
        return []
    vectors = model.embed([query, *(texts[key] for key in keys)])
    scored = sorted(zip(keys, vectors[1:], strict=True), key=lambda kv: -cosine(vectors[0], kv[1]))
    return [hits[key] for key, _ in scored]
