"""Registry entries rebuilt from the parse cache: a model is validated again only when needed.

A cached entry keeps the file's plain parsed data (`raw`) and, per model it produced, a spec:
the model class, where in `raw` its input sits (`at`), where in the validated model the entry
sits (`sub`) and a snapshot of its plain top-level fields. `build` validates `raw` again, which
gives exactly the model a cold load made (same input, same validation). A `Lazy` answers its
plain fields from the snapshot without importing pydantic and builds the model on first use of
anything else (a nested model, a method), so list commands stay at the speed of a stat.
Standard library only at import time.
"""

from __future__ import annotations

import importlib
from typing import Any

#: what a plain field value may be in a snapshot (lists of these too)
_SCALARS = (str, int, float, bool, type(None))


_CLASSES: dict[str, Any] = {}


def model_class(name: str) -> Any:
    """A registry model class by name (imports pydantic on first call)."""
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = getattr(importlib.import_module("orkestra.registry.models"), name)
    return cls


def build(raw: Any, spec: dict[str, Any], memo: dict[str, Any] | None = None) -> Any:
    """The model `spec` describes, validated from the cached `raw` data (`memo` shares one
    validation between the entries of one file)."""
    key = f"{spec['m']}|{spec['at']!r}"
    value = None if memo is None else memo.get(key)
    if value is None:
        data = raw
        for step in spec["at"]:
            data = data[step]
        value = model_class(spec["m"]).model_validate(data)
        if memo is not None:
            memo[key] = value
    for step in spec["sub"]:
        value = (
            value[step]
            if isinstance(step, int) or isinstance(value, dict)
            else getattr(value, step)
        )
    return value


def snapshot(value: Any, cls: str, at: list[Any], sub: list[Any]) -> dict[str, Any]:
    """The JSON spec of a live model: where it comes from plus its plain top-level fields."""
    fields: dict[str, Any] = {}
    tuples: list[str] = []
    for name in type(value).model_fields:
        item = getattr(value, name)
        if isinstance(item, _SCALARS) or (
            isinstance(item, list | tuple) and all(isinstance(x, _SCALARS) for x in item)
        ):
            if isinstance(item, tuple):
                tuples.append(name)
                item = list(item)
            fields[name] = item
    return {"m": cls, "at": at, "sub": sub, "f": fields, "t": tuples}


def valid_spec(spec: Any) -> bool:
    """Shape check of a spec read from the cache (a malformed one makes the entry a miss; a
    step of `at`/`sub` that does not fit fails the build, which is a miss too)."""
    return (
        type(spec) is dict
        and type(spec.get("m")) is str
        and type(spec.get("at")) is list
        and type(spec.get("sub")) is list
        and type(spec.get("f")) is dict
        and type(spec.get("t")) is list
    )


class Lazy:
    """Stands in for a registry model: plain fields from the snapshot, the rest from the model,
    validated from the cached data on first need. Read-only, like the models it stands for."""

    __slots__ = ("_fields", "_model", "_raw", "_spec")

    def __init__(self, raw: Any, spec: dict[str, Any]) -> None:
        self._raw = raw
        self._spec = spec
        self._fields: dict[str, Any] = spec["f"]
        self._model: Any = None

    def __getattr__(self, name: str) -> Any:
        fields = self._fields
        if name in fields and not name.startswith("_"):
            value = fields[name]
            return tuple(value) if name in self._spec["t"] else value
        return getattr(self._built(), name)

    def _built(self) -> Any:
        """The real model (validated once, then kept). Only underscore names live on this
        class: anything else would hide a field of the same name (an agent has `model`)."""
        if self._model is None:
            self._model = build(self._raw, self._spec)
        return self._model

    def __eq__(self, other: object) -> bool:
        other_model = other._built() if isinstance(other, Lazy) else other
        return bool(self._built() == other_model)

    def __hash__(self) -> int:
        return hash(self._built())

    def __repr__(self) -> str:
        return f"Lazy({self._spec['m']}, {self._fields.get('name', '')!r})"
