"""`mine status` (coverage per domain) and `mine candidates` (what is left to classify)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from orkestra.core import jsonio
from orkestra.core.errors import InputError
from orkestra.mining import index
from orkestra.registry import ledger

DOMAINS = ("changelog", "decisions")
THREE_QUESTIONS = (
    "Was it hard to make? (alternatives weighed, a real trade-off)",
    "Is it costly to reverse? (data formats, public APIs, dependencies, infrastructure)",
    "Is it system-wide? (many packages or every caller affected)",
)
SUGGESTED = {
    "feat": "added",
    "fix": "fixed",
    "perf": "changed",
    "refactor": "changed",
    "revert": "removed",
    "deprecate": "deprecated",
    "security": "security",
}


def _classified(root: Path) -> dict[str, dict[str, str]]:
    """Domain -> sha -> action of its current classification.

    Derived from the ledger and cached in the index folder, keyed by the ledger's size, mtime,
    ctime (a same-size copy with the old mtime still moves it) and inode, so listing candidates
    does not re-parse tens of thousands of lines.
    """
    path = root / ledger.CLASSIFICATIONS
    cache = index.folder(root) / "classified.json"
    try:
        info = path.stat()
        key = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    except FileNotFoundError:  # nothing classified yet
        return {domain: {} for domain in DOMAINS}
    try:
        data = jsonio.read_json(cache)
        if data.get("key") == key:
            return {domain: data[domain] for domain in DOMAINS}
    except (OSError, InputError, KeyError, AttributeError, TypeError):
        pass  # a missing or damaged derived cache: recomputed from the ledger below
    grouped = ledger.by_domain(ledger.entries(path))
    out = {
        d: {sha: str(e[0].get("action")) for sha, e in grouped.get(d, {}).items()} for d in DOMAINS
    }
    index.write_json(cache, {"key": key, **out})
    return out


def classified(root: Path) -> dict[str, dict[str, str]]:
    """Domain -> sha -> action of its current classification (cached beside the index)."""
    return _classified(root)


def status(root: Path) -> dict[str, Any]:
    """Coverage of the ledger over the indexed commits, per domain (§6.2)."""
    shas = index.shas(root)
    total = len(shas)
    classified = _classified(root)
    out: dict[str, Any] = {}
    for domain, first, second in (
        ("decisions", "extracted", "skipped"),
        ("changelog", "released", "skipped"),
    ):
        done = classified[domain]
        counts = {"release": 0, "extract": 0, "skip": 0, "pending": 0}
        processed = 0
        for sha in shas:
            action = done.get(sha)
            if action:
                processed += 1
                counts[action] = counts.get(action, 0) + 1
        block: dict[str, Any] = {
            "coverage": round(100.0 * processed / total, 1) if total else 0.0,
            "processed": processed,
            "total": total,
            first: counts["extract" if domain == "decisions" else "release"],
            second: counts["skip"],
        }
        if domain == "decisions":
            block["pending"] = counts["pending"]
        out[domain] = block
    return out


def candidates(
    root: Path, *, limit: int = 20, full: bool = False, domains: tuple[str, ...] = ()
) -> tuple[list[dict[str, Any]], int]:
    """The newest `limit` commits not yet classified (in any of `domains`, by default in
    either), with stats, and how many there are in all (only the listed ones are decoded)."""
    classified = _classified(root)
    domains = tuple(d for d in DOMAINS if d in domains) or DOMAINS
    picked: list[tuple[index.Record, list[str]]] = []
    total = 0
    for sha, line in index.newest_first(root):
        missing = [d for d in domains if sha not in classified[d]]
        if missing:
            total += 1
            if len(picked) < limit:
                picked.append((index.decode(line, root=root), missing))
    stats = _stats(root, [r["sha"] for r, _ in picked])
    return [_candidate(r, missing, stats[r["sha"]], full) for r, missing in picked], total


def _stats(root: Path, shas: list[str]) -> dict[str, list[int]]:
    """Insertions/deletions from the cache, computing the missing ones in one git call."""
    cache = index.read_stats(root)
    missing = [s for s in shas if s not in cache]
    if missing:
        from orkestra.mining.gitcmd import Git

        for sha, (ins, dels) in Git(root).numstat(missing).items():
            cache[sha] = [ins, dels]
        for sha in missing:
            cache.setdefault(sha, [0, 0])
        index.write_stats(root, cache)
    return {s: cache[s] for s in shas}


def _candidate(
    record: index.Record, missing: list[str], stat: list[int], full: bool
) -> dict[str, Any]:
    sig = record["signals"]
    out: dict[str, Any] = {
        "sha": record["sha"],
        "date": record["date"],
        "subject": record["subject"],
        "signals": {
            "commit_type": sig["commit_type"],
            "scope": sig["scope"],
            "breaking": sig["breaking"],
            "is_releasable_type": sig["is_releasable_type"],
            "domains_affected": sig["domains_affected"],
            "packages": sig["packages"],
            "merge": record["merge"],
        },
        "files_changed": record["files"],
        "stats": {"files": len(record["files"]), "insertions": stat[0], "deletions": stat[1]},
        "unclassified": missing,
    }
    if full:
        out["body"] = record["body"]
        out["author"] = record["author"]
        out["hints"] = hints(record)
    return out


def hints(record: index.Record) -> dict[str, Any]:
    """Classification hints shown by `--full`: the three-question test, a suggested category."""
    sig = record["signals"]
    kind = sig["commit_type"]
    category, releasable = _suggestion(record["subject"].lower(), kind, sig)
    if kind == "revert":
        category, releasable = _relanded(record["subject"], sig) or (category, releasable)
    return {
        "three_question_test": list(THREE_QUESTIONS),
        "decision_signals": {
            "breaking": sig["breaking"],
            "packages": len(sig["packages"]),
            "files": len(record["files"]),
        },
        "suggested_changelog": (
            {"action": "release", "category": category or "changed"}
            if releasable and not record["merge"]
            else {"action": "skip", "reason": f"{kind or 'non-conventional'} commit"}
        ),
        "typical_decision_rate": "1-4 per 100 commits",
    }


#: a security word (whole words: `securityContext` is an identifier, not a security fix)
_SECURITY = re.compile(r"\b(?:security|vulnerabilit(?:y|ies)|cve-\d{4}-\d+)\b")
#: conventional types whose commits no user gets: a security word there is no release
_NEVER_RELEASED = frozenset({"docs", "test", "tests", "ci", "style"})
#: the leading verb of a free-form subject -> its Keep a Changelog category
_VERBS = {
    **dict.fromkeys(("fix", "fixes", "fixed", "resolve", "resolves", "resolved"), "fixed"),
    **dict.fromkeys(("add", "adds", "added", "implement", "implements", "implemented",
                     "introduce", "introduces", "introduced", "support", "supports"), "added"),
    **dict.fromkeys(("remove", "removes", "removed", "drop", "drops", "dropped", "delete",
                     "deletes", "deleted"), "removed"),
    **dict.fromkeys(("deprecate", "deprecates", "deprecated"), "deprecated"),
    **dict.fromkeys(("improve", "improves", "improved", "change", "changes", "changed",
                     "speed", "optimize", "optimise", "make", "makes"), "changed"),
}  # fmt: skip
#: free-form housekeeping that never belongs in a changelog
_HOUSEKEEPING = re.compile(
    r"^(?:wip|merge|bump|release|version)\b|\b(?:typos?|readme|changelog|dependencies|deps)\b"
)


def _relanded(subject: str, sig: dict[str, Any]) -> tuple[str | None, bool] | None:
    """The suggestion for a revert of a revert (`Revert "Revert "X""`, `Reapply "X"`): it lands
    X again, so X's own (None for any other revert: it removes what it reverts)."""
    from orkestra.mining.conventional import parse, revert_chain
    from orkestra.mining.signals import DEFAULT_RELEASABLE

    depth, inner = revert_chain(subject)
    if not depth or depth % 2:
        return None
    kind = parse(inner).type
    return _suggestion(
        inner.lower(), kind, {**sig, "is_releasable_type": kind in DEFAULT_RELEASABLE}
    )


