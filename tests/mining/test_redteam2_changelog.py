"""Red-team cases for `changelog render --into-existing` on real-shaped hand-written files
(PRODUCT.md §6.7): a byte-order mark, CRLF line endings, no trailing newline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"


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


def test_link_references_come_from_the_origin_remote(repo: GitRepo, cli: Any) -> None:
    """Keep a Changelog's `[1.2.3]: <compare url>` lines (§6.7), never a credential."""
    repo.git("remote", "add", "origin", "https://ada:s3cret@github.com/acme/demo.git")
    first = repo.commit("feat(core): first", {"packages/core/a.py": "a\n"})
    repo.git("tag", "v0.1.0")
    second = repo.commit("fix(core): second", {"packages/core/b.py": "b\n"})
    repo.git("tag", "v0.2.0")
    repo.git("tag", "core@0.3.0")  # a scoped tag: core's releases are its own from now on
    third = repo.commit("feat(core): third", {"packages/core/c.py": "c\n"})
    for sha, category in ((first, "added"), (second, "fixed"), (third, "added")):
        result = cli("mine", "classify", sha, "--changelog", category, cwd=repo.path)
        assert result.exit_code == 0, result.stderr
    assert cli("changelog", "render", "--package", "core", cwd=repo.path).exit_code == 0
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert text.endswith(
        "\n\n[Unreleased]: https://github.com/acme/demo/compare/core@0.3.0...HEAD\n"
        "[0.3.0]: https://github.com/acme/demo/releases/tag/core@0.3.0\n"
    ), text  # scoped tags replace the plain ones for core
    assert "s3cret" not in text and "ada@" not in text
    repo.git("tag", "-d", "core@0.3.0")
    assert cli("changelog", "render", "--package", "core", cwd=repo.path).exit_code == 0
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert text.endswith(
        "\n\n[Unreleased]: https://github.com/acme/demo/compare/v0.2.0...HEAD\n"
        "[0.2.0]: https://github.com/acme/demo/compare/v0.1.0...v0.2.0\n"
        "[0.1.0]: https://github.com/acme/demo/releases/tag/v0.1.0\n"
    ), text
    assert text.index("## [0.2.0]") < text.index("## [0.1.0]") < text.index("[Unreleased]: ")


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        ("git@github.com:acme/demo.git", "https://github.com/acme/demo"),
        ("ssh://git@github.com:22/acme/demo", "https://github.com/acme/demo"),
        (
            "https://token@gitlab.example.com/group/sub/app.git",
            "https://gitlab.example.com/group/sub/app",
        ),
        ("https://bitbucket.org/acme/demo.git", None),  # a host whose URL shapes are not known
        ("/srv/git/demo.git", None),
        ("", None),
        ("git@github.com:onlyname", None),
    ],
)
def test_web_links_of_remote_urls(remote: str, expected: str | None) -> None:
    from orkestra.mining.changelog_links import web_links

    found = web_links(remote)
    assert (found.base if found else None) == expected
    if found is not None and "gitlab" in found.base:
        assert found.compare("a", "b").endswith("/-/compare/a...b")


@pytest.mark.parametrize(
    ("head", "rest"),
    [
        ("<!-- markdownlint-disable MD024 -->\n\n# Changelog\n", "\n## [0.9.0]\n\n- old\n"),
        ("Changelog\n=========\n", "\n## 0.9.0\n\n- old\n"),
        ("\n<!-- keep -->\n# Changelog\r\n", "\r\n## 0.9.0\r\n"),
    ],
    ids=["markdownlint-comment", "setext-title", "comment-then-crlf-title"],
)
def test_the_block_goes_after_the_title_not_above_it(
    released: GitRepo, cli: Any, head: str, rest: str
) -> None:
    path = released.path / CORE
    path.write_bytes((head + rest).encode())
    text = _render(released, cli).decode()
    assert text.startswith(head) and text.endswith(rest)
    assert "- A widget (" in text[len(head) : len(text) - len(rest)]
    assert _render(released, cli).decode() == text


def test_a_note_quoting_the_block_markers_keeps_the_file_stable(repo: GitRepo, cli: Any) -> None:
    from orkestra.mining.changelog_file import END

    sha = repo.commit("fix(core): markers", {"packages/core/m.py": "m\n"})
    args = ("mine", "classify", sha, "--changelog", "fixed", "--summary", f"Stop at {END} early")
    assert cli(*args, cwd=repo.path).exit_code == 0
    path = repo.path / CORE
    path.write_bytes(b"# Changelog\n\n- old\n")
    first = _render(repo, cli)
    assert first.count(END.encode()) == 1
    assert _render(repo, cli) == first and _render(repo, cli) == first


