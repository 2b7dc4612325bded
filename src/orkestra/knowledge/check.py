"""`orkestra notes check` (§8.2): every source resolved against the code; confidence lifecycle.

Outcome per source: confirmed (file exists, pattern found at path:line), contradicted (file or
pattern gone), ambiguous (cannot be decided here: unknown repo, missing checkout, path leaving the
repository). A note is contradicted when any source is, confirmed when all are, ambiguous otherwise
(including a note with no sources). Contradicted notes are reported, never deleted.
"""

# os.path on strings: thousands of sources are resolved per run, pathlib costs 3x more here
# ruff: noqa: PTH112, PTH116, PTH118, PTH120, PTH123

from __future__ import annotations

import datetime as dt
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core.lines import find_whole
from orkestra.core.project import CONFIG
from orkestra.knowledge import edit
from orkestra.knowledge.cache import CheckCache, stat_key
from orkestra.knowledge.links import check_links
from orkestra.knowledge.notes import KnowledgeBase, Note, Problem, Source, load_notes
from orkestra.knowledge.settings import Settings

if TYPE_CHECKING:  # the code map is opened only when a note cites a symbol
    from orkestra.codemap.locate import Locator


class _Files:
    """Reads each cited file once, and resolves each folder once, whatever the number of notes."""

    def __init__(self, cache: CheckCache | None = None) -> None:
        self.cache = cache
        self.texts: dict[str, str | None] = {}
        self.real: dict[str, str] = {}
        self.used: set[str] = set()
        self.dirs: dict[str, bool] = {}
        self.locator: Locator | None = None
        self.renames: dict[str, dict[str, str]] = {}

    def text(self, path: str) -> str | None:
        if path not in self.texts:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    self.texts[path] = handle.read()
            except OSError:  # an unreadable source counts as missing: the caller's finding
                self.texts[path] = None
        return self.texts[path]

    def find(self, path: str, st: os.stat_result, pattern: str) -> tuple[bool, int | None]:
        """(readable, 1-based line of the first occurrence or None)."""
        self.used.add(path)
        key = stat_key(st)
        if self.cache is not None:
            cached = self.cache.pattern(path, key, pattern)
            if cached is not False:
                return True, cached or None
        text = self.text(path)
        if text is None:
            return False, None
        at = find_whole(text, pattern)
        line = text.count("\n", 0, at) + 1 if at >= 0 else None
        if self.cache is not None:
            self.cache.put_pattern(path, key, pattern, line)
        return True, line

    def symbol_line(self, root: Path, path: str, symbol: str) -> int | None:
        """Where `symbol` is defined in `path`, from the code map when one is built."""
        if self.locator is None:
            from orkestra.codemap.locate import Locator

            self.locator = Locator(root)
        return self.locator.line(path, symbol)

    def renamed_to(self, base: str, rel: str) -> str | None:
        """Where git's rename detection says the missing file `rel` of the checkout `base` went
        (committed renames, then staged ones: `git mv`), if it exists there now; the renames of a
        checkout are asked of git once, on its first missing file, never per file."""
        if base not in self.renames:
            self.renames[base] = _git_renames(base)
        moves = self.renames[base]
        path, seen = os.path.normpath(rel), set()
        while path in moves and path not in seen:  # a -> b, then b -> c: a is now c
            seen.add(path)
            path = moves[path]
        if not seen or not os.path.lexists(os.path.join(base, path)):
            return None
        return path.replace(os.sep, "/")

    def is_dir(self, folder: str) -> bool:
        if folder not in self.dirs:
            self.dirs[folder] = os.path.isdir(folder)
        return self.dirs[folder]

    def is_work_tree(self, folder: str) -> bool:
        """Whether `folder` is the top of a git work tree (holds `.git`, a folder or a file)."""
        key = os.path.join(folder, ".git")
        if key not in self.dirs:
            self.dirs[key] = os.path.lexists(key)
        return self.dirs[key]

    def realdir(self, folder: str) -> str:
        if folder not in self.real:
            self.real[folder] = os.path.realpath(folder)
        return self.real[folder]

    def inside(self, base: str, target: str, st: os.stat_result) -> bool:
        """Whether `target` (lstat `st`; after symlinks) stays inside `base`."""
        root = self.realdir(base)
        parent = self.realdir(os.path.dirname(target))
        if parent != root and not parent.startswith(root + os.sep):
            return False
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(target)
            return real == root or real.startswith(root + os.sep)
        return True

    def inside_dir(self, base: str, target: str) -> bool:
        """Whether the folder of a missing `target` stays inside `base`."""
        root = self.realdir(base)
        parent = self.realdir(os.path.dirname(target))
        return parent == root or parent.startswith(root + os.sep)


