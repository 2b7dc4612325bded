"""`mine classify` and `mine commit`: classifications validated as a whole, then appended.

Nothing is written unless every request is valid: an unknown sha, a category outside Keep a
Changelog's, a malformed or unregistered decision id, an unknown package — each is an error naming
the request (its line in a batch file) and the ledger stays untouched. A request's shape is the
ledger's `ClassificationRequest` model; only what the project alone can tell (its packages, its
decision codes, its commits) is checked here.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core import jsonio
from orkestra.core.errors import InputError, OrkestraError, UsageError
from orkestra.core.lines import cr_only
from orkestra.mining.commits import CommitLookup
from orkestra.mining.conventional import default_summary
from orkestra.registry import ledger
from orkestra.registry.models.config import Config
from orkestra.registry.models.ledger import CATEGORIES, MAX_TEXT, ClassificationRequest

if TYPE_CHECKING:
    from pydantic import TypeAdapter
    from pydantic_core import ErrorDetails

DOMAINS = ("changelog", "decisions")
#: what makes two classifications of one sha in one domain the same decision
SAME = ("action", "category", "decision_id", "package")


@dataclass
class Request:
    """One classification asked for (a flag set or a batch line)."""

    sha: str
    domain: str
    action: str
    category: str | None = None
    summary: str | None = None
    package: str | None = None
    decision_id: str | None = None
    reason: str | None = None
    file: str | None = None
    line: int | None = None
    #: the shape was already checked by the request model (a batch line)
    checked: bool = False
    #: why a batch line is no request (bad JSON, a bad shape): reported by `plan` together with
    #: the errors only the project can tell (an unknown sha, package or decision code)
    error: OrkestraError | None = None


@dataclass
class Plan:
    classifications: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    unchanged: list[dict[str, Any]] = field(default_factory=list)


def from_flags(
    sha: str,
    *,
    changelog: str | None,
    decision: str | None,
    skip: str | None,
    summary: str | None,
    package: str | None,
    domain: str | None,
) -> list[Request]:
    """Requests for `mine classify SHA (--changelog C | --decision ID | --skip REASON)`; what the
    flags alone get wrong (no action, an unknown category, a malformed id) is a usage error
    here, before the project is looked for (exit 2 wherever the command is run)."""
    given = [v for v in (changelog, decision, skip) if v is not None]
    if len(given) != 1:
        raise UsageError("give exactly one of --changelog CATEGORY, --decision ID, --skip REASON")
    if changelog is not None and changelog.lower() not in CATEGORIES:
        raise UsageError(f"unknown category {changelog!r}; use one of {', '.join(CATEGORIES)}")
    if decision not in (None, "pending"):
        import re

        from orkestra.registry.models.decisions import DECISION_ID_PATTERN

        if not re.match(DECISION_ID_PATTERN, str(decision)):
            raise UsageError(
                f"malformed decision id {decision!r}: expected DEC-XX-NNN, e.g. DEC-PL-007"
            )
    if changelog is not None:
        return [Request(sha, "changelog", "release", changelog.lower(), summary, package)]
    if decision is not None:
        action = "pending" if decision == "pending" else "extract"
        did = None if action == "pending" else decision
        return [Request(sha, "decisions", action, summary=summary, decision_id=did)]
    domains = DOMAINS if domain in (None, "all") else (str(domain),)
    return [Request(sha, d, "skip", reason=skip, package=package) for d in domains]


def read_batch(path: Path, display: str) -> list[Request]:
    """Requests from a JSONL batch file; a malformed line is an error naming its line."""
    try:
        text = jsonio.read_text(path)
    except FileNotFoundError as exc:
        raise InputError(f"cannot read the batch: {exc}", file=display) from exc
    return parse_batch(text, display)


def read_batch_arg(path: Path) -> list[Request]:
    """`--input FILE` or `--input -` (stdin)."""
    if str(path) == "-":
        import sys

        return parse_batch(sys.stdin.read(), "<stdin>")
    return read_batch(path, str(path))


def parse_batch(text: str, file: str) -> list[Request]:
    """Requests from the text of a batch. A malformed line gives a request carrying its error,
    so that `plan` reports every bad line at once (up to `MAX_ERRORS`), a line's shape and what
    only the project can tell alike. A leading byte-order mark (Windows PowerShell writes one)
    is not part of the first line. Lines end at "\n" (U+2028 in a summary is data), or in a
    batch without any LF at a bare CR (classic Mac line endings): JSON never holds a raw CR
    inside a string, so such a file is read line by line, its errors at their lines."""
    text = text.removeprefix("\ufeff")
    newline = "\r" if cr_only(text) else "\n"
    numbered = [
        (number, raw) for number, raw in enumerate(text.split(newline), start=1) if raw.strip()
    ]
    if not numbered:
        raise InputError("the batch holds no classifications", file=file)
    requests = _whole_batch(numbered, file)
    if requests is not None:
        return requests
    requests = []
    for number, raw in numbered:
        try:
            requests.append(_request(raw, file, number))
        except OrkestraError as exc:
            if exc.file is None or exc.line is None:
                raise
            requests.append(Request("", "", "", file=file, line=number, error=exc))
    return requests


def _whole_batch(numbered: list[tuple[int, str]], file: str) -> list[Request] | None:
    """The healthy batch in two calls: each line parsed alone (`jsonio.loads_many`), then the
    list validated by the request model in one call. None when any line is bad: the line by
    line reading above then names every bad line, in the same words."""
    from pydantic import ValidationError

    try:
        data = jsonio.loads_many([raw for _, raw in numbered], source=file)
    except InputError:
        return None
    if not all(isinstance(item, dict) for item in data):
        return None
    try:
        models = _request_list().validate_python(data)
    except ValidationError:
        return None
    return [
        Request(**vars(model), file=file, line=number, checked=True)
        for model, (number, _) in zip(models, numbered, strict=True)
    ]


def _request_list() -> TypeAdapter[list[ClassificationRequest]]:
    """The request model over a list (built on first use: single requests never need it)."""
    global _REQUESTS
    if _REQUESTS is None:
        from pydantic import TypeAdapter

        _REQUESTS = TypeAdapter(list[ClassificationRequest])
    return _REQUESTS


_REQUESTS: TypeAdapter[list[ClassificationRequest]] | None = None


def _request(raw: str, file: str, line: int) -> Request:
    data = jsonio.loads(raw, source=file, line=line)
    if not isinstance(data, dict):
        raise InputError("each line must be a JSON object", file=file, line=line)
    return Request(**_model(data, file, line).model_dump(), file=file, line=line, checked=True)


#: a batch reports at most this many bad lines (then says how many more there are)
MAX_ERRORS = 20


class Errors:
    """The errors of a batch, gathered line by line and raised together (nothing is written)."""

    def __init__(self) -> None:
        self.found: list[OrkestraError] = []

    def add(self, exc: OrkestraError) -> None:
        """Record an error of one request (an error without a file, from flags, stops at once)."""
        if exc.file is None or exc.line is None:
            raise exc
        self.found.append(exc)

    def raise_any(self) -> None:
        """Raise one error listing every bad line (the first gives the error's file:line)."""
        if not self.found:
            return
        first, count = self.found[0], len(self.found)
        if count == 1:
            raise first
        shown = self.found[:MAX_ERRORS]
        more = f"\n... and {count - len(shown)} more" if count > len(shown) else ""
        lines = [first.message, *(str(e) for e in shown[1:])]
        raise InputError(
            "\n".join(lines) + more + f"\n{count} bad lines; nothing was written",
            file=first.file,
            line=first.line,
        )


def plan(root: Path, requests: list[Request], config: Config) -> Plan:
    """Check every request and build the ledger lines; raise on the first invalid one."""
    commits = CommitLookup(root)
    if not len(commits):
        raise InputError("the commit index is empty; run `orkestra mine sync` first")
    existing = ledger.entries(root / ledger.CLASSIFICATIONS)
    notes = ledger.entries(root / ledger.RELEASE_NOTES)
    codes = decision_codes(root)
    out = Plan()
    seen: dict[tuple[str, str], list[tuple[str | None, int | None]]] = {}
    stamp = ledger.now()
    errors = Errors()
    current = Current(existing, notes)
    packages = set(config.changelogs())
    for req in requests:
        if req.error is not None:
            errors.add(req.error)
            continue
        try:
            _check(req, packages, codes)
            req.sha = commits.resolve(req.sha, file=req.file, line=req.line)
            _once(req, seen.setdefault((req.sha, req.domain), []))
            _add(out, req, commits, current, config, stamp)
        except OrkestraError as exc:
            errors.add(exc)
    errors.raise_any()
    return out


def _once(req: Request, earlier: list[tuple[str | None, int | None]]) -> None:
    """Refuse a second classification of one commit in one domain within a batch: for the same
    package, or where either covers every package (no `package`). Both would stand, neither
    superseding the other (`mine validate`: ORK052)."""
    for package, line in earlier:
        if package is None or req.package is None or package == req.package:
            where = f" (first at line {line})" if line else ""
            raise _err(req, f"commit {req.sha[:12]} is classified twice in {req.domain}{where}")
    earlier.append((req.package, req.line))


def _err(req: Request, message: str) -> OrkestraError:
    if req.file:
        return InputError(message, file=req.file, line=req.line)
    return UsageError(message)


def _model(data: dict[str, Any], file: str | None, line: int | None) -> ClassificationRequest:
    """`data` validated by the ledger's request model; an error names the request's file:line."""
    from pydantic import ValidationError

    try:
        return ClassificationRequest.model_validate(data)
    except ValidationError as exc:
        message = _message(exc.errors())
        raise InputError(message, file=file, line=line) if file else UsageError(message) from exc


def _message(errors: list[ErrorDetails]) -> str:
    """The first error of a request, in the words of the command line."""
    unknown = [str(e["loc"][-1]) for e in errors if e["type"] == "extra_forbidden"]
    if unknown:
        allowed = ", ".join(ClassificationRequest.model_fields)
        return f"unknown field(s): {', '.join(unknown)}; the fields are {allowed}"
    error = errors[0]
    key = ".".join(str(p) for p in error["loc"])
    value = error.get("input")
    field = f"`{key}` " if key else ""  # a field's own check, or (no key) the whole request's
    by_type = {
        "missing": f"`{key}` is required",
        "string_too_short": f"`{key}` is required",
        "string_type": f"`{key}` must be a string",
        "string_too_long": f"`{key}` is longer than {MAX_TEXT} characters; shorten it",
        "value_error": field + str(error.get("ctx", {}).get("error", error["msg"])),
    }
    if key == "domain" and error["type"] == "literal_error":
        return f"unknown domain {value!r}: use changelog or decisions"
    if key == "action" and error["type"] == "literal_error":
        return f"unknown action {value!r}: use release, skip, extract or pending"
    if key == "category" and error["type"] == "literal_error":
        return f"unknown category {value!r}; use one of {', '.join(CATEGORIES)}"
    if key == "decision_id" and error["type"] == "string_pattern_mismatch":
        return f"malformed decision id {value!r}: expected DEC-XX-NNN, e.g. DEC-PL-007"
    return by_type.get(error["type"], f"{key}: {error['msg']}".lstrip(": "))


def _check(req: Request, packages: Collection[str], codes: set[str] | None) -> None:
    """The request's schema (the ledger model), then what only this project can tell."""
    if not req.checked:
        fields = {k: getattr(req, k) for k in ClassificationRequest.model_fields}
        fields = {k: v for k, v in fields.items() if v is not None}
        req.category = _model(fields, req.file, req.line).category
        req.checked = True
    if req.decision_id is not None and codes is not None and req.decision_id[4:6] not in codes:
        code = req.decision_id[4:6]
        raise _err(req, f"decision code {code} is not in registries/decisions/registry.yaml")
    if req.package is not None and req.package not in packages:
        raise _err(req, f"unknown package {req.package!r}; known: {', '.join(sorted(packages))}")


def decision_codes(root: Path) -> set[str] | None:
    """The two-letter codes of `decisions/registry.yaml` (None when there is no such file)."""
    from orkestra.mining.decision_ids import registered

    found = registered(root)
    return None if found is None else set(found.values())


class Current:
    """The ledgers' current entries, indexed once per batch (a whole history is one batch)."""

    def __init__(self, existing: list[dict[str, Any]], notes: list[dict[str, Any]]) -> None:
        self.by_domain = ledger.by_domain(existing)
        self.notes: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
        linked = ledger.linked(notes, existing)
        for note in ledger.current(linked):
            self.notes.setdefault((note.get("sha"), note.get("package")), []).append(note)
        #: classification ids some release note links (a release without one lost its note)
        self.noted = ledger.linked_ids(notes, existing)
        #: notes of an interrupted write (their classification never landed), not yet replaced
        gone = {target for note in notes for target in ledger.supersedes(note)}
        self.orphans: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
        for note in ledger.orphans(notes, existing):
            if _plain(note.get("id")) and note["id"] not in gone:
                self.orphans.setdefault((note.get("sha"), note.get("package")), []).append(note)

    def classifications(self, sha: str, domain: str) -> list[dict[str, Any]]:
        return self.by_domain.get(domain, {}).get(sha, [])


def _plain(value: object) -> bool:
    return isinstance(value, str) and bool(value)


def _add(
    out: Plan,
    req: Request,
    commits: CommitLookup,
    current: Current,
    config: Config,
    stamp: str,
) -> None:
    entry: dict[str, Any] = {
        "id": ledger.new_id("c"),
        "ts": stamp,
        "sha": req.sha,
        "domain": req.domain,
        "action": req.action,
        "category": req.category,
        "summary": (req.summary or "").strip() or None,  # a blank one is none
        "package": req.package,
        "decision_id": req.decision_id,
        "reason": req.reason,
    }
    previous = sorted(
        (
            e
            for e in current.classifications(req.sha, req.domain)
            if e.get("package") in (None, req.package) or req.package is None
        ),
        key=lambda e: (str(e.get("ts")), str(e.get("id"))),
    )
    if len(previous) == 1 and _same(previous[0], entry):
        out.unchanged.append({"sha": req.sha, "domain": req.domain, "action": req.action})
        if req.action == "release" and previous[0]["id"] not in current.noted:
            # the classification landed but its release note did not (a write interrupted by an
            # earlier version, or a hand edit): the retry completes the pair
            record = commits.record(req.sha)
            out.notes.extend(_notes(previous[0], req, record, current, config, stamp))
        return
    if previous:
        # one entry replaces every current one (a conflict left by a union merge included):
        # `supersedes` names the one id, or lists them all, so exactly one entry stands
        entry["supersedes"] = _one_or_all([str(e["id"]) for e in previous])
    if not req.checked:  # a checked request's fields were validated by the request model
        _validate(entry, req)
    out.classifications.append(entry)
    if req.action == "release":
        record = commits.record(req.sha)
        out.notes.extend(_notes(entry, req, record, current, config, stamp))


def _same(previous: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Whether `entry` records what `previous` does: the same decision (`SAME`) and, when it
    gives a summary or a reason, the same text (a new summary is what the changelog shows; none
    given keeps the current one)."""
    if any(previous.get(k) != entry[k] for k in SAME):
        return False
    return all(entry[k] is None or entry[k] == previous.get(k) for k in ("summary", "reason"))


def _one_or_all(ids: list[str]) -> str | list[str] | None:
    """`supersedes` for these ids: none, the one id, or the list (one entry replaces them all)."""
    if not ids:
        return None
    return ids[0] if len(ids) == 1 else ids


def _notes(
    entry: dict[str, Any],
    req: Request,
    record: dict[str, Any],
    current: Current,
    config: Config,
    stamp: str,
) -> list[dict[str, Any]]:
    # a commit touching no configured package belongs to the root package (§6.5)
    packages = [req.package] if req.package else list(record["signals"]["packages"])
    packages = packages or [config.root_package]
    described = record["signals"]["description"] or record["subject"]
    default = _shortened(default_summary(record["subject"], described).strip())
    out = []
    for package in packages:
        older = current.notes.get((req.sha, package), [])
        replaced = older + current.orphans.get((req.sha, package), [])
        given = (req.summary or "").strip()  # a blank summary is none: the older one or the default
        summary = given or (older[0].get("summary") if older else None) or default
        summary = summary.strip()
        summary = summary[:1].upper() + summary[1:]
        note = {
            "id": ledger.new_id("n"),
            "ts": stamp,
            "sha": req.sha,
            "package": package,
            "category": req.category,
            "summary": summary,
            "date": record["date"][:10],
            "classification": entry["id"],
            "supersedes": _one_or_all([str(n["id"]) for n in replaced]),
        }
        _validate(note, req, notes=True)
        out.append(note)
    return out


def _shortened(text: str) -> str:
    """A commit's description as a default summary: cut to `MAX_TEXT` characters (a subject can
    be a whole paragraph of megabytes, and a summary the user gives is held to the same limit)."""
    if len(text) <= MAX_TEXT:
        return text
    return text[: MAX_TEXT - 1].rstrip() + "\u2026"


def _validate(entry: dict[str, Any], req: Request, *, notes: bool = False) -> None:
    from pydantic import ValidationError

    from orkestra.registry.models.ledger import ClassificationEntry, ReleaseNoteEntry

    model = ReleaseNoteEntry if notes else ClassificationEntry
    try:
        model.model_validate({k: v for k, v in entry.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise _err(req, f"{where}: {first['msg']}".lstrip(": ")) from exc


def apply(root: Path, the_plan: Plan) -> dict[str, Any]:
    """Append the planned lines and say what was written."""
    ledger.append(root, the_plan.classifications, the_plan.notes)
    return {
        "written": len(the_plan.classifications),
        "release_notes": len(the_plan.notes),
        "unchanged": len(the_plan.unchanged),
        "entries": [
            {k: e[k] for k in ("id", "sha", "domain", "action") if k in e}
            | ({"supersedes": e["supersedes"]} if e.get("supersedes") else {})
            for e in the_plan.classifications
        ],
    }


def classify(root: Path, requests: list[Request], config: Config) -> dict[str, Any]:
    """Validate all requests, then append them (nothing is written if any is invalid).

    The ledgers are read, planned against and appended to under the project's ledger lock, so
    concurrent runs see each other's entries and never leave two current classifications.
    """
    with ledger.transaction(root):
        return apply(root, plan(root, requests, config))
