"""Benchmark (issue 14): validate and sync on 1,000 agents + 5,000 skills vs PyYAML's C loader.

One run prints, each against the bare C-loader parse of the same registry files (a subprocess
that imports yaml and parses every `registries/**/*.yaml` with yaml.CSafeLoader):
cold validate and cold sync (no outputs, no lock, no `.orkestra/`: no parse cache, no render
cache, no no-op record) <= 2x parse; no-op validate and no-op sync
(nothing changed since the last run of the same command) <= 0.25x parse; one-file-changed sync
(an agent's description) <= 0.35x parse; the sync after that one (nothing changed since its
write) <= 0.25x; then a one-skill-changed sync (a skill's section body) and a one-skill-
description sync (the description shows in its SKILL.md and in the skill list of each agent
that has the skill: about 40 of them here), each held to the same 0.35x as any one changed
file, and a sync after an agent's file was saved with no change (its stat changed, its bytes
did not; no target of its own). The first
validate and the first sync after a cold sync are printed too: both are answered from the record
the cold sync left (docs/caches.md), checking the content of the 6,000 files it just wrote, and
the first of them rewrites that record as plain stats once those files are older than the racy
window.
Every cold step, floor and rulesync run writes into a folder of its own, made for it (a copy of
the project's sources), and nothing is deleted until the end: on this machine's ext4, which has
no journal, creating files within a few minutes of a mass delete is several times slower (the
inode allocator skips recently deleted inodes; 6,000 files took 0.3 s in a fresh folder and 1.5 s
right after `rm -rf` + sync), which would bill the previous step's cleanup to the next one.
It also prints floors, each a whole process timed like the steps (interpreter start-up included):
one process on one core doing part of the work with the libraries sync uses (Pydantic, Jinja,
PyYAML). A cold one (MIN_COLD): import them, parse every registry file, write the same outputs,
fsynced file by file as sync writes them and without fsync; no validation, no render, no lock. A
one-file change (MIN_ONE): import them, stat every registry file and output, parse and validate
the changed file, render one template, rewrite the lock and the one output. They are not lower
bounds for every design: two processes, or a file-system-wide flush instead of per-file fsync,
do the same work in less time.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from registry_gen import generate

PARSE = """
import sys, yaml, pathlib
for p in sorted(pathlib.Path(sys.argv[1], 'registries').rglob('*.yaml')):
    with open(p, 'rb') as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
"""
#: a one-core reference for a cold sync, as a whole process timed like the steps (interpreter
#: start-up included): import the Pydantic models and Jinja, parse every registry file with the
#: C loader, validate nothing, render nothing, then write the outputs the cold sync wrote (read
#: first; that time is printed and taken off) to fresh folders, temporary file then rename,
#: fsynced in FSYNC_THREADS threads before the renames when argv[3] is "fsync"
MIN_COLD = r"""
import json, os, sys, time, pathlib
t0 = time.perf_counter()
root, dest, durable = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3] == "fsync"
outputs = [(p.relative_to(root), p.read_bytes()) for p in sorted((root / '.claude').rglob('*'))
           if p.is_file() and not p.is_symlink()]
prep = time.perf_counter() - t0
import yaml, jinja2
import orkestra.registry.models as m; m.Agent; m.SkillFile
from concurrent.futures import ThreadPoolExecutor
from orkestra.core.safewrite import FSYNC_THREADS
for p in sorted(pathlib.Path(root, 'registries').rglob('*.yaml')):
    with open(p, 'rb') as f:
        yaml.load(f, Loader=yaml.CSafeLoader)
temps = []
for rel, data in outputs:
    target = dest / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name('.' + target.name + '.tmp')
    with open(tmp, 'wb') as f:
        f.write(data)
    temps.append((str(tmp), target))
def fsync(path):
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
if durable:
    with ThreadPoolExecutor(FSYNC_THREADS) as pool:
        list(pool.map(fsync, [t for t, _ in temps]))
for tmp, target in temps:
    os.replace(tmp, target)
print(json.dumps({"prep": prep}))
"""
#: a one-core reference for a one-file-changed sync, as a whole process: import the Pydantic
#: models and Jinja; stat every registry file and output (what changed, and whether an output
#: was edited); parse and validate the changed agent file; render one template; read the 1 MB
#: lock whole, splice the agent's new hash into its text and write it back; write the agent's
#: output (both atomically and fsynced, into a scratch folder: the project is left as it was)
MIN_ONE = r"""
import hashlib, json, os, sys, pathlib
import yaml, jinja2
import orkestra.registry.models as m; m.Agent; m.SkillFile
root, dest, changed = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
for top in ('registries', '.claude'):
    for folder, _dirs, files in os.walk(os.path.join(root, top)):
        for name in files:
            os.lstat(os.path.join(folder, name))
with open(os.path.join(root, changed), 'rb') as f:
    agent = m.Agent.model_validate(yaml.load(f, Loader=yaml.CSafeLoader))
