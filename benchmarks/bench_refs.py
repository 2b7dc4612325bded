"""Precision (and recall) of the code map's resolved Python reference edges on real code, with
`jedi` as the oracle (PRODUCT.md §12: `code refs` / `find_references`).

Corpus: this repository's git-tracked `src/` (as committed at HEAD) plus a copy of a few Python
standard library packages, as a git repository in a temporary folder, indexed from scratch.

- precision: for a fixed-seed sample of the resolved references of Python files (refs.target not
  null), ask jedi `Script.goto(line, col, follow_imports=True)` at the reference site; the map is
  right when jedi names the same file and line, or the same file and a line inside the target's
  span. Precision = agreements / edges where jedi gives an answer. jedi's own answers are mapped
  back into the corpus (the stdlib copy, the repository's `src/`).
- recall of resolvable references: over a sample of all references (resolved or not), those whose
  jedi answer is a definition the map holds (same file, same name, line inside its span); recall =
  share of them the map resolves to that definition (weighted back to the population).

It prints the table and the most frequent disagreement patterns, one example each
(`path:line name -> ours vs jedi`).

jedi is not a dependency of Orkestra; this benchmark installs nothing: `pip install jedi` first.

Run: python benchmarks/bench_refs.py [--edges 3000] [--unresolved 1000] [--seed 17] [--top 15]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sqlite3
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
STDLIB_DIR = Path(sysconfig.get_paths()["stdlib"])
STDLIB = ("json", "email", "logging", "http", "concurrent", "unittest")
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}  # fmt: skip


def build_tree(tree: Path) -> None:
    """`src/` as committed at HEAD plus the stdlib packages, committed as a git repository."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", "HEAD", "src"], cwd=REPO, check=True,
        capture_output=True,
    ).stdout  # fmt: skip
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    import shutil

    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in STDLIB:
        shutil.copytree(STDLIB_DIR / package, tree / "stdlib" / package, ignore=ignore)
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "tree"]):
        subprocess.run(["git", *args], cwd=tree, env=env, check=True, capture_output=True)


@dataclass
class Site:
    path: str  # relative to the tree
    line: int
    col: int  # 1-based byte column, as the map stores it
    name: str
    kind: str
    member: bool
    owner: str
    target: tuple[str, int, int, str, str] | None  # path, line, end_line, kind, qualname


def load_sites(db: Path) -> tuple[list[Site], list[Site]]:
    """(resolved, unresolved) references of Python files."""
    conn = sqlite3.connect(db)
    rows = conn.execute(
        """SELECT f.path, r.line, r.col, r.name, r.kind, r.member, r.owner,
                  tf.path, s.line, s.end_line, s.kind, s.qualname
           FROM refs r JOIN files f ON f.id = r.file_id
           LEFT JOIN symbols s ON s.id = r.target LEFT JOIN files tf ON tf.id = s.file_id
           WHERE f.language = 'python' ORDER BY r.id"""
    ).fetchall()
    conn.close()
    resolved, unresolved = [], []
    for path, line, col, name, kind, member, owner, tpath, tl, te, tk, tq in rows:
        target = (tpath, tl, te, tk, tq) if tpath is not None else None
        site = Site(path, line, col, name, kind, bool(member), owner, target)
        (resolved if target else unresolved).append(site)
    return resolved, unresolved


def load_symbols(db: Path) -> tuple[dict[tuple[str, str], list[tuple[int, int]]], dict[str, int]]:
    """Spans by (path, name), and the line of each `path:qualname`."""
    conn = sqlite3.connect(db)
    spans: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    lines: dict[str, int] = {}
    for path, name, qualname, line, end in conn.execute(
        "SELECT f.path, s.name, s.qualname, s.line, s.end_line FROM symbols s "
        "JOIN files f ON f.id = s.file_id"
    ):
        spans[(path, name)].append((line, end))
        lines.setdefault(f"{path}:{qualname}", line)
    conn.close()
    return spans, lines


