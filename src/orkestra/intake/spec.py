"""The Agent Skills specification check, matching the reference validator (`skills-ref`).

The rules mirror `skills_ref.validator` exactly (allowed keys, name and description limits, NFKC
name handling, directory match) and its parser's quirks: the file must start with `---`, the
frontmatter ends at the next `---`, and strictyaml reads every scalar as a string and refuses flow
collections and tags. Claude Code extension keys are reported as such; the reference validator
rejects them like any other key, and so does this check.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from orkestra.core import yamlio
from orkestra.core.errors import InputError

MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
ALLOWED_KEYS = ("name", "description", "license", "allowed-tools", "metadata", "compatibility")
#: frontmatter keys Claude Code understands beyond the Agent Skills spec
CLAUDE_CODE_KEYS = frozenset(
    {
        "argument-hint",
        "disable-model-invocation",
        "user-invocable",
        "model",
        "context",
        "agent",
        "hooks",
        "version",
    }
)
# strictyaml refuses flow collections and tags; PyYAML accepts them, so they are caught here
_BLOCK_START = re.compile(r"^\s*(?:-\s+|[^\s#][^:#]*:\s+)[|>][-+0-9]*\s*(?:#.*)?$")
_FLOW_OR_TAG = re.compile(r"^\s*(?:-\s+|[^\s#'\"][^:#]*:\s+)(?:[\[{]|![\w!<])")


@dataclass
class SpecResult:
    """Spec verdict for one SKILL.md: errors agree with `agentskills validate`."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    extension_keys: list[str] = field(default_factory=list)
    unknown_keys: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)
    body: str = ""

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def only_extension_keys(self) -> bool:
        """Invalid only because of Claude Code extension keys."""
        if not self.extension_keys or set(self.unknown_keys) - set(self.extension_keys):
            return False
        return all(e.startswith("Unexpected") for e in self.errors)

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": self.errors,
            "warnings": self.warnings,
            "extension_keys": self.extension_keys,
        }


def check(text: str, folder_name: str, *, body_max_lines: int = 500) -> SpecResult:
    """Check SKILL.md text against the spec; `folder_name` is the skill folder's name."""
    result = SpecResult()
    if not text.startswith("---"):
        result.errors.append("SKILL.md must start with YAML frontmatter (---)")
        return result
    parts = text.split("---", 2)
    if len(parts) < 3:
        result.errors.append("SKILL.md frontmatter not properly closed with ---")
        return result
    head, result.body = parts[1], parts[2]
    meta = _parse(head, result)
    if meta is None:
        return result
    result.meta = meta
    _validate(meta, folder_name, result)
    lines = result.body.strip().count("\n") + 1 if result.body.strip() else 0
    if lines > body_max_lines:
        result.warnings.append(
            f"body has {lines} lines; the spec recommends under {body_max_lines} "
            "(move detail into references/)"
        )
    return result


def _parse(head: str, result: SpecResult) -> dict[str, Any] | None:
    block_indent: int | None = None  # inside a `|` or `>` block scalar: text, not YAML
    for number, line in enumerate(head.splitlines(), start=1):
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and (not line.strip() or indent > block_indent):
            continue
        block_indent = indent if _BLOCK_START.match(line) else None
        if _FLOW_OR_TAG.match(line):
            result.errors.append(
                f"Invalid YAML in frontmatter: line {number}: flow collections ([...], {{...}}) "
                "and tags are not allowed (write block style)"
            )
            return None
    try:
        data = yamlio.loads(head, "SKILL.md")
    except InputError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        result.errors.append(f"Invalid YAML in frontmatter: {where}{exc.message}")
        return None
    if not isinstance(data, yamlio.LineDict):
        result.errors.append("SKILL.md frontmatter must be a YAML mapping")
        return None
    lines = head.splitlines()
    meta: dict[str, Any] = {}
    for key, value in data.items():
        number = data.key_lines.get(key, 0)
        result.key_lines[str(key)] = number
        raw = lines[number - 1] if 0 < number <= len(lines) else ""
        meta[str(key)] = _as_strict(value, raw)
    return meta


def _as_strict(value: Any, line: str) -> Any:
    """Scalars as strictyaml sees them: the text as written (`yes` stays "yes", `~` is "~")."""
    if isinstance(value, (str, dict, list)):
        return value
    raw = line.split(":", 1)[1] if ":" in line else ""
    raw = re.sub(r"\s+#.*$", "", raw).strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        raw = raw[1:-1]
    return raw


def _validate(meta: dict[str, Any], folder_name: str, result: SpecResult) -> None:
    extra = sorted(set(meta) - set(ALLOWED_KEYS))
    if extra:
        result.unknown_keys = extra
        result.extension_keys = [k for k in extra if k in CLAUDE_CODE_KEYS]
        notes = [f"{k} (Claude Code extension)" if k in CLAUDE_CODE_KEYS else k for k in extra]
        result.errors.append(
            f"Unexpected fields in frontmatter: {', '.join(notes)}. "
            f"Only {sorted(ALLOWED_KEYS)} are allowed."
        )
    if "name" not in meta:
        result.errors.append("Missing required field in frontmatter: name")
    else:
        result.errors.extend(_name_errors(meta["name"], folder_name))
    if "description" not in meta:
        result.errors.append("Missing required field in frontmatter: description")
    else:
        result.errors.extend(_description_errors(meta["description"]))
    if "compatibility" in meta:
        value = meta["compatibility"]
        if not isinstance(value, str):
            result.errors.append("Field 'compatibility' must be a string")
        elif len(value) > MAX_COMPATIBILITY:
            result.errors.append(
                f"Compatibility exceeds {MAX_COMPATIBILITY} character limit ({len(value)} chars)"
            )


def _name_errors(value: Any, folder_name: str) -> list[str]:
    if not isinstance(value, str) or not value.strip():
        return ["Field 'name' must be a non-empty string"]
    name = unicodedata.normalize("NFKC", value.strip())
    errors = []
    if len(name) > MAX_NAME:
        errors.append(f"Skill name '{name}' exceeds {MAX_NAME} character limit ({len(name)} chars)")
    if name != name.lower():
        errors.append(f"Skill name '{name}' must be lowercase")
    if name.startswith("-") or name.endswith("-"):
        errors.append("Skill name cannot start or end with a hyphen")
    if "--" in name:
        errors.append("Skill name cannot contain consecutive hyphens")
    if not all(c.isalnum() or c == "-" for c in name):
        errors.append(
            f"Skill name '{name}' contains invalid characters. "
            "Only letters, digits, and hyphens are allowed."
        )
    if unicodedata.normalize("NFKC", folder_name) != name:
        errors.append(f"Directory name '{folder_name}' must match skill name '{name}'")
    return errors


def _description_errors(value: Any) -> list[str]:
    if not isinstance(value, str) or not value.strip():
        return ["Field 'description' must be a non-empty string"]
    if len(value) > MAX_DESCRIPTION:
        return [f"Description exceeds {MAX_DESCRIPTION} character limit ({len(value)} chars)"]
    return []
