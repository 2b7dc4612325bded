"""A release note whose sha is not the commit of the classification it links (a hand edit, or a
merge resolution that took one side's sha and the other side's link) belongs to neither: it is
ignored like an orphan, `mine validate` names it at its line with the commit its link is of, and
the classification it was written for is reported as having no note. Before, the note counted
for the commit it names: that commit showed the wrong text (or the classification's), the
commit it was written for left the changelog in silence, and validate only said the other
commit had two notes."""

from __future__ import annotations

import json
from typing import Any

from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo

RN = ledger.RELEASE_NOTES


def _rows(repo: GitRepo) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (repo.path / RN).read_text().splitlines()]


def test_a_note_naming_another_commit_than_its_classification(repo: GitRepo, cli: Any) -> None:
    a = repo.commit("feat(core): widget", {"packages/core/w.py": "w\n"})
    b = repo.commit("fix(core): gadget", {"packages/core/g.py": "g\n"})
    assert cli("mine", "classify", a, "--changelog", "added", cwd=repo.path).exit_code == 0
    assert cli("mine", "classify", b, "--changelog", "fixed", cwd=repo.path).exit_code == 0
    rows = _rows(repo)
    assert [r["sha"] for r in rows] == [a, b]
    rows[0]["sha"] = b  # the note of a now names b
    (repo.path / RN).write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = cli("mine", "validate", "--format", "json", cwd=repo.path)
    assert result.exit_code == 1
    found = {(f["file"], f["line"], f["code"]): f["message"] for f in result.json()["findings"]}
    message = found[(RN.as_posix(), 1, "ORK057")]
    assert a[:12] in message and b[:12] in message
    assert any(code == "ORK059" for _, _, code in found)
    assert not any(code == "ORK058" for _, _, code in found)
    render = cli("changelog", "render", "--package", "core", cwd=repo.path)
    assert render.exit_code == 0
    text = (repo.path / "packages/core/CHANGELOG.md").read_text()
    assert text.count(f"({b[:7]})") == 1 and "Gadget" in text and "Widget" not in text
    # as validate says: delete the line, classify a again: its note is written whole
    (repo.path / RN).write_text("".join(json.dumps(r) + "\n" for r in rows[1:]))
    again = cli("mine", "classify", a, "--changelog", "added", cwd=repo.path)
    assert again.exit_code == 0 and again.json()["release_notes"] == 1
    assert cli("mine", "validate", cwd=repo.path).exit_code == 0
