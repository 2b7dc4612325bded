"""`changelog render` and a hand-written CHANGELOG.md (issue 11 case 10, PRODUCT.md §6.7):
refuse by default, `--into-existing` keeps it byte for byte below a managed block, `--dry-run`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.mining.gitrepo import GitRepo

HISTORY = (
    "# Changelog\n\nAll notable changes to this project will be documented in this file.\n\n"
    "## [0.9.0] - 2020-05-01\n\n### Added\n\n- Hand-written history\u2028kept (abc1234)\n"
    + "".join(f"- old entry {i}\r\n" for i in range(300))
)
CORE = "packages/core/CHANGELOG.md"


def test_a_hand_written_changelog_is_refused(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    path.write_bytes(HISTORY.encode())
    result = cli("changelog", "render", "--all", cwd=released.path)
    assert result.exit_code == 1
    assert CORE in result.stderr and "--into-existing" in result.stderr
    assert path.read_bytes() == HISTORY.encode()
    assert not (released.path / "packages/cli/CHANGELOG.md").exists()  # nothing written at all


def test_dry_run_shows_the_plan_and_writes_nothing(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    path.write_bytes(HISTORY.encode())
    result = cli("changelog", "render", "--all", "--dry-run", cwd=released.path)
    assert result.exit_code == 1
    plan = {r["package"]: r for r in result.json()["changelogs"]}
    assert plan["core"]["action"] == "refuse" and plan["cli"]["action"] == "create"
    assert path.read_bytes() == HISTORY.encode()
    assert not (released.path / "packages/cli/CHANGELOG.md").exists()
    both = ("changelog", "render", "--all", "--dry-run", "--into-existing")
    result = cli(*both, cwd=released.path)
    assert result.exit_code == 0
    assert {r["package"]: r["action"] for r in result.json()["changelogs"]} == {
        "core": "insert-block",
        "cli": "create",
    }
    assert path.read_bytes() == HISTORY.encode()


def test_into_existing_keeps_the_history_byte_for_byte(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    path.write_bytes(HISTORY.encode())
    args = ("changelog", "render", "--package", "core", "--into-existing")
    assert cli(*args, cwd=released.path).exit_code == 0
    text = path.read_bytes().decode()
    title, rest = HISTORY.split("\n", 1)
    assert text.startswith(title + "\n")
    assert text.endswith(rest)  # everything after the title, byte for byte
    block = text[len(title) + 1 : len(text) - len(rest)]
    assert "## [Unreleased]" in block and "- A widget (" in block
    assert "Hand-written" not in block

    # a new release note updates the block only; rendering again changes nothing
    sha = released.commit("fix(core): a bug", {"packages/core/b.py": "b\n"})
    assert cli("mine", "classify", sha, "--changelog", "fixed", cwd=released.path).exit_code == 0
    assert cli("changelog", "render", "--package", "core", cwd=released.path).exit_code == 0
    again = path.read_bytes().decode()
    assert again.startswith(title + "\n") and again.endswith(rest)
    assert "- A bug (" in again and again.count("## [Unreleased]") == 1
    same = cli("changelog", "render", "--package", "core", "--into-existing", cwd=released.path)
    assert same.json()["changelogs"][0]["written"] is False
    assert path.read_bytes().decode() == again


def test_a_file_orkestra_wrote_is_still_rendered_whole(released: GitRepo, cli: Any) -> None:
    assert cli("changelog", "render", "--package", "core", cwd=released.path).exit_code == 0
    path = released.path / CORE
    first = path.read_bytes()
    sha = released.commit("fix(core): a bug", {"packages/core/b.py": "b\n"})
    assert cli("mine", "classify", sha, "--changelog", "fixed", cwd=released.path).exit_code == 0
    assert cli("changelog", "render", "--package", "core", cwd=released.path).exit_code == 0
    second = path.read_bytes()
    assert second != first and b"- A widget (" in second and b"- A bug (" in second
    path.unlink()
    assert cli("changelog", "render", "--package", "core", cwd=released.path).exit_code == 0
    assert path.read_bytes() == second


def test_a_title_only_or_untitled_file(released: GitRepo, cli: Any, tmp_path: Path) -> None:
    path = released.path / CORE
    for original in ("# Notes", "no title here\n"):
        path.write_text(original, encoding="utf-8")
        args = ("changelog", "render", "--package", "core", "--into-existing")
        assert cli(*args, cwd=released.path).exit_code == 0
        text = path.read_text(encoding="utf-8")
        assert "- A widget (" in text
        if original.startswith("#"):
            assert text.startswith("# Notes\n\n<!-- orkestra:changelog:begin")
        else:
            assert text.endswith("\n" + original) and text.startswith("<!-- orkestra")


def test_an_edit_inside_the_managed_block_is_refused_not_lost(released: GitRepo, cli: Any) -> None:
    path = released.path / CORE
    path.write_bytes(HISTORY.encode())
    args = ("changelog", "render", "--package", "core")
    assert cli(*args, "--into-existing", cwd=released.path).exit_code == 0
    rendered = path.read_text(encoding="utf-8")
    # text added around the block is the author's and stays; inside it, it would be lost
    around = rendered.replace(
        "<!-- orkestra:changelog:begin", "Intro.\n\n<!-- orkestra:changelog:begin"
    )
    around = around.replace(
        "<!-- orkestra:changelog:end -->\n", "<!-- orkestra:changelog:end -->\nOutro.\n"
    )
    path.write_text(around, encoding="utf-8")
    sha = released.commit("fix(core): a bug", {"packages/core/b.py": "b\n"})
    assert cli("mine", "classify", sha, "--changelog", "fixed", cwd=released.path).exit_code == 0
    assert cli(*args, cwd=released.path).exit_code == 0
    updated = path.read_text(encoding="utf-8")
    assert "Intro.\n" in updated and "Outro.\n" in updated and "- A bug (" in updated

    inside = updated.replace("- A bug (", "- A bug, see the migration guide (")
    path.write_text(inside, encoding="utf-8")
    for extra in ((), ("--into-existing",)):
        refused = cli(*args, *extra, cwd=released.path)
        assert refused.exit_code == 1, refused.stdout
        assert "managed block was edited" in refused.stderr and "--force" in refused.stderr
        line = inside.split("\n").index(next(x for x in inside.split("\n") if "migration" in x))
        assert f"line {line + 1}:" in refused.stderr
    assert path.read_text(encoding="utf-8") == inside
    dry = cli(*args, "--dry-run", cwd=released.path)
    assert dry.exit_code == 1 and dry.json()["changelogs"][0]["action"] == "refuse"
    assert cli(*args, "--force", cwd=released.path).exit_code == 0
    assert path.read_text(encoding="utf-8") == updated


def test_a_block_rendered_before_it_had_a_seal_is_updated_and_sealed(
    released: GitRepo, cli: Any
) -> None:
    from orkestra.mining.changelog_file import _SEAL

    path = released.path / CORE
    path.write_bytes(HISTORY.encode())
    args = ("changelog", "render", "--package", "core")
    assert cli(*args, "--into-existing", cwd=released.path).exit_code == 0
    sealed_text = path.read_text(encoding="utf-8")
    unsealed = _SEAL.sub("", sealed_text).replace("-->\n\n", "-->\n", 1)
    assert not _SEAL.search(unsealed)
    # what an earlier version wrote, rendered since with other summaries: no edit can be told
    path.write_text(unsealed.replace("- A widget (", "- Widget (old wording) ("), encoding="utf-8")
    assert cli(*args, cwd=released.path).exit_code == 0
    assert path.read_text(encoding="utf-8") == sealed_text
