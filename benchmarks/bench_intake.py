"""Benchmark (issue 13): the trust review on a marketplace-shaped tree and on the corpus.

Prints, for today's review and for the baseline (the review as it was before issue 13, run from
git: `src/orkestra/intake` at BASELINE extracted into a temporary package), in the same process,
alternating, median of several runs:
- per-candidate time on a generated marketplace of ~181 skills / ~3.3 MB shaped like real ones
  (long SKILL.md, references/, scripts/; `marketplace_gen.py`), which is honest content: every
  reject there is a false alarm;
- the confusion matrix on tests/intake/corpus: hostile rejected / reviewed / adopted and benign
  rejected / reviewed / adopted.
Target (issue 13): under 10 ms per candidate; no hostile adopted, >= 95% rejected, no benign
rejected.

Run: python benchmarks/bench_intake.py [--runs N] [--baseline COMMIT] [--skills N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO / "tests" / "intake" / "corpus"
DATA = HERE / "_data" / "intake"
#: the last commit with the review as it was before issue 13
BASELINE = "98e50c77e46cb1621dbb7ae01aa693732de082fb"
TODAY = dt.date(2026, 12, 2)


def marketplace(count: int) -> Path:
    """The generated marketplace (cached under benchmarks/_data/)."""
    sys.path.insert(0, str(HERE))
    from marketplace_gen import generate

    tree = DATA / f"marketplace-{count}"
    if not tree.is_dir():
        generate(tree, count)
    return tree


def baseline_package(commit: str, into: Path) -> ModuleType:
    """`src/orkestra/intake` at `commit`, importable as `_intake_baseline` (imports rewritten)."""
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", commit, "src/orkestra/intake/"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    package = into / "_intake_baseline"
    package.mkdir()
    for path in listing:
        data = subprocess.run(
            ["git", "show", f"{commit}:{path}"], cwd=REPO, check=True, capture_output=True
        ).stdout
        name = Path(path).name
        if name.endswith(".py"):
            data = re.sub(rb"\borkestra\.intake\b", b"_intake_baseline", data)
        (package / name).write_bytes(data)
    sys.path.insert(0, str(into))
    return importlib.import_module("_intake_baseline.evaluate")


def _verdicts(module: ModuleType, root: Path) -> tuple[Counter[str], float, int]:
    """Verdict counts, CPU seconds (this process: steadier than wall time on a busy machine)."""
    options = module.Options(today=TODAY)
    start = time.process_time()
    candidates = module.evaluate_tree(root, root, [], options)
    elapsed = time.process_time() - start
    return Counter(c.verdict for c in candidates), elapsed, len(candidates)


def _matrix(module: ModuleType) -> dict[str, Counter[str]]:
    return {group: _verdicts(module, CORPUS / group)[0] for group in ("hostile", "benign")}


def _row(label: str, counts: Counter[str]) -> str:
    total = sum(counts.values())
    cells = "  ".join(f"{v} {counts[v]:>3}" for v in ("reject", "review", "adopt"))
    return f"  {label:<8} {cells}   ({total})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skills", type=int, default=181)
    parser.add_argument("--baseline", default=BASELINE)
    args = parser.parse_args()
    from orkestra.intake import evaluate as current

    tree = marketplace(args.skills)
    size = sum(p.stat().st_size for p in tree.rglob("*") if p.is_file())
    workdir = Path(tempfile.mkdtemp(prefix="bench-intake-"))
    try:
        base = baseline_package(args.baseline, workdir)
        engines: dict[str, Any] = {"baseline": base, "today": current}
        times: dict[str, list[float]] = {name: [] for name in engines}
        market: dict[str, Counter[str]] = {}
        count = 0
        for name, module in engines.items():  # warm up: rules loaded, imports done
            market[name], _elapsed, count = _verdicts(module, tree)
        for _ in range(args.runs):  # alternate, so both see the same cache state
            for name, module in engines.items():
                times[name].append(_verdicts(module, tree)[1])
        print(f"marketplace: {count} skills, {size / 1e6:.1f} MB (benchmarks/marketplace_gen.py)")
        per = {name: statistics.median(t) / count * 1000 for name, t in times.items()}
        for name in engines:
            label = f"{name} ({args.baseline[:7]})" if name == "baseline" else name
            print(
                f"  {label:<20} {per[name]:6.2f} ms CPU per candidate (median of {args.runs});"
                f" verdicts on honest content: {dict(market[name])}"
            )
        print(f"  ratio today / baseline: {per['today'] / per['baseline']:.2f}x; target < 10 ms")
        for name, module in engines.items():
            matrix = _matrix(module)
            print(f"corpus confusion matrix, {name}:")
            print(_row("hostile", matrix["hostile"]))
            print(_row("benign", matrix["benign"]))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
