"""A rebased, amended or cherry-picked commit (a new sha, the same change) keeps the
classification the user gave the commit it replaced: `mine sync` matches them by patch id
(`git patch-id --stable`) and carries the classification, its summary and its release notes
over in the ledger, superseding the old lines. It was listed as a candidate again, its entry
vanished from the changelog and `mine validate` reported the old line (ORK056)."""

from __future__ import annotations

import json
from typing import Any

from orkestra.mining.moved import carry
from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"
LEDGER = "registries/changelog/commits_processed.jsonl"


def _ok(result: Any) -> Any:
    assert result.exit_code == 0, result.stderr
    return result


def _candidates(repo: GitRepo, cli: Any) -> list[str]:
    out = _ok(
        cli("mine", "candidates", "--limit", "100", "--domain", "changelog", cwd=repo.path)
    ).json()
    return [c["sha"] for c in out["candidates"]]


def test_an_amended_commit_keeps_its_classification(repo: GitRepo, cli: Any) -> None:
    old = repo.commit("feat(core): add the widget cache", {"packages/core/cache.py": "c\n"})
    _ok(
        cli(
            "mine",
            "classify",
            old,
            "--changelog",
            "added",
            "--summary",
            "Widget cache",
            cwd=repo.path,
        )
    )
    _ok(cli("mine", "classify", old, "--decision", "DEC-PL-001", cwd=repo.path))
    repo.tick += 1
    repo.git("commit", "-q", "--amend", "-m", "feat(core): add a cache for widgets")
    new = repo.head()

    synced = _ok(cli("mine", "sync", cwd=repo.path)).json()
    assert synced["carried"] == 2
    assert new not in _candidates(repo, cli)
    _ok(cli("changelog", "render", "--package", "core", cwd=repo.path))
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert f"- Widget cache ({new[:7]})" in text
    report = cli("mine", "validate", cwd=repo.path)
    assert report.exit_code == 0, report.stdout + report.stderr
    lines = [json.loads(x) for x in (repo.path / LEDGER).read_text(encoding="utf-8").splitlines()]
    decision = [e for e in lines if e["sha"] == new and e["domain"] == "decisions"]
    assert [e["decision_id"] for e in decision] == ["DEC-PL-001"]
    # a second sync carries nothing again
    assert _ok(cli("mine", "sync", cwd=repo.path)).json().get("carried", 0) == 0
    assert carry(repo.path, None) == 0


def test_a_rebased_branch_keeps_its_classifications(repo: GitRepo, cli: Any) -> None:
    base = repo.head()
    repo.git("switch", "-q", "-c", "topic")
    shas = [
        repo.commit("fix(core): handle empty input", {"packages/core/a.py": "a\n"}),
        repo.commit("chore: tidy", {"docs/x.md": "x\n"}),
    ]
    _ok(cli("mine", "classify", shas[0], "--changelog", "fixed", cwd=repo.path))
    _ok(cli("mine", "classify", shas[1], "--skip", "housekeeping", cwd=repo.path))
    repo.git("switch", "-q", "main")
    repo.commit("feat(cli): a flag", {"packages/cli/f.py": "f\n"})
    repo.git("switch", "-q", "topic")
    repo.tick += 1
    repo.git("rebase", "-q", "main")
    assert repo.git("merge-base", "HEAD", base).strip() == base
    rebased = repo.git("rev-list", "-n", "2", "HEAD").split()

    # the fix's release and the chore's skip (a skip covers both domains)
    assert _ok(cli("mine", "sync", cwd=repo.path)).json()["carried"] == 3
    left = _candidates(repo, cli)
    assert not set(rebased) & set(left)
    _ok(cli("changelog", "render", "--package", "core", cwd=repo.path))
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert f"- Handle empty input ({rebased[1][:7]})" in text


