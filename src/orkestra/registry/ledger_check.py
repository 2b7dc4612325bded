"""Ledger validity (§6.6): the checks that need no git (`mine validate --quick`, `validate`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from orkestra.registry import ledger
from orkestra.registry.findings import Finding

SAME = ("action", "category", "decision_id", "package")
#: what to do about a line a reader skips (its commit is unclassified again, or keeps an older entry)
IGNORED = (
    "; it is ignored: repair the line, or delete it and classify its commit again "
    "(`orkestra mine classify SHA ...`)"
)
_CONFLICT_MARKERS = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")


def _unreadable(line: ledger.Line) -> str:
    """Why a line is not an entry, and what to do; a merge-conflict marker is named as one."""
    if line.text.startswith(_CONFLICT_MARKERS):
        return (
            "a merge conflict marker: the ledger is append-only, so keep the lines of both "
            "sides and delete the marker lines (`merge=union` for the ledgers in "
            ".gitattributes makes git merge them so)"
        )
    return f"{line.error}{IGNORED}"


def findings(registry: Any) -> list[Finding]:
    """Findings about both ledgers of `registry.root` (line format, torn lines, duplicate ids,
    conflicting classifications, unknown `supersedes`, decision references)."""
    root: Path = registry.root
    records = set(getattr(registry, "decisions", {}) or {})
    codes = _codes(registry)
    config = getattr(registry, "config", None)
    packages = set(config.changelogs()) if config is not None else None
    return check(root, records, codes, packages=packages)


def _codes(registry: Any) -> set[str] | None:
    dreg = getattr(registry, "decisions_registry", None)
    domains = getattr(dreg, "domains", None)
    return set(domains.values()) if domains else None


def check(
    root: Path, records: set[str], codes: set[str] | None, *, packages: set[str] | None = None
) -> list[Finding]:
    """The quick checks, given the decision record ids that exist, the registered codes and
    the configured packages (the root package included; None: not checked)."""
    from orkestra.registry.models.ledger import ClassificationEntry, ReleaseNoteEntry

    out: list[Finding] = []
    parsed: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for rel, model in (
        (ledger.CLASSIFICATIONS, ClassificationEntry),
        (ledger.RELEASE_NOTES, ReleaseNoteEntry),
    ):
        file = rel.as_posix()
        parsed[file] = _lines(root / rel, file, model.model_validate, out)
    classes = parsed[ledger.CLASSIFICATIONS.as_posix()]
    notes = parsed[ledger.RELEASE_NOTES.as_posix()]
    out += _duplicate_ids(parsed)
    out += _unknown_supersedes(parsed)
    out += _conflicts(classes, ledger.CLASSIFICATIONS.as_posix())
    out += _decision_refs(classes, records, codes)
    out += _orphan_notes(notes, classes)
    out += _unnoted_releases(classes, notes)
    out += _duplicate_notes(notes, classes)
    out += _bad_dates(notes)
    if packages is not None:
        out += _unknown_packages(notes, classes, packages)
    return sorted(out)


def _lines(
    path: Path, file: str, validate: Callable[[Any], Any], out: list[Finding]
) -> list[tuple[int, dict[str, Any]]]:
    from pydantic import ValidationError

    good = []
    for line in ledger.read_lines(path):
        if line.torn:
            out.append(
                Finding.make(
                    "ORK051",
                    "torn last line (no newline, an interrupted write); it is ignored: remove it",
                    file,
                    line.number,
                )
            )
            continue
        if line.data is None:
            out.append(Finding.make("ORK050", _unreadable(line), file, line.number))
            continue
        try:
            validate(line.data)
        except ValidationError as exc:
            for error in exc.errors():
                where = ".".join(str(p) for p in error["loc"])
                said = str(error["msg"]).removeprefix("Value error, ")  # a validator's own words
                message = f"{where}: {said}" if where else said
                out.append(Finding.make("ORK050", message + IGNORED, file, line.number))
            continue
        good.append((line.number, line.data))
    return good


def _duplicate_ids(parsed: dict[str, list[tuple[int, dict[str, Any]]]]) -> list[Finding]:
    out = []
    seen: dict[str, str] = {}
    for file, lines in parsed.items():
        for number, entry in lines:
            here = f"{file}:{number}"
            if entry["id"] in seen:
                message = f"entry id {entry['id']} is used twice (also at {seen[entry['id']]})"
                out.append(Finding.make("ORK054", message, file, number))
            else:
                seen[entry["id"]] = here
    return out


def _unknown_supersedes(parsed: dict[str, list[tuple[int, dict[str, Any]]]]) -> list[Finding]:
    out = []
    for file, lines in parsed.items():
        ids = {entry["id"] for _, entry in lines}
        for number, entry in lines:
            for target in ledger.supersedes(entry):
                if target not in ids:
                    message = f"`supersedes` names {target}, which is not an entry of this ledger"
                    out.append(Finding.make("ORK055", message, file, number))
    return out


def _conflicts(lines: list[tuple[int, dict[str, Any]]], file: str) -> list[Finding]:
    """Two current (unsuperseded) classifications of one sha in one domain, same or not: only
    one entry may stand, so a resolution supersedes every other one (a list in `supersedes`)."""
    where = {id(entry): number for number, entry in lines}
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for entry in ledger.current(e for _, e in lines):
        groups.setdefault((entry["sha"], entry["domain"]), []).append(entry)
    out = []
    for (sha, domain), group in groups.items():
        group.sort(key=lambda e: where[id(e)])
        first = group[0]
        for other in group[1:]:
            if not _overlap(first, other):
                continue
            same = all(first.get(k) == other.get(k) for k in SAME)
            message = (
                f"commit {sha[:12]} is classified twice in {domain}: "
                f"{_describe(first)} (line {where[id(first)]}) and {_describe(other)}"
                + (" (the same decision recorded twice)" if same else "")
                + f"; classify it again (`orkestra mine classify {sha[:12]} ...`) to record "
                "one entry that supersedes both"
            )
            out.append(Finding.make("ORK052", message, file, where[id(other)]))
    return out


def _duplicate_notes(
    lines: list[tuple[int, dict[str, Any]]], classes: list[tuple[int, dict[str, Any]]]
) -> list[Finding]:
    """Two live release notes for one commit and package (e.g. a batch applied twice). A note is
    live when nothing supersedes it and its classification (if it names one) is current."""
    file = ledger.RELEASE_NOTES.as_posix()
    where = {id(entry): number for number, entry in lines}
    notes = _live_notes(lines, classes)
    first: dict[tuple[str, str], dict[str, Any]] = {}
    out = []
    for note in sorted(notes, key=lambda e: where[id(e)]):
        key = (note["sha"], note["package"])
        if key not in first:
            first[key] = note
            continue
        message = (
            f"commit {note['sha'][:12]} has two release notes for package {note['package']} "
            f"(also line {where[id(first[key])]}); neither supersedes the other"
        )
        out.append(Finding.make("ORK058", message, file, where[id(note)]))
    return out


def _live_notes(
    lines: list[tuple[int, dict[str, Any]]], classes: list[tuple[int, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The release notes that take effect: nothing supersedes them and their classification
    (if they name one) is current."""
    live = {e["id"] for e in ledger.current(e for _, e in classes)}
    effective = ledger.current(ledger.linked((e for _, e in lines), (e for _, e in classes)))
    notes = [n for n in effective if n.get("classification") in live]
    return notes + [n for n in effective if not n.get("classification")]


