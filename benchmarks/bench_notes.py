"""Benchmark `orkestra notes check` over 1,000 notes in a 10,000-file repo against `grep -r` (§10).

Generates (once) benchmarks/_data/notes: 10,000 source files (100 folders of 100 files) and 1,000
notes, each citing one file with a pattern (`path#def func_N`); a few cite files that are gone.
The baseline is `grep -rnF -f patterns.txt src/` — the same 1,000 patterns over the same tree.
Both run as subprocesses, alternating, median of runs. Target: at most 2x. Printed: the command
with its derived cache warm, and the same without cache.

Run: python benchmarks/bench_notes.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "_data" / "notes"
SHAPE = "v1 files=10000 notes=1000"
FOLDERS, FILES, NOTES = 100, 100, 1000
KINDS = [("glossary", "glossary"), ("repo", "repos"), ("convention", "conventions"),
         ("decision", "decisions"), ("recipe", "recipes"), ("gotcha", "gotchas")]  # fmt: skip


def _source(folder: int, index: int) -> str:
    body = [f'"""Module {folder}.{index}."""', "", "import os", ""]
    for n in range(8):
        body += [f"def func_{folder}_{index}_{n}(value):", f"    return value + {n}", ""]
    return "\n".join(body) + "\n"


def generate() -> Path:
    stamp = DATA / ".shape"
    if stamp.is_file() and stamp.read_text() == SHAPE:
        return DATA
    shutil.rmtree(DATA, ignore_errors=True)
    (DATA / "registries").mkdir(parents=True)
    (DATA / "registries/orkestra.yaml").write_text("project: bench\n")
    for f in range(FOLDERS):
        folder = DATA / "src" / f"pkg{f}"
        folder.mkdir(parents=True)
        for i in range(FILES):
            (folder / f"mod{i}.py").write_text(_source(f, i))
    patterns = []
    for n in range(NOTES):
        kind, sub = KINDS[n % len(KINDS)]
        f, i = (n * 7) % FOLDERS, (n * 13) % FILES
        pattern = f"def func_{f}_{i}_{n % 8}("
        path = f"src/pkg{f}/mod{i}.py" if n % 50 else f"src/gone/mod{i}.py"
        patterns.append(pattern)
        meta = {
            "type": kind, "title": f"Note {n}", "aliases": [f"n{n}"], "repos": [], "tags": [f"area/{n % 9}"],
            "confidence": "observed", "verified_at": "", "sources": [f"{path}#{pattern}"],
            "created": "2026-01-01", "updated": "2026-01-01",
        }  # fmt: skip
        head = "".join(f"{k}: {json.dumps(v)}\n" for k, v in meta.items())
        note = DATA / "knowledge" / sub / f"note-{n}.md"
        note.parent.mkdir(parents=True, exist_ok=True)
        body = f"# Note {n}\n\nSee [[note-{(n + 1) % NOTES}]] and `{pattern}`.\n"
        note.write_text(f"---\n{head}---\n\n{body}")
    (DATA / "patterns.txt").write_text("\n".join(patterns) + "\n")
    stamp.write_text(SHAPE)
    return DATA


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"{cmd} failed: {done.stderr.decode()[:500]}")
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    exe = shutil.which("orkestra")
    if exe is None:
        sys.exit("orkestra is not on PATH (pip install -e .)")
    root = generate()
    grep = ["grep", "-rnF", "-f", "patterns.txt", "src"]
    cli = [exe, "notes", "check", "--dry-run"]
    report = json.loads(subprocess.run(cli, cwd=root, capture_output=True, check=False).stdout)
    for _ in range(2):
        for cmd in (grep, cli):
            _time(cmd, root)
    times: dict[str, list[float]] = {"grep": [], "cli": [], "cold": []}
    cache = root / ".orkestra/cache/notes-check.json"
    for _ in range(args.runs):
        for name, cmd in (("grep", grep), ("cli", cli)):
            times[name].append(_time(cmd, root))
        cache.unlink(missing_ok=True)  # a first run: nothing cached yet
        times["cold"].append(_time(cli, root))
    b, c, cold = (statistics.median(times[k]) for k in ("grep", "cli", "cold"))
    counts = {k: report[k] for k in ("checked", "confirmed", "contradicted", "ambiguous")}
    print(f"repo: {FOLDERS * FILES} files, {NOTES} notes; check result: {counts}")
    print(f"grep -rnF -f patterns.txt src:         {b * 1000:8.1f} ms (median of {args.runs})")
    print(f"orkestra notes check:                  {c * 1000:8.1f} ms  ratio {c / b:.2f}x")
    print(f"  same, first run (no cache):         {cold * 1000:7.1f} ms  ratio {cold / b:.2f}x")
    print(f"ratio: {c / b:.2f}x (target <= 2x, cache warm)")
    return 0 if c / b <= 2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
