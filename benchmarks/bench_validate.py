"""Benchmark (issue 2): `orkestra validate` on 1,000 agents + 5,000 skills vs PyYAML's C loader.

Target: validate <= 2x the time of just parsing the same YAML files with yaml.CSafeLoader.
Also: `orkestra --version` and `--help` start in under 0.3 s.
Run: python benchmarks/bench_validate.py
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from registry_gen import generate

PARSE = """
import sys, yaml, pathlib
for p in sorted(pathlib.Path(sys.argv[1], 'registries').rglob('*.yaml')):
    with open(p, 'rb') as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
"""


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(runs: int = 5) -> None:
    exe = shutil.which("orkestra") or "orkestra"
    with tempfile.TemporaryDirectory() as tmp:
        root = generate(Path(tmp) / "big")
        files = len(list((root / "registries").rglob("*.yaml")))
        check = subprocess.run(
            [exe, "validate"], cwd=root, capture_output=True, text=True, check=False
        )
        print(
            f"registry: {files} YAML files; validate exit {check.returncode}: {check.stdout.strip().splitlines()[-1]}"
        )
        base, ours = [], []
        for _ in range(runs):  # alternate baseline and ours
            base.append(_time([sys.executable, "-c", PARSE, str(root)], root))
            ours.append(_time([exe, "validate"], root))
        b, o = statistics.median(base), statistics.median(ours)
        print(
            f"C-loader parse: {b:.3f}s  orkestra validate: {o:.3f}s  ratio: {o / b:.2f}x (target <= 2.0x)"
        )
        for args in (["--version"], ["--help"]):
            times = [_time([exe, *args], root) for _ in range(runs)]
            print(f"orkestra {args[0]}: {statistics.median(times):.3f}s (target < 0.3s)")


if __name__ == "__main__":
    main()
