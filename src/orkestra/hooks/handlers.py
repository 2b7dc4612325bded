"""The three handlers of §8.4. Each returns (exit code, stdout text); none ever raises."""

# os.path, not pathlib: this module is on the hook start-up path (stdlib, minimal imports)
# ruff: noqa: PTH110, PTH112, PTH116, PTH118

from __future__ import annotations

import json
import os

from orkestra.hooks import events, payloads
from orkestra.hooks.context import Context, append_jsonl, log, now

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing

if TYPE_CHECKING:
    from typing import Any

    from orkestra.core.git import Result

USAGE = ".usage.jsonl"
INDEX = "INDEX.md"
MAX_CONTEXT = 9000  # Claude Code caps hook output strings at 10,000 characters
GIT_TIMEOUT = 10
BLOCK_REASON = (
    "Before you stop: did this session teach anything durable about this codebase (a term, a "
    "convention, a gotcha, a recipe, a decision)? If so, save it now: a note with "
    "`orkestra notes new TYPE TITLE --source path#pattern`, or claims with `/learn` "
    "(`orkestra learn propose --input NEW.json`, review, then `orkestra learn apply`). "
    "If nothing is worth keeping, just stop again."
)


def _git(cwd: str, *args: str, hooks: bool = False) -> Result:
    """git through the one runner (scrubbed environment, no prompt, hooks only when asked)."""
    from orkestra.core import git

    return git.run(cwd, *args, check=False, timeout=GIT_TIMEOUT, hooks=hooks)


def _own_repo(folder: str) -> bool:
    return os.path.exists(os.path.join(folder, ".git"))


def session_start(ctx: Context) -> tuple[int, str]:
    """Fast-forward the knowledge repo when it has an upstream; regenerate INDEX.md when notes
    changed behind it; emit it as context."""
    events.append(ctx, events.record(ctx))
    if not ctx.knowledge_known:  # orkestra.yaml unreadable by the light reader (logged)
        return 0, ""
    folder = ctx.knowledge_dir
    if _own_repo(folder):
        try:
            if _git(folder, "rev-parse", "--abbrev-ref", "@{u}").returncode == 0:
                pulled = _git(folder, "pull", "--ff-only", "--quiet")
                if pulled.returncode != 0:
                    log(ctx.root, f"session-start: pull --ff-only failed: {pulled.stderr.strip()}")
        except Exception as exc:  # git or a timeout: log, never break the session
            log(ctx.root, f"session-start: git failed: {exc}")
    if ctx.managed and os.path.isdir(folder):
        # notes changed since INDEX.md was written (by hand, a pull, another branch): the
        # map is regenerated first, so a stale one is never injected (§8.2)
        _reindex(ctx, event="session-start")
    text = _read_own(ctx, f"{ctx.knowledge['path']}/{INDEX}")
    if text is None:  # no knowledge index yet: no context to add (a hook never fails a session)
        return 0, ""
    if len(text) > MAX_CONTEXT:
        text = text[:MAX_CONTEXT].rsplit("\n", 1)[0] + "\n(INDEX.md truncated)\n"
    intro = f"Project knowledge base ({ctx.knowledge['path']}/): notes and claims. Its index:\n\n"
    out = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": intro + text}
    }
    return 0, json.dumps(out, ensure_ascii=False)


def _read_own(ctx: Context, rel: str) -> str | None:
    """The start of a project file, or None when missing, unreadable or reached through a
    symlink (a planted link must not inject another file into the agent's context)."""
    from pathlib import Path

    from orkestra.core.errors import OrkestraError
    from orkestra.core.readfile import open_regular
    from orkestra.core.safewrite import check_target

    try:
        check_target(Path(ctx.root), rel)
        raw = open_regular(os.path.join(ctx.root, rel), follow=False)
    except FileNotFoundError:  # no index yet: nothing to show
        return None
    except (OSError, OrkestraError) as exc:
        log(ctx.root, f"session-start: {rel} not read: {exc}")
        return None
    with raw:
        return raw.read(4 * (MAX_CONTEXT + 1)).decode("utf-8", errors="replace")[: MAX_CONTEXT + 1]


