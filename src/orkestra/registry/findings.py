"""Findings: what validation reports, with stable codes (documented in docs/findings.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]

#: code -> (default severity, meaning). The one table of finding codes; docs/findings.md mirrors it.
CODES: dict[str, tuple[Severity, str]] = {
    "ORK001": (
        "error",
        "file or folder cannot be read or parsed (permissions, YAML syntax, encoding, size, "
        "binary, a NUL character in text, nesting deeper than 64 levels, a path the render "
        "lock lists twice)",
    ),
    "ORK002": (
        "error",
        "schema violation: a field is missing, unknown or has the wrong value (the file, or the "
        "entry, is left out until fixed; references to what it holds are not reported as dangling)",
    ),
    "ORK003": (
        "error",
        "name or id does not equal the file stem (the entry is left out until fixed; references "
        "to the file's name are not reported as dangling)",
    ),
    "ORK004": ("error", "unexpected file or folder where the registry layout expects another"),
    "ORK005": ("error", "registries/ folder or orkestra.yaml missing"),
    "ORK010": (
        "error",
        "duplicate name or id (both places are named), or two decision domains sharing one code",
    ),
    "ORK020": ("error", "dangling reference to an identity"),
    "ORK021": ("error", "dangling reference to a mindset"),
    "ORK022": ("error", "dangling reference to a style"),
    "ORK023": ("error", "dangling reference to a scope"),
    "ORK024": ("error", "dangling reference to a skill"),
    "ORK025": ("error", "tool not registered in tools.yaml (tools_registered)"),
    "ORK026": ("error", "dangling reference to a domain folder"),
    "ORK027": ("error", "dangling reference to a ground truth"),
    "ORK028": ("error", "dangling reference to a decision record"),
    "ORK029": ("error", "decision domain or id code not in decisions/registry.yaml"),
    "ORK030": ("error", "vendor root folder missing"),
    "ORK031": ("error", "dangling reference to an agent"),
    "ORK032": (
        "error",
        "a superseded_by or replaced_by chain loops back (an entry replaced by itself, or two "
        "replacing each other): none of its entries is current",
    ),
    "ORK040": ("error", "skill layer disagrees with its tier folder"),
    "ORK041": ("error", "skill resources folder missing"),
    "ORK042": ("error", "a specialist holds the agent-spawning tool (only orchestrators may)"),
    "ORK043": ("error", "domain folder does not hold the four domain files"),
    "ORK044": ("error", "skill description over the Agent Skills hard limit of 1024 characters"),
    "ORK045": (
        "error",
        "path or name could leave the project (unsafe), or a registry file is a symlink out of it",
    ),
    "ORK046": (
        "error",
        "render lock entry outside its target's output roots, in .git/, registries/ or "
        "knowledge/, or below a symlinked folder (sync ignores it)",
    ),
    "ORK047": (
        "error",
        "render.claude_md_path names a file Orkestra does not own that has no managed-block markers",
    ),
    "ORK048": ("error", "a mining.packages pattern matches no tracked file"),
    "ORK049": (
        "error",
        "a file Orkestra keeps its managed block in (CLAUDE.md, AGENTS.md, Copilot's "
        "instructions) has a marker without its partner, holds the block twice, or is a symlink: "
        "sync refuses it",
    ),
    "ORK050": ("error", "ledger line is not valid JSON or breaks the line format"),
    "ORK051": ("error", "ledger ends with a torn (unterminated) line"),
    "ORK052": ("error", "two unsuperseded classifications of one sha in one domain"),
    "ORK053": ("warning", "ledger references a decision record that does not exist yet (pending)"),
    "ORK054": ("error", "duplicate ledger entry id"),
    "ORK055": ("error", "ledger entry `supersedes` an id that is not in the ledger"),
    "ORK056": ("error", "ledger sha is not a commit of the current branch's history"),
    "ORK057": ("error", "release note links a classification that is not in the ledger"),
    "ORK058": ("error", "two unsuperseded release notes for one commit and package"),
    "ORK059": ("error", "release classification without a release note (an interrupted write)"),
    "ORK060": (
        "warning",
        "ledger shas not checked: a shallow clone lacks the history behind its boundary",
    ),
    "ORK061": (
        "warning",
        "release notes name a package mining.packages does not configure (renamed or removed): "
        "no changelog shows them",
    ),
    "ORK062": ("warning", "release note `date` is not a calendar date (YYYY-MM-DD)"),
    "ORK101": (
        "warning",
        "skill description shorter than 50 or longer than 400 characters (authored skills; "
        "imported ones are judged by the Agent Skills spec only)",
    ),
    "ORK102": (
        "warning",
        "skill description has no trigger phrase (Use when, Use this when, Use for, When you "
        "need, Use PROACTIVELY, ...; the same test as `skills intake`; authored skills only)",
    ),
    "ORK103": (
        "warning",
        "skill lacks a section its type requires (authored skills; an imported skill keeps its "
        "own structure)",
    ),
    "ORK104": ("warning", "stale date (last_verified older than truths.stale_after_days)"),
    "ORK105": ("warning", "ground-truth evidence path does not exist (or is empty)"),
    "ORK106": ("warning", "vendor SKILL.md uses frontmatter keys outside the Agent Skills spec"),
    "ORK107": ("warning", "extra file in a domain folder"),
    "ORK108": (
        "warning",
        "agent description spans several lines or exceeds 1024 characters (authored agents; "
        "an imported one keeps its own)",
    ),
    "ORK109": (
        "warning",
        "a name, title or description holds bidirectional control characters (U+202A-U+202E, "
        "U+2066-U+2069, U+200E, U+200F, U+061C)",
    ),
    "ORK110": (
        "warning",
        "an agent's or command's model is not one a configured render target accepts (claude: "
        "inherit, sonnet, opus, haiku or a full claude-… id)",
    ),
    "ORK111": (
        "warning",
        "an agent's tool has no equivalent in a configured client target (left out of that "
        "client's file; docs/clients/<client>.md has the mapping tables)",
    ),
    "ORK112": (
        "warning",
        "an agent's per-client model (`models: {codex: …}`) is a Claude model name: the client "
        "gets its own default model instead",
    ),
    "ORK113": (
        "warning",
        "AGENTS.md is over Codex's 32 KiB default read limit (project_doc_max_bytes)",
    ),
    "ORK114": (
        "warning",
        "orkestra.yaml holds a value the hooks' plain reader cannot read for certain "
        "(`commit: 1`, a block scalar): the knowledge hooks stay off until it is written plainly",
    ),
    "ORK115": (
        "warning",
        "an MCP server of registries/mcp.yaml holds a `${VAR}` a configured client cannot expand "
        "(Codex: only `NAME: ${NAME}` env entries and `${VAR}` or `Bearer ${VAR}` headers)",
    ),
    "ORK116": (
        "warning",
        "an agent's `clients` leave out every configured target that writes agent files "
        "(`clients: []`): no client gets it",
    ),
    "ORK117": (
        "warning",
        "a reference list names one item more than once (`identity: [reviewer, reviewer]`): "
        "the output repeats it; told at the line of the repeat",
    ),
}


@dataclass(frozen=True, order=True)
class Finding:
    """One validation result, pointing at `file:line`."""

    file: str
    line: int
    code: str
    severity: Severity
    message: str

    @classmethod
    def make(cls, code: str, message: str, file: str, line: int | None = None) -> Finding:
        return cls(file=file, line=line or 0, code=code, severity=CODES[code][0], message=message)

    def format(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity} {self.code}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return as_json(self.file, self.line, self.severity, self.code, self.message)


def as_json(
    file: str, line: int | None, severity: str, code: str, message: str
) -> dict[str, object]:
    """A finding in the JSON contract (§5): `line` null when the file as a whole is meant."""
    return {
        "file": file,
        "line": line or None,
        "severity": severity,
        "code": code,
        "message": message,
    }


def markdown() -> str:
    """docs/findings.md, generated from CODES: `python -m orkestra.registry.findings`."""
    lines = [
        "# Validation finding codes",
        "",
        "`orkestra validate` prints each finding as `file:line: severity code: message`.",
        "Errors make the registry unreadable, ambiguous or unsafe: `sync` refuses to run. Warnings are the",
        "quality gates: shown with `--show-warnings`, errors under `--strict` (this repo's CI runs `--strict`).",
        "The codes are stable. This page is generated from the table in `src/orkestra/registry/findings.py`",
        "(`python -m orkestra.registry.findings > docs/findings.md`); a test keeps the two equal.",
        "",
        "| code | severity | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| {code} | {sev} | {meaning} |" for code, (sev, meaning) in CODES.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(markdown())


@dataclass(frozen=True)
class Report:
    """All findings of one validation run, sorted by file and line."""

    findings: tuple[Finding, ...]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    def ok(self, *, strict: bool = False) -> bool:
        return not self.errors and not (strict and self.warnings)
