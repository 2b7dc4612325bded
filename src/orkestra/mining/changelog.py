"""`changelog render`: CHANGELOG.md per package from the release-notes ledger (§6.7).

Keep a Changelog 1.1.0: `## [Unreleased]` first, then releases newest first, each with the
sections Added, Changed, Deprecated, Removed, Fixed, Security (empty ones omitted). A release is a
tag: plain (`v1.2.3`, `1.2.3`) or package-scoped (`pkg@1.2.3`, `pkg-v1.2.3`, `pkg/v1.2.3`); a
package with scoped tags uses only its own, others use the plain ones. A commit belongs to the
first release (lowest version) whose tag contains it. A revert and the commit it reverts cancel
each other when both fall in the same release (a revert of that revert lands the change again).
The output depends only on the ledger and the history: rendering twice, or after deleting the
file, gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from orkestra.core.errors import ConflictError, InputError, NotFound, UnsafePathError, UsageError
from orkestra.mining import index
from orkestra.mining.changelog_links import Links, origin, references
from orkestra.registry import ledger

SECTIONS = ("added", "changed", "deprecated", "removed", "fixed", "security")
_SEMVER = r"(?P<ver>(?P<maj>\d+)\.(?P<min>\d+)\.(?P<pat>\d+)(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?)"
_PLAIN = re.compile(rf"^[vV]?{_SEMVER}$")
#: `pkg@1.2.3` (npm, changesets), `pkg-v1.2.3` (cargo-release), `pkg/v1.2.3` (Go modules)
_SCOPED = re.compile(rf"^(?P<pkg>.+?)(?:@v?|-v|/v){_SEMVER}$")
HEADER = (
    "# Changelog\n\n"
    "All notable changes to {package} will be documented in this file.\n\n"
    "The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),\n"
    "and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).\n"
)


@dataclass(frozen=True, order=True)
class Release:
    key: tuple[Any, ...]
    version: str
    tag: str = field(compare=False)
    sha: str = field(compare=False)
    date: str = field(compare=False)


def version_key(match: re.Match[str]) -> tuple[Any, ...]:
    """Semantic-version order: a pre-release sorts before its release."""
    pre = match.group("pre")
    parts: tuple[Any, ...] = ()
    if pre:
        parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))
    return (
        int(match.group("maj")),
        int(match.group("min")),
        int(match.group("pat")),
        not pre,
        parts,
    )


def releases_of(package: str, tags: list[tuple[str, str, str]], known: set[str]) -> list[Release]:
    """The releases of one package, oldest version first (tags outside the history ignored).

    Several tags naming one version (`v1.0.0` and `1.0.0`, after a change of tag style) are one
    release: the tag with a `v` wins, then the first name in sort order.
    """
    scoped, plain = [], []
    for name, sha, date in sorted(tags, key=lambda t: (t[0][:1] not in ("v", "V"), t[0])):
        if sha not in known:
            continue
        match = _PLAIN.match(name)
        if match:
            plain.append(Release(version_key(match), match.group("ver"), name, sha, date))
            continue
        match = _SCOPED.match(name)
        if match and match.group("pkg").rsplit("/", 1)[-1] == package.rsplit("/", 1)[-1]:
            scoped.append(Release(version_key(match), match.group("ver"), name, sha, date))
    return sorted(_one_per_version(scoped or plain))


def _one_per_version(releases: list[Release]) -> list[Release]:
    """The first release of each version (`releases` come in the order of preference)."""
    seen: dict[tuple[Any, ...], Release] = {}
    for release in releases:
        seen.setdefault(release.key, release)
    return list(seen.values())


def assign(releases: list[Release], parents: dict[str, list[str]]) -> dict[str, Release]:
    """Map each commit to the first release whose tag contains it (one walk over the graph)."""
    owner: dict[str, Release] = {}
    for release in releases:
        stack = [release.sha]
        while stack:
            sha = stack.pop()
            if sha in owner or sha not in parents:
                continue  # an ancestor of an owned commit is owned by that release or earlier
            owner[sha] = release
            stack.extend(parents[sha])
    return owner


def render_all(
    root: Path,
    config: Any,
    packages: list[str] | None = None,
    *,
    check: bool = False,
    into_existing: bool = False,
    dry_run: bool = False,
    force: bool = False,
) -> list[dict[str, Any]]:
    """Render (or with `check` compare) CHANGELOG.md of the given packages, or all of them.

    A hand-written CHANGELOG.md, or one Orkestra wrote and someone edited since, is never
    overwritten: every file is planned first, and if any would be refused (`ConflictError`)
    nothing is written. `into_existing` keeps such a file byte for byte below a managed block;
    `force` overwrites an edited file of Orkestra's; `dry_run` returns the plan, writes nothing.
    """
    from orkestra.mining.gitcmd import Git
    from orkestra.mining.sync import sync

    known = config.changelogs()
    for name in packages or ():
        if name not in known:
            raise NotFound(f"unknown package {name!r}; known: {', '.join(sorted(known))}")
    shallow = sync(root, config)["shallow"]
    records = index.LazyRecords(root)
    parents = {sha: records.parents(sha) for sha in records}
    tags = Git(root).tags()
    notes = release_notes(root)
    by_package: dict[str, list[dict[str, Any]]] = {}
    for note in notes:
        if note["sha"] in records:
            by_package.setdefault(note["package"], []).append(note)
    names = packages or _every(root, config, known, by_package)
    if shallow:
        _refuse_shallow([n for n in notes if n["package"] in names and n["sha"] not in records])
    order = newest_first({n["sha"] for n in notes if n["sha"] in records}, records, parents)
    known_shas = set(records)
    reverts = revert_targets(records, records.maybe_reverts())
    links = origin(root)
    for name in names:  # before anything is planned or written
        _refuse_other_repository(root, name, known[name])
    plans = []
    for name in names:
        releases = releases_of(name, tags, known_shas)
        owner = assign(releases, parents)
        mine = by_package.get(name, [])
        text, stats = render_text(name, releases, owner, mine, records, order, reverts, links)
        plans.append(_plan(root, name, known[name], text, stats, into_existing, force))
    if dry_run:
        return [plan.result(dry_run=True) for plan in plans]
    if check:  # --check reports a file it would refuse as changed
        return [plan.result(check=True) for plan in plans]
    _refuse(plans)
    from orkestra.core import safewrite

    # one batch: every changelog is written before the first is renamed into place, so a full
    # disk at the last package leaves all of them as they were
    with safewrite.Batch(root) as batch:
        for plan in plans:
            if plan.changed:
                batch.file(plan.rel, plan.placement.text, expected_old=plan.raw)
    return [plan.result() for plan in plans]


def _refuse_other_repository(root: Path, package: str, rel: str) -> None:
    """A package whose CHANGELOG.md would go inside a git submodule (or another repository
    checked out in the project: a folder holding `.git`) is refused: writing it would change
    another repository's working tree. The error names the package's line in orkestra.yaml."""
    import os

    parts = Path(rel).parts[:-1]
    for end in range(1, len(parts) + 1):
        folder = "/".join(parts[:end])
        if not os.path.lexists(root / folder / ".git"):
            continue
        from orkestra.core import project, yamlio
        from orkestra.registry.config_file import read_config

        line = yamlio.line_of(read_config(root), ("mining", "packages", package))
        raise InputError(
            f"package {package!r}: its CHANGELOG.md would go to {rel}, inside '{folder}', a git "
            "submodule (or another repository checked out here), whose files Orkestra does not "
            "write; keep that changelog in its own repository and remove the package from "
            "mining.packages. Nothing was written",
            file=project.CONFIG,
            line=line,
        )


def _refuse_shallow(unseen: list[dict[str, Any]]) -> None:
    """A shallow clone (CI's default `fetch-depth: 1`) lacks the history behind its boundary:
    rendering would drop every release note of it from the changelogs, so it is refused."""
    if not unseen:
        return
    count = len(unseen)
    raise InputError(
        f"this is a shallow clone: {count} release note{'s name' if count > 1 else ' names'} commits "
        "behind its boundary, which the changelog would lose. Nothing was written. Run `git "
        "fetch --unshallow` (in CI, clone the whole history, e.g. `fetch-depth: 0`), then render "
        "again",
        file=ledger.RELEASE_NOTES.as_posix(),
    )


def _every(
    root: Path, config: Any, known: dict[str, str], notes: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """`--all`: every configured package, and the root package when the ledger gives it notes
    or its CHANGELOG.md is already Orkestra's (a hand-written root changelog of a monorepo is
    left alone until a release note belongs there)."""
    from orkestra.core import managed_block
    from orkestra.mining.changelog_file import BEGIN, END

    names = sorted(known)
    rootp = config.root_package
    if rootp in config.mining.packages or rootp in notes:
        return names
    path = root / known[rootp]
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
    except (OSError, UnicodeDecodeError):  # unreadable: the render of it would report why
        return names
    if (
        text.startswith(HEADER.format(package=rootp))
        or managed_block.find(text, BEGIN, END)[0] >= 0
    ):
        return names  # Orkestra's, or holding its block (a marker named in prose is not one)
    return [n for n in names if n != rootp]


def release_notes(root: Path) -> list[dict[str, Any]]:
    """Current release notes whose classification (if linked) is a current release, one per
    commit and package. Two that stand side by side (a union merge of two branches that
    classified one commit differently, which `mine validate` reports until it is classified
    again) give the latest one (by timestamp, then id): never one commit in two sections."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for note in _live_notes(root):
        key = (note["sha"], note["package"])
        if key not in best or (note["ts"], note["id"]) > (best[key]["ts"], best[key]["id"]):
            best[key] = note
    return list(best.values())