def _git_renames(base: str) -> dict[str, str]:
    """old path -> new path (relative to `base`) of every rename git detects in the history of
    HEAD, oldest first, then in the index (`git mv` not yet committed); empty when `base` is not
    in a git work tree or git fails (the source stays "file not found")."""
    from orkestra.core import git
    from orkestra.core.errors import InputError

    moves: dict[str, str] = {}
    history = ("log", *git.LOG_SAFETY, "-M", "--diff-filter=R", "--name-status", "-z",
               "--format=", "--relative", "--reverse", "HEAD")  # fmt: skip
    staged = ("diff", "--no-ext-diff", "--cached", "-M", "--diff-filter=R", "--name-status",
              "-z", "--relative", "HEAD")  # fmt: skip
    for args in (history, staged):
        try:
            result = git.run(base, *args, check=False, timeout=60)
        except InputError:  # no git, a timeout: the plain "file not found" stands
            return moves
        if not result.ok:
            return moves
        fields = result.stdout.split("\0")
        at = 0
        while at + 2 < len(fields):
            status = fields[at].strip("\n")  # `R100`, then the old and the new path
            if status[:1] == "R" and status[1:].isdigit():
                old, new = os.path.normpath(fields[at + 1]), os.path.normpath(fields[at + 2])
                moves[old] = new
                moves.pop(new, None)  # a file renamed back is where it was
                at += 3
            else:
                at += 1
    return moves


def _stat(path: str, *, follow: bool) -> os.stat_result | None:
    try:
        return os.stat(path) if follow else os.lstat(path)
    except OSError:  # missing: the caller reports a missing source
        return None


def repo_root(settings: Settings, repo: str | None) -> Path | None:
    """The checkout a source's repo names (None: this project); None when not configured."""
    if repo is None or repo == settings.project or repo == "this":
        return settings.root
    rel = settings.repos.get(repo)
    return None if rel is None else (settings.root / rel).resolve()


def check_source(settings: Settings, src: Source, files: _Files) -> dict[str, Any]:
    """Resolve one source: status confirmed|contradicted|ambiguous, path:line, a reason."""
    out: dict[str, Any] = {"source": src.raw, "status": "ambiguous", "path": src.path, "line": None}
    base_path = repo_root(settings, src.repo)
    if base_path is None:
        return out | {"reason": f"repo '{src.repo}' is not listed under knowledge.repos"}
    base = str(base_path)
    if not files.is_dir(base):
        return out | {"reason": f"checkout of '{src.repo}' not found at {base}"}
    if base_path != settings.root and not files.is_work_tree(base):
        return out | {"reason": f"'{src.repo}' at {base} is not a git work tree (§8.2)"}
    if src.repo is not None and base_path != settings.root:
        out["path"] = f"{src.repo}: {src.path}"
    target = os.path.normpath(os.path.join(base, src.path))
    st = _stat(target, follow=False)
    inside = files.inside(base, target, st) if st else files.inside_dir(base, target)
    if not inside:
        return out | {"reason": "path leaves the repository"}
    if st is not None and stat.S_ISLNK(st.st_mode):
        st = _stat(target, follow=True)  # None for a dangling link
    if st is None:
        written = _colon_form(base, src)
        if written is not None:  # `path:symbol`, the form truth evidence takes: not a lost file
            return out | {"reason": written}
        moved = files.renamed_to(base, src.path)
        if moved is not None:  # still contradicted (a person updates the note), but say where
            reason = f"file not found: git knows it was renamed to {moved}; update the source"
            return out | {"status": "contradicted", "reason": reason, "renamed_to": moved}
        return out | {"status": "contradicted", "reason": "file not found (renamed or deleted?)"}
    if src.pattern is None:
        return out | {"status": "confirmed", "reason": "file exists"}
    readable, line = (
        files.find(target, st, src.pattern) if stat.S_ISREG(st.st_mode) else (False, None)
    )
    if not readable:
        return out | {"reason": "not a readable file; cannot look for the pattern"}
    if line is None:
        return out | {"status": "contradicted", "reason": f"pattern {src.pattern!r} not found"}
    if base_path == settings.root:  # a symbol resolves to its definition through the code map
        line = files.symbol_line(settings.root, src.path, src.pattern) or line
    return out | {"status": "confirmed", "line": line, "reason": "pattern found"}


