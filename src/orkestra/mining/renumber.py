"""`decisions renumber ID`: move one record to a fresh id and rewrite what refers to it.

Two branches that each allocated the same number merge without a git conflict (the record files
carry different slugs); `validate` reports the duplicate and this command resolves it. The moved
record is the one given with `--file`, else the last of the duplicates by path. Ledger lines are
never edited: lines naming the old id for the moved record's commits are superseded by new lines.
When the id was not duplicated, references in other records (`related`, `superseded_by`) are
rewritten too; with a duplicate they are ambiguous and listed for a person to check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from orkestra.core import safewrite, yamlmerge
from orkestra.core.errors import ConflictError, NotFound, UsageError
from orkestra.mining.decision_ids import (
    ID_RE,
    STEM_RE,
    _Read,
    _rel,
    _write_record,
    check_record,
    domains,
    next_id,
    read_record,
    records,
    refuse_in_the_way,
    used_ids,
)
from orkestra.registry import ledger


def renumber(
    root: Path, did: str, *, file: str | None = None, to: str | None = None
) -> dict[str, Any]:
    """Give the record `did` (or the one at `file`) a new id; return what changed. Records are
    edited as text (`core.yamlmerge.renamed`): their comments and layout stay."""
    if not ID_RE.match(did):
        raise UsageError(f"malformed decision id {did!r}: expected DEC-XX-NNN")
    holders = [p for rid, p in records(root) if rid == did]
    if not holders:
        raise NotFound(f"no record has id {did}")
    path = _pick(root, holders, file)
    new_id = to or next_id(root, did[4:6])
    if not ID_RE.match(new_id):
        raise UsageError(f"malformed decision id {new_id!r}: expected DEC-XX-NNN")
    was = read_record(root, path)
    _check_code(root, new_id, was.data.get("domain"))
    stem = STEM_RE.match(path.stem)
    slug = path.stem[len(stem.group("id")) :] if stem else ""
    target = path.with_name(f"{new_id}{slug}.yaml")
    if target != path:
        refuse_in_the_way(root, target, new_id)
    if new_id in used_ids(root, besides=path):
        raise ConflictError(f"{new_id} is already in use (a record or the ledger)")
    data: dict[str, Any] = dict(was.data)
    data["id"] = new_id
    check_record(root, path, data, was)
    text = yamlmerge.renamed(was.text, was.data, data, _rel(root, path), did, new_id)
    duplicate = len(holders) > 1
    # every record to rewrite is read and checked before anything is written: one refused
    # halfway would leave the record moved and its references pointing at the old id
    edits = _referring(root, did, new_id, path, check=not duplicate)
    elsewhere = target != path  # a new file (its comments kept), else the same one edited
    _write_record(root, target, data, new=elsewhere, was=None if elsewhere else was, text=text)
    if target != path:
        safewrite.remove_file(root, path)
    shas = {s.get("sha") for s in data.get("source_commits") or []}
    moved = _rewrite_ledger(root, did, new_id, None if not duplicate else shas)
    others = [_rel(root, edit.path) for edit in edits]
    if not duplicate:
        for edit in edits:
            _write_record(root, edit.path, edit.data, was=edit.was, text=edit.text)
    return {
        "from": did,
        "to": new_id,
        "file": _rel(root, target),
        "ledger_lines": moved,
        "records_rewritten" if not duplicate else "references_to_check": others,
    }


def _check_code(root: Path, new_id: str, domain: Any) -> None:
    """Refuse a new id whose code is not the code of the record's domain (validate's ORK029):
    the move would leave the registry invalid."""
    code = domains(root).get(domain) if isinstance(domain, str) else None
    if code is not None and new_id[4:6] != code:
        raise UsageError(
            f"{new_id} uses code {new_id[4:6]}, but the record's domain '{domain}' has code "
            f"{code}; give DEC-{code}-NNN, or leave out --to for the next free id"
        )


def _pick(root: Path, holders: list[Path], file: str | None) -> Path:
    if file is None:
        return holders[-1]
    for path in holders:
        if _rel(root, path) == file or path.name == Path(file).name:
            return path
    listed = ", ".join(_rel(root, p) for p in holders)
    raise NotFound(f"{file} is not one of the records with that id ({listed})")


def _rewrite_ledger(root: Path, old: str, new: str, shas: set[Any] | None) -> int:
    with ledger.transaction(root):
        return _rewrite_locked(root, old, new, shas)


def _rewrite_locked(root: Path, old: str, new: str, shas: set[Any] | None) -> int:
    stamp = ledger.now()
    lines = []
    for entry in ledger.current(ledger.entries(root / ledger.CLASSIFICATIONS)):
        if entry.get("decision_id") != old or (shas is not None and entry.get("sha") not in shas):
            continue
        lines.append(
            {
                "id": ledger.new_id("c"),
                "ts": stamp,
                "sha": entry["sha"],
                "domain": "decisions",
                "action": "extract",
                "decision_id": new,
                "supersedes": entry["id"],
            }
        )
    ledger.append(root, lines, [])
    return len(lines)


class _Edit(NamedTuple):
    """A record that refers to the moved id, and its text with the reference rewritten."""

    path: Path
    was: _Read
    data: dict[str, Any]
    text: str


def _referring(root: Path, old: str, new: str, moved: Path, *, check: bool) -> list[_Edit]:
    """Every other record whose `related` or `superseded_by` names `old`, rewritten to `new`
    and, when they are to be rewritten (`check`), checked: an invalid one is refused at its line
    before anything is written. With a duplicated id they are only listed for a person."""
    edits = []
    for _, path in records(root):
        if path == moved:
            continue
        was = read_record(root, path)
        data: dict[str, Any] = dict(was.data)
        related = data.get("related") or []
        if old not in (related if isinstance(related, list) else []) and (
            data.get("superseded_by") != old
        ):
            continue
        if "related" in data and isinstance(related, list):
            data["related"] = [new if r == old else r for r in related]
        if data.get("superseded_by") == old:
            data["superseded_by"] = new
        if not check:
            edits.append(_Edit(path, was, data, ""))
            continue
        check_record(root, path, data, was)
        text = yamlmerge.renamed(was.text, was.data, data, _rel(root, path), old, new)
        edits.append(_Edit(path, was, data, text))
    return edits
