"""Mining benchmark (PRODUCT.md §10): `mine sync`, no-op re-sync, `mine candidates --limit 50`.

Builds (once) a 25,000-commit repository with `git fast-import` under benchmarks/_data/, adds a
ledger classifying the oldest 80% of the history in both domains, then times, alternating with
the baseline and taking the median of several runs:
- full `orkestra mine sync` against `git log --name-status` over the same history (bar: 1.3x);
- a no-op `orkestra mine sync` against `orkestra --version` (bar: 2x) and against its own
  `orkestra mine sync --help` (the parser's share; benchmarks/bench_startup.py has the others);
- `orkestra mine candidates --limit 50` with stats, cold (no stats cache) and warm (bar: 0.5 s).

Usage: python benchmarks/bench_mining.py [--commits 25000] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_repo import build

DATA = Path(__file__).parent / "_data"


CPU: dict[str, list[float]] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], cwd: Path, before: Callable[[], None] | None = None) -> float:
    """Wall time of one run (CPU time of the process tree is kept in CPU by command)."""
    if before:
        before()
    cpu = _children_cpu()
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    CPU.setdefault(" ".join(cmd[1:3]), []).append(_children_cpu() - cpu)
    return wall


def alternate(runs: int, *jobs: Callable[[], float]) -> list[float]:
    samples: list[list[float]] = [[] for _ in jobs]
    for _ in range(runs):
        for i, job in enumerate(jobs):
            samples[i].append(job())
    return [statistics.median(s) for s in samples]


def seed_ledger(repo: Path) -> None:
    """Classify the oldest 80% of the history in both domains (one batch write)."""
    from orkestra.mining import index
    from orkestra.registry import ledger

    path = repo / ledger.CLASSIFICATIONS
    if path.exists():
        return
    shas = index.shas(repo)
    old = shas[: len(shas) * 4 // 5]
    lines = []
    for n, sha in enumerate(old):
        for domain in ("changelog", "decisions"):
            lines.append(
                {
                    "id": f"c-{domain[0]}{n}",
                    "ts": "2026-01-01T00:00:00Z",
                    "sha": sha,
                    "domain": domain,
                    "action": "skip",
                    "reason": "benchmark seed",
                }
            )
    ledger.append(repo, lines, [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=25_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    repo = build(DATA / f"mining-{args.commits}", args.commits)
    mining = repo / ".orkestra" / "mining"
    exe = shutil.which("orkestra") or "orkestra"

    def drop_index() -> None:
        shutil.rmtree(mining, ignore_errors=True)

    def drop_stats() -> None:
        (mining / "stats.json").unlink(missing_ok=True)

    git_log, sync = alternate(
        args.runs,
        lambda: timed(["git", "log", "--name-status"], repo),
        lambda: timed([exe, "mine", "sync"], repo, drop_index),
    )
    timed([exe, "mine", "sync"], repo)
    seed_ledger(repo)
    version, noop, helped = alternate(
        args.runs * 2,
        lambda: timed([exe, "--version"], repo),
        lambda: timed([exe, "mine", "sync"], repo),
        lambda: timed([exe, "mine", "sync", "--help"], repo),
    )
    cand = ["mine", "candidates", "--limit", "50"]
    cold, warm = alternate(
        args.runs,
        lambda: timed([exe, *cand], repo, drop_stats),
        lambda: timed([exe, *cand], repo),
    )
    rows = [
        ("mine sync (full)", sync, git_log, "git log --name-status", 1.3),
        ("mine sync (no-op)", noop, version, "orkestra --version", 2.0),
        ("mine sync (no-op) vs its --help", noop, helped, "orkestra mine sync --help", 1.3),
    ]
    print(f"repository: {repo} ({args.commits} commits), median of {args.runs}+ runs")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cpu_sync = statistics.median(CPU["mine sync"][: args.runs])
    cpu_git = statistics.median(CPU["log --name-status"])
    print(
        f"CPU time (process tree): mine sync {cpu_sync:.3f} s, git log {cpu_git:.3f} s, "
        f"ratio {cpu_sync / cpu_git:.2f} (wall time gains from parsing while git writes, "
        "on a second core)"
    )
    for name, ours, base, base_name, bar in rows:
        verdict = "ok" if ours / base <= bar else "OVER"
        print(
            f"{name:32} {ours:6.3f} s  vs {base_name:24} {base:6.3f} s  "
            f"ratio {ours / base:4.2f} (bar {bar}) {verdict}"
        )
    for name, ours in (
        ("candidates --limit 50 cold", cold),
        ("candidates --limit 50 warm", warm),
    ):
        verdict = "ok" if ours <= 0.5 else "OVER"
        print(f"{name:32} {ours:6.3f} s  (bar 0.5 s) {verdict}")


if __name__ == "__main__":
    main()
