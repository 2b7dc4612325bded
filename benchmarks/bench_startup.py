"""Benchmark (issue 10): start-up of the hot commands against their own `--help`.

`orkestra X --help` costs the interpreter, typer and the command's module; `orkestra X` adds only
the command's own work. On a small project (a generated registry of 20 agents and 60 skills, a
git repository, a few knowledge notes) each hot command should take at most 1.3x its `--help`.
Every command runs as a subprocess of the installed executable, alternating with its `--help`,
after one warm-up run (the search index and the commit index are built then); the median of
`--runs` runs is printed with the ratio. `--version` and the top-level `--help` are printed too.

Run: python benchmarks/bench_startup.py [--runs N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from registry_gen import generate

TARGET = 1.3
#: (label, command, its help) — the hot commands of issue 10
HOT = [
    ("search Q", ["search", "skill topic"], ["search", "--help"]),
    ("agents list", ["agents", "list"], ["agents", "list", "--help"]),
    ("notes check", ["notes", "check"], ["notes", "check", "--help"]),
    ("mine status", ["mine", "status"], ["mine", "status", "--help"]),
    ("mine sync (no-op)", ["mine", "sync"], ["mine", "sync", "--help"]),
]
PLAIN = [("--version", ["--version"]), ("--help", ["--help"])]


def executable() -> str:
    beside = Path(sys.executable).parent / "orkestra"
    found = str(beside) if beside.is_file() else shutil.which("orkestra")
    if found is None:
        raise SystemExit("the `orkestra` executable is not installed (pip install -e .)")
    return found


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ORKESTRA_"))}
    return {**env, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
            "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}  # fmt: skip


def build(root: Path, exe: str) -> Path:
    """A small project: generated registry, a few notes, one git commit, warm indexes."""
    generate(root, agents=20, skills=60)
    for n in range(5):
        (root / "app").mkdir(exist_ok=True)
        (root / "app" / f"mod{n}.py").write_text(f"def handler_{n}():\n    return {n}\n")
        _run([exe, "notes", "new", "glossary", f"Term {n}", "--source",
              f"app/mod{n}.py#def handler_{n}"], root)  # fmt: skip
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "feat: start"]):
        _run(["git", *args], root)
    for _label, command, _help in HOT:
        _run([exe, *command], root)  # warm-up: indexes built, caches filled
    return root


def _run(cmd: list[str], cwd: Path) -> float:
    return _timed(cmd, cwd)[0]


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def measure(exe: str, root: Path, runs: int) -> None:
    print(f"executable: {exe}\nproject: {root}\nmedian of {runs} runs, alternating\n")
    print(
        "wall: elapsed time; CPU: user + system time of the process (steadier on a busy machine)\n"
    )
    print(
        f"{'command':<20} {'ms':>7} {'--help ms':>10} {'ratio':>6}"
        f"  {'CPU ms':>7} {'--help':>7} {'ratio':>6}  target <= {TARGET}x"
    )
    worst = 0.0
    for label, command, helped in HOT:
        own: list[tuple[float, float]] = []
        help_: list[tuple[float, float]] = []
        for _ in range(runs):
            own.append(_timed([exe, *command], root))
            help_.append(_timed([exe, *helped], root))
        o, h = statistics.median(w for w, _ in own), statistics.median(w for w, _ in help_)
        oc, hc = statistics.median(c for _, c in own), statistics.median(c for _, c in help_)
        worst = max(worst, o / h)
        verdict = "ok" if o / h <= TARGET else "over"
        print(
            f"{label:<20} {o * 1000:7.1f} {h * 1000:10.1f} {o / h:6.2f}"
            f"  {oc * 1000:7.1f} {hc * 1000:7.1f} {oc / hc:6.2f}  {verdict}"
        )
    for label, command in PLAIN:
        times = [_run([exe, *command], root) for _ in range(runs)]
        print(f"{label:<20} {statistics.median(times) * 1000:7.1f}")
    print(f"\nworst wall ratio {worst:.2f} (target <= {TARGET})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--keep", type=Path, help="build (or reuse) the project in this folder")
    args = parser.parse_args()
    exe = executable()
    if args.keep is not None:
        root = args.keep
        if not (root / "registries").is_dir():
            build(root, exe)
        measure(exe, root, args.runs)
        return
    with tempfile.TemporaryDirectory(prefix="orkestra-startup-") as tmp:
        measure(exe, build(Path(tmp), exe), args.runs)


if __name__ == "__main__":
    main()
