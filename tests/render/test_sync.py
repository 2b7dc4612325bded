"""The writer through `sync`: idempotency, --check, --dry-run, pruning, ownership, path safety."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import (
    ConflictError,
    InputError,
    UnsafePathError,
    ValidationFailed,
    WriteFailed,
)
from orkestra.registry.render_lock import mark_line
from orkestra.render import manifest, writer
from orkestra.render.sync import sync
from tests.conftest import write
from tests.render.conftest import put

AGENT = ".claude/agents/example-agent.md"


def tree(root: Path) -> dict[str, bytes]:
    """Every file below root (symlinks as their target text), for "nothing changed" checks."""
    out: dict[str, bytes] = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel.startswith(".orkestra/"):  # derived caches (the parse cache), not outputs
                continue
            out[rel] = str(path.readlink()).encode() if path.is_symlink() else path.read_bytes()
    return out


def test_first_sync_creates_then_second_writes_nothing(scaffold: Path) -> None:
    first = sync(scaffold)
    assert first.written == 4
    assert AGENT in first.plan.created
    assert manifest.LOCK_PATH in first.plan.created
    before = {p: (scaffold / p).stat().st_mtime_ns for p in tree(scaffold)}
    second = sync(scaffold)
    assert second.written == 0
    assert not second.plan.changes
    assert {p: (scaffold / p).stat().st_mtime_ns for p in tree(scaffold)} == before


def test_lock_lists_owned_files(scaffold: Path) -> None:
    sync(scaffold)
    lock = json.loads((scaffold / manifest.LOCK_PATH).read_text())
    assert lock["generator"] == "orkestra" and lock["version"] == 2
    paths = [".claude/agents/example-agent.md", ".claude/skills/example-skill/SKILL.md",
             "GROUND_TRUTHS.md"]  # fmt: skip
    assert lock["files"] == {
        path: {
            "target": "claude",
            "sha256": hashlib.sha256((scaffold / path).read_bytes()).hexdigest(),
        }
        for path in paths
    }


def test_dry_run_and_check_write_nothing(scaffold: Path) -> None:
    before = tree(scaffold)
    plan = sync(scaffold, mode="dry-run")
    assert plan.ok and plan.written == 0 and len(plan.plan.created) == 4
    check = sync(scaffold, mode="check")
    assert not check.ok
    assert tree(scaffold) == before


def test_check_passes_after_sync_and_fails_on_drift(scaffold: Path) -> None:
    sync(scaffold)
    assert sync(scaffold, mode="check").ok
    (scaffold / AGENT).write_text("edited by hand\n")
    check = sync(scaffold, mode="check")  # edited since it was written: a conflict, not an update
    assert not check.ok and check.plan.conflicts == [AGENT] and check.plan.updated == []


def test_pruning_deletes_owned_files_whose_source_is_gone(scaffold: Path) -> None:
    put(
        scaffold,
        "registries/agents/second.yaml",
        {"name": "second", "description": "Second agent.", "prompt": "Hi.\n"},
    )
    sync(scaffold)
    assert (scaffold / ".claude/agents/second.md").is_file()
    (scaffold / "registries/agents/second.yaml").unlink()
    report = sync(scaffold)
    assert report.plan.deleted == [".claude/agents/second.md"]
    assert not (scaffold / ".claude/agents/second.md").exists()
    assert ".claude/agents/second.md" not in manifest.load(scaffold)


def test_pruned_skill_folder_is_removed_but_hand_written_files_survive(scaffold: Path) -> None:
    sync(scaffold)
    mine = write(scaffold, ".claude/agents/mine.md", "---\nname: mine\n---\nhand-written\n")
    skill_file = "registries/skills/project/example-skill.yaml"
    (scaffold / skill_file).unlink()
    put(
        scaffold,
        "registries/scopes.yaml",
        {"scopes": {"example": {"description": "Example scope", "primary_skills": []}}},
    )
    report = sync(scaffold)
    assert report.plan.deleted == [".claude/skills/example-skill/SKILL.md"]
    assert not (scaffold / ".claude/skills/example-skill").exists()
    assert (scaffold / ".claude/skills").is_dir() or not (scaffold / ".claude/skills").exists()
    assert mine.read_text() == "---\nname: mine\n---\nhand-written\n"


def test_existing_file_not_written_by_orkestra_is_a_conflict(scaffold: Path) -> None:
    write(scaffold, AGENT, "mine\n")
    before = tree(scaffold)
    plan = sync(scaffold, mode="dry-run")
    assert plan.plan.conflicts == [AGENT]
    with pytest.raises(ConflictError) as err:
        sync(scaffold)
    assert err.value.file == AGENT
    assert "did not write" in err.value.message and "--force" in err.value.message
    assert tree(scaffold) == before  # nothing written, not even the other files
    sync(scaffold, force=True)
    assert (
        (scaffold / AGENT)
        .read_text()
        .startswith(f"---\n# {mark_line('agent example-agent')}\nname: example-agent\n")
    )
    assert AGENT in manifest.load(scaffold)


def test_identical_unowned_file_is_adopted_without_a_write(scaffold: Path) -> None:
    sync(scaffold)
    (scaffold / manifest.LOCK_PATH).unlink()  # e.g. a crash before the lock was written
    report = sync(scaffold)
    assert report.plan.created == [manifest.LOCK_PATH]
    assert report.plan.conflicts == []
    assert AGENT in manifest.load(scaffold)


def test_symlinked_output_folder_leaving_the_project_is_refused(
    scaffold: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (scaffold / ".claude").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError) as err:
        sync(scaffold)
    assert err.value.file == ".claude"
    assert "symlink" in err.value.message
    assert list(outside.iterdir()) == []
    assert not (scaffold / manifest.LOCK_PATH).exists()


def test_tampered_lock_cannot_delete_outside_the_project(scaffold: Path, tmp_path: Path) -> None:
    victim = write(tmp_path, "victim.txt", "keep me\n")
    write(
        scaffold,
        manifest.LOCK_PATH,
        json.dumps({"files": {"../victim.txt": "claude", "/etc/hosts": "claude"}}),
    )
    with pytest.raises(ValidationFailed, match="ORK046"):  # reported, never acted on
        sync(scaffold, force=True)
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("bad", ["../x", "/abs", "a//b", "a/./b", "a\\b", ""])
def test_planned_paths_must_stay_inside(bad: str) -> None:
    with pytest.raises(UnsafePathError):
        writer.check_relative(bad)


def test_validation_errors_stop_sync_with_file_and_line(scaffold: Path) -> None:
    agent = "registries/agents/example-agent.yaml"
    text = (scaffold / agent).read_text().replace("- Glob", "- Teleport")
    (scaffold / agent).write_text(text)
    with pytest.raises(ValidationFailed) as err:
        sync(scaffold)
    line = text.splitlines().index("  - Teleport") + 1  # the reference's own line
    assert err.value.file == agent and err.value.line == line
    assert "ORK025" in err.value.message and "1 validation error" in err.value.message
    assert not (scaffold / ".claude").exists()


def test_warnings_do_not_stop_sync(scaffold: Path) -> None:
    skill = "registries/skills/project/example-skill.yaml"
    text = (scaffold / skill).read_text().replace("Use when you want to see", "It shows")
    (scaffold / skill).write_text(text)
    report = sync(scaffold)
    assert report.warnings >= 1 and report.written > 0


def test_crash_mid_write_leaves_no_partial_file(
    scaffold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.replace
    calls = {"n": 0}

    def flaky(src: str, dst: str) -> None:
        if "/.claude/" in str(dst):  # the outputs' renames (not the derived caches' nor the lock's)
            calls["n"] += 1
            if calls["n"] == 2:
                raise OSError("disk on fire")
        real(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(WriteFailed, match="disk on fire"):
        sync(scaffold)
    files = tree(scaffold)
    assert not [p for p in files if p.endswith(".tmp")]  # temporary files cleaned up
    assert set(manifest.load(scaffold)) == {p for p in files if p.startswith(".claude/")}
    monkeypatch.setattr(os, "replace", real)
    rendered = sync(scaffold, mode="dry-run").plan.outputs
    for path in files:
        if path.startswith(".claude/"):
            assert files[path] == rendered[path].data  # whole files only
    assert sync(scaffold).plan.conflicts == []  # the survivor is adopted, not a conflict


def test_vendor_link_switching_to_copy_replaces_the_link(tmp_path: Path, rich: Path) -> None:
    sync(rich)
    link = rich / ".claude/skills/acme-pdf"
    assert link.is_symlink()
    assert (link / "SKILL.md").read_text().startswith("---\nname: acme-pdf")
    config = (rich / "registries/orkestra.yaml").read_text()
    config = config.replace("provider: acme\n", "provider: acme\n    link: copy\n")
    (rich / "registries/orkestra.yaml").write_text(config)
    report = sync(rich)
    assert ".claude/skills/acme-pdf" in report.plan.deleted
    assert not link.is_symlink() and (link / "SKILL.md").is_file()
    assert (rich / "vendor/linked/acme-pdf/SKILL.md").is_file()  # the source is untouched
    assert sync(rich).written == 0


def test_claude_md_block_is_replaced_and_the_rest_kept(rich: Path) -> None:
    sync(rich)
    path = rich / "CLAUDE.md"
    text = path.read_text()
    assert text.startswith("# My project\n\nHand-written intro.\n\n<!-- orkestra:begin")
    path.write_text(text + "\nMore hand-written text.\n")
    put(
        rich,
        "registries/agents/plain-helper.yaml",
        {"name": "plain-helper", "description": "Renamed purpose.", "prompt": "x\n"},
    )
    sync(rich)
    text = path.read_text()
    assert "Renamed purpose." in text and "Helps plainly." not in text
    assert text.endswith("<!-- orkestra:end -->\n\nMore hand-written text.\n")
    assert text.count("orkestra:begin") == 1
    assert "CLAUDE.md" not in manifest.load(rich)  # shared, never owned, never pruned


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.replace("render:\n  claude_md: true", "render:\n  claude_md: false"),
        lambda c: c.replace("- claude\n", "- agents-md\n"),
        lambda c: c.replace("claude_md: true", "claude_md: true\n  claude_md_path: docs/AI.md"),
    ],
    ids=["claude-md-off", "claude-target-removed", "path-moved"],
)
def test_claude_md_s_block_turned_off_is_taken_out_and_the_users_text_kept(
    rich: Path, change: Any
) -> None:
    """§4: Orkestra takes out only its own block (between its markers); the user's text
    around it stays, and the next sync is a no-op."""
    sync(rich)
    path = rich / "CLAUDE.md"
    path.write_text(path.read_text() + "\nAfter the block.\n")
    config = rich / "registries/orkestra.yaml"
    before = config.read_text()
    config.write_text(change(before))
    assert config.read_text() != before
    report = sync(rich)
    assert "CLAUDE.md" in report.plan.updated
    assert path.read_text() == "# My project\n\nHand-written intro.\n\nAfter the block.\n"
    assert sync(rich).written == 0 and sync(rich, mode="check").ok


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.replace("render:\n  claude_md: true", "render:\n  claude_md: false"),
        lambda c: c.replace("claude_md: true", "claude_md: true\n  claude_md_path: docs/AI.md"),
    ],
    ids=["claude-md-off", "path-moved"],
)
def test_sync_of_the_claude_target_alone_takes_its_stale_block_out_as_a_full_sync_does(
    rich: Path, change: Any
) -> None:
    """`sync --target claude` after `render.claude_md` is turned off (or moved): the block is
    the claude target's own output, so it goes as on a full sync (the user's text kept), and
    `--check`/`--dry-run` of that target report it; before, only a full sync took it out and
    `sync --target claude --check` passed while `sync --check` failed."""
    sync(rich)
    path = rich / "CLAUDE.md"
    path.write_text(path.read_text() + "\nAfter the block.\n")
    config = rich / "registries/orkestra.yaml"
    config.write_text(change(config.read_text()))
    before = tree(rich)
    for mode in ("check", "dry-run"):
        report = sync(rich, mode=mode, target="claude")
        assert report.plan.updated == ["CLAUDE.md"] and report.ok == (mode == "dry-run")
    assert tree(rich) == before
    assert "CLAUDE.md" in sync(rich, target="claude").plan.updated
    assert path.read_text() == "# My project\n\nHand-written intro.\n\nAfter the block.\n"
    assert sync(rich, mode="check").ok and sync(rich, mode="check", target="claude").ok
    assert sync(rich).written == 0


def test_sync_of_another_target_alone_leaves_claude_md_s_stale_block(rich: Path) -> None:
    """Only the claude target's own run takes its block out: `sync --target agents-md` writes
    AGENTS.md alone, and a block it does not render there is never taken out of a file it shares
    with CLAUDE.md's setting (`claude_md_path: AGENTS.md`)."""
    config = rich / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("- claude\n", "- claude\n  - agents-md\n"))
    sync(rich)
    config.write_text(config.read_text().replace("claude_md: true", "claude_md: false"))
    before = (rich / "CLAUDE.md").read_bytes()
    report = sync(rich, target="agents-md")
    assert "CLAUDE.md" not in report.plan.updated and (rich / "CLAUDE.md").read_bytes() == before
    agents = (rich / "AGENTS.md").read_bytes()
    config.write_text(config.read_text() + "  claude_md_path: AGENTS.md\n")
    assert "AGENTS.md" not in sync(rich, target="claude").plan.updated
    assert (rich / "AGENTS.md").read_bytes() == agents


