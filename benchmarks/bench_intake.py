"""Benchmark (issue 7): `orkestra skills intake` over a vendor tree of 3,500 candidate skills.

No baseline is named for intake in PRODUCT.md §10; the reference here is the cost of reading every
file once with a pattern match: `grep -rIlE` for a few of the hostile patterns over the same tree.
The ratio says how much the full review (spec check, every rule, criteria, verdict) costs over a
plain scan. Also prints the adoption rate (the seed figure is ~13% of 3,500).
Run: python benchmarks/bench_intake.py [candidates] [runs]
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "intake" / "fixtures"
DATA = Path(__file__).resolve().parent / "_data" / "intake"
GREP = r"curl[^|]*\|\s*sh|ignore (all )?previous instructions|b64decode|\.ssh/|do not tell the user"


def generate(count: int) -> Path:
    """Copy the fixture skills under new names until there are `count` candidates."""
    tree = DATA / f"vendor-{count}"
    if tree.is_dir():
        return tree
    templates = sorted(p for group in ("benign", "hostile") for p in (FIXTURES / group).iterdir())
    for index in range(count):
        source = templates[index % len(templates)]
        name = f"{source.name}-{index:05d}"
        target = tree / name
        shutil.copytree(source, target)
        skill = target / "SKILL.md"
        skill.write_text(
            skill.read_text(encoding="utf-8").replace(f"name: {source.name}", f"name: {name}", 1),
            encoding="utf-8",
        )
    return tree


def _time(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, done.stdout


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3500
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    tree = generate(count)
    files = sum(1 for p in tree.rglob("*") if p.is_file())
    ours: list[float] = []
    base: list[float] = []
    report = ""
    for _ in range(runs):  # alternate, so both see the same cache state
        elapsed, _out = _time(["grep", "-rIlE", GREP, str(tree)])
        base.append(elapsed)
        elapsed, report = _time(["orkestra", "skills", "intake", str(tree)])
        ours.append(elapsed)
    summary = json.loads(report)["summary"]
    ratio = statistics.median(ours) / statistics.median(base)
    print(f"candidates: {summary['candidates']} ({files} files)")
    print(
        f"adopted {summary['adopted']}, review {summary['review']}, rejected {summary['rejected']}"
    )
    print(f"grep -rIlE (baseline): median {statistics.median(base):.3f}s over {runs} runs")
    print(f"orkestra skills intake: median {statistics.median(ours):.3f}s over {runs} runs")
    print(f"ratio intake / grep: {ratio:.1f}x")
    print(f"per candidate: {statistics.median(ours) / summary['candidates'] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
