"""Red-team cases for `changelog render --into-existing` on real-shaped hand-written files
(PRODUCT.md §6.7): a byte-order mark, CRLF line endings, no trailing newline."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"


@pytest.fixture
def released(repo: GitRepo, cli: Any) -> GitRepo:
    sha = repo.commit("feat(core): a widget", {"packages/core/w.py": "w\n"})
    assert cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).exit_code == 0
    return repo


def _render(repo: GitRepo, cli: Any) -> bytes:
    args = ("changelog", "render", "--package", "core", "--into-existing")
    result = cli(*args, cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    return (repo.path / CORE).read_bytes()


@pytest.mark.parametrize(
    "original",
    [
        "\ufeff# Changelog\n\n## [0.9.0] - 2020-05-01\n\n- old entry\n",
        "# Changelog\r\n\r\n## [0.9.0] - 2020-05-01\r\n\r\n- old entry\r\n",
        "\ufeff# Changelog\r\n\r\n## [0.9.0] - 2020-05-01\r\n\r\n- old entry",
        "# Changelog\n\n## [0.9.0] - 2020-05-01\n\n- old entry without a final newline",
    ],
    ids=["bom", "crlf", "bom-crlf-no-eol", "no-eol"],
)
def test_into_existing_keeps_bom_crlf_and_is_stable(
    released: GitRepo, cli: Any, original: str
) -> None:
    path = released.path / CORE
    raw = original.encode("utf-8")
    path.write_bytes(raw)
    first = _render(released, cli)
    bom = b"\xef\xbb\xbf" if raw.startswith(b"\xef\xbb\xbf") else b""
    title, rest = raw[len(bom) :].split(b"\n", 1)
    # the mark stays first, the title stays the first line, the rest is kept byte for byte
    assert first.startswith(bom + title + b"\n") and first.endswith(rest)
    assert first.count(b"\xef\xbb\xbf") == len(bom) // 3
    block = first[len(bom + title) + 1 : len(first) - len(rest)]
    assert b"- A widget (" in block
    newline = b"\r\n" if b"\r\n" in raw else b"\n"
    # the block uses the file's own line ending: no mixed endings
    assert block.count(b"\n") == block.count(newline)
    assert _render(released, cli) == first  # rendering again is byte-identical
    sha = released.commit("fix(core): a bug", {"packages/core/b.py": "b\n"})
    assert cli("mine", "classify", sha, "--changelog", "fixed", cwd=released.path).exit_code == 0
    second = _render(released, cli)
    assert second.startswith(bom + title + b"\n") and second.endswith(rest)
    assert b"- A bug (" in second and second.count(b"[Unreleased]") == 1
    assert _render(released, cli) == second