def test_a_symlinked_agents_md_of_an_unconfigured_target_is_left_alone(rich: Path) -> None:
    """AGENTS.md -> CLAUDE.md (a common setup): Orkestra never wrote through the link, so there
    is no block of its own to take out there, and the sync goes on."""
    (rich / "AGENTS.md").symlink_to("CLAUDE.md")
    sync(rich)
    assert (rich / "AGENTS.md").is_symlink()
    assert "<!-- orkestra:begin" in (rich / "CLAUDE.md").read_text()
    assert sync(rich).written == 0


@pytest.mark.parametrize("rel", ["CLAUDE.md", ".claude/agents/plain-helper.md"])
def test_a_hard_linked_output_is_refused_before_anything_is_written(rich: Path, rel: str) -> None:
    """CLAUDE.md (edited in place) or an owned output hard-linked elsewhere: the rename would
    split the link, the other name silently stale; the whole plan is refused first."""
    sync(rich)
    put(rich, "registries/agents/plain-helper.yaml",
        {"name": "plain-helper", "description": "Renamed purpose.", "prompt": "x\n"})  # fmt: skip
    os.link(rich / rel, rich.parent / "twin")
    before = tree(rich)
    with pytest.raises(ConflictError, match=f"refusing to rewrite '{rel}'.*hard link"):
        sync(rich)
    assert tree(rich) == before
    (rich.parent / "twin").unlink()
    assert sync(rich).written


