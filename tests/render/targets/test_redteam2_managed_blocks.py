"""Red-team: the user's instruction files Orkestra keeps a managed block in (CLAUDE.md,
AGENTS.md, .github/copilot-instructions.md), as a Windows checkout has them (core.autocrlf: CRLF
line endings, sometimes a byte-order mark): the block follows the file's own style and the
user's bytes survive adding and removing it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.render.sync import sync
from tests.render.targets.conftest import ALL
from tests.render.targets.test_targets import set_targets

USERS = {
    "CLAUDE.md": b"\xef\xbb\xbf# Mine\r\n\r\nIntro.\r\n",
    "AGENTS.md": b"# Team\r\n\r\nTabs.\r\n",
    ".github/copilot-instructions.md": b"Be brief.\r\n",
}


def test_crlf_and_bom_files_keep_their_style_around_the_block(clients: Path) -> None:
    for rel, data in USERS.items():
        (clients / rel).parent.mkdir(parents=True, exist_ok=True)
        (clients / rel).write_bytes(data)
    sync(clients)
    for rel, data in USERS.items():
        text = (clients / rel).read_bytes()
        assert text.startswith(data), rel  # the mark and every user byte, first
        assert b"<!-- orkestra:begin" in text
        assert text.count(b"\n") == text.count(b"\r\n"), rel  # no mixed line endings
    assert sync(clients).written == 0
    set_targets(clients, [t for t in ALL if t not in ("agents-md", "copilot")])
    sync(clients)
    for rel in ("AGENTS.md", ".github/copilot-instructions.md"):
        assert (clients / rel).read_bytes() == USERS[rel], rel  # back to what the user wrote
    claude = (clients / "CLAUDE.md").read_bytes()
    assert claude.startswith(USERS["CLAUDE.md"]) and claude.count(b"\xef\xbb\xbf") == 1


def test_a_users_json_config_with_a_byte_order_mark_is_merged(clients: Path) -> None:
    """`.gemini/settings.json` saved by a Windows editor (BOM, CRLF) used to stop every target's
    sync with Python's "Unexpected UTF-8 BOM"."""
    import json

    (clients / ".gemini").mkdir()
    (clients / ".gemini/settings.json").write_bytes(b'\xef\xbb\xbf{\r\n  "theme": "dark"\r\n}\r\n')
    sync(clients)
    raw = (clients / ".gemini/settings.json").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf{\r\n") and raw.count(b"\xef\xbb\xbf") == 1  # kept
    settings = json.loads(raw.decode("utf-8-sig"))
    assert settings["theme"] == "dark" and set(settings["mcpServers"]) == {"github", "data_lake"}
    assert sync(clients).written == 0


def test_a_description_quoting_the_markers_does_not_end_the_block(clients: Path) -> None:
    """The rosters list descriptions; one that quotes `<!-- orkestra:end -->` used to end the
    block early on the next sync, which kept the rest as the user's text: the files grew on
    every run."""
    from orkestra.registry.render_lock import BEGIN, END
    from tests.render.conftest import put

    description = f"Maintains the {BEGIN} -->/{END} block of AGENTS.md."
    put(clients, "registries/agents/marker.yaml",
        {"name": "marker", "description": description, "prompt": "x\n"})  # fmt: skip
    (clients / "AGENTS.md").write_text("# Team\n\nUser text.\n")
    (clients / "CLAUDE.md").write_text("# Mine\n")
    sync(clients)
    first = {rel: (clients / rel).read_bytes() for rel in ("AGENTS.md", "CLAUDE.md")}
    assert sync(clients).written == 0
    for rel, data in first.items():
        assert (clients / rel).read_bytes() == data
        text = data.decode()
        assert text.count(END) == 1 and text.count(BEGIN) == 1, rel
        assert "Maintains the &lt;!-- orkestra:begin" in text, rel


def test_a_crlf_vendor_skill_rewritten_for_its_frontmatter_has_one_line_ending(
    clients: Path,
) -> None:
    """A copied vendor SKILL.md (Windows checkout) whose frontmatter Orkestra normalises: the
    rewritten file used to mix LF frontmatter with the CRLF body."""
    (clients / "vendor/copied/other-csv/SKILL.md").write_bytes(
        b"---\r\nname: other-csv\r\ndescription: Vendor CSV. Use when CSV.\r\nfoo: bar\r\n---\r\n"
        b"\r\n# CSV\r\n\r\nLine.\r\n"
    )
    sync(clients)
    for base in (".claude/skills", ".agents/skills"):
        data = (clients / base / "other-csv/SKILL.md").read_bytes()
        assert b"\r" not in data and data.endswith(b"\n# CSV\n\nLine.\n"), base
    assert sync(clients).written == 0


_BEGIN = "<!-- orkestra:begin (managed by `orkestra sync`; edit the registries, not this block) -->"
_END = "<!-- orkestra:end -->"
#: broken marker shapes a user's instruction file can hold: (text, the line sync names)
BROKEN = {
    "only a begin": (f"# Team\n\nKeep PRs small.\n\n{_BEGIN}\nold roster\n", 5),
    "only an end": (f"# Team\n\nold roster\n{_END}\nKeep PRs small.\n", 4),
    "two begins": (f"# Team\n{_BEGIN}\nA\n{_BEGIN}\nB\n{_END}\n", 2),
    "the block twice": (f"# Team\n{_BEGIN}\nA\n{_END}\nmid\n{_BEGIN}\nB\n{_END}\n", 6),
    "reordered": (f"# Team\n{_END}\nA\n{_BEGIN}\ntail\n", 4),
}


@pytest.mark.parametrize("rel", list(USERS))
@pytest.mark.parametrize("shape", list(BROKEN))
def test_validate_reports_the_broken_markers_sync_refuses(
    clients: Path, rel: str, shape: str, cli: Any
) -> None:
    """A CLAUDE.md, AGENTS.md or Copilot instructions file whose markers make no single block
    used to pass `validate` (exit 0) while `sync` refused it: validate names the file and the
    marker's line, says what to do, and sync stops there too, writing nothing."""
    from orkestra.core.errors import ValidationFailed
    from orkestra.registry.loader import load
    from orkestra.registry.validate import validate

    text, line = BROKEN[shape]
    (clients / rel).parent.mkdir(parents=True, exist_ok=True)
    (clients / rel).write_text(text)
    found = [f for f in validate(load(clients)).findings if f.code == "ORK049"]
    assert [(f.file, f.line, f.severity) for f in found] == [(rel, line, "error")]
    assert "restore the pair" in found[0].message or "delete this copy" in found[0].message
    result = cli("validate", "--format", "text", cwd=clients)
    assert result.exit_code == 1
    assert f"{rel}:{line}: error ORK049:" in result.stdout
    with pytest.raises(ValidationFailed, match="ORK049"):
        sync(clients)
    assert (clients / rel).read_text() == text
    assert not (clients / ".claude/agents").exists()  # nothing of the plan was written


def test_markers_shown_in_a_fence_are_not_broken(clients: Path) -> None:
    """Markers quoted in a fenced example are the user's text: no finding, and sync appends
    its block below, keeping the example."""
    from orkestra.registry.loader import load
    from orkestra.registry.validate import validate

    text = f"# Team\n\n```markdown\n{_BEGIN}\nexample\n{_END}\n```\n"
    (clients / "AGENTS.md").write_text(text)
    assert not [f for f in validate(load(clients)).findings if f.code == "ORK049"]
    sync(clients)
    assert (clients / "AGENTS.md").read_text().startswith(text)


@pytest.mark.parametrize("leads", ["inside", "outside"])
@pytest.mark.parametrize("rel", ["AGENTS.md", ".github/copilot-instructions.md"])
def test_a_symlinked_instruction_file_is_reported_by_validate_saying_what_to_do(
    clients: Path, tmp_path: Path, rel: str, leads: str, cli: Any
) -> None:
    """`AGENTS.md -> CLAUDE.md` (one file for every client) or a link to a file of another
    repository: validate passed while sync stopped with "replace it with a file". Validate now
    reports it (ORK049), naming where the link leads and what to do; sync refuses it the same
    way and never writes through the link, in or out of the project."""
    from orkestra.core.errors import UnsafePathError, ValidationFailed
    from orkestra.registry.loader import load
    from orkestra.registry.validate import validate
    from orkestra.render.targets import agents_md

    shared = clients / "CLAUDE.md" if leads == "inside" else tmp_path / "shared.md"
    shared.write_text("# Shared rules\n")
    (clients / rel).parent.mkdir(parents=True, exist_ok=True)
    (clients / rel).symlink_to(shared)
    target = "agents-md" if rel == "AGENTS.md" else "copilot"
    found = [f for f in validate(load(clients)).findings if f.code == "ORK049"]
    assert [(f.file, f.severity) for f in found] == [(rel, "error")]
    message = found[0].message
    assert f"take {target} out of `targets`" in message
    assert ("CLAUDE.md" if leads == "inside" else str(shared)) in message
    assert (f"`rm {rel}`" if leads == "inside" else f"`cp {rel} {rel}.tmp && mv") in message
    result = cli("validate", "--format", "text", cwd=clients)
    assert result.exit_code == 1 and f"{rel}: error ORK049: {rel} is a symlink" in result.stdout
    with pytest.raises(ValidationFailed, match="ORK049"):
        sync(clients)
    assert shared.read_text() == "# Shared rules\n" and (clients / rel).is_symlink()
    if rel == "AGENTS.md":  # the target itself says the same, whoever calls it
        with pytest.raises(UnsafePathError, match="take agents-md out of `targets`"):
            agents_md.block_file(clients, "<!-- orkestra:begin -->\n<!-- orkestra:end -->\n")
