"""What every hook handler needs: the event on stdin, the project root, the knowledge config.

Standard library only. The root and orkestra.yaml come from `core.project` (its light reader:
importing a YAML parser costs more than the whole hook). A config the light reader cannot answer
for is logged and leaves the knowledge hooks off (`knowledge_known` False): no guessed folder.
"""

# os.path, not pathlib: this module is on the hook start-up path (stdlib, minimal imports)
# ruff: noqa: PTH100, PTH103, PTH109, PTH117, PTH118, PTH120

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

from orkestra.core import project
from orkestra.core.errors import OrkestraError
from orkestra.core.project import KNOWLEDGE_DEFAULTS, NotLight, ProjectNotFound

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any

LOG = ".orkestra/logs/hooks.log"


class Context:
    """One hook invocation: the parsed payload (or {}), the root and knowledge settings."""

    def __init__(self, payload: dict[str, Any]) -> None:
        from orkestra.hooks import payloads

        #: the client that sent the event (`payloads.client_of`); the runner has read its
        #: event as Claude's (`payloads.normalize`), its own fields kept
        self.client = payloads.client_of(payload, payloads.agent_tool())
        self.payload = payload
        cwd = payload.get("cwd")
        self.cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else os.getcwd()
        self.root, self.managed = find_root(self.cwd)
        #: inside a project (a folder at or above cwd holds registries/): only then a hook acts
        #: or writes anything (§8.4); `managed` also needs a config the light reader can answer
        self.in_project = self.managed
        self.knowledge = dict(KNOWLEDGE_DEFAULTS)
        self.knowledge_known = True  # defaults, unless the config says otherwise
        if self.managed:
            try:
                self.knowledge = read_knowledge_config(self.root)
            except NotLight as exc:
                log(
                    self.root,
                    f"knowledge hooks off: {exc}; run `orkestra validate --show-warnings`",
                )
                self.managed = self.knowledge_known = False

    @property
    def session_id(self) -> str:
        value = self.payload.get("session_id")
        return value if isinstance(value, str) else ""

    @property
    def knowledge_dir(self) -> str:
        return os.path.join(self.root, str(self.knowledge["path"]))

    def rel(self, path: str) -> str | None:
        """`path` relative to the root (posix), or None when it lies outside. The root is
        resolved; a path naming it through a symlinked folder (the agent's cwd under a linked
        home, macOS `/tmp`) is resolved too, all but its last part (a note that is itself a
        symlink keeps its own name)."""
        full = os.path.normpath(path if os.path.isabs(path) else os.path.join(self.cwd, path))
        root = os.path.normpath(self.root)
        if not full.startswith(root + os.sep):
            try:
                head, name = os.path.split(full)
                full = os.path.join(os.path.realpath(head), name)
            except (OSError, ValueError):  # a path the OS refuses: outside, as far as we know
                return None
        if full == root or not full.startswith(root + os.sep):
            return None
        return full[len(root) + 1 :].replace(os.sep, "/")

    def in_knowledge(self, rel: str | None) -> str | None:
        """`rel` relative to the knowledge folder when it lies inside it."""
        prefix = str(self.knowledge["path"]).strip("/") + "/"
        if rel is None or not self.knowledge_known or not rel.startswith(prefix):
            return None
        return rel[len(prefix) :]


def read_payload(raw: str) -> dict[str, Any] | None:
    """The event JSON, or None when stdin is empty, malformed or not an object. A lone surrogate
    escape in it (a tool's output cut inside a UTF-16 pair) becomes U+FFFD: the event and the
    read it records are kept, and nothing written holds text that is not UTF-8."""
    from orkestra.core import jsonio
    from orkestra.core.errors import InputError

    try:
        data = jsonio.loads(raw, source="<stdin>", lone_surrogates="replace")
    except InputError:
        return None
    return data if isinstance(data, dict) else None


def find_root(cwd: str) -> tuple[str, bool]:
    """The project root (`core.project.find_root`) and True, else `cwd` and False (not a project).

    With False nothing may be written below the returned folder: it is not a project. The
    project is the one `cwd` is in: ORKESTRA_ROOT, exported for the CLI, never names it (§8.4).
    """
    try:
        return str(project.find_root(None, Path(cwd), env=False)), True
    except (ProjectNotFound, OSError, RuntimeError):  # RuntimeError: a symlink loop in cwd
        return os.path.abspath(cwd), False


def project_root(cwd: str) -> str | None:
    """The project root above `cwd`, or None outside any project (then a hook writes nothing)."""
    root, found = find_root(cwd)
    return root if found else None


def read_knowledge_config(root: str) -> dict[str, Any]:
    """The `knowledge:` block, as the `Config` model reads it (`NotLight` when the light reader
    cannot be sure), its path spelt as the paths it is compared with (`./docs/kb`, `docs/kb/`
    and `docs/./kb` are docs/kb: no note in them was seen as one)."""
    block: dict[str, Any] = project.read_light(Path(root))["knowledge"]
    return {**block, "path": "/".join(project.folder_parts(str(block["path"])))}


_DATE = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])")


def now() -> str:
    """UTC timestamp; the date part follows ORKESTRA_TODAY when it is pinned to a real date (a
    hook never fails: a pin that is not `YYYY-MM-DD` is ignored here; commands refuse it)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    pinned = os.environ.get("ORKESTRA_TODAY", "")
    return f"{pinned}{stamp[10:]}" if _DATE.fullmatch(pinned) else stamp


def log(root: str | None, message: str) -> None:
    """Note a problem in the project's .orkestra/logs/hooks.log; never raises.

    `root` None (no project) writes nothing (§8.4). A symlink at the log or on its way inside the
    project is never followed: the message goes to stderr instead.
    """
    if root is None:
        return
    line = f"{now()} {message}\n"
    try:
        fd = _open_own(root, LOG)
        try:
            os.write(fd, line.encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except (OSError, OrkestraError):
        sys.stderr.write(f"orkestra hook: {message}\n")


def _open_own(root: str, rel: str) -> int:
    """An append descriptor on the regular file `rel` inside the project `root`: no symlinked
    folder on its way, no symlink at the file itself (O_NOFOLLOW); folders made as needed. A
    FIFO there is opened without blocking (a write-only open of one waits for a reader, and a
    hook that waits freezes the agent's session) and refused, as a device is: OSError."""
    import stat

    from orkestra.core.safewrite import check_target

    check_target(Path(root), rel)  # UnsafePathError for a symlinked folder or file
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    nonblock = getattr(os, "O_NONBLOCK", 0)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | nonblock
    fd = os.open(path, flags, 0o644)  # a FIFO with no reader: ENXIO at once
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{rel} is not a regular file (a FIFO, device or socket)")
    if nonblock:
        os.set_blocking(fd, True)
    return fd


def append_jsonl(root: str, rel: str, record: dict[str, Any]) -> None:
    """Append one JSON line to `rel` inside the project `root` under an exclusive lock, in a
    single write (torn tail repaired); never through a symlink (`UnsafePathError`)."""
    from orkestra.core.lock import locked
    from orkestra.core.safewrite import check_target

    check_target(Path(root), rel)
    path = os.path.join(root, rel)
    data = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    with locked(path, append=True) as fd:
        size = os.fstat(fd).st_size
        if size:
            os.lseek(fd, size - 1, os.SEEK_SET)
            if os.read(fd, 1) != b"\n":
                data = "\n" + data
        os.write(fd, data.encode("utf-8"))