class Oracle:
    """jedi's answers, mapped back into the corpus (None: no answer)."""

    def __init__(self, tree: Path, qualified: dict[str, int]) -> None:
        import jedi

        self.jedi = jedi
        self.tree = tree
        # the corpus's src/ first: not the installed (editable, maybe edited) orkestra
        paths = jedi.get_default_environment().get_sys_path()
        self.project = jedi.Project(tree, sys_path=[str(tree / "src"), *paths])
        self.scripts: dict[str, Any] = {}
        self.lines: dict[str, list[bytes]] = {}
        self.qualified = qualified

    def _unstub(self, full_name: str | None) -> tuple[str, int] | None:
        """A typeshed stub's answer for a copied stdlib package, as the copy's definition
        (jedi does not always convert a stub back to the source it stands for)."""
        parts = (full_name or "").split(".")
        if parts[0] not in STDLIB:
            return None
        for i in range(len(parts) - 1, 0, -1):
            module = "stdlib/" + "/".join(parts[:i])
            for path in (module + ".py", module + "/__init__.py"):
                line = self.qualified.get(f"{path}:{'.'.join(parts[i:])}")
                if line is not None:
                    return path, line
        return None

    def _corpus_path(self, module_path: Path | None) -> str:
        """The corpus-relative path of jedi's answer, or `<outside>` / `<builtin>`."""
        if module_path is None:
            return "<builtin>"
        p = Path(module_path).resolve()
        for base, prefix in ((self.tree.resolve(), ""), (STDLIB_DIR.resolve(), "stdlib/")):
            try:
                rel = p.relative_to(base).as_posix()
            except ValueError:
                continue
            if prefix == "stdlib/" and rel.split("/", 1)[0] not in STDLIB:
                return f"<outside:{p.name}>"
            return prefix + rel
        return f"<outside:{p.name}>"

    def goto(self, site: Site) -> list[tuple[str, int, str, str]]:
        """(path, line, jedi type, name) of jedi's definitions at the site; [] when none."""
        if site.path not in self.scripts:
            source = (self.tree / site.path).read_bytes()
            self.lines[site.path] = source.splitlines()
            self.scripts[site.path] = self.jedi.Script(
                source.decode("utf-8", "replace"), path=self.tree / site.path,
                project=self.project,
            )  # fmt: skip
        text = self.lines[site.path][site.line - 1]
        col = len(text[: site.col - 1].decode("utf-8", "replace"))
        try:
            names = self.scripts[site.path].goto(site.line, col, follow_imports=True)
        except Exception:  # jedi's own failures are "no answer"
            return []
        out = []
        for n in names:
            if n.line is None:
                out.append(("<builtin>", 0, n.type, n.name))
                continue
            source = self._unstub(n.full_name) if n.is_stub() else None
            if source is not None:
                out.append((*source, n.type, n.name))
                continue
            out.append((self._corpus_path(n.module_path), n.line, n.type, n.name))
        return out


def stable_sample(sites: list[Site], n: int, seed: int) -> list[Site]:
    """`n` sites in a fixed pseudo-random order of their place (path, line, column): two maps of
    the same corpus that resolve a site alike both check it, so before/after runs compare."""

    def rank(site: Site) -> bytes:
        key = f"{seed}:{site.path}:{site.line}:{site.col}".encode()
        return hashlib.blake2b(key, digest_size=8).digest()

    return sorted(sites, key=rank)[:n]


def agrees(site: Site, answers: list[tuple[str, int, str, str]]) -> bool:
    assert site.target is not None
    path, line, end, _kind, _qual = site.target
    return any(p == path and (jl == line or line <= jl <= end) for p, jl, _t, _n in answers)


def held(answers: list[tuple[str, int, str, str]], syms: dict[tuple[str, str], Any]) -> bool:
    """jedi's answer is a definition the map holds."""
    return any(any(a <= jl <= b for a, b in syms.get((p, n), [])) for p, jl, _t, n in answers)


def _owner_class(site: Site) -> str:
    if not site.member:
        return "bare"
    if site.owner in ("self", "cls", "super"):
        return f"{site.owner}."
    if site.owner[:1].isupper():
        return "Type."
    return "x." if site.owner else "expr."


