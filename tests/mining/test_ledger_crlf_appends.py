"""Lines appended to a ledger checked out with CRLF endings end in CRLF like the lines before
them (they ended in LF: a file of mixed endings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.core.atomic import append_lines
from orkestra.registry import ledger
from tests.mining.gitrepo import GitRepo


def test_an_append_to_a_crlf_file_ends_in_crlf(tmp_path: Path) -> None:
    crlf, lf = tmp_path / "crlf.jsonl", tmp_path / "lf.jsonl"
    crlf.write_bytes(b'{"a":1}\r\n')
    lf.write_bytes(b'{"a":1}\n')
    append_lines(crlf, ['{"b":2}', '{"c":3}'])
    append_lines(lf, ['{"b":2}'])
    assert crlf.read_bytes() == b'{"a":1}\r\n{"b":2}\r\n{"c":3}\r\n'
    assert lf.read_bytes() == b'{"a":1}\n{"b":2}\n'


def test_classify_into_a_crlf_ledger_keeps_its_endings(released: GitRepo, cli: Any) -> None:
    for rel in (ledger.CLASSIFICATIONS, ledger.RELEASE_NOTES):
        path = released.path / rel
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    sha = released.commit("fix(core): the widget", {"packages/core/w.py": "w2\n"})
    result = cli("mine", "classify", sha, "--changelog", "fixed", cwd=released.path)
    assert result.exit_code == 0, result.stderr
    for rel in (ledger.CLASSIFICATIONS, ledger.RELEASE_NOTES):
        data = (released.path / rel).read_bytes()
        assert data.count(b"\n") == data.count(b"\r\n") == 2, (rel, data)
    assert cli("mine", "validate", cwd=released.path).exit_code == 0
