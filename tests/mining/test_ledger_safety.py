"""Ledgers (issue 11 cases 2, 8 and 20): all-or-nothing appends across both ledgers, short and
failed writes, idempotent retries, concurrent classifiers, and what `mine validate` must report.

Driven through the CLI and the ledger files only, so the same tests run on any version.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mining.gitrepo import GitRepo

CL = "registries/changelog/commits_processed.jsonl"
RN = "registries/changelog/release_notes.jsonl"
SHA = "0123456789abcdef0123456789abcdef01234567"


def lines_of(root: Path, rel: str) -> list[dict[str, Any]]:
    path = root / rel
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def current(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    gone: set[str] = set()
    for item in items:
        target = item.get("supersedes")
        gone.update([target] if isinstance(target, str) else target or [])
    return [item for item in items if item["id"] not in gone]


def snapshot(root: Path) -> tuple[bytes | None, bytes | None]:
    return tuple(  # type: ignore[return-value]
        (root / rel).read_bytes() if (root / rel).exists() else None for rel in (CL, RN)
    )


@pytest.fixture
def many(repo: GitRepo, cli: Any) -> tuple[GitRepo, list[str]]:
    """60 releasable commits in package core, indexed."""
    shas = [
        repo.commit(f"feat(core): change {i}", {f"packages/core/f{i}.py": f"{i}\n"})
        for i in range(60)
    ]
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    return repo, shas


def batch(path: Path, shas: list[str], category: str = "added") -> Path:
    rows = [
        {
            "sha": sha,
            "domain": "changelog",
            "action": "release",
            "category": category,
            "summary": f"Change {i}: " + "a long summary of what changed " * 12,
        }
        for i, sha in enumerate(shas)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def assert_whole(root: Path, count: int) -> None:
    """Both ledgers hold `count` whole entries, every note linked to its classification."""
    classes, notes = lines_of(root, CL), lines_of(root, RN)
    assert len(classes) == len(notes) == count
    assert {n["classification"] for n in notes} == {c["id"] for c in classes}
    for rel in (CL, RN):
        assert not (root / rel).exists() or (root / rel).read_bytes().endswith(b"\n")


# --- case 2: a full disk, short writes, failed writes -------------------------------------------


@pytest.fixture
def faulty_write(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """`os.write` to a ledger file: short (at most `chunk` bytes a call) and, once `budget` bytes
    have gone to `fail_in`, failing with ENOSPC. Identifies ledger fds through /proc."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd to tell a ledger's descriptor from others")
    real = os.write
    state: dict[str, Any] = {"chunk": 97, "budget": None, "fail_in": RN, "written": 0}

    def fake(fd: int, data: Any) -> int:
        try:
            target = str(Path(f"/proc/self/fd/{fd}").readlink())
        except OSError:
            return real(fd, data)
        if not target.endswith(".jsonl") or "registries/changelog" not in target:
            return real(fd, data)
        data = bytes(data)[: state["chunk"]]
        if state["budget"] is not None and target.endswith(state["fail_in"]):
            room = state["budget"] - state["written"]
            if room <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            data = data[:room]
            state["written"] += len(data)
        return real(fd, data)

    monkeypatch.setattr(os, "write", fake)
    yield state


