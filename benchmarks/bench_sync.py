"""Benchmark (issue 14): validate and sync on 1,000 agents + 5,000 skills vs PyYAML's C loader.

One run prints, each against the bare C-loader parse of the same registry files (a subprocess
that imports yaml and parses every `registries/**/*.yaml` with yaml.CSafeLoader):
cold validate and cold sync (no outputs, no lock, no `.orkestra/`: no parse cache, no render
cache, no no-op record) <= 2x parse; no-op validate and no-op sync
(nothing changed since the last run of the same command) <= 0.25x parse; one-file-changed sync
<= 0.35x parse; the sync after that one (nothing changed since its write) <= 0.25x. The first
validate and the first sync after a cold sync are printed too: both are answered from the record
the cold sync left (docs/caches.md), checking the content of the 6,000 files it just wrote, and
the first of them rewrites that record as plain stats once those files are older than the racy
window.
It also prints floors: of a cold sync (FLOOR: parse, then write the same outputs, with and
without fsync, timed in process: how much of the bar the parser and the disk alone take), and of
a one-file change (a no-op sync's stat of everything, plus a process that imports the Pydantic
models validating the changed file, whatever else it does).
Then cold sync against `rulesync generate --targets claudecode` on equivalent content (the same
agents, skills and CLAUDE.md as rulesync sources; rulesync installed with npm in this benchmark's
own temporary folder, with a Node 22 from npm when the system's is older): target >= 10x faster.
Every timing is a subprocess of the installed executable, alternating, median of `runs`.

Run: python benchmarks/bench_sync.py [runs] [--dir DIR] [--no-rulesync]
"""

from __future__ import annotations

import itertools
import json
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

PARSE = """
import sys, yaml, pathlib
for p in sorted(pathlib.Path(sys.argv[1], 'registries').rglob('*.yaml')):
    with open(p, 'rb') as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
"""
#: the least any cold sync must do, timed inside one process (no interpreter start-up): parse
#: every registry file with the C loader, then write the outputs the cold sync wrote (read into
#: memory first) to temporary files in fresh folders and rename them into place, and fsync them
#: in as many threads before the renames as sync does; prints the seconds of each part as JSON
FLOOR = """
import json, os, sys, time, pathlib, yaml
from concurrent.futures import ThreadPoolExecutor
from orkestra.core.safewrite import FSYNC_THREADS
root, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
outputs = [(p.relative_to(root), p.read_bytes()) for p in sorted((root / '.claude').rglob('*'))
           if p.is_file() and not p.is_symlink()]
start = time.perf_counter()
for p in sorted(pathlib.Path(root, 'registries').rglob('*.yaml')):
    with open(p, 'rb') as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
parsed = time.perf_counter()
temps = []
for rel, data in outputs:
    target = dest / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name('.' + target.name + '.tmp')
    with open(tmp, 'wb') as f:
        f.write(data)
    temps.append((str(tmp), target))
written = time.perf_counter()
def fsync(path):
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
with ThreadPoolExecutor(FSYNC_THREADS) as pool:
    list(pool.map(fsync, [t for t, _ in temps]))
synced = time.perf_counter()
for tmp, target in temps:
    os.replace(tmp, target)
done = time.perf_counter()
print(json.dumps({"parse": parsed - start, "write": written - parsed + done - synced,
                  "fsync": synced - written}))
"""
#: what validating one changed agent file needs beyond a no-op: its Pydantic model, imported
MODELS = "import orkestra.registry.models as m; m.Agent; m.SkillFile"
#: (label, target ratio to parse) in print order
STEPS: list[tuple[str, float | None]] = [
    ("cold validate", 2.0),
    ("cold sync", 2.0),
    ("validate after a sync", None),
    ("sync after a sync", None),
    ("no-op validate", 0.25),
    ("no-op sync", 0.25),
    ("one-file-changed sync", 0.35),
    ("sync after that write", 0.25),
]
CHANGED = "registries/agents/agent-0001.yaml"


