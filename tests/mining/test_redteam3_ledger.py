"""Red team 3, ledgers: a write killed between the two ledgers, lines over the reader's limits,
conflicts inside one batch, wrong-typed fields in a committed line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from orkestra.mining import classify
from orkestra.mining.sync import load_config, sync
from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo

CL = ledger.CLASSIFICATIONS.as_posix()
RN = ledger.RELEASE_NOTES.as_posix()


def rows(root: Path, rel: str) -> list[dict[str, Any]]:
    path = root / rel
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def put(root: Path, rel: str, items: list[dict[str, Any]]) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("".join(json.dumps(r) + "\n" for r in items), encoding="utf-8")


def findings(cli: Any, root: Path) -> tuple[int, list[tuple[str, str, int]]]:
    result = cli("mine", "validate", "--quick", cwd=root)
    return result.exit_code, [(f["code"], f["file"], f["line"]) for f in result.json()["findings"]]


def changelog(cli: Any, root: Path) -> str:
    assert cli("changelog", "render", "--package", "core", cwd=root).exit_code == 0
    return (root / "packages" / "core" / "CHANGELOG.md").read_text(encoding="utf-8")


@pytest.fixture
def feat(repo: GitRepo) -> str:
    """One releasable commit in package core, indexed."""
    sha = repo.commit("feat(core): shiny thing", {"packages/core/a.py": "a\n"})
    sync(repo.path, load_config(repo.path))
    return sha


# --- 1. a process killed between the two ledger appends ------------------------------------------

KILLED = """
import os, signal, sys
real = os.fsync
def fsync(fd):
    real(fd)
    if "registries/changelog/" in os.readlink(f"/proc/self/fd/{fd}"):
        os.kill(os.getpid(), signal.SIGKILL)  # right after the first ledger is on disk
