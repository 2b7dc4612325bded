"""Paths and names (issue 11, cases 13, 14, 16, 18, 19): what may reach the file system.

Registry files reached through a symlink leaving the project are refused; NUL never reaches a
rendered file and bidi controls are flagged; Windows device names are never names; an unreadable
folder or a read-only project is a finding or a clear exit 1; import lists what it refused.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.importer.run import import_tree
from orkestra.knowledge.notes import parse_note
from orkestra.registry.models.names import bidi_controls, is_device_name, name_problem
from orkestra.scaffold import init_project
from tests.conftest import write
from tests.registry.helpers import findings

AGENT = "name: {name}\ndescription: Agent {name}. Use when testing.\nprompt: |\n  {body}\n"
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def _tree(root: Path) -> dict[str, bytes]:
    """Every regular file below root, symlinks not followed (relative path -> bytes)."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_file() and not path.is_symlink() and not rel.startswith(".orkestra/"):
                out[rel] = path.read_bytes()  # .orkestra/ holds derived caches, not outputs
    return out


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")
    return init_project(tmp_path / "proj") and tmp_path / "proj"


# --- case 13: registry files symlinked out of the project ---------------------------------------


def test_agent_yaml_symlinked_outside_the_project_is_refused_not_rendered(
    proj: Path, tmp_path: Path, cli: Any
) -> None:
    secret = write(tmp_path, "outside/leak.yaml", AGENT.format(name="leak", body="SECRET-42"))
    (proj / "registries/agents/leak.yaml").symlink_to(secret)
    result = cli("validate", cwd=proj)
    assert result.exit_code == 1
    assert "registries/agents/leak.yaml: error ORK045: 'registries/agents/leak.yaml' is a " in (
        result.stdout
    )
    assert str(secret) in result.stdout and "outside the project" in result.stdout
    assert cli("sync", cwd=proj).exit_code == 1
    assert not (proj / ".claude/agents/leak.md").exists()
    assert all(b"SECRET-42" not in data for data in _tree(proj).values() if data)
    assert cli("agents", "list", cwd=proj).stdout.count('"leak"') == 0


@pytest.mark.parametrize(
    "rel",
    [
        "registries/characters/identities.yaml",
        "registries/scopes.yaml",
        "registries/truths/project.yaml",
        "registries/skills/project/example-skill.yaml",
        "registries/decisions/records/DEC-AR-001.yaml",
    ],
)
def test_any_registry_yaml_symlinked_out_is_refused(proj: Path, tmp_path: Path, rel: str) -> None:
    copy = tmp_path / "outside" / Path(rel).name
    copy.parent.mkdir(exist_ok=True)
    copy.write_bytes((proj / rel).read_bytes())
    (proj / rel).unlink()
    (proj / rel).symlink_to(copy)
    found = [f for f in findings(proj) if f.code == "ORK045"]
    assert [(f.file, f.severity) for f in found] == [(rel, "error")]