def _live_notes(root: Path) -> list[dict[str, Any]]:
    classes = ledger.entries(root / ledger.CLASSIFICATIONS)
    live = {c.get("id") for c in ledger.current(classes) if c.get("action") == "release"}
    notes = []
    # an orphan (its classification never landed) is left out before `current`: it supersedes
    # nothing, so the notes it would have replaced still show
    for note in ledger.current(ledger.linked(ledger.entries(root / ledger.RELEASE_NOTES), classes)):
        link = note.get("classification")
        if link is not None and link not in live:
            continue
        fields_ok = all(isinstance(note.get(k), str) for k in ("id", "sha", "package", "summary"))
        if fields_ok and note.get("category") in SECTIONS:
            notes.append(note)
    return notes


def render_text(
    package: str,
    releases: list[Release],
    owner: dict[str, Release],
    notes: list[dict[str, Any]],
    records: Mapping[str, dict[str, Any]],
    order: dict[str, int],
    reverts: dict[str, list[str]] | None = None,
    links: Links | None = None,
) -> tuple[str, dict[str, int]]:
    """The CHANGELOG.md text and counts (releases, entries, cancelled); with `links` (the
    remote's web address) the link references of the releases at the bottom."""
    buckets: dict[Release | None, list[dict[str, Any]]] = {}
    for note in notes:
        buckets.setdefault(owner.get(note["sha"]), []).append(note)
    cancelled = 0
    reverts = revert_targets(records) if reverts is None else reverts
    for key, items in buckets.items():
        kept = _cancel_reverts(items, reverts, owner, key)
        cancelled += len(items) - len(kept)
        buckets[key] = kept
    parts = [HEADER.format(package=package), "\n## [Unreleased]\n"]
    parts += _sections(buckets.get(None, []), records, order)
    shown = []
    for release in sorted(releases, reverse=True):
        items = buckets.get(release, [])
        if not items:
            continue
        shown.append(release)
        parts.append(f"\n## [{release.version}] - {release.date}\n")
        parts += _sections(items, records, order)
    parts.append(references(links, releases, shown))
    entries = sum(len(v) for v in buckets.values())
    return "".join(parts), {"releases": len(shown), "entries": entries, "cancelled": cancelled}