def test_short_writes_are_continued(
    many: tuple[GitRepo, list[str]], cli: Any, faulty_write: dict[str, Any], tmp_path: Path
) -> None:
    repo, shas = many
    result = cli("mine", "commit", "--input", str(batch(tmp_path / "b.jsonl", shas)), cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    assert_whole(repo.path, 60)
    assert cli("mine", "validate", "--quick", cwd=repo.path).exit_code == 0


@pytest.mark.parametrize("fail_in", [RN, CL])
def test_a_failed_write_changes_neither_ledger_and_a_retry_is_exact(
    many: tuple[GitRepo, list[str]],
    cli: Any,
    faulty_write: dict[str, Any],
    tmp_path: Path,
    fail_in: str,
) -> None:
    repo, shas = many
    first = batch(tmp_path / "first.jsonl", shas[:5])
    assert cli("mine", "commit", "--input", str(first), cwd=repo.path).exit_code == 0
    before = snapshot(repo.path)
    faulty_write.update(budget=20_000, fail_in=fail_in)

    path = batch(tmp_path / "b.jsonl", shas)
    result = cli("mine", "commit", "--input", str(path), cwd=repo.path)

    assert result.exit_code == 1, result.stderr
    assert "No space left on device" in result.stderr and fail_in.rsplit("/", 1)[1] in result.stderr
    assert snapshot(repo.path) == before  # nothing torn, nothing half-applied
    assert cli("mine", "validate", "--quick", cwd=repo.path).exit_code == 0
    faulty_write["budget"] = None  # space freed: the retry applies the batch exactly once
    assert cli("mine", "commit", "--input", str(path), cwd=repo.path).exit_code == 0
    assert_whole(repo.path, 60)
    again = cli("mine", "commit", "--input", str(path), cwd=repo.path)
    assert again.exit_code == 0 and again.json()["unchanged"] == 60
    assert_whole(repo.path, 60)
    assert cli("mine", "validate", "--quick", cwd=repo.path).exit_code == 0


@pytest.fixture
def tiny_disk(many: tuple[GitRepo, list[str]]) -> Iterator[Path]:
    """`registries/changelog` on a 128 KiB tmpfs with about 20 KB free (root and Linux only)."""
    repo, _ = many
    folder = repo.path / "registries" / "changelog"
    folder.mkdir(parents=True, exist_ok=True)
    if sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs Linux and root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not allowed here: {mounted.stderr.strip()}")
    try:
        (folder / "filler").write_bytes(b"x" * 108 * 1024)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_full_disk_during_mine_commit(
    many: tuple[GitRepo, list[str]], cli: Any, tiny_disk: Path, tmp_path: Path
) -> None:
    repo, shas = many
    path = batch(tmp_path / "b.jsonl", shas)
    result = cli("mine", "commit", "--input", str(path), cwd=repo.path)

    assert result.exit_code == 1, result.stderr
    assert "No space left on device" in result.stderr
    assert snapshot(repo.path) in ((None, None), (b"", b""), (b"", None))
    assert cli("mine", "validate", "--quick", cwd=repo.path).exit_code == 0
    (tiny_disk / "filler").unlink()  # room again: the retry lands once
    assert cli("mine", "commit", "--input", str(path), cwd=repo.path).exit_code == 0
    assert_whole(repo.path, 60)
    assert cli("mine", "commit", "--input", str(path), cwd=repo.path).json()["unchanged"] == 60
    assert_whole(repo.path, 60)


# --- case 2: validate fails on torn, orphaned and duplicated lines --------------------------------


def entry(i: str, **kw: Any) -> dict[str, Any]:
    return {
        "id": i,
        "ts": "2026-01-01T00:00:00Z",
        "sha": SHA,
        "domain": "changelog",
        "action": "release",
        "category": "added",
    } | kw


@pytest.fixture
def project(project: Path) -> Path:
    """The shared empty project, configured with the packages the notes below name (a note of
    a package the configuration lacks is a finding of its own, ORK061)."""
    config = "project: demo\nmining:\n  packages:\n    core: packages/core\n    cli: packages/cli\n"
    (project / "registries" / "orkestra.yaml").write_text(config, encoding="utf-8")
    return project


def note(i: str, classification: str, **kw: Any) -> dict[str, Any]:
    return {
        "id": i,
        "ts": "2026-01-01T00:00:00Z",
        "sha": SHA,
        "package": "core",
        "category": "added",
        "summary": "Add it",
        "classification": classification,
    } | kw


def put(root: Path, rel: str, rows: list[dict[str, Any]], tail: str = "") -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("".join(json.dumps(r) + "\n" for r in rows) + tail, encoding="utf-8")


def quick(cli: Any, root: Path) -> tuple[int, list[tuple[str, str, int]]]:
    result = cli("mine", "validate", "--quick", cwd=root)
    found = result.json()["findings"]
    return result.exit_code, [(f["code"], f["file"], f["line"]) for f in found]


def test_validate_fails_on_a_torn_line(project: Path, cli: Any) -> None:
    put(project, CL, [entry("c1")], tail='{"id": "c2", "ts": "2026')
    put(project, RN, [note("n1", "c1")])
    assert quick(cli, project) == (1, [("ORK051", CL, 2)])


def test_validate_fails_on_an_orphaned_release_note(project: Path, cli: Any) -> None:
    put(project, CL, [entry("c1")])
    put(project, RN, [note("n1", "c1"), note("n2", "c-missing", sha="1" * 40)])
    assert quick(cli, project) == (1, [("ORK057", RN, 2)])


def test_validate_fails_on_duplicated_lines(project: Path, cli: Any) -> None:
    put(project, CL, [entry("c1"), entry("c1")])
    put(project, RN, [note("n1", "c1"), note("n2", "c1")])
    code, found = quick(cli, project)
    assert code == 1
    assert ("ORK054", CL, 2) in found and ("ORK058", RN, 2) in found


# --- case 8: deep nesting in a ledger or a batch file --------------------------------------------


def test_deeply_nested_ledger_line_is_a_finding_with_its_line(project: Path, cli: Any) -> None:
    put(project, CL, [entry("c1")], tail="[" * 5000 + "]" * 5000 + "\n")
    put(project, RN, [note("n1", "c1")])
    code, found = quick(cli, project)
    assert code == 1 and found == [("ORK050", CL, 2)]
    assert cli("mine", "status", cwd=project).exit_code in (0, 1)  # never an internal error


def test_deeply_nested_batch_line_is_a_clean_error(
    many: tuple[GitRepo, list[str]], cli: Any, tmp_path: Path
) -> None:
    repo, shas = many
    path = batch(tmp_path / "b.jsonl", shas[:2])
    path.write_text(path.read_text() + "[" * 10_000 + "]" * 10_000 + "\n", encoding="utf-8")
    result = cli("mine", "commit", "--input", str(path), cwd=repo.path)
    assert result.exit_code in (1, 2), result.stderr
    assert f"{path}:3" in result.stderr and "nested" in result.stderr
    assert snapshot(repo.path) == (None, None)
    piped = cli("mine", "commit", "--input", "-", cwd=repo.path, stdin=path.read_text())
    assert piped.exit_code in (1, 2) and "<stdin>:3" in piped.stderr


# --- case 20: concurrent classifiers -------------------------------------------------------------


def test_validate_reports_two_current_classifications_even_when_equal(
    project: Path, cli: Any
) -> None:
    put(project, CL, [entry("c1"), entry("c2")])
    put(project, RN, [note("n1", "c1"), note("n2", "c2", package="cli")])
    assert quick(cli, project) == (1, [("ORK052", CL, 2)])


WORKER = """
import sys, time
from pathlib import Path
from orkestra.mining import classify
from orkestra.mining.sync import load_config
root, go, categories, shas = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
config = load_config(root)
while not go.exists():
    time.sleep(0.005)
for category in categories:  # what `mine classify SHA --changelog CATEGORY` runs
    for sha in shas:
        flags = dict(changelog=category, decision=None, skip=None, summary=None, package=None)
        classify.classify(root, classify.from_flags(sha, domain=None, **flags), config)
"""


def rotated(items: list[str], by: int) -> str:
    return ",".join(items[by % len(items) :] + items[: by % len(items)])


def test_eight_concurrent_classifiers_leave_one_current_entry_per_commit(
    many: tuple[GitRepo, list[str]], cli: Any, tmp_path: Path
) -> None:
    repo, shas = many
    targets = shas[:3]
    categories = ["added", "changed", "deprecated", "removed", "fixed", "security"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    src = Path(__import__("orkestra").__file__).parents[1]
    env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER,
                str(repo.path),
                str(go),
                rotated(categories, i),
                *targets,
            ],
            cwd=repo.path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(8)
    ]
    go.touch()
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, errors
    live = Counter(e["sha"] for e in current(lines_of(repo.path, CL)))
    assert live == Counter(targets)
    notes = Counter(n["sha"] for n in current(lines_of(repo.path, RN)))
    assert notes == Counter(targets)
    assert cli("mine", "validate", "--quick", cwd=repo.path).exit_code == 0


