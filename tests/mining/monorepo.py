"""A monorepo history built with `git fast-import` (thousands of commits in well under a second).

Shaped like a real JavaScript monorepo: packages in `packages/<name>/` (configured as plain
folders, `vite: packages/vite`), root-level commits (docs, scripts, the README), a hand-written
CHANGELOG.md per package and at the root, tags of both kinds (`v1.2.0` for the project,
`vite@5.1.0` and `create-vite-v4.1.0` for packages, several on one commit) and reverts
of commits in the same release and of commits in an earlier one.

The history is written in two streams: the second needs the shas of the first (a revert names
the commit it reverts), which `--export-marks` gives. Deterministic: pinned dates and a seed.
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.mining.gitrepo import git_env

PACKAGES = ("vite", "create-vite", "plugin-legacy")
TYPES = ("feat", "fix", "perf", "docs", "chore", "refactor", "test", "ci")
WORDS = ("resolver", "config", "hmr", "css", "ssr", "optimizer", "server", "build")
START = 1_700_000_000


def hand_changelog(name: str) -> str:
    """A hand-written CHANGELOG.md, with the quirks real ones have (no trailing newline on the
    last line, a link table, trailing spaces, a non-ASCII name)."""
    return (
        f"# {name} changelog\n\n"
        "Everything before the switch to Orkestra, written by hand.  \n\n"
        "## 0.9.0 (2023-01-01)\n\n"
        "- Initial release by Zoë, with **bold** claims\n"
        "- [#12](https://example.com/12) fix the thing\n\n"
        "[0.9.0]: https://example.com/compare/v0.8.0...v0.9.0"
    )


@dataclass
class Monorepo:
    """The generated repository and what a test needs to know about it."""

    path: Path
    commits: int = 0
    shas: dict[int, str] = field(default_factory=dict)  # fast-import mark -> sha
    subjects: dict[int, str] = field(default_factory=dict)
    #: (revert mark, reverted mark, same release?)
    reverts: list[tuple[int, int, bool]] = field(default_factory=list)
    tags: dict[str, int] = field(default_factory=dict)  # tag -> mark
    root_only: list[int] = field(default_factory=list)  # commits touching no package
    files: dict[int, list[str]] = field(default_factory=dict)  # mark -> paths it changed

    def sha(self, mark: int) -> str:
        return self.shas[mark]


class _Stream:
    def __init__(self, repo: Monorepo, rng: random.Random, mark: int) -> None:
        self.repo, self.rng, self.mark = repo, rng, mark
        self.out: list[bytes] = []
        self.tip = mark

    def data(self, text: str) -> None:
        raw = text.encode()
        self.out.append(b"data %d\n" % len(raw) + raw + b"\n")

    def commit(self, message: str, files: dict[str, str], merge: int | None = None) -> int:
        self.mark += 1
        when = START + 600 * self.mark
        who = f"Dev {self.mark % 7} <dev{self.mark % 7}@example.com> {when} +0000"
        self.out.append(f"commit refs/heads/main\nmark :{self.mark}\n".encode())
        self.out.append(f"author {who}\ncommitter {who}\n".encode())
        self.data(message)
        if self.tip:
            self.out.append(f"from :{self.tip}\n".encode())
        if merge:
            self.out.append(f"merge :{merge}\n".encode())
        for path, text in files.items():
            self.out.append(f"M 100644 inline {path}\n".encode())
            self.data(text)
        self.tip = self.mark
        self.repo.subjects[self.mark] = message.split("\n", 1)[0]
        self.repo.files[self.mark] = list(files)
        self.repo.commits += 1
        return self.mark

    def tag(self, name: str) -> None:
        self.out.append(f"reset refs/tags/{name}\nfrom :{self.tip}\n".encode())
        self.repo.tags[name] = self.tip

    def ordinary(self) -> int:
        """One commit: a package change (most), or a root-level one."""
        rng, n = self.rng, self.mark + 1
        word = rng.choice(WORDS)
        if rng.random() < 0.2:
            path = rng.choice(("docs/guide/{}.md", "scripts/{}.mjs", "README.md")).format(word)
            mark = self.commit(
                f"{rng.choice(('feat', 'docs', 'chore'))}: {word} {n}\n", {path: f"{n}\n"}
            )
            self.repo.root_only.append(mark)
            return mark
        pkg = rng.choice(PACKAGES)
        kind = rng.choice(TYPES)
        body = "\n\nBREAKING CHANGE: the old option is gone\n" if rng.random() < 0.01 else "\n"
        path = f"packages/{pkg}/src/{word}/{rng.randint(0, 30)}.ts"
        return self.commit(f"{kind}({word}): change {word} {n}{body}", {path: f"{n}\n"})


def _import(path: Path, stream: bytes, marks: Path, first: bool) -> None:
    args = ["git", "fast-import", "--quiet", f"--export-marks={marks}"]
    if not first:
        args.append(f"--import-marks={marks}")
    subprocess.run(args, cwd=path, input=stream, env=git_env(), check=True, capture_output=True)


def _read_marks(repo: Monorepo, marks: Path) -> None:
    for line in marks.read_text(encoding="utf-8").splitlines():
        mark, sha = line.split()
        repo.shas[int(mark[1:])] = sha


def build(path: Path, commits: int = 2000, seed: int = 11) -> Monorepo:
    """A monorepo of about `commits` commits at `path` (a new folder), `main` checked out."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], env=git_env(), check=True)
    repo = Monorepo(path)
    rng = random.Random(seed)
    marks = path / ".git" / "marks"
    first = _Stream(repo, rng, 0)
    files = {f"packages/{p}/CHANGELOG.md": hand_changelog(p) for p in PACKAGES}
    files |= {"CHANGELOG.md": hand_changelog("project"), "README.md": "# demo\n"}
    files |= {f"packages/{p}/package.json": f'{{"name": "{p}"}}\n' for p in PACKAGES}
    first.commit("chore: import the monorepo\n", files)
    half = commits // 2
    version = 0
    while repo.commits < half:
        first.ordinary()
        if repo.commits % 200 == 0:
            version += 1
            _tag_release(first, version)
    pending = [first.ordinary() for _ in range(5)]  # after the last tag: reverted below
    _import(path, b"".join(first.out), marks, first=True)
    _read_marks(repo, marks)
    second = _Stream(repo, rng, first.mark)
    second.tip = first.tip
    early = next(m for m in sorted(repo.shas) if "feat(" in repo.subjects[m])  # long released
    for target in (pending[1], pending[3], early):
        revert = second.commit(
            f'Revert "{repo.subjects[target]}"\n\nThis reverts commit {repo.sha(target)}.\n',
            {path: "reverted\n" for path in repo.files[target]},
        )
        repo.reverts.append((revert, target, target != early))
    while repo.commits < commits:
        second.ordinary()
        if repo.commits % 200 == 0:
            version += 1
            _tag_release(second, version)
    _import(path, b"".join(second.out), marks, first=False)
    _read_marks(repo, marks)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, env=git_env(), check=True)
    return repo


def _tag_release(stream: _Stream, version: int) -> None:
    """Plain tags for the project; package tags in both spellings, several on one commit."""
    stream.tag(f"v1.{version}.0")
    if version % 2:
        stream.tag(f"vite@5.{version}.0")
    else:
        stream.tag(f"create-vite-v4.{version}.0")
