"""Benchmark `orkestra search` on 50,000 registry entries against `grep -ril` (PRODUCT.md §10).

Generates (once) a registry under benchmarks/_data/search: 24,000 decision records (one file
each), 25,000 ground truths (250 files of 100 statements), 500 agents and 500 skills. Then, with
the real `orkestra` executable in subprocesses, alternating with the baseline, median of runs:

- warm: `orkestra search Q` with a fresh index vs `grep -ril Q registries/` (target <= 2x);
- changed: the first search after editing one file (a decision record, or a truths file of 100
  statements) vs a warm search (target <= 1.5x).

Run: python benchmarks/bench_search.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).resolve().parent / "_data" / "search"
SHAPE = "v1 decisions=24000 truths=250x100 agents=500 skills=500"
QUERIES = ("kubernetes", "kuberntes", "lupoto", "DEC-PL-00145")
SYLLABLES = [
    "ka",
    "ro",
    "mi",
    "te",
    "lu",
    "sa",
    "po",
    "ne",
    "di",
    "va",
    "go",
    "ri",
    "zu",
    "fe",
    "to",
    "an",
    "el",
    "or",
    "is",
    "um",
]
TECH = [
    "kubernetes",
    "postgres",
    "duckdb",
    "pipeline",
    "cache",
    "search",
    "index",
    "migration",
    "schema",
    "latency",
    "replica",
    "queue",
    "kafka",
    "terraform",
    "grpc",
]
CODES = (
    ("PL", "pipeline"),
    ("SR", "search"),
    ("AD", "agent-design"),
    ("DA", "data"),
    ("OB", "obs"),
)


def _writer(rng: random.Random) -> tuple[list[str], Callable[[int], str]]:
    words = sorted(
        {"".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(4000)}
    )

    def sentence(count: int) -> str:
        picked = [
            rng.choice(TECH) if rng.random() < 0.02 else rng.choice(words) for _ in range(count)
        ]
        return " ".join(picked).capitalize() + "."

    return words, sentence


def generate(root: Path) -> None:
    """Write the benchmark registry (deterministic)."""
    rng = random.Random(7)
    words, say = _writer(rng)
    reg = root / "registries"
    for folder in ("decisions/records", "truths", "agents", "skills/domains"):
        (reg / folder).mkdir(parents=True, exist_ok=True)
    (reg / "orkestra.yaml").write_text("project: bench\n", encoding="utf-8")
    codes = "{" + ", ".join(f"{d}: {c}" for c, d in CODES) + "}"
    (reg / "decisions" / "registry.yaml").write_text(f"domains: {codes}\n", encoding="utf-8")
    for i in range(24000):
        code, domain = CODES[i % len(CODES)]
        ident = f"DEC-{code}-{i:05d}"
        text = (
            f'id: {ident}\ntitle: "{say(8)}"\ndomain: {domain}\nstatus: active\n'
            f'created: "2026-01-26"\nsummary: "{say(20)}"\ncontext: "{say(30)}"\n'
            f'rationale: ["{say(10)}", "{say(10)}"]\n'
            f"files: [src/{rng.choice(words)}/{rng.choice(words)}.py]\n"
            f"tags: [{rng.choice(words)}, {rng.choice(TECH)}]\n"
        )
        (reg / "decisions" / "records" / f"{ident}.yaml").write_text(text, encoding="utf-8")
    for f in range(250):
        owner = f"{chr(65 + f % 26)}{chr(65 + f // 26)}"
        parts = [f"metadata:\n  title: Truths {f}\n  owner: owner{f}\nstatements:\n"]
        for j in range(100):
            parts.append(
                f"  - id: GT-T{owner}-{j:03d}\n    status: current\n"
                f'    statement: "{say(15)}"\n    rationale: "{say(20)}"\n'
                f'    evidence: ["src/{rng.choice(words)}.py"]\n'
                f"    tags: [{rng.choice(words)}, {rng.choice(TECH)}]\n"
            )
        (reg / "truths" / f"owner{f}.yaml").write_text("".join(parts), encoding="utf-8")
    for i in range(500):
        name = f"agent-{i:04d}"
        (reg / "agents" / f"{name}.yaml").write_text(
            f'name: {name}\ndescription: "{say(12)} Use when {say(5)}"\ncategory: {rng.choice(words)}\n'
            f"prompt: |\n  {say(60)}\n",
            encoding="utf-8",
        )
        skill = f"skill-{i:04d}"
        (reg / "skills" / "domains" / f"{skill}.yaml").write_text(
            f"metadata:\n  identifier: {skill}\n  name: {skill}\n"
            f'  description: "{say(12)} Use when {say(5)}"\n  layer: K2\n'
            f"frontmatter:\n  tags: [{rng.choice(words)}, {rng.choice(TECH)}]\n"
            f'sections:\n  - {{title: When to use, body: "{say(20)}"}}\n',
            encoding="utf-8",
        )
    (root / "SHAPE").write_text(SHAPE, encoding="utf-8")


#: as a user runs it: bytecode caches written (this sandbox sets PYTHONDONTWRITEBYTECODE=1)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV
    )
    return time.perf_counter() - start


def _executable() -> str:
    """The installed console script (next to this Python), not a version-manager shim."""
    beside = Path(sys.executable).parent / "orkestra"
    return str(beside) if beside.is_file() else (shutil.which("orkestra") or "orkestra")


def _edit(root: Path, index: int) -> None:
    """Change one file: a decision record, or (every other run) a truths file of 100 statements."""
    if index % 2:
        path = root / "registries" / "truths" / f"owner{index % 250}.yaml"
        marker = "status: current"
    else:
        path = (
            root / "registries" / "decisions" / "records" / f"DEC-PL-{index * 5 % 24000:05d}.yaml"
        )
        marker = "status: active"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(marker, f"{marker}\n    # edited", 1), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    orkestra = _executable()
    print(f"executable: {orkestra}")
    shape = DATA / "SHAPE"
    if not shape.is_file() or shape.read_text(encoding="utf-8") != SHAPE:
        shutil.rmtree(DATA, ignore_errors=True)
        DATA.mkdir(parents=True)
        print(f"generating {SHAPE} in {DATA} ...", flush=True)
        generate(DATA)
    start = time.perf_counter()
    subprocess.run(
        [orkestra, "search", "x", "--summary"], cwd=DATA, stdout=subprocess.DEVNULL, check=True
    )
    print(f"index ready (build or refresh: {time.perf_counter() - start:.2f}s)")
    worst = 0.0
    for query in QUERIES:
        grep, ours = [], []
        for _ in range(args.runs):
            grep.append(_time(["grep", "-ril", query, "registries/"], DATA))
            ours.append(_time([orkestra, "search", query], DATA))
        g, o = statistics.median(grep), statistics.median(ours)
        worst = max(worst, o / g)
        print(
            f"warm  {query!r:16} grep {g * 1000:6.1f} ms  orkestra {o * 1000:6.1f} ms (x{o / g:.2f})"
        )
    warm, changed = [], []
    for run in range(args.runs):
        warm.append(_time([orkestra, "search", QUERIES[0]], DATA))
        _edit(DATA, run + 1000 * (int(time.time()) % 4))
        changed.append(_time([orkestra, "search", QUERIES[0]], DATA))
    w, c = statistics.median(warm), statistics.median(changed)
    print(f"changed-file search {c * 1000:.1f} ms vs warm {w * 1000:.1f} ms  ratio {c / w:.2f}")
    print(
        f"RATIOS orkestra: warm/grep (worst) {worst:.2f}, changed/warm {c / w:.2f} "
        "(targets <= 2.0 and <= 1.5)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
