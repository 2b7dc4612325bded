"""Mining's questions to git, asked through the one git runner (`core.git`) with NUL formats.

`core.git` scrubs inherited `GIT_*` variables (a hook or an outer repository's
`GIT_DIR`/`GIT_INDEX_FILE` must never redirect our reads) and pins safe configuration. History is
read as one streamed `git log` process; nothing here builds per-commit objects.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from orkestra.core import git
from orkestra.core.errors import InputError


class Git:
    """git commands for one working tree."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def run(self, *args: str, stdin: bytes | None = None) -> str:
        """Run git and return its stdout; failures become an InputError with git's message."""
        return git.run(self.root, *args, stdin=stdin).stdout

    def ok(self, *args: str) -> bool:
        """True when the git command exits 0 (its output is discarded)."""
        return git.run(self.root, *args, check=False).ok

    def stream(self, args: Sequence[str], stdin: IO[bytes] | None = None) -> Iterator[bytes]:
        """Yield stdout of one git process in chunks while it runs; raise if it fails."""
        return git.stream(self.root, args, stdin=stdin)

    # --- questions about the repository ---------------------------------------------------------

    def probe(self) -> tuple[str | None, list[str]]:
        """(HEAD sha or None for a repository without commits, shallow boundary) in one call."""
        try:
            out = self.run(
                "rev-parse", "--absolute-git-dir", "--is-shallow-repository", "HEAD^{commit}"
            ).split("\n")
        except InputError:  # no commit yet: the separate calls tell which part is missing
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
        except InputError:  # a repository without commits has no HEAD (checked a git repo above)
            return None

    def no_commits(self) -> str:
        """What to say when HEAD has no commit: the repository has none yet, or the current
        branch is an orphan (`git checkout --orphan gh-pages`) beside branches with history."""
        if not self.run("rev-list", "-n", "1", "--all").strip():
            return (
                "the repository has no commits yet; commit something, then run `orkestra mine sync`"
            )
        branch = self.run("symbolic-ref", "--quiet", "HEAD").strip().removeprefix("refs/heads/")
        return (
            f"the current branch '{branch}' has no commits yet (the repository's history is on "
            "other branches); switch to one (`git switch main`) or commit here, then run "
            "`orkestra mine sync`"
        )

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
        """(tag name, commit sha, date YYYY-MM-DD) for every tag pointing at a commit, through
        any number of annotated tags (`git tag -a v1.0.0 rc` of an annotated `rc`)."""
        fmt = (
            "%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00"
            "%(*objectname)%00%(creatordate:short)"
        )
        out = self.run("for-each-ref", f"--format={fmt}", "refs/tags")
        tags, nested = [], []
        for line in out.splitlines():
            name, kind, obj, peeled_kind, peeled, date = line.split("\0")
            if kind == "commit" or peeled_kind == "commit":
                tags.append((name, peeled or obj, date))
            elif peeled_kind == "tag":  # for-each-ref peels one level: git peels the rest
                nested.append((name, date))
        return tags + self._peeled(nested)

    def _peeled(self, nested: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
        """The commits under tags of tags (one `cat-file` call; a tree's tag is left out)."""
        if not nested:
            return []
        query = "".join(f"refs/tags/{name}^{{commit}}\n" for name, _ in nested).encode()
        out = self.run("cat-file", "--batch-check=%(objectname) %(objecttype)", stdin=query)
        found = []
        for (name, date), line in zip(nested, out.splitlines(), strict=False):
            sha, _, kind = line.partition(" ")
            if kind == "commit":
                found.append((name, sha, date))
        return found

    def numstat(self, shas: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(insertions, deletions) of each commit against its first parent, in one git call."""
        if not shas:
            return {}
        args = ["log", *git.LOG_SAFETY, "--no-walk=unsorted", "--numstat", "--no-renames"]
        args += ["--relative"]
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
