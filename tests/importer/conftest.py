"""A messy plugin marketplace to import, and a fresh project to import it into."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.scaffold import init_project
from tests.conftest import write

LONG = (
    "Coordinates specialists across the codebase. Use when a task spans several areas and "
    "needs delegation to the right specialist for each part, keeping the plan coherent and "
    "tracking progress across every step, then reporting back once the work is verified, with "
    "a summary of changes, open questions, risks and follow-ups the user should know about "
    "before merging the resulting work into the main branch."
)

AGENTS = {
    "plugins/alpha/agents/code-reviewer.md": """---
name: code-reviewer
description: |
  Reviews code for quality and security.
  Use PROACTIVELY after any change: <example>user: review this</example>
tools: Read, Grep, Glob, Bash(git diff:*), mcp__github__get_pr
model: sonnet
color: magenta
permissionMode: plan
---

# Code reviewer

You review code.

## Checklist

- Security
""",
    "plugins/beta/agents/lead.md": f"""---
name: lead-orchestrator
description: {LONG}
tools:
  - Read
  - Agent
  - TodoWrite
skills: [pdf-tools, review-checklist]
model: claude-opus-4-1
---
Delegate carefully.
""",
    "plugins/beta/agents/thinker.md": """---
name: thinker
description: "Thinks only: no tools at all."
tools: []
---

Just think.

```
## not a heading
```
""",
    "plugins/gamma/agents/db-expert.md": """---
name: db-expert
description: >-
  Database expert, folded
  over two lines.
tools: [Read, "mcp__postgres__query", mcp__postgres__describe_table]
skills: pdf-tools
---
Know SQL.
""",
    ".claude/agents/local.md": """---
name: local
description: Local agent.
---
Local body.
""",
}

SKILLS = {
    "plugins/alpha/skills/pdf-tools/SKILL.md": """---
name: pdf-tools
description: Extract text from PDFs. Use when the user hands you a PDF.
allowed-tools: Bash(python:*) Read
argument-hint: "[file]"
version: 1.2.0
license: MIT
metadata:
  author: someone
  tags: pdf, text
---

# PDF tools

Intro text.

## When to use

When a PDF shows up.

```bash
## not a heading
python scripts/extract.py
```

## Steps

1. Run it.
""",
    "plugins/beta/skills/review-checklist/SKILL.md": """---
name: review-checklist
description: Review checklist. Use for code reviews.
allowed-tools:
  - Read
  - Grep
user-invocable: false
---
## When to use
Always.
## Checklist
- [ ] tests
""",
}


def build_marketplace(base: Path) -> Path:
    for rel, text in {**AGENTS, **SKILLS}.items():
        write(base, rel, text)
    script = write(base, "plugins/alpha/skills/pdf-tools/scripts/extract.sh", "#!/bin/sh\necho\n")
    script.chmod(0o755)
    write(base, "plugins/alpha/skills/pdf-tools/references/REFERENCE.md", "# Reference\n")
    write(base, "plugins/alpha/agents/README.md", "# Agents of alpha\n")
    return base


@pytest.fixture(autouse=True)
def _pinned_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-11-30")


@pytest.fixture
def market(tmp_path: Path) -> Path:
    return build_marketplace(tmp_path / "market")


@pytest.fixture
def target(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    init_project(root)
    return root
