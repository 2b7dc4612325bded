"""`mine validate [--quick]`: the quick ledger checks, plus (with git) every sha in the history."""

from __future__ import annotations

from typing import Any

from orkestra.mining.commits import CommitLookup
from orkestra.registry import ledger, ledger_check
from orkestra.registry.findings import Finding


def validate(registry: Any, *, quick: bool = False) -> list[Finding]:
    """All ledger findings; without `quick` the index is synced and every sha looked up."""
    found = ledger_check.findings(registry)
    if quick:
        return found
    from orkestra.mining.sync import sync

    shallow = sync(registry.root, registry.config)["shallow"]
    commits = CommitLookup(registry.root)
    full = set(commits.shas())
    for rel in (ledger.CLASSIFICATIONS, ledger.RELEASE_NOTES):
        unseen: list[tuple[int, str]] = []
        lines = ledger.read_lines(registry.root / rel)
        # a superseded line takes no effect (a commit classified again, or a rebased commit's
        # classification carried to its new sha): its commit may be gone from the history
        replaced = {t for line in lines for t in ledger.supersedes(line.data or {})}
        for line in lines:
            sha = (line.data or {}).get("sha")
            if not isinstance(sha, str) or line.torn or sha in full:
                continue
            if (line.data or {}).get("id") in replaced:
                continue
            if len(sha) < 40 and any(s.startswith(sha) for s in full):
                continue
            unseen.append((line.number, sha))
        if shallow and unseen:  # behind the boundary, or not in the history: git cannot tell
            found.append(_unchecked(rel.as_posix(), unseen))
            continue
        for number, sha in unseen:
            message = (
                f"commit {sha[:12]} is not in the history of the current branch: if an amend, "
                "rebase, squash merge or force-push replaced it, classify the commit that replaced "
                "it (`orkestra mine candidates` lists it) and delete this line; if it is on "
                "another branch, validate there"
            )
            found.append(Finding.make("ORK056", message, rel.as_posix(), number))
    return sorted(found)


def _unchecked(file: str, unseen: list[tuple[int, str]]) -> Finding:
    """One warning for the shas of a ledger that a shallow clone cannot look up."""
    count = len({sha for _, sha in unseen})
    message = (
        f"commits named here that this shallow clone does not hold were not checked ({count}, "
        f"first at line {unseen[0][0]}); run `git fetch --unshallow` to check them"
    )
    return Finding.make("ORK060", message, file, unseen[0][0])


def summary(found: list[Finding]) -> dict[str, Any]:
    """The JSON shape `mine validate` prints."""
    errors = sum(1 for f in found if f.severity == "error")
    return {
        "ok": errors == 0,
        "errors": errors,
        "warnings": len(found) - errors,
        "findings": [f.to_dict() for f in found],
    }