def _cancel_reverts(
    items: list[dict[str, Any]],
    reverts: dict[str, list[str]],
    owner: dict[str, Release],
    bucket: Release | None,
) -> list[dict[str, Any]]:
    """The notes left once the reverts inside this release are netted out, whether or not each
    revert was classified. A commit and its chain of reverts (the revert, the revert of that
    revert, ...) all in this release cancel when the chain undoes the change (an odd number of
    reverts); when it lands it again (an even number) the reverts cancel in pairs and the change
    stays: the commit's own note, or when it has none, the last re-land's. A revert of several
    commits is in the chain of each; one that also reverts a commit released before keeps its
    own note (it removes something users had) unless it is reverted in this release too."""
    child: dict[str, str] = {}
    partial: set[str] = set()
    for revert, targets in sorted(reverts.items()):
        if owner.get(revert) != bucket:
            continue
        for target in targets:
            if owner.get(target) == bucket:
                child.setdefault(target, revert)
            else:
                partial.add(revert)
    reverting = set(child.values())
    noted = {note["sha"] for note in items}
    drop: set[str] = set()
    keep = {sha for sha in partial if sha not in child}  # unless reverted itself here
    for start in child:
        if start in reverting:
            continue  # inside a chain: walked from the chain's first commit
        chain = [start]
        while chain[-1] in child and child[chain[-1]] not in chain:  # a forged cycle ends it
            chain.append(child[chain[-1]])
        drop.update(chain)
        if len(chain) % 2:  # an even number of reverts: the change is live
            keep.add(start if start in noted else chain[-1])
    return [n for n in items if n["sha"] not in drop or n["sha"] in keep]


