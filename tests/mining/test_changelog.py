"""`changelog render`: Keep a Changelog from the ledger and the tags, checked against golden files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import safewrite
from orkestra.core.errors import ChangedOnDisk, NotFound, UnsafePathError, UsageError
from orkestra.mining import classify
from orkestra.mining.changelog import HEADER, parse_packages, render_all
from orkestra.mining.changelog_file import sealed
from orkestra.mining.sync import load_config, sync
from tests.mining.gitrepo import GitRepo

GOLDEN = Path(__file__).parent / "golden"


def release(repo: GitRepo, sha: str, category: str, summary: str | None = None) -> None:
    sync(repo.path)
    request = classify.Request(sha, "changelog", "release", category, summary)
    classify.classify(repo.path, [request], load_config(repo.path))


def render(repo: GitRepo, *names: str, check: bool = False) -> list[dict[str, object]]:
    return render_all(repo.path, load_config(repo.path), list(names) or None, check=check)


def assert_golden(path: Path, name: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_bytes(path.read_bytes())
    assert path.read_bytes() == golden.read_bytes(), f"{path} differs from {golden}"


@pytest.fixture
def plain(repo: GitRepo) -> GitRepo:
    """Plain tags v1.0.0 and v1.1.0; a revert inside v1.1.0; unreleased work after."""
    c1 = repo.commit("feat(core): add ranking", {"packages/core/rank.py": "r\n"})
    release(repo, c1, "added")
    c2 = repo.commit("fix(cli): parse --flag=value", {"packages/cli/args.py": "a\n"})
    release(repo, c2, "fixed")
    repo.tag("v1.0.0", message="first release")
    c3 = repo.commit("feat(core)!: new query API", {"packages/core/query.py": "q\n"})
    release(repo, c3, "changed", "Replace the query API")
    c4 = repo.commit("feat(core): experimental cache", {"packages/core/cache.py": "c\n"})
    release(repo, c4, "added")
    repo.tick += 1
    repo.git("revert", "--no-edit", c4)
    release(repo, repo.head(), "removed", "Remove the cache again")
    c6 = repo.commit("fix(core): escape user input", {"packages/core/esc.py": "e\n"})
    release(repo, c6, "security")
    repo.tag("v1.1.0")
    c7 = repo.commit("feat(core): facets", {"packages/core/facets.py": "f\n"})
    release(repo, c7, "added")
    repo.commit("docs: readme", {"README.md": "hi\n"})
    return repo


def test_plain_tags_golden(plain: GitRepo) -> None:
    results = render(plain)
    assert [(r["package"], r["written"], r["releases"]) for r in results] == [
        ("cli", True, 1),
        ("core", True, 2),
    ]
    assert results[1]["cancelled"] == 2  # the revert and the commit it reverts
    assert_golden(plain.path / "packages/core/CHANGELOG.md", "plain_core.md")
    assert_golden(plain.path / "packages/cli/CHANGELOG.md", "plain_cli.md")


def test_render_is_reproducible(plain: GitRepo) -> None:
    render(plain)
    path = plain.path / "packages/core/CHANGELOG.md"
    first = path.read_bytes()
    assert [r["written"] for r in render(plain)] == [False, False]
    path.unlink()
    render(plain, "core")
    assert path.read_bytes() == first
    assert render(plain, "core", check=True)[0]["changed"] is False
    path.write_text("edited\n")
    assert render(plain, "core", check=True)[0]["changed"] is True
    assert path.read_text() == "edited\n"  # --check writes nothing


def test_revert_in_a_later_release_is_kept(repo: GitRepo) -> None:
    c1 = repo.commit("feat(core): widget", {"packages/core/w.py": "w\n"})
    release(repo, c1, "added")
    repo.tag("v0.1.0")
    repo.tick += 1
    repo.git("revert", "--no-edit", c1)
    release(repo, repo.head(), "removed", "Remove the widget")
    render(repo, "core")
    text = (repo.path / "packages/core/CHANGELOG.md").read_text()
    assert "### Removed\n\n- Remove the widget" in text and "- Widget" in text


def test_package_tags_golden(repo: GitRepo) -> None:
    a = repo.commit("feat(core): a", {"packages/core/a.py": "a\n"})
    release(repo, a, "added")
    b = repo.commit("feat(cli): b", {"packages/cli/b.py": "b\n"})
    release(repo, b, "added")
    for tag in ("core@1.0.0", "cli@2.0.0", "v9.9.9"):  # several tags on one commit
        repo.tag(tag)
    c = repo.commit("fix(cli): c", {"packages/cli/c.py": "c\n"})
    release(repo, c, "fixed")
    repo.tag("cli-v2.0.1")
    d = repo.commit("fix(core): d", {"packages/core/d.py": "d\n"})
    release(repo, d, "fixed")
    render(repo)
    assert_golden(repo.path / "packages/core/CHANGELOG.md", "scoped_core.md")
    assert_golden(repo.path / "packages/cli/CHANGELOG.md", "scoped_cli.md")


def test_pre_release_sorts_before_release(repo: GitRepo) -> None:
    a = repo.commit("feat(core): a", {"packages/core/a.py": "a\n"})
    release(repo, a, "added")
    repo.tag("v2.0.0-rc.1")
    b = repo.commit("feat(core): b", {"packages/core/b.py": "b\n"})
    release(repo, b, "added")
    repo.tag("v2.0.0")
    render(repo, "core")
    text = (repo.path / "packages/core/CHANGELOG.md").read_text()
    assert text.index("## [2.0.0] -") < text.index("## [2.0.0-rc.1] -")
    assert text.index("- B (") < text.index("## [2.0.0-rc.1]") < text.index("- A (")


def test_project_without_packages_writes_root_changelog(tmp_path: Path) -> None:
    (tmp_path / "registries").mkdir()
    (tmp_path / "registries" / "orkestra.yaml").write_text("project: solo\n")
    repo = GitRepo(tmp_path)
    sha = repo.commit("feat: first", {"main.py": "m\n"})
    release(repo, sha, "added")
    (result,) = render(repo)
    assert (result["package"], result["path"]) == ("solo", "CHANGELOG.md")
    assert "- First (" in (tmp_path / "CHANGELOG.md").read_text()


def test_errors(plain: GitRepo) -> None:
    with pytest.raises(NotFound, match="unknown package 'web'"):
        render(plain, "web")
    with pytest.raises(UsageError, match="--package NAME or --all"):
        parse_packages(None, False)
    with pytest.raises(UsageError):
        parse_packages("core", True)
    assert not (plain.path / "packages/core/CHANGELOG.md").exists()


def test_cli_spellings(plain: GitRepo, cli: Any) -> None:
    run = cli
    result = run("changelog", "render", "--package", "core", cwd=plain.path)
    assert result.exit_code == 0 and result.json()["changelogs"][0]["written"] is True
    assert run("changelog", "render", "--all", "--check", cwd=plain.path).exit_code == 1
    bad = run("changelog", "render", cwd=plain.path)
    assert bad.exit_code == 2 and "--package NAME or --all" in bad.stderr


def test_registry_spelling(plain: GitRepo, cli: Any) -> None:
    run = cli
    result = run("registry", "changelog", "render", "--package", "core", cwd=plain.path)
    assert result.exit_code == 0 and result.json()["changelogs"][0]["written"] is True


@pytest.mark.parametrize("check", [False, True], ids=["write", "check"])
def test_a_symlinked_package_folder_leaving_the_project_is_refused(
    plain: GitRepo, tmp_path_factory: pytest.TempPathFactory, check: bool
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "CHANGELOG.md").write_text("not yours\n")
    folder = plain.path / "packages/core"
    for child in folder.iterdir():
        child.rename(outside / child.name)
    folder.rmdir()
    folder.symlink_to(outside, target_is_directory=True)
    before = sorted(p.name for p in outside.iterdir())
    with pytest.raises(UnsafePathError) as info:
        render(plain, "core", check=check)
    assert info.value.file == "packages/core" and "symlink" in info.value.message
    assert (outside / "CHANGELOG.md").read_text() == "not yours\n"
    assert sorted(p.name for p in outside.iterdir()) == before


def test_a_symlinked_changelog_is_refused_and_its_target_untouched(
    plain: GitRepo, tmp_path_factory: pytest.TempPathFactory
) -> None:
    target = tmp_path_factory.mktemp("outside") / "CHANGELOG.md"
    target.write_text("not yours\n")
    (plain.path / "packages/core/CHANGELOG.md").symlink_to(target)
    with pytest.raises(UnsafePathError) as info:
        render(plain, "core")
    assert info.value.file == "packages/core/CHANGELOG.md"
    assert target.read_text() == "not yours\n"
    assert (plain.path / "packages/core/CHANGELOG.md").is_symlink()


def test_a_changelog_changed_while_rendering_is_not_overwritten(
    plain: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = plain.path / "packages/core/CHANGELOG.md"
    render(plain, "core")
    header = HEADER.format(package="core")
    path.write_text(sealed(header, "\n## [Unreleased]\n"))  # still Orkestra's, out of date
    real = safewrite.Batch.file  # the changelogs are written as one batch

    def meanwhile(batch: safewrite.Batch, rel: Any, *args: Any, **kwargs: Any) -> Any:
        if str(rel).endswith("CHANGELOG.md"):  # another process, between our read and write
            path.write_text("edited meanwhile\n")
        return real(batch, rel, *args, **kwargs)

    monkeypatch.setattr(safewrite.Batch, "file", meanwhile)
    with pytest.raises(ChangedOnDisk):
        render(plain, "core")
    assert path.read_text() == "edited meanwhile\n"