def _time(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> tuple[float, str, float]:
    """(wall seconds, stdout, CPU seconds: user + system of the child and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, check=False, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, done.stdout, cpu


def _clean(root: Path) -> None:
    """No outputs, no render lock and no derived state at all (parse cache, render cache, no-op
    records: all of `.orkestra/`): the next sync or validate is cold."""
    shutil.rmtree(root / ".claude", ignore_errors=True)
    shutil.rmtree(root / ".orkestra", ignore_errors=True)
    (root / "registries" / ".render-lock.json").unlink(missing_ok=True)
    (root / "GROUND_TRUTHS.md").unlink(missing_ok=True)
    (root / "CLAUDE.md").unlink(missing_ok=True)
    os.sync()  # flush the deletions now, so their write-back is not billed to the next step


def _mtimes(root: Path) -> dict[str, int]:
    return {str(p): p.lstat().st_mtime_ns for p in (root / ".claude").rglob("*")}


def _touch_one(root: Path, round_: int) -> None:
    """Change one agent's description (a different text each round)."""
    path = root / CHANGED
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    out = [
        f"description: Changed in round {round_}. Use when benchmarking.\n"
        if line.startswith("description:")
        else line
        for line in lines
    ]
    path.write_text("".join(out), encoding="utf-8")


def _round(
    exe: str, root: Path, round_: int, times: dict[str, list[float]], cpus: dict[str, list[float]]
) -> int:
    """One alternating round of every step; returns the files the cold sync wrote."""
    validate = [exe, "validate", "--format", "json"]

    def step(label: str, cmd: list[str], ok: tuple[int, ...] = (0,)) -> str:
        elapsed, out, cpu = _time(cmd, root, ok)
        times[label].append(elapsed)
        cpus[label].append(cpu)
        return out

    step("parse", [sys.executable, "-c", PARSE, str(root)])
    _clean(root)
    step("cold validate", validate, ok=(0, 1))
    _clean(root)
    written = int(json.loads(step("cold sync", [exe, "sync"]))["written"])
    floor = root.parent / "floor"
    shutil.rmtree(floor, ignore_errors=True)
    os.sync()
    parts = json.loads(_time([sys.executable, "-c", FLOOR, str(root), str(floor)], root)[1])
    times["floor, no fsync"].append(parts["parse"] + parts["write"])
    times["floor, fsynced"].append(parts["parse"] + parts["write"] + parts["fsync"])
    shutil.rmtree(floor, ignore_errors=True)
    # the first runs after a write check what it wrote by content (docs/caches.md); a no-op is
    # the run after that, with nothing changed since
    step("validate after a sync", validate, ok=(0, 1))
    step("no-op validate", validate, ok=(0, 1))
    for label in ("sync after a sync", "no-op sync"):
        before = _mtimes(root)
        out = step(label, [exe, "sync"])
        touched = sum(1 for p, m in _mtimes(root).items() if before.get(p) != m)
        if json.loads(out)["written"] or touched:
            raise SystemExit(f"{label} wrote {json.loads(out)['written']}, touched {touched}")
    step("import the models", [sys.executable, "-c", MODELS])
    step("python -c pass", [sys.executable, "-c", "pass"])
    _touch_one(root, round_)
    out = step("one-file-changed sync", [exe, "sync"])
    if not 1 <= json.loads(out)["written"] <= 3:  # the agent's file and the lock
        raise SystemExit(f"one-file-changed sync wrote {json.loads(out)['written']} files")
    # nothing changed since that write: answered from the record it left (docs/caches.md)
    before = _mtimes(root)
    out = step("sync after that write", [exe, "sync"])
    if json.loads(out)["written"] or before != _mtimes(root):
        raise SystemExit("the sync after that write wrote")
    return written


def main(runs: int = 5, where: str | None = None, rulesync: bool = True) -> None:
    exe = shutil.which("orkestra") or "orkestra"
    with tempfile.TemporaryDirectory(dir=where, prefix="orkestra-bench-sync-") as tmp:
        root = generate(Path(tmp) / "big")
        files = len(list((root / "registries").rglob("*.yaml")))
        times: dict[str, list[float]] = {"parse": [], **{label: [] for label, _ in STEPS}}
        cpus: dict[str, list[float]] = {label: [] for label in times}
        times.update({"floor, no fsync": [], "floor, fsynced": []})
        for extra in ("import the models", "python -c pass"):
            times[extra], cpus[extra] = [], []
        written = 0
        for round_ in range(runs):
            written = _round(exe, root, round_, times, cpus)
        parse = statistics.median(times["parse"])
        parse_cpu = statistics.median(cpus["parse"])
        print(f"registry: {files} YAML files; a cold sync writes {written} files")
        print(f"median of {runs} runs, alternating; CPU = user + system time of the process\n")
        print(
            f"{'step':<24} {'seconds':>8} {'x parse':>8} {'CPU s':>7} {'x parse':>8} {'target':>8}"
        )
        print(f"{'C-loader parse':<24} {parse:8.3f} {1.0:8.2f} {parse_cpu:7.3f} {1.0:8.2f}")
        for label, target in STEPS:
            value = statistics.median(times[label])
            cpu = statistics.median(cpus[label])
            row = f"{label:<24} {value:8.3f} {value / parse:8.2f} {cpu:7.3f} {cpu / parse_cpu:8.2f}"
            if target is None:
                print(f"{row}        -")
                continue
            verdict = "ok" if value / parse <= target else "over"
            print(f"{row} {target:7.2f}x  {verdict} (wall)")
        print("\nthe floor of a cold sync, in process (parse, then write the same outputs):")
        for label in ("floor, no fsync", "floor, fsynced"):
            value = statistics.median(times[label])
            print(f"{label:<24} {value:8.3f} {value / parse:8.2f}")
        noop = statistics.median(times["no-op sync"])
        models = statistics.median(times["import the models"])
        models -= statistics.median(times["python -c pass"])  # the interpreter starts once
        print(
            f"{'one-file floor':<24} {noop + models:8.3f} {(noop + models) / parse:8.2f}"
            f"   (no-op sync {noop:.3f}s + importing the models {models:.3f}s)"
        )
        cold = statistics.median(times["cold sync"])
        if rulesync:
            print("\n" + _versus_rulesync(root, Path(tmp), cold, runs))
        _clean(root)
        print("\nphases of one cold sync, in process: " + _phases(root))
        print("phases of one no-op sync, in process: " + _phases(root))


def _versus_rulesync(root: Path, tmp: Path, cold: float, runs: int) -> str:
    """Cold sync against rulesync's generate on the same agents, skills and CLAUDE.md."""
    npm = shutil.which("npm")
    if npm is None:
        return "rulesync: skipped (npm is not installed)"
    tool = tmp / "rulesync"
    tool.mkdir()
    (tool / "package.json").write_text('{"name": "bench", "private": true}\n')
    packages = ["rulesync@latest"] + ([] if _node_major() >= 22 else ["node@22"])
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", *packages], cwd=tool,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        return f"rulesync: skipped (npm install failed: {done.stderr.strip()[-200:]})"
    local_node = tool / "node_modules" / ".bin" / "node"
    node = str(local_node) if local_node.exists() else (shutil.which("node") or "node")
    cli = tool / "node_modules" / "rulesync" / "dist" / "cli" / "index.js"
    project = _rulesync_sources(root, tmp / "rulesync-project")
    cmd = [node, str(cli), "generate", "--targets", "claudecode",
           "--features", "rules,subagents,skills"]  # fmt: skip
    theirs = []
    for _ in range(runs):
        shutil.rmtree(project / ".claude", ignore_errors=True)
        (project / "CLAUDE.md").unlink(missing_ok=True)
        os.sync()
        theirs.append(_time(cmd, project)[0])
    value = statistics.median(theirs)
    verdict = "ok" if value / cold >= 10 else "under"
    count = len(list((project / ".claude").rglob("*.md")))
    return (
        f"rulesync generate --targets claudecode ({count} files): {value:.3f}s; "
        f"cold sync is {value / cold:.1f}x faster (target >= 10x)  {verdict}"
    )


def _node_major() -> int:
    node = shutil.which("node")
    if node is None:
        return 0
    out = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout
    try:
        return int(out.strip().lstrip("v").split(".")[0])
    except ValueError:
        return 0


def _rulesync_sources(root: Path, project: Path) -> Path:
    """rulesync's sources holding what Orkestra rendered: one subagent per agent, one skill
    per skill, CLAUDE.md as the root rule."""
    subprocess.run([shutil.which("orkestra") or "orkestra", "sync"], cwd=root, check=True,
                   capture_output=True)  # fmt: skip
    base = project / ".rulesync"
    (base / "rules").mkdir(parents=True)
    (base / "subagents").mkdir()
    claude_md = root / "CLAUDE.md"
    body = claude_md.read_text(encoding="utf-8") if claude_md.is_file() else "# Project\n"
    rule = '---\nroot: true\ntargets: ["*"]\ndescription: Project overview\nglobs: ["**/*"]\n---\n'
    (base / "rules" / "overview.md").write_text(rule + body, encoding="utf-8")
    for agent in sorted((root / ".claude" / "agents").glob("*.md")):
        text = agent.read_text(encoding="utf-8")
        (base / "subagents" / agent.name).write_text(
            text.replace("---\n", '---\ntargets: ["*"]\n', 1), encoding="utf-8"
        )
    for skill in sorted((root / ".claude" / "skills").glob("*/SKILL.md")):
        folder = base / "skills" / skill.parent.name
        folder.mkdir(parents=True)
        text = skill.read_text(encoding="utf-8")
        (folder / "SKILL.md").write_text(
            text.replace("---\n", '---\ntargets: ["*"]\n', 1), encoding="utf-8"
        )
    return project


def _phases(root: Path) -> str:
    """Where one sync spends its time, in process (the parse cache is used as a real run would)."""
    from orkestra.registry.loader import load
    from orkestra.render import sync as render_sync
    from orkestra.render import writer

    marks = [("start", time.perf_counter())]
    reg = load(root)
    marks.append(("load", time.perf_counter()))
    render_sync.checked(reg)
    marks.append(("validate", time.perf_counter()))
    report = render_sync.sync(root, registry=reg, mode="dry-run")
    marks.append(("validate+render+diff", time.perf_counter()))
    writer.apply(root, report.plan)
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
    use_rulesync = "--no-rulesync" not in args
    args = [a for a in args if a != "--no-rulesync"]
    main(int(args[0]) if args else 5, where, use_rulesync)