BUNDLED = Path(__file__).parents[2] / "templates"


@pytest.mark.parametrize(
    ("template", "change", "shown"),
    [
        ("shared/instructions.md.j2", lambda t: t + "<!-- footer -->\n", "'<!-- footer -->'"),
        ("claude/claude_md_block.md.j2", lambda t: "Header\n" + t, "'Header'"),
        ("shared/instructions.md.j2", lambda t: t.replace("<!-- orkestra:end -->", ""), None),
    ],
    ids=["footer", "header", "no-end-marker"],
)
def test_a_block_template_rendering_outside_its_markers_is_a_clear_error(
    rich: Path, template: str, change: Any, shown: str | None
) -> None:
    """Text outside the markers would be taken for the user's on the next run and added again,
    growing the file on every sync: the override is refused, naming it, and nothing is written."""
    config = (rich / "registries/orkestra.yaml").read_text()
    (rich / "registries/orkestra.yaml").write_text(
        config.replace("  - claude\n", "  - claude\n  - agents-md\n  - copilot\n", 1)
    )
    sync(rich)
    override = rich / "templates" / template
    override.parent.mkdir(parents=True, exist_ok=True)
    override.write_text(change((BUNDLED / template).read_text()))
    before = tree(rich)
    with pytest.raises(InputError) as info:
        sync(rich)
    assert info.value.file == f"templates/{template}"
    if shown is None:
        assert "without its orkestra:begin/end markers" in info.value.message
    else:
        assert "renders text outside the orkestra:begin/end markers of" in info.value.message
        assert shown in info.value.message
    assert tree(rich) == before


