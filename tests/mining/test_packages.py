"""`mining.packages`: a folder means folder/**, changelog paths never collide, a pattern must
match a tracked file (ORK048), and a release note touching no package goes to the root package."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.core.errors import InputError
from orkestra.core.globs import package_glob
from orkestra.mining.changelog import render_all
from orkestra.mining.sync import load_config, sync
from orkestra.registry.loader import load
from orkestra.registry.models.config import Config
from orkestra.registry.validate import validate
from tests.mining.gitrepo import GitRepo


def configure(repo: GitRepo, packages: str, project: str = "demo") -> None:
    text = f"project: {project}\nmining:\n  packages:\n{packages}"
    (repo.path / "registries" / "orkestra.yaml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("given", "means"),
    [
        ("packages/vite", "packages/vite/**"),
        ("packages/vite/", "packages/vite/**"),
        ("./packages/vite", "packages/vite/**"),
        ("packages/vite/**", "packages/vite/**"),
        ("packages/*/src/*.ts", "packages/*/src/*.ts"),
    ],
)
def test_a_folder_means_everything_inside(given: str, means: str) -> None:
    assert package_glob(given) == means


@pytest.mark.parametrize("bad", ["", "/", "/etc", "../other", "a/../../b", "a\\b"])
def test_a_pattern_leaving_the_project_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"empty|relative path"):
        package_glob(bad)


def test_folder_package_gets_its_own_changelog(repo: GitRepo) -> None:
    configure(repo, "    vite: packages/vite\n    create-vite: packages/create-vite\n")
    sha = repo.commit("feat: fast start", {"packages/vite/a.ts": "a\n"})
    other = repo.commit("fix: template", {"packages/create-vite/t.ts": "t\n"})
    config = load_config(repo.path)
    assert config.changelogs() == {
        "demo": "CHANGELOG.md",
        "vite": "packages/vite/CHANGELOG.md",
        "create-vite": "packages/create-vite/CHANGELOG.md",
    }
    from orkestra.mining import classify

    sync(repo.path, config)
    requests = [
        classify.Request(sha, "changelog", "release", "added"),
        classify.Request(other, "changelog", "release", "fixed"),
    ]
    classify.classify(repo.path, requests, config)
    results = render_all(repo.path, config)
    assert [r["path"] for r in results] == [
        "packages/create-vite/CHANGELOG.md",
        "packages/vite/CHANGELOG.md",
    ]  # no root notes yet: the root CHANGELOG.md is left alone
    vite = (repo.path / "packages/vite/CHANGELOG.md").read_text(encoding="utf-8")
    create = (repo.path / "packages/create-vite/CHANGELOG.md").read_text(encoding="utf-8")
    assert f"- Fast start ({sha[:7]})" in vite and "Template" not in vite
    assert f"- Template ({other[:7]})" in create and "Fast start" not in create
    assert not (repo.path / "packages/CHANGELOG.md").exists()


def test_colliding_changelog_paths_are_an_error_with_the_line(repo: GitRepo) -> None:
    configure(repo, '    a: "packages/*/src/**"\n    b: "packages/*/lib/**"\n')
    with pytest.raises(InputError) as caught:
        load_config(repo.path)
    error = caught.value
    assert error.file == "registries/orkestra.yaml" and error.line == 3
    assert "packages 'a' and 'b' would both write packages/CHANGELOG.md" in error.message


def test_the_root_package_is_named_apart_from_a_package_named_like_the_project() -> None:
    config = Config.model_validate(
        {"project": "vite", "mining": {"packages": {"vite": "packages/vite"}}}
    )
    assert config.root_package == "vite-root"
    assert config.changelogs()["vite-root"] == "CHANGELOG.md"
    at_top = Config.model_validate({"project": "x", "mining": {"packages": {"all": "**/*.py"}}})
    assert at_top.root_package == "all" and at_top.changelogs() == {"all": "CHANGELOG.md"}


def test_a_pattern_matching_no_tracked_file_is_ork048_at_its_line(repo: GitRepo) -> None:
    repo.commit("feat: vite", {"packages/vite/a.ts": "a\n"})
    configure(repo, "    vite: packages/vite\n    typo: packages/vtie\n")
    found = [f for f in validate(load(repo.path)).findings if f.code == "ORK048"]
    assert [(f.file, f.line, f.severity) for f in found] == [
        ("registries/orkestra.yaml", 5, "error")
    ]
    assert "'typo'" in found[0].message and "packages/vtie/**" in found[0].message
    configure(repo, "    vite: packages/vite\n")
    assert not [f for f in validate(load(repo.path)).findings if f.code == "ORK048"]


def test_root_notes_render_into_the_project_changelog(repo: GitRepo, tmp_path: Path) -> None:
    from orkestra.mining import classify

    configure(repo, "    vite: packages/vite\n", project="vite")
    sha = repo.commit("feat: a root-level script", {"scripts/release.mjs": "x\n"})
    config = load_config(repo.path)
    sync(repo.path, config)
    classify.classify(repo.path, [classify.Request(sha, "changelog", "release", "added")], config)
    results = render_all(repo.path, config)
    assert {r["package"]: r["path"] for r in results} == {
        "vite": "packages/vite/CHANGELOG.md",
        "vite-root": "CHANGELOG.md",
    }
    root = (repo.path / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"- A root-level script ({sha[:7]})" in root


def test_a_full_disk_at_the_last_package_leaves_every_changelog_as_it_was(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`changelog render --all` wrote each package's file in turn: a failure at the second
    left the first rewritten."""
    import errno

    from orkestra.core import safewrite
    from orkestra.core.errors import WriteFailed
    from orkestra.mining import classify

    configure(repo, "    vite: packages/vite\n    create-vite: packages/create-vite\n")
    sha = repo.commit("feat: fast start", {"packages/vite/a.ts": "a\n"})
    other = repo.commit("fix: template", {"packages/create-vite/t.ts": "t\n"})
    config = load_config(repo.path)
    sync(repo.path, config)
    requests = [
        classify.Request(sha, "changelog", "release", "added"),
        classify.Request(other, "changelog", "release", "fixed"),
    ]
    classify.classify(repo.path, requests, config)
    real = safewrite._fill

    def fill(tmp: str, payload: bytes, mode: int, durable: bool) -> None:
        if "/packages/vite/.CHANGELOG.md.orkestra-" in tmp:  # after create-vite's
            raise OSError(errno.ENOSPC, "No space left on device", tmp)
        real(tmp, payload, mode, durable)

    with monkeypatch.context() as patch:
        patch.setattr(safewrite, "_fill", fill)
        with pytest.raises(WriteFailed) as err:
            render_all(repo.path, config)
    assert err.value.file == "packages/vite/CHANGELOG.md"
    assert not (repo.path / "packages/create-vite/CHANGELOG.md").exists()
    assert sorted(p.name for p in (repo.path / "packages/vite").iterdir()) == ["a.ts"]
    assert [r["written"] for r in render_all(repo.path, config)] == [True, True]
