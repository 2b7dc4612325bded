"""Reference resolution: every kind of dangling reference is reported where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.registry.loader import load
from tests.conftest import write
from tests.registry.helpers import edit, findings, scaffold

AGENT = "registries/agents/example-agent.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return scaffold(tmp_path / "proj")


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("identity", ["ghost"], "ORK020"),
        ("mindset", "ghost", "ORK021"),
        ("style", "ghost", "ORK022"),
        ("scopes", ["ghost"], "ORK023"),
        ("skills", ["ghost"], "ORK024"),
        ("tools", ["Teleport"], "ORK025"),
        ("mcp_tools", ["mcp__nowhere__x"], "ORK025"),
        ("domains", ["ghost"], "ORK026"),
    ],
)
def test_agent_dangling_reference(root: Path, field: str, value: object, code: str) -> None:
    edit(root, AGENT, **{field: value})
    (finding,) = findings(root)
    assert (finding.code, finding.file, finding.severity) == (code, AGENT, "error")
    bad = value if isinstance(value, str) else value[0]  # type: ignore[index]
    lines = (root / AGENT).read_text(encoding="utf-8").splitlines()
    assert finding.line > 1 and bad in lines[finding.line - 1]  # the reference's line, not 1
    assert f"'{bad}'" in finding.message


def test_a_near_miss_names_the_closest_existing_names_at_its_line(root: Path) -> None:
    write(
        root,
        AGENT,
        (root / AGENT).read_text(encoding="utf-8").replace("- Grep", "- Grpe"),
    )
    (finding,) = findings(root)
    lines = (root / AGENT).read_text(encoding="utf-8").splitlines()
    assert (finding.code, lines[finding.line - 1].strip()) == ("ORK025", "- Grpe")
    assert finding.message.endswith("refers to unknown tool 'Grpe'; did you mean Grep?")


def test_a_name_nothing_resembles_points_to_the_list(root: Path) -> None:
    edit(root, AGENT, scopes=["zzzzqqq"])
    (finding,) = findings(root)
    assert finding.message.endswith(
        "refers to unknown scope 'zzzzqqq'; no scope is named so (`orkestra scopes list` shows them)"
    )


def test_agent_replaced_by_unknown(root: Path) -> None:
    edit(root, AGENT, status="deprecated", replaced_by="ghost")
    assert [f.code for f in findings(root)] == ["ORK031"]


def test_scope_to_missing_skill(root: Path) -> None:
    write(
        root,
        "registries/scopes.yaml",
        "scopes:\n  example:\n    description: x\n    primary_skills: [ghost]\n",
    )
    (finding,) = findings(root)
    assert (finding.code, finding.file, finding.line) == ("ORK024", "registries/scopes.yaml", 4)


def test_skill_to_missing_scope_and_tool(root: Path) -> None:
    path = root / "registries/skills/project/example-skill.yaml"
    text = path.read_text(encoding="utf-8").replace("scopes:\n  - example", "scopes:\n  - ghost")
    text = text.replace("allowed_tools:\n    - Read", "allowed_tools:\n    - Teleport")
    path.write_text(text, encoding="utf-8")
    got = sorted((f.code, f.line) for f in findings(root))
    lines = text.splitlines()
    assert got == [
        ("ORK023", lines.index("  - ghost") + 1),
        ("ORK025", lines.index("    - Teleport") + 1),
    ]


def test_a_reference_in_a_later_entry_of_a_shared_file_points_into_that_entry(root: Path) -> None:
    write(
        root,
        "registries/scopes.yaml",
        "scopes:\n  example:\n    description: ghost\n    primary_skills: [example-skill]\n"
        "  other:\n    description: x\n    primary_skills:\n      - example-skill\n      - ghost\n",
    )
    (finding,) = findings(root)
    assert (finding.code, finding.line) == ("ORK024", 9)
    assert finding.message.startswith("scope 'other' refers to unknown skill 'ghost'")


def test_truth_superseded_by_unknown(root: Path) -> None:
    path = root / "registries/truths/project.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "status: current", "status: deprecated\n    superseded_by: GT-PRJ-009"
    )
    path.write_text(text, encoding="utf-8")
    (finding,) = findings(root)
    assert finding.code == "ORK027" and "GT-PRJ-009" in finding.message
    assert finding.message.endswith("; did you mean GT-PRJ-001?")  # as ORK020-026 suggest
    # the line `superseded_by` is written on (the entry starts at line 7)
    lines = text.splitlines()
    assert finding.line == lines.index("    superseded_by: GT-PRJ-009") + 1 == 9


def test_decision_related_and_superseded_by_unknown(root: Path) -> None:
    rel = "registries/decisions/records/DEC-AR-001.yaml"
    edit(root, rel, related=["DEC-AR-002"], status="superseded", superseded_by="DEC-AR-003")
    assert sorted((f.code, f.file) for f in findings(root)) == [("ORK028", rel), ("ORK028", rel)]


def test_decision_unknown_references_point_at_their_lines(root: Path) -> None:
    """ORK028 is told where the unknown id is written (as ORK020-026 are), not at `id:`."""
    rel = "registries/decisions/records/DEC-AR-001.yaml"
    text = (root / rel).read_text(encoding="utf-8").replace("status: active", "status: superseded")
    text += (
        "related:\n  - DEC-AR-001\n  # the next one\n  - DEC-AR-002\nsuperseded_by: DEC-AR-003\n"
    )
    write(root, rel, text)
    lines = text.splitlines()
    got = sorted((f.line, f.code, f.message) for f in findings(root))
    assert [(line, code) for line, code, _ in got] == [
        (lines.index("  - DEC-AR-002") + 1, "ORK028"),
        (lines.index("superseded_by: DEC-AR-003") + 1, "ORK028"),
    ]
    assert "DEC-AR-002" in got[0][2] and "DEC-AR-003" in got[1][2]
    assert got[0][2].endswith("; did you mean DEC-AR-001?")  # the closest existing record
    flow = text.replace("related:\n  - DEC-AR-001\n  # the next one\n  - DEC-AR-002\n",
                        "related: [DEC-AR-001, DEC-AR-002]\n")  # fmt: skip
    write(root, rel, flow)
    first = sorted(f.line for f in findings(root))[0]
    assert first == flow.splitlines().index("related: [DEC-AR-001, DEC-AR-002]") + 1


def test_decision_domain_not_registered(root: Path) -> None:
    edit(root, "registries/decisions/records/DEC-AR-001.yaml", domain="elsewhere")
    assert [f.code for f in findings(root)] == ["ORK029"]


def test_evidence_path_missing_is_a_warning(root: Path) -> None:
    path = root / "registries/truths/project.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "- registries/orkestra.yaml", "- src/gone.py#main"
        ),
        encoding="utf-8",
    )
    (finding,) = findings(root)
    assert (finding.code, finding.severity) == ("ORK105", "warning")


def test_vendor_root_missing_and_vendor_skill_loaded(root: Path) -> None:
    write(
        root,
        "registries/orkestra.yaml",
        "vendor_roots:\n  - {path: vendor/acme, provider: acme, default_scopes: [example]}\n",
    )
    assert [f.code for f in findings(root)] == ["ORK030"]
    write(
        root,
        "vendor/acme/pdf-tools/SKILL.md",
        "---\nname: pdf-tools\ndescription: Work with PDF files. Use when the user asks to read or fill a PDF form.\nargument-hint: file\n---\n# PDF\n",
    )
    assert [f.code for f in findings(root)] == ["ORK106"]
    reg = load(root)
    assert reg.skills["pdf-tools"].source == "vendor" and reg.skills["pdf-tools"].provider == "acme"
    assert "pdf-tools" in reg.agent_skills(reg.agents["example-agent"])  # via default scope


def test_vendor_name_clash_names_both_files(root: Path) -> None:
    write(
        root, "registries/orkestra.yaml", "vendor_roots:\n  - {path: vendor/acme, provider: acme}\n"
    )
    write(
        root,
        "vendor/acme/example-skill/SKILL.md",
        "---\nname: example-skill\ndescription: Clash. Use when testing clashes between core and vendor skills.\n---\nbody\n",
    )
    (finding,) = [f for f in findings(root) if f.code == "ORK010"]
    assert "vendor/acme/example-skill/SKILL.md" in f"{finding.file} {finding.message}"
    assert "registries/skills/project/example-skill.yaml" in f"{finding.file} {finding.message}"


def test_skill_set_and_dormancy(root: Path) -> None:
    write(
        root,
        "registries/skills/stacks/lonely.yaml",
        """metadata:
  identifier: lonely
  name: lonely
  description: A skill nobody loads. Use when checking that dormant skills are detected properly.
  type: discipline
  layer: K3
