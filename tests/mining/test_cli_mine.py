"""`orkestra mine ...` through the real CLI (in-process, plus one installed-executable run)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from orkestra.mining import index
from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo


@pytest.fixture
def shas(repo: GitRepo) -> list[str]:
    return [
        repo.commit("feat(core): add ranking", {"packages/core/search/rank.py": "a\nb\nc\n"}),
        repo.commit(
            "fix(cli)!: rename flag\n\nBREAKING CHANGE: --x is now --y",
            {"packages/cli/args.py": "x\n"},
        ),
        repo.commit("Update dependencies", {"docs/deps.md": "d\n"}),
    ]


def test_sync_status_candidates(repo: GitRepo, shas: list[str], cli: Any) -> None:
    synced = cli("mine", "sync", cwd=repo.path)
    assert synced.exit_code == 0 and synced.json()["commits"] == 4
    assert cli("mine", "sync", cwd=repo.path).json()["sync"] == "noop"
    status = cli("mine", "status", cwd=repo.path).json()
    assert status["changelog"] == {
        "coverage": 0.0,
        "processed": 0,
        "total": 4,
        "released": 0,
        "skipped": 0,
    }
    found = cli("mine", "candidates", "--limit", "2", cwd=repo.path).json()["candidates"]
    assert [c["sha"] for c in found] == [shas[2], shas[1]]
    first = found[1]
    assert list(first) == [
        "sha",
        "date",
        "subject",
        "signals",
        "files_changed",
        "stats",
        "unclassified",
    ]
    assert first["signals"] == {
        "commit_type": "fix",
        "scope": "cli",
        "breaking": True,
        "is_releasable_type": True,
        "domains_affected": [],
        "packages": ["cli"],
        "merge": False,
    }
    assert first["stats"] == {"files": 1, "insertions": 1, "deletions": 0}
    assert "stats.json" in {p.name for p in index.folder(repo.path).iterdir()}
    full = cli("mine", "candidates", "--full", "--limit", "3", cwd=repo.path).json()["candidates"]
    assert full[2]["stats"]["insertions"] == 3
    hints = full[2]["hints"]
    assert len(hints["three_question_test"]) == 3
    assert hints["suggested_changelog"] == {"action": "release", "category": "added"}
    assert full[1]["body"] == "BREAKING CHANGE: --x is now --y"
    table = cli("mine", "status", "--format", "table", cwd=repo.path)
    assert table.exit_code == 0 and "coverage" in table.stdout


def test_classify_then_coverage(repo: GitRepo, shas: list[str], cli: Any) -> None:
    done = cli("mine", "classify", shas[0][:7], "--changelog", "added", cwd=repo.path)
    assert done.exit_code == 0 and done.json()["release_notes"] == 1
    cli("mine", "classify", shas[2], "--skip", "dependency update", cwd=repo.path)
    cli("mine", "classify", shas[0], "--decision", "DEC-SR-001", cwd=repo.path)
    status = cli("mine", "status", cwd=repo.path).json()
    assert status["changelog"] == {
        "coverage": 50.0,
        "processed": 2,
        "total": 4,
        "released": 1,
        "skipped": 1,
    }
    assert status["decisions"]["extracted"] == 1 and status["decisions"]["skipped"] == 1
    left = cli("mine", "candidates", "--domain", "changelog", cwd=repo.path).json()["candidates"]
    assert [c["sha"] for c in left] == [shas[1], repo.git("rev-parse", "HEAD~3").strip()]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--changelog", "improved"], 2, "unknown category 'improved'"),
        (["--decision", "DEC-1"], 2, "malformed decision id 'DEC-1'"),
        (["--skip", "x", "--changelog", "added"], 2, "exactly one of"),
    ],
)
def test_classify_errors(
    repo: GitRepo, shas: list[str], cli: Any, args: list[str], code: int, message: str
) -> None:
    result = cli("mine", "classify", shas[0], *args, cwd=repo.path)
    assert result.exit_code == code and message in result.stderr
    assert not (repo.path / ledger.CLASSIFICATIONS).exists()


def test_classify_unknown_sha_json_error(repo: GitRepo, shas: list[str], cli: Any) -> None:
    result = cli(
        "mine", "classify", "deadbeef", "--changelog", "added", "--format", "json", cwd=repo.path
    )
    assert result.exit_code == 1
    assert json.loads(result.stderr)["error"]["code"] == "not_found"
    assert not (repo.path / ledger.CLASSIFICATIONS).exists()


def test_commit_batch(repo: GitRepo, shas: list[str], cli: Any, tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        json.dumps(
            {
                "sha": shas[0],
                "domain": "changelog",
                "action": "release",
                "category": "added",
                "summary": "Add ranking",
            }
        )
        + "\n"
        + json.dumps({"sha": shas[1], "domain": "changelog", "action": "bogus"})
        + "\n"
    )
    bad = cli("mine", "commit", "--input", str(batch), cwd=repo.path)
    assert bad.exit_code == 1 and f"{batch}:2:" in bad.stderr
    assert not (repo.path / ledger.CLASSIFICATIONS).exists()
    line = json.dumps({"sha": shas[1], "domain": "changelog", "action": "skip", "reason": "x"})
    good = cli("mine", "commit", "--input", "-", cwd=repo.path, stdin=line + "\n")
    assert good.exit_code == 0 and good.json()["written"] == 1


def test_not_a_project(tmp_path: Path, cli: Any) -> None:
    result = cli("mine", "sync", cwd=tmp_path)
    assert result.exit_code == 1 and "no registries/ folder" in result.stderr


def test_installed_executable(repo: GitRepo, shas: list[str]) -> None:
    def run(*args: str) -> dict[str, Any]:
        out = subprocess.run(
            ["orkestra", *args], cwd=repo.path, capture_output=True, text=True, check=True
        )
        data: dict[str, Any] = json.loads(out.stdout)
        return data

    assert run("mine", "sync")["sync"] == "full"
    assert run("mine", "sync")["sync"] == "noop"


def test_coverage_for_system_status(repo: GitRepo, shas: list[str]) -> None:
    from types import SimpleNamespace

    from orkestra.mining.report import coverage
    from orkestra.mining.sync import sync

    reg = SimpleNamespace(root=repo.path)
    assert coverage(reg)["indexed"] is False
    sync(repo.path)
    result = coverage(reg)
    assert result["indexed"] is True and result["changelog"]["total"] == 4


def test_candidates_table(repo: GitRepo, shas: list[str], cli: Any) -> None:
    result = cli("mine", "candidates", "--format", "table", cwd=repo.path)
    assert result.exit_code == 0
    assert shas[1][:10] in result.stdout and "+1/-0" in result.stdout


def test_status_sees_a_same_size_ledger_copied_in_with_its_old_mtime(
    repo: GitRepo, shas: list[str], cli: Any
) -> None:
    """`cp -p`, a restore: the classifications ledger replaced in place by another text of the
    same size with the mtime the cached one had; only its ctime moved."""
    import os

    from orkestra.mining.report import status
    from orkestra.registry import ledger

    cli("mine", "sync", cwd=repo.path)
    cli("mine", "classify", shas[0], "--changelog", "added", cwd=repo.path)
    assert status(repo.path)["changelog"]["processed"] == 1  # cached now
    path = repo.path / ledger.CLASSIFICATIONS
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    other = "0" if shas[0][0] != "0" else "1"  # a commit the index does not hold
    path.write_text(text.replace(shas[0], other + shas[0][1:]), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert status(repo.path)["changelog"]["processed"] == 0


def test_a_ref_instead_of_a_sha_is_named_as_typed(repo: GitRepo, shas: list[str], cli: Any) -> None:
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    r = cli("mine", "classify", "HEAD", "--skip", "x", cwd=repo.path)
    assert (r.exit_code, r.stdout) == (2, "")
    assert "'HEAD' is not a commit sha" in r.stderr and "git rev-parse HEAD" in r.stderr


def test_a_crlf_commit_message_keeps_its_breaking_change_footer(repo: GitRepo, cli: Any) -> None:
    message = repo.path.parent / "crlf-message.txt"
    message.write_bytes(
        b"fix(core): new config format\r\n\r\nThe old one was ambiguous.\r\n\r\n"
        b"BREAKING CHANGE: config.yml must be migrated\r\n"
    )
    (repo.path / "packages" / "core").mkdir(parents=True)
    (repo.path / "packages" / "core" / "c.py").write_text("c\n", encoding="utf-8")
    repo.git("add", ".")
    repo.git("commit", "-q", "--cleanup=verbatim", "-F", str(message))
    found = cli("mine", "candidates", "--limit", "1", cwd=repo.path).json()["candidates"]
    assert found[0]["signals"]["breaking"] is True


def test_a_new_summary_reaches_the_rendered_changelog(repo: GitRepo, cli: Any) -> None:
    # the way out that `changelog render` gives for an edited file: put the text into the ledger
    sha = repo.commit("feat(core): add ranking", {"packages/core/rank.py": "r\n"})
    assert cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).exit_code == 0
    again = cli(
        "mine",
        "classify",
        sha,
        "--changelog",
        "added",
        "--summary",
        "Rank by relevance",
        cwd=repo.path,
    )
    assert again.exit_code == 0 and again.json()["written"] == 1, again.stdout
    assert cli("changelog", "render", "--package", "core", cwd=repo.path).exit_code == 0
    text = (repo.path / "packages" / "core" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"- Rank by relevance ({sha[:7]})" in text and "Add ranking" not in text
