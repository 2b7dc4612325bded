"""Red team of the compare-and-swap `sync` makes before it writes (test_sync_races.py).

The invariant of every attack: after the sync (whether it raised or not) every file the user
created or changed during the run still holds the user's bytes, no output is half-written (a
refused run writes nothing), and the next sync (without the attack) converges keeping the edit,
or reports a conflict; it never overwrites.

Residual, not tested (timing): an edit that lands after the last check and before the rename of
the same file (microseconds; a rename cannot be made conditional on POSIX), and an edit of the
lock between the renames of the outputs and the write of the lock.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from orkestra.core import yamlio
from orkestra.core.errors import ChangedOnDisk, ConflictError, InputError, OrkestraError
from orkestra.render import noop
from orkestra.render.sync import sync
from orkestra.render.targets import shared
from tests.render.conftest import TODAY, build_rich, put
from tests.render.test_sync_races import MOMENTS, _at, _reprompt

REG = "registries"


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = build_rich(tmp_path / "proj")
    sync(root, mode="write")
    return root


def snap(root: Path) -> dict[str, bytes]:
    """Every file and symlink below root (a link as its target text), caches left out."""
    out: dict[str, bytes] = {}
    for dirpath, dirs, files in os.walk(root):
        for name in [*files, *(d for d in dirs if (Path(dirpath) / d).is_symlink())]:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel.startswith(".orkestra/"):
                continue
            link = path.is_symlink()
            out[rel] = b"->" + str(path.readlink()).encode() if link else path.read_bytes()
    return out


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _again(root: Path, monkeypatch: pytest.MonkeyPatch, **kwargs: object) -> OrkestraError | None:
    """The next sync, without the attack: None when it wrote, else the conflict it reported."""
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    try:
        sync(root, mode="write", **kwargs)  # type: ignore[arg-type]
    except (ConflictError, ChangedOnDisk) as exc:
        return exc
    return None


def _roster(root: Path, description: str) -> None:
    """Change what CLAUDE.md's block lists: plain-helper's description."""
    put(root, f"{REG}/agents/plain-helper.yaml",
        {"name": "plain-helper", "description": description, "prompt": "Be plain.\n"})  # fmt: skip


def _targets(root: Path, *targets: str) -> None:
    config = root / REG / "orkestra.yaml"
    data = yamlio.loads(config.read_text(encoding="utf-8"))
    data["targets"] = list(targets)
    config.write_text(yamlio.dumps(data), encoding="utf-8")


# --- every kind of owned output, edited at every moment -----------------------------------------

KINDS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "agent": (
        ".claude/agents/db-guardian.md",
        lambda r: _reprompt(r / REG / "agents" / "db-guardian.yaml", "Newly"),
    ),
    "skill": (
        ".claude/skills/schema-migration/SKILL.md",
        lambda r: _edit(r / REG / "skills/domains/schema-migration.yaml", "Do it.", "Do it now."),
    ),
    "skill resource": (
        ".claude/skills/schema-migration/references/guide.md",
        lambda r: (r / REG / "skills/domains/schema-migration/references/guide.md").write_text(
            "# Guide v2\n", encoding="utf-8"
        ),
    ),
    "copied vendor resource": (
        ".claude/skills/other-csv/references/notes.md",
        lambda r: (r / "vendor/copied/other-csv/references/notes.md").write_text(
            "notes v2\n", encoding="utf-8"
        ),
    ),
    "ground truths": (
        "GROUND_TRUTHS.md",
        lambda r: _edit(r / REG / "truths/project.yaml", "Untagged truth.", "Untagged truth!"),
    ),
    "command": (
        ".claude/commands/learn.md",
        lambda r: _edit(r / REG / "commands/learn.yaml", "Record a claim", "Record one claim"),
    ),
}


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_output_edited_at_each_moment_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, kind: str, moment: str
) -> None:
    rel, change = KINDS[kind]
    change(proj)
    _reprompt(proj / REG / "agents" / "plain-helper.yaml", "Also")  # another write in the batch
    target = proj / rel
    mine = target.read_bytes() + b"\nmy own note\n"
    _at(monkeypatch, moment, lambda: target.write_bytes(mine))
    before = {**snap(proj), rel: mine}
    with pytest.raises((ChangedOnDisk, ConflictError)) as caught:
        sync(proj, mode="write")
    assert caught.value.file == rel
    assert snap(proj) == before  # nothing written at all, the user's bytes kept
    assert isinstance(_again(proj, monkeypatch), ConflictError)  # edited: a conflict, kept
    assert target.read_bytes() == mine


# --- what stands at an output path changes kind -------------------------------------------------


def _newcomer(root: Path) -> str:
    source = root / REG / "agents" / "plain-helper.yaml"
    text = source.read_text(encoding="utf-8").replace("name: plain-helper", "name: newcomer")
    (source.parent / "newcomer.yaml").write_text(text, encoding="utf-8")
    _reprompt(root / REG / "agents" / "db-guardian.yaml", "Newly")  # renamed before newcomer.md
    return ".claude/agents/newcomer.md"


@pytest.mark.parametrize("inside", [False, True])
def test_a_folder_made_where_sync_creates_a_file_stops_the_whole_write(
    proj: Path, monkeypatch: pytest.MonkeyPatch, inside: bool
) -> None:
    """A path found empty must still be empty: a folder there is a change too (the rename over
    it would fail half-way through the batch, after the files before it were replaced)."""
    rel = _newcomer(proj)
    folder = proj / rel

    def make() -> None:
        folder.mkdir()
        if inside:
            (folder / "mine.txt").write_text("mine\n", encoding="utf-8")

    _at(monkeypatch, "while fsyncing", make)
    before = snap(proj)
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert caught.value.file == rel
    assert snap(proj) == ({**before, f"{rel}/mine.txt": b"mine\n"} if inside else before)
    assert folder.is_dir()
    assert isinstance(_again(proj, monkeypatch), ConflictError)  # a folder: reported, kept


def test_a_file_added_to_a_copied_skill_folder_that_becomes_a_link_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copied vendor skill becomes a symlink: its owned files are deleted, the emptied
    folder goes, the link takes its place. A file the user adds there meanwhile stays."""
    config = proj / REG / "orkestra.yaml"
    _edit(config, "link: copy", "link: symlink")
    _reprompt(proj / REG / "agents" / "db-guardian.yaml", "Newly")
    mine = proj / ".claude/skills/other-csv/mine.md"
    _at(monkeypatch, "after plan", lambda: mine.write_text("mine\n", encoding="utf-8"))
    with pytest.raises((ChangedOnDisk, ConflictError)):
        sync(proj, mode="write")
    assert mine.read_text(encoding="utf-8") == "mine\n"
    assert not (proj / ".claude/skills/other-csv").is_symlink()
    agent = (proj / ".claude/agents/db-guardian.md").read_text(encoding="utf-8")
    assert "Newly." not in agent  # the batch was not half-applied
    _again(proj, monkeypatch)
    assert mine.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("moment", ["after plan", "while fsyncing"])