def _colon_form(base: str, src: Source) -> str | None:
    """For a source written `path:symbol` whose `path` is a file (a note source's pattern follows
    `#`), what to write instead; else None."""
    path, colon, symbol = src.path.rpartition(":")
    if not colon or not path or not symbol or src.pattern is not None:
        return None
    st = _stat(os.path.normpath(os.path.join(base, path)), follow=True)
    if st is None or not stat.S_ISREG(st.st_mode):
        return None
    return f"no file '{src.path}', but '{path}' is one: a note source's pattern follows '#' (write {path}#{symbol})"


def repo_problems(settings: Settings) -> list[Problem]:
    """An error for each `knowledge.repos` entry that exists but is not a git work tree: a repo
    is a sibling checkout, never an arbitrary folder such as `/etc` (§8.2). A checkout not
    cloned on this machine is no error here: its sources stay ambiguous."""
    files = _Files()
    out = []
    for name, rel in sorted(settings.repos.items()):
        base = str((settings.root / rel).resolve())
        if files.is_dir(base) and not files.is_work_tree(base):
            message = (
                f"knowledge.repos.{name}: {rel} is not a git work tree; a repo must be a "
                "checkout (a folder holding .git), never an arbitrary folder"
            )
            out.append(
                Problem("error", "repo-not-work-tree", message, CONFIG, _repo_line(settings, name))
            )
    return out


def _repo_line(settings: Settings, name: str) -> int | None:
    """The line of `name` under `knowledge.repos` in orkestra.yaml, when the light reader sees it."""
    from orkestra.core import lightyaml

    try:
        text = (settings.root / CONFIG).read_text(encoding="utf-8-sig")
        repos = lightyaml.parse(text)["knowledge"]["repos"]
        line: int | None = getattr(repos, "key_lines", {}).get(name)
        return line
    except (OSError, UnicodeDecodeError, lightyaml.Unsure, KeyError, TypeError):
        return None  # the message still names the key


def outcome(statuses: list[str]) -> str:
    """A note's outcome from its sources' statuses."""
    if "contradicted" in statuses:
        return "contradicted"
    if statuses and all(s == "confirmed" for s in statuses):
        return "confirmed"
    return "ambiguous"


def is_stale(note: Note, today: dt.date, max_age: int) -> bool:
    """A verified note whose verification is older than `max_age` days (or undated)."""
    if note.confidence != "verified":
        return False
    if not note.verified_at:
        return True
    return (today - dt.date.fromisoformat(note.verified_at)).days > max_age


def demote(root: Path, note: Note) -> None:
    """Write `confidence: observed` into a note (the verified date is kept as history)."""
    path = root / note.rel
    raw = path.read_bytes()
    from orkestra.core import safewrite

    new = edit.set_fields(raw.decode("utf-8"), {"confidence": "observed"})
    safewrite.write_file(root, path, new, expected_old=raw)


