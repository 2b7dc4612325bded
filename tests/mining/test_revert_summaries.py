"""The default changelog line of a revert (§6.4, §6.7): git's `Revert "feat(core): add x"`
reads `Revert "Add x"`, a revert of that revert (`Revert "Revert "…""`, or git 2.43's
`Reapply "…"`) reads `Reapply "Add x"`; it said `Feat(core): add x` under Removed (as if the
feature were added) and `Revert "feat(core): add x"` for the re-land."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.mining.conventional import default_summary, parse
from tests.mining.gitrepo import GitRepo


@pytest.mark.parametrize(
    ("subject", "summary"),
    [
        ('Revert "feat(core): add the widget cache"', 'Revert "Add the widget cache"'),
        ('Revert "Revert "feat(core): add the cache""', 'Reapply "Add the cache"'),
        ('Revert "Revert "Revert "fix: a crash"""', 'Revert "A crash"'),
        ('Reapply "feat: add the cache"', 'Reapply "Add the cache"'),
        ('Revert "Reapply "feat: add the cache""', 'Revert "Add the cache"'),
        ('Revert "update the README"', 'Revert "Update the README"'),
        ('Revert "fix: handle "quoted" names"', 'Revert "Handle "quoted" names"'),
        ("revert: feat(api): add the v2 endpoint", 'Revert "Add the v2 endpoint"'),
        ("revert(core): drop the legacy exporter", "drop the legacy exporter"),
        ("feat(core): add the cache", "add the cache"),
        ("Reapply the patch", "Reapply the patch"),
    ],
)
def test_default_summary_of_reverts(subject: str, summary: str) -> None:
    assert default_summary(subject, parse(subject).description) == summary


def _revert(repo: GitRepo, sha: str) -> str:
    repo.tick += 1
    repo.git("revert", "--no-edit", sha)
    return repo.head()


def test_a_changelog_names_reverts_and_reverts_of_reverts(repo: GitRepo, cli: Any) -> None:
    feat = repo.commit("feat(core): add the widget cache", {"packages/core/a.py": "a\n"})
    fix = repo.commit("fix(core): handle empty input", {"packages/core/b.py": "b\n"})
    repo.tag("v1.0.0")
    first = _revert(repo, feat)
    second = _revert(repo, fix)
    again = _revert(repo, second)
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    for sha, category in (
        (feat, "added"), (fix, "fixed"), (first, "removed"), (second, "removed"), (again, "fixed")
    ):  # fmt: skip
        done = cli("mine", "classify", sha, "--changelog", category, cwd=repo.path)
        assert done.exit_code == 0, done.stderr
    assert cli("changelog", "render", "--package", "core", cwd=repo.path).exit_code == 0
    text = (repo.path / "packages/core/CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [1.0.0]", 1)[0]
    assert f'- Revert "Add the widget cache" ({first[:7]})' in unreleased
    # the revert of the fix and its re-land cancel in pairs: the fix stands, in 1.0.0
    assert "Handle empty input" not in unreleased and "Feat(core)" not in text
    assert f"- Handle empty input ({fix[:7]})" in text.split("## [1.0.0]", 1)[1]


@pytest.mark.parametrize(
    ("subject", "category"),
    [
        ('Revert "feat: add an export button"', "removed"),
        ('Revert "Revert "feat: add an export button""', "added"),
        ('Reapply "feat: add an export button"', "added"),
        ('Revert "Revert "fix(core): a crash""', "fixed"),
        ('Revert "Reapply "feat: add an export button""', "removed"),
        ('Revert "Revert "Revert "feat: add an export button"""', "removed"),
    ],
)
def test_a_revert_of_a_revert_is_suggested_as_the_change_it_lands_again(
    subject: str, category: str
) -> None:
    """A revert of a revert lands the change again: the hint of `mine candidates --full`
    suggests the category of that change, not `removed` (and git 2.43's `Reapply "…"` is a
    revert like git's `Revert "…"`, not a free-form subject to skip)."""
    from orkestra.mining.report import hints
    from orkestra.mining.signals import SignalMaker

    files = ["packages/core/a.py"]
    signals = SignalMaker({"core": "packages/core/**"}, {}).signals(subject, "", files)
    assert signals["commit_type"] == "revert"
    record = {"subject": subject, "merge": False, "files": files, "signals": signals}
    assert hints(record)["suggested_changelog"] == {"action": "release", "category": category}
