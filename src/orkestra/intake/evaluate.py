"""Evaluate candidates: spec check, trust review, adoption criteria, depth and verdict."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from orkestra.core.errors import InputError, NotFound
from orkestra.intake import criteria as crit
from orkestra.intake import spec as spec_check
from orkestra.intake.depth import depth
from orkestra.intake.provenance import Activity, activity
from orkestra.intake.review import Review, review_folder
from orkestra.intake.rules import Finding, RuleSet, default_rules
from orkestra.intake.scan import TRUST, scan_text
from orkestra.intake.verdict import Verdict, decide, deciding
from orkestra.intake.walker import Entry, LinkNames, find_candidates, link_names, read_bytes, walk


@dataclass(frozen=True)
class Options:
    """How candidates are judged and, with --apply, registered."""

    provider: str | None = None
    layer: str = "K3"
    scopes: tuple[str, ...] = ()
    trust: str = "vendor"
    today: dt.date = field(default_factory=dt.date.today)


@dataclass
class Candidate:
    """One evaluated skill folder."""

    name: str
    folder: Path
    path: str  # as displayed: relative to the project root when inside it
    spec: spec_check.SpecResult
    review: Review
    criteria: dict[str, crit.Criterion]
    depth: dict[str, Any]
    verdict: Verdict = "review"
    reasons: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return self.review.findings

    @property
    def description(self) -> str:
        value = self.spec.meta.get("description", "")
        return value.strip() if isinstance(value, str) else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "verdict": self.verdict,
            "reasons": self.reasons,
            "depth": self.depth,
            "criteria": {k: v.to_dict() for k, v in self.criteria.items()},
            "spec": self.spec.to_dict(),
            "findings": [f.to_dict() for f in sorted(self.findings, key=_finding_order)],
            "files": len(self.review.entries),
            "deciding": deciding(self.findings, self.verdict),
        }


def _finding_order(f: Finding) -> tuple[int, str, int, str]:
    return ({"high": 0, "medium": 1, "low": 2}[f.severity], f.file, f.line, f.rule)


def display_of(folder: Path, base: Path) -> str:
    """`folder` relative to `base` (posix, trailing slash), or its absolute path."""
    try:
        rel = folder.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:  # outside `base`: shown as an absolute path
        return f"{folder.as_posix()}/"
    return "" if rel == "." else f"{rel}/"


def evaluate(
    folder: Path,
    display: str,
    known: list[crit.Known],
    history: Activity,
    options: Options,
    rules: RuleSet,
    *,
    entries: list[Entry] | None = None,
    siblings: LinkNames | None = None,
) -> Candidate:
    """Judge one candidate folder. Reads files only; nothing in the folder is executed.
    `entries`, `siblings`: its walk and the import's hard-linked names (`review_folder`)."""
    review = review_folder(folder, display, rules, entries=entries, siblings=siblings)
    skill_md = next(e for e in review.entries if e.rel == "SKILL.md")
    raw = read_bytes(skill_md, int(rules.criteria.get("max_file_bytes", 1 << 20))) or b""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:  # the review already reports `not-utf8` for SKILL.md
        text = ""
    body_max = int(rules.criteria.get("body_max_lines", 500))
    result = spec_check.check(text, folder.name, body_max_lines=body_max)
    if not text:
        problem = "a symlink" if skill_md.kind == "symlink" else "empty, too large or not UTF-8"
        result.errors.insert(0, f"SKILL.md is {problem}; it was not read")
    name_value = result.meta.get("name")
    name = name_value.strip() if isinstance(name_value, str) and name_value.strip() else folder.name
    description = result.meta.get("description")
    description = description if isinstance(description, str) else ""
    threshold = float(rules.criteria.get("similarity_threshold", 85))
    criteria = {
        "fills_real_gap": crit.fills_real_gap(
            name, description, known, threshold, options.provider
        ),
        "well_structured": crit.well_structured(result, rules),
        "actively_maintained": crit.actively_maintained(
            history.maintained(folder), history.since.isoformat(), options.trust
        ),
        "portable": crit.portable(review, rules, display),
        "tested": crit.tested(review, result),
    }
    candidate = Candidate(
        name,
        folder,
        display.rstrip("/") or ".",
        result,
        review,
        criteria,
        depth(review, description, rules),
    )
    review.findings.extend(_frontmatter_values(result.meta, text, display, rules))
    candidate.verdict, candidate.reasons = decide(review.findings, criteria)
    return candidate


