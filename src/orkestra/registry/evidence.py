"""`orkestra truths verify`: each ground truth's evidence checked against the code (§3.5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from orkestra.core.clock import today
from orkestra.core.errors import NotFound
from orkestra.core.lines import find_whole, split_lines
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry
from orkestra.registry.unloaded import load_failures


def split(evidence: str, root: Path) -> tuple[str, str | None]:
    """`path#anchor` or `path:symbol` -> (path, needle); a plain path -> (path, None)."""
    if "#" in evidence:
        path, needle = evidence.split("#", 1)
        return path, needle or None
    if ":" in evidence and target(root, evidence) is None:
        path, needle = evidence.split(":", 1)
        return path, needle or None
    return evidence, None


def target(root: Path, rel: str) -> Path | None:
    """The evidence file or folder `rel` inside the project; None when missing or outside it
    (including through a symlink) or when the path cannot exist (too long, NUL)."""
    try:
        path = (root / rel).resolve()
        if path.is_relative_to(root.resolve()) and path.exists():
            return path
    except (OSError, ValueError):
        pass  # a path that cannot exist (too long, NUL): missing evidence, which the caller reports
    return None


def _find(path: Path, needle: str) -> int | None:
    """1-based line of the first occurrence of `needle` as whole words (`core.lines.find_whole`:
    `class Task` is not found in `class TaskItem`), or of a markdown heading it is the anchor of."""
    try:
        lines = split_lines(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:  # unreadable evidence counts as not found; the caller reports it
        return None
    slug = needle.lower().replace("-", " ")
    for number, line in enumerate(lines, 1):
        if find_whole(line, needle) >= 0:
            return number
        if (
            line.lstrip().startswith("#")
            and line.lstrip("# ").strip().lower().replace("-", " ") == slug
        ):
            return number
    return None


def check_evidence(root: Path, evidence: str) -> dict[str, Any]:
    """One evidence item: ok / missing-file / missing-anchor, with the line where it was found;
    `invalid` (with a `reason`) for what cannot be checked: an empty path (`''`, `'#x'` would
    name the project itself) or an anchor or symbol on a folder, FIFO or device."""
    rel, needle = split(evidence, root)
    if not rel.strip():
        return _invalid(evidence, "the path is empty; name a file inside the project")
    found = target(root, rel)
    if found is None:
        return {"evidence": evidence, "status": "missing-file", "line": None}
    if needle is None:
        return {"evidence": evidence, "status": "ok", "line": None}
    if not found.is_file():
        kind = "a folder" if found.is_dir() else "not a regular file (a FIFO, socket or device)"
        return _invalid(
            evidence,
            f"'{rel}' is {kind}: an anchor (#...) or symbol (:...) is looked up in a file; "
            "name the file that holds it",
        )
    line = _symbol_line(root, evidence, rel, needle) or _find(found, needle)
    return {"evidence": evidence, "status": "ok" if line else "missing-anchor", "line": line}


def _invalid(evidence: str, reason: str) -> dict[str, Any]:
    return {"evidence": evidence, "status": "invalid", "line": None, "reason": reason}


def _symbol_line(root: Path, evidence: str, rel: str, needle: str) -> int | None:
    """`path:symbol` through the code map when one is built (the definition's current line)."""
    if "#" in evidence:
        return None
    from orkestra.codemap.locate import symbol_line

    return symbol_line(root, rel, needle)


def require_truth(reg: Registry, truth_id: str) -> None:
    """NotFound unless `truth_id` is registered; while a truths file failed to load, the
    message names it (`file:line`): the truth may be in it."""
    if truth_id in reg.truths:
        return
    broken = unloaded(reg)
    hint = f"; {broken[0].format()} (fix it first)" if broken else ""
    raise NotFound(f"no truth with id '{truth_id}'{hint}; `orkestra truths list` shows them")


def verify_truths(reg: Registry, *, truth_id: str | None = None) -> dict[str, Any]:
    """Check every (or one) truth: evidence found in the code, and last_verified not stale.
    `errors` lists the truth files that could not be loaded (their truths are not checked)."""
    if truth_id is not None:
        require_truth(reg, truth_id)
    limit = reg.config.truths.stale_after_days
    now = today()
    results = []
    for tid in sorted(reg.truths):
        if truth_id and tid != truth_id:
            continue
        truth = reg.truths[tid]
        checks = [check_evidence(reg.root, e) for e in truth.evidence]
        age = (
            (now - dt.date.fromisoformat(truth.last_verified)).days if truth.last_verified else None
        )
        stale = truth.status != "deprecated" and (age is None or age > limit)
        loc = reg.loc("truth", tid)
        results.append(
            {
                "id": tid,
                "status": truth.status,
                "ok": all(c["status"] == "ok" for c in checks) and not stale,
                "stale": stale,
                "age_days": age,
                "evidence": checks,
                "path": loc.file,
                "line": loc.line or None,
            }
        )
    failing = [r["id"] for r in results if not r["ok"]]
    return {
        "checked": len(results),
        "failing": failing,
        "errors": [f.to_dict() for f in unloaded(reg)],
        "stale_after_days": limit,
        "truths": results,
    }


def unloaded(reg: Registry) -> list[Finding]:
    """The load errors of truth files (a misspelled key, bad YAML): the truths they hold are
    missing from the registry, so `verify` must fail naming them rather than check nothing."""
    folder = f"{(reg.registries / 'truths').relative_to(reg.root).as_posix()}/"
    return [f for f in load_failures(reg) if f.file.startswith(folder)]