os.fsync = fsync
from orkestra.cli.entry import main
main(["mine", "classify", sys.argv[1], "--changelog", "added"])
"""


def test_a_kill_between_the_ledgers_leaves_the_commit_unclassified_and_the_retry_whole(
    repo: GitRepo, feat: str, cli: Any
) -> None:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd to find the ledger's descriptor")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    src = Path(__import__("orkestra").__file__).parents[1]
    env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    killed = subprocess.run(
        [sys.executable, "-c", KILLED, feat], cwd=repo.path, env=env, check=False, timeout=60
    )
    assert killed.returncode == -signal.SIGKILL
    # the release note went first: the classification never landed, so the commit is still a
    # candidate, the orphan note takes no effect and validate names it
    assert rows(repo.path, CL) == [] and len(rows(repo.path, RN)) == 1
    candidates = cli("mine", "candidates", "--domain", "changelog", cwd=repo.path).json()
    assert feat in [c["sha"] for c in candidates["candidates"]]
    assert findings(cli, repo.path) == (1, [("ORK057", RN, 1)])

    retry = cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path)
    assert retry.exit_code == 0 and retry.json()["written"] == 1, retry.stderr
    assert findings(cli, repo.path) == (0, [])
    assert "- Shiny thing (" in changelog(cli, repo.path)
    orphan, note = rows(repo.path, RN)
    assert note["supersedes"] == orphan["id"]


def test_a_release_without_its_note_is_reported_and_completed_by_the_retry(
    repo: GitRepo, feat: str, cli: Any
) -> None:
    # what an interrupted write of an earlier version left: the classification, no note
    assert cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path).exit_code == 0
    (repo.path / RN).write_text("", encoding="utf-8")
    code, found = findings(cli, repo.path)
    assert (code, found) == (1, [("ORK059", CL, 1)])
    message = cli("mine", "validate", "--quick", cwd=repo.path).json()["findings"][0]["message"]
    assert f"orkestra mine classify {feat[:12]} --changelog added" in message
    assert "- Shiny thing" not in changelog(cli, repo.path)

    retry = cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path)
    assert retry.exit_code == 0, retry.stderr
    assert retry.json() | {"entries": []} == {
        "written": 0,
        "release_notes": 1,
        "unchanged": 1,
        "entries": [],
    }
    (note,) = rows(repo.path, RN)
    assert note["classification"] == rows(repo.path, CL)[0]["id"]
    assert findings(cli, repo.path) == (0, [])
    assert "- Shiny thing (" in changelog(cli, repo.path)
    again = cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path).json()
    assert (again["written"], again["release_notes"]) == (0, 0)


def test_an_orphan_note_hides_nothing_and_the_retry_replaces_both(
    repo: GitRepo, feat: str, cli: Any
) -> None:
    # a reclassification killed after its note: the old entry stays what the changelog shows
    assert cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path).exit_code == 0
    (old,) = rows(repo.path, RN)
    orphan = old | {"id": "n-orphan", "category": "fixed", "classification": "c-lost"}
    put(repo.path, RN, [old, orphan | {"supersedes": old["id"]}])
    assert "### Added\n\n- Shiny thing" in changelog(cli, repo.path)
    assert findings(cli, repo.path) == (1, [("ORK057", RN, 2)])

    root = repo.path
    requests = classify.from_flags(
        feat, changelog="fixed", decision=None, skip=None, summary=None, package=None, domain=None
    )
    classify.classify(root, requests, load_config(root))
    assert rows(root, RN)[-1]["supersedes"] == [old["id"], "n-orphan"]
    assert [(f.code, f.line) for f in check(root, set(), None)] == []
    text = changelog(cli, root)
    assert "### Fixed\n\n- Shiny thing" in text and "### Added" not in text


# --- 4. nothing written that the reader would skip; no NUL in text -------------------------------


def test_a_batch_with_a_nul_or_an_oversized_summary_is_refused(
    repo: GitRepo, feat: str, cli: Any, tmp_path: Path
) -> None:
    other = repo.commit("feat(core): other", {"packages/core/b.py": "b\n"})
    sync(repo.path, load_config(repo.path))
    lines = [
        {"sha": feat, "domain": "changelog", "action": "release", "category": "added"}
        | {"summary": "a\u0000b"},
        {"sha": other, "domain": "changelog", "action": "release", "category": "added"}
        | {"summary": "x" * 2_000_000},
        {"sha": other, "domain": "decisions", "action": "skip", "reason": "y\u0000"},
    ]
    batch = tmp_path / "b.jsonl"
    batch.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    result = cli("mine", "commit", "--input", str(batch), cwd=repo.path)
    assert result.exit_code == 1
    assert f"{batch}:1: `summary` must not contain a NUL character" in result.stderr
    assert f"{batch}:2: `summary` is longer than 2000 characters" in result.stderr
    assert f"{batch}:3: `reason` must not contain a NUL character" in result.stderr
    assert not (repo.path / CL).exists() and not (repo.path / RN).exists()


def test_a_subject_of_megabytes_gives_a_readable_shortened_note(
    repo: GitRepo, cli: Any, tmp_path: Path
) -> None:
    # git's %s is the whole first paragraph: here 1.3 MB, over the reader's 1 MiB a line
    message = tmp_path / "msg"
    words = "".join(f"updated fixture tests/data/case_{i:05d}.json ok\n" for i in range(30_000))
    message.write_text("feat(core): regenerate fixtures\n" + words, encoding="utf-8")
    (repo.path / "packages/core/f.py").parent.mkdir(parents=True)
    (repo.path / "packages/core/f.py").write_text("f\n", encoding="utf-8")
    repo.git("add", ".")
    repo.git("commit", "-q", "-F", str(message))
    sha = repo.head()
    result = cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    (note,) = rows(repo.path, RN)
    assert len(note["summary"]) == 2000 and note["summary"].endswith("\u2026")
    assert note["summary"].startswith("Regenerate fixtures updated fixture")
    assert findings(cli, repo.path) == (0, [])
    again = cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).json()
    assert (again["unchanged"], again["release_notes"]) == (1, 0)
    assert "- Regenerate fixtures updated" in changelog(cli, repo.path)


def test_the_writer_refuses_a_line_over_the_readers_limit(tmp_path: Path) -> None:
    from orkestra.core.errors import InputError
    from orkestra.core.jsonio import MAX_LINE_BYTES

    ledger.append(tmp_path, [{"id": "c1", "sha": "a" * 40}], [{"id": "n1", "sha": "a" * 40}])
    before = [(tmp_path / rel).read_bytes() for rel in (CL, RN)]
    big = {"id": "n2", "sha": "b" * 40, "summary": "\u00e9" * (MAX_LINE_BYTES // 2)}
    with pytest.raises(
        InputError, match=r"line for commit bbbbbbbbbbbb would be 1048\d{3} bytes, over"
    ):
        ledger.append(tmp_path, [{"id": "c2", "sha": "b" * 40}], [big])
    assert [(tmp_path / rel).read_bytes() for rel in (CL, RN)] == before


def test_validate_reports_a_nul_in_a_ledger_line(repo: GitRepo, feat: str, cli: Any) -> None:
    assert cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path).exit_code == 0
    (note,) = rows(repo.path, RN)
    put(repo.path, RN, [note | {"summary": "a\u0000b"}])
    code, found = findings(cli, repo.path)
    assert code == 1 and ("ORK050", RN, 1) in found


# --- 5. conflicts inside one batch, and against the ledger ---------------------------------------


@pytest.fixture
def both(repo: GitRepo) -> str:
    """A commit touching packages core and cli, indexed."""
    sha = repo.commit("feat: touch both", {"packages/core/a.py": "a\n", "packages/cli/a.py": "a\n"})
    sync(repo.path, load_config(repo.path))
    return sha


def release(sha: str, package: str | None = None) -> dict[str, Any]:
    line = {"sha": sha, "domain": "changelog", "action": "release", "category": "added"}
    return line | ({"package": package} if package else {})


def skip(sha: str, package: str | None = None) -> dict[str, Any]:
    line = {"sha": sha, "domain": "changelog", "action": "skip", "reason": "noise"}
    return line | ({"package": package} if package else {})


def commit(cli: Any, root: Path, tmp_path: Path, lines: list[dict[str, Any]]) -> Any:
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return cli("mine", "commit", "--input", str(batch), cwd=root)


@pytest.mark.parametrize(
    "pair",
    [
        (lambda s: release(s, "core"), lambda s: skip(s)),
        (lambda s: skip(s), lambda s: release(s, "cli")),
        (lambda s: release(s), lambda s: release(s, "core")),
        (lambda s: release(s, "core"), lambda s: skip(s, "core")),
    ],
)
def test_two_overlapping_classifications_in_one_batch_are_refused(
    repo: GitRepo, both: str, cli: Any, tmp_path: Path, pair: Any
) -> None:
    result = commit(cli, repo.path, tmp_path, [pair[0](both), pair[1](both)])
    assert result.exit_code == 1
    message = (
        f"batch.jsonl:2: commit {both[:12]} is classified twice in changelog (first at line 1)"
    )
    assert message in result.stderr
    assert not (repo.path / CL).exists() and not (repo.path / RN).exists()


def test_one_batch_may_classify_each_package_and_then_the_whole(
    repo: GitRepo, both: str, cli: Any, tmp_path: Path
) -> None:
    result = commit(cli, repo.path, tmp_path, [release(both, "core"), skip(both, "cli")])
    assert result.exit_code == 0, result.stderr
    assert findings(cli, repo.path) == (0, [])
    # a later batch without a package replaces both per-package entries at once
    result = commit(cli, repo.path, tmp_path, [skip(both)])
    assert result.exit_code == 0, result.stderr
    assert sorted(result.json()["entries"][0]["supersedes"]) == sorted(
        row["id"] for row in rows(repo.path, CL)[:2]
    )
    assert findings(cli, repo.path) == (0, [])


# --- 6. a wrong-typed field in a committed line is skipped, as validate reports it ----------------


def test_the_readers_shapes_are_the_line_models() -> None:
    from orkestra.registry.models.ledger import ClassificationEntry, ReleaseNoteEntry

    for rel, model in (
        (ledger.CLASSIFICATIONS, ClassificationEntry),
        (ledger.RELEASE_NOTES, ReleaseNoteEntry),
    ):
        shape = ledger.SHAPES[rel.name]
        assert set(shape) == set(model.model_fields)
        required = {k for k, f in model.model_fields.items() if f.is_required()}
        assert {k for k, kind in shape.items() if kind == ledger.REQUIRED} == required


GOOD = {
    CL: {"id": "c1", "ts": "t", "sha": "a" * 40, "domain": "changelog", "action": "release"}
    | {"category": "added", "summary": "s", "package": "core", "reason": "r"}
    | {"decision_id": "DEC-PL-001", "supersedes": "c0"},
    RN: {"id": "n1", "ts": "t", "sha": "a" * 40, "package": "core", "category": "added"}
    | {"summary": "s", "date": "2026-01-01", "classification": "c1", "supersedes": "n0"},
}


@pytest.mark.parametrize("wrong", [["pkg"], {"a": 1}, 5, "a\u0000b"])
@pytest.mark.parametrize(("rel", "field"), [(rel, f) for rel in (CL, RN) for f in GOOD[rel]])
def test_a_wrong_typed_field_is_skipped_as_validate_reports_it(
    tmp_path: Path, rel: str, field: str, wrong: Any
) -> None:
    if field == "supersedes" and wrong == ["pkg"]:
        wrong = [5]  # a list of ids is right there
    put(tmp_path, rel, [GOOD[rel], GOOD[rel] | {"id": "x", field: wrong}])
    assert [e["id"] for e in ledger.entries(tmp_path / rel)] == [GOOD[rel]["id"]]
    found = [(f.code, f.file, f.line) for f in check(tmp_path, set(), None)]
    assert ("ORK050", rel, 2) in found


@pytest.mark.parametrize(
    ("rel", "field"), [(RN, "package"), (RN, "summary"), (RN, "classification"), (CL, "id")]
)
def test_readers_get_past_a_wrong_typed_field(
    repo: GitRepo, feat: str, rel: str, field: str
) -> None:
    root = repo.path
    flags = dict(decision=None, skip=None, summary=None, package=None, domain=None)
    config = load_config(root)
    classify.classify(root, classify.from_flags(feat, changelog="added", **flags), config)
    put(root, rel, [rows(root, rel)[0] | {field: ["x"]}])
    # what crashed: planning a classification against the line, rendering, status
    classify.classify(root, classify.from_flags(feat, changelog="fixed", **flags), config)
    from orkestra.mining import changelog as rendering
    from orkestra.mining.report import status

    rendering.render_all(root, config, ["core"])
    assert "- Shiny thing" in (root / "packages/core/CHANGELOG.md").read_text(encoding="utf-8")
    assert status(root)["changelog"]["processed"] == 1


def test_a_wrong_typed_package_no_longer_breaks_classify_and_commit(
    repo: GitRepo, feat: str, cli: Any
) -> None:
    other = repo.commit("feat(core): thing 2", {"packages/core/b.py": "b\n"})
    assert cli("mine", "classify", feat, "--changelog", "added", cwd=repo.path).exit_code == 0
    (note,) = rows(repo.path, RN)
    put(repo.path, RN, [note | {"package": ["core"]}])
    assert ("ORK050", RN, 1) in findings(cli, repo.path)[
        1
    ]  # and the release it carried is reported as without a note
    result = cli("mine", "classify", other, "--changelog", "fixed", cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    line = json.dumps({"sha": other, "domain": "changelog", "action": "skip", "reason": "x"})
    result = cli("mine", "commit", "--input", "-", cwd=repo.path, stdin=line + "\n")
    assert result.exit_code == 0, result.stderr


# --- 10. every bad line of a batch in one report -------------------------------------------------


def test_shape_and_project_errors_are_reported_together(
    repo: GitRepo, feat: str, cli: Any, tmp_path: Path
) -> None:
    lines = [
        release(feat) | {"colour": "red"},
        skip("deadbeefdeadbeef"),
        {"sha": feat, "domain": "decisions", "action": "extract", "decision_id": "DEC-ZZ-001"},
        release(feat, "nope"),
    ]
    result = commit(cli, repo.path, tmp_path, lines)
    assert result.exit_code == 1
    err = result.stderr
    assert "batch.jsonl:1: unknown field(s): colour" in err
    assert "batch.jsonl:2: commit deadbeefdeadbeef is not in the commit index" in err
    assert "batch.jsonl:3: decision code ZZ is not in registries/decisions/registry.yaml" in err
    assert "batch.jsonl:4: unknown package 'nope'" in err
    assert "4 bad lines; nothing was written" in err
    assert not (repo.path / CL).exists()
