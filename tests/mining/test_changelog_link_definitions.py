"""`changelog render --into-existing` on a hand-written CHANGELOG.md that ends with its own
link reference definitions (`[Unreleased]: https://…/compare/v0.9.0...HEAD`, Keep a Changelog's
style): the managed block leaves out the labels the file already defines, so no label is
defined twice (the block's copy, first in the file, silently took over the author's link), and
the author's definitions stay byte for byte."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from orkestra.mining.changelog_file import place
from tests.mining.gitrepo import GitRepo

HAND = (
    "# Changelog\n\nAll notable changes to this project will be documented in this file.\n\n"
    "## [Unreleased]\n\n## [0.9.0] - 2025-01-02\n### Added\n- Initial import.\n\n"
    "## [0.8.0] - 2024-12-01\n### Fixed\n- Old bug.\n\n"
    "[unreleased]: https://github.com/acme/demo/compare/v0.9.0...HEAD\n"
    "[0.9.0]: https://github.com/acme/demo/compare/v0.8.0...v0.9.0\n"
    "[0.8.0]: https://github.com/acme/demo/releases/tag/v0.8.0\n"
)
BODY = (
    "## [Unreleased]\n\n### Fixed\n\n- A crash (abc1234)\n\n"
    "## [1.0.0] - 2026-01-01\n\n### Added\n\n- A widget (def5678)\n\n"
    "[Unreleased]: https://github.com/acme/demo/compare/v1.0.0...HEAD\n"
    "[1.0.0]: https://github.com/acme/demo/compare/v0.9.0...v1.0.0\n"
)
_DEFINITION = re.compile(r"^\[([^\]]+)\]: ", re.MULTILINE)


def _labels(text: str) -> Counter[str]:
    return Counter(label.casefold() for label in _DEFINITION.findall(text))


def test_the_block_leaves_out_labels_the_file_defines() -> None:
    placed = place(HAND, "# Changelog\n\nOrkestra's header\n", BODY, into_existing=True)
    assert placed.action == "insert-block" and placed.text is not None
    assert max(_labels(placed.text).values()) == 1
    assert placed.text.endswith(HAND.split("\n", 1)[1])  # the author's text, byte for byte
    assert "[1.0.0]: https://github.com/acme/demo/compare/v0.9.0...v1.0.0\n" in placed.text
    again = place(placed.text, "# Changelog\n\nOrkestra's header\n", BODY, into_existing=True)
    assert again.action == "update-block" and again.text == placed.text


def test_render_into_existing_defines_each_label_once(repo: GitRepo, cli: Any) -> None:
    repo.git("remote", "add", "origin", "git@github.com:acme/demo.git")
    path = repo.path / "packages/core/CHANGELOG.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(HAND.replace("\n", "\r\n").encode())
    repo.git("add", ".")
    repo.commit("docs: hand-written changelog")
    repo.tag("v0.9.0")
    feat = repo.commit("feat(core): a widget", {"packages/core/w.py": "w\n"})
    repo.tag("v1.0.0")
    fix = repo.commit("fix(core): a crash", {"packages/core/c.py": "c\n"})
    for sha, category in ((feat, "added"), (fix, "fixed")):
        assert cli("mine", "classify", sha, "--changelog", category, cwd=repo.path).exit_code == 0
    args = ("changelog", "render", "--package", "core", "--into-existing")
    result = cli(*args, cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    text = path.read_bytes().decode()
    assert text.endswith(HAND.split("\n", 1)[1].replace("\n", "\r\n"))
    assert max(_labels(text).values()) == 1, _labels(text)
    assert "[1.0.0]: https://github.com/acme/demo/compare/v0.9.0...v1.0.0\r\n" in text
    first = path.read_bytes()
    assert cli(*args, cwd=repo.path).exit_code == 0
    assert path.read_bytes() == first  # a second run changes nothing
    # a later release updates the block: still one definition a label
    repo.tag("v1.1.0")
    late = repo.commit("feat(core): a gadget", {"packages/core/g.py": "g\n"})
    assert cli("mine", "classify", late, "--changelog", "added", cwd=repo.path).exit_code == 0
    assert cli(*args, cwd=repo.path).exit_code == 0
    text = path.read_bytes().decode()
    assert max(_labels(text).values()) == 1, _labels(text)
    assert "[1.1.0]: https://github.com/acme/demo/compare/v1.0.0...v1.1.0\r\n" in text
