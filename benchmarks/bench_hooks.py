"""Benchmark `orkestra hook post-tool-use` on a Read payload against `python -c pass` (§10).

The real `orkestra` executable runs in a subprocess with the Read payload (a note under
knowledge/, so the usage log is appended too), alternating with the baseline; median of runs.
Target: at most 3x. Also lists what the hook path imports beyond a bare interpreter.

Run: python benchmarks/bench_hooks.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAYLOAD = {
    "session_id": "3f1c2a9e-5b7d-4e21-9a0c-1d2e3f4a5b6c",
    "transcript_path": "/home/dev/.claude/projects/repo/3f1c2a9e.jsonl",
    "cwd": "",
    "permission_mode": "default",
    "hook_event_name": "PostToolUse",
    "tool_name": "Read",
    "tool_input": {"file_path": ""},
    "tool_response": {"type": "text", "file": {"filePath": "", "numLines": 14}},
    "tool_use_id": "toolu_01ABC",
    "duration_ms": 12,
}


def _project(root: Path) -> str:
    (root / "registries").mkdir()
    (root / "registries/orkestra.yaml").write_text(
        "project: bench\nknowledge:\n  path: knowledge\n"
    )
    note = root / "knowledge/glossary/case.md"
    note.parent.mkdir(parents=True)
    note.write_text('---\ntype: glossary\ntitle: "Case"\n---\n\n# Case\n')
    payload = dict(PAYLOAD, cwd=str(root))
    payload["tool_input"] = {"file_path": str(note)}
    return json.dumps(payload)


def _time(cmd: list[str], stdin: str, cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, text=True, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def _imports(exe: str, stdin: str, cwd: Path) -> list[str]:
    def names(cmd: list[str], data: str) -> set[str]:
        err = subprocess.run(
            cmd, input=data, text=True, cwd=cwd, capture_output=True, check=True
        ).stderr
        return {ln.split("|")[-1].strip() for ln in err.splitlines() if "|" in ln}

    base = names([sys.executable, "-X", "importtime", "-c", "pass"], "")
    ours = names([sys.executable, "-X", "importtime", exe, "hook", "post-tool-use"], stdin)
    return sorted(ours - base - {"imported package"})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    exe = shutil.which("orkestra")
    if exe is None:
        sys.exit("orkestra is not on PATH (pip install -e .)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        stdin = _project(root)
        baseline, ours = [], []
        for _ in range(3):  # warm caches and .pyc files
            _time([exe, "hook", "post-tool-use"], stdin, root)
        for _ in range(args.runs):
            baseline.append(_time([sys.executable, "-c", "pass"], "", root))
            ours.append(_time([exe, "hook", "post-tool-use"], stdin, root))
        logged = (root / "knowledge/.usage.jsonl").read_text().count("\n")
        extra = _imports(exe, stdin, root)
    b, o = statistics.median(baseline), statistics.median(ours)
    print(f"python -c pass:                 {b * 1000:7.1f} ms (median of {args.runs})")
    print(f"orkestra hook post-tool-use:    {o * 1000:7.1f} ms (usage lines logged: {logged})")
    print(f"ratio: {o / b:.2f}x (target <= 3x)")
    print(f"modules imported beyond a bare interpreter: {', '.join(extra)}")
    return 0 if o / b <= 3 else 1


if __name__ == "__main__":
    raise SystemExit(main())