def test_a_changed_diff_is_not_carried(repo: GitRepo, cli: Any) -> None:
    old = repo.commit("feat(core): add x", {"packages/core/x.py": "x\n"})
    _ok(cli("mine", "classify", old, "--changelog", "added", cwd=repo.path))
    (repo.path / "packages/core/x.py").write_text("x = 2\n", encoding="utf-8")
    repo.git("add", ".")
    repo.git("commit", "-q", "--amend", "--no-edit")
    new = repo.head()
    assert _ok(cli("mine", "sync", cwd=repo.path)).json().get("carried", 0) == 0
    assert new in _candidates(repo, cli)


def test_gone_objects_carry_nothing_and_fail_nothing(repo: GitRepo, cli: Any) -> None:
    """A clone that never held the old commit (or after `git gc`) cannot tell: the commit stays
    a candidate and `mine validate` still names the old line."""
    old = repo.commit("feat(core): add x", {"packages/core/x.py": "x\n"})
    _ok(cli("mine", "classify", old, "--changelog", "added", cwd=repo.path))
    repo.git("commit", "-q", "--amend", "-m", "feat(core): add the x")
    repo.git("reflog", "expire", "--expire=now", "--all")
    repo.git("gc", "-q", "--prune=now")
    assert _ok(cli("mine", "sync", cwd=repo.path)).json()["carried"] == 0
    assert repo.head() in _candidates(repo, cli)
    assert cli("mine", "validate", cwd=repo.path).exit_code == 1


def test_a_symlinked_ledger_is_read_as_the_other_ledger_readers_read_it(
    repo: GitRepo, cli: Any, tmp_path: Any
) -> None:
    """The quick scan for rewritten commits follows the ledger's link as `ledger.entries` does:
    `mine sync` (which writes nothing here) read it, not "Too many levels of symbolic links"."""
    old = repo.commit("feat(core): add the widget cache", {"packages/core/cache.py": "c\n"})
    _ok(cli("mine", "classify", old, "--changelog", "added", cwd=repo.path))
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes((repo.path / LEDGER).read_bytes())
    (repo.path / LEDGER).unlink()
    (repo.path / LEDGER).symlink_to(kept)
    synced = _ok(cli("mine", "sync", cwd=repo.path)).json()
    assert synced.get("carried", 0) == 0
    assert old not in _candidates(repo, cli)


def test_a_cherry_pick_keeps_the_classification_of_the_commit_still_on_its_branch(
    repo: GitRepo, cli: Any
) -> None:
    """A backport (a cherry-pick to a release branch) leaves the original on its branch: the
    copy gets the classification, the original keeps its own. It was superseded, so back on
    main the original was carried again from the copy, and every switch and sync wrote a line."""
    repo.git("branch", "release-1.x")
    (repo.path / ".gitignore").write_text(".orkestra/\nregistries/changelog/\n", encoding="utf-8")
    old = repo.commit("fix(core): handle empty input", {"packages/core/a.py": "a\n"})
    _ok(cli("mine", "classify", old, "--changelog", "fixed", "--summary", "Empty", cwd=repo.path))
    repo.git("switch", "-q", "release-1.x")
    repo.tick += 1
    repo.git("cherry-pick", old)
    picked = repo.head()
    assert _ok(cli("mine", "sync", cwd=repo.path)).json()["carried"] == 1
    assert picked not in _candidates(repo, cli)
    lines = (repo.path / LEDGER).read_text(encoding="utf-8").splitlines()
    assert [json.loads(x).get("supersedes") for x in lines] == [None, None]

    repo.git("switch", "-q", "main")
    assert _ok(cli("mine", "sync", cwd=repo.path)).json().get("carried", 0) == 0
    assert old not in _candidates(repo, cli)
    _ok(cli("changelog", "render", "--package", "core", cwd=repo.path))
    assert f"- Empty ({old[:7]})" in (repo.path / CORE).read_text(encoding="utf-8")
    repo.git("switch", "-q", "release-1.x")
    assert _ok(cli("mine", "sync", cwd=repo.path)).json().get("carried", 0) == 0
    assert len((repo.path / LEDGER).read_text(encoding="utf-8").splitlines()) == 2