def test_an_output_replaced_by_a_symlink_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    rel, change = KINDS["agent"]
    change(proj)
    target = proj / rel
    elsewhere = proj / "mine.md"
    elsewhere.write_text("mine\n", encoding="utf-8")

    def swap() -> None:
        target.unlink()
        target.symlink_to(elsewhere)

    _at(monkeypatch, moment, swap)
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert target.is_symlink() and elsewhere.read_text(encoding="utf-8") == "mine\n"
    assert isinstance(_again(proj, monkeypatch), ConflictError)
    assert target.is_symlink() and elsewhere.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("how", ["pruned", "moved"])
def test_a_symlinked_vendor_skill_replaced_by_a_folder_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The link `.claude/skills/acme-pdf` is deleted (its vendor root removed) or rewritten (the
    root moved); the user swaps it for a folder of their own meanwhile."""
    config = proj / REG / "orkestra.yaml"
    data = yamlio.loads(config.read_text(encoding="utf-8"))
    if how == "pruned":
        data["vendor_roots"] = data["vendor_roots"][1:]
    else:
        (proj / "vendor/linked").rename(proj / "vendor/linked2")
        data["vendor_roots"][0]["path"] = "vendor/linked2"
    config.write_text(yamlio.dumps(data), encoding="utf-8")
    link = proj / ".claude/skills/acme-pdf"

    def swap() -> None:
        link.unlink()
        link.mkdir()
        (link / "SKILL.md").write_text("mine\n", encoding="utf-8")

    _at(monkeypatch, "after plan", swap)
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert (link / "SKILL.md").read_text(encoding="utf-8") == "mine\n"
    _again(proj, monkeypatch)
    assert not link.is_symlink() and (link / "SKILL.md").read_text(encoding="utf-8") == "mine\n"


def test_an_output_the_user_deletes_while_sync_updates_it_stays_deleted(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rel, change = KINDS["agent"]
    change(proj)
    target = proj / rel
    _at(monkeypatch, "while fsyncing", target.unlink)
    lock = f"{REG}/.render-lock.json"
    before = {p: d for p, d in snap(proj).items() if p not in (rel, lock)}
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    after = snap(proj)
    assert {p: d for p, d in after.items() if p != lock} == before  # the lock: what is on disk
    assert rel.encode() not in after[lock]
    assert _again(proj, monkeypatch) is None  # the next sync writes it afresh
    assert "Newly." in target.read_text(encoding="utf-8")


# --- --force ----------------------------------------------------------------------------------


def test_force_takes_over_what_it_found_not_an_edit_made_while_it_ran(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--force` takes over the file the plan reported as a conflict; the user's edit of it
    made after that is never overwritten."""
    rel, change = KINDS["agent"]
    change(proj)
    target = proj / rel
    target.write_text("the user's first version\n", encoding="utf-8")  # a conflict
    _at(monkeypatch, "while fsyncing", lambda: target.write_text("edited\n", encoding="utf-8"))
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write", force=True)
    assert target.read_text(encoding="utf-8") == "edited\n"
    assert isinstance(_again(proj, monkeypatch), ConflictError)
    assert _again(proj, monkeypatch, force=True) is None  # asked again: taken over
    assert "Newly." in target.read_text(encoding="utf-8")


