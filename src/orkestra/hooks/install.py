"""`orkestra hooks install|uninstall`: merge our entries into `.claude/settings.json`.

Our entries are recognised by their command string (`… orkestra hook <handler>`); every other
entry and key of the file is kept as it is. `--git` adds a pre-commit hook validating the notes,
never replacing a pre-commit hook that is not ours; in one that is, only our lines (the mark and
the check below it) are Orkestra's: lines the user added around them are kept by install and
uninstall alike, and our lines edited by hand make install refuse and uninstall leave the hook. Installed commands name the running `orkestra`
executable by absolute path, or `<python> -m orkestra`, never a bare `orkestra` that only resolves
inside the virtual environment that installed it (§8.4).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from orkestra.core import git, gitfiles, jsonio, safewrite
from orkestra.core.errors import ConflictError, InputError, OrkestraError, UsageError
from orkestra.core.readfile import open_regular
from orkestra.hooks import clients as other_clients

SETTINGS = ".claude/settings.json"
#: where the usage log is marked for union merges (`core.gitfiles.usage_attribute`)
ATTRIBUTES = ".gitattributes"
#: event -> (matcher or None, handler). PostToolUse sees every tool so the events log is complete;
#: only a Read of a note goes to the usage log.
OURS: dict[str, tuple[str | None, str]] = {
    "SessionStart": (None, "session-start"),
    "PostToolUse": ("*", "post-tool-use"),
    "Stop": (None, "stop"),
}
GIT_MARK = "# orkestra: validate knowledge notes"
#: `orkestra hook H`, `/abs/bin/orkestra hook H`, `'/a b/orkestra' hook H`, `py -m orkestra hook H`
_OUR_COMMAND = re.compile(
    r"(?:^|[\s/])orkestra(?:\.exe)?'? hook (?:" + "|".join(h for _m, h in OURS.values()) + r")$"
)


def executable(argv0: str | None = None, python: str | None = None) -> str:
    """How installed hooks call Orkestra, shell-quoted: the running `orkestra` executable by
    absolute path (symlinks kept: a venv's script names its own interpreter), else
    `<python> -m orkestra` with the running interpreter."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    if Path(argv0).name in ("orkestra", "orkestra.exe") and os.access(argv0, os.X_OK):
        return shlex.quote(str(Path(argv0).absolute()))
    return f"{shlex.quote(python or sys.executable)} -m orkestra"


def git_script(command: str) -> str:
    """The pre-commit hook validating the notes, calling Orkestra as `command`."""
    return f"""#!/bin/sh
{GIT_MARK} (installed by `orkestra hooks install --git`; remove with `orkestra hooks uninstall`)
{command} notes check --no-sources --dry-run >/dev/null || {{
  echo "orkestra: knowledge notes have errors; run 'orkestra notes check --no-sources'" >&2
  exit 1
}}
"""


def _ours(hook: Any) -> bool:
    return isinstance(hook, dict) and bool(
        _OUR_COMMAND.search(str(hook.get("command", "")).strip())
    )


def _read(root: Path) -> tuple[dict[str, Any], bytes | None]:
    """settings.json's data and its bytes (None when absent), refusing a symlink on its way."""
    path = root / safewrite.check_target(root, SETTINGS)
    try:
        with open_regular(path) as handle:
            raw = handle.read(jsonio.MAX_BYTES + 1)
        if len(raw) > jsonio.MAX_BYTES:
            raise InputError(f"larger than {jsonio.MAX_BYTES} bytes; fix it first", file=SETTINGS)
        text = raw.decode("utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read it: {exc}; fix it first", file=SETTINGS) from exc
    try:
        data = jsonio.loads(text or "{}", source=SETTINGS, rewrite=True)
    except InputError as exc:
        raise jsonio.unmergeable(exc, text, fix="fix it first") from None
    if not isinstance(data, dict) or not isinstance(data.get("hooks", {}), dict):
        raise InputError('expected an object whose "hooks" is an object', file=SETTINGS, line=1)
    for event, groups in data.get("hooks", {}).items():
        if not isinstance(groups, list):
            key = text.find(json.dumps(event))
            line = text.count("\n", 0, key) + 1 if key >= 0 else 1
            raise InputError(
                f'"hooks"."{event}" must be a list of hook groups; fix it first',
                file=SETTINGS,
                line=line,
            )
    return data, raw


def _text(data: dict[str, Any], raw: bytes | None) -> str:
    """settings.json's new text, laid out as the file was (`jsonio.dumps_like`)."""
    return jsonio.dumps_like(data, None if raw is None else raw.decode("utf-8"))


def strip_ours(data: dict[str, Any], *, keep_events: bool = False) -> int:
    """Remove our hook commands (and groups left empty); return how many were removed. An
    event list this empties goes too, unless `keep_events` (install: ours go back in its place,
    so no member of "hooks" moves and the user's keep their bytes); a list the user left empty
    is theirs and stays."""
    removed = 0
    hooks = data.get("hooks", {})
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                inner = [h for h in group["hooks"] if not _ours(h)]
                removed += len(group["hooks"]) - len(inner)
                if not inner:
                    continue
                group = {**group, "hooks": inner}
            kept.append(group)
        if kept or not groups or keep_events:
            hooks[event] = kept
        else:
            del hooks[event]
    if "hooks" in data and not data["hooks"] and removed and not keep_events:
        del data["hooks"]
    return removed


def check_clients(names: list[str]) -> None:
    """Refuse (`UsageError`) a `--client` name that has no hook files of its own, so a typo
    such as `Cursor` or `codx` is not silently left out."""
    known = ("claude", *other_clients.CLIENTS)
    for name in names:
        if name not in known:
            raise UsageError(f"--client {name!r} is not one of {', '.join(known)}")


def install(
    root: Path,
    *,
    git: bool = False,
    clients: tuple[str, ...] = (),
    knowledge_path: str = "knowledge",
) -> dict[str, Any]:
    """Merge our entries into settings.json (idempotent); optionally the git pre-commit hook,
    and the hook files of the other `clients` (codex, copilot, cursor: `hooks.clients`). The
    usage log the hooks append to (in `knowledge_path`) gets its `merge=union` line in
    `.gitattributes`, once, the user's lines kept.

    Commands call Orkestra as `executable()` (an absolute path), so they work outside the venv.
    """
    command = executable()
    data, raw = _read(root)
    before = json.dumps(data, sort_keys=True)
    strip_ours(data, keep_events=True)
    hooks = data.setdefault("hooks", {})
    for event, (matcher, handler) in OURS.items():
        group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [
            {
                "type": "command",
                "command": f"{command} hook {handler}",
                "timeout": 30 if handler == "post-tool-use" else 120,
            }
        ]
        hooks.setdefault(event, []).append(group)
    changed = json.dumps(data, sort_keys=True) != before
    # every file is read and checked before the first write: a foreign pre-commit hook or a
    # symlinked client file refuses the whole install, leaving settings.json as it was
    chosen = [c for c in other_clients.CLIENTS if c in clients]
    merged = {c: other_clients.merged(root, c, command) for c in chosen}
    hook, hook_text, hook_raw = _git_target(root, command) if git else (None, b"", None)
    line = gitfiles.usage_attribute(knowledge_path)
    try:
        attributes = gitfiles.with_lines(root, ATTRIBUTES, (line,))
        problem = None
    except OrkestraError as exc:  # a symlink, not UTF-8: the hooks go in all the same
        attributes = None
        problem = exc.message if line in exc.message else f"{exc.message}; add yourself: {line}"
    out: dict[str, Any] = {"settings": SETTINGS, "changed": changed, "events": list(OURS)}
    out["gitattributes"] = {"file": ATTRIBUTES, "changed": attributes is not None}
    if problem is not None:
        out["gitattributes"]["problem"] = problem
    # one batch: every file is written (a full disk, a folder not writable) before the first
    # is renamed into place, so a failure leaves each of them as it was
    with safewrite.Batch(root) as batch:
        if changed:
            batch.file(SETTINGS, _text(data, raw), expected_old=raw)
        for client, (text, old) in merged.items():
            spec = other_clients.CLIENTS[client]
            if text is not None:
                batch.file(spec.path, text, expected_old=old)
            out.setdefault("clients", {})[client] = {
                "file": spec.path,
                "changed": text is not None,
                "events": list(spec.events),
            }
        if attributes is not None:
            batch.file(ATTRIBUTES, attributes)
        if hook is not None and _hook_base(root, hook) == root:
            batch.file(hook, hook_text, executable=True, expected_old=hook_raw)
    if hook is not None:  # a hooks folder outside the project (core.hooksPath) comes last
        out["git_hook"] = _install_git(root, hook, hook_text, hook_raw)
    return out


def uninstall(root: Path) -> dict[str, Any]:
    """Remove only our entries from settings.json, and our git pre-commit hook."""
    data, raw = _read(root)
    removed = strip_ours(data)
    # every file is read before the first change: a broken client file leaves all as they were
    others = {c: other_clients.stripped(root, c) for c in other_clients.CLIENTS}
    git_hook = _git_hook_path(root)
    git_raw = _git_hook_bytes(git_hook) if git_hook is not None else None
    git_left = _without_our_lines(git_raw) if git_raw is not None else None
    with safewrite.Batch(root) as batch:
        if removed:
            batch.file(SETTINGS, _text(data, raw), expected_old=raw)
        for client, change in others.items():
            if change.text is not None:
                batch.file(other_clients.CLIENTS[client].path, change.text, expected_old=change.raw)
    for client, change in others.items():
        if change.remove:
            safewrite.remove_file(root, other_clients.CLIENTS[client].path)
    if git_hook is not None and git_left is not None:
        base = _hook_base(root, git_hook)
        if git_left.strip() in ("", "#!/bin/sh"):  # nothing but ours: the file goes
            safewrite.remove_file(base, git_hook)
        else:  # the user's own lines stay
            kept = git_left.encode("utf-8", "surrogateescape")  # its bytes as they were
            safewrite.write_file(base, git_hook, kept, expected_old=git_raw)
    out: dict[str, Any] = {
        "settings": SETTINGS,
        "removed": removed,
        "git_hook_removed": git_left is not None,
    }
    if any(change.removed for change in others.values()):
        out["clients_removed"] = {c: ch.removed for c, ch in others.items() if ch.removed}
    return out


def _git_hook_path(root: Path) -> Path | None:
    try:
        # hooks=True keeps the user's core.hooksPath: it decides where the hook lives
        where = ("rev-parse", "--git-path", "hooks/pre-commit")
        done = git.run(root, *where, check=False, timeout=10, hooks=True)
    except InputError:  # no git binary, or it hung: there is no hook to manage
        return None
    if not done.ok:
        return None
    hook = Path(done.stdout.strip())
    return hook if hook.is_absolute() else root / hook


def _hook_base(root: Path, hook: Path) -> Path:
    """The folder a git hook's path is checked against: the project when the hook lies inside
    it, else the hooks folder git named (a worktree's or `core.hooksPath`, outside the project)."""
    return root if hook.is_relative_to(root) else hook.parent


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _git_hook_bytes(hook: Path) -> bytes | None:
    """The git hook's bytes when it is a regular file holding our mark, else None (a FIFO, a
    folder or a symlink there is never ours, and is never opened in a way that could block)."""
    try:
        with open_regular(hook, follow=False) as handle:
            raw = handle.read(1 << 20)
    except OSError:
        return None
    return raw if GIT_MARK.encode() in raw else None


#: our lines in a pre-commit hook: the mark, then the check (its command line, message, exit, })
_CHECK = re.compile(r"^(?P<command>.+) notes check --no-sources --dry-run >/dev/null \|\| \{\n$")


def _our_lines(text: str) -> tuple[list[str], int] | None:
    """The hook's lines and where our 5 lines start, when they are there as `git_script` writes
    them (with any command); None when the mark's lines were edited."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if line.startswith(GIT_MARK)), None)
    if at is None or at + 1 >= len(lines) or (found := _CHECK.match(lines[at + 1])) is None:
        return None
    ours = git_script(found.group("command")).splitlines(keepends=True)[1:]
    return (lines, at) if lines[at : at + len(ours)] == ours else None


def _without_our_lines(raw: bytes) -> str | None:
    """The hook without our lines (what uninstall leaves); None when they were edited (the
    hook is then left as it is)."""
    found = _our_lines(raw.decode("utf-8", "surrogateescape"))
    if found is None:
        return None
    lines, at = found
    return "".join(lines[:at] + lines[at + len(git_script("x").splitlines()) - 1 :])


def _git_target(root: Path, command: str) -> tuple[Path, bytes, bytes | None]:
    """The pre-commit hook path `--git` may write (checked: ours or absent, no symlink on the
    way), its new text (a hook of ours with the user's lines kept around ours) and its bytes
    now; raises before anything is written."""
    hook = _git_hook_path(root)
    if hook is None:
        raise InputError(
            "--git needs a git repository (git rev-parse failed); run `git init` first, or "
            "install without --git (nothing was written)",
            file=str(root),
        )
    raw = _git_hook_bytes(hook)
    if _exists(hook) and raw is None:
        raise ConflictError(
            f"{hook} already exists and is not ours; add this line to it instead: "
            "orkestra notes check --no-sources --dry-run",
            file=str(hook),
        )
    safewrite.check_target(_hook_base(root, hook), hook)
    if raw is None:
        return hook, git_script(command).encode("utf-8"), None
    found = _our_lines(raw.decode("utf-8", "surrogateescape"))
    if found is None:
        raise ConflictError(
            f"the lines `orkestra hooks install --git` wrote in {hook} were edited; restore "
            "them or remove them (and the mark line), then run it again; nothing was written",
            file=str(hook),
        )
    lines, at = found
    new = git_script(command).splitlines(keepends=True)[1:]
    text = "".join(lines[:at] + new + lines[at + len(new) :])
    return hook, text.encode("utf-8", "surrogateescape"), raw


def _install_git(root: Path, hook: Path, text: bytes, raw: bytes | None) -> str:
    if _hook_base(root, hook) != root:  # inside the project, it was written in install's batch
        safewrite.write_file(hook.parent, hook, text, executable=True, expected_old=raw)
    return str(hook.relative_to(root)) if hook.is_relative_to(root) else str(hook)
