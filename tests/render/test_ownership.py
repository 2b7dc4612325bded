"""Render ownership (issue 11, cases 1 and 4; PRODUCT.md §4 "Ownership is proven, not claimed").

A file is Orkestra's to overwrite or delete only when the lock lists it and its bytes still hash to
the recorded sha256; a lock entry outside its target's output roots, or in `.git/`, `registries/`
or `knowledge/`, is ignored by sync and an error for `validate`. Configurable output paths
(`claude_md_path`, a truth registry's `render.output`) stay inside the project and outside `.git/`.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from orkestra.core.errors import ConflictError, InputError, ValidationFailed
from orkestra.registry.loader import load
from orkestra.registry.render_lock import MARK_LINE, mark_line
from orkestra.registry.validate import validate
from orkestra.render import manifest
from orkestra.render.sync import sync
from tests.conftest import write
from tests.render.conftest import put

AGENT = ".claude/agents/example-agent.md"
VICTIMS = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config": "[core]\n\trepositoryformatversion = 0\n",
    "README.md": "# Read me\n",
    "src/app.py": "print('app')\n",
    "registries/agents/example-agent.yaml": None,  # the scaffold's own
}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tamper(root: Path, entries: dict[str, object]) -> None:
    lock = json.loads((root / manifest.LOCK_PATH).read_text())
    lock["files"].update(entries)
    (root / manifest.LOCK_PATH).write_text(json.dumps(lock, indent=2))


def _victims(root: Path) -> dict[str, bytes]:
    for rel, text in VICTIMS.items():
        if text is not None:
            write(root, rel, text)
    return {rel: (root / rel).read_bytes() for rel in VICTIMS}


@pytest.mark.parametrize("style", ["hashed", "v1"])
def test_a_hand_edited_lock_never_reaches_outside_the_output_roots(
    scaffold: Path, style: str
) -> None:
    sync(scaffold)
    before = _victims(scaffold)
    # the attacker even records the right hashes: roots, not hashes, keep these files safe
    _tamper(
        scaffold,
        {
            rel: {"target": "claude", "sha256": _sha(data)} if style == "hashed" else "claude"
            for rel, data in before.items()
        },
    )
    found = [f for f in validate(load(scaffold)).findings if f.code == "ORK046"]
    assert sorted(f.message.split("'")[1] for f in found) == sorted(VICTIMS)
    assert all(f.severity == "error" and f.file == manifest.LOCK_PATH and f.line for f in found)
    from orkestra.render.sync import owned_entries  # sync ignores them

    assert owned_entries(load(scaffold)).keys() == {
        AGENT,
        ".claude/skills/example-skill/SKILL.md",
        "GROUND_TRUTHS.md",
    }
    with pytest.raises(ValidationFailed, match="ORK046"):
        sync(scaffold)
    with pytest.raises(ValidationFailed):
        sync(scaffold, force=True)
    assert {rel: (scaffold / rel).read_bytes() for rel in VICTIMS} == before


def test_a_lock_entry_of_an_unknown_target_or_in_knowledge_is_reported(scaffold: Path) -> None:
    sync(scaffold)
    write(scaffold, "knowledge/notes/a.md", "note\n")
    _tamper(
        scaffold,
        {
            "knowledge/notes/a.md": {"target": "claude", "sha256": _sha(b"note\n")},
            ".codex/agents/x.toml": {"target": "emacs", "sha256": _sha(b"")},  # unknown target
            ".codex/config.toml": {"target": "codex", "sha256": _sha(b"")},  # outside its roots
            ".claude/skills": {"target": "claude", "sha256": _sha(b"")},  # a root itself
        },
    )
    found = {
        f.message.split("'")[1] for f in validate(load(scaffold)).findings if f.code == "ORK046"
    }
    assert found == {
        "knowledge/notes/a.md",
        ".codex/agents/x.toml",
        ".codex/config.toml",
        ".claude/skills",
    }


def test_a_listed_hand_written_agent_is_never_deleted_without_its_hash(scaffold: Path) -> None:
    sync(scaffold)
    mine = write(scaffold, ".claude/agents/mine.md", "---\nname: mine\n---\nhand-written\n")
    for forged in ("claude", {"target": "claude", "sha256": "0" * 64}, {"target": "claude"}):
        _tamper(scaffold, {".claude/agents/mine.md": forged})
        plan = sync(scaffold, mode="dry-run").plan
        assert plan.deleted == [] and plan.conflicts == [".claude/agents/mine.md"]
        assert not sync(scaffold, mode="check").ok
        with pytest.raises(ConflictError, match="edited since"):
            sync(scaffold)
        assert mine.read_text() == "---\nname: mine\n---\nhand-written\n"
    sync(scaffold, force=True)  # --force releases it from the lock and still keeps the file
    assert mine.read_text() == "---\nname: mine\n---\nhand-written\n"
    assert ".claude/agents/mine.md" not in manifest.load(scaffold)
    assert sync(scaffold, mode="check").ok


def test_an_owned_file_edited_since_is_a_conflict_and_force_takes_it_over(scaffold: Path) -> None:
    sync(scaffold)
    (scaffold / AGENT).write_text("my edits\n")
    agent = "registries/agents/example-agent.yaml"
    (scaffold / agent).write_text((scaffold / agent).read_text().replace("prompt: ", "prompt: X"))
    plan = sync(scaffold, mode="dry-run").plan
    assert plan.conflicts == [AGENT] and AGENT not in plan.updated
    with pytest.raises(ConflictError) as err:
        sync(scaffold)
    assert err.value.file == AGENT and "--force" in err.value.message
    assert (scaffold / AGENT).read_text() == "my edits\n"
    sync(scaffold, force=True)
    assert (
        (scaffold / AGENT)
        .read_text()
        .startswith(f"---\n# {mark_line('agent example-agent')}\nname: example-agent\n")
    )
    recorded = manifest.load(scaffold)[AGENT]
    assert recorded.sha256 == _sha((scaffold / AGENT).read_bytes())


def test_an_owned_file_is_recorded_with_the_hash_of_its_bytes(scaffold: Path) -> None:
    sync(scaffold)
    for rel, entry in manifest.load(scaffold).items():
        assert entry.target == "claude"
        assert entry.sha256 == _sha((scaffold / rel).read_bytes())


# --- case 4: configurable output paths ---------------------------------------------------------


def _config(root: Path, render: dict[str, object]) -> None:
    put(root, "registries/orkestra.yaml", {"project": "demo", "render": render})


def _truths_output(root: Path, output: str) -> None:
    path = root / "registries/truths/project.yaml"
    text = path.read_text()
    assert "render:" not in text
    text = text.replace(
        "  owner: project\n", f"  owner: project\n  render:\n    output: {output}\n"
    )
    path.write_text(text)


@pytest.mark.parametrize("bad", [".git/config", ".git/hooks/pre-commit.md", "sub/.GIT/x.md",
                                 "registries/x.md", "knowledge/x.md", "notes.txt", "../x.md"])  # fmt: skip
def test_claude_md_path_outside_the_allowed_places_fails_validate(scaffold: Path, bad: str) -> None:
    write(scaffold, ".git/config", "[core]\n")
    _config(scaffold, {"claude_md": True, "claude_md_path": bad})
    found = [f for f in validate(load(scaffold)).errors if "claude_md_path" in f.message]
    assert found and found[0].file == "registries/orkestra.yaml" and found[0].line
    with pytest.raises(ValidationFailed):
        sync(scaffold)
    assert (scaffold / ".git/config").read_text() == "[core]\n"


@pytest.mark.parametrize(
    "bad", [".git/hooks/post-checkout", ".claude/settings.json", ".claude/agents/gt.md",
            "registries/GT.md", ".git/GT.md", "knowledge/GT.md"],
)  # fmt: skip
def test_truth_output_outside_the_allowed_places_fails_validate(scaffold: Path, bad: str) -> None:
    _truths_output(scaffold, bad)
    found = [f for f in validate(load(scaffold)).errors if "output" in f.message]
    assert found and found[0].file == "registries/truths/project.yaml"
    with pytest.raises(ValidationFailed):
        sync(scaffold)
    assert not (scaffold / bad).exists()
    assert not (scaffold / manifest.LOCK_PATH).exists()


def test_truth_output_may_move_and_the_old_file_is_pruned(scaffold: Path) -> None:
    sync(scaffold)
    _truths_output(scaffold, "docs/GROUND_TRUTHS.md")
    report = sync(scaffold)
    assert report.plan.deleted == ["GROUND_TRUTHS.md"]
    assert (scaffold / "docs/GROUND_TRUTHS.md").is_file()
    assert not [f for f in validate(load(scaffold)).findings if f.code == "ORK046"]


def test_a_lock_naming_a_hand_written_ground_truths_file_never_deletes_it(
    scaffold: Path,
) -> None:
    """An earlier ground-truths output is pruned once its source moved, but anyone can write
    such an entry, with the hash of any file: a `GROUND_TRUTHS.md` that does not start as every
    rendered one does is kept, and the lock forgets it."""
    sync(scaffold)
    mine = write(scaffold, "docs/team/GROUND_TRUTHS.md", "# Our own truths\n")
    _tamper(scaffold, {"docs/team/GROUND_TRUTHS.md": {"target": "claude",
                                                      "sha256": _sha(b"# Our own truths\n")}})  # fmt: skip
    report = sync(scaffold)
    assert "docs/team/GROUND_TRUTHS.md" not in [*report.plan.deleted, *report.plan.conflicts]
    assert mine.read_text() == "# Our own truths\n"
    assert "docs/team/GROUND_TRUTHS.md" not in manifest.load(scaffold)


@pytest.mark.parametrize("nested", ["registries/orkestra.yaml", ".git/HEAD"])
def test_a_ground_truths_file_of_a_project_nested_in_this_one_is_never_pruned(
    scaffold: Path, nested: str
) -> None:
    """A package with its own Orkestra project, or a submodule, holds a GROUND_TRUTHS.md its
    own sync wrote (the bundled mark and all): an entry of this project's lock naming it, with
    its hash, deletes nothing, and the lock forgets it. Outside such a folder, the same file
    is an earlier output and is pruned."""
    sync(scaffold)
    bundled = (scaffold / "GROUND_TRUTHS.md").read_bytes()
    for where in ("packages/other", "docs/old"):
        write(scaffold, f"{where}/GROUND_TRUTHS.md", bundled.decode())
    write(scaffold, f"packages/other/{nested}", "project: other\n")
    _tamper(scaffold, {f"{where}/GROUND_TRUTHS.md": {"target": "claude", "sha256": _sha(bundled)}
                       for where in ("packages/other", "docs/old")})  # fmt: skip
    rewritten = bundled + b"\n- a truth the nested project's own sync added\n"
    (scaffold / "packages/other/GROUND_TRUTHS.md").write_bytes(rewritten)  # not "edited": theirs
    report = sync(scaffold)
    assert report.plan.deleted == ["docs/old/GROUND_TRUTHS.md"] and not report.plan.conflicts
    assert (scaffold / "packages/other/GROUND_TRUTHS.md").read_bytes() == rewritten
    assert not (scaffold / "docs/old/GROUND_TRUTHS.md").exists()
    assert "packages/other/GROUND_TRUTHS.md" not in manifest.load(scaffold)


def test_a_moved_ground_truths_output_of_a_projects_own_template_is_pruned_by_its_mark(
    scaffold: Path,
) -> None:
    """A project's own template need not start as the bundled one: its output still carries
    Orkestra's mark (put first, as the template wrote none first), so once it moved the earlier
    output is pruned, not taken for a hand-written file."""
    from orkestra.render.template_paths import template_folders

    bundled = template_folders(scaffold)[-1] / "claude" / "ground_truths.md.j2"
    write(
        scaffold, "templates/claude/ground_truths.md.j2", "# Team truths\n\n" + bundled.read_text()
    )
    sync(scaffold)
    assert (scaffold / "GROUND_TRUTHS.md").read_text().startswith(f"<!-- {MARK_LINE} -->\n")
    _truths_output(scaffold, "docs/GROUND_TRUTHS.md")
    report = sync(scaffold)
    assert report.plan.deleted == ["GROUND_TRUTHS.md"] and report.plan.conflicts == []
    assert not (scaffold / "GROUND_TRUTHS.md").exists()
    assert (scaffold / "docs/GROUND_TRUTHS.md").is_file()
    assert "GROUND_TRUTHS.md" not in manifest.load(scaffold)


def test_a_lock_entry_below_a_symlinked_folder_is_never_reached_and_stops_nothing(
    scaffold: Path, tmp_path: Path
) -> None:
    sync(scaffold)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "GROUND_TRUTHS.md").write_text("# theirs\n")
    (scaffold / "docs").symlink_to(outside)
    _tamper(
        scaffold, {"docs/GROUND_TRUTHS.md": {"target": "claude", "sha256": _sha(b"# theirs\n")}}
    )
    sync(scaffold)
    assert (outside / "GROUND_TRUTHS.md").read_text() == "# theirs\n"
    assert "docs/GROUND_TRUTHS.md" not in manifest.load(scaffold)


def test_truth_output_naming_a_users_file_is_a_conflict(scaffold: Path) -> None:
    readme = write(scaffold, "README.md", "# Mine\n")
    _truths_output(scaffold, "README.md")
    with pytest.raises(ConflictError):
        sync(scaffold)
    assert readme.read_text() == "# Mine\n"


def test_claude_md_path_may_not_name_a_users_file_without_markers(scaffold: Path) -> None:
    readme = write(scaffold, "docs/README.md", "# Mine\n")
    _config(scaffold, {"claude_md": True, "claude_md_path": "docs/README.md"})
    found = [f for f in validate(load(scaffold)).findings if f.code == "ORK047"]
    assert len(found) == 1 and found[0].file == "registries/orkestra.yaml"
    with pytest.raises(ValidationFailed, match="ORK047"):
        sync(scaffold)
    assert readme.read_text() == "# Mine\n"
    named = "# Mine\n\nOrkestra's block starts with `<!-- orkestra:begin -->`.\n"
    readme.write_text(named)  # a marker named in prose makes no block: still the user's file
    assert [f.code for f in validate(load(scaffold)).findings if f.code == "ORK047"] == ["ORK047"]
    with pytest.raises(ValidationFailed, match="ORK047"):
        sync(scaffold)
    assert readme.read_text() == named
    readme.write_text("# Mine\n\n<!-- orkestra:begin -->\nold\n<!-- orkestra:end -->\n")
    sync(scaffold)  # with the markers it is Orkestra's block to keep
    assert readme.read_text().startswith("# Mine\n\n<!-- orkestra:begin")
    for name in (".claude/CLAUDE.md", "docs/CLAUDE.md"):  # a CLAUDE.md anywhere is fine
        _config(scaffold, {"claude_md": True, "claude_md_path": name})
        assert not validate(load(scaffold)).errors


def test_output_paths_stay_out_of_the_configured_knowledge_folder(scaffold: Path) -> None:
    put(
        scaffold,
        "registries/orkestra.yaml",
        {"project": "demo", "knowledge": {"path": "docs/kb"},
         "render": {"claude_md": True, "claude_md_path": "docs/kb/CLAUDE.md"}},
    )  # fmt: skip
    _truths_output(scaffold, "docs/kb/GROUND_TRUTHS.md")
    found = sorted((f.file, f.message.split("'")[1]) for f in validate(load(scaffold)).errors)
    assert found == [
        ("registries/orkestra.yaml", "docs/kb/CLAUDE.md"),
        ("registries/truths/project.yaml", "docs/kb/GROUND_TRUTHS.md"),
    ]
    with pytest.raises(ValidationFailed):
        sync(scaffold)
    assert not (scaffold / "docs").exists()


@pytest.mark.parametrize(
    "rel",
    [
        ".claude/agents/../../README.md",
        ".claude/skills/x/../../../README.md",
        ".claude/agents//../../README.md",
        "/etc/passwd",
        ".claude\\agents\\..\\..\\README.md",
        ".claude/agents/\x00.md",
        ".claude/agents/",
    ],
)
def test_a_lock_entry_that_is_not_a_plain_path_is_reported_not_dropped(
    scaffold: Path, rel: str
) -> None:
    # found by the hostile review: such entries were dropped silently, so validate said ok
    sync(scaffold)
    readme = write(scaffold, "README.md", "# mine\n").read_bytes()
    _tamper(scaffold, {rel: {"target": "claude", "sha256": _sha(readme)}})
    found = [f for f in validate(load(scaffold)).findings if f.code == "ORK046"]
    assert [f.message.split("'")[1] for f in found] == [rel]
    from orkestra.render.sync import owned_entries

    assert rel not in owned_entries(load(scaffold))
    with pytest.raises(ValidationFailed, match="ORK046"):
        sync(scaffold, force=True)
    assert (scaffold / "README.md").read_bytes() == readme


def test_a_lock_entry_below_a_linked_vendor_skill_is_reported_and_never_reached(
    rich: Path,
) -> None:
    # red team 2: an entry for a file inside a linked vendor skill (with its right hash) passed
    # validate, and sync then failed on every run with "replace it with a folder" (its own link)
    config = rich / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("link: copy", "link: symlink"))
    sync(rich)
    link = rich / ".claude/skills/acme-pdf"
    assert link.is_symlink()
    vendored = (link / "SKILL.md").resolve().read_bytes()
    rel = ".claude/skills/acme-pdf/SKILL.md"
    _tamper(rich, {rel: {"target": "claude", "sha256": _sha(vendored)}})
    found = [f for f in validate(load(rich)).findings if f.code == "ORK046"]
    assert [f.message.split("'")[1] for f in found] == [rel]
    assert "lies below '.claude/skills/acme-pdf'" in found[0].message
    from orkestra.render.sync import owned_entries

    assert rel not in owned_entries(load(rich))
    with pytest.raises(ValidationFailed, match="ORK046"):
        sync(rich, force=True)
    assert (link / "SKILL.md").resolve().read_bytes() == vendored


@pytest.mark.parametrize(
    ("link", "rel"),
    [
        (".claude/agents/shared", ".claude/agents/shared/notes.md"),
        (".claude/skills", ".claude/skills/team/SKILL.md"),
        (".codex", ".codex/agents/notes.toml"),
    ],
)
def test_a_lock_entry_below_a_symlinked_folder_in_its_roots_is_reported(
    scaffold: Path, tmp_path: Path, link: str, rel: str
) -> None:
    """An entry, with its file's right hash, below a symlinked folder the lock does not list
    (the user's link, out of the project or not): validate said ok, and every sync then failed
    with "refusing to write below ..." naming no lock entry. It is an ORK046 error at its line,
    sync leaves it alone, and nothing the link leads to is touched."""
    config = scaffold / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("- claude", "- claude\n  - codex"))
    sync(scaffold)
    outside = tmp_path / "outside"
    shutil.copytree(scaffold / link, outside) if (scaffold / link).is_dir() else outside.mkdir()
    shutil.rmtree(scaffold / link, ignore_errors=True)
    (scaffold / link).symlink_to(outside)
    victim = write(outside, rel[len(link) + 1 :], "# theirs\n")
    _tamper(scaffold, {rel: {"target": rel.split("/")[0][1:], "sha256": _sha(b"# theirs\n")}})
    found = {f.message.split("'")[1]: f for f in validate(load(scaffold)).findings
             if f.code == "ORK046"}  # fmt: skip
    below = {p for p in manifest.load(scaffold) if p.startswith(f"{link}/")}
    assert rel in below and found.keys() == below  # the link's own outputs too, if any
    assert f"lies below '{link}', a symlink" in found[rel].message
    lines = (scaffold / manifest.LOCK_PATH).read_text().splitlines()
    assert found[rel].file == manifest.LOCK_PATH and rel in lines[found[rel].line - 1]
    from orkestra.render.sync import owned_entries

    assert not below & owned_entries(load(scaffold)).keys()
    with pytest.raises(ValidationFailed, match="ORK046"):
        sync(scaffold, force=True)
    assert victim.read_text() == "# theirs\n"


def test_a_lock_holding_a_path_twice_is_reported_at_the_second_one(scaffold: Path) -> None:
    """JSON keeps the last of two equal keys: a lock naming a path twice (a hand edit, a merge
    that kept both sides) read as one entry, the other hash silently dropped, and validate said
    ok. It is unreadable now, at the line of the second key; sync refuses and writes nothing."""
    sync(scaffold)
    lock = scaffold / manifest.LOCK_PATH
    text = lock.read_text()
    entry = f'    "{AGENT}": {{"target": "claude", "sha256": "{"0" * 64}"}},\n'
    lock.write_text(text.replace('"files": {\n', '"files": {\n' + entry, 1))

    def tree() -> dict[Path, bytes]:  # the derived caches under .orkestra/ aside
        return {p: p.read_bytes() for p in scaffold.rglob("*")
                if p.is_file() and ".orkestra" not in p.parts}  # fmt: skip

    before = tree()
    found = [f for f in validate(load(scaffold)).findings if f.severity == "error"]
    assert [(f.code, f.file) for f in found] == [("ORK001", manifest.LOCK_PATH)]
    lines = lock.read_text().splitlines()
    assert found[0].line is not None and found[0].line > 5
    assert AGENT in lines[found[0].line - 1] and "given twice" in found[0].message
    assert str(scaffold) not in found[0].message  # the finding names the file, not the message
    with pytest.raises(ValidationFailed, match="ORK001"):
        sync(scaffold, force=True)
    assert tree() == before


def test_the_lock_read_again_is_its_new_text_even_at_the_same_size_and_time(
    scaffold: Path,
) -> None:
    """The lock's parse is reused only for the same text: an edit that keeps its size and
    modification time (a checkout in the same second) is read afresh, and what one caller
    changes in the entries it got never reaches the next."""
    import os

    from orkestra.registry import render_lock

    sync(scaffold)
    lock = scaffold / manifest.LOCK_PATH
    first = manifest.load(scaffold)
    first.clear()  # a caller's copy
    assert manifest.load(scaffold).keys() == set(json.loads(lock.read_text())["files"])
    st = lock.stat()
    text = lock.read_text()
    swapped = text.replace('"target": "claude"', '"target": "cursor"', 1)  # as long
    assert swapped != text and len(swapped.encode()) == len(text.encode())
    lock.write_text(swapped)
    os.utime(lock, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert "cursor" in {e.target for e in manifest.load(scaffold).values()}
    entries, problems = render_lock.problems(scaffold)
    assert problems and all("cursor" in entries[rel].target for rel in problems)
    found = [f for f in validate(load(scaffold)).findings if f.code == "ORK046"]
    assert found and all(f.line for f in found)


def test_the_problems_of_a_lock_are_kept_only_while_its_paths_and_targets_are(
    scaffold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync that rewrote a few hashes leaves the same paths and targets: what sync may not
    touch is not worked out again. Another path or target is: and the answer is the new one."""
    from orkestra.registry import render_lock

    sync(scaffold)
    _tamper(scaffold, {".codex/config.toml": {"target": "codex", "sha256": _sha(b"")}})
    before = render_lock.problems(scaffold)[1]
    assert set(before) == {".codex/config.toml"}
    real, looked = render_lock.entry_problem, []

    def spy(rel: str, *args: object, **kw: object) -> str | None:
        looked.append(rel)
        return real(rel, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(render_lock, "entry_problem", spy)
    _tamper(scaffold, {".codex/config.toml": {"target": "codex", "sha256": _sha(b"other")}})
    assert render_lock.problems(scaffold)[1] == before and not looked
    _tamper(scaffold, {".codex/config.toml": {"target": "claude", "sha256": _sha(b"other")}})
    assert set(render_lock.problems(scaffold)[1]) == {".codex/config.toml"} and looked
    looked.clear()
    _tamper(scaffold, {".claude/skills": {"target": "claude", "sha256": _sha(b"")}})
    assert set(render_lock.problems(scaffold)[1]) == {".codex/config.toml", ".claude/skills"}
    assert looked


def test_one_sync_parses_the_lock_once(scaffold: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from orkestra.core import jsonio

    sync(scaffold)
    real, parsed = jsonio.loads, []

    def spy(text: str, **kw: object) -> object:
        if str(kw.get("source", "")).endswith(manifest.LOCK_PATH):
            parsed.append(text)
        return real(text, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(jsonio, "loads", spy)
    write(scaffold, ".claude/agents/example-agent.md", "edited\n")
    with pytest.raises(ConflictError):
        sync(scaffold)  # validation, the plan and the MCP configs all read the lock
    assert len(parsed) == 1


def test_a_lock_swapped_for_a_symlink_after_its_check_is_not_read_through(
    scaffold: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sync(scaffold)
    lock = scaffold / manifest.LOCK_PATH
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(lock.read_text(encoding="utf-8").replace("claude", "cursor"))
    lock.unlink()
    lock.symlink_to(elsewhere)
    monkeypatch.setattr(Path, "is_symlink", lambda self: False)  # the swap lands after the check
    with pytest.raises(InputError, match="render lock is unreadable"):
        manifest.load(scaffold)
