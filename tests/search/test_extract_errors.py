"""What a source file that cannot be indexed does: skipped when broken, loud when a bug."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import InputError
from orkestra.search import extract
from orkestra.search.document import Problem

SKILL = "registries/skills/k1/s.yaml"


def test_a_file_that_is_not_yaml_is_skipped_and_reported(tmp_path: Path) -> None:
    (tmp_path / "registries/skills/k1").mkdir(parents=True)
    (tmp_path / SKILL).write_text("metadata: [unclosed\n", encoding="utf-8")
    assert extract.documents(tmp_path, SKILL, "skill") == []
    problems: list[Problem] = []
    assert extract.documents(tmp_path, SKILL, "skill", problems) == []
    ((code, _, file, line, check, _),) = problems
    assert (code, file, line, check) == ("ORK001", SKILL, 2, "orkestra validate")


def test_an_orkestra_yaml_that_is_not_yaml_is_reported(tmp_path: Path) -> None:
    (tmp_path / "registries").mkdir()
    (tmp_path / "registries/orkestra.yaml").write_text("project: [x\n", encoding="utf-8")
    problems: list[Problem] = []
    assert extract.settings(tmp_path, problems)[1] == []
    assert [(p.code, p.file) for p in problems] == [("ORK001", "registries/orkestra.yaml")]


def test_a_skill_whose_sections_are_not_a_list_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "registries/skills/k1").mkdir(parents=True)
    meta = "metadata:\n  name: s\n  identifier: s\n  description: d\n"
    (tmp_path / SKILL).write_text(meta + "sections: 5\n", encoding="utf-8")
    assert extract.documents(tmp_path, SKILL, "skill") == []
    (tmp_path / SKILL).write_text(meta + "sections: []\n", encoding="utf-8")
    assert [d.id for d in extract.documents(tmp_path, SKILL, "skill")] == ["s"]


def test_a_bug_in_a_reader_is_not_swallowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(root: Path, rel: str, problems: object) -> list[object]:
        raise KeyError("a bug")

    monkeypatch.setitem(extract._READERS, "skill", broken)
    with pytest.raises(KeyError):
        extract.documents(tmp_path, SKILL, "skill")


def test_knowledge_problems_other_than_bad_input_are_not_swallowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def bad_input(root: Path, problems: object) -> list[object]:
        raise InputError("malformed claim", file="knowledge/claims/a.jsonl", line=3)

    def bug(root: Path, problems: object) -> list[object]:
        raise TypeError("a bug")

    monkeypatch.setattr("orkestra.search.knowledge_docs.documents", bad_input)
    assert extract.knowledge_documents(tmp_path) == []
    problems: list[Problem] = []
    assert extract.knowledge_documents(tmp_path, problems) == []
    assert problems == [
        Problem("input", "malformed claim", "knowledge/claims/a.jsonl", 3, "orkestra notes check")
    ]
    monkeypatch.setattr("orkestra.search.knowledge_docs.documents", bug)
    with pytest.raises(TypeError):
        extract.knowledge_documents(tmp_path)


AGENT = "name: zz-outside\ndescription: Rotates the hunter2 credentials. Use when never.\n"


def test_a_source_reached_through_a_symlink_leaving_the_project_is_refused_unread(
    root: Path, tmp_path: Path
) -> None:
    """§13: a registry file reached through a symlink that leaves the project is refused, as the
    loader refuses it (ORK045): search neither indexes nor returns what lies outside."""
    outside = tmp_path / "outside"
    (outside / "domain").mkdir(parents=True)
    (outside / "zz-outside.yaml").write_text(AGENT, encoding="utf-8")
    (outside / "domain/patterns.md").write_text("# Leak\n\nhunter2\n", encoding="utf-8")
    (root / "registries/agents/zz-outside.yaml").symlink_to(outside / "zz-outside.yaml")
    (root / "registries/domains/leak").symlink_to(outside / "domain")
    cases = [
        ("registries/agents/zz-outside.yaml", "agent", "registries/agents/zz-outside.yaml"),
        ("registries/domains/leak/patterns.md", "domain", "registries/domains/leak"),
    ]
    for rel, kind, link in cases:
        problems: list[Problem] = []
        assert extract.documents(root, rel, kind, problems) == []
        ((code, message, file, line, _, _),) = problems
        assert (code, file, line) == ("ORK045", rel, None)
        assert message.startswith(f"'{link}' is a symlink to '{outside}")
        assert "outside the project" in message


def test_search_answers_nothing_read_through_a_symlink_leaving_the_project(
    cli: Any, root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "zz-outside.yaml").write_text(AGENT, encoding="utf-8")
    (root / "registries/agents/zz-outside.yaml").symlink_to(outside / "zz-outside.yaml")
    r = cli("search", "hunter2", cwd=root)
    assert r.exit_code == 0 and r.json() == {"query": "hunter2", "total": 0, "results": []}
    assert "registries/agents/zz-outside.yaml: ORK045: " in r.stderr
    assert "hunter2" not in r.stderr
