"""Decision ids and records from the ledger: `decisions new`, `update`, `renumber` (§3.6, §6.7).

An id is `DEC-<code>-<number>`; the next number of a code counts both the records on disk and
every id the ledger mentions (an id allocated on another branch may be referenced before its
record is merged). Numbers are never reused: the next one is one above the highest in use.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from orkestra.core.errors import (
    ChangedOnDisk,
    ConflictError,
    InputError,
    NotFound,
    OrkestraError,
    UnsafePathError,
    UsageError,
)
from orkestra.registry import ledger

RECORDS = Path("registries") / "decisions" / "records"
REGISTRY = Path("registries") / "decisions" / "registry.yaml"
#: ASCII digits only (`\d` takes any script's digits) and `\Z` (`$` lets a final newline through)
ID_RE = re.compile(r"^DEC-(?P<code>[A-Z]{2})-(?P<num>[0-9]{3,})\Z")
STEM_RE = re.compile(r"^(?P<id>DEC-[A-Z]{2}-[0-9]{3,})(?:-[a-z0-9-]+)?\Z")


def registered(root: Path) -> dict[str, str] | None:
    """Domain name -> two-letter code from `decisions/registry.yaml`; None without that file."""
    found = _registry(root)
    return None if found is None else dict(found[1])


def domains(root: Path) -> dict[str, str]:
    """Domain name -> two-letter code, from `decisions/registry.yaml` (empty without it)."""
    return registered(root) or {}


def _registry(root: Path) -> tuple[Any, dict[str, str]] | None:
    """(the file's data, with its lines; domain name -> code), validated as `orkestra validate`
    validates it: a code that is not two capital letters (`search: sr`) would allocate ids no
    record may have (`DEC-sr-001`), so it is an `InputError` at its line, in validate's words.
    None without the file."""
    from pydantic import ValidationError

    from orkestra.core import yamlio
    from orkestra.registry.models.decisions import DecisionsRegistry

    path = root / REGISTRY
    if not path.exists():
        return None
    _refuse_leaving(root, path)
    data = yamlio.load_mapping(path, display=REGISTRY.as_posix(), allow_empty=True)
    try:
        return data, DecisionsRegistry.model_validate(data).domains
    except ValidationError as exc:
        from orkestra.registry.loader import refused  # what validate says, word for word

        raise refused(exc, data, DecisionsRegistry, REGISTRY.as_posix()) from None


def _refuse_leaving(root: Path, path: Path) -> None:
    """A registry file a symlink (the file or a folder on its way) takes outside the project is
    refused, never read (§13), as the registry loader refuses it (ORK045); the error names the
    symlink."""
    from orkestra.core.readfile import leaving

    found = leaving(root, path.relative_to(root).as_posix())
    if found is not None:
        link, real = found
        raise UnsafePathError(
            f"is a symlink to '{real}', outside the project; registry files are only read "
            "inside the project (copy the file in instead)",
            file=link,
        )


def code_of(root: Path, domain: str) -> tuple[str, str]:
    """(domain, code) for a domain name or a code; a code two domains share is refused."""
    from orkestra.core import yamlio
    from orkestra.registry.models.decisions import shared_codes

    data, known = _registry(root) or ({}, {})
    shared = shared_codes(known)
    code = known.get(domain, domain)
    if code in shared:
        raise ConflictError(
            f"domains {', '.join(shared[code])} share code {code}, so DEC-{code}-NNN ids would "
            "be ambiguous; give each domain its own two-letter code",
            file=REGISTRY.as_posix(),
            line=yamlio.line_of(data, ("domains", shared[code][1])),
        )
    if domain in known:
        return domain, known[domain]
    for name, code in known.items():
        if code == domain:
            return name, code
    listed = ", ".join(f"{n} ({c})" for n, c in sorted(known.items())) or "none registered"
    raise NotFound(f"unknown decision domain {domain!r}; known: {listed}", file=REGISTRY.as_posix())


def records(root: Path) -> list[tuple[str, Path]]:
    """(id, path) of every record file, sorted by path; the id read from the file if possible."""
    out = []
    for path in sorted((root / RECORDS).glob("*.yaml")):
        _refuse_leaving(root, path)
        if rid := _record_id(root, path):
            out.append((rid, path))
    return out


def _record_id(root: Path, path: Path) -> str | None:
    """The id inside a record file, else the one its name gives (None: neither)."""
    from orkestra.core import yamlio

    try:
        rid = yamlio.load_mapping(path, display=_rel(root, path)).get("id")
    except InputError:  # `orkestra validate` reports the file; its name still gives the id
        rid = None
    if isinstance(rid, str):
        return rid
    stem = STEM_RE.match(path.stem)
    return stem.group("id") if stem else None


def ledger_refs(root: Path) -> dict[str, list[dict[str, Any]]]:
    """Decision id -> the ledger entries (current ones) that extract into it."""
    refs: dict[str, list[dict[str, Any]]] = {}
    for entry in ledger.current(ledger.entries(root / ledger.CLASSIFICATIONS)):
        did = entry.get("decision_id")
        if isinstance(did, str):
            refs.setdefault(did, []).append(entry)
    return refs


def used_ids(root: Path, *, besides: Path | None = None) -> set[str]:
    """Every id in use: record files (the id inside and the one their name gives, but for
    `besides`'s name) and any ledger line (superseded ones too)."""
    ids = set()
    for rid, path in records(root):
        ids.add(rid)
        stem = STEM_RE.match(path.stem)
        if stem and path != besides:
            ids.add(stem.group("id"))
    for entry in ledger.entries(root / ledger.CLASSIFICATIONS):
        if isinstance(entry.get("decision_id"), str):
            ids.add(entry["decision_id"])
    return ids


def next_id(root: Path, code: str) -> str:
    """The next free id for `code`: one above the highest number used by records or ledger."""
    numbers = [
        int(m.group("num"))
        for m in map(ID_RE.match, used_ids(root))
        if m and m.group("code") == code
    ]
    return f"DEC-{code}-{max(numbers, default=0) + 1:03d}"


def refuse_in_the_way(root: Path, path: Path, did: str) -> None:
    """Refuse to write `did`'s record at `path` when a file is already there: it holds another
    id (a typo, a copy whose id was not bumped) and writing would destroy it. Nothing is written.
    A file holding `did` itself is the callers' "already in use" case."""
    if not os.path.lexists(path):
        return
    _refuse_leaving(root, path)
    held = _record_id(root, path)
    if held == did:
        return
    rel = _rel(root, path)
    raise ConflictError(
        f"is in the way: {did}'s record would be written there, but this file holds "
        f"{f'id {held}' if held else 'no readable id'}; nothing was written. Correct the id inside "
        "it or rename the file to match its id, then run the command again",
        file=rel,
    )


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _today() -> str:
    """The `created` date: the project's one today (ORKESTRA_TODAY pins it; a bad value is a
    usage error)."""
    from orkestra.core.clock import today

    return today().isoformat()


def _source(record: dict[str, Any], role: str) -> dict[str, Any]:
    return {
        "sha": record["sha"],
        "message": record["subject"],
        "date": record["date"][:10],
        "role": role,
    }


def new(
    root: Path,
    domain: str,
    *,
    title: str | None = None,
    summary: str | None = None,
    commits: list[str] | None = None,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Allocate the next id of `domain` and (unless `dry_run`) write its record and ledger lines.

    The id is allocated and its record created under the ledger lock, and the record file is
    created only where no file exists: a run that still loses the race (a writer outside the
    lock) takes the next free id, so two runs never report the same id."""
    name, code = code_of(root, domain)
    found = _commit_records(root, commits or [])
    if not title:
        if found:
            title = _title(found[0])
        elif dry_run:
            title = "(title to be given)"
        else:
            raise UsageError("give --title, or --commit SHA to take the title from the commit")
    data: dict[str, Any] = {
        "id": "",
        "title": title,
        "domain": name,
        "status": "proposed",
        "created": _today(),
        "summary": summary or "",
        "source_commits": [
            _source(r, "primary" if i == 0 else "supporting") for i, r in enumerate(found)
        ],
        "files": sorted({f for r in found for f in r["files"]}),
    }
    if dry_run:
        return _allocated(root, code, data, dry_run=True)
    with ledger.transaction(root):
        for _ in range(_ATTEMPTS):
            result = _allocated(root, code, data, dry_run=False)
            try:
                _write_record(root, root / result["file"], data, new=True)
            except ChangedOnDisk:
                continue
            with _undone_on_failure(root, root / result["file"]):
                result["ledger"] = _extract_locked(root, data["id"], [r["sha"] for r in found])
            return result
    raise ConflictError(
        f"no free {code} id after {_ATTEMPTS} tries: record files keep appearing in "
        f"{RECORDS.as_posix()} (another program writing there?); nothing was written"
    )


#: how many ids `new` tries when the record file of the one it allocated appears meanwhile
_ATTEMPTS = 20


@contextlib.contextmanager
def _undone_on_failure(root: Path, path: Path) -> Iterator[None]:
    """Remove the record just created at `path` when what follows (its ledger lines) fails, so a
    failed run leaves nothing half-done and running it again does not make a second record."""
    from orkestra.core import safewrite

    try:
        yield
    except OrkestraError as exc:
        rel = _rel(root, path)
        try:
            safewrite.remove_file(root, path)
        except (OrkestraError, OSError):
            exc.message += f"; the record {rel} was written but could not be removed: remove it"
        else:
            exc.message += f"; the record {rel} was removed again, nothing was written"
        raise
    except BaseException:
        with contextlib.suppress(OrkestraError, OSError):
            safewrite.remove_file(root, path)
        raise


def _allocated(root: Path, code: str, data: dict[str, Any], *, dry_run: bool) -> dict[str, Any]:
    """The next free id of `code` set in `data`, and the result naming its record file."""
    did = data["id"] = next_id(root, code)
    path = root / RECORDS / f"{did}.yaml"
    return {"id": did, "file": _rel(root, path), "dry_run": dry_run, "record": data}


def _title(record: dict[str, Any]) -> str:
    text = str(record["signals"].get("description") or record["subject"]).strip()
    return text[:1].upper() + text[1:]


def _commit_records(root: Path, shas: list[str]) -> list[dict[str, Any]]:
    if not shas:
        return []
    from orkestra.mining.commits import CommitLookup
    from orkestra.mining.sync import sync

    sync(root)
    lookup = CommitLookup(root)
    out: list[dict[str, Any]] = []
    for sha in shas:
        full = lookup.resolve(sha)
        if full not in (r["sha"] for r in out):
            out.append(lookup.record(full))
    return out


def _write_record(
    root: Path,
    path: Path,
    data: dict[str, Any],
    *,
    new: bool = False,
    was: _Read | None = None,
    text: str | None = None,
) -> None:
    """Validate and write a record; `new`: refuse if a file appeared at `path` meanwhile. `was`
    (the record as read) makes it an edit of that text, its comments and layout kept
    (`core.yamlmerge`), written only while the file still holds those bytes; `text` is that
    edit when the caller made it (a value changed, not added)."""
    from orkestra.core import safewrite, yamlio, yamlmerge

    check_record(root, path, data, was)
    if text is None:
        made = yamlio.dumps(data)
        text = yamlmerge.updated(was.text, was.data, data, _rel(root, path)) if was else made
    old = None if new else (was.raw if was is not None else safewrite.UNSET)
    safewrite.write_file(root, path, text, expected_old=old)


def check_record(root: Path, path: Path, data: dict[str, Any], was: _Read | None = None) -> None:
    """Refuse `data`, the record at `path`, when the record schema does: an `InputError` in
    validate's words at the line of `was` (the record as read) it concerns. A record edited by
    hand into a shape the schema refuses is refused before anything is written."""
    from pydantic import ValidationError

    from orkestra.core import yamlio
    from orkestra.registry.models.decisions import DecisionRecord

    try:
        DecisionRecord.model_validate(data)
    except ValidationError as exc:
        from orkestra.registry.loader import describe_error  # what validate says, word for word

        error = exc.errors()[0]
        loc = tuple(error["loc"])
        line = yamlio.line_of(was.data, loc) if was is not None else None
        raise InputError(
            describe_error(error, loc, DecisionRecord) + "; correct the record, then run again",
            file=_rel(root, path),
            line=line,
        ) from None


class _Read(NamedTuple):
    """A record file as read: its bytes, its text and its data."""

    raw: bytes
    text: str
    data: dict[str, Any]


def read_record(root: Path, path: Path) -> _Read:
    from orkestra.core import yamlio

    rel = _rel(root, path)
    raw = path.read_bytes()
    text = yamlio.read_text(path, display=rel, bom=True)  # edited and written back
    return _Read(raw, text, yamlio.load_mapping(path, display=rel))  # its lines kept


def _one_or_all(ids: list[str]) -> str | list[str] | None:
    """`supersedes` naming every current entry (one id, or a list), so exactly one stands."""
    return (ids[0] if len(ids) == 1 else ids) if ids else None


def _extract(root: Path, did: str, shas: list[str]) -> int:
    """Append `extract` lines for commits not already extracted into `did`; return the count."""
    with ledger.transaction(root):
        return _extract_locked(root, did, shas)


def _extract_locked(root: Path, did: str, shas: list[str]) -> int:
    entries = ledger.entries(root / ledger.CLASSIFICATIONS)
    current = ledger.by_sha(entries, "decisions")
    lines = []
    stamp = ledger.now()
    for sha in shas:
        previous = current.get(sha, [])
        if [(e.get("action"), e.get("decision_id")) for e in previous] == [("extract", did)]:
            continue
        entry = {
            "id": ledger.new_id("c"),
            "ts": stamp,
            "sha": sha,
            "domain": "decisions",
            "action": "extract",
            "decision_id": did,
            "supersedes": _one_or_all([str(e["id"]) for e in previous]),
        }
        lines.append(entry)
    ledger.append(root, lines, [])
    return len(lines)


def update(root: Path, did: str, commits: list[str] | None = None) -> dict[str, Any]:
    """Append commits (given, and every ledger line extracting into `did`) to its record's
    `source_commits`; a pending id (in the ledger, no record yet) gets its record created."""
    if not ID_RE.match(did):
        raise UsageError(f"malformed decision id {did!r}: expected DEC-XX-NNN")
    given = _commit_records(root, commits or [])
    refs = [e["sha"] for e in ledger_refs(root).get(did, [])]
    from_ledger = _commit_records(root, [s for s in refs if s not in {r["sha"] for r in given}])
    paths = [p for rid, p in records(root) if rid == did]
    if len(paths) > 1:
        files = ", ".join(_rel(root, p) for p in paths)
        raise ConflictError(
            f"{did} is defined twice ({files}); run `orkestra decisions renumber {did}`"
        )
    found = given + from_ledger
    was: _Read | None = None
    if paths:
        path = paths[0]
        was = read_record(root, path)
        check_record(root, path, was.data, was)
        data: dict[str, Any] = dict(was.data)
        created = False
    else:
        if not found:
            raise NotFound(f"decision {did} has no record and no ledger line refers to it")
        code = did[4:6]
        name = next((n for n, c in domains(root).items() if c == code), None)
        if name is None:
            raise NotFound(f"decision code {code} is not in {REGISTRY.as_posix()}")
        path = root / RECORDS / f"{did}.yaml"
        refuse_in_the_way(root, path, did)
        data = {
            "id": did,
            "title": _title(found[0]),
            "domain": name,
            "status": "proposed",
            "created": _today(),
            "source_commits": [],
            "files": [],
        }
        created = True
    sources = [dict(s) for s in data.get("source_commits") or []]
    have = {s.get("sha") for s in sources}
    added = []
    for rec in found:
        if rec["sha"] not in have:
            sources.append(_source(rec, "primary" if not sources else "supporting"))
            added.append(rec["sha"])
    data["source_commits"] = sources
    listed = list(data.get("files") or [])  # in the record's own order, new ones after
    data["files"] = listed + sorted({f for r in found for f in r["files"]} - set(listed))
    if added or created:
        _write_record(root, path, data, new=created, was=was)
    with _undone_on_failure(root, path) if created else contextlib.nullcontext():
        written = _extract(root, did, [r["sha"] for r in given])
    return {
        "id": did,
        "file": _rel(root, path),
        "created": created,
        "added_commits": added,
        "ledger": written,
    }