def post_tool_use(ctx: Context) -> tuple[int, str]:
    """Log the event; a Read of a note also goes to the usage log (for a client with no Read
    tool, Codex, a shell command printing notes: `cat`, `sed -n`, `head`)."""
    rec = events.record(ctx)
    events.append(ctx, rec)
    read = [rec["path"]] if rec["tool_name"] == "Read" else []
    if rec["tool_name"] == "Bash" and ctx.client in payloads.SHELL_READING:
        command = payloads.command_text(ctx.payload.get("tool_input") or {})
        reads, writes = payloads.shell_paths(command)
        # a note the command also rewrites or removes (`sed ... F > F.new && mv F.new F`,
        # `cat F; rm F`, `rm -r` of its folder) was changed, not read for its knowledge
        changed = tuple(r.rstrip("/") for r in (ctx.rel(path) for path in writes) if r)
        read = [
            rel
            for rel in (ctx.rel(path) for path in reads)
            if rel is not None and not any(rel == w or rel.startswith(w + "/") for w in changed)
        ]
    for note in dict.fromkeys(ctx.in_knowledge(rel) for rel in read):
        if note is not None and note.endswith(".md") and note != INDEX:
            entry = {"ts": rec["ts"], "session_id": ctx.session_id, "path": note}
            append_jsonl(ctx.root, f"{ctx.knowledge['path']}/{USAGE}", entry)
    return 0, ""


def wrote_knowledge(records: list[dict[str, Any]]) -> bool:
    return any(r.get("knowledge_write") for r in records)


def stop(ctx: Context) -> tuple[int, str]:
    """Block once for a last judgement; otherwise validate notes and commit the knowledge folder."""
    history = events.session_records(ctx.root, ctx.session_id)
    # block only on a well-formed Stop event: anything unexpected must never block by accident
    expected = ctx.payload.get("hook_event_name") == "Stop" and bool(ctx.session_id)
    first_stop = ctx.payload.get("stop_hook_active") is False
    if not expected:
        log(ctx.root, f"stop: unexpected payload, not blocking: {str(ctx.payload)[:200]}")
    blocked_before = any(r.get("blocked") for r in history if r.get("event") == "Stop")
    if (
        expected
        and first_stop
        and ctx.managed
        and not blocked_before
        and not wrote_knowledge(history)
    ):
        events.append(ctx, events.record(ctx, {"blocked": True}))
        if ctx.client == "cursor":  # Cursor's stop: a follow-up message keeps the agent going
            return 0, json.dumps({"followup_message": BLOCK_REASON})
        return 0, json.dumps({"decision": "block", "reason": BLOCK_REASON})
    if not ctx.managed or not os.path.isdir(ctx.knowledge_dir):
        events.append(ctx, events.record(ctx, {"blocked": False}))
        return 0, ""
    # a commit asked for outside a git repository is explained once a session, then skipped
    told = any(r.get("commit") == "no-repository" for r in history if r.get("event") == "Stop")
    extra: dict[str, Any] = {"blocked": False}
    messages = [_validate(ctx), _reindex(ctx)]
    from orkestra.core.git import in_work_tree  # the Stop path, which runs git anyway

    if ctx.knowledge["commit"] and not in_work_tree(ctx.knowledge_dir):
        extra["commit"] = "no-repository"
        messages.append("" if told else _no_repository(ctx))
    else:
        messages.append(_commit(ctx))
    events.append(ctx, events.record(ctx, extra))
    messages = [m for m in messages if m]
    return 0, json.dumps({"systemMessage": " ".join(messages)}) if messages else ""


def _no_repository(ctx: Context) -> str:
    """What to do when orkestra.yaml asks for commits of a folder git does not track."""
    where = f"{ctx.knowledge['path']}/"
    log(ctx.root, f"stop: knowledge.commit is on, but {where} is not in a git repository")
    return (
        f"orkestra: knowledge.commit is on in registries/orkestra.yaml, but {where} is not in a "
        f"git repository, so nothing was committed: run `git init` in the project (or in "
        f"{where}), or set knowledge.commit: false. (Said once per session.)"
    )