def test_force_still_takes_over_an_untouched_conflict(proj: Path) -> None:
    rel, change = KINDS["agent"]
    change(proj)
    (proj / rel).write_text("the user's version\n", encoding="utf-8")
    with pytest.raises(ConflictError):
        sync(proj, mode="write")
    sync(proj, mode="write", force=True)
    assert "Newly." in (proj / rel).read_text(encoding="utf-8")
    assert sync(proj, mode="check").ok


# --- pruning ----------------------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["after render", "before plan", "after plan"])
def test_a_pruned_output_edited_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    (proj / REG / "commands/learn.yaml").unlink()
    target = proj / ".claude/commands/learn.md"
    mine = target.read_bytes() + b"mine\n"
    _at(monkeypatch, moment, lambda: target.write_bytes(mine))
    with pytest.raises((ChangedOnDisk, ConflictError)):
        sync(proj, mode="write")
    assert target.read_bytes() == mine
    assert isinstance(_again(proj, monkeypatch), ConflictError)  # an orphan: reported, kept
    assert target.read_bytes() == mine


def test_a_file_the_user_creates_at_the_moved_truths_output_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    truths = proj / REG / "truths/project.yaml"
    data = yamlio.loads(truths.read_text(encoding="utf-8"))
    data["metadata"]["render"]["output"] = "docs/TRUTHS.md"
    truths.write_text(yamlio.dumps(data), encoding="utf-8")
    target = proj / "docs/TRUTHS.md"

    def create() -> None:
        target.parent.mkdir(exist_ok=True)
        target.write_text("mine\n", encoding="utf-8")

    _at(monkeypatch, "while fsyncing", create)
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert isinstance(_again(proj, monkeypatch), ConflictError)
    assert target.read_text(encoding="utf-8") == "mine\n"


# --- shared files: instruction files and MCP configs ----------------------------------------------

SHARED = {"agents-md": "AGENTS.md", "copilot": ".github/copilot-instructions.md"}


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("target", sorted(SHARED))
def test_an_instruction_file_edited_while_sync_merges_its_block_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, target: str, moment: str
) -> None:
    _targets(proj, "claude", target)
    sync(proj, mode="write")
    path = proj / SHARED[target]
    path.write_bytes(b"# Mine\n\n" + path.read_bytes())
    sync(proj, mode="write")
    _edit(proj / REG / "values.yaml", "simplest design", "plainest design")  # the block changes
    mine = path.read_bytes().replace(b"# Mine", b"# Mine, edited meanwhile")
    _at(monkeypatch, moment, lambda: path.write_bytes(mine))
    before = {**snap(proj), SHARED[target]: mine}
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert snap(proj) == before
    assert _again(proj, monkeypatch) is None
    after = path.read_text(encoding="utf-8")
    assert after.startswith("# Mine, edited meanwhile\n") and "plainest design" in after