def revert_targets(
    records: Mapping[str, dict[str, Any]], candidates: Iterable[str] | None = None
) -> dict[str, list[str]]:
    """Revert commit sha -> the full shas it reverts (abbreviated targets resolved; unknown ones,
    or ambiguous abbreviations, left out)."""
    import bisect

    out: dict[str, list[str]] = {}
    ordered: list[str] | None = None
    for sha in records if candidates is None else candidates:
        found: list[str] = []
        for target in records[sha]["signals"].get("reverts") or ():
            if target in records:
                found.append(target)
                continue
            if ordered is None:
                ordered = sorted(records)
            at = bisect.bisect_left(ordered, target)
            hits = [s for s in ordered[at : at + 2] if s.startswith(target)]
            if len(hits) == 1:
                found.append(hits[0])
        if found:
            out[sha] = list(dict.fromkeys(found))
    return out


def newest_first(
    shas: Iterable[str], records: Mapping[str, dict[str, Any]], parents: dict[str, list[str]]
) -> dict[str, int]:
    """The rank of each commit in a changelog section, newest first: by author date (as an
    instant), then deeper in the history first (a commit before its parent when their dates tie),
    then by sha. A function of the history alone: never of the order the commit index was
    built in (incrementally or whole), so a fresh clone renders the same bytes."""
    depth = _depths(parents)

    def key(sha: str) -> tuple[float, int, str]:
        return (-_instant(str(records[sha].get("date", ""))), -depth.get(sha, 0), sha)

    return {sha: rank for rank, sha in enumerate(sorted(shas, key=key))}


def _instant(date: str) -> float:
    import datetime as dt

    try:
        return dt.datetime.fromisoformat(date).timestamp()
    except ValueError:  # not a date git writes: no place in time, the other keys decide
        return 0.0


def _depths(parents: dict[str, list[str]]) -> dict[str, int]:
    """Each commit's longest distance from a root of the indexed history (iterative: a history
    of 100,000 commits is no recursion)."""
    depth: dict[str, int] = {}
    for start in parents:
        stack = [start]
        while stack:
            sha = stack[-1]
            if sha in depth:
                stack.pop()
                continue
            known = [p for p in parents[sha] if p in parents]
            pending = [p for p in known if p not in depth]
            if pending:
                stack.extend(pending)
                continue
            depth[sha] = 1 + max((depth[p] for p in known), default=-1)
            stack.pop()
    return depth


def _sections(
    items: list[dict[str, Any]], records: Mapping[str, dict[str, Any]], order: dict[str, int]
) -> list[str]:
    out = []
    ranked = sorted(items, key=lambda n: (order[n["sha"]], n["id"]))
    for section in SECTIONS:
        lines = [_line(n, records) for n in ranked if n["category"] == section]
        if lines:
            out.append(f"\n### {section.capitalize()}\n\n" + "".join(lines))
    return out


def _line(note: dict[str, Any], records: Mapping[str, dict[str, Any]]) -> str:
    breaking = "**Breaking:** " if records[note["sha"]]["signals"].get("breaking") else ""
    summary = " ".join(str(note["summary"]).split())
    return f"- {breaking}{summary} ({note['sha'][:7]})\n"


