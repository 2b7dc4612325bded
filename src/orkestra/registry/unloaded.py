"""What a load error hides. A registry file that fails its schema is left out (whole, or the
entry at fault), so every reference to what it holds would look dangling: those follow-on
findings are not reported, because the load error already names the file, the line and the fix,
and fixing it resolves them.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry

#: kind -> the one file (or folder, ending in /) under registries/ holding every entry of it
_WHOLE = {
    "scope": "scopes.yaml",
    "tool": "tools.yaml",
    "identity": "characters/identities.yaml",
    "mindset": "characters/mindsets.yaml",
    "style": "characters/styles.yaml",
    "decision domain": "decisions/registry.yaml",
    "truth": "truths/",
    "domain": "domains/",
}
#: kinds with a file per entry, named after it (a decision record's name may add a slug)
_NAMED = {"agent", "skill", "decision"}
#: the codes of a file (or entry) that could not be loaded
_LOAD_CODES = frozenset({"ORK001", "ORK002", "ORK003"})  # ORK003: a misnamed entry is left out too


def load_failures(reg: Registry) -> list[Finding]:
    """The errors of files (or entries) that could not be loaded, so what they hold is missing."""
    return [f for f in reg.findings if f.code in _LOAD_CODES and f.severity == "error"]


def causes_first(reg: Registry, errors: list[Finding]) -> list[Finding]:
    """`errors` with those of loading first (a file that could not be read, parsed or placed),
    each part in its order: such a file is the one to fix first (what it holds is missing),
    so its error is named first, or among the first shown, however many others sort before it."""
    loaded = set(reg.findings)
    return [f for f in errors if f in loaded] + [f for f in errors if f not in loaded]


def hidden(reg: Registry, kind: str, name: str) -> bool:
    """Whether `name` of `kind` may be missing only because the file holding it failed to load."""
    return hiding(reg, kind, name) is not None


def hiding(reg: Registry, kind: str, name: str) -> Finding | None:
    """The load error of the first file that may hold `name` of `kind` (None when no file that
    failed to load could: a broken truths file never hides an agent, nor `other.yaml` the agent
    `name`)."""
    for failed in load_failures(reg):
        if kind in _WHOLE:
            base = f"{reg.registries.relative_to(reg.root).as_posix()}/{_WHOLE[kind]}"
            if failed.file == base or (base.endswith("/") and failed.file.startswith(base)):
                return failed
        elif kind in _NAMED and _holds(PurePosixPath(failed.file), name):
            return failed
    return None


def _holds(path: PurePosixPath, name: str) -> bool:
    """A failed file named after `name`: `name.yaml`, `DEC-XX-NNN-slug.yaml`, `name/SKILL.md`."""
    stem = path.parent.name if path.name.upper() == "SKILL.MD" else path.stem
    return stem == name or stem.startswith(f"{name}-")