def test_blank_lines_a_block_template_renders_around_its_markers_are_not_kept(
    rich: Path,
) -> None:
    """Blanks outside the markers are dropped: kept, they would stay in the user's text and be
    added again each time the override comes back."""
    sync(rich)
    bundled = (rich / "CLAUDE.md").read_bytes()
    override = rich / "templates" / "claude" / "claude_md_block.md.j2"
    override.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        override.write_text("\n \n" + (BUNDLED / "claude/claude_md_block.md.j2").read_text()
                            + "   \n\t\n")  # fmt: skip
        sync(rich)
        assert (rich / "CLAUDE.md").read_bytes() == bundled
        override.unlink()
        sync(rich)
        assert (rich / "CLAUDE.md").read_bytes() == bundled


@pytest.mark.parametrize("inside", [True, False], ids=["to-agents-md", "to-outside"])
def test_symlinked_claude_md_is_refused_never_read_or_replaced(
    rich: Path, tmp_path: Path, inside: bool
) -> None:
    target = rich / "AGENTS.md" if inside else tmp_path / "outside.md"
    target.write_text("# secret or shared text\n")
    (rich / "CLAUDE.md").unlink()
    (rich / "CLAUDE.md").symlink_to(target)
    before = tree(rich)
    for mode in ("write", "dry-run", "check"):
        with pytest.raises(ValidationFailed) as info:  # ORK049: validate says it first
            sync(rich, mode=mode)  # type: ignore[arg-type]
        assert info.value.file == "CLAUDE.md" and "claude_md_path" in info.value.message
    assert tree(rich) == before and (rich / "CLAUDE.md").is_symlink()
    assert target.read_text() == "# secret or shared text\n"


