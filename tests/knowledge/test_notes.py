"""Notes: frontmatter validation, wikilinks, and the shape of the knowledge base."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.knowledge.links import check_links, parse_links
from orkestra.knowledge.notes import load_notes, parse_note, parse_source
from tests.conftest import write
from tests.knowledge.helpers import note


def codes(root: Path) -> list[tuple[str, str, int | None]]:
    kb = load_notes(root, "knowledge")
    return [(p.code, p.file, p.line) for p in kb.problems + check_links(kb, root, "knowledge")]


def test_valid_note_parses_every_field(project: Path) -> None:
    note(project, "case", sources=["backend: app/models/task.rb#class Task", "src/x.py"])
    kb = load_notes(project, "knowledge")
    assert kb.problems == []
    (case,) = kb.notes
    assert case.type == "glossary" and case.title == "Case"
    assert [(s.repo, s.path, s.pattern) for s in case.sources] == [
        ("backend", "app/models/task.rb", "class Task"),
        (None, "src/x.py", None),
    ]


def test_source_forms() -> None:
    assert parse_source("a.py#def f: x").pattern == "def f: x"
    assert parse_source("docs/x.md").repo is None
    src = parse_source("frontend: src/App.tsx#export default")
    assert (src.repo, src.path, src.pattern) == ("frontend", "src/App.tsx", "export default")


def test_type_must_match_its_folder(project: Path) -> None:
    write(project, "knowledge/gotchas/x.md", '---\ntype: recipe\ntitle: "X"\n---\nbody\n')
    assert codes(project) == [("KN003", "knowledge/gotchas/x.md", 2)]


def test_plural_type_is_accepted(project: Path) -> None:
    write(project, "knowledge/gotchas/x.md", '---\ntype: gotchas\ntitle: "X"\n---\n')
    assert codes(project) == []


def test_bad_fields_name_their_line() -> None:
    text = (
        "---\ntype: glossary\ntitle: ''\naliases: case\ntags: [1]\nconfidence: sure\n"
        "created: 2026-01-01\nverified_at: \"2026-02-30\"\nsources: ['/etc/passwd']\n---\n"
    )
    _, problems = parse_note(text, "knowledge/glossary/x.md", "glossary")
    got = {(p.code, p.line) for p in problems}
    assert got == {
        ("KN004", 3),
        ("KN005", 4),
        ("KN005", 5),
        ("KN006", 6),
        ("KN007", 8),
        ("KN009", 9),
    }
    assert any("is an absolute path" in p.message for p in problems if p.code == "KN009")


def test_missing_frontmatter_and_bad_yaml(project: Path) -> None:
    write(project, "knowledge/recipes/a.md", "no frontmatter\n")
    write(project, "knowledge/recipes/b.md", "---\ntitle: [unclosed\n---\n")
    got = codes(project)
    assert ("KN001", "knowledge/recipes/a.md", 1) in got
    assert any(c == "KN001" and f == "knowledge/recipes/b.md" and line for c, f, line in got)


def test_verified_needs_a_date(project: Path) -> None:
    note(project, "x", confidence="verified")
    assert [c for c, _, _ in codes(project)] == ["KN008"]


def test_duplicate_names_across_folders(project: Path) -> None:
    note(project, "retry", kind="gotcha")
    note(project, "retry", kind="recipe")
    assert "KN010" in [c for c, _, _ in codes(project)]


def test_wikilink_forms_and_code_fences() -> None:
    body = "See [[case]], [[case|the case]] and [[case#Usage|use]].\n```\n[[not-a-link]]\n```\n"
    links = parse_links(body, 10)
    assert [(ln.target, ln.heading, ln.label, ln.line) for ln in links] == [
        ("case", None, None, 10),
        ("case", None, "the case", 10),
        ("case", "Usage", "use", 10),
    ]


def test_links_resolve_to_notes_titles_aliases_and_records(project: Path) -> None:
    write(project, "registries/decisions/records/DEC-PL-001.yaml", "id: DEC-PL-001\n")
    write(project, "registries/truths/orkestra.yaml", "statements:\n  - id: GT-ORK-001\n")
    note(project, "case", body="# Case\n## Usage\n")
    body = (
        "[[case]] [[Case]] [[glossary/case]] [[case#Usage]] [[DEC-PL-001]] [[GT-ORK-001]]\n"
        "[[nowhere]]\n[[case#Missing]]\n[[DEC-PL-002]]\n[[GT-ORK-009]]\n"
    )
    note(project, "other", kind="gotcha", body=body)
    got = codes(project)
    assert got == [
        ("KN021", "knowledge/gotchas/other.md", 15),
        ("KN022", "knowledge/gotchas/other.md", 16),
        ("KN020", "knowledge/gotchas/other.md", 17),
        ("KN020", "knowledge/gotchas/other.md", 18),
    ]


def test_alias_resolves(project: Path) -> None:
    path = note(project, "case")
    path.write_text(
        path.read_text().replace('"aliases": []', "").replace("aliases: []", 'aliases: ["sak"]')
    )
    note(project, "other", kind="gotcha", body="[[sak]]\n")
    assert codes(project) == []


def test_a_note_reached_through_a_symlink_leaving_the_project_is_refused(
    project: Path, tmp_path_factory: Any
) -> None:
    # red team 2: knowledge/glossary/x.md -> a file outside the project was read, indexed and
    # served (`notes list`, search, the MCP resource orkestra://notes/x); §13 refuses such files
    outside = tmp_path_factory.mktemp("outside")
    (outside / "private.md").write_text('---\ntype: glossary\ntitle: "Private"\n---\nsecret\n')
    (outside / "gotchas").mkdir()
    (outside / "gotchas/g.md").write_text('---\ntype: gotcha\ntitle: "G"\n---\nsecret\n')
    note(project, "kept")
    (project / "knowledge/glossary/private.md").symlink_to(outside / "private.md")
    (project / "knowledge/glossary/inside.md").symlink_to(project / "knowledge/glossary/kept.md")
    (project / "knowledge/gotchas").symlink_to(outside / "gotchas", target_is_directory=True)
    kb = load_notes(project, "knowledge")
    assert sorted(n.name for n in kb.notes) == ["inside", "kept"]
    refused = sorted((p.code, p.file) for p in kb.problems)
    assert refused == [
        ("KN012", "knowledge/glossary/private.md"),
        ("KN012", "knowledge/gotchas"),
    ]
    assert all("outside the project" in p.message for p in kb.problems)


def test_a_knowledge_folder_that_is_a_symlink_leaving_the_project_is_refused(
    project: Path, tmp_path_factory: Any
) -> None:
    outside = tmp_path_factory.mktemp("kb")
    (outside / "glossary").mkdir()
    (outside / "glossary/x.md").write_text('---\ntype: glossary\ntitle: "X"\n---\nsecret\n')
    (project / "knowledge").symlink_to(outside, target_is_directory=True)
    kb = load_notes(project, "knowledge")
    assert kb.notes == [] and [(p.code, p.file) for p in kb.problems] == [("KN012", "knowledge")]


def test_obsidian_block_references_attachments_and_table_links_resolve(project: Path) -> None:
    """Valid Obsidian links were warned about as missing notes: a block reference
    `[[note#^id]]`, an embedded attachment `![[flow.png]]` (found by name or by path in the
    knowledge folder) and a link in a table, whose `|` is escaped: `[[note\\|label]]`."""
    write(project, "knowledge/assets/flow.png", "png")
    note(project, "case", body="# Case\n\nStep three is slow. ^step-3\n")
    body = (
        "[[case#^step-3]] ![[flow.png]] [[assets/flow.png]]\n"
        "| a | [[case\\|the case]] | [[case#Case\\|label]] |\n"
        "[[case#^step-4]] ![[gone.png]] [[v1.2 notes]]\n"
    )
    note(project, "other", kind="gotcha", body=body)
    problems = check_links(load_notes(project, "knowledge"), project, "knowledge")
    assert [(p.code, p.line, p.message) for p in problems] == [
        ("KN022", 16, "[[case#^step-4]]: knowledge/glossary/case.md has no such block (^step-4)"),
        ("KN021", 16, "[[gone.png]]: no note with that name, title or alias, nor such a file"),
        ("KN021", 16, "[[v1.2 notes]]: no note with that name, title or alias"),
    ]
    (table, heading) = parse_links(body, 1)[3:5]
    assert (table.target, table.label) == ("case", "the case")
    assert (heading.target, heading.heading, heading.label) == ("case", "Case", "label")


def test_a_link_written_in_inline_code_is_not_a_link() -> None:
    """A convention note showing the syntax (`[[note-name]]` in backticks, as Obsidian renders
    it: code, not a link) was warned KN021 as a link to a missing note."""
    body = (
        "Link a note with `[[note-name]]` or ``[[note-name|label]]``; see [[real-one]].\n"
        "A heading: `[[note#Heading]]`, then [[other|shown]] and `` `[[x]]` `` again.\n"
        "An unclosed ` backtick does not hide [[kept]].\n"
    )
    assert [(ln.target, ln.line) for ln in parse_links(body, 5)] == [
        ("real-one", 5),
        ("other", 6),
        ("kept", 7),
    ]


def test_notes_check_warns_no_link_written_in_inline_code(cli: Any, project: Path) -> None:
    note(project, "linking-notes", kind="convention", body="Write `[[note-name]]` to link.\n")
    r = cli("notes", "check", "--no-sources", cwd=project)
    assert r.exit_code == 0 and r.json()["problems"] == [], r.stdout


def test_a_fence_closes_only_on_its_own_kind_and_code_holds_no_headings(project: Path) -> None:
    """A `~~~` block holding a ``` line (a markdown example), or a ```` block holding ```,
    was taken as closed there: its code became links and the note's real links after it code.
    A `# comment` line in a shell block counted as a heading, so `[[note#comment]]` resolved."""
    body = (
        "~~~markdown\n```\n[[in-code]]\n```\n~~~\n"
        "````\n```\n[[in-code-too]]\n```\n````\n"
        "See [[after]].\n"
        "```bash\n# install\nmake\n```\n## Usage\n"
    )
    assert [ln.target for ln in parse_links(body, 1)] == ["after"]
    note(project, "setup", kind="recipe", body=body)
    note(project, "after", body="[[setup#install]] and [[setup#Usage]]\n")
    kb = load_notes(project, "knowledge")
    found = [(p.code, p.message) for p in check_links(kb, project, "knowledge")]
    assert found == [("KN022", "[[setup#install]]: knowledge/recipes/setup.md has no such heading")]


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_invalid_utf8_in_a_note_is_told_at_its_line_whatever_the_line_ends(
    tmp_path: Path, end: bytes
) -> None:
    """Lines end in LF, CRLF or (an old Mac editor) a lone CR: the bad byte on the seventh
    line is at line 7, as every other reader of the project numbers it."""
    from orkestra.core.errors import InputError
    from orkestra.knowledge.notes import read_note

    lines = [b"---", b"title: Old note", b"type: gotcha", b"---", b"", b"Body", b"Bad: \xff"]
    path = tmp_path / "old.md"
    path.write_bytes(end.join(lines) + end)
    with pytest.raises(InputError) as caught:
        read_note(str(path), "knowledge/gotchas/old.md")
    assert caught.value.line == 7
    assert "save the file as UTF-8" in caught.value.message
