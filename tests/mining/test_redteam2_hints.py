"""Red-team the classification hints of `mine candidates --full` (PRODUCT.md §6.3) on subjects
from real histories: security words in commits users never get, identifiers that contain a
keyword, and the free-form subjects of repositories that do not write Conventional Commits."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.mining.report import hints
from orkestra.mining.signals import SignalMaker

CASES = [
    # conventional commits
    ("feat: add an export button", "release", "added"),
    ("fix(core): crash on an empty file", "release", "fixed"),
    ("feat!: drop Node 14 support", "release", "removed"),
    ("feat(cli)!: rename --out to --output", "release", "changed"),
    ("fix!: exit 2 on a usage error", "release", "fixed"),
    ("feat(api): deprecate the v1 endpoints", "release", "deprecated"),
    ("fix: patch CVE-2024-1234 in the parser", "release", "security"),
    ("chore(deps): bump lodash to fix CVE-2021-23337", "release", "security"),
    ('Revert "feat: add an export button"', "release", "removed"),
    ("refactor: simplify the loader", "skip", None),
    # a security word in a commit no user gets is no release
    ("docs: add a security policy", "skip", None),
    ("test: security regression tests for the parser", "skip", None),
    ("ci: run the security scanner nightly", "skip", None),
    # a keyword inside an identifier is not the keyword
    ("feat(k8s): add securityContext to the pod template", "release", "added"),
    # free-form subjects: the leading verb says what kind of change it is
    ("Fix crash when saving an empty file (#123)", "release", "fixed"),
    ("Fixes #88: wrong exit code on bad input", "release", "fixed"),
    ("Add support for YAML anchors", "release", "added"),
    ("Implement the retry policy", "release", "added"),
    ("Remove the legacy exporter", "release", "removed"),
    ("Deprecate the old config key", "release", "deprecated"),
    ("Improve the handling of edge cases in config", "release", "changed"),
    ("Security: escape HTML in titles", "release", "security"),
    # free-form housekeeping stays out of the changelog
    ("Update dependencies", "skip", None),
    ("Fix typo in the README", "skip", None),
    ("WIP", "skip", None),
    ("typo", "skip", None),
    ("Bump version to 2.4.0", "skip", None),
    ("Merge branch 'main' into feature/x", "skip", None),
    ("Release 2.4.0", "skip", None),
    ("Fix merge conflicts shown twice in the editor", "release", "fixed"),
    ("Fix formatting of dates in the report", "release", "fixed"),
    ("", "skip", None),
]


def _record(subject: str, *, merge: bool = False) -> dict[str, Any]:
    maker = SignalMaker({"core": "packages/core/**"}, {})
    files = ["packages/core/a.py"]
    return {"subject": subject, "merge": merge, "files": files,
            "signals": maker.signals(subject, "", files)}  # fmt: skip


@pytest.mark.parametrize(("subject", "action", "category"), CASES)
def test_suggested_changelog(subject: str, action: str, category: str | None) -> None:
    suggested = hints(_record(subject))["suggested_changelog"]
    assert suggested["action"] == action, suggested
    if category is not None:
        assert suggested["category"] == category
    else:
        assert suggested["reason"].endswith("commit")


def test_a_merge_commit_is_never_a_release() -> None:
    record = _record("Merge pull request #12 from someone/fix-crash", merge=True)
    assert hints(record)["suggested_changelog"]["action"] == "skip"
    record = _record("fix: security hole", merge=True)
    assert hints(record)["suggested_changelog"]["action"] == "skip"