_LINE = st.sampled_from(
    ["# Changelog", "Changelog", "=========", "<!-- markdownlint-disable MD024 -->", "", "## 1.0.0",
     "- an entry", "text with <!-- orkestra:changelog:begin inside", "\ufeff", "# Other"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_LINE, max_size=8),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.booleans(),
    st.text(alphabet="ab -\n", max_size=30),
)
def test_place_keeps_the_hand_written_text_and_is_stable(
    lines: list[str], newline: str, bom: bool, final: bool, note: str
) -> None:
    """Any hand-written file: inserting the block keeps every other byte, rendering the same
    body again changes nothing, a new body changes only the block."""
    from orkestra.mining.changelog_file import BEGIN, END, place

    old = ("\ufeff" if bom else "") + newline.join(lines) + (newline if final else "")
    assume(BEGIN not in old and END not in old)
    header = "# Changelog\n\nHEADER\n"
    first = place(old, header, "\n## [Unreleased]\n\n- " + note + "\n", into_existing=True)
    assert first.text is not None and first.action == "insert-block"
    assert first.text.startswith("\ufeff") == old.startswith("\ufeff")  # the mark stays first
    block = first.text[first.text.index(BEGIN) : first.text.index(END)]
    assert block.count("\r\n") == (block.count("\n") if old.split("\n", 1)[0].endswith("\r") else 0)
    start, end = first.text.index(BEGIN), first.text.index(END) + len(END)
    after = first.text[end:]
    after = after[len(newline) :] if after.startswith(newline) else after.removeprefix("\n")
    kept = first.text[:start].rstrip("\r\n") + after
    assert kept.replace("\r", "").replace("\n", "") == old.replace("\r", "").replace("\n", "")
    again = place(first.text, header, "\n## [Unreleased]\n\n- " + note + "\n", into_existing=True)
    assert again.text == first.text
    other = place(first.text, header, "\n## [Unreleased]\n\n- other\n", into_existing=True)
    assert other.text is not None
    assert other.text[: other.text.index(BEGIN)] == first.text[:start]
    assert other.text[other.text.index(END) :].endswith(
        first.text[first.text.index(END) + len(END) :]
    )


@pytest.mark.parametrize(
    "note",
    [
        "Releases below `{begin}` are written by Orkestra.\n\nHAND-WRITTEN 2.0 NOTES\n",
        "```\n{begin}\nHAND-WRITTEN 2.0 NOTES\n{end}\n```\n",
    ],
)
def test_a_marker_the_changelog_s_author_names_is_not_the_block(note: str) -> None:
    """The text between a marker named in prose (or shown in a fence) and the real block is the
    author's: re-rendering replaces the block alone."""
    from orkestra.mining.changelog_file import BEGIN, END, place

    header = "# Changelog\n\nHEADER\n"
    first = place("# Changelog\n\nOld history.\n", header, "\n- one\n", into_existing=True)
    assert first.text is not None
    at = first.text.index(BEGIN)
    old = first.text[:at] + note.format(begin=BEGIN, end=END) + "\n" + first.text[at:]
    again = place(old, header, "\n- two\n", into_existing=True)
    assert again.action == "update-block" and again.text is not None
    # the block's seal is a digest of its text: it changes with it
    assert _unsealed(again.text.replace("- two", "- one")) == _unsealed(old)
    assert _unsealed(again.text) != again.text


def _unsealed(text: str) -> str:
    import re

    return re.sub(r"orkestra:changelog:digest [0-9a-f]{16}", "orkestra:changelog:digest", text)


def test_all_leaves_a_hand_written_root_changelog_that_names_the_marker_alone(
    tmp_path: Path,
) -> None:
    """`--all` takes the root package when its CHANGELOG.md holds Orkestra's block: a line of
    its own, not the marker named in the author's prose."""
    from types import SimpleNamespace

    from orkestra.mining.changelog import _every
    from orkestra.mining.changelog_file import BEGIN, END

    config = SimpleNamespace(root_package="demo", mining=SimpleNamespace(packages={"lib": "lib"}))
    known = {"demo": "CHANGELOG.md", "lib": "lib/CHANGELOG.md"}
    log = tmp_path / "CHANGELOG.md"
    log.write_text(f"# Changelog\n\nPackage changelogs start with `{BEGIN}`.\n", encoding="utf-8")
    assert _every(tmp_path, config, known, {}) == ["lib"]
    log.write_text(f"# Changelog\n\n{BEGIN}\n- one\n{END}\n", encoding="utf-8")
    assert _every(tmp_path, config, known, {}) == ["demo", "lib"]
