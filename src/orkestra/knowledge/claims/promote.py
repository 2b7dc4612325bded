"""`orkestra learn promote ID`: a high-confidence claim becomes a ground truth (§3.5, §8.3).

The statement is appended to `registries/truths/<owner>.yaml` (created when missing) as text, at the
end of its block `statements:` list, so comments and layout survive (`core.yamlmerge`; a file with
comments that cannot be added to as text is refused, never re-written without them). Either way the
result is validated with `TruthRegistry` first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from orkestra.core import safewrite, yamlio, yamlmerge
from orkestra.core.errors import ConflictError, InputError, NotFound, UsageError
from orkestra.knowledge.claims import store
from orkestra.knowledge.truthfile import existing_ids

_PREFIX = re.compile(r"^[A-Z]{2,5}\Z")


def _find(folder: Path, claim_id: str) -> store.Stored:
    for stored in store.load_all(folder):
        if stored.claim["id"] == claim_id:
            return stored
    raise NotFound(f"no claim with id '{claim_id}'; `orkestra learn list` shows them")


def _prefix(owner: str, ids: set[str], text: str, given: str | None) -> str:
    if given:
        if not _PREFIX.match(given):
            raise UsageError(f"--prefix must be 2–5 capital letters (got '{given}')")
        return given
    used = re.findall(r"\bid:\s*[\"']?GT-([A-Z]{2,5})-[0-9]{3}", text)
    if used:
        return str(used[0])
    letters = re.sub(r"[^A-Z]", "", owner.upper())[:3]
    return letters if len(letters) >= 2 else "KB"


def _next_id(prefix: str, ids: set[str]) -> str:
    numbers = [int(i.rsplit("-", 1)[1]) for i in ids if i.startswith(f"GT-{prefix}-")]
    number = max(numbers, default=0) + 1
    if number > 999:
        raise ConflictError(f"no free GT-{prefix}-NNN id left; use --prefix")
    return f"GT-{prefix}-{number:03d}"


def statement_for(claim: dict[str, Any], truth_id: str, today: str) -> dict[str, Any]:
    """The ground-truth statement a claim becomes."""
    return {
        "id": truth_id,
        "status": "current",
        "source": f"learn claim {claim['id']} (seen {claim.get('seen_count', 1)} times)",
        "scope": "package",
        "statement": claim["statement"],
        "rationale": claim.get("context", "") or "Repeatedly observed while working (claims).",
        "evidence": [],
        "last_verified": today,
        "tags": list(claim.get("tags", [])),
    }


def _new_text(path: Path, rel: str, owner: str, entry: dict[str, Any]) -> str:
    if not path.is_file():
        meta = {
            "title": f"{owner} ground truths",
            "summary": "Promoted from claims.",
            "owner": owner,
        }
        return yamlio.dumps({"metadata": meta, "statements": [entry]})
    text = yamlio.read_text(path, display=rel, bom=True)  # edited and written back
    old = dict(yamlio.loads(text, rel) or {})
    new = {**old, "statements": [*list(old.get("statements") or []), entry]}
    return yamlmerge.updated(text, old, new, rel)


def promote(
    root: Path,
    folder: Path,
    claim_id: str,
    owner: str,
    today: str,
    *,
    prefix: str | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """Append the claim as a ground truth; returns the new id and the file written."""
    from pydantic import ValidationError

    from orkestra.registry.models.truths import TruthRegistry

    stored = _find(folder, claim_id)
    claim = stored.claim
    store.check_stored(folder, stored.file, stored.index, claim, None, f"learn promote {claim_id}")
    if claim.get("confidence") != "high" and not force:
        raise ConflictError(
            f"claim {claim_id} is {claim.get('confidence')} (seen {claim.get('seen_count')} times); "
            "only high-confidence claims are promoted (or pass --force)"
        )
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", owner):
        raise UsageError(f"--owner must be a lower-case name like 'orkestra' (got '{owner}')")
    path = root / "registries" / "truths" / f"{owner}.yaml"
    rel = path.relative_to(root).as_posix()
    for other in sorted((root / "registries" / "truths").glob("*.y*ml")):
        if f"learn claim {claim_id} " in other.read_text(encoding="utf-8", errors="replace"):
            raise ConflictError(f"claim {claim_id} was already promoted (see {other.name})")
    ids = existing_ids(root)
    raw = path.read_bytes() if path.is_file() else None
    old = yamlio.read_text(path) if raw is not None else ""
    truth_id = _next_id(_prefix(owner, ids, old, prefix), ids)
    text = _new_text(path, rel, owner, statement_for(claim, truth_id, today))
    try:
        TruthRegistry.model_validate(yamlio.loads(text, rel))
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(
            f"{rel} would be invalid: {first['msg']} at {first['loc']}", file=rel
        ) from None
    safewrite.write_file(root, path, text, expected_old=raw)
    return {"claim": claim_id, "truth": truth_id, "file": rel, "statement": claim["statement"]}