def test_a_block_that_lost_its_end_marker_never_reaches_an_example_further_on(
    rich: Path,
) -> None:
    """With the block's end marker gone, the end marker of an example in a fence further down
    was taken for it: every hand-written line in between was replaced by the block. Validation
    (ORK049) stops the sync at the marker's line, before anything is rendered."""
    sync(rich)
    path = rich / "CLAUDE.md"
    text = path.read_text()
    head, _, rest = text.partition("<!-- orkestra:end -->\n")
    broken = (
        head + "\n## Our conventions\n\nHand-written rules.\n\n```md\n<!-- orkestra:begin -->\n"
        "(generated)\n<!-- orkestra:end -->\n```\n" + rest
    )
    path.write_text(broken)
    with pytest.raises(ValidationFailed) as info:
        sync(rich)
    begin = head[: head.find("<!-- orkestra:begin")].count("\n") + 1
    assert (info.value.file, info.value.line) == ("CLAUDE.md", begin)
    assert "no end marker" in info.value.message
    assert path.read_text() == broken


def test_a_second_copy_of_the_block_is_refused_not_left_stale(rich: Path) -> None:
    """A merge that kept both sides' blocks: only the first was ever rewritten, the second's
    roster (agents long gone) stayed for every agent to read."""
    sync(rich)
    path = rich / "CLAUDE.md"
    text = path.read_text()
    block = text[text.find("<!-- orkestra:begin") : text.find("<!-- orkestra:end -->") + 21]
    doubled = f"{text}\nMine.\n\n{block.replace('plain-helper', 'old-helper')}\n"
    path.write_text(doubled)
    with pytest.raises(ValidationFailed) as info:
        sync(rich)
    second = doubled.rfind("<!-- orkestra:begin")
    assert (info.value.file, info.value.line) == ("CLAUDE.md", doubled.count("\n", 0, second) + 1)
    assert "block twice" in info.value.message and path.read_text() == doubled
    path.write_text(f"{text}\nMine.\n\n```md\n{block}\n```\n")  # shown in a fence: fine
    sync(rich)


def test_undecodable_claude_md_is_a_clean_error(rich: Path) -> None:
    (rich / "CLAUDE.md").write_bytes(b"\xff\xfe# notes\n")
    with pytest.raises(InputError) as info:
        sync(rich)
    assert info.value.file == "CLAUDE.md" and info.value.line == 1


def test_copied_vendor_skill_switching_to_link(rich: Path) -> None:
    sync(rich)
    folder = rich / ".claude/skills/other-csv"
    assert (folder / "references/notes.md").is_file() and not folder.is_symlink()
    config = (rich / "registries/orkestra.yaml").read_text().replace("link: copy", "link: symlink")
    (rich / "registries/orkestra.yaml").write_text(config)
    report = sync(rich)
    assert ".claude/skills/other-csv" in report.plan.created
    assert folder.is_symlink() and (folder / "SKILL.md").is_file()
    assert sync(rich).written == 0


def test_name_clash_between_core_and_vendor_skill_names_both_files(rich: Path) -> None:
    write(
        rich,
        "vendor/linked/schema-migration/SKILL.md",
        "---\nname: schema-migration\ndescription: Clash. Use when clashing.\n---\nbody\n",
    )
    with pytest.raises(ValidationFailed) as err:
        sync(rich)
    assert "ORK010" in err.value.message
    assert "registries/skills/domains/schema-migration.yaml" in str(err.value)
    assert "vendor/linked/schema-migration/SKILL.md" in str(err.value)
    assert not (rich / ".claude").exists()


