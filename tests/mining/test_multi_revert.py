"""A commit that reverts several commits cancels each of them (PRODUCT.md §6.7): git's
`This reverts commit X.` once per commit (a squash of several reverts), `This reverts commits
X, Y and Z.`, and the Conventional Commits `Refs: X, Y` footer of a `revert:` commit."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.mining.conventional import parse
from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"
A, B, C = "a" * 40, "b" * 7, "c" * 12


@pytest.mark.parametrize(
    ("subject", "body"),
    [
        (
            'Revert "three features"',
            f"This reverts commit {A}.\n\nThis reverts commit {B}.\n\nThis reverts commit {C}.",
        ),
        ('Revert "three features"', f"This reverts commits {A}, {B} and {C}."),
        ("revert: three features", f"Refs: {A}, {B}, {C}"),
        ("revert: three features", f"Some prose.\n\nRefs: {A}\nRefs: {B}\nReverts: {C}"),
    ],
    ids=["squashed", "one-sentence", "refs-list", "footers"],
)
def test_every_reverted_commit_is_named(subject: str, body: str) -> None:
    assert parse(subject, body).reverts == (A, B, C)


def test_refs_of_a_commit_that_is_no_revert_reverts_nothing() -> None:
    assert parse("fix(core): follow up", f"Refs: {B}").reverts == ()
    assert parse("fix(core): follow up", "Refs: #12").reverts == ()


def _features(repo: GitRepo, cli: Any) -> list[str]:
    shas = []
    for name in ("dark mode", "light mode", "sepia mode"):
        file = f"packages/core/{name.split()[0]}.py"
        sha = repo.commit(f"feat(core): add {name}", {file: name + "\n"})
        result = cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path)
        assert result.exit_code == 0, result.stderr
        shas.append(sha)
    return shas


@pytest.mark.parametrize("style", ["squashed", "refs"])
def test_a_revert_of_several_commits_cancels_them_all(repo: GitRepo, cli: Any, style: str) -> None:
    shas = _features(repo, cli)
    keep = repo.commit("fix(core): a bug", {"packages/core/bug.py": "b\n"})
    assert cli("mine", "classify", keep, "--changelog", "fixed", cwd=repo.path).exit_code == 0
    repo.git("revert", "--no-commit", shas[0], shas[2])
    if style == "squashed":
        message = (
            'Revert "dark and sepia modes"\n\n'
            f"This reverts commit {shas[0]}.\n\nThis reverts commit {shas[2]}.\n"
        )
    else:
        message = f"revert: dark and sepia modes\n\nRefs: {shas[0][:7]}, {shas[2][:7]}\n"
    revert = repo.commit(message)
    assert cli("mine", "classify", revert, "--changelog", "removed", cwd=repo.path).exit_code == 0

    result = cli("changelog", "render", "--package", "core", cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    assert result.json()["changelogs"][0]["cancelled"] == 3
    text = (repo.path / CORE).read_text(encoding="utf-8")
    entries = [line.split(" (")[0] for line in text.splitlines() if line.startswith("- ")]
    assert entries == ["- Add light mode", "- A bug"]


def test_a_revert_of_a_released_commit_and_a_new_one_stays(repo: GitRepo, cli: Any) -> None:
    """Reverting a commit of this release and one released before: the new one cancels, the
    revert stays (it removes something users had)."""
    old = repo.commit("feat(core): add dark mode", {"packages/core/dark.py": "d\n"})
    assert cli("mine", "classify", old, "--changelog", "added", cwd=repo.path).exit_code == 0
    repo.tag("v1.0.0")
    new = repo.commit("feat(core): add sepia mode", {"packages/core/sepia.py": "s\n"})
    assert cli("mine", "classify", new, "--changelog", "added", cwd=repo.path).exit_code == 0
    repo.git("revert", "--no-commit", old, new)
    revert = repo.commit(f'Revert "dark and sepia modes"\n\nThis reverts commits {old}, {new}.\n')
    assert cli("mine", "classify", revert, "--changelog", "removed", cwd=repo.path).exit_code == 0
    result = cli("changelog", "render", "--package", "core", cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    text = (repo.path / CORE).read_text(encoding="utf-8")
    unreleased = text.split("## [Unreleased]")[1].split("## [1.0.0]")[0]
    assert "Revert" in unreleased and "sepia" not in unreleased.replace("sepia modes", "")
    assert "- Add dark mode (" in text.split("## [1.0.0]")[1]
