"""Ledgers: torn-line tolerant reads, concurrent appends, quick and git-backed validation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from orkestra.mining.sync import sync
from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo

SHA = "0123456789abcdef0123456789abcdef01234567"
SHA2 = "1123456789abcdef0123456789abcdef01234567"
SHA3 = "2123456789abcdef0123456789abcdef01234567"
CL = ledger.CLASSIFICATIONS.as_posix()
RN = ledger.RELEASE_NOTES.as_posix()


def entry(i: str, sha: str = SHA, **kw: str) -> dict[str, str]:
    base = {"id": i, "ts": "2026-01-01T00:00:00Z", "sha": sha, "domain": "changelog"}
    base.update(({"action": "release", "category": "added"} if "action" not in kw else {}) | kw)
    return base


def note(i: str, sha: str, classification: str, **kw: str) -> dict[str, str]:
    base = {"id": i, "ts": "t", "sha": sha, "package": "p", "category": "added", "summary": "s"}
    return base | {"classification": classification} | kw


def put(root: Path, rel: Path, lines: list[object], *, end: str = "\n") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines)
    path.write_text(text + end, encoding="utf-8")


def codes(root: Path, records: set[str] | None = None) -> list[tuple[str, str, int]]:
    return [(f.code, f.file, f.line) for f in check(root, records or set(), {"PL", "SR"})]


def test_reader_skips_torn_and_broken_lines(tmp_path: Path) -> None:
    skip = entry("a", action="skip", reason="x")
    put(tmp_path, ledger.CLASSIFICATIONS, [skip, "{broken", '{"id": "half'], end="")
    assert [e["id"] for e in ledger.entries(tmp_path / ledger.CLASSIFICATIONS)] == ["a"]
    assert codes(tmp_path) == [("ORK050", CL, 2), ("ORK051", CL, 3)]


def test_torn_last_line_that_is_valid_json_is_not_an_entry(tmp_path: Path) -> None:
    # a write cut off right after a closing brace still parses: it is torn all the same
    skip = entry("a", action="skip", reason="x")
    put(tmp_path, ledger.CLASSIFICATIONS, [skip, entry("b", sha=SHA2)], end="")
    assert [e["id"] for e in ledger.entries(tmp_path / ledger.CLASSIFICATIONS)] == ["a"]
    lines = ledger.read_lines(tmp_path / ledger.CLASSIFICATIONS)
    assert [(line.number, line.torn) for line in lines] == [(1, False), (2, True)]
    assert codes(tmp_path) == [("ORK051", CL, 2)]


def test_append_after_torn_line_keeps_lines_whole(tmp_path: Path) -> None:
    put(tmp_path, ledger.CLASSIFICATIONS, ['{"id": "torn'], end="")
    ledger.append(tmp_path, [entry("b", action="skip", reason="x")], [])
    lines = ledger.read_lines(tmp_path / ledger.CLASSIFICATIONS)
    assert [line.data["id"] for line in lines if line.data] == ["b"]
    assert codes(tmp_path) == [("ORK050", CL, 1)]


def test_line_format_duplicates_conflicts_and_references(tmp_path: Path) -> None:
    put(
        tmp_path,
        ledger.CLASSIFICATIONS,
        [
            entry("a"),
            entry("b", category="fixed"),  # conflicts with a
            entry("c", SHA2, category="bogus"),  # bad category
            entry("a", SHA3),  # duplicate id
            entry("d", SHA2, domain="decisions", action="extract", decision_id="DEC-PL-009"),
            entry("e", SHA2, supersedes="zzz", action="skip", reason="x"),
            entry("f", "nothex"),
            entry("g", SHA3, domain="decisions", action="extract", decision_id="DEC-QQ-001"),
        ],
    )
    put(
        tmp_path,
        ledger.RELEASE_NOTES,
        [
            {
                "id": "n1",
                "ts": "t",
                "sha": SHA,
                "package": "p",
                "category": "added",
                "summary": "s",
                "classification": "missing",
            },
            note("na", SHA, "a", package="p"),
            note("nb", SHA, "b", package="q"),
        ],
    )
    assert codes(tmp_path) == [
        ("ORK052", CL, 2),
        ("ORK050", CL, 3),
        ("ORK054", CL, 4),
        ("ORK053", CL, 5),
        ("ORK055", CL, 6),
        ("ORK050", CL, 7),
        ("ORK029", CL, 8),
        ("ORK057", RN, 1),
    ]
    assert ("ORK053", CL, 5) not in codes(tmp_path, {"DEC-PL-009"})


def test_supersedes_resolves_a_conflict_and_same_twice_is_not_fine(tmp_path: Path) -> None:
    put(
        tmp_path,
        ledger.CLASSIFICATIONS,
        [
            entry("a"),
            entry("b", category="fixed", supersedes="a"),
            entry("c", SHA2, action="skip", reason="x"),
            entry("d", SHA2, action="skip", reason="x"),
        ],
    )
    put(tmp_path, ledger.RELEASE_NOTES, [note("nb", SHA, "b")])
    # two current entries for one sha/domain are an error even when they agree (§6.6)
    assert codes(tmp_path) == [("ORK052", CL, 4)]
    with (tmp_path / ledger.CLASSIFICATIONS).open("a", encoding="utf-8") as handle:
        resolved = entry("e", SHA2, action="skip", reason="x", supersedes=["c", "d"])  # type: ignore[arg-type]
        handle.write(json.dumps(resolved) + "\n")
    assert codes(tmp_path) == []


def test_two_processes_append_500_each(tmp_path: Path) -> None:
    script = (
        "import sys\nfrom pathlib import Path\nfrom orkestra.registry import ledger\n"
        "root, tag = Path(sys.argv[1]), sys.argv[2]\n"
        "for i in range(500):\n"
        "    sha = format(i, '040x')\n"
        "    ledger.append(root, [{'id': f'{tag}-{i}', 'ts': 't', 'sha': sha, "
        "'domain': 'changelog' if tag == 'a' else 'decisions', 'action': 'skip', "
        "'reason': 'x' * 300}], [])\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path), tag]) for tag in "ab"]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    lines = ledger.read_lines(tmp_path / ledger.CLASSIFICATIONS)
    assert len(lines) == 1000 and all(line.data for line in lines)
    assert codes(tmp_path) == []


def test_union_merge_of_two_branches_then_validate(repo: GitRepo, cli: Any) -> None:
    (repo.path / ".gitattributes").write_text(
        f"{CL} merge=union\n{RN} merge=union\n", encoding="utf-8"
    )
    target = repo.commit(
        "feat(core): contested",
        {"packages/core/x.py": "x\n", ".gitattributes": (repo.path / ".gitattributes").read_text()},
    )
    sync(repo.path)
    run = cli
    repo.git("checkout", "-q", "-b", "left")
    assert run("mine", "classify", target, "--changelog", "added", cwd=repo.path).exit_code == 0
    repo.commit(
        "chore: classify on left",
        {CL: (repo.path / CL).read_text(), RN: (repo.path / RN).read_text()},
    )
    repo.git("checkout", "-q", "main")
    assert run("mine", "classify", target, "--changelog", "fixed", cwd=repo.path).exit_code == 0
    repo.commit(
        "chore: classify on main",
        {CL: (repo.path / CL).read_text(), RN: (repo.path / RN).read_text()},
    )
    repo.tick += 1
    repo.git("merge", "-q", "-m", "Merge branch 'left'", "left")  # no conflict: union
    assert len(ledger.entries(repo.path / ledger.CLASSIFICATIONS)) == 2
    result = run("mine", "validate", cwd=repo.path)
    assert result.exit_code == 1
    found = result.json()["findings"]
    assert [f["code"] for f in found] == ["ORK052", "ORK058"]  # and two notes for one commit
    assert found[0]["file"] == CL and "classified twice in changelog" in found[0]["message"]
    text = run("mine", "validate", "--quick", "--format", "text", cwd=repo.path)
    assert f"{CL}:" in text.stdout and "error ORK052" in text.stdout
    # classifying again resolves the conflict, whether it says something new or repeats a side
    assert run("mine", "classify", target, "--skip", "noise", cwd=repo.path).exit_code == 0
    assert run("mine", "validate", "--quick", cwd=repo.path).exit_code == 0
    assert run("mine", "classify", target, "--changelog", "fixed", cwd=repo.path).exit_code == 0
    assert run("mine", "validate", "--quick", cwd=repo.path).exit_code == 0
    current = ledger.by_sha(ledger.entries(repo.path / ledger.CLASSIFICATIONS), "changelog")
    assert {e["category"] for e in current[target]} == {"fixed"}


def test_validate_with_git_finds_unknown_sha(repo: GitRepo, cli: Any) -> None:
    put(repo.path, ledger.CLASSIFICATIONS, [entry("a", action="skip", reason="x")])
    run = cli
    quick = run("mine", "validate", "--quick", cwd=repo.path)
    assert quick.exit_code == 0
    full = run("mine", "validate", cwd=repo.path)
    assert full.exit_code == 1
    assert [(f["code"], f["line"]) for f in full.json()["findings"]] == [("ORK056", 1)]