def test_description_over_the_hard_limit_is_reported_not_cut(scaffold: Path) -> None:
    skill = "registries/skills/project/example-skill.yaml"
    text = (scaffold / skill).read_text()
    (scaffold / skill).write_text(
        text.replace("Example workflow skill.", "Example workflow skill. " + "x" * 1100)
    )
    with pytest.raises(ValidationFailed) as err:
        sync(scaffold)
    assert "ORK044" in err.value.message and err.value.file == skill
    assert not (scaffold / ".claude").exists()


def test_copied_vendor_skill_with_extension_keys_is_normalised(rich: Path) -> None:
    from skills_ref.validator import validate as agentskills_validate

    write(
        rich,
        "vendor/copied/other-csv/SKILL.md",
        "---\nname: other-csv\ndescription: CSV things. Use when CSV appears.\n"
        "argument-hint: '[file]'\nallowed-tools: [Read, Grep]\nmetadata:\n  version: 2\n---\n\n"
        "# CSV\n\nVerbatim body.\n",
    )
    sync(rich)
    folder = rich / ".claude/skills/other-csv"
    assert agentskills_validate(folder) == []
    text = (folder / "SKILL.md").read_text()
    assert 'allowed-tools: "Read Grep"' in text
    assert '  version: "2"\n  argument-hint: "[file]"\n' in text
    assert text.endswith("---\n\n# CSV\n\nVerbatim body.\n")
    assert (folder / "references/notes.md").read_text() == "notes\n"


def test_forced_write_onto_a_folder_is_a_conflict(scaffold: Path) -> None:
    (scaffold / AGENT).mkdir(parents=True)
    with pytest.raises(ConflictError) as err:
        sync(scaffold, force=True)
    assert err.value.file == AGENT and "is a folder" in err.value.message


def test_pruning_never_reaches_through_a_symlinked_folder(scaffold: Path, tmp_path: Path) -> None:
    sync(scaffold)
    outside = tmp_path / "outside"
    (outside / "agents").mkdir(parents=True)
    victim = write(outside, "agents/example-agent.md", "not yours\n")
    shutil.rmtree(scaffold / ".claude")
    (scaffold / ".claude").symlink_to(outside, target_is_directory=True)
    (scaffold / "registries/agents/example-agent.yaml").unlink()
    # the lock's entries below the link are refused by validation first, naming the lock line
    with pytest.raises(ValidationFailed, match=r"lies below '\.claude', a symlink") as caught:
        sync(scaffold)
    assert caught.value.file == manifest.LOCK_PATH and caught.value.line
    assert victim.read_text() == "not yours\n"


def test_temporary_files_of_a_killed_sync_are_removed(scaffold: Path) -> None:
    sync(scaffold)
    dead = scaffold / ".claude/agents/.example-agent.md.orkestra-999999999-0.tmp"
    live = scaffold / f".claude/agents/.x.md.orkestra-{os.getpid()}-99.tmp"  # a write under way
    dead.write_text("half")
    live.write_text("half")
    write(scaffold, "registries/agents/example-agent.yaml", _edited_agent(scaffold))
    assert sync(scaffold).written >= 1
    assert not dead.exists() and live.exists()


def _edited_agent(root: Path) -> str:
    text = (root / "registries/agents/example-agent.yaml").read_text()
    return text.replace("description: ", "description: Edited. ", 1)


def _over_codex_s_limit(root: Path) -> None:
    """The project lists agents-md and the user's own AGENTS.md is near Codex's limit: the
    block the first sync adds takes it over."""
    from orkestra.registry.client_rules import CODEX_DOC_LIMIT

    config = root / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("- claude\n", "- claude\n  - agents-md\n"))
    notes = "".join(f"- House rule {i}: keep the change small and tested.\n" for i in range(700))
    (root / "AGENTS.md").write_text("# Team notes\n\n" + notes[: CODEX_DOC_LIMIT - 200])


@pytest.mark.parametrize("mode", ["write", "dry-run", "check"])
def test_the_sync_that_takes_agents_md_over_codex_s_limit_warns(scaffold: Path, mode: str) -> None:
    """ORK113 is counted with the size the sync writes, by the run that writes it (not only
    by the next one); a sync that writes nothing more keeps counting it."""
    _over_codex_s_limit(scaffold)
    report = sync(scaffold, mode=mode)  # type: ignore[arg-type]
    assert "AGENTS.md" in report.plan.updated
    assert report.warnings == 1
    assert [f.code for f in report.findings] == ["ORK113"]
    if mode == "write":
        size = (scaffold / "AGENTS.md").stat().st_size
        assert f"AGENTS.md is {size} bytes" in report.findings[0].message
        assert sync(scaffold).warnings == 1