def test_a_registry_folder_symlinked_out_refuses_every_file_in_it(
    proj: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    (proj / "registries/agents").rename(outside)
    (proj / "registries/agents").symlink_to(outside)
    found = [f for f in findings(proj) if f.code == "ORK045"]
    assert [f.file for f in found] == ["registries/agents/example-agent.yaml"]
    assert "'registries/agents' is a symlink" in found[0].message


def test_a_symlink_that_stays_inside_the_project_is_read(proj: Path) -> None:
    write(proj, "shared/helper.yaml", AGENT.format(name="helper", body="Help."))
    (proj / "registries/agents/helper.yaml").symlink_to(proj / "shared/helper.yaml")
    assert not [f for f in findings(proj) if f.severity == "error"]


# --- case 14: NUL is an error, bidi controls a warning ------------------------------------------


@pytest.mark.parametrize(("field", "line"), [("description", 2), ("category", 3), ("prompt", 4)])
def test_a_nul_in_a_text_field_is_an_error_and_never_rendered(
    proj: Path, cli: Any, field: str, line: int
) -> None:
    rel = "registries/agents/example-agent.yaml"
    values = {"description": '"Example. Use when testing."', "category": "example"}
    values["prompt"] = '"Hello."'
    values[field] = '"before\\0after"'  # YAML's escape for NUL
    text = "name: example-agent\n" + "".join(f"{k}: {v}\n" for k, v in values.items())
    (proj / rel).write_text(text, encoding="utf-8")
    assert cli("validate", "--strict", cwd=proj).exit_code == 1
    result = cli("validate", "--strict", cwd=proj)
    assert f"{rel}:{line}: error ORK001: a NUL character" in result.stdout
    assert cli("sync", cwd=proj).exit_code == 1
    rendered = _tree(proj / ".claude") if (proj / ".claude").exists() else {}
    assert all(b"\x00" not in data for data in rendered.values())
    assert ".claude/agents/example-agent.md" not in rendered


def test_a_nul_in_a_character_guidance_stops_sync(proj: Path, cli: Any) -> None:
    rel = "registries/characters/identities.yaml"
    (proj / rel).write_text(
        'architect:\n  description: Designs.\n  guidance: "keep \\0 out"\n', encoding="utf-8"
    )
    assert cli("sync", cwd=proj).exit_code == 1
    assert not (proj / ".claude/agents/example-agent.md").exists()


@pytest.mark.parametrize("control", ["\u202e", "\u2066", "\u200f", "\u202a"])
def test_bidi_controls_in_names_and_descriptions_are_warnings(
    proj: Path, cli: Any, control: str
) -> None:
    rel = "registries/agents/example-agent.yaml"
    data = dict(yamlio.load_mapping(proj / rel))
    data["description"] = f"Harmless {control}txt.exe Use when testing."
    (proj / rel).write_text(yamlio.dumps(data), encoding="utf-8")
    ident = "registries/characters/identities.yaml"
    (proj / ident).write_text(
        f"architect:\n  description: Designs {control}here.\n  guidance: g\n", encoding="utf-8"
    )
    # red team 2: `decisions new --summary` wrote a summary with an override, and validate was ok
    record = "registries/decisions/records/DEC-AR-001.yaml"
    decision = dict(yamlio.load_mapping(proj / record))
    decision["summary"] = f"Chosen {control}because."
    (proj / record).write_text(yamlio.dumps(decision), encoding="utf-8")
    plain = cli("validate", cwd=proj)
    assert plain.exit_code == 0
    strict = cli("validate", "--strict", cwd=proj)
    assert strict.exit_code == 1
    code = f"U+{ord(control):04X}"
    assert f"{rel}:1: warning ORK109: agent 'example-agent' description holds " in strict.stdout
    assert f"{ident}:1: warning ORK109: identity 'architect' description" in strict.stdout
    assert f"{record}:1: warning ORK109: decision DEC-AR-001 summary holds " in strict.stdout
    assert code in strict.stdout


def test_bidi_controls_are_found_and_plain_text_is_not() -> None:
    assert bidi_controls("abc") == [] and bidi_controls("é ü ß") == []
    assert bidi_controls("a\u202eb\u202ec\u2069") == ["U+202E", "U+2069"]
    assert bidi_controls("\u061c\u200e") == ["U+061C", "U+200E"]


# --- case 16: Windows device names ---------------------------------------------------------------

DEVICES = ["con", "nul", "aux", "prn", "com1", "com9", "lpt1", "lpt9", "com0"]


@pytest.mark.parametrize(
    ("name", "device"),
    [
        *((d, True) for d in DEVICES),
        ("CON", True),
        ("con.md", True),
        ("Aux.tar.gz", True),
        ("nul ", True),
        ("com10", False),
        ("console", False),
        ("nul-check", False),
        ("lpt", False),
        ("auxiliary", False),
    ],
)
def test_device_name_rule(name: str, device: bool) -> None:
    assert is_device_name(name) is device


@pytest.mark.parametrize("name", DEVICES)
def test_device_names_are_refused_as_agent_skill_command_names(proj: Path, name: str) -> None:
    write(proj, f"registries/agents/{name}.yaml", AGENT.format(name=name, body="x"))
    write(
        proj,
        f"registries/commands/{name}.yaml",
        f"name: {name}\ndescription: d\nbody: b\n",
    )
    skill = yamlio.load_mapping(proj / "registries/skills/project/example-skill.yaml")
    skill["metadata"]["identifier"] = skill["metadata"]["name"] = name
    write(proj, f"registries/skills/project/{name}.yaml", yamlio.dumps(skill))
    found = {f.file: f for f in findings(proj) if "Windows device name" in f.message}
    assert set(found) == {
        f"registries/agents/{name}.yaml",
        f"registries/commands/{name}.yaml",
        f"registries/skills/project/{name}.yaml",
    }
    assert all(f.code == "ORK002" and f.line for f in found.values())
    assert name_problem(name) is not None and name_problem("example-agent") is None


@pytest.mark.parametrize("name", ["aux", "lpt3"])
def test_device_names_are_refused_as_scope_and_character_names(proj: Path, name: str) -> None:
    (proj / "registries/scopes.yaml").write_text(
        f"scopes:\n  example:\n    description: Example\n    primary_skills: [example-skill]\n"
        f"  {name}:\n    description: Bad\n",
        encoding="utf-8",
    )
    (proj / "registries/characters/mindsets.yaml").write_text(
        f"analytical:\n  description: d\n{name}:\n  description: d\n", encoding="utf-8"
    )
    found = [f for f in findings(proj) if "Windows device name" in f.message]
    assert sorted((f.file, f.line) for f in found) == [
        ("registries/characters/mindsets.yaml", 3),
        ("registries/scopes.yaml", 5),
    ]


@pytest.mark.parametrize("stem", ["con", "nul", "com1", "lpt9", "aux.draft"])
def test_device_names_are_refused_as_note_names(stem: str) -> None:
    text = '---\ntype: glossary\ntitle: "A note"\n---\n\nBody.\n'
    note, problems = parse_note(text, f"knowledge/glossary/{stem}.md", "glossary")
    assert note is not None
    assert [(p.code, p.file, p.line) for p in problems] == [
        ("KN011", f"knowledge/glossary/{stem}.md", 1)
    ]
    assert "Windows device name" in problems[0].message


def test_notes_new_refuses_a_title_that_names_a_device(proj: Path, cli: Any) -> None:
    result = cli("notes", "new", "glossary", "Con", cwd=proj)
    assert result.exit_code == 2 and "Windows device name" in result.stderr
    assert not (proj / "knowledge/glossary/con.md").exists()
    assert cli("notes", "new", "glossary", "Con job", cwd=proj).exit_code == 0


def test_import_refuses_device_named_agents_and_resources(proj: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src, "agents/con.md", "---\ndescription: Named by its file.\n---\nBody.\n")
    write(src, "agents/ok.md", "---\nname: prn\ndescription: Named in frontmatter.\n---\nB.\n")
    write(src, "skills/tool/SKILL.md", "---\nname: tool\ndescription: A tool.\n---\n## Steps\n")
    write(src, "skills/tool/aux.txt", "data\n")
    write(src, "skills/tool/scripts/nul/run.sh", "echo\n")
    report = import_tree(proj, src)
    reasons = {r["path"]: r["reason"] for r in report.refused}
    assert set(reasons) == {
        "agents/con.md",
        "agents/ok.md",
        "skills/tool/aux.txt",
        "skills/tool/scripts/nul/run.sh",
    }
    assert all("Windows device name" in r for r in reasons.values())
    assert [s["name"] for s in report.skills] == ["tool"]
    assert not list((proj / "registries/skills/project").glob("tool/**/*.*"))


# --- case 18: unreadable registry folders, read-only projects -----------------------------------


def _deny(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make os.scandir/listdir of `folder` fail as a folder without read permission does."""
    real_scandir, real_listdir = os.scandir, os.listdir

    def scandir(path: Any = ".") -> Any:
        if Path(path) == folder:
            raise PermissionError(13, "Permission denied", str(folder))
        return real_scandir(path)

    def listdir(path: Any = ".") -> Any:
        if Path(path) == folder:
            raise PermissionError(13, "Permission denied", str(folder))
        return real_listdir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", listdir)


@pytest.mark.parametrize(
    "rel", ["registries/agents", "registries/skills/project", "registries/truths"]
)
def test_an_unreadable_registry_folder_is_a_finding_naming_it(
    proj: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, rel: str
) -> None:
    _deny(monkeypatch, proj / rel)
    result = cli("validate", cwd=proj)
    assert result.exit_code == 1, result.stderr
    assert f"{rel}: error ORK001: cannot read this folder: Permission denied" in result.stdout
    assert "internal error" not in result.stderr


def test_an_unreadable_skills_or_domains_folder_is_a_finding(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _deny(monkeypatch, proj / "registries/skills")
    _deny(monkeypatch, proj / "registries/domains/example")
    found = {(f.file, f.code) for f in findings(proj) if "Permission denied" in f.message}
    assert found == {("registries/skills", "ORK001"), ("registries/domains/example", "ORK001")}


@pytest.mark.skipif(ROOT, reason="root reads any folder; the fault-injected tests cover it")
def test_a_folder_without_read_permission_is_a_finding(proj: Path, cli: Any) -> None:
    folder = proj / "registries/agents"
    folder.chmod(0)
    try:
        result = cli("validate", cwd=proj)
    finally:
        folder.chmod(0o755)
    assert result.exit_code == 1
    assert "registries/agents: error ORK001: cannot read this folder" in result.stdout


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """`folder` made read-only: by its mode for a normal user, by a read-only mount for root."""
    if not ROOT:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    # root ignores modes: remount a tmpfs read-only (skipped where mounting is not allowed)
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        for sub in ("registries", "keep"):
            (folder / sub).mkdir()
        (folder / "keep" / "notes.txt").write_text("mine\n", encoding="utf-8")
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_init_in_a_read_only_folder_exits_1_and_writes_nothing(tmp_path: Path, cli: Any) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    with _read_only(folder):
        before = _tree(folder)
        result = cli("init", str(folder), cwd=tmp_path)
        assert result.exit_code == 1, result.stderr
        assert "cannot write into" in result.stderr and "nothing was written" in result.stderr
        assert ("a read-only file system" if ROOT else "not writable by you") in result.stderr
        assert "internal error" not in result.stderr
        assert _tree(folder) == before
        nested = cli("init", str(folder / "sub" / "p"), cwd=tmp_path)
        assert nested.exit_code == 1 and "nothing was written" in nested.stderr
        assert _tree(folder) == before and not (folder / "sub").exists()


@pytest.mark.skipif(ROOT, reason="root writes into any folder; the mount test covers read-only")
def test_init_with_a_read_only_registries_folder_writes_nothing(tmp_path: Path, cli: Any) -> None:
    root = tmp_path / "p"
    (root / "registries").mkdir(parents=True)
    (root / "registries").chmod(0o555)
    try:
        result = cli("init", str(root), cwd=tmp_path)
    finally:
        (root / "registries").chmod(0o755)
    assert result.exit_code == 1 and "cannot write into 'registries'" in result.stderr
    assert _tree(root) == {}


# --- case 19: import lists what it refused and exits 1 -----------------------------------------


def _hostile_source(base: Path) -> Path:
    src = base / "src"
    write(src, "agents/good.md", "---\nname: good\ndescription: Fine.\n---\nGood body.\n")
    write(src, "agents/evil.md", "---\nname: ../evil\ndescription: Escapes.\n---\nx\n")
    write(src, "agents/slash.md", "---\nname: a/b\ndescription: Nested.\n---\nx\n")
    (src / "agents/passwd.md").symlink_to("/etc/passwd")
    write(
        src,
        "agents/anchors.md",
        "---\nname: anchors\ndescription: &d Aliased.\nsummary: *d\n---\nx\n",
    )
    write(src, "agents/nul.md", "---\nname: nul-body\ndescription: d.\n---\nbody \x00 here\n")
    return src


def test_import_with_refused_entries_exits_1_and_lists_them(
    proj: Path, tmp_path: Path, cli: Any
) -> None:
    src = _hostile_source(tmp_path)
    result = cli("import", str(src), cwd=proj)
    assert result.exit_code == 1
    refused = {r["path"]: r["reason"] for r in result.json()["refused"]}
    assert set(refused) == {
        "agents/evil.md",
        "agents/slash.md",
        "agents/passwd.md",
        "agents/anchors.md",
        "agents/nul.md",
    }
    assert "outside the imported tree" in refused["agents/passwd.md"]
    assert "anchor 'd' is not allowed" in refused["agents/anchors.md"]
    assert "not a valid Orkestra name" in refused["agents/evil.md"]
    assert "NUL" in refused["agents/nul.md"]
    assert result.stderr.startswith("orkestra: refused 5 entry(ies):\n")
    lines = {r["path"]: r["line"] for r in result.json()["refused"]}
    for path in refused:  # file:line where the reason is about a line
        where = f"{path}:{lines[path]}" if lines[path] else path
        assert f"\n  {where}: " in result.stderr
    # the accepted entry is still imported (one batch, all or nothing), the refused ones are not
    assert result.json()["written"] == ["registries/agents/good.yaml"]
    assert sorted(p.name for p in (proj / "registries/agents").iterdir()) == [
        "example-agent.yaml",
        "good.yaml",
    ]
    assert not (tmp_path / "evil.yaml").exists() and not (proj / "registries/evil.yaml").exists()


def test_import_dry_run_with_refusals_also_exits_1(proj: Path, tmp_path: Path, cli: Any) -> None:
    src = _hostile_source(tmp_path)
    before = _tree(proj)
    result = cli("import", str(src), "--dry-run", "--format", "table", cwd=proj)
    assert result.exit_code == 1 and "refused 5 entry(ies)" in result.stderr
    assert _tree(proj) == before


def test_a_clean_import_exits_0(proj: Path, tmp_path: Path, cli: Any) -> None:
    write(tmp_path, "src/agents/good.md", "---\nname: good\ndescription: Fine.\n---\nBody.\n")
    result = cli("import", str(tmp_path / "src"), cwd=proj)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.json()["refused"] == []


def test_an_unreadable_folder_costs_only_its_own_files(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.registry.loader import load

    write(proj, "registries/commands/learn.yaml", "name: learn\ndescription: d\nbody: b\n")
    _deny(monkeypatch, proj / "registries/agents")
    reg = load(proj)
    assert list(reg.commands) == ["learn"] and reg.agents == {}
    assert [f.file for f in reg.findings] == ["registries/agents"]


def test_an_unreadable_ledger_is_a_finding_not_a_stop(proj: Path, cli: Any) -> None:
    ledger = proj / "registries/changelog/commits_processed.jsonl"
    ledger.unlink()
    ledger.mkdir()  # reading it fails the way an unreadable file does
    result = cli("validate", cwd=proj)
    assert result.exit_code == 1
    assert "registries/changelog/commits_processed.jsonl: error ORK001: " in result.stdout


@pytest.mark.parametrize(
    "glob",
    [
        ".git/**",
        ".git/hooks/**",
        "sub/.git/**",
        "registries/**",
        ".orkestra/**",
        ".claude/agents/**",
    ],
)
def test_a_package_changelog_never_lands_in_git_registries_or_a_client_folder(
    proj: Path, glob: str
) -> None:
    # found by the hostile review: `changelog render` wrote .git/hooks/CHANGELOG.md (exit 0)
    from orkestra.core.errors import InputError
    from orkestra.registry.config_file import load_config

    config = proj / "registries/orkestra.yaml"
    config.write_text(config.read_text() + f"mining:\n  packages:\n    evil: '{glob}'\n")
    with pytest.raises(InputError, match=r"mining\.packages\.evil"):
        load_config(proj)  # `changelog render` and `validate` both load it first


def test_import_refuses_symlink_loops_fifos_and_devices_with_reasons(
    proj: Path, tmp_path: Path
) -> None:
    # found by the hostile review: a symlink loop made `import` exit 3 (RuntimeError)
    src = tmp_path / "src"
    write(src, "agents/a1.md", "---\nname: a1\ndescription: A one. Use when x.\n---\nBody.\n")
    write(src, "skills/s1/SKILL.md", "---\nname: s1\ndescription: S one.\n---\n## Steps\n")
    (src / "agents/loop-b.md").symlink_to("loop-a.md")
    (src / "agents/loop-a.md").symlink_to("loop-b.md")
    (src / "skills/s1/zero.txt").symlink_to("/dev/zero")
    (src / "skills/s1/self").symlink_to("..")
    if hasattr(os, "mkfifo"):
        os.mkfifo(src / "skills/s1/fifo.txt")
    report = import_tree(proj, src)
    reasons = {r["path"]: r["reason"] for r in report.refused}
    assert {"agents/loop-a.md", "agents/loop-b.md", "skills/s1/zero.txt"} <= set(reasons)
    assert [a["name"] for a in report.agents] == ["a1"]
    assert [s["name"] for s in report.skills] == ["s1"]


BAD_KNOWLEDGE = [".", "./", ".git", ".git/hooks", "sub/.git", "registries", "registries/agents",
                 ".orkestra", ".claude", ".claude/agents", ".Codex/x"]  # fmt: skip


@pytest.mark.parametrize("folder", BAD_KNOWLEDGE)
def test_the_knowledge_folder_is_never_the_root_git_registries_or_a_client_folder(
    proj: Path, cli: Any, folder: str
) -> None:
    # found by the hostile review: `knowledge: {path: .git/hooks}` passed validate and `notes
    # check` wrote .git/hooks/INDEX.md; with `path: .` the Stop hook's commit of "only the
    # knowledge folder" (knowledge.commit: true) would have committed the whole work tree
    from orkestra.core import project
    from orkestra.core.errors import InputError
    from orkestra.registry.config_file import load_config

    config = proj / "registries/orkestra.yaml"
    config.write_text(config.read_text() + f"knowledge:\n  path: '{folder}'\n  commit: true\n")
    with pytest.raises(InputError, match=r"knowledge\.path"):
        load_config(proj)
    with pytest.raises(project.NotLight, match=r"knowledge\.path"):
        project.read_light(proj)
    before = _tree(proj)
    result = cli("notes", "check", cwd=proj)
    assert result.exit_code == 1 and "knowledge.path" in result.stderr, result.stderr
    assert _tree(proj) == before


@pytest.mark.parametrize("folder", ["knowledge", "docs/knowledge", "kb", ".knowledge", "a.git"])
def test_an_ordinary_knowledge_folder_is_accepted(proj: Path, folder: str) -> None:
    from orkestra.core import project
    from orkestra.registry.config_file import load_config

    config = proj / "registries/orkestra.yaml"
    config.write_text(config.read_text() + f"knowledge:\n  path: {folder}\n")
    assert load_config(proj).knowledge.path == folder
    assert project.read_light(proj)["knowledge"]["path"] == folder


def test_a_registry_file_name_that_is_not_utf8_is_a_finding_never_a_crash(
    proj: Path, cli: Any
) -> None:
    folder = os.fsencode(proj / "registries" / "skills" / "project")
    os.rename(folder + b"/example-skill.yaml", folder + b"/ex\xe9mple.yaml")  # noqa: PTH104 - bytes
    result = cli("validate", cwd=proj)
    assert result.exit_code == 1, result.stderr
    assert (
        "registries/skills/project/ex\\xe9mple.yaml: error ORK001: the file name is not valid "
        "UTF-8; rename it" in result.stdout
    )
    assert cli("validate", "--format", "json", cwd=proj).exit_code == 1  # JSON-safe too
    assert cli("sync", cwd=proj).exit_code == 1


def test_a_resource_file_name_that_is_not_utf8_stops_sync_before_any_write(
    proj: Path, cli: Any
) -> None:
    skill = proj / "registries" / "skills" / "project" / "example-skill.yaml"
    skill.write_text(skill.read_text(encoding="utf-8") + "resources: example-skill/\n", "utf-8")
    resources = proj / "registries" / "skills" / "project" / "example-skill" / "references"
    resources.mkdir(parents=True)
    (resources / "ok.md").write_text("# ok\n", encoding="utf-8")
    with open(os.fsencode(resources) + b"/bad\xff.md", "wb") as handle:  # noqa: PTH123 - bytes
        handle.write(b"x\n")
    result = cli("sync", cwd=proj)
    assert result.exit_code == 1, result.stderr
    assert "bad\\xff.md" in result.stderr and "not valid UTF-8" in result.stderr
    assert not (proj / ".claude").exists()
