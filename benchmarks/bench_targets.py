"""Benchmark: sync with all six client targets on 1,000 agents + 5,000 skills.

A team that uses several clients configures several targets. Then an edit to an agent's prompt
renders that agent's file of each target (the shortcut of `render.delta`), and an edit to its
description renders those and the files whose instruction block lists every description
(AGENTS.md, Copilot's instructions, Cursor's rule) from the roster the last sync kept
(docs/caches.md). This prints, each against the bare
C-loader parse of the same registry files (the baseline of `bench_sync.py`), in one run: a cold
sync of the six targets, a no-op sync, a sync after one agent's description changed, one
after its prompt changed, one after a skill's section body changed (a different text each
round; the skill's SKILL.md is written in .claude/skills/ and .agents/skills/), and one after
that skill's description changed (its SKILL.md in both folders, the file of each target of
every agent listing it, about 40 agents here, and the three instruction blocks).

With `--baseline-src DIR` (a copy of another version's `src/`, e.g. from `git archive`), every
step also runs with that code (`PYTHONPATH=DIR`, alternating with this checkout's), and the
ratio of the two is printed: what a change did, measured side by side.

Every timing is a subprocess, median of `runs`. Run:
python benchmarks/bench_targets.py [runs] [--dir DIR] [--baseline-src DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_sync import PARSE, describe_skill, touch_skill
from registry_gen import generate

TARGETS = ["claude", "agents-md", "codex", "copilot", "cursor", "gemini"]
CHANGED = "registries/agents/agent-0001.yaml"
STEPS = (
    "cold sync",
    "no-op sync",
    "one-agent-changed sync",
    "one-agent-prompt sync",
    "one-skill-changed sync",
    "one-skill-description sync",
)


def _time(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, check=False, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def _six_targets(root: Path) -> None:
    import yaml

    config = root / "registries" / "orkestra.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["targets"] = TARGETS
    config.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _describe(root: Path, round_: int) -> None:
    path = root / CHANGED
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(
        "".join(
            f"description: Changed in round {round_}. Use when benchmarking.\n"
            if line.startswith("description:")
            else line
            for line in lines
        ),
        encoding="utf-8",
    )
    time.sleep(0.3)  # outside the racy window, as a sync run from a save hook would be


def _prompt(root: Path, round_: int) -> None:
    """The agent's prompt gets one more line (a different text each round)."""
    path = root / CHANGED
    text = path.read_text(encoding="utf-8")
    assert text.rstrip("\n").endswith("Work carefully."), "the generated prompt's last line"
    path.write_text(text.rstrip("\n") + f"\n  Changed in round {round_}.\n", encoding="utf-8")
    time.sleep(0.3)


def _steps(root: Path, where: Path, env: dict[str, str] | None, round_: int) -> list[float]:
    """Cold, no-op, one-agent-changed, one-agent-prompt, one-skill-changed and
    one-skill-description sync in a fresh copy of `root`'s sources."""
    shutil.copytree(root, where, symlinks=True)
    os.sync()
    exe = [sys.executable, "-m", "orkestra", "sync"]
    cold = _time(exe, where, env)
    _time(exe, where, env)  # checks what the cold sync wrote by content, records plain stats
    noop = _time(exe, where, env)
    _describe(where, round_)
    _time(exe, where, env)  # the first edit also rewrites what the cold sync recorded
    _describe(where, round_ + 1000)
    described = _time(exe, where, env)
    _prompt(where, round_)
    prompted = _time(exe, where, env)
    touch_skill(where, round_)
    time.sleep(0.3)
    touched = _time(exe, where, env)
    describe_skill(where, round_)
    time.sleep(0.3)
    return [cold, noop, described, prompted, touched, _time(exe, where, env)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--baseline-src", type=Path, default=None)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-targets-", dir=args.dir))
    try:
        root = generate(base / "source")
        _six_targets(root)
        versions: dict[str, dict[str, str] | None] = {"this checkout": None}
        if args.baseline_src is not None:
            env = {**os.environ, "PYTHONPATH": str(args.baseline_src.resolve())}
            versions["baseline"] = env
        times: dict[str, dict[str, list[float]]] = {v: {s: [] for s in STEPS} for v in versions}
        parse: list[float] = []
        for run in range(args.runs):
            parse.append(_time([sys.executable, "-c", PARSE, str(root)], root))
            order = list(versions.items())
            for version, env in order if run % 2 == 0 else order[::-1]:  # alternating
                folder = base / f"{version.replace(' ', '-')}-{run}"
                for step, seconds in zip(STEPS, _steps(root, folder, env, run), strict=True):
                    times[version][step].append(seconds)
        parsed = statistics.median(parse)
        print(f"six targets ({', '.join(TARGETS)}), 1,000 agents + 5,000 skills, {args.runs} runs")
        print(f"{'parse (C loader)':<28} {parsed:7.3f} s")
        for step in STEPS:
            now = statistics.median(times["this checkout"][step])
            line = f"{step:<28} {now:7.3f} s  {now / parsed:5.2f}x parse"
            if "baseline" in times:
                then = statistics.median(times["baseline"][step])
                line += f"  baseline {then:7.3f} s  ({now / then:4.2f}x the baseline's time)"
            print(line)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