def pattern(site: Site, answers: list[tuple[str, int, str, str]]) -> str:
    assert site.target is not None
    tpath, _tl, _te, tkind, _tq = site.target
    ours = ("same file" if tpath == site.path else "other file") + f" {tkind}"
    if not answers:
        theirs = "none"
    else:
        p, _l, t, _n = answers[0]
        if p.startswith("<"):
            theirs = f"{p.split(':')[0].strip('<>')} {t}"
        elif p == tpath:
            theirs = f"same target file, other line {t}"
        else:
            theirs = f"{'same file' if p == site.path else 'other file'} {t}"
    return f"{site.kind} {_owner_class(site)} | ours: {ours} | jedi: {theirs}"


def example(site: Site, answers: list[tuple[str, int, str, str]]) -> str:
    assert site.target is not None
    tpath, tl, _te, _tk, tq = site.target
    theirs = ", ".join(f"{p}:{line}" for p, line, _t, _n in answers[:2]) or "no answer"
    return f"{site.path}:{site.line} {site.name} -> {tpath}:{tl} ({tq}) vs {theirs}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=3000, help="resolved edges to check")
    parser.add_argument("--unresolved", type=int, default=1000, help="unresolved refs (recall)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--keep", type=Path, help="build/keep the tree here (reused if indexed)")
    args = parser.parse_args()
    try:
        import jedi  # noqa: F401
    except ImportError:
        print("skipped: jedi is not installed (pip install jedi); it is the oracle, not a "
              "dependency of Orkestra")  # fmt: skip
        return 0
    from orkestra.codemap import indexer, store

    with tempfile.TemporaryDirectory(prefix="bench-refs-") as temp:
        tree = args.keep or Path(temp) / "tree"
        started = time.perf_counter()
        if not (tree / ".git").is_dir():
            tree.mkdir(parents=True, exist_ok=True)
            build_tree(tree)
        indexer.index(tree, full=True)
        indexed = time.perf_counter() - started
        db = store.map_path(tree)
        resolved, unresolved = load_sites(db)
        syms, qualified = load_symbols(db)
        sample_r = stable_sample(resolved, args.edges, args.seed)
        sample_u = stable_sample(unresolved, args.unresolved, args.seed)
        oracle = Oracle(tree, qualified)
        started = time.perf_counter()
        agree = answered = 0
        tp_r = held_r = 0
        patterns: Counter[str] = Counter()
        examples: dict[str, str] = {}
        for site in sorted(sample_r, key=lambda s: (s.path, s.line, s.col)):
            answers = oracle.goto(site)
            if answers:
                answered += 1
            if held(answers, syms):
                held_r += 1
            if answers and agrees(site, answers):
                agree += 1
                tp_r += held(answers, syms)
                continue
            if answers:
                key = pattern(site, answers)
                patterns[key] += 1
                examples.setdefault(key, example(site, answers))
        held_u = sum(held(oracle.goto(s), syms) for s in sorted(
            sample_u, key=lambda s: (s.path, s.line, s.col)))  # fmt: skip
        asked = time.perf_counter() - started

    n = len(sample_r)
    w_r = len(resolved) / max(n, 1)
    w_u = len(unresolved) / max(len(sample_u), 1)
    resolvable = held_r * w_r + held_u * w_u
    recall = tp_r * w_r / resolvable if resolvable else float("nan")
    print(f"corpus: src/ @ HEAD + stdlib {','.join(STDLIB)}; python refs: "
          f"{len(resolved)} resolved, {len(unresolved)} unresolved; seed {args.seed}")  # fmt: skip
    print(f"index {indexed:.1f} s, jedi {asked:.1f} s")
    print()
    print(f"{'edges checked (resolved, sampled)':<46} {n:>7}")
    print(f"{'jedi answers':<46} {answered:>7}")
    print(f"{'jedi has no answer (share of checked)':<46} {(n - answered) / max(n, 1):>7.1%}")
    print(f"{'map agrees with jedi':<46} {agree:>7}")
    print(f"{'PRECISION (agree / jedi answers)':<46} {agree / max(answered, 1):>7.1%}")
    print(f"{'unresolved refs sampled (for recall)':<46} {len(sample_u):>7}")
    print(f"{'RECALL of resolvable (jedi -> a map symbol)':<46} {recall:>7.1%}")
    print()
    print(f"top {args.top} disagreement patterns ({sum(patterns.values())} disagreements):")
    for key, count in patterns.most_common(args.top):
        print(f"{count:>5}  {key}")
        print(f"       e.g. {examples[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
