"""The one project reader: find the root and read `registries/orkestra.yaml`.

Standard library only at import time, so the hooks use it too. Two readers of the config:

- `registry.config_file.read_config` parses the whole file with `core.yamlio` (PyYAML) into plain
  values; the Pydantic `Config` model (`registry.config_file.load_config`) validates them.
- `read_light` reads only the keys the hot paths need (`project`, the `knowledge:` block) with a
  small YAML-subset reader and no third-party import. Whenever it returns a value it is the value
  the `Config` model gives; whatever it cannot read for certain (anchors, tags, multi-line values,
  `commit: 1`, a path it cannot prove safe, ...) raises `NotLight` with the line, never a guess.
  `tests/core/test_project_light.py` generates configs and checks the agreement.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from orkestra.core.errors import InputError, NotFound
from orkestra.core.readfile import open_regular

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any

REGISTRIES = "registries"
CONFIG = f"{REGISTRIES}/orkestra.yaml"
ENV = "ORKESTRA_ROOT"
MAX_BYTES = 2 * 1024 * 1024  # as core.yamlio: a config larger than this is a mistake

#: the keys `read_light` knows, with the defaults of the `Config` model (a test keeps them equal)
PROJECT_DEFAULT = "project"
KNOWLEDGE_DEFAULTS: dict[str, Any] = {
    "path": "knowledge",
    "repos": {},
    "verified_max_age_days": 90,
    "commit": False,
    "push": False,
}


class ProjectNotFound(NotFound):
    """No project: the named root, or every folder up from the start, lacks `registries/`."""


def require_registries(root: Path) -> None:
    """`ProjectNotFound` unless the project at `root` still holds `registries/` (a long-lived
    reader, the MCP server, asks before each answer: the folder may be gone since)."""
    if not (root / REGISTRIES).is_dir():
        raise ProjectNotFound(f"no registries/ folder in {root}; run `orkestra init` to create one")


class NotLight(InputError):
    """The light reader cannot answer for certain; read the file with `read_config` instead."""


def find_root(
    explicit: str | Path | None = None, start: Path | None = None, *, env: bool = True
) -> Path:
    """The project root, resolved.

    `explicit` (the `--root` option), else the `ORKESTRA_ROOT` environment variable (unless
    `env` is False: a hook acts only on the project its event's cwd is in), names it and
    must hold `registries/`; otherwise the nearest folder at or above `start` (default: the
    current folder) holding `registries/`. Raises `ProjectNotFound` (exit code 1) otherwise.
    """
    from_env = os.environ.get(ENV) if env else None
    named = explicit if explicit not in (None, "") else from_env or None
    if named is not None:
        root = Path(named).expanduser().resolve()
        if not (root / REGISTRIES).is_dir():
            source = "--root" if explicit not in (None, "") else ENV
            raise ProjectNotFound(
                f"{source} {named}: no registries/ folder in {root}; "
                f"run `orkestra init {named}` to create one"
            )
        return root
    here = (start if start is not None else Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / REGISTRIES).is_dir():
            return candidate
    raise ProjectNotFound(
        f"no registries/ folder in {here} or any parent; run `orkestra init` to create one "
        f"(or pass --root / set {ENV})"
    )


def config_path(root: Path) -> Path:
    """Where the project's `orkestra.yaml` lives."""
    return root / CONFIG


def read_light(root: Path) -> dict[str, Any]:
    """`{"project": str, "knowledge": {...}}` read without a YAML library; `NotLight` when unsure.

    Defaults fill absent keys exactly as the `Config` model does; a missing file is all defaults.
    """
    path = config_path(root)
    try:
        with open_regular(path) as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return {"project": PROJECT_DEFAULT, "knowledge": dict(KNOWLEDGE_DEFAULTS)}
    except OSError as exc:
        raise NotLight(f"cannot read file: {exc.strerror or exc}", file=CONFIG) from None
    if len(raw) > MAX_BYTES or b"\x00" in raw:
        raise NotLight("file too large or binary", file=CONFIG)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotLight("not UTF-8", file=CONFIG) from None
    return light_values(text)


def light_values(text: str) -> dict[str, Any]:
    """`read_light` on the text of a config (`NotLight` with the line when unsure)."""
    from orkestra.core import lightyaml

    try:
        return _known(lightyaml.parse(text))
    except lightyaml.Unsure as exc:
        raise NotLight(exc.reason, file=CONFIG, line=exc.line) from None


def _known(data: dict[str, Any]) -> dict[str, Any]:
    from orkestra.core.lightyaml import Unsure, value_of

    project = value_of(data, "project", PROJECT_DEFAULT)
    if not isinstance(project, str):
        raise Unsure("project: not a string", _line(data, "project"))
    block = value_of(data, "knowledge", {})
    if not isinstance(block, dict):
        raise Unsure("knowledge: not a mapping", _line(data, "knowledge"))
    extra = sorted(set(block) - set(KNOWLEDGE_DEFAULTS))
    if extra:
        raise Unsure(f"knowledge.{extra[0]}: unknown key", _line(block, extra[0]))
    knowledge = {key: value_of(block, key, default) for key, default in KNOWLEDGE_DEFAULTS.items()}
    for key, check in _CHECKS.items():
        if not check(knowledge[key]):
            raise Unsure(f"knowledge.{key}: {_WANTS[key]}", _line(block, key))
    knowledge["repos"] = dict(knowledge["repos"])
    return {"project": project, "knowledge": knowledge}


def _line(data: Any, key: str) -> int | None:
    lines: dict[str, int] = getattr(data, "key_lines", {})
    return lines.get(key)


# A strict subset of what the model's RelPath accepts: plain segments, no '..', sane lengths.
#: a relative path of plain names; a doubled slash (`docs//kb/`) is one, as the `Config` model
#: and the file system read it
_SAFE_PATH = re.compile(r"[A-Za-z0-9_.-]{1,255}(/+[A-Za-z0-9_.-]{1,255})*/?")


def _safe_path(value: object) -> bool:
    return (
        isinstance(value, str)
        and len(value) <= 1024
        and _SAFE_PATH.fullmatch(value) is not None
        and ".." not in value.split("/")
    )


#: top-level folders the knowledge folder may never be or lie in: its INDEX.md and usage log, and
#: the Stop hook's commit of "only the knowledge folder", would reach Orkestra's or a client's files
NOT_KNOWLEDGE = ("registries", ".orkestra", ".claude", ".codex", ".cursor", ".gemini", ".agents")


def folder_parts(value: str) -> list[str]:
    """The names of a relative folder path, as the file system and git read it: `\\` taken as
    `/`, empty and `.` parts dropped (`./docs//kb/` is `["docs", "kb"]`; `[]` names the base)."""
    return [p for p in value.replace("\\", "/").split("/") if p not in ("", ".")]


def knowledge_folder_problem(value: str) -> str | None:
    """Why `value` cannot be the knowledge folder (the root, in `.git/`, in a folder of
    `NOT_KNOWLEDGE`), or None. The `Config` model uses it too, so both readers agree."""
    parts = folder_parts(value)
    if not parts:
        return "must name a folder below the project root, not the root itself"
    if any(p.casefold() == ".git" for p in parts):
        return "must not lie in '.git/'"
    if parts[0].casefold() in NOT_KNOWLEDGE:
        return f"must not lie in '{parts[0]}/' (Orkestra's or a client's own folder)"
    return None


def _repos(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


_CHECKS: dict[str, Any] = {
    "path": lambda v: _safe_path(v) and knowledge_folder_problem(v) is None,
    "repos": _repos,
    "verified_max_age_days": lambda v: type(v) is int and v >= 1,
    "commit": lambda v: type(v) is bool,
    "push": lambda v: type(v) is bool,
}
_WANTS = {
    "path": "not a plain relative path (letters, digits, _ . - and /) below the root, outside "
    ".git/, registries/, .orkestra/ and the clients' folders",
    "repos": "not a mapping of names to strings",
    "verified_max_age_days": "not a whole number of at least 1",
    "commit": "not true or false",
    "push": "not true or false",
}


def within(root: Path, path: str) -> str | None:
    """`path` as a project-relative posix path: an absolute one inside `root` (as given, or
    under any spelling of the root: `$PWD/app/a.py` where the cwd is a symlink to the project)
    made relative to it, `a/./b`, `a//b` and `a/x/../b` read as `a/b`; None for a path outside
    the project (`../x` too). The one reading of a path a person or an agent names (the code
    map, note lookups, MCP `context_for`)."""
    import posixpath

    rel = _inside(root, Path(path)) if Path(path).is_absolute() else path
    if rel is None:
        return None
    normal = posixpath.normpath(rel)
    return None if normal == ".." or normal.startswith("../") else normal


def _inside(root: Path, path: Path) -> str | None:
    """`path` relative to the project: the root as given or resolved, else the first folder
    above `path` that is the project under another spelling (a symlink to it)."""
    for base in (root, root.resolve()):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    real = root.resolve()
    for parent in reversed(path.parents):  # shallowest first: a missing folder ends the walk
        try:
            if not parent.is_dir():
                return None
            if parent.resolve() == real:
                return path.relative_to(parent).as_posix()
        except (OSError, RuntimeError):  # a loop or an unreadable folder: not the project
            return None
    return None