def _frontmatter_values(
    meta: dict[str, Any], text: str, display: str, rules: RuleSet
) -> list[Finding]:
    """Frontmatter values as YAML reads them: a double-quoted `\\x49gnore` or a `\\`-continued
    line is not the text on disk, but it is the description the model is shown. Values that are
    not verbatim in the file are scanned again (trust findings only, at the key's line)."""
    found: list[Finding] = []
    for key, value in _strings(meta):
        if not value.strip() or value in text:
            continue
        line = next(
            (n for n, raw in enumerate(text.split("\n"), 1) if raw.lstrip().startswith(f"{key}:")),
            1,
        )
        for finding in scan_text(rules, "doc", f"{display}SKILL.md", value):
            if finding.category in TRUST and finding.severity != "low":
                why = f"in the frontmatter value '{key}' as YAML reads it; {finding.reason}"
                found.append(replace(finding, line=line, reason=why.rstrip("; ")))
    return found


def _strings(value: Any, key: str = "") -> list[tuple[str, str]]:
    """(key, string) for every string in a frontmatter value, nested ones too."""
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, str(k))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, key)]
    return []


def evaluate_tree(
    path: Path,
    base: Path,
    known: list[crit.Known],
    options: Options,
    rules: RuleSet | None = None,
    folders: list[Path] | None = None,
) -> list[Candidate]:
    """Evaluate every candidate below `path` (or the given `folders`)."""
    rules = rules or default_rules()
    if not path.exists():  # a path that names nothing: exit 1, as `orkestra import` and --root
        what = "no such file or folder; give the path of a skill folder or a tree of them"
        raise NotFound(what, file=str(path))
    given = folders is not None
    if folders is None:
        if path.is_file() and path.name == "SKILL.md":
            path = path.parent
        if path.is_symlink() or not path.is_dir():
            why = "not a folder (symlinks are not followed); give a skill folder or a tree of them"
            raise InputError(why, file=str(path))
        folders = find_candidates(path)
        if not folders:
            raise NotFound(f"{path}: no SKILL.md found at or below this folder")
    days = int(rules.criteria.get("maintained_days", 183))
    history = activity(path if path.is_dir() else path.parent, options.today, days)
    walks = {folder: walk(folder) for folder in folders}
    # a file hard-linked between candidates of this import (a vendor folder deduplicated by
    # `jdupes -L` or `rdfind`) is not linked outside: every name of it is reviewed
    siblings = link_names([e for entries in walks.values() for e in entries])
    if given and path.is_dir() and any(e.nlink > 1 for entries in walks.values() for e in entries):
        for other in find_candidates(path):  # `skills audit` reviews the registered ones only
            if other not in walks:
                link_names(walk(other), siblings)
    out = [
        evaluate(
            f,
            display_of(f, base),
            known,
            history,
            options,
            rules,
            entries=walks[f],
            siblings=siblings,
        )
        for f in folders
    ]
    _name_clashes(out)
    return out


def _name_clashes(candidates: list[Candidate]) -> None:
    """Two candidates with one name cannot both be registered: neither is adopted."""
    by_name: dict[str, list[Candidate]] = {}
    for candidate in candidates:
        by_name.setdefault(candidate.name, []).append(candidate)
    for group in by_name.values():
        if len(group) < 2:
            continue
        for candidate in group:
            others = ", ".join(c.path for c in group if c is not candidate)
            if candidate.verdict == "adopt":
                candidate.verdict, candidate.reasons = "review", []
            candidate.reasons.append(f"name clash: '{candidate.name}' also at {others}")


def summary(candidates: list[Candidate]) -> dict[str, Any]:
    """Counts: candidates, adopted, review, rejected, and findings per rule."""
    verdicts = Counter(c.verdict for c in candidates)
    by_rule = Counter(f.rule for c in candidates for f in c.findings)
    return {
        "candidates": len(candidates),
        "adopted": verdicts["adopt"],
        "review": verdicts["review"],
        "rejected": verdicts["reject"],
        "by_rule": dict(sorted(by_rule.items())),
    }