text = jinja2.Template("---\nname: {{ a.name }}\ndescription: {{ a.description }}\n---\n"
                       "{{ a.prompt }}\n").render(a=agent).encode()
with open(os.path.join(root, 'registries', '.render-lock.json'), 'rb') as f:
    lock_text = f.read()
json.loads(lock_text)  # a damaged lock is an error: it is read whole
rel = f'.claude/agents/{agent.name}.md'
at = lock_text.index(b'"sha256": "', lock_text.index(json.dumps(rel).encode())) + 11
lock_text = lock_text[:at] + hashlib.sha256(text).hexdigest().encode() + lock_text[at + 64:]
def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name('.' + path.name + '.tmp')
    with open(tmp, 'wb') as f:
        f.write(data)
        os.fsync(f.fileno())
    os.replace(tmp, path)
write(dest / rel, text)
write(dest / 'registries' / '.render-lock.json', lock_text)
"""
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
    ("one-skill-changed sync", 0.35),
    ("one-skill-description sync", 0.35),
    ("one-file-saved-unchanged", None),
]
CHANGED = "registries/agents/agent-0001.yaml"
#: the skill whose section body the "one-skill-changed sync" step edits (its tier folder found
#: at run time)
SKILL = "skill-00001.yaml"


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


def _fresh(root: Path, where: Path) -> Path:
    """A new project folder holding `root`'s sources only (no outputs, no render lock, no
    `.orkestra/`; these names are skipped at every depth, and the generated registry holds none
    of them elsewhere): a sync or validate there is cold. Its own pending writes are flushed
    first, so their write-back is not billed to the step that follows."""
    skip = shutil.ignore_patterns(".claude", ".orkestra", ".render-lock.json", "GROUND_TRUTHS.md",
                                  "CLAUDE.md")  # fmt: skip
    shutil.copytree(root, where, symlinks=True, ignore=skip)
    os.sync()
    return where


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


def _edit_skill(root: Path, change: Any) -> None:
    """`change` applied to the parsed file of the skill `SKILL`, written back."""
    import yaml

    path = next((root / "registries" / "skills").glob(f"*/{SKILL}"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def touch_skill(root: Path, round_: int) -> None:
    """Change one skill's first section body (a different text each round)."""
    body = f"Changed in round {round_}: use it when benchmarking.\n"
    _edit_skill(root, lambda d: d["sections"][0].update(body=body))


def describe_skill(root: Path, round_: int) -> None:
    """Change one skill's description (a different text each round, 50-400 characters with a
    trigger phrase: no check warns about it): its SKILL.md and the line of each agent that lists
    it change."""
    text = f"Generated skill, changed in round {round_}. Use when benchmarking the sync."
    _edit_skill(root, lambda d: d["metadata"].update(description=text))


def _save_unchanged(root: Path) -> None:
    """Write an agent's file again with the bytes it holds (an editor's save with no change):
    its stat changes, its content does not."""
    path = root / "registries" / "agents" / "agent-0002.yaml"
    path.write_bytes(path.read_bytes())
    time.sleep(0.2)  # outside the racy window, as a sync run from a save hook would be


def _round(
    exe: str, root: Path, round_: int, times: dict[str, list[float]], cpus: dict[str, list[float]]
) -> tuple[int, Path]:
    """One alternating round of every step; returns the files the cold sync wrote and the
    project it wrote them in."""
    validate = [exe, "validate", "--format", "json"]

    def step(
        label: str, cmd: list[str], ok: tuple[int, ...] = (0,), cwd: Path | None = None
    ) -> str:
        elapsed, out, cpu = _time(cmd, cwd or root, ok)
        times[label].append(elapsed)
        cpus[label].append(cpu)
        return out

    step("parse", [sys.executable, "-c", PARSE, str(root)])
    base = root.parent / f"round-{round_}"
    base.mkdir()
    step("cold validate", validate, ok=(0, 1), cwd=_fresh(root, base / "validated"))
    project = _fresh(root, base / "synced")  # the rest of the round runs here
    written = int(json.loads(step("cold sync", [exe, "sync"], cwd=project))["written"])
    for label, how in (("floor, fsynced", "fsync"), ("floor, no fsync", "no-fsync")):
        os.sync()
        floor = [str(project), str(base / f"floor-{how}"), how]
        elapsed, out, _cpu = _time([sys.executable, "-c", MIN_COLD, *floor], project)
        times[label].append(elapsed - json.loads(out)["prep"])
    root = project
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
    _touch_one(root, round_)
    step("one-file floor", [sys.executable, "-c", MIN_ONE, str(root), str(base / "one"), CHANGED])
    out = step("one-file-changed sync", [exe, "sync"])
    if not 1 <= json.loads(out)["written"] <= 3:  # the agent's file and the lock
        raise SystemExit(f"one-file-changed sync wrote {json.loads(out)['written']} files")
    # nothing changed since that write: answered from the record it left (docs/caches.md)
    before = _mtimes(root)
    out = step("sync after that write", [exe, "sync"])
    if json.loads(out)["written"] or before != _mtimes(root):
        raise SystemExit("the sync after that write wrote")
    touch_skill(root, round_)
    out = step("one-skill-changed sync", [exe, "sync"])
    if json.loads(out)["written"] != 2:  # the skill's SKILL.md and the lock
        raise SystemExit(f"one-skill-changed sync wrote {json.loads(out)['written']} files")
    time.sleep(0.2)  # the write's racy window (docs/caches.md) passes, as between two saves
    describe_skill(root, round_)
    out = step("one-skill-description sync", [exe, "sync"])
    answer = json.loads(out)  # its SKILL.md, each agent listing it, and the lock; no warning
    if answer["written"] < 3 or answer["warnings"]:
        raise SystemExit(f"one-skill-description sync: {answer['written']} files written, "
                         f"{answer['warnings']} warnings")  # fmt: skip
    time.sleep(0.2)
    _save_unchanged(root)
    before = _mtimes(root)
    out = step("one-file-saved-unchanged", [exe, "sync"])
    if json.loads(out)["written"] or before != _mtimes(root):
        raise SystemExit("the sync after a save with no change wrote")
    return written, root


