"""Classifications carried to the commits that replaced theirs (rebase, amend, cherry-pick).

A rewritten commit gets a new sha but makes the same change. Its classification, under the
old sha, would leave it a candidate again and its entry out of the changelog. `mine sync`
matches such commits by patch id (`git patch-id --stable`, what `git cherry` uses) and carries
the classification over: one new ledger line per classification, for the new sha, with the
same decision and summary, superseding the old line (and its release notes superseding the
old notes), so `mine validate` no longer reports the old commit as missing from the history.

Cheap when there is nothing to carry: the ledger's shas are compared with the index. Otherwise
git runs three times for the whole batch, never once per commit: the authors and dates of the
gone commits (a rewrite keeps both, so only commits sharing them are diffed), one `git log -p`
of those few commits, and one `git patch-id` over it. A patch id shared by more than one gone
or new commit is ambiguous and carries nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core import jsonio
from orkestra.core.errors import InputError
from orkestra.mining import index
from orkestra.registry import ledger

if TYPE_CHECKING:
    from orkestra.mining.classify import Plan
    from orkestra.registry.models.config import Config

_FULL_SHA = frozenset("0123456789abcdef")


def carry(root: Path, config: Config | None) -> int:
    """Carry the classifications of commits no longer in the history to the indexed, still
    unclassified commits that make the same change; the number of ledger lines written.

    Looked at once per state of the ledger and the index: a stamp of both (the ledger's size,
    times and inode, the indexed HEAD) beside the index makes a repeated `mine sync` free."""
    stamp = _stamp(root)
    if stamp is None:
        return 0  # nothing classified yet, or nothing indexed
    try:
        if jsonio.read_json(index.folder(root) / "carried.json") == stamp:
            return 0
    except (OSError, InputError):
        pass  # no stamp yet (or a damaged one): look
    written = _carry(root, config)
    again = _stamp(root)
    if again is not None:
        index.write_json(index.folder(root) / "carried.json", again)
    return written


def _stamp(root: Path) -> dict[str, Any] | None:
    header = index.read_header(root)
    try:
        info = (root / ledger.CLASSIFICATIONS).stat()
    except OSError:
        return None
    if header is None:
        return None
    key = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    return {"ledger": key, "head": header.head, "size": header.size}


def _named(root: Path) -> set[str]:
    """Every full sha the classification ledger names, read without parsing its lines (a
    whole history's ledger parses in a large fraction of a second; this scan is a few ms)."""
    import re

    from orkestra.core.readfile import open_regular

    with open_regular(root / ledger.CLASSIFICATIONS) as handle:
        data = handle.read()
    return {m.decode() for m in re.findall(rb'"sha"\s*:\s*"([0-9a-f]{40})"', data)}


def _carry(root: Path, config: Config | None) -> int:
    indexed = index.shas(root)
    known = set(indexed)
    if _named(root) <= known:
        return 0
    with ledger.transaction(root):
        existing = ledger.entries(root / ledger.CLASSIFICATIONS)
        grouped = ledger.by_domain(existing)
        in_ledger = {sha for shas in grouped.values() for sha in shas}
        gone = sorted(s for s in in_ledger if s not in known and _full(s))
        if not gone:
            return 0
        moved = _moved(root, gone, [s for s in indexed if s not in in_ledger])
        if not moved:
            return 0
        from orkestra.mining.classify import apply, plan
        from orkestra.mining.sync import load_config

        notes = ledger.current(ledger.linked(ledger.entries(root / ledger.RELEASE_NOTES), existing))
        requests, olds = _requests(moved, grouped, notes)
        the_plan = plan(root, requests, config or load_config(root))
        _supersede(the_plan, olds, notes, _left(root, moved))
        apply(root, the_plan)
        return len(the_plan.classifications)


def _left(root: Path, moved: dict[str, str]) -> dict[str, str]:
    """Those of `moved` whose old commit left every branch and tag (a rebase, an amend). An old
    commit a branch still holds was copied (a cherry-pick, a backport): it keeps its own line,
    which the copy's must not supersede, or its branch would lose it (and carry it back)."""
    from orkestra.core import git

    stdin = "".join(f"{sha}\n" for sha in moved).encode()
    out = git.run(root, "rev-list", "--not", "--branches", "--tags", "--stdin", stdin=stdin)
    gone = set(out.stdout.split())
    return {old: new for old, new in moved.items() if old in gone}


def _full(sha: str) -> bool:
    return len(sha) == 40 and not set(sha) - _FULL_SHA


def _requests(
    moved: dict[str, str], grouped: dict[str, dict[str, list[dict[str, Any]]]], notes: list[Any]
) -> tuple[list[Any], dict[tuple[str, str, Any], list[str]]]:
    """One request per current classification of a gone commit, for its new sha (with the
    summary its release notes show), and (new sha, domain, package) -> the ids it replaces."""
    from orkestra.mining.classify import Request

    requests: list[Any] = []
    olds: dict[tuple[str, str, Any], list[str]] = {}
    for old, new in sorted(moved.items()):
        for domain, by_sha in sorted(grouped.items()):
            for entry in by_sha.get(old, []):
                package = entry.get("package")
                summary = entry.get("summary")
                if summary is None and entry.get("action") == "release":
                    shown = {
                        n.get("summary")
                        for n in notes
                        if n.get("sha") == old and package in (None, n.get("package"))
                    }
                    summary = shown.pop() if len(shown) == 1 else None
                requests.append(
                    Request(
                        sha=new,
                        domain=domain,
                        action=str(entry.get("action")),
                        category=entry.get("category"),
                        summary=summary,
                        package=package,
                        decision_id=entry.get("decision_id"),
                        reason=entry.get("reason"),
                    )
                )
                olds.setdefault((new, domain, package), []).append(str(entry["id"]))
    return requests, olds


def _supersede(
    the_plan: Plan,
    olds: dict[tuple[str, str, Any], list[str]],
    notes: list[dict[str, Any]],
    moved: dict[str, str],
) -> None:
    """Each carried line supersedes the line of the gone commit it was carried from (`moved`:
    old sha -> new sha of the commits that left every branch)."""
    back = {new: old for old, new in moved.items()}
    for entry in the_plan.classifications:
        if entry["sha"] not in back:
            continue  # a copy: the old commit keeps its line
        ids = olds.get((entry["sha"], entry["domain"], entry.get("package")), [])
        entry["supersedes"] = ids[0] if len(ids) == 1 else ids
    for note in the_plan.notes:
        old = back.get(note["sha"])
        ids = [
            str(n["id"])
            for n in notes
            if n.get("sha") == old and n.get("package") == note["package"]
        ]
        ids += [i for i in _as_list(note.get("supersedes")) if i not in ids]
        note["supersedes"] = (ids[0] if len(ids) == 1 else ids) or None


def _as_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _moved(root: Path, gone: list[str], fresh: list[str]) -> dict[str, str]:
    """Gone sha -> the unclassified indexed sha with the same patch id (one each way)."""
    if not fresh:
        return {}
    who = _authors(root, gone)
    if not who:
        return {}  # the gone commits are not in the repository any more (a fresh clone)
    wanted = set(who.values())
    records = index.LazyRecords(root)
    same = [s for s in fresh if (records[s]["email"], records[s]["date"]) in wanted]
    if not same:
        return {}
    ids = _patch_ids(root, [*who, *same])
    olds: dict[str, list[str]] = {}
    news: dict[str, list[str]] = {}
    for sha in who:
        if sha in ids:
            olds.setdefault(ids[sha], []).append(sha)
    for sha in same:
        if sha in ids:
            news.setdefault(ids[sha], []).append(sha)
    return {
        olds[pid][0]: shas[0]
        for pid, shas in news.items()
        if len(shas) == 1 and len(olds.get(pid, [])) == 1
    }


def _revs(root: Path, args: list[str], shas: list[str]) -> bytes:
    """The output of one `git log --no-walk` over `shas` (given on stdin; missing ones ignored)."""
    import tempfile

    from orkestra.core import git

    with tempfile.TemporaryFile() as revs:
        revs.write("".join(f"{sha}\n" for sha in shas).encode())
        revs.seek(0)
        cmd = ["log", *git.LOG_SAFETY, "--no-walk=unsorted", "--ignore-missing", *args, "--stdin"]
        return b"".join(git.stream(root, cmd, stdin=revs))


def _authors(root: Path, shas: list[str]) -> dict[str, tuple[str, str]]:
    """sha -> (author email, author date) of those `shas` the repository still holds."""
    out = _revs(root, ["--format=%H%x00%ae%x00%aI"], shas).decode("utf-8", "replace")
    found = {}
    for line in out.splitlines():
        sha, _, rest = line.partition("\0")
        email, _, date = rest.partition("\0")
        found[sha] = (email, date)
    return found


def _patch_ids(root: Path, shas: list[str]) -> dict[str, str]:
    """sha -> stable patch id (a commit without a diff, a merge, has none)."""
    from orkestra.core import git

    diff = _revs(root, ["-p", "--no-color", "--no-renames", "--format=commit %H"], shas)
    if not diff.strip():
        return {}
    out = git.run(root, "patch-id", "--stable", stdin=diff).stdout
    ids = {}
    for line in out.splitlines():
        pid, _, sha = line.partition(" ")
        if sha:
            ids[sha.strip()] = pid
    return ids


def sync_and_carry(root: Path) -> dict[str, Any]:
    """`mine sync`: the index brought up to date, then classifications carried to the commits
    that replaced theirs (`carried`: ledger lines written)."""
    from orkestra.mining.sync import sync

    result = sync(root)
    return {**result, "carried": carry(root, None)}
