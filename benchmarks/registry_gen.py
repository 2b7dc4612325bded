"""Generate a large, valid registry (default 1,000 agents and 5,000 skills) for benchmarks."""

from __future__ import annotations

import sys
from pathlib import Path

from orkestra.core import yamlio
from orkestra.scaffold import init_project

TIERS = ("foundations", "identities", "domains", "stacks", "project")
LAYERS = ("K0", "K1", "K2", "K3", "K4")


def generate(root: Path, agents: int = 1000, skills: int = 5000) -> Path:
    """Write a registry under `root` (scaffold + many agents and skills); returns root."""
    init_project(root, force=True)
    reg = root / "registries"
    scopes = {f"scope-{i}": {"description": f"Scope {i}", "primary_skills": []} for i in range(50)}
    for i in range(skills):
        tier = 1 + i % 4  # K1..K4: K0 would reach every agent
        name = f"skill-{i:05d}"
        scope = f"scope-{i % 50}"
        data = {
            "metadata": {
                "identifier": name,
                "name": name,
                "description": f"Generated skill {i} for benchmarking. Use when you need topic {i % 97} handled well.",
                "type": "workflow",
                "layer": LAYERS[tier],
                "source": "core",
                "last_updated": "2026-11-01",
            },
            "frontmatter": {
                "tags": [f"tag-{i % 31}", f"area-{i % 7}"],
                "allowed_tools": ["Read", "Grep"],
            },
            "scopes": [scope],
            "sections": [
                {"title": "When to use", "body": f"When topic {i} comes up.\n"},
                {"title": "Steps", "body": "1. Read the code.\n2. Change it.\n3. Test it.\n" * 3},
                {"title": "Success criteria", "body": "Tests pass.\n"},
                {"title": "Recovery", "body": "Revert and retry.\n"},
            ],
        }
        path = reg / "skills" / TIERS[tier] / f"{name}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yamlio.dumps(data), encoding="utf-8")
    (reg / "scopes.yaml").write_text(
        yamlio.dumps(
            {
                "scopes": {
                    "example": {
                        "description": "Example scope",
                        "primary_skills": ["example-skill"],
                    },
                    **scopes,
                }
            }
        ),
        encoding="utf-8",
    )
    for i in range(agents):
        name = f"agent-{i:04d}"
        data = {
            "name": name,
            "description": f"Generated agent {i}. Use when benchmarking.",
            "category": f"cat-{i % 10}",
            "model": "sonnet",
            "identity": ["architect"],
            "mindset": "analytical",
            "style": "concise",
            "domains": ["example"],
            "scopes": [f"scope-{i % 50}", f"scope-{(i + 7) % 50}"],
            "skills": [f"skill-{(i * 3) % skills:05d}"],
            "tools": ["Read", "Grep", "Glob", "Bash"],
            "prompt": f"You are generated agent {i}.\n\nWork carefully.\n" * 4,
        }
        (reg / "agents" / f"{name}.yaml").write_text(yamlio.dumps(data), encoding="utf-8")
    return root


if __name__ == "__main__":
    generate(Path(sys.argv[1]))
