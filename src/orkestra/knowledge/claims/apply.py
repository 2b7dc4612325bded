"""`orkestra learn apply`: carry out a (possibly edited) proposal's actions, all or nothing.

Actions: save (a new claim), reinforce / merge (the matched claim: seen_count+1, last_seen today,
sources and tags added; merge also keeps the new context), keep-both (save the new claim next to
the matched one), skip. A CONTRADICTS item is only ever saved with an explicit keep-both.

A proposal applies once: an item whose matched claim has been seen more often since the proposal
was made, or a new claim whose statement a stored claim already makes, means it was applied
already (an agent retrying) or is stale; the whole apply is refused and nothing is written.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core.errors import ConflictError, InputError
from orkestra.knowledge.claims import propose as proposal
from orkestra.knowledge.claims import store
from orkestra.knowledge.claims.propose import line_in

if TYPE_CHECKING:
    from collections.abc import Callable

    from orkestra.knowledge.settings import Settings

ACTIONS = ("save", "reinforce", "merge", "keep-both", "skip")
_ALLOWED = {
    "NEW": {"save", "skip"},
    "REINFORCED": {"reinforce", "merge", "keep-both", "skip"},
    "SIMILAR": {"merge", "reinforce", "keep-both", "skip"},
    "CONTRADICTS": {"keep-both", "skip"},
}


def _items(data: Any, name: str, text: str = "") -> list[dict[str, Any]]:
    """The proposal's items, each checked; an error names its line in `text` (the proposal's
    JSON, as the user edited it)."""
    if not isinstance(data, dict) or data.get("kind") != proposal.PROPOSAL_KIND:
        raise InputError(
            "not a proposal: run `orkestra learn propose --input NEW.json` first",
            file=name,
            line=line_in(text, "kind") or 1,
        )
    items = data.get("items")
    if not isinstance(items, list):
        raise InputError(
            "a proposal has an `items` list", file=name, line=line_in(text, "items") or 1
        )
    for n, item in enumerate(items):
        where = f"items[{n}]"

        def bad(message: str, *key: str, n: int = n) -> InputError:
            return InputError(message, file=name, line=line_in(text, "items", n, *key))

        if not isinstance(item, dict):
            raise bad(f"{where} must be an object")
        label, action = item.get("classification"), item.get("action")
        if label not in _ALLOWED:
            raise bad(
                f"{where}.classification must be one of {', '.join(_ALLOWED)}", "classification"
            )
        if action not in ACTIONS:
            raise bad(f"{where}.action must be one of {', '.join(ACTIONS)}", "action")
        if action not in _ALLOWED[label]:
            allowed = ", ".join(sorted(_ALLOWED[label]))
            raise bad(
                f"{where}: action '{action}' is not allowed for {label} (use {allowed})", "action"
            )
        matched = item.get("matched")
        if matched is not None and not isinstance(matched, dict):
            raise bad(f"{where}.matched must be an object or null", "matched")
        if action in ("reinforce", "merge") and not isinstance((matched or {}).get("id"), str):
            raise bad(f"{where}: '{action}' needs matched.id", "matched", "id")
        _check_claim(item.get("claim"), f"{where}.claim", bad)
    return items


def _check_claim(claim: Any, where: str, bad: Callable[..., InputError]) -> None:
    """An edited proposal's claim obeys the rules `learn propose` applied to it (`bad`: the
    error at a key of the item)."""
    if not isinstance(claim, dict):
        raise bad(f"{where}.statement is required", "claim")
    statement = claim.get("statement")
    if not isinstance(statement, str) or not statement.strip():
        raise bad(f"{where}.statement is required", "claim", "statement")
    if claim.get("category", "technical") not in store.CATEGORIES:
        raise bad(
            f"{where}.category must be one of {', '.join(store.CATEGORIES)}", "claim", "category"
        )
    for key in ("tags", "sources"):
        value = claim.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad(f"{where}.{key} must be a list of strings", "claim", key)
    for key in ("context", "topic"):
        if not isinstance(claim.get(key, ""), str):
            raise bad(f"{where}.{key} must be a string", "claim", key)
    nul = store.nul_field(claim)
    if nul is not None:
        raise bad(f"{where}.{nul} holds a NUL character (\\0); remove it", "claim", nul)


class _Workspace:
    """Claim files loaded once, changed in memory, written together at the end."""

    def __init__(self, folder: Path, root: Path | None = None) -> None:
        self.folder = folder
        self.root = root
        self.files: dict[str, list[dict[str, Any]]] = {}
        #: the bytes each file had when read (None: not there): checked before it is replaced
        self.read: dict[str, bytes | None] = {}
        self.where: dict[str, tuple[str, int]] = {}
        self.seen: dict[str, Any] = {}  # claim id -> seen_count before this apply
        self.saying: dict[
            str, str
        ] = {}  # statement (`store.normalised`) -> the id of a claim making it
        for stored in store.load_all(folder):
            if stored.file not in self.files:
                self._load(stored.file)
            self.where[stored.claim["id"]] = (stored.file, stored.index)
            self.seen[stored.claim["id"]] = stored.claim.get("seen_count")
            self.saying.setdefault(
                store.normalised(str(stored.claim["statement"])), stored.claim["id"]
            )
        self.dirty: set[str] = set()

    def _load(self, rel: str) -> list[dict[str, Any]]:
        self.files[rel], self.read[rel] = store.read_file_bytes(self.folder, rel)
        return self.files[rel]

    def get(self, claim_id: str, where: str, name: str, line: int | None) -> dict[str, Any]:
        if claim_id not in self.where:
            raise ConflictError(
                f"{where}: claim {claim_id} no longer exists; run `orkestra learn propose` again "
                "(nothing was written)",
                file=name,
                line=line,
            )
        rel, index = self.where[claim_id]
        self.dirty.add(rel)
        return self.files[rel][index]

    def check_stored(self, claim_id: str) -> None:
        """The stored claim about to be reinforced holds what reinforcing updates
        (`store.check_stored`)."""
        rel, index = self.where[claim_id]
        store.check_stored(
            self.folder, rel, index, self.files[rel][index], self.read.get(rel), "learn apply"
        )

    def add(self, claim: dict[str, Any], rel: str) -> None:
        insights = self.files[rel] if rel in self.files else self._load(rel)
        self.where[claim["id"]] = (rel, len(insights))
        self.saying.setdefault(store.normalised(claim["statement"]), claim["id"])
        insights.append(claim)
        self.dirty.add(rel)

    def save(self) -> None:
        dirty = {rel: self.files[rel] for rel in self.dirty}
        store.write_files(self.folder, dirty, root=self.root, read=self.read)


def _unchanged(
    item: dict[str, Any], ws: _Workspace, claim_id: str, where: str, name: str, line: int | None
) -> None:
    """Refuse to reinforce a claim seen more often (before this apply) than when the proposal
    was made."""
    seen, now = (item.get("matched") or {}).get("seen_count"), ws.seen.get(claim_id)
    if now != seen:  # a claim without a count, or a count edited out, is compared as it is
        raise ConflictError(
            f"{where}: claim {claim_id} has been seen {now} times, {seen} when this proposal "
            "was made: it changed since (this proposal or another one was applied); run "
            "`orkestra learn propose` again (nothing was written)",
            file=name,
            line=line,
        )


def _new_claim(cand: dict[str, Any], ws: _Workspace, today: str) -> dict[str, Any]:
    base = store.claim_id(cand["statement"])
    ident, n = base, 2
    while ident in ws.where:
        ident, n = f"{base}-{n}", n + 1
    return {
        "id": ident,
        "statement": cand["statement"],
        "category": cand.get("category", "technical"),
        "confidence": "low",
        "seen_count": 1,
        "first_seen": today,
        "last_seen": today,
        "sources": list(cand.get("sources", [])),
        "context": cand.get("context", ""),
        "tags": list(cand.get("tags", [])),
    }


def _reinforce(claim: dict[str, Any], cand: dict[str, Any], today: str, merge: bool) -> str:
    before = str(claim.get("confidence", "low"))
    claim["seen_count"] = int(claim.get("seen_count", 1)) + 1
    claim["last_seen"] = today
    claim["confidence"] = store.confidence(claim["seen_count"])
    for key in ("sources", "tags"):
        values = list(claim.get(key, []))
        values += [v for v in cand.get(key, []) if v not in values]
        claim[key] = values
    context = cand.get("context", "")
    if merge and context and context not in claim.get("context", ""):
        claim["context"] = f"{claim.get('context', '')}\n{context}".strip()
    return f"{before} → {claim['confidence']}"


def apply(
    folder: Path, data: Any, name: str, today: str, *, root: Path | None = None, text: str = ""
) -> dict[str, Any]:
    """Apply every item's action; nothing is written unless all items are valid. Files are
    written inside `root` (the project; by default the knowledge folder). `text`: the
    proposal's JSON, for the line an error names."""
    items = _items(data, name, text)
    ws = _Workspace(folder, root)
    saved, skipped, changes, merged = [], 0, [], 0
    #: (claim id, statement) -> the item reinforcing or merging that claim with it
    reinforcing: dict[tuple[str, str], int] = {}
    for n, item in enumerate(items):
        action, cand = item["action"], item["claim"]
        where = f"items[{n}]"
        if action == "skip":
            skipped += 1
        elif action in ("save", "keep-both"):
            if (same := ws.saying.get(store.normalised(cand["statement"]))) is not None:
                line = line_in(text, "items", n, "action")
                if same in saved:
                    raise InputError(
                        f"{where} saves the statement of an earlier item again; set one of "
                        "them to skip (nothing was written)",
                        file=name,
                        line=line,
                    )
                if same == (item.get("matched") or {}).get("id"):
                    raise InputError(
                        f"{where}: {action} would save a second claim saying what {same} "
                        "says; use reinforce or skip (nothing was written)",
                        file=name,
                        line=line,
                    )
                raise ConflictError(
                    f"{where}: claim {same} already says this: the proposal was applied already; "
                    "set its action to skip or reinforce (nothing was written)",
                    file=name,
                    line=line,
                )
            claim = _new_claim(cand, ws, today)
            ws.add(claim, store.file_for(today, str(cand.get("topic") or claim["category"])))
            saved.append(claim["id"])
        else:
            claim_id = item["matched"]["id"]
            target = ws.get(claim_id, where, name, line_in(text, "items", n, "matched", "id"))
            said = (target["id"], store.normalised(cand["statement"]))
            if (earlier := reinforcing.setdefault(said, n)) != n:
                # the input's repeated statement (proposed as a skip, set to merge): one
                # input is one sighting of a fact, never two
                raise InputError(
                    f"{where} reinforces {target['id']} again, as items[{earlier}] does, with "
                    "the same statement: one input is one sighting of it; set one of them to "
                    "skip (nothing was written)",
                    file=name,
                    line=line_in(text, "items", n, "action"),
                )
            line = line_in(text, "items", n, "matched", "seen_count")
            _unchanged(item, ws, target["id"], where, name, line)
            ws.check_stored(target["id"])
            changes.append(
                {"id": target["id"], "change": _reinforce(target, cand, today, action == "merge")}
            )
            merged += action == "merge"
    ws.save()
    return {
        "saved": saved,
        "reinforced": changes,
        "skipped": skipped,
        "files": sorted(f"{store.shown(folder)}/{rel}" for rel in ws.dirty),
        "summary": _summary(len(saved), changes, merged, skipped),
    }


def _summary(saved: int, changes: list[dict[str, str]], merged: int, skipped: int) -> str:
    parts = [f"Saved: {saved} new"]
    if changes:
        moves: dict[str, int] = {}
        for change in changes:
            moves[change["change"]] = moves.get(change["change"], 0) + 1
        detail = ", ".join(f"{move}: {n}" if len(moves) > 1 else move for move, n in moves.items())
        parts.append(f"Reinforced: {len(changes)} ({detail})")
    if merged:
        parts.append(f"Merged: {merged}")
    parts.append(f"Skipped: {skipped}")
    return "; ".join(parts)


def apply_and_index(
    settings: Settings, data: Any, name: str, today: dt.date, *, text: str = ""
) -> dict[str, Any]:
    """`learn apply`: apply the proposal, then refresh INDEX.md (it counts the claims)."""
    from orkestra.knowledge import index

    index.check_ours(settings)  # a hand-written INDEX.md: refused before any claim is written
    result = apply(settings.folder, data, name, today.isoformat(), root=settings.root, text=text)
    if result["files"]:
        index.write(settings, today)
    return result
