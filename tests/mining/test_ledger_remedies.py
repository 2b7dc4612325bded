"""Every finding about a ledger line says what to do (§6.6, §13): a line that is not JSON (a
hand edit gone wrong), a merge-conflict marker (a merge without `merge=union`), a line of the
wrong shape, and a commit that is no longer in the history (amended, rebased, squash-merged or
force-pushed away) each named at its file:line with the way out; they gave only the parser's
words (`not valid JSON (Expecting value)`) or the fact (`not in the history`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo
from tests.mining.test_ledger import CL, SHA, SHA2, entry, put


def _messages(root: Path) -> dict[int, str]:
    return {f.line or 0: f.message for f in check(root, set(), {"PL"}) if f.file == CL}


def test_a_broken_line_and_a_conflict_marker_say_what_to_do(tmp_path: Path) -> None:
    good = entry("a", action="skip", reason="x")
    put(
        tmp_path,
        ledger.CLASSIFICATIONS,
        [good, "<<<<<<< HEAD", '{"id": "b", "sha": ', "=======", ">>>>>>> feature",
         entry("c", sha=SHA2, category="bogus")],
    )  # fmt: skip
    found = _messages(tmp_path)
    assert sorted(found) == [2, 3, 4, 5, 6]
    for number in (2, 4, 5):
        assert "merge conflict marker" in found[number], found[number]
        assert "keep the lines of both sides" in found[number]
        assert "merge=union" in found[number]
    assert found[3].startswith("not valid JSON (")
    assert "it is ignored" in found[3] and "orkestra mine classify" in found[3]
    assert found[6].startswith("category: ") and "it is ignored" in found[6]


def test_a_commit_gone_from_the_history_says_what_to_do(repo: GitRepo, cli: Any) -> None:
    put(repo.path, ledger.CLASSIFICATIONS, [entry("a", sha=SHA, action="skip", reason="x")])
    result = cli("mine", "validate", cwd=repo.path)
    assert result.exit_code == 1
    (finding,) = result.json()["findings"]
    assert (finding["code"], finding["file"], finding["line"]) == ("ORK056", CL, 1)
    message = finding["message"]
    assert "amend, rebase, squash merge or force-push" in message
    assert "orkestra mine candidates" in message and "delete this line" in message
    assert json.loads((repo.path / CL).read_text(encoding="utf-8"))["id"] == "a"  # kept