def _bad_dates(notes: list[tuple[int, dict[str, Any]]]) -> list[Finding]:
    """Release notes whose `date` is not a calendar date (`2099-13-45`, `yesterday`): a hand
    edit gone wrong. A warning: the changelog dates its versions from tags, the note renders."""
    import datetime as dt
    import re

    out = []
    for number, note in notes:
        date = note.get("date")
        if date is None:
            continue
        try:
            ok = bool(re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", date))
            ok = ok and dt.date.fromisoformat(date).isoformat() == date
        except ValueError:
            ok = False
        if not ok:
            message = (
                f"release note date {date!r} is not a calendar date (YYYY-MM-DD); write its "
                "commit's date (`git show -s --format=%as SHA`)"
            )
            out.append(Finding.make("ORK062", message, ledger.RELEASE_NOTES.as_posix(), number))
    return out


def _unknown_packages(
    lines: list[tuple[int, dict[str, Any]]],
    classes: list[tuple[int, dict[str, Any]]],
    packages: set[str],
) -> list[Finding]:
    """Live release notes of a package the configuration does not have (renamed or removed
    in `mining.packages`, or the project renamed): no changelog shows them. One warning per
    package, at its first note."""
    where = {id(entry): number for number, entry in lines}
    lost: dict[str, list[int]] = {}
    for note in _live_notes(lines, classes):
        if note["package"] not in packages:
            lost.setdefault(note["package"], []).append(where[id(note)])
    out = []
    for package, numbers in sorted(lost.items()):
        count = len(numbers)
        message = (
            f"{count} release note{'s name' if count > 1 else ' names'} package {package!r}, "
            "which mining.packages in registries/orkestra.yaml does not configure (renamed or "
            "removed?), so no changelog shows them; configure it again, or move them to its new "
            'name with `orkestra mine commit` (a line per commit, `"package": "NEW"`); '
            f"configured: {', '.join(sorted(packages))}"
        )
        out.append(Finding.make("ORK061", message, ledger.RELEASE_NOTES.as_posix(), min(numbers)))
    return out


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.get("package") is None or b.get("package") is None or a["package"] == b["package"]


def _describe(entry: dict[str, Any]) -> str:
    detail = entry.get("category") or entry.get("decision_id") or entry.get("reason") or ""
    return f"{entry['action']} {detail}".strip()


def _decision_refs(
    lines: list[tuple[int, dict[str, Any]]], records: set[str], codes: set[str] | None
) -> list[Finding]:
    out = []
    file = ledger.CLASSIFICATIONS.as_posix()
    live = {id(e) for e in ledger.current(e for _, e in lines)}
    for number, entry in lines:
        did = entry.get("decision_id")
        if not did or id(entry) not in live:
            continue
        if codes is not None and did[4:6] not in codes:
            message = f"{did}: code {did[4:6]} is not in decisions/registry.yaml"
            out.append(Finding.make("ORK029", message, file, number))
        elif did not in records:
            message = f"{did} has no record yet (pending); create it with `orkestra decisions update {did}`"
            out.append(Finding.make("ORK053", message, file, number))
    return out


def _orphan_notes(
    notes: list[tuple[int, dict[str, Any]]], classes: list[tuple[int, dict[str, Any]]]
) -> list[Finding]:
    """Release notes whose classification is not in the ledger (a write interrupted between the
    two ledgers, or a hand edit), unless a later note already replaced them."""
    where = {id(entry): number for number, entry in notes}
    gone = {target for _, entry in notes for target in ledger.supersedes(entry)}
    file = ledger.RELEASE_NOTES.as_posix()
    out = []
    of = {e["id"]: (number, e.get("sha")) for number, e in classes if isinstance(e.get("id"), str)}
    for note in ledger.orphans((e for _, e in notes), (e for _, e in classes)):
        if note["id"] in gone:
            continue
        link = note["classification"]
        if isinstance(link, str) and link in of:
            number, sha = of[link]
            message = (
                f"release note names commit {note['sha'][:12]}, but the classification it links "
                f"({link}, line {number} of {ledger.CLASSIFICATIONS.as_posix()}) is of commit "
                f"{str(sha)[:12]} (a hand edit or a merge resolution?); it is ignored: delete "
                f"the line and classify commit {str(sha)[:12]} again to write its note"
            )
            out.append(Finding.make("ORK057", message, file, where[id(note)]))
            continue
        message = (
            f"release note links classification {note['classification']}, which is not in the "
            f"ledger (an interrupted write?); it is ignored: classify commit {note['sha'][:12]} "
            "again to record it whole"
        )
        out.append(Finding.make("ORK057", message, file, where[id(note)]))
    return out


def _unnoted_releases(
    classes: list[tuple[int, dict[str, Any]]], notes: list[tuple[int, dict[str, Any]]]
) -> list[Finding]:
    """Current release classifications that no release note links: the commit counts as
    classified but its changelog entry is missing (a write interrupted between the ledgers by
    an earlier version, or a deleted note line)."""
    linked = ledger.linked_ids((n for _, n in notes), (e for _, e in classes))
    live = {id(e) for e in ledger.current(e for _, e in classes)}
    file = ledger.CLASSIFICATIONS.as_posix()
    out = []
    for number, entry in classes:
        if entry["action"] != "release" or id(entry) not in live or entry["id"] in linked:
            continue
        package = f" --package {entry['package']}" if entry.get("package") else ""
        message = (
            f"release classification {entry['id']} of commit {entry['sha'][:12]} has no release "
            f"note, so the changelog lacks it; run `orkestra mine classify {entry['sha'][:12]} "
            f"--changelog {entry['category']}{package}` again to write the missing note"
        )
        out.append(Finding.make("ORK059", message, file, number))
    return out