sections:
  - {title: When to use, body: x}
  - {title: Rules, body: x}
scopes: [sleepy]
""",
    )
    write(
        root,
        "registries/scopes.yaml",
        "scopes:\n  example: {description: x, primary_skills: [example-skill]}\n  sleepy: {description: nobody activates it}\n",
    )
    reg = load(root)
    assert reg.dormant_skills() == ["lonely"] and reg.dormant_scopes() == ["sleepy"]
    origins = reg.skill_origins(reg.agents["example-agent"])
    assert origins == {"example-skill": ["scope:example"]}
    edit(root, AGENT, skills=["lonely"])
    reg = load(root)
    assert reg.dormant_skills() == [] and reg.skill_origins(reg.agents["example-agent"])[
        "lonely"
    ] == ["explicit"]
    assert findings(root) == []


def test_all_findings_collected_in_one_run(root: Path) -> None:
    write(root, "registries/agents/broken.yaml", "name: broken\ndescription: [unclosed\n")
    write(
        root,
        "registries/characters/styles.yaml",
        "concise:\n  description: x\nconcise:\n  description: y\n",
    )
    edit(root, AGENT, tools=["Nope"])
    got = {(f.code, f.file) for f in findings(root)}
    assert ("ORK001", "registries/agents/broken.yaml") in got
    assert ("ORK001", "registries/characters/styles.yaml") in got
    assert ("ORK025", AGENT) in got


def test_vendor_root_or_skill_reached_through_a_symlink_out_is_refused(
    root: Path, tmp_path: Path
) -> None:
    skill = "---\nname: {0}\ndescription: Leak it. Use when you want files from outside.\n---\nx\n"
    write(tmp_path, "outside/acme/evil/SKILL.md", skill.format("evil"))
    write(tmp_path, "outside/inner/sneaky/SKILL.md", skill.format("sneaky"))
    (root / "vendor").mkdir()
    (root / "vendor/acme").symlink_to(tmp_path / "outside/acme")
    write(
        root,
        "registries/orkestra.yaml",
        "vendor_roots:\n  - {path: vendor/acme, provider: acme, default_scopes: [example]}\n",
    )
    reg = load(root)
    assert "evil" not in reg.skills
    assert [(f.code, f.file) for f in findings(root)] == [("ORK045", "registries/orkestra.yaml")]
    # an overlay entry that reaches out through a symlinked folder inside a real root
    (root / "vendor/acme").unlink()
    write(root, "vendor/acme/ok/SKILL.md", skill.format("ok"))
    (root / "vendor/acme/sub").symlink_to(tmp_path / "outside/inner")
    write(
        root,
        "registries/vendor/acme.yaml",
        "provider: acme\nskills:\n  sneaky: {path: vendor/acme/sub/sneaky, layer: K3}\n",
    )
    assert "sneaky" not in load(root).skills
    assert [f.code for f in findings(root)] == ["ORK045"]