# --- found by the issue 11 review: wrong types in a committed ledger line ---------------------------


@pytest.mark.parametrize("bad_id", [{"a": 1}, ["c1"], 5])
@pytest.mark.parametrize("rel", [CL, RN])
def test_a_ledger_id_of_the_wrong_type_is_a_finding_not_a_crash(
    many: tuple[GitRepo, list[str]], cli: Any, bad_id: Any, rel: str
) -> None:
    # an `id` that is an object made mine status/candidates and changelog render exit 3
    repo, shas = many
    row = entry("c1", sha=shas[0]) if rel == CL else note("n1", "c1", sha=shas[0])
    put(repo.path, rel, [row | {"id": bad_id}])
    for args in (
        ("mine", "status"),
        ("mine", "candidates"),
        ("changelog", "render", "--all", "--dry-run"),
    ):
        result = cli(*args, cwd=repo.path)
        assert result.exit_code in (0, 1), (args, result.stderr)
        assert "internal error" not in result.stderr
    assert cli("mine", "validate", "--quick", cwd=repo.path).exit_code == 1


def test_a_release_note_linked_by_a_list_is_skipped_not_a_crash(
    many: tuple[GitRepo, list[str]], cli: Any
) -> None:
    repo, shas = many
    put(repo.path, CL, [entry("c1", sha=shas[0])])
    put(repo.path, RN, [note("n1", ["c1"], sha=shas[0])])
    result = cli("changelog", "render", "--all", "--dry-run", cwd=repo.path)
    assert result.exit_code in (0, 1) and "internal error" not in result.stderr, result.stderr
