"""History to changelog (PRODUCT.md §10, issue 12 item 14) against commitizen's `cz changelog`.

On a ~9,600-commit repository built with `git fast-import` (benchmarks/make_repo.py: several
packages, plain and package tags), times the whole Orkestra path a user takes,

    orkestra mine sync  +  orkestra mine commit --input <whole history>  +  orkestra changelog render --all

each step from scratch (no commit index, empty ledgers, no CHANGELOG.md), against
`cz changelog` (commitizen, installed by the `bench` extra: `pip install -e .[bench]`) writing
CHANGELOG.md from the same history and tags; alternating, median of several runs. The bar: the
Orkestra path is faster (ratio < 1). Each step's own median is printed as well, wall and CPU time
(user + system of the process tree: on a loaded machine wall time mostly measures the queue), and
the floor of any implementation: git's own `git log --name-status` plus three command start-ups.

Usage: python benchmarks/bench_history.py [--commits 9600] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_repo import build

DATA = Path(__file__).parent / "_data"
CZ_CONFIG = """[tool.commitizen]
name = "cz_conventional_commits"
tag_format = "v$version"
version = "1.0.0"
update_changelog_on_bump = true
"""
CATEGORY = {"feat": "added", "fix": "fixed", "perf": "changed", "revert": "removed"}


CPU: dict[str, list[float]] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(cmd: list[str], cwd: Path, name: str) -> float:
    """Wall time of one run; the CPU time of its process tree is kept in CPU[name]."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    CPU.setdefault(name, []).append(_children_cpu() - cpu)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()}")
    return wall


def whole_history(repo: Path, exe: str, dest: Path) -> Path:
    """The batch a classifier would hand over: every commit, releasable types released."""
    subprocess.run([exe, "mine", "sync"], cwd=repo, stdout=subprocess.DEVNULL, check=True)
    from orkestra.mining import index

    lines = []
    for record in index.records(repo):
        kind = record["signals"]["commit_type"]
        line = {"sha": record["sha"], "domain": "changelog"}
        if kind in CATEGORY:
            line |= {"action": "release", "category": CATEGORY[kind]}
        else:
            line |= {"action": "skip", "reason": f"{kind or 'free-form'}: not user-facing"}
        lines.append(json.dumps(line))
    dest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dest


def clean(repo: Path) -> None:
    """Nothing derived left: no commit index, no ledgers, no changelogs (either tool's)."""
    shutil.rmtree(repo / ".orkestra", ignore_errors=True)
    shutil.rmtree(repo / "registries" / "changelog", ignore_errors=True)
    for path in [repo / "CHANGELOG.md", *repo.glob("packages/*/CHANGELOG.md")]:
        path.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=9_600)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    repo = build(DATA / f"history-{args.commits}", args.commits)
    (repo / ".cz.toml").write_text(CZ_CONFIG, encoding="utf-8")
    (repo / ".git" / "info" / "exclude").write_text(".orkestra/\n.cz.toml\n", encoding="utf-8")
    exe = shutil.which("orkestra") or "orkestra"
    cz = shutil.which("cz")
    if cz is None:
        raise SystemExit("commitizen is not installed: pip install -e '.[bench]'")
    batch = whole_history(repo, exe, DATA / f"history-{args.commits}.jsonl")
    steps: dict[str, list[float]] = {"sync": [], "commit": [], "render": [], "cz": []}
    for _ in range(args.runs):
        clean(repo)
        steps["sync"].append(run([exe, "mine", "sync"], repo, "sync"))
        steps["commit"].append(run([exe, "mine", "commit", "--input", str(batch)], repo, "commit"))
        steps["render"].append(run([exe, "changelog", "render", "--all"], repo, "render"))
        clean(repo)
        steps["cz"].append(run([cz, "changelog"], repo, "cz"))
        run(["git", "log", "--name-status"], repo, "git")  # the floor's CPU time, below
        run([exe, "changelog", "render", "--help"], repo, "help")
    ours = [sum(step) for step in zip(steps["sync"], steps["commit"], steps["render"], strict=True)]
    total, base = statistics.median(ours), statistics.median(steps["cz"])
    cpu = [sum(step) for step in zip(CPU["sync"], CPU["commit"], CPU["render"], strict=True)]
    cpu_ours, cpu_cz = statistics.median(cpu), statistics.median(CPU["cz"])
    commits = subprocess.run(
        ["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"repository: {repo} ({commits} commits), median of {args.runs} alternating runs")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in ("sync", "commit", "render"):
        wall, used = statistics.median(steps[name]), statistics.median(CPU[name])
        print(f"  orkestra {name:7} {wall:6.3f} s (CPU {used:6.3f} s)")
    # what no implementation of this path escapes: git's tree diffs for the changed files (cz
    # reads no file lists) and three command start-ups (each parses its arguments)
    git_cpu, help_cpu = statistics.median(CPU["git"]), statistics.median(CPU["help"])
    print(
        f"  floor: git log --name-status CPU {git_cpu:.3f} s + 3 x `changelog render --help` "
        f"CPU {help_cpu:.3f} s = {git_cpu + 3 * help_cpu:.3f} s "
        f"(ratio to cz {(git_cpu + 3 * help_cpu) / cpu_cz:.2f})"
    )
    print(
        f"CPU time (process trees): orkestra {cpu_ours:.3f} s, cz changelog {cpu_cz:.3f} s, "
        f"ratio {cpu_ours / cpu_cz:.2f}"
    )
    verdict = "ok" if total < base else "OVER"
    print(
        f"history to changelog {total:6.3f} s  vs cz changelog {base:6.3f} s  "
        f"ratio {total / base:4.2f} (bar: below 1.0) {verdict}"
    )
    clean(repo)


if __name__ == "__main__":
    main()
