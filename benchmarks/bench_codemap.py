"""Benchmark the code map (PRODUCT.md §10, §12) against Universal Ctags on the same tree.

Builds (once) a tree under benchmarks/_data/codemap/tree: this repository's src/, tests/ and
benchmarks/ plus a copy of several Python standard library packages, as a git repository. Then,
median of several runs, alternating with the baseline:

- full index: `orkestra code index --full` (a subprocess, as a user runs it) vs `ctags -R` over the
  same tree (target <= 3x; the ctags line is skipped when ctags is not installed), and the floor
  of any tree-sitter index of that tree: a process that only parses every file (and one that also
  runs the tags queries), storing nothing;
- re-index after one changed file: in-process `index()` (target < 0.3 s), and the CLI;
- warm `find_symbol`: through the MCP server's in-memory client (target < 20 ms median), and
  the core function without a refresh.

Run: python benchmarks/bench_codemap.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "_data" / "codemap"
TREE = DATA / "tree"
SHAPE = "v1 repo(src,tests,benchmarks) + stdlib(asyncio,email,json,http,unittest,xml,logging,concurrent,importlib)"
STDLIB = (
    "asyncio",
    "email",
    "json",
    "http",
    "unittest",
    "xml",
    "logging",
    "concurrent",
    "importlib",
)
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}  # fmt: skip


def ensure_tree() -> None:
    shape = DATA / "SHAPE"
    if shape.is_file() and shape.read_text(encoding="utf-8") == SHAPE:
        return
    shutil.rmtree(DATA, ignore_errors=True)
    TREE.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "_data", "*.pyc")
    for part in ("src", "tests", "benchmarks"):
        shutil.copytree(REPO / part, TREE / part, ignore=ignore, symlinks=True)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for package in STDLIB:
        shutil.copytree(stdlib / package, TREE / "stdlib" / package, ignore=ignore)
    (TREE / "registries").mkdir()
    (TREE / "registries" / "orkestra.yaml").write_text("project: bench\n", encoding="utf-8")
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "tree"]):
        subprocess.run(["git", *args], cwd=TREE, env=env, check=True, capture_output=True)
    shape.write_text(SHAPE, encoding="utf-8")


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(*args: str) -> None:
    subprocess.run(args, cwd=TREE, check=True, capture_output=True)


#: the floor of any tree-sitter index (a subprocess, as the index is): start Python, load the
#: grammars, read every git-tracked file of a supported language and parse it; with `tags`, also
#: compile each language's tags queries and run them over each tree. Nothing is stored.
FLOOR = """
import importlib, subprocess, sys
from orkestra.codemap import languages
ts = languages.require()
tags = sys.argv[1] == "tags"
grammars = {}
def grammar(language):
    if language not in grammars:
        spec = languages.LANGUAGES[language]
        module = importlib.import_module(spec.module)
        grammars[language] = ts.Language(getattr(module, spec.factory)())
    return grammars[language]
names = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout
for name in names.decode().split("\\0"):
    language = languages.language_of(name)
    if language is None:
        continue
    lang, query = languages.load(language) if tags else (grammar(language), None)
    with open(name, "rb") as f:
        tree = ts.Parser(lang).parse(f.read())
    if tags:
        for _ in ts.QueryCursor(query).matches(tree.root_node):
            pass
"""


def full_index(orkestra: str, ctags: str | None, runs: int) -> dict[str, float]:
    ours, theirs, parse, tags = [], [], [], []
    for _ in range(runs):
        shutil.rmtree(TREE / ".orkestra", ignore_errors=True)
        ours.append(timed(lambda: run(orkestra, "code", "index", "--full")))
        parse.append(timed(lambda: run(sys.executable, "-c", FLOOR, "parse")))
        tags.append(timed(lambda: run(sys.executable, "-c", FLOOR, "tags")))
        if ctags:
            theirs.append(timed(lambda: run(ctags, "-R", "-f", str(DATA / "tags"), ".")))
    out = {"orkestra": statistics.median(ours), "parse": statistics.median(parse),
           "tags": statistics.median(tags)}  # fmt: skip
    if ctags:
        out["ctags"] = statistics.median(theirs)
    return out


def reindex(orkestra: str, runs: int) -> dict[str, float]:
    from orkestra.codemap import indexer

    target = TREE / "src" / "orkestra" / "codemap" / "lookup.py"
    original = target.read_text(encoding="utf-8")
    core, cli = [], []
    try:
        for i in range(runs):
            target.write_text(original + f"\n\ndef bench_{i}():\n    return {i}\n", "utf-8")
            core.append(timed(lambda: indexer.index(TREE)))
            target.write_text(original + f"\n\ndef bench_cli_{i}():\n    return {i}\n", "utf-8")
            cli.append(timed(lambda: run(orkestra, "code", "index")))
    finally:
        target.write_text(original, encoding="utf-8")
        indexer.index(TREE)
    return {"core": statistics.median(core), "cli": statistics.median(cli)}


def warm_symbol(runs: int) -> dict[str, float]:
    import anyio

    from orkestra.codemap import api

    direct = [timed(lambda: api.find_symbol(TREE, "find_root", refresh=False)) for _ in range(runs)]

    async def through_mcp() -> float:
        from mcp import Client

        from orkestra.mcpserver.server import build
        from orkestra.mcpserver.workspace import Workspace

        ws = Workspace.open(TREE)
        try:
            async with Client(build(ws)) as client:
                await client.call_tool("find_symbol", {"name": "find_root"})
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    result = await client.call_tool("find_symbol", {"name": "find_root"})
                    times.append(time.perf_counter() - start)
                    if result.is_error:
                        raise SystemExit(f"find_symbol failed: {result.content}")
                return statistics.median(times)
        finally:
            ws.close()

    return {"core": statistics.median(direct), "mcp": anyio.run(through_mcp)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    ensure_tree()
    orkestra = shutil.which("orkestra") or sys.exit("orkestra is not on PATH (pip install -e .)")
    ctags = shutil.which("ctags")
    files = sum(1 for _ in TREE.rglob("*") if _.is_file() and ".git" not in _.parts)
    print(f"tree: {files} files ({TREE})")
    full = full_index(orkestra, ctags, max(3, runs // 2))
    again = reindex(orkestra, runs)
    warm = warm_symbol(max(runs, 20))
    rows = [("full index (orkestra code index --full)", full["orkestra"], "")]
    if "ctags" in full:
        ratio = full["orkestra"] / full["ctags"]
        rows.append(
            ("ctags -R (Universal Ctags)", full["ctags"], f"ratio {ratio:.2f}x (target <= 3x)")
        )
    else:
        rows.append(("ctags -R", float("nan"), "skipped: ctags not installed"))
    for label, part in (("floor: tree-sitter parse only", "parse"),
                        ("floor: parse + tags queries", "tags")):  # fmt: skip
        ratio = f"ratio {full[part] / full['ctags']:.2f}x ctags" if "ctags" in full else ""
        rows.append((label, full[part], ratio))
    rows.append(("re-index after one change (core)", again["core"], "target < 0.3 s"))
    rows.append(("re-index after one change (CLI)", again["cli"], "incl. process start"))
    rows.append(("find_symbol warm via MCP (median)", warm["mcp"], "target < 20 ms"))
    rows.append(("find_symbol warm, core, no refresh", warm["core"], ""))
    for name, seconds, note in rows:
        print(f"{name:<40} {seconds * 1000:>9.1f} ms  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