@pytest.mark.parametrize("moment", MOMENTS)
def test_an_instruction_file_left_empty_is_not_removed_once_the_user_writes_in_it(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """agents-md is dropped from orkestra.yaml: AGENTS.md holds only the block, so it goes."""
    _targets(proj, "claude", "agents-md")
    sync(proj, mode="write")
    path = proj / "AGENTS.md"
    _targets(proj, "claude")
    mine = path.read_bytes() + b"\nMy notes.\n"
    _at(monkeypatch, moment, lambda: path.write_bytes(mine))
    try:
        sync(proj, mode="write")
    except ChangedOnDisk as exc:
        assert exc.file == "AGENTS.md"
    if moment == "after render":  # before the block was taken out (after the other outputs)
        assert path.read_bytes() == b"My notes.\n"
    else:
        assert path.read_bytes() == mine
    _again(proj, monkeypatch)
    assert "My notes." in path.read_text(encoding="utf-8")


def test_an_instruction_file_written_in_while_its_block_is_taken_out_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The edit lands inside the render, after the file was read and judged empty without the
    block: the bytes the removal checks must be the ones that were judged."""
    _targets(proj, "claude", "agents-md")
    sync(proj, mode="write")
    path = proj / "AGENTS.md"
    _targets(proj, "claude")
    mine = path.read_bytes() + b"\nMy notes.\n"
    real = shared._style
    done: list[bool] = []

    def style(where: Path, current: str) -> tuple[str, str]:
        out = real(where, current)
        if where.name == "AGENTS.md" and not done:
            done.append(True)
            path.write_bytes(mine)
        return out

    monkeypatch.setattr(shared, "_style", style)
    sync(proj, mode="write")  # nothing to do for AGENTS.md: it is the user's now
    assert path.read_bytes() == mine
    _again(proj, monkeypatch)
    assert "My notes." in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("moment", ["before plan", "after plan", "while fsyncing"])
def test_a_server_the_user_adds_to_the_codex_config_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    _targets(proj, "claude", "codex")
    servers = proj / REG / "mcp.yaml"
    servers.write_text(yamlio.dumps({"github": {"command": "npx"}}), encoding="utf-8")
    sync(proj, mode="write")
    config = proj / ".codex/config.toml"
    assert "[mcp_servers.github]" in config.read_text(encoding="utf-8")
    servers.write_text(yamlio.dumps({"github": {"command": "gh"}}), encoding="utf-8")
    mine = '\n[mcp_servers.mine]\ncommand = "my-server"\n'
    _at(
        monkeypatch,
        moment,
        lambda: config.write_text(config.read_text(encoding="utf-8") + mine, encoding="utf-8"),
    )
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert caught.value.file == ".codex/config.toml"
    assert mine in config.read_text(encoding="utf-8")
    assert _again(proj, monkeypatch) is None
    text = config.read_text(encoding="utf-8")
    assert mine.strip() in text and 'command = "gh"' in text


def test_a_server_the_user_adds_to_a_withdrawn_mcp_config_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cursor leaves orkestra.yaml: its config loses Orkestra's servers, keeps the user's."""
    _targets(proj, "claude", "cursor")
    (proj / REG / "mcp.yaml").write_text(
        yamlio.dumps({"github": {"command": "npx"}}), encoding="utf-8"
    )
    sync(proj, mode="write")
    config = proj / ".cursor/mcp.json"
    _targets(proj, "claude")

    def add_mine() -> None:
        held = json.loads(config.read_text(encoding="utf-8"))
        held["mcpServers"]["mine"] = {"command": "my-server"}
        config.write_text(json.dumps(held, indent=2) + "\n", encoding="utf-8")

    _at(monkeypatch, "after plan", add_mine)
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert "mine" in json.loads(config.read_text(encoding="utf-8"))["mcpServers"]
    assert _again(proj, monkeypatch) is None
    assert json.loads(config.read_text(encoding="utf-8"))["mcpServers"] == {
        "mine": {"command": "my-server"}
    }


# --- CLAUDE.md's bytes: BOM, CRLF, not UTF-8 ------------------------------------------------------


@pytest.mark.parametrize(
    "head", [b"\xef\xbb\xbf# Mine\n\n", b"# Mine\r\n\r\n", b"\xef\xbb\xbf# Mine\r\n\r\n"]
)
def test_a_bom_or_crlf_claude_md_still_writes_without_a_concurrent_edit(
    proj: Path, monkeypatch: pytest.MonkeyPatch, head: bytes
) -> None:
    """The base digest is of the real bytes (mark and line endings kept): a plain sync of such
    a file writes, it is not refused as changed."""
    claude_md = proj / "CLAUDE.md"
    claude_md.write_bytes(head + b"Intro.\r\n" if b"\r" in head else head + b"Intro.\n")
    sync(proj, mode="write")
    _roster(proj, "Helps plainly, always.")
    report = sync(proj, mode="write")  # no ChangedOnDisk
    assert "CLAUDE.md" in report.plan.updated
    data = claude_md.read_bytes()
    assert data.startswith(head) and b"Helps plainly, always." in data
    assert data.count(b"\xef\xbb\xbf") == head.count(b"\xef\xbb\xbf")
    assert sync(proj, mode="check").ok
    mine = data.replace(b"Intro.", b"Intro, edited.")  # and with an edit: refused, kept
    _at(monkeypatch, "after render", lambda: claude_md.write_bytes(mine))
    _roster(proj, "Helps plainly.")
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert claude_md.read_bytes() == mine


def test_a_claude_md_that_is_not_utf8_is_refused_and_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude_md = proj / "CLAUDE.md"
    _reprompt(proj / REG / "agents" / "db-guardian.yaml", "Newly")
    mine = claude_md.read_bytes() + b"caf\xe9\n"  # Latin-1
    _at(monkeypatch, "after render", lambda: claude_md.write_bytes(mine))
    before = {**snap(proj), "CLAUDE.md": mine}
    with pytest.raises(ChangedOnDisk):
        sync(proj, mode="write")
    assert snap(proj) == before
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    with pytest.raises(InputError) as caught:  # the next sync names it, writes nothing
        sync(proj, mode="write")
    assert caught.value.file == "CLAUDE.md"
    assert snap(proj) == before


# --- the lock -------------------------------------------------------------------------------------


def test_the_lock_edited_while_sync_runs_is_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock is committed: a checkout while sync runs changes it. Its new bytes are not
    overwritten (not by the write, not by the partial record after the refusal)."""
    _reprompt(proj / REG / "agents" / "db-guardian.yaml", "Newly")
    lock = proj / REG / ".render-lock.json"
    mine = lock.read_bytes().replace(b"\n", b"\n ", 1)  # same entries, other bytes
    assert mine != lock.read_bytes()
    _at(monkeypatch, "while fsyncing", lambda: lock.write_bytes(mine))
    before = {**snap(proj), f"{REG}/.render-lock.json": mine}
    with pytest.raises(ChangedOnDisk) as caught:
        sync(proj, mode="write")
    assert caught.value.file == f"{REG}/.render-lock.json"
    assert snap(proj) == before
    assert _again(proj, monkeypatch) is None
    assert sync(proj, mode="check").ok


# --- the no-op record -----------------------------------------------------------------------------


def test_the_no_op_record_after_a_refused_write_is_a_full_run(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    noop.sync_result(proj, "write")
    assert noop.sync_result(proj, "write")["written"] == 0  # recorded
    _roster(proj, "Helps plainly, always.")
    claude_md = proj / "CLAUDE.md"
    mine = claude_md.read_bytes().replace(b"Hand-written intro.", b"Edited intro.")
    _at(monkeypatch, "while fsyncing", lambda: claude_md.write_bytes(mine))
    with pytest.raises(ChangedOnDisk):
        noop.sync_result(proj, "write")
    assert claude_md.read_bytes() == mine
    monkeypatch.undo()
    monkeypatch.setenv("ORKESTRA_TODAY", TODAY)
    full = sync(proj, mode="dry-run").to_dict()
    got = noop.sync_result(proj, "write")
    assert {**got, "mode": "dry-run", "written": 0} == full
    assert got["written"] >= 2 and claude_md.read_bytes().startswith(b"# My project\n\nEdited")
    assert noop.sync_result(proj, "write") == {**sync(proj, mode="write").to_dict()}
    assert sync(proj, mode="check").ok