def _validate(ctx: Context) -> str:
    import subprocess
    import sys

    command = [
        sys.executable,
        "-m",
        "orkestra",
        "--root",
        ctx.root,
        "notes",
        "check",
        "--no-sources",
        "--dry-run",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    except Exception as exc:  # git or a timeout: log, never break the session
        log(ctx.root, f"stop: notes check failed to run: {exc}")
        return ""
    if done.returncode == 0:
        return ""
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError

    try:
        report = jsonio.loads(done.stdout, source="notes check output")
        first = next(p for p in report["problems"] if p["severity"] == "error")
        where = f"{first['file']}:{first['line']}" if first.get("line") else first["file"]
        return f"orkestra: {report['errors']} note error(s), e.g. {where}: {first['message']}."
    except (InputError, KeyError, StopIteration, TypeError):
        log(ctx.root, f"stop: notes check: {done.stderr.strip()[:500]}")
        return "orkestra: notes check failed (see `orkestra notes check`)."


#: the first line of the INDEX.md Orkestra generates (`knowledge.index.TITLE`)
INDEX_TITLE = b"# Knowledge index"


def index_stale(folder: str) -> bool:
    """Whether a note or claims file, or a folder below `folder` (a note added, renamed or
    deleted), changed since the generated INDEX.md was written; or the knowledge folder itself
    did since INDEX.md was last written or dated (a whole note folder deleted or renamed). False
    for a hand-written INDEX.md (never regenerated) and for a folder without notes or an index."""
    from orkestra.core.readfile import open_regular

    try:  # a regular file, never through a symlink: a FIFO there must not hang the hook
        with open_regular(os.path.join(folder, INDEX), follow=False) as handle:
            first = handle.readline(64).removeprefix(b"\xef\xbb\xbf").rstrip(b"\r\n ")
            if first != INDEX_TITLE:
                return False
            found = os.fstat(handle.fileno())
            built = found.st_mtime_ns
    except FileNotFoundError:
        built = -1
    except OSError:
        return False
    # The knowledge folder's own entries: INDEX.md renamed into place dates the folder as it
    # dates INDEX.md's status change (ctime, which `_built_at` moves on too), so only a later
    # change counts (a note folder deleted, renamed away or into place; the usage log created).
    if built >= 0 and _newer(folder, max(found.st_ctime_ns, built) + 1):
        return True
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        if dirpath == folder:  # INDEX.md and the usage log: not what the index counts
            continue
        paths = [dirpath] + [
            os.path.join(dirpath, n) for n in filenames if n.endswith((".md", ".json"))
        ]
        if any(_newer(p, built) for p in paths):
            return True
    return False


def _newer(path: str, built: int) -> bool:
    """Whether `path` changed at or after `built`; a broken symlink (or a file gone meanwhile,
    which dates its folder) is no change, never an error that stops the walk."""
    try:
        return os.stat(path).st_mtime_ns >= built
    except OSError:
        return False


def _reindex(ctx: Context, *, event: str = "stop") -> str:
    """Regenerate INDEX.md when notes changed behind it (the session's Write tool, `rm`; at
    session start also a pull or a hand edit), so session-start never injects a stale map
    (§8.2); only written when it changed."""
    import subprocess
    import sys
    import time

    try:
        if not index_stale(ctx.knowledge_dir):
            return ""
        started = time.time_ns()
        command = [sys.executable, "-m", "orkestra", "--root", ctx.root, "notes", "index"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    except Exception as exc:  # a timeout or a folder gone meanwhile: log, never break the session
        log(ctx.root, f"{event}: notes index failed to run: {exc}")
        return ""
    if done.returncode != 0:
        log(ctx.root, f"{event}: notes index: {done.stderr.strip()[:500]}")
        where = f"{ctx.knowledge['path']}/{INDEX}"
        return f"orkestra: regenerating {where} failed (see `orkestra notes index`)."
    _built_at(ctx.root, os.path.join(ctx.knowledge_dir, INDEX), started)
    return ""


def _built_at(root: str, path: str, started: int) -> None:
    """Date INDEX.md to `started` (when the run that checked it began) when it is older: an
    index the run found unchanged is not rewritten, and would otherwise stay older than the
    edited note, so every later stop would run `notes index` again. A note changed during the
    run stays newer than `started`, so the next stop still sees it."""
    import stat

    try:
        found = os.lstat(path)
        if stat.S_ISREG(found.st_mode) and found.st_mtime_ns < started:
            os.utime(path, ns=(started, started))
    except OSError as exc:  # gone or read-only meanwhile: the next stop runs it again
        log(root, f"stop: cannot date {INDEX}: {exc}")


def _commit(ctx: Context) -> str:
    """Commit (and push) only the knowledge folder, when orkestra.yaml asks for it."""
    if not ctx.knowledge["commit"]:
        return ""
    folder = ctx.knowledge_dir
    cwd, spec = (folder, ".") if _own_repo(folder) else (ctx.root, str(ctx.knowledge["path"]))
    try:
        _git(cwd, "add", "-A", "--", spec)
        if _git(cwd, "diff", "--cached", "--quiet", "--", spec).returncode == 0:
            return ""
        message = f"docs(knowledge): notes from session {ctx.session_id[:8] or now()}"
        # the project asked for this commit (knowledge.commit): its own git hooks run
        done = _git(cwd, "commit", "--quiet", "-m", message, "--", spec, hooks=True)
        if done.returncode != 0:
            log(ctx.root, f"stop: commit failed: {done.stderr.strip()}")
            return (
                "orkestra: committing the knowledge folder failed (see .orkestra/logs/hooks.log)."
            )
        if ctx.knowledge["push"]:
            pushed = _git(cwd, "push", "--quiet", hooks=True)
            if pushed.returncode != 0:
                log(ctx.root, f"stop: push failed: {pushed.stderr.strip()[:500]}")
                return "orkestra: knowledge committed; push failed (see .orkestra/logs/hooks.log)."
    except Exception as exc:  # git or a timeout: log, never break the session
        log(ctx.root, f"stop: git failed: {exc}")
        return ""
    return "orkestra: knowledge folder committed."
