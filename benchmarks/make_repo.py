"""Build a synthetic git repository quickly with `git fast-import` (benchmark data).

`python benchmarks/make_repo.py DEST --commits 25000` writes a repository whose history mixes
conventional and free-form subjects, touches paths across several packages, has occasional merge
commits and plain and package-scoped tags. Deterministic (seeded), so every run builds the same repo.
"""

from __future__ import annotations

import argparse
import random
import subprocess
from pathlib import Path

PACKAGES = ("vite", "create-vite", "plugin-legacy", "plugin-react", "shared")
TYPES = ("feat", "fix", "docs", "chore", "refactor", "perf", "test", "ci", "build", "revert")
FREE = (
    "Update dependencies",
    "Merge pull request #{n} from someone/branch",
    "WIP",
    "typo",
    "Bump version to {n}",
    "Improve the handling of edge cases in {word}",
    'Revert "fix: {word} crash"',
)
WORDS = (
    "resolver",
    "config",
    "hmr",
    "css",
    "ssr",
    "optimizer",
    "plugins",
    "server",
    "build",
    "cli",
)
TOP = ("docs/guide/{w}.md", "scripts/{w}.mjs", ".github/workflows/{w}.yml", "README.md")


def _subject(rng: random.Random, n: int) -> str:
    if rng.random() < 0.65:
        kind = rng.choice(TYPES)
        scope = f"({rng.choice(WORDS)})" if rng.random() < 0.6 else ""
        bang = "!" if rng.random() < 0.02 else ""
        return f"{kind}{scope}{bang}: {rng.choice(('add', 'handle', 'support', 'fix'))} {rng.choice(WORDS)} {n}"
    return rng.choice(FREE).format(n=n, word=rng.choice(WORDS))


def _body(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return ""
    parts = ["This change adjusts the behaviour so that it is more predictable.\n"]
    if rng.random() < 0.3:
        parts.append("\nA second paragraph with more detail about the motivation.\n")
    if rng.random() < 0.2:
        parts.append(f"\nRefs: #{rng.randint(1, 9999)}\nReviewed-by: Someone Else\n")
    if rng.random() < 0.02:
        parts.append("\nBREAKING CHANGE: the old option is gone\n")
    return "".join(parts)


def _paths(rng: random.Random) -> list[str]:
    count = rng.choice((1, 1, 1, 2, 2, 3, 4, 6))
    out = set()
    for _ in range(count):
        w = rng.choice(WORDS)
        if rng.random() < 0.8:
            pkg = rng.choice(PACKAGES)
            out.add(f"packages/{pkg}/src/{w}/{rng.choice(WORDS)}{rng.randint(0, 40)}.ts")
        else:
            out.add(rng.choice(TOP).format(w=w))
    return sorted(out)


def _data(text: str) -> bytes:
    raw = text.encode()
    return b"data %d\n" % len(raw) + raw + b"\n"


def stream(commits: int, seed: int = 7) -> bytes:
    """The fast-import stream for a history of about `commits` commits."""
    rng = random.Random(seed)
    out: list[bytes] = []
    ts = 1_600_000_000
    mark = 0
    main_tip = 0
    made = 0
    version = 0
    while made < commits:
        side = made > 0 and made % 400 == 0
        branch = "refs/heads/side" if side else "refs/heads/main"
        base = main_tip
        tips: list[int] = []
        for _ in range(3 if side else 1):
            mark += 1
            made += 1
            ts += rng.randint(30, 7200)
            subject = _subject(rng, made)
            body = _body(rng)
            msg = subject + ("\n\n" + body if body else "\n")
            who = f"Dev {rng.randint(1, 40)} <dev{rng.randint(1, 40)}@example.com> {ts} +0000"
            out.append(f"commit {branch}\nmark :{mark}\nauthor {who}\ncommitter {who}\n".encode())
            out.append(_data(msg))
            if (tips or base) and not (side and not tips):
                out.append(f"from :{tips[-1] if tips else base}\n".encode())
            elif side:
                out.append(f"from :{base}\n".encode())
            for path in _paths(rng):
                out.append(f"M 100644 inline {path}\n".encode())
                out.append(_data(f"{path} {mark} {rng.random()}\n"))
            tips.append(mark)
        if side:
            mark += 1
            made += 1
            ts += 60
            who = f"Dev 1 <dev1@example.com> {ts} +0000"
            out.append(
                f"commit refs/heads/main\nmark :{mark}\nauthor {who}\ncommitter {who}\n".encode()
            )
            out.append(_data(f"Merge branch 'side-{made}'\n"))
            out.append(f"from :{base}\nmerge :{tips[-1]}\n".encode())
            main_tip = mark
        else:
            main_tip = mark
        if made % 250 == 0:
            version += 1
            out.append(f"reset refs/tags/v1.{version}.0\nfrom :{main_tip}\n".encode())
            pkg = PACKAGES[version % len(PACKAGES)]
            out.append(f"reset refs/tags/{pkg}@2.{version}.0\nfrom :{main_tip}\n".encode())
    return b"".join(out)


def build(dest: Path, commits: int) -> Path:
    """Create (or recreate) a repository of about `commits` commits at `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    if (dest / ".git").exists():
        return dest
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True)
    subprocess.run(
        ["git", "-C", str(dest), "fast-import", "--quiet"], input=stream(commits), check=True
    )
    subprocess.run(["git", "-C", str(dest), "checkout", "-q", "main"], check=True)
    (dest / "registries").mkdir(exist_ok=True)
    globs = "".join(f'    {p}: "packages/{p}/**"\n' for p in PACKAGES)
    (dest / "registries" / "orkestra.yaml").write_text(
        f"project: bench\nmining:\n  packages:\n{globs}  domains_by_path:\n"
        '    "packages/vite/src/ssr/**": ssr\n    "docs/**": docs\n',
        encoding="utf-8",
    )
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--commits", type=int, default=25_000)
    args = parser.parse_args()
    build(args.dest, args.commits)


if __name__ == "__main__":
    main()
