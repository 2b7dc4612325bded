"""`orkestra learn propose`: classify new statements against every existing claim; write nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core.errors import InputError
from orkestra.knowledge.claims import compare, store

PROPOSAL_KIND = "orkestra.learn.proposal"
DEFAULT_ACTION = {
    "NEW": "save",
    "REINFORCED": "reinforce",
    "SIMILAR": "skip",
    "CONTRADICTS": "skip",
}
_PRIORITY = {"CONTRADICTS": 3, "REINFORCED": 2, "SIMILAR": 1, "NEW": 0}


#: what each command's --input holds: said with every error reading one
PROPOSE_TAKES = (
    "`learn propose` reads the new insights as JSON: "
    '{"insights": [{"statement": "One falsifiable sentence.", "category": "technical"}]}'
)
APPLY_TAKES = (
    "`learn apply` reads the JSON proposal `orkestra learn propose` prints (edited or not); "
    "fix it there, or run `orkestra learn propose` again"
)


def read_input(path: Path, takes: str) -> tuple[Any, str]:
    """A JSON input file: its data and its text (what `line_in` finds an item's line in). An
    error names the file (and the line for a syntax error) and says what the input must be."""
    from orkestra.core import jsonio

    try:
        text = jsonio.read_text(path)
        return jsonio.loads(text, source=str(path)), text
    except FileNotFoundError as exc:
        raise InputError(f"cannot read input: {exc.strerror}", file=str(path)) from exc
    except InputError as exc:
        raise InputError(f"{exc.message}; {takes}", file=exc.file, line=exc.line) from None


def line_in(text: str, *path: str | int) -> int | None:
    """The line of the value at `path` in the input `text` (`jsonio.line_at`), else of the
    nearest enclosing value it has (a key missing from an item: the item's line); None without
    a text (a caller passing data it did not read from a file)."""
    from orkestra.core import jsonio

    if not text:
        return None
    for end in range(len(path), -1, -1):
        found = jsonio.line_at(text, path[:end])
        if found is not None:
            return found
    return None


def candidates(data: Any, name: str, project: str, text: str = "") -> list[dict[str, Any]]:
    """Validate the new insights (`{"insights": [...]}` or a list) into candidate claims; an
    error names the line of the insight (or its field) in `text`, the input's JSON."""
    if isinstance(data, dict) and data.get("kind") == PROPOSAL_KIND:
        raise InputError(
            "this is a proposal `learn propose` printed: review it, then give it to "
            "`orkestra learn apply --input`; `learn propose` takes new insights",
            file=name,
            line=line_in(text, "kind") or 1,
        )
    items = data.get("insights") if isinstance(data, dict) else data
    base: tuple[str, ...] = ("insights",) if isinstance(data, dict) else ()
    if not isinstance(items, list) or not items:
        raise InputError(
            'expected {"insights": [{"statement": ...}, ...]} with at least one item',
            file=name,
            line=line_in(text, *base) or 1,
        )
    topic = data.get("topic") if isinstance(data, dict) else None
    if topic is not None and not isinstance(topic, str):
        raise InputError(
            "topic must be a string (it names the claims file)",
            file=name,
            line=line_in(text, "topic") or 1,
        )
    out = []
    for index, item in enumerate(items):
        where = f"insights[{index}]"

        def bad(message: str, *key: str, index: int = index) -> InputError:
            return InputError(message, file=name, line=line_in(text, *base, index, *key))

        if not isinstance(item, dict):
            raise bad(f"{where} must be an object")
        statement = item.get("statement")
        if not isinstance(statement, str) or not statement.strip():
            raise bad(f"{where}.statement is required (one falsifiable sentence)", "statement")
        category = item.get("category", "technical")
        if category not in store.CATEGORIES:
            raise bad(f"{where}.category must be one of {', '.join(store.CATEGORIES)}", "category")
        tags = item.get("tags", [])
        sources = item.get("sources", [item["source"]] if "source" in item else [project])
        for key in ("topic", "context"):
            if item.get(key) is not None and not isinstance(item[key], str):
                raise bad(f"{where}.{key} must be a string", key)
        for key, value in (("tags", tags), ("sources", sources)):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                field = "source" if key == "sources" and "sources" not in item else key
                raise bad(f"{where}.{key} must be a list of strings", field)
        nul = store.nul_field({**item, "topic": item.get("topic") or topic, "sources": sources})
        if nul is not None:
            raise bad(f"{where}.{nul} holds a NUL character (\\0); remove it", nul)
        out.append(
            {
                "statement": " ".join(statement.split()),
                "category": category,
                "context": str(item.get("context", "")),
                "tags": list(tags),
                "sources": list(sources),
                "topic": str(item.get("topic") or topic or (tags[0] if tags else category)),
            }
        )
    return out


def best_match(
    candidate: dict[str, Any], existing: list[store.Stored]
) -> tuple[str, float, store.Stored | None]:
    """The most telling existing claim: a contradiction first, then the most similar."""
    new = compare.shape(candidate["statement"])
    best: tuple[int, float, store.Stored | None, str] = (-1, 0.0, None, "NEW")
    for stored in existing:
        label, score = compare.classify(new, compare.shape(stored.claim["statement"]))
        key = (_PRIORITY[label], score)
        if key > best[:2]:
            best = (key[0], score, stored, label)
    _, score, match, label = best
    if label == "NEW":
        return "NEW", score, match if score > 0 else None
    return label, score, match


def propose(
    folder: Path, data: Any, name: str, project: str, today: str, *, text: str = ""
) -> dict[str, Any]:
    """The proposal: each candidate with its classification, matched claim, similarity, action.
    A statement the input repeats (the same words) is proposed once: the later item's action is
    `skip` and its `duplicate_of` names the earlier item, so the proposal applies as it stands
    and one input is one sighting of a fact, never two. `text`: the input's JSON, for the line
    an error names."""
    existing = store.load_all(folder)
    items = []
    counts = dict.fromkeys(DEFAULT_ACTION, 0)
    first: dict[str, int] = {}
    for index, cand in enumerate(candidates(data, name, project, text)):
        earlier = first.setdefault(store.normalised(cand["statement"]), index)
        label, score, match = best_match(cand, existing)
        counts[label] += 1
        matched = None
        if match is not None and label != "NEW":
            claim = match.claim
            matched = {
                "id": claim["id"],
                "statement": claim["statement"],
                "confidence": claim.get("confidence"),
                "seen_count": claim.get("seen_count"),
                "file": match.file,
            }
        items.append(
            {
                "index": index,
                "classification": label,
                "similarity": score,
                "matched": matched,
                "action": DEFAULT_ACTION[label] if earlier == index else "skip",
                "claim": cand,
            }
        )
        if earlier != index:
            items[-1]["duplicate_of"] = earlier
    return {"kind": PROPOSAL_KIND, "created": today, "counts": counts, "items": items}