@dataclass
class _FilePlan:
    package: str
    rel: str
    raw: bytes | None
    placement: Any  # changelog_file.Placement
    stats: dict[str, int]

    @property
    def changed(self) -> bool:
        text = self.placement.text
        if text is None:  # refused: the file is not what a render would leave
            return True
        return self.raw is None or self.raw != text.encode("utf-8")

    def result(self, *, dry_run: bool = False, check: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"package": self.package, "path": self.rel}
        if dry_run:
            action = self.placement.action if self.changed else "unchanged"
            out |= {"action": action, "would_change": self.changed and action != "refuse"}
            if self.placement.reason:
                out["reason"] = self.placement.reason
        else:
            out["changed" if check else "written"] = self.changed
        return out | self.stats


def _plan(
    root: Path,
    package: str,
    rel: str,
    text: str,
    stats: dict[str, int],
    into_existing: bool,
    force: bool,
) -> _FilePlan:
    from orkestra.core import safewrite
    from orkestra.mining.changelog_file import place

    if rel.startswith("/") or ".." in Path(rel).parts:
        raise UnsafePathError(
            f"changelog path {rel} leaves the project", file="registries/orkestra.yaml"
        )
    path = root / safewrite.check_target(root, rel)  # no symlink on the way, read or written
    raw = path.read_bytes() if path.is_file() else None
    header = HEADER.format(package=package)
    try:
        old = None if raw is None else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        from orkestra.core.lines import line_at

        data = raw or b""
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            what, line = "is UTF-16 text", 1
        else:
            what, line = f"is not UTF-8 text (byte {exc.start})", line_at(data, exc.start)
        raise InputError(
            f"{rel} {what}; save it as UTF-8, then render again; nothing was written",
            file=rel,
            line=line,
        ) from exc
    placement = place(old, header, text[len(header) :], into_existing=into_existing, force=force)
    return _FilePlan(package, rel, raw, placement, stats)


def _refuse_lone_marker(plan: _FilePlan, others: str) -> None:
    from orkestra.mining.changelog_file import END

    missing = plan.placement.missing
    where = "after the block's last line" if missing == END else "before its first"
    raise ConflictError(
        f"refusing to render {plan.rel}{others}: {plan.placement.reason}. Nothing was written. "
        f"Put the missing marker back ({missing} on a line of its own, {where}), or delete what "
        "is left of the block (that marker and the releases Orkestra wrote beside it) and render "
        "with `--into-existing` to write it anew",
        file=plan.rel,
        line=plan.placement.lone_marker,
    )


def _refuse(plans: list[_FilePlan]) -> None:
    refused = [p for p in plans if p.placement.action == "refuse"]
    if not refused:
        return
    first = refused[0]
    others = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
    if first.placement.lone_marker is not None:
        _refuse_lone_marker(first, others)
    if first.placement.in_block:
        raise ConflictError(
            f"refusing to render {first.rel}{others}: {first.placement.reason}, and rendering "
            "would discard the edit. Nothing was written. Move hand-written text out of the "
            "managed block (above its begin marker or below its end marker) to keep it, or put "
            "the change into the ledger (`orkestra mine classify SHA --changelog CATEGORY "
            "--summary TEXT`) and run with `--force` to rewrite the block from the ledger",
            file=first.rel,
        )
    if first.placement.edited:
        raise ConflictError(
            f"refusing to overwrite {first.rel}{others}: {first.placement.reason}, and rendering "
            "would discard the edit. Nothing was written. Run `orkestra changelog render "
            "--into-existing` to keep the file byte for byte below a managed block, or put the "
            "change into the ledger (`orkestra mine classify SHA --changelog CATEGORY --summary "
            "TEXT`) and run with `--force` to rewrite the file from the ledger (the edit is lost)",
            file=first.rel,
        )
    raise ConflictError(
        f"refusing to overwrite {first.rel}{others}: {first.placement.reason}. Nothing was "
        "written. Run `orkestra changelog render --into-existing` to keep it byte for byte "
        "below a managed block for the releases the ledger covers, `--dry-run` to see the "
        "plan, or move the file away to let Orkestra write it whole",
        file=first.rel,
    )


def parse_packages(package: str | None, every: bool) -> list[str] | None:
    """`--package P` or `--all` (exactly one)."""
    if package and every:
        raise UsageError("give --package NAME or --all, not both")
    if not package and not every:
        raise UsageError("give --package NAME or --all")
    return None if every else [str(package)]