def main(runs: int = 5, where: str | None = None, rulesync: bool = True) -> None:
    exe = shutil.which("orkestra") or "orkestra"
    with tempfile.TemporaryDirectory(dir=where, prefix="orkestra-bench-sync-") as tmp:
        root = generate(Path(tmp) / "big")
        files = len(list((root / "registries").rglob("*.yaml")))
        times: dict[str, list[float]] = {"parse": [], **{label: [] for label, _ in STEPS}}
        cpus: dict[str, list[float]] = {label: [] for label in times}
        times.update({"floor, fsynced": [], "floor, no fsync": []})
        times["one-file floor"], cpus["one-file floor"] = [], []
        written, synced = 0, root
        for round_ in range(runs):
            written, synced = _round(exe, root, round_, times, cpus)
        parse = statistics.median(times["parse"])
        parse_cpu = statistics.median(cpus["parse"])
        print(f"registry: {files} YAML files; a cold sync writes {written} files")
        print(f"median of {runs} runs, alternating (the fastest and slowest run of each step at the "
              "end of its line); CPU = user + system time of the process and of the helpers it "
              "forks (a cold load and a big render use a second core)\n")  # fmt: skip
        print(
            f"{'step':<24} {'seconds':>8} {'x parse':>8} {'CPU s':>7} {'x parse':>8} {'target':>8}"
        )
        spread = f"runs {min(times['parse']):.3f}-{max(times['parse']):.3f}s"
        print(f"{'C-loader parse':<24} {parse:8.3f} {1.0:8.2f} {parse_cpu:7.3f} {1.0:8.2f}"
              f"                   {spread}")  # fmt: skip
        for label, target in STEPS:
            value = statistics.median(times[label])
            cpu = statistics.median(cpus[label])
            row = f"{label:<24} {value:8.3f} {value / parse:8.2f} {cpu:7.3f} {cpu / parse_cpu:8.2f}"
            spread = f"  runs {min(times[label]):.3f}-{max(times[label]):.3f}s"
            if target is None:
                print(f"{row}        -{spread}")
                continue
            verdict = "ok" if value / parse <= target else "over"
            print(f"{row} {target:7.2f}x  {verdict} (wall){spread}")
        print("\nfloors, whole processes timed like the steps, one core (MIN_COLD, MIN_ONE):")
        for label in ("floor, fsynced", "floor, no fsync", "one-file floor"):
            value = statistics.median(times[label])
            print(f"{label:<24} {value:8.3f} {value / parse:8.2f}")
        cold = statistics.median(times["cold sync"])
        if rulesync:
            print("\n" + _versus_rulesync(synced, Path(tmp), cold, runs))
        phased = _fresh(root, Path(tmp) / "phases")
        print("\nphases of one cold sync, in process: " + _phases(phased))
        print("phases of one no-op sync, in process: " + _phases(phased))


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
    sources = _rulesync_sources(root, tmp / "rulesync-sources")
    cmd = [node, str(cli), "generate", "--targets", "claudecode",
           "--features", "rules,subagents,skills"]  # fmt: skip
    theirs = []
    for run in range(runs):  # each run in a folder of its own, like the cold syncs
        project = _fresh(sources, tmp / f"rulesync-{run}")
        theirs.append(_time(cmd, project)[0])
    value = statistics.median(theirs)
    verdict = "ok" if value / cold >= 10 else "under"
    count = len(list((project / ".claude").rglob("*.md")))
    try:
        version = json.loads((cli.parents[2] / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        version = "?"
    return (
        f"rulesync {version} generate --targets claudecode ({count} files): {value:.3f}s; "
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
    """rulesync's sources holding what Orkestra rendered in `root` (a synced project): one
    subagent per agent, one skill per skill, CLAUDE.md as the root rule."""
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
