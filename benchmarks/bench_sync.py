"""Benchmark (issue 3): `orkestra sync` on 1,000 agents + 5,000 skills vs PyYAML's C loader.

Targets: a full sync (empty output tree) <= 2x the time of just parsing the same YAML files with
yaml.CSafeLoader; a no-op sync (everything up to date) writes zero files.
Also printed: the floor this disk sets, a plain copy of the rendered tree (read + write, no
temporary files, no rename) and the full sync against parse + that floor; `--dir /dev/shm` puts the
tree on tmpfs to show Orkestra's own cost without the disk.
Run: python benchmarks/bench_sync.py [runs] [--dir DIR]
"""

from __future__ import annotations

import itertools
import json
import os
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


def _time(cmd: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, check=False, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, done.stdout


RAW_COPY = """
import os, sys
src, dst = sys.argv[1], sys.argv[2]
for dirpath, _dirs, files in os.walk(src):
    out = os.path.join(dst, os.path.relpath(dirpath, src))
    os.makedirs(out, exist_ok=True)
    for name in files:
        with open(os.path.join(dirpath, name), 'rb') as fh:
            data = fh.read()
        with open(os.path.join(out, name), 'wb') as fh:
            fh.write(data)
"""


def _clean(root: Path) -> None:
    shutil.rmtree(root / ".claude", ignore_errors=True)
    (root / "registries" / ".render-lock.json").unlink(missing_ok=True)
    (root / "GROUND_TRUTHS.md").unlink(missing_ok=True)
    os.sync()  # flush the deletions now, so their write-back is not billed to the next sync


def _mtimes(root: Path) -> dict[str, int]:
    return {str(p): p.lstat().st_mtime_ns for p in (root / ".claude").rglob("*")}


def main(runs: int = 5, where: str | None = None) -> None:
    exe = shutil.which("orkestra") or "orkestra"
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        root = generate(Path(tmp) / "big")
        files = len(list((root / "registries").rglob("*.yaml")))
        base, full, noop, floor = [], [], [], []
        written = None
        for _ in range(runs):  # alternate baseline and ours
            base.append(_time([sys.executable, "-c", PARSE, str(root)], root)[0])
            _clean(root)
            elapsed, out = _time([exe, "sync"], root)
            full.append(elapsed)
            written = json.loads(out)["written"]
            before = _mtimes(root)
            elapsed, out = _time([exe, "sync"], root)
            noop.append(elapsed)
            noop_written = json.loads(out)["written"]
            touched = sum(1 for p, m in _mtimes(root).items() if before.get(p) != m)
            if noop_written or touched:
                raise SystemExit(f"no-op sync wrote {noop_written} file(s), touched {touched}")
            copy = Path(tmp) / "copy"
            floor.append(
                _time([sys.executable, "-c", RAW_COPY, str(root / ".claude"), str(copy)], root)[0]
            )
            shutil.rmtree(copy)
            os.sync()
        b, f, n = statistics.median(base), statistics.median(full), statistics.median(noop)
        print(f"registry: {files} YAML files; full sync wrote {written} files")
        print(
            f"C-loader parse: {b:.3f}s  full sync: {f:.3f}s  ratio: {f / b:.2f}x (target <= 2.0x)"
        )
        print(f"no-op sync: {n:.3f}s  ratio: {n / b:.2f}x; files written: 0 (target 0)")
        w = statistics.median(floor)
        print(
            f"disk floor, plain copy of the rendered tree: {w:.3f}s; "
            f"full sync / (parse + floor): {f / (b + w):.2f}x"
        )
        _clean(root)
        print("phases of one full sync, in process: " + _phases(root))


def _phases(root: Path) -> str:
    """Where a full sync spends its time (to see which part misses the budget)."""
    from orkestra.registry.loader import load
    from orkestra.render import manifest, writer
    from orkestra.render.environment import Templates
    from orkestra.render.sync import check_valid, render_outputs

    marks = [("start", time.perf_counter())]
    reg = load(root)
    marks.append(("load", time.perf_counter()))
    check_valid(reg)
    marks.append(("validate", time.perf_counter()))
    outputs = render_outputs(reg, ["claude"], Templates(root))
    marks.append(("render", time.perf_counter()))
    plan = writer.plan(root, outputs, manifest.load(root), {"claude"})
    marks.append(("diff", time.perf_counter()))
    writer.apply(root, plan)
    marks.append(("write", time.perf_counter()))
    return "  ".join(
        f"{name} {end - begin:.3f}s" for (_, begin), (name, end) in itertools.pairwise(marks)
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    where = None
    if "--dir" in args:
        at = args.index("--dir")
        where = args[at + 1]
        del args[at : at + 2]
    main(int(args[0]) if args else 5, where)
