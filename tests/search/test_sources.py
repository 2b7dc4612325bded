"""The source files search reads are the ones the loader accepts, under the same names."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from orkestra.search import extract, layout, service
from orkestra.search.document import Problem

SLUGGED = "registries/decisions/records/DEC-SR-002-quokka-cache.yaml"
RECORD = """id: DEC-SR-002
title: Quokka cache for slugged records
domain: search
status: active
created: "2026-04-02"
summary: A record whose file name carries a slug after its id.
"""


def test_a_decision_in_a_slugged_file_is_a_document(root: Path) -> None:
    # the loader accepts `<id>-<slug>.yaml` (how two branches each add a record)
    (root / SLUGGED).write_text(RECORD, encoding="utf-8")
    (doc,) = extract.documents(root, SLUGGED, "decision")
    assert (doc.id, doc.path, doc.line) == ("DEC-SR-002", SLUGGED, 1)
    # a stem that merely starts with the id's text is not the id's file
    other = "registries/decisions/records/DEC-SR-0021.yaml"
    (root / other).write_text(RECORD, encoding="utf-8")
    assert extract.documents(root, other, "decision") == []


def test_search_finds_a_decision_in_a_slugged_file(cli: Any, root: Path) -> None:
    (root / SLUGGED).write_text(RECORD, encoding="utf-8")
    for args in (("search", "quokka"), ("search", "DEC-SR-002"), ("decisions", "search", "quokka")):
        r = cli(*args, cwd=root)
        assert r.exit_code == 0, r.stderr
        assert [h["id"] for h in r.json()["results"]] == ["DEC-SR-002"], args
    hits = service.search(root, "quokka", use_index=False).hits
    assert [(h.id, h.path) for h in hits] == [("DEC-SR-002", SLUGGED)]


# --- a file the loader rejects for its schema is warned about, not left out in silence ----------

AGENT = "registries/agents/release-manager.yaml"
SKILL = "registries/skills/stacks/kubernetes-deploy.yaml"
TRUTHS = "registries/truths/pipeline.yaml"
DECISION = "registries/decisions/records/DEC-SR-001.yaml"
VENDOR = "vendor/acme/pdf-tools/SKILL.md"

#: (file, text before, text after, the loader's code and line for it)
SCHEMA_ERRORS = [
    (AGENT, 'description: "Cuts', 'summary: "Cuts', "ORK002", 1),
    (
        AGENT,
        'description: "Cuts releases and writes changelogs. Use when preparing a release."',
        "description: 12",
        "ORK002",
        2,
    ),
    (AGENT, "name: release-manager", "name: release-boss", "ORK003", 1),
    (AGENT, None, "", "ORK001", 1),
    (SKILL, "  name: kubernetes-deploy", "  name: k8s-deploy", "ORK003", 3),
    (SKILL, "metadata:\n  identifier", "meta:\n  identifier", "ORK002", 1),
    (SKILL, "sections:\n", "sections: 5\nx:\n", "ORK002", 10),
    (TRUTHS, '    statement: "Every', '    claim: "Every', "ORK002", 5),
    (TRUTHS, "statements:\n", "statements: {}\nx:\n", "ORK002", 4),
    (DECISION, "id: DEC-SR-001", "id: DEC-SR-009", "ORK003", 1),
    (DECISION, "title: Use SQLite", "name: Use SQLite", "ORK002", 1),
    (VENDOR, "name: pdf-tools", "name: pdf", "ORK003", 2),
    # a key the model refuses: the loader leaves the entry out, and so does search
    (AGENT, "name: release-manager", "name: release-manager\nbogus: 1", "ORK002", 2),
    (SKILL, "metadata:\n", "extra: 1\nmetadata:\n", "ORK002", 1),
    (SKILL, "  name: kubernetes-deploy", "  name: kubernetes-deploy\n  nick: k8s", "ORK002", 4),
    (TRUTHS, '    statement: "Every', '    owner: me\n    statement: "Every', "ORK002", 7),
    (DECISION, "title: Use SQLite", "title: Use SQLite\nowner: me", "ORK002", 3),
    # a display name where a name goes: the loader's ORK002 for the name, not a misnamed file
    (VENDOR, "name: pdf-tools", 'name: "PDF Tools"', "ORK002", 2),
    (AGENT, "name: release-manager", "name: Release Manager", "ORK002", 1),
]


def _break(root: Path, file: str, old: str | None, new: str) -> None:
    path = root / file
    text = path.read_text(encoding="utf-8")
    if old is None:
        path.write_text(new, encoding="utf-8")
        return
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _loader_errors(root: Path, file: str) -> set[tuple[str, str, int | None, str]]:
    from orkestra.registry.loader import load

    return {(f.code, f.file, f.line, f.message) for f in load(root).findings if f.file == file}


@pytest.mark.parametrize(("file", "old", "new", "code", "line"), SCHEMA_ERRORS)
def test_a_file_with_a_schema_error_is_reported_as_the_loader_reports_it(
    root: Path, file: str, old: str | None, new: str, code: str, line: int
) -> None:
    _break(root, file, old, new)
    kind = layout.kind_of(file, extract.settings(root)[0])
    assert kind is not None
    problems: list[Problem] = []
    docs = extract.documents(root, file, kind, problems)
    found = {(p.code, p.file, p.line, p.message) for p in problems}
    assert (code, file, line) in {(c, f, n) for c, f, n, _ in found}
    # the code, line and message `agents list` and `orkestra validate` give (the loader may add
    # what else it leaves out: every truth of a file, where search keeps the valid ones)
    loaded = _loader_errors(root, file)
    for problem in found:
        assert any(problem[:3] == f[:3] and f[3].startswith(problem[3]) for f in loaded), problem
    assert all(d.id not in ("release-manager", "kubernetes-deploy", "DEC-SR-001") for d in docs)


def test_the_other_truths_of_a_file_stay_searchable(root: Path) -> None:
    _break(root, TRUTHS, '    statement: "Every', '    claim: "Every')
    text = (root / TRUTHS).read_text(encoding="utf-8")
    entry = '  - id: GT-PIPE-009\n    status: current\n    statement: "Stages log."\n'
    (root / TRUTHS).write_text(text + entry, encoding="utf-8")
    problems: list[Problem] = []
    docs = extract.documents(root, TRUTHS, "truths", problems)
    assert [d.id for d in docs] == ["GT-PIPE-009"]
    assert [(p.code, p.line) for p in problems] == [("ORK002", 5)]
    assert problems[0].message == "missing required key 'statements.0.statement'"


def test_a_valid_registry_has_no_problems(root: Path) -> None:
    problems: list[Problem] = []
    service.search(root, "kubernetes", use_index=False, unloaded=problems)
    assert problems == []


def test_search_warns_about_a_file_with_a_schema_error(cli: Any, root: Path) -> None:
    assert cli("search", "release", cwd=root).stderr == ""  # the index, built clean
    _break(root, AGENT, 'description: "Cuts', 'summary: "Cuts')
    for args in (
        ("search", "release"),
        ("agents", "search", "release"),
        ("search", "x", "--summary"),
    ):
        r = cli(*args, "--format", "json", cwd=root)
        assert r.exit_code == 0, r.stderr
        (line,) = r.stderr.splitlines()
        warning = json.loads(line)["warning"]
        assert (warning["code"], warning["file"], warning["line"]) == ("ORK002", AGENT, 1)
        assert warning["message"].startswith("missing required key 'description'")
    r = cli("search", "release", "--format", "table", cwd=root)
    assert r.stderr.startswith(f"orkestra: warning: {AGENT}:1: ORK002: missing required key")
    assert "left out of this answer" in r.stderr
    assert "release-manager" not in r.stdout
    _break(root, AGENT, 'summary: "Cuts', 'description: "Cuts')
    r = cli("search", "release", cwd=root)
    assert (r.exit_code, r.stderr) == (0, "")
    assert "release-manager" in {h["id"] for h in r.json()["results"]}


def test_the_index_and_the_sources_report_the_same_schema_errors(root: Path) -> None:
    for index in (1, 4, 7, 9):
        file, old, new, *_ = SCHEMA_ERRORS[index]
        _break(root, file, old, new)
    indexed: list[Problem] = []
    service.search(root, "release", unloaded=indexed)
    direct: list[Problem] = []
    service.search(root, "release", use_index=False, unloaded=direct)
    assert sorted(indexed) == sorted(direct)
    assert {p.file for p in direct} == {AGENT, SKILL, TRUTHS, DECISION}


@pytest.mark.parametrize("what", ["folder", "fifo"])
def test_a_yaml_name_that_is_no_file_is_warned_as_validate_names_it(
    cli: Any, root: Path, what: str
) -> None:
    """A folder or FIFO at `registries/agents/x.yaml`: search warns with validate's ORK004 and
    its message (one finding per file in an MCP answer, not ORK001 beside validate's ORK004)."""
    rel = "registries/agents/stray.yaml"
    if what == "folder":
        (root / rel).mkdir()
    else:
        os.mkfifo(root / rel)
    problems: list[Problem] = []
    assert extract.documents(root, rel, "agent", problems) == []
    checked = cli("validate", "--format", "json", cwd=root).json()["findings"]
    (expected,) = [(f["code"], f["message"], f["file"]) for f in checked if f["file"] == rel]
    assert [(p.code, p.message, p.file) for p in problems] == [expected]
    assert expected[0] == "ORK004"
    r = cli("search", "release", "--format", "json", cwd=root)
    assert r.exit_code == 0, r.stderr
    (line,) = r.stderr.splitlines()
    warning = json.loads(line)["warning"]
    assert (warning["code"], warning["file"]) == ("ORK004", rel)
    assert warning["message"].startswith(expected[1])
