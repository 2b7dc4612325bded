"""The no-op `mine sync` (and `mine candidates` on a current index) with the standard library.

`orkestra mine sync` on an up-to-date index must cost about as much as `orkestra --version`, so
this module imports neither typer, pydantic nor GitPython (GitPython only loads when candidates'
stats are not cached yet). `run(args)` is meant to be called by the entry point before typer loads;
it returns None whenever the full command has to run instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from orkestra.mining import index


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k == "GIT_EXEC_PATH"}


def git_head(root: Path) -> str | None:
    """HEAD's sha via one tiny `git rev-parse` (None if there is none)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", "HEAD^{commit}"],
            cwd=root,
            env=_env(),
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def noop_result(root: Path) -> dict[str, Any] | None:
    """The sync result when the index is already current, else None."""
    header = index.read_header(root)
    if header is None or header.config != index.config_digest(root):
        return None
    if header.shallow:
        return None  # a shallow clone may have been deepened: let the full sync look
    if git_head(root) != header.head:
        return None
    return sync_result(header, new=0, removed=0, kind="noop")


def sync_result(header: index.Header, *, new: int, removed: int, kind: str) -> dict[str, Any]:
    """The JSON shape `mine sync` prints."""
    warnings = []
    if header.shallow:
        warnings.append(
            f"shallow clone: history behind {len(header.shallow)} boundary commit(s) is not "
            "visible and was not mined; run `git fetch --unshallow` to mine all of it"
        )
    return {
        "head": header.head,
        "commits": header.count,
        "new": new,
        "removed": removed,
        "sync": kind,
        "shallow": bool(header.shallow),
        "warnings": warnings,
        "index": index.FOLDER.as_posix(),
    }


def _root(args: list[str]) -> tuple[Path | None, list[str]]:
    root = os.environ.get("ORKESTRA_ROOT") or None
    if args[:1] == ["--root"] and len(args) > 1:
        root, args = args[1], args[2:]
    elif args[:1] and args[0].startswith("--root="):
        root, args = args[0].split("=", 1)[1], args[1:]
    if root:
        return Path(root).resolve(), args
    return find_root(Path.cwd()), args


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `registries/` (the loader's rule, without
    importing the loader and its models)."""
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / "registries").is_dir():
            return candidate
    return None


def run(args: list[str]) -> int | None:
    """Handle `[--root R] mine sync` and `mine candidates [...]` when the index is current.

    Returns the exit code, or None when the full CLI has to run (anything else, any flag this
    parser does not know, an index that needs work, an error to report).
    """
    root, rest = _root(list(args))
    if root is None or rest[:1] != ["mine"] or rest[1:2] not in (["sync"], ["candidates"]):
        return None
    options = _options(rest[2:])
    if options is None or options.pop("format", "json") != "json":
        return None
    result: Any
    if rest[1] == "sync":
        if options:
            return None
        result = noop_result(root)
    else:
        result = _candidates(root, options)
    if result is None:
        return None
    _print(result)
    return 0


_FLAGS = {
    "--limit": "limit",
    "-n": "limit",
    "--domain": "domain",
    "--format": "format",
    "-f": "format",
}


def _options(argv: list[str]) -> dict[str, Any] | None:
    """`--flag value`, `--flag=value` and `--full`; None for anything unexpected."""
    out: dict[str, Any] = {}
    items = list(argv)
    while items:
        arg = items.pop(0)
        if arg == "--full":
            out["full"] = True
            continue
        name, eq, value = arg.partition("=")
        if name not in _FLAGS or (not eq and not items) or (eq and not name.startswith("--")):
            return None  # `-n=5` is not an option spelling click accepts
        out[_FLAGS[name]] = value if eq else items.pop(0)
    return out


def _candidates(root: Path, options: dict[str, Any]) -> Any:
    from orkestra.mining import report

    limit = options.get("limit", "20")
    domain = options.get("domain")
    if not str(limit).isdigit() or int(limit) < 1 or domain not in (None, *report.DOMAINS):
        return None
    if noop_result(root) is None:
        return None
    try:
        return report.candidates(
            root, limit=int(limit), full=bool(options.get("full")), domain=domain
        )
    except Exception:
        return None


def _print(result: Any) -> None:
    if sys.stdout.isatty():
        text = json.dumps(result, indent=2, ensure_ascii=False)
    else:
        text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write(text + "\n")
