"""Adoption criteria, depth levels and provenance from a real git history."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

import pytest

from orkestra.intake import criteria as crit
from orkestra.intake.depth import depth
from orkestra.intake.evaluate import Options, evaluate_tree
from orkestra.intake.provenance import activity
from orkestra.intake.review import review_folder
from orkestra.intake.rules import default_rules
from tests.conftest import write

TODAY = dt.date(2026, 12, 2)
GOOD = "---\nname: {n}\ndescription: Draw sequence diagrams from call traces. Use when the user asks for a diagram of a flow.\n---\n# x\n\n## Example\n```\nA->B\n```\n"


def _skill(base: Path, name: str, extra: dict[str, str] | None = None) -> Path:
    write(base, f"{name}/SKILL.md", GOOD.format(n=name))
    for rel, text in (extra or {}).items():
        write(base, f"{name}/{rel}", text)
    return base / name


def _git(repo: Path, *args: str, date: str = "2026-11-20T12:00:00") -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME="T",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="T",
        GIT_COMMITTER_EMAIL="t@example.com",
        GIT_AUTHOR_DATE=date,
        GIT_COMMITTER_DATE=date,
    )
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def test_fills_real_gap_names_closest_and_similarity() -> None:
    known = [
        crit.Known(
            "sequence-diagrams",
            "Draw sequence diagrams from call traces. Use when the user asks for a diagram.",
            "core",
        ),
        crit.Known("sql-review", "Review SQL migrations. Use when changing a schema.", "core"),
    ]
    result = crit.fills_real_gap(
        "seq-diagram",
        "Draw sequence diagrams from call traces. Use when asked for a diagram.",
        known,
        85,
        None,
    )
    assert not result.passed
    assert result.details["closest"] == "sequence-diagrams" and result.details["similarity"] >= 85
    other = crit.fills_real_gap(
        "csv-stats", "Summarise CSV columns. Use when profiling data.", known, 85, None
    )
    assert other.passed and other.details["closest"] in {"sql-review", "sequence-diagrams"}
    assert 0 < other.details["similarity"] < 85


def test_same_name_fails_but_the_skill_itself_is_not_a_rival() -> None:
    known = [crit.Known("pdf", "PDF tools. Use when reading PDFs.", "vendor", "acme")]
    assert not crit.fills_real_gap("pdf", "x", known, 85, "other").passed
    assert crit.fills_real_gap("pdf", "x", known, 85, "acme").passed


def test_actively_maintained_with_real_git(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _skill(repo, "fresh")
    _skill(repo, "stale")
    _git(repo, "init", "-q")
    _git(repo, "add", "stale")
    _git(repo, "commit", "-q", "-m", "old", date="2025-01-10T12:00:00")
    _git(repo, "add", "fresh")
    _git(repo, "commit", "-q", "-m", "new", date="2026-11-20T12:00:00")
    history = activity(repo, TODAY, 183)
    assert history.maintained(repo / "fresh") is True
    assert history.maintained(repo / "stale") is False
    by_trust = {
        trust: {
            c.name: c.criteria["actively_maintained"].passed
            for c in evaluate_tree(repo, repo, [], Options(trust=trust, today=TODAY))
        }
        for trust in ("vendor", "community")
    }
    assert by_trust["community"] == {"fresh": True, "stale": False}
    assert by_trust["vendor"] == {
        "fresh": True,
        "stale": True,
    }  # declared trust lightens provenance


def test_not_a_git_repo(tmp_path: Path) -> None:
    assert activity(tmp_path, TODAY, 183).maintained(tmp_path) is None
    assert crit.actively_maintained(None, "2026-06-01", "untrusted").passed is False
    assert crit.actively_maintained(None, "2026-06-01", "community").passed is True


def test_portable_and_tested(tmp_path: Path) -> None:
    rules = default_rules()
    folder = _skill(
        tmp_path,
        "p",
        {"scripts/run.sh": "#!/bin/sh\n# Usage: run.sh\ncat /Users/alice/notes.txt\n"},
    )
    review = review_folder(folder, "p/", rules)
    result = crit.portable(review, rules, "p/")
    assert not result.passed and "p/scripts/run.sh:3: /Users/alice/" in result.evidence
    folder2 = _skill(tmp_path, "q", {"scripts/run.sh": '#!/bin/sh\ncat "$HOME/notes.txt"\n'})
    assert crit.portable(review_folder(folder2, "", rules), rules, "").passed
    from orkestra.intake.spec import check

    bare = write(
        tmp_path, "bare/SKILL.md", "---\nname: bare\ndescription: d\n---\nJust prose.\n"
    ).parent
    bare_spec = check((bare / "SKILL.md").read_text(encoding="utf-8"), "bare")
    assert not crit.tested(review_folder(bare, "", rules), bare_spec).passed
    assert "scripts with usage" in crit.tested(review, check(GOOD.format(n="p"), "p")).evidence


def test_well_structured_needs_a_trigger() -> None:
    from orkestra.intake.spec import check

    rules = default_rules()
    no_trigger = check("---\nname: a\ndescription: A tool for tables.\n---\n", "a")
    assert "no trigger" in crit.well_structured(no_trigger, rules).evidence
    unicode_name = check("---\nname: café\ndescription: Use when x.\n---\n", "café")
    assert unicode_name.valid and not crit.well_structured(unicode_name, rules).passed


@pytest.mark.parametrize(
    ("files", "level"),
    [
        ({}, 2),
        ({"references/a.md": "# a\n"}, 3),
        ({"references/a.md": "# a\n", "scripts/a.py": "print(1)\n"}, 4),
        ({"references/a.md": "# a\n", "scripts/a.py": "print(1)\n", "assets/t.md": "t\n"}, 5),
    ],
)
def test_depth_levels(tmp_path: Path, files: dict[str, str], level: int) -> None:
    rules = default_rules()
    folder = _skill(tmp_path, "d", files)
    result = depth(
        review_folder(folder, "", rules),
        "Draw diagrams of flows. Use when the user asks for a sequence diagram.",
        rules,
    )
    assert result["level"] == level
    assert depth(review_folder(folder, "", rules), "short", rules)["level"] == level - 1


def test_name_clash_within_one_intake(tmp_path: Path) -> None:
    _skill(tmp_path / "a", "same")
    _skill(tmp_path / "b", "same")
    found = evaluate_tree(tmp_path, tmp_path, [], Options(today=TODAY))
    assert [c.verdict for c in found] == ["review", "review"]
    assert "name clash" in found[0].reasons[-1]


@pytest.mark.parametrize(
    "path", ["/HOME/alice/x", "/Users/bob/x", "/uſers/bob/x", "C:\\Users\\bob", "/Volumes/Data/x"]
)
def test_the_portability_pre_filter_misses_no_path(tmp_path: Path, path: str) -> None:
    rules = default_rules()
    folder = _skill(tmp_path, "p", {"scripts/run.sh": f"#!/bin/sh\n# Usage: run.sh\ncat {path}\n"})
    result = crit.portable(review_folder(folder, "p/", rules), rules, "p/")
    whole = [c for c in rules.portability if c.pattern.search(path)]
    assert whole and not result.passed