def _suggestion(text: str, kind: str | None, sig: dict[str, Any]) -> tuple[str | None, bool]:
    """(category, whether to release) for a commit's lower-cased subject. A free-form subject
    (no conventional type) is judged by its leading verb; housekeeping is skipped."""
    if kind is None:
        verb = re.match(r"[a-z]+", text)
        category = _VERBS.get(verb.group()) if verb else None
        if _HOUSEKEEPING.search(text):
            return None, False
    else:
        category = SUGGESTED.get(kind)
    releasable = sig["is_releasable_type"] or (kind is None and category is not None)
    if kind in _NEVER_RELEASED:
        return category, releasable
    if _SECURITY.search(text):
        return "security", True
    if "deprecat" in text:
        return "deprecated", releasable
    if sig["breaking"] and any(w in text for w in ("remove", "drop", "delete")):
        return "removed", releasable
    if sig["breaking"] and category == "added":  # a breaking feature changes what exists
        return "changed", releasable
    return category, releasable


def coverage(registry: Any) -> dict[str, Any]:
    """Ledger coverage for `system status`, from the existing index (no git is run)."""
    root: Path = registry.root
    blocked = index.unusable(root)
    if blocked is not None:  # status answers all the same: the ledger part says why and what to do
        return {
            "indexed": False,
            "reason": blocked.message,
            "file": blocked.file,
            "hint": f"move '{blocked.file}' away, then run `orkestra mine sync`",
        }
    if index.read_header(root) is None:
        from orkestra.core.git import in_work_tree  # no git is run: status stays cheap

        if not in_work_tree(root):  # `mine sync` would refuse: say what comes first
            return {
                "indexed": False,
                "reason": "not a git repository",
                "hint": "run `git init` and commit, then `orkestra mine sync`",
            }
        return {"indexed": False, "hint": "run `orkestra mine sync` to index the history"}
    return {"indexed": True, **status(root)}