def check(
    settings: Settings,
    today: dt.date,
    *,
    apply: bool = True,
    sources: bool = True,
    kb: KnowledgeBase | None = None,
    use_cache: bool = True,
) -> dict[str, Any]:
    """Check every note: validation problems, link warnings, sources, and the 90-day demotion.

    Unchanged notes and cited files come from the derived cache (`orkestra.knowledge.cache`).
    With `apply`, INDEX.md is regenerated when it changed (so the session-start hook never injects
    a stale map) and, when sources were checked, each note's outcome is recorded for search.
    """
    if apply:  # a hand-written INDEX.md, a broken claims file: refused before a note is demoted
        from orkestra.knowledge import index

        index.ready(settings)
    cache = CheckCache(settings.root) if use_cache and kb is None else None
    kb = kb or load_notes(settings.root, settings.path, cache)
    problems = kb.problems + check_links(kb, settings.root, settings.path) + repo_problems(settings)
    files = _Files(cache)
    results: list[dict[str, Any]] = []
    counts = {"confirmed": 0, "contradicted": 0, "ambiguous": 0}
    demoted: list[str] = []
    for note in kb.notes:
        entry: dict[str, Any] = {"name": note.name, "path": note.rel, "type": note.type}
        if sources:
            checks = [check_source(settings, s, files) for s in note.sources]
            entry["outcome"] = outcome([c["status"] for c in checks])
            entry["sources"] = checks
            counts[entry["outcome"]] += 1
        if is_stale(note, today, settings.verified_max_age_days):
            demoted.append(note.name)
            if apply:
                demote(settings.root, note)
            entry["demoted"] = True
        entry["confidence"] = "observed" if note.name in demoted else note.confidence
        results.append(entry)
    if cache is not None:
        if sources:
            cache.files = {p: e for p, e in cache.files.items() if p in files.used}
        cache.save()
    refreshed = (
        _refresh(settings, today, kb, results, demoted, sources, problems) if apply else None
    )
    errors = sum(1 for p in problems if p.severity == "error")
    return {
        "checked": len(kb.notes),
        **(counts if sources else {}),
        "errors": errors,
        "warnings": len(problems) - errors,
        "demoted": demoted,
        "applied": apply,
        "contradicted_notes": [
            {
                "name": r["name"],
                "path": r["path"],
                "sources": [s for s in r["sources"] if s["status"] == "contradicted"],
            }
            for r in results
            if r.get("outcome") == "contradicted"
        ],
        "problems": [p.to_dict() for p in problems],
        "index": refreshed,
        "notes": results,
    }


def _refresh(
    settings: Settings,
    today: dt.date,
    kb: KnowledgeBase,
    results: list[dict[str, Any]],
    demoted: list[str],
    sources: bool,
    problems: list[Problem],
) -> dict[str, object] | None:
    """Regenerate INDEX.md (only written when it changed) and record the outcomes for search.
    Outcomes that cannot be recorded because a file stands where their folder belongs
    (`.orkestra` made a file) are a warning in `problems`: the check's answer and INDEX.md do not
    need them. A symlink or a special file in their place is still refused (§13)."""
    from orkestra.core.errors import ConflictError
    from orkestra.knowledge import index, outcomes

    if sources:
        try:
            outcomes.save(settings.root, {r["name"]: r["outcome"] for r in results})
        except ConflictError as exc:
            if not exc.file or not outcomes.PATH.startswith(f"{exc.file}/"):
                raise  # not a file in the way of the folder: refused as it was
            why = f"{exc.message} (the outcomes search marks notes with were not recorded)"
            problems.append(Problem("warning", "cache", why, exc.file or outcomes.PATH))
    if not settings.folder.is_dir():  # no knowledge base here: `notes check` does not start one
        return None
    return index.write(settings, today, None if demoted else kb)


_MARKS = {"confirmed": "✓", "contradicted": "✗", "ambiguous": "?"}


def source_text(source: dict[str, Any]) -> str:
    """One checked source for people: `path:line ✓`, or `path ✗ (reason)` when not confirmed."""
    where = source["path"] + (f":{source['line']}" if source.get("line") else "")
    mark = _MARKS.get(source["status"], "?")
    if source["status"] == "confirmed":
        return f"{where} {mark}"
    return f"{where} {mark} ({source['reason']})"


def for_people(report: dict[str, Any]) -> dict[str, Any]:
    """The `check` report as `notes check --format table` shows it: the counts, the problems, and
    one row per note whose sources read `path:line ✓/✗` (the JSON keeps every field)."""
    rows = [
        {
            "note": note["name"],
            "outcome": note.get("outcome", ""),
            "confidence": note["confidence"],
            "sources": "\n".join(source_text(s) for s in note.get("sources", [])),
        }
        for note in report["notes"]
    ]
    skip = ("notes", "contradicted_notes", "problems", "index")
    summary = {k: v for k, v in report.items() if k not in skip}
    problems = [
        {
            "where": f"{p['file']}:{p['line']}" if p.get("line") else p["file"],
            "severity": p["severity"],
            "code": p["code"],
            "message": p["message"],
        }
        for p in report["problems"]
    ]
    return {**summary, "problems": problems, "notes": rows}
