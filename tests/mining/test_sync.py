"""`mine sync` on real repositories: full, incremental, rewritten, shallow, empty, scrubbed env."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import InputError
from orkestra.mining import index
from orkestra.mining.sync import sync
from tests.mining.gitrepo import GitRepo, git_env


def records(root: Path) -> dict[str, dict[str, object]]:
    return {r["sha"]: r for r in index.records(root)}


def test_full_sync_records_every_signal(repo: GitRepo) -> None:
    sha = repo.commit(
        "feat(search)!: rank by weight\n\nLonger body.\n\nRefs: #7",
        {"packages/core/search/rank.py": "x\n", "docs/search.md": "y\n"},
    )
    result = sync(repo.path)
    assert result["sync"] == "full" and result["commits"] == 2 and result["head"] == sha
    rec = records(repo.path)[sha]
    assert rec["parents"] == [repo.git("rev-parse", "HEAD~1").strip()]
    assert (rec["author"], rec["email"]) == ("Ada Tester", "ada@example.com")
    assert rec["date"] == "2026-01-01T02:00:00+00:00"
    assert rec["subject"] == "feat(search)!: rank by weight"
    assert rec["body"] == "Longer body.\n\nRefs: #7"
    assert rec["files"] == ["docs/search.md", "packages/core/search/rank.py"]
    assert rec["merge"] is False
    assert rec["signals"] == {
        "commit_type": "feat",
        "scope": "search",
        "breaking": True,
        "is_releasable_type": True,
        "domains_affected": ["docs", "search"],
        "packages": ["core"],
        "description": "rank by weight",
        "reverts": None,
    }


def test_noop_and_incremental(repo: GitRepo) -> None:
    sync(repo.path)
    assert sync(repo.path)["sync"] == "noop"
    first = repo.commit("fix(cli): a", {"packages/cli/a.py": "1\n"})
    second = repo.commit("fix(cli): b", {"packages/cli/b.py": "1\n"})
    result = sync(repo.path)
    assert (result["sync"], result["new"], result["commits"]) == ("incremental", 2, 3)
    assert index.shas(repo.path)[-2:] == [first, second]  # newest at the end


def test_merge_commit_is_flagged(repo: GitRepo) -> None:
    repo.git("checkout", "-q", "-b", "topic")
    repo.commit("feat(core): on topic", {"packages/core/t.py": "t\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("fix(cli): on main", {"packages/cli/m.py": "m\n"})
    repo.tick += 1
    repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'topic'", "topic")
    sync(repo.path)
    merge = records(repo.path)[repo.head()]
    assert merge["merge"] is True and len(merge["parents"]) == 2  # type: ignore[arg-type]
    assert merge["signals"]["commit_type"] is None  # type: ignore[index]


def test_force_push_rewrite_is_repaired(repo: GitRepo) -> None:
    keep = repo.commit("feat(core): keep", {"packages/core/k.py": "k\n"})
    gone = repo.commit("feat(core): will be rewritten", {"packages/core/g.py": "g\n"})
    sync(repo.path)
    repo.git("reset", "-q", "--hard", keep)
    new = repo.commit("feat(core): rewritten", {"packages/core/g.py": "g2\n"})
    result = sync(repo.path)
    assert (result["sync"], result["new"], result["removed"]) == ("rewritten", 1, 1)
    shas = index.shas(repo.path)
    assert gone not in shas and new in shas and keep in shas and len(shas) == 3
    assert sync(repo.path)["sync"] == "noop"


def test_amend_of_head_is_repaired(repo: GitRepo) -> None:
    repo.commit("fix: typo", {"a.txt": "a\n"})
    sync(repo.path)
    repo.tick += 1
    repo.git("commit", "-q", "--amend", "-m", "fix: the typo")
    result = sync(repo.path)
    assert result["sync"] == "rewritten"
    assert records(repo.path)[repo.head()]["subject"] == "fix: the typo"


def test_config_change_recomputes_signals(repo: GitRepo) -> None:
    sha = repo.commit("feat: x", {"tools/x.py": "x\n"})
    sync(repo.path)
    assert records(repo.path)[sha]["signals"]["packages"] == []  # type: ignore[index]
    cfg = repo.path / "registries" / "orkestra.yaml"
    text = cfg.read_text().replace(
        "  domains_by_path:", '    tools: "tools/**"\n  domains_by_path:'
    )
    cfg.write_text(text)
    assert sync(repo.path)["sync"] == "config"
    assert records(repo.path)[sha]["signals"]["packages"] == ["tools"]  # type: ignore[index]


def test_deleted_or_damaged_index_is_rebuilt(repo: GitRepo) -> None:
    sync(repo.path)
    with (index.folder(repo.path) / "commits.idx").open("a") as handle:
        handle.write("garbage\n")
    assert sync(repo.path)["sync"] == "full"
    index.remove(repo.path)
    assert sync(repo.path)["commits"] == 1


def test_empty_repository_has_a_clear_message(tmp_path: Path) -> None:
    GitRepo(tmp_path)
    (tmp_path / "registries").mkdir()
    with pytest.raises(InputError, match="no commits yet"):
        sync(tmp_path)
    assert index.read_header(tmp_path) is None and not index.shas(tmp_path)


def test_an_orphan_branch_is_named_not_the_repository(repo: GitRepo, cli: Any) -> None:
    """`git checkout --orphan gh-pages` in a repository with history: the message said the
    repository had no commits yet."""
    repo.commit("feat(core): a widget")
    repo.git("checkout", "-q", "--orphan", "gh-pages")
    with pytest.raises(InputError, match="the current branch 'gh-pages' has no commits yet"):
        sync(repo.path)
    out = cli("mine", "sync", cwd=repo.path)
    assert out.exit_code == 1 and "switch to one (`git switch main`)" in out.stderr


def test_not_a_repository(tmp_path: Path) -> None:
    (tmp_path / "registries").mkdir()
    with pytest.raises(InputError, match="not a git repository"):
        sync(tmp_path)


def test_shallow_clone_says_what_it_cannot_see(repo: GitRepo, tmp_path: Path) -> None:
    for n in range(3):
        repo.commit(f"feat: {n}")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.path}", str(clone)],
        env=git_env(),
        check=True,
    )
    result = sync(clone)
    assert result["shallow"] is True and result["commits"] == 2
    assert "shallow clone" in result["warnings"][0] and "--unshallow" in result["warnings"][0]
    assert sync(clone)["sync"] == "noop"
    subprocess.run(["git", "fetch", "-q", "--deepen", "1"], cwd=clone, env=git_env(), check=True)
    deeper = sync(clone)
    assert (deeper["sync"], deeper["commits"]) == ("full", 3)


def test_inherited_git_variables_are_ignored(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = GitRepo(tmp_path / "other")
    other.commit("chore: other repository")
    other.commit("chore: second")
    monkeypatch.setenv("GIT_DIR", str(other.path / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other.path))
    result = sync(repo.path)
    assert result["commits"] == 1 and result["head"] == repo.head()


def test_noop_sync_through_the_cli(repo: GitRepo, cli: Any, tmp_path: Path) -> None:
    root = str(repo.path)
    first = cli("--root", root, "mine", "sync", cwd=tmp_path)
    assert (first.exit_code, first.json()["sync"]) == (0, "full")
    again = cli("--root", root, "mine", "sync", cwd=tmp_path)
    assert again.exit_code == 0 and again.stderr == ""
    assert again.json() == {
        "head": repo.head(),
        "commits": 1,
        "new": 0,
        "removed": 0,
        "sync": "noop",
        "shallow": False,
        "warnings": [],
        "index": ".orkestra/mining",
        "carried": 0,
    }
    table = cli("--root", root, "mine", "sync", "--format", "table", cwd=tmp_path)
    assert table.exit_code == 0 and "noop" in table.stdout
    repo.commit("fix: new")
    after = cli("mine", "sync", cwd=repo.path).json()
    assert (after["sync"], after["new"], after["commits"]) == ("incremental", 1, 2)


def test_candidates_options_through_the_cli(repo: GitRepo, cli: Any) -> None:
    repo.commit("feat(core): a", {"packages/core/a.py": "a\n"})
    repo.commit("fix(core): b", {"packages/core/b.py": "b\n"})
    found = cli("mine", "candidates", "--full", "-n", "2", cwd=repo.path)
    assert found.exit_code == 0, found.stderr
    assert [c["subject"] for c in found.json()["candidates"]] == ["fix(core): b", "feat(core): a"]
    assert cli("mine", "candidates", "-n", "1", cwd=repo.path).json()["candidates"][0][
        "subject"
    ] == ("fix(core): b")
    for bad, message in (
        (["--limit", "0"], "Input should be greater than or equal to 1"),
        # the one message of every list filter (docs/cli.md "Filters"), naming the choices
        (["--domain", "x"], "unknown --domain 'x': --domain must be one of changelog, decisions"),
        (["--bogus"], "No such option: --bogus"),
        (["-n=5"], "Input should be a valid integer"),
    ):
        r = cli("mine", "candidates", *bad, cwd=repo.path)
        assert (r.exit_code, r.stdout) == (2, ""), bad
        assert message in r.stderr, (bad, r.stderr)


def test_project_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path)
    app = tmp_path / "app"
    (app / "registries").mkdir(parents=True)
    (app / "registries" / "orkestra.yaml").write_text(
        'project: app\nmining:\n  packages:\n    core: "packages/core/**"\n'
    )
    sha = repo.commit("feat: x", {"app/packages/core/x.py": "x\n", "other/y.py": "y\n"})
    sync(app)
    rec = {r["sha"]: r for r in index.records(app)}[sha]
    assert rec["files"] == ["packages/core/x.py"]  # relative to the project, outside left out
    assert rec["signals"]["packages"] == ["core"]


def test_bad_mining_config_names_file_and_line(repo: GitRepo, cli: Any) -> None:
    cfg = repo.path / "registries" / "orkestra.yaml"
    cfg.write_text("project: demo\nmining:\n  releasable_types: nope\n  colour: red\n")
    result = cli("mine", "sync", cwd=repo.path)
    assert result.exit_code == 1
    assert "registries/orkestra.yaml:3:" in result.stderr and "releasable_types" in result.stderr
    assert index.read_header(repo.path) is None


def test_record_separator_inside_a_message(repo: GitRepo) -> None:
    sha = repo.commit("fix: odd \x1e subject", {"a.txt": "a\n"})
    repo.commit("feat: next", {"b.txt": "b\n"})
    sync(repo.path)
    assert records(repo.path)[sha]["subject"] == "fix: odd \x1e subject"
    assert len(index.shas(repo.path)) == 3


def test_git_started_before_the_config_is_read(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without an index, git walks the history while the configuration loads: a commit made
    meanwhile is left for the next sync, and a stream another sync made useless is dropped."""
    from orkestra.mining import sync as sync_module

    old_head = repo.git("rev-parse", "HEAD").strip()
    real = sync_module.load_config
    calls: list[str] = []

    def commit_meanwhile(root: Path) -> Any:
        calls.append("config")
        repo.commit("feat: during the config", {"late.txt": "x\n"})
        return real(root)

    monkeypatch.setattr(sync_module, "load_config", commit_meanwhile)
    result = sync(repo.path)
    assert calls and (result["sync"], result["head"], result["commits"]) == ("full", old_head, 1)
    monkeypatch.setattr(sync_module, "load_config", real)
    assert sync(repo.path)["sync"] == "incremental"

    index.remove(repo.path)

    def another_sync_first(root: Path) -> Any:
        config = real(root)
        sync(root, config)  # finishes a full sync while the outer one waits for its config
        return config

    monkeypatch.setattr(sync_module, "load_config", another_sync_first)
    assert sync(repo.path)["sync"] == "noop"
    assert len(index.shas(repo.path)) == 2


def test_an_index_file_linked_out_of_the_project_is_never_appended_to(
    repo: GitRepo, cli: Any, tmp_path: Path
) -> None:
    """`.orkestra/mining/commits.idx` replaced by a symlink to a copy elsewhere (same size, so
    the header still matched): the incremental sync appended the new commit through the link,
    writing outside the project. The link is refused, naming it; what it reaches is untouched."""
    sync(repo.path)
    idx = repo.path / ".orkestra/mining/commits.idx"
    outside = tmp_path / "elsewhere.idx"
    outside.write_bytes(idx.read_bytes())
    idx.unlink()
    idx.symlink_to(outside)
    before = outside.read_bytes()
    repo.commit("fix(cli): a", {"packages/cli/a.py": "1\n"})
    result = cli("mine", "sync", cwd=repo.path)
    assert result.exit_code == 1, result.stdout
    assert ".orkestra/mining/commits.idx" in result.stderr and "symlink" in result.stderr
    assert outside.read_bytes() == before and idx.is_symlink()
    for command in (("mine", "status"), ("mine", "candidates")):  # nor read through it
        done = cli(*command, cwd=repo.path)
        assert done.exit_code == 1 and "symlink" in done.stderr, done.stderr
