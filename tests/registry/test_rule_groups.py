"""Validation's two groups of rules: those reading the loaded registry alone, whose findings a
sync's write cannot change (the validation after the write takes them as they were), and those
reading what lies beside the registry, run again after it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from orkestra.registry import validate as rules
from orkestra.registry.loader import load
from orkestra.render import noop
from orkestra.render.sync import sync
from tests.render.conftest import build_rich

SIX = ["claude", "agents-md", "codex", "copilot", "cursor", "gemini"]


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rich project with every target, synced."""
    import yaml

    root = build_rich(tmp_path_factory.mktemp("groups") / "proj")
    config = root / "registries" / "orkestra.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["targets"] = SIX
    config.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    sync(root, mode="write")
    return root


def test_no_rule_is_in_both_groups() -> None:
    assert not set(rules.REGISTRY_RULES) & set(rules.DISK_RULES)


def test_the_registry_rules_open_and_list_nothing_beside_the_registry(synced: Path) -> None:
    """What they read lies among the inputs: the ledger's files, and the file a finding is
    about (a registry file, or a vendor skill's SKILL.md: its line is looked up there). A sync
    never writes there but the lock, which they do not read."""
    reg = load(synced, use_cache=False)
    with noop.tracing(synced) as trace:
        rules.registry_findings(reg)
    read, listed = trace.paths()
    inputs = tuple(f"{f}/" for f in noop._folders(reg) or ())
    assert all(p.startswith(inputs) for p in (*read, *listed)), (read, listed)
    assert "registries/.render-lock.json" not in read
    with noop.tracing(synced) as trace:  # the other group does read the outputs
        rules.validate(reg)
    assert "registries/.render-lock.json" in trace.paths()[0]


def test_a_vendor_skill_s_finding_is_looked_up_in_its_own_file(
    synced: Path, tmp_path: Path
) -> None:
    """A vendor root's default scope that does not exist: each of its skills refers to it,
    and the line is looked up in the skill's SKILL.md, inside the vendor root (an input the
    record walks)."""
    import yaml

    root = tmp_path / "proj"
    shutil.copytree(synced, root, symlinks=True)
    config = root / "registries" / "orkestra.yaml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["vendor_roots"][0]["default_scopes"].append("no-such-scope")
    config.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    reg = load(root, use_cache=False)
    with noop.tracing(root) as trace:
        found = rules.registry_findings(reg)
    vendor = f"{data['vendor_roots'][0]['path']}/"
    assert any(f.file.startswith(vendor) for f in found)
    read, listed = trace.paths()
    inputs = tuple(f"{f}/" for f in noop._folders(reg) or ())
    assert any(p.startswith(vendor) for p in read)
    assert all(p.startswith(inputs) for p in (*read, *listed)), (read, listed)


def test_a_write_s_outputs_gone_or_damaged_change_no_finding_of_the_registry_rules(
    synced: Path, tmp_path: Path
) -> None:
    """Every output removed, the lock damaged, AGENTS.md over Codex's limit: the findings of
    the registry's rules are those of the same load before; validation's whole answer is not."""
    root = tmp_path / "proj"
    shutil.copytree(synced, root, symlinks=True)
    reg = load(root, use_cache=False)
    known = rules.registry_findings(reg)
    whole = rules.validate(reg).findings
    assert rules.validate(reg, known).findings == whole
    lock = root / "registries" / ".render-lock.json"
    outputs = json.loads(lock.read_text(encoding="utf-8"))["files"]
    for rel in outputs:
        (root / rel).unlink(missing_ok=True)
    for rel in (".claude", ".codex", ".cursor", ".gemini", ".github", ".agents"):
        shutil.rmtree(root / rel, ignore_errors=True)
    (root / "CLAUDE.md").unlink()
    (root / "AGENTS.md").write_text("x" * 40_000, encoding="utf-8")
    lock.write_text("{", encoding="utf-8")
    assert rules.registry_findings(reg) == known
    after = rules.validate(reg, known).findings
    assert after != whole
    assert after == rules.validate(reg).findings
    assert {"ORK001", "ORK113"} <= {f.code for f in after} - {f.code for f in whole}
