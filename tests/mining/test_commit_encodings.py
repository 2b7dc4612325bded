"""Commit messages git stores in a legacy encoding (§6.1): a Latin-1 or Windows-1252 message
without an `encoding` header, or under a header naming a charset git does not know, is read as
git's own `commit` reads an invalid UTF-8 message (each byte that is not UTF-8 as a character of
a single-byte code page), so the index, the ledger and the changelog hold readable text, and the
same text on every run."""

from __future__ import annotations

import json
import shutil
from typing import Any

from orkestra.mining.reader import decode_token
from tests.mining.gitrepo import GitRepo
from tests.mining.test_redteam2_history import _raw_commit, _stage


def test_bytes_that_are_not_utf8_read_as_a_single_byte_code_page() -> None:
    assert decode_token("r\xe9sum\xe9".encode("latin-1")) == "résumé"
    assert decode_token(b"\x93quoted\x94 \x80 5") == "\u201cquoted\u201d \u20ac 5"
    # UTF-8 in the same message stays UTF-8: only the bytes that are not UTF-8 are read again
    assert decode_token("café ".encode() + b"cr\xe8me") == "café crème"
    assert decode_token(b"undefined \x81 byte") == "undefined \ufffd byte"
    assert decode_token("plain ascii and ünïcode".encode()) == "plain ascii and ünïcode"


def test_legacy_messages_are_readable_in_index_ledger_and_changelog(
    repo: GitRepo, cli: Any
) -> None:
    _stage(repo, "packages/core/a.py")
    latin = _raw_commit(repo, "feat(core): r\xe9sum\xe9 des donn\xe9es\n".encode("latin-1"))
    _stage(repo, "packages/core/b.py")
    bogus = _raw_commit(repo, b"fix(core): na\xefve bytes\n", b"encoding no-such-charset\n")
    _stage(repo, "packages/core/c.py")
    cp1252 = _raw_commit(repo, b"fix(core): \x93quoted\x94 price in \x80\n")
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    found = cli("mine", "candidates", "--limit", "10", cwd=repo.path).json()["candidates"]
    subjects = {row["sha"]: row["subject"] for row in found}
    assert subjects[latin] == "feat(core): résumé des données"
    assert subjects[bogus] == "fix(core): naïve bytes"
    assert subjects[cp1252] == "fix(core): \u201cquoted\u201d price in \u20ac"
    for sha, category in ((latin, "added"), (bogus, "fixed"), (cp1252, "fixed")):
        done = cli("mine", "classify", sha, "--changelog", category, cwd=repo.path)
        assert done.exit_code == 0, done.stderr
    notes = repo.path / "registries/changelog/release_notes.jsonl"
    summaries = {json.loads(line)["summary"] for line in notes.read_text("utf-8").splitlines()}
    assert summaries == {"Résumé des données", "Naïve bytes", "\u201cquoted\u201d price in \u20ac"}
    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    path = repo.path / "packages/core/CHANGELOG.md"
    first = path.read_bytes()
    assert "\ufffd" not in first.decode("utf-8")
    assert "- Résumé des données (" in first.decode("utf-8")
    shutil.rmtree(repo.path / ".orkestra")  # a fresh index reads the same text
    path.unlink()
    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    assert path.read_bytes() == first
