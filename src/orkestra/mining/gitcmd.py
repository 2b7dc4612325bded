"""The one way mining talks to git: GitPython's command layer, scrubbed environment, NUL formats.

Every call runs `git` through `git.Git.execute` with inherited `GIT_*` variables removed (a hook
or an outer repository's `GIT_DIR`/`GIT_INDEX_FILE` must never redirect our reads). History is
read as one streamed `git log` process; nothing here builds per-commit objects.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from orkestra.core.errors import InputError

#: variables git may still honour safely (where git itself lives)
_KEEP = frozenset({"GIT_EXEC_PATH", "GIT_PYTHON_GIT_EXECUTABLE", "GIT_PYTHON_TRACE"})
#: config pinned for every read: user settings must not change what is mined
_PINNED = ("-c", "core.quotepath=off", "-c", "log.showSignature=false", "-c", "color.ui=never")
CHUNK = 1 << 18  # a read smaller than this waits a little before the next
PIPE_SIZE = 1 << 20
NAP = 0.01


@contextlib.contextmanager
def _scrubbed_environ() -> Iterator[None]:
    """Remove inherited GIT_* variables while a git process is being started.

    GitPython copies `os.environ` for every process it starts, so the variables are popped for
    the moment of `Popen` and restored right after.
    """
    saved = {k: v for k, v in os.environ.items() if k.startswith("GIT_") and k not in _KEEP}
    for key in saved:
        del os.environ[key]
    try:
        yield
    finally:
        os.environ.update(saved)


class Git:
    """git commands for one working tree."""

    def __init__(self, root: Path) -> None:
        import git  # GitPython, imported only when git really runs

        self.root = root
        self._git = git.Git(str(root))
        self._errors = (git.GitCommandError, git.GitCommandNotFound)

    def _command(self, args: Sequence[str]) -> list[str]:
        return [self._git.GIT_PYTHON_GIT_EXECUTABLE or "git", *_PINNED, *args]

    def run(self, *args: str, istream: BinaryIO | None = None) -> str:
        """Run git and return its stdout; failures become an InputError with git's message."""
        try:
            with _scrubbed_environ():
                out: Any = self._git.execute(
                    self._command(args), istream=istream, strip_newline_in_stdout=False
                )
        except self._errors as exc:
            message = (getattr(exc, "stderr", "") or str(exc)).strip()
            raise InputError(f"git {args[0]} failed: {message}", file=str(self.root)) from exc
        return str(out)

    def ok(self, *args: str) -> bool:
        """True when the git command exits 0 (its output is discarded)."""
        try:
            self.run(*args)
        except InputError:
            return False
        return True

    def stream(self, args: Sequence[str], istream: BinaryIO | None = None) -> Iterator[bytes]:
        """Yield stdout of one git process in chunks while it runs; raise if it fails."""
        with _scrubbed_environ():
            proc: Any = self._git.execute(self._command(args), istream=istream, as_process=True)
        fd = proc.proc.stdout.fileno()
        with contextlib.suppress(OSError, AttributeError):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        while chunk := os.read(fd, PIPE_SIZE):
            yield chunk
            if len(chunk) < CHUNK:
                # git writes a few hundred bytes at a time; reading each piece costs a wake-up
                # and a syscall. The pipe holds PIPE_SIZE, so git never waits for this nap.
                time.sleep(NAP)
        stderr = proc.proc.stderr.read().decode("utf-8", "replace").strip()
        if proc.proc.wait() != 0:
            raise InputError(f"git {args[0]} failed: {stderr}", file=str(self.root))

    # --- questions about the repository ---------------------------------------------------------

    def probe(self) -> tuple[str | None, list[str]]:
        """(HEAD sha or None for a repository without commits, shallow boundary) in one call."""
        try:
            out = self.run(
                "rev-parse", "--absolute-git-dir", "--is-shallow-repository", "HEAD^{commit}"
            ).split("\n")
        except InputError:
            return self.head(), self.shallow_boundary()
        if out[1] != "true":
            return out[2], []
        shallow = Path(out[0]) / "shallow"
        return out[2], shallow.read_text(encoding="utf-8").split() if shallow.exists() else []

    def head(self) -> str | None:
        """The sha of HEAD, or None when the repository has no commits yet."""
        if not self.ok("rev-parse", "--git-dir"):
            raise InputError(
                "not a git repository; run `git init` (mining reads the project's git history)",
                file=str(self.root),
            )
        try:
            return self.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}").strip() or None
        except InputError:
            return None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when `ancestor` is reachable from `descendant` (and exists)."""
        return self.ok("merge-base", "--is-ancestor", ancestor, descendant)

    def shallow_boundary(self) -> list[str]:
        """The grafted boundary commits of a shallow clone (empty for a full clone)."""
        if self.run("rev-parse", "--is-shallow-repository").strip() != "true":
            return []
        git_dir = Path(self.run("rev-parse", "--absolute-git-dir").strip())
        shallow = git_dir / "shallow"
        return shallow.read_text(encoding="utf-8").split() if shallow.exists() else []

    def rev_list(self, rev: str) -> list[str]:
        """Every commit reachable from `rev`."""
        return self.run("rev-list", rev).split()

    def tags(self) -> list[tuple[str, str, str]]:
        """(tag name, commit sha, date YYYY-MM-DD) for every tag pointing at a commit."""
        fmt = "%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objectname)%00%(creatordate:short)"
        out = self.run("for-each-ref", f"--format={fmt}", "refs/tags")
        tags = []
        for line in out.splitlines():
            name, kind, obj, peeled, date = line.split("\0")
            sha = peeled or obj
            if kind == "commit" or peeled:
                tags.append((name, sha, date))
        return tags

    def numstat(self, shas: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(insertions, deletions) of each commit against its first parent, in one git call."""
        if not shas:
            return {}
        args = ["log", "--no-walk=unsorted", "--numstat", "--no-renames", "--relative"]
        args += ["--format=%x1e%H", *shas]
        text = self.run(*args)
        stats: dict[str, tuple[int, int]] = {}
        for record in text.split("\x1e")[1:]:
            sha, _, rest = record.partition("\n")
            ins = dels = 0
            for line in rest.splitlines():
                added, _, tail = line.partition("\t")
                removed = tail.partition("\t")[0]
                if added.isdigit() and removed.isdigit():
                    ins += int(added)
                    dels += int(removed)
            stats[sha.strip()] = (ins, dels)
        return stats
