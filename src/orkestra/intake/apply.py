"""`--apply`: register the vendor root in orkestra.yaml and write the provider's overlay.

Everything is computed and validated in memory first (the new Config and the new overlay through
their models, every scope named exists); then the overlay and orkestra.yaml are written as one
batch (both staged and synced before either is renamed), each only while it still holds the bytes
read. An existing overlay is edited as text (`core.yamlmerge.entries_set`), its comments kept. orkestra.yaml is changed only when the root
is new: the root is added to `vendor_roots` as text (`core.yamlmerge`), so its comments and layout
stay (a file with comments that cannot be added to as text is refused, naming the line).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from orkestra.core import safewrite, yamlio, yamlmerge
from orkestra.core.errors import ConflictError, InputError, UnsafePathError, UsageError
from orkestra.intake import normalise
from orkestra.intake.evaluate import Candidate, Options
from orkestra.intake.walker import is_skill_folder
from orkestra.registry.models import Config, VendorRoot
from orkestra.registry.models.vendor import AdoptedSkill, VendorOverlay
from orkestra.registry.registry import Registry

CONFIG = "registries/orkestra.yaml"


@dataclass(frozen=True)
class Plan:
    """What --apply will write."""

    root: VendorRoot
    new_root: bool
    overlay_file: str
    overlay: VendorOverlay
    overlay_text: str  # the overlay file's new text (an existing one edited as text)
    overlay_raw: bytes | None  # the bytes it replaces (None: there was no file)
    config_text: str | None  # the new orkestra.yaml, when the root is new
    config_raw: bytes | None  # the bytes it replaces (None: there was no file)
    added: list[str]
    updated: list[str]
    removed: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "vendor_root": self.root.model_dump(),
            "root_registered": self.new_root,
            "overlay": self.overlay_file,
            "added": self.added,
            "updated": self.updated,
            "removed": self.removed,
            "active": sorted(self.overlay.skills),
        }


def relative_inside(project: Path, path: Path) -> str:
    """`path` relative to the project, refusing anything (or any symlink) that leaves it."""
    try:
        rel = path.resolve().relative_to(project.resolve())
    except ValueError:
        raise UnsafePathError(
            f"{path} is outside the project {project}; put vendor skills inside it (e.g. vendor/<provider>/)"
        ) from None
    return rel.as_posix()


def find_root(reg: Registry, path: Path) -> VendorRoot | None:
    """The configured vendor root holding `path`, if any."""
    target = path.resolve()
    for root in reg.config.vendor_roots:
        base = (reg.root / root.path).resolve()
        if target == base or base in target.parents:
            return root
    return None


def plan(reg: Registry, path: Path, candidates: list[Candidate], options: Options) -> Plan:
    """Compute and validate everything --apply writes; raises before anything is written."""
    existing = find_root(reg, path)
    provider = options.provider or (existing.provider if existing else None)
    if provider is None:
        raise UsageError("--apply needs --provider NAME for a new vendor root")
    if existing is not None and existing.provider != provider:
        raise ConflictError(
            f"{existing.path} is registered for provider '{existing.provider}', not '{provider}'",
            file=CONFIG,
        )
    unknown = [s for s in options.scopes if s not in reg.scopes]
    if unknown:
        raise UsageError(
            f"unknown scope(s): {', '.join(unknown)}; declare them in registries/scopes.yaml first"
        )
    root = existing or _new_root(reg, path, provider, options)
    overlay_file = f"registries/vendor/{provider}.yaml"
    overlay_path = reg.root / safewrite.check_target(reg.root, overlay_file)
    skills = dict(_load_overlay(overlay_path, overlay_file, provider).skills)
    added: list[str] = []
    updated: list[str] = []
    removed: list[str] = []
    for candidate in candidates:
        if candidate.verdict == "reject" and candidate.name in skills:
            del skills[candidate.name]
            removed.append(candidate.name)
        if candidate.verdict != "adopt":
            continue
        (updated if candidate.name in skills else added).append(candidate.name)
        skills[candidate.name] = _adopted(reg.root, candidate, options)
    try:
        overlay = VendorOverlay(provider=provider, skills=dict(sorted(skills.items())))
    except ValidationError as exc:
        raise InputError(
            f"overlay would be invalid: {exc.errors()[0]['msg']}", file=overlay_file
        ) from None
    config_text, config_raw = (None, None) if existing is not None else _config_with(reg.root, root)
    overlay_text, overlay_raw = _overlay_text(overlay_path, overlay_file, overlay)
    return Plan(
        root, existing is None, overlay_file, overlay, overlay_text, overlay_raw, config_text,
        config_raw, added, updated, removed,
    )  # fmt: skip


def _overlay_text(path: Path, display: str, overlay: VendorOverlay) -> tuple[str, bytes | None]:
    """The overlay file's new text and the bytes it replaces: a new file dumped whole; an
    existing one edited as text (`yamlmerge.entries_set`: each adopted skill's entry added,
    replaced or taken out where it stands), so the team's comments and other entries stay, or
    refused naming its first comment when that cannot be done."""
    made = overlay.model_dump()
    if not path.is_file():
        return yamlio.dumps(made), None
    text = yamlio.read_text(path, display=display, bom=True)
    raw = text.encode("utf-8")  # the bytes read (strict UTF-8, the mark kept): checked at the write
    loaded = yamlio.loads(text, display)
    old: dict[str, Any] = dict(loaded) if isinstance(loaded, dict) else {}
    found = old.get("skills")
    before: dict[str, Any] = found if isinstance(found, dict) else {}
    skills = {name: before[name] if name in before and _same(before[name], entry) else entry
              for name, entry in made["skills"].items()}  # fmt: skip
    new = {**old, "provider": made["provider"], "skills": skills}
    return yamlmerge.entries_set(text, old, new, display, "skills"), raw


def _same(written: Any, entry: dict[str, Any]) -> bool:
    """Whether an overlay entry as the file holds it says what the model's `entry` says (its
    defaults left out, or spelled otherwise): then its lines are left as they are."""
    try:
        return bool(AdoptedSkill.model_validate(written).model_dump() == entry)
    except ValidationError:
        return False


def _config_with(project: Path, root: VendorRoot) -> tuple[str, bytes | None]:
    """orkestra.yaml with `root` appended to vendor_roots, validated by the Config model, and
    the bytes it replaces."""
    path = project / CONFIG
    raw = path.read_bytes() if path.is_file() else None
    data = yamlio.load_mapping(path, display=CONFIG, allow_empty=True)
    updated = dict(data)
    updated["vendor_roots"] = [*list(data.get("vendor_roots") or []), root.model_dump()]
    try:
        Config.model_validate(updated)
    except ValidationError as exc:
        error = exc.errors()[0]
        line = yamlio.line_of(data, tuple(error["loc"]))
        raise InputError(
            f"orkestra.yaml would be invalid: {error['msg']}", file=CONFIG, line=line
        ) from None
    if raw is None:
        return yamlio.dumps(updated), None
    text = yamlio.read_text(path, display=CONFIG, bom=True)
    return yamlmerge.updated(text, dict(data), updated, CONFIG), raw


def _new_root(reg: Registry, path: Path, provider: str, options: Options) -> VendorRoot:
    folder = path.parent if is_skill_folder(path) else path
    rel = relative_inside(reg.root, folder)
    try:
        return VendorRoot(
            path=rel, provider=provider, default_scopes=[], trust=options.trust, layer=options.layer
        )
    except ValidationError as exc:
        raise UsageError(f"cannot register vendor root {rel}: {exc.errors()[0]['msg']}") from None


def _load_overlay(path: Path, display: str, provider: str) -> VendorOverlay:
    if not path.is_file():
        return VendorOverlay(provider=provider)
    data = yamlio.load_mapping(path, display=display)
    try:
        return VendorOverlay.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        line = yamlio.line_of(data, tuple(error["loc"]))
        raise InputError(f"invalid overlay: {error['msg']}", file=display, line=line) from None


def _adopted(project: Path, candidate: Candidate, options: Options) -> AdoptedSkill:
    meta = candidate.spec.meta
    return AdoptedSkill(
        path=relative_inside(project, candidate.folder),
        layer=options.layer,
        type=normalise.skill_type(candidate.spec.body),
        tags=normalise.tags(candidate.name, meta.get("metadata")),
        allowed_tools=normalise.split_tools(meta.get("allowed-tools")),
        scopes=list(options.scopes),
        adopted=options.today.isoformat(),
        digest=normalise.digest(candidate.review.entries, 1 << 20),
    )


def write(project: Path, result: Plan) -> None:
    """Write the overlay and (only for a new root) orkestra.yaml together: both are staged and
    synced before either is renamed, so a full disk leaves neither (never an overlay whose vendor
    root is not registered)."""
    for rel in (result.overlay_file, CONFIG):  # both checked before the first write
        safewrite.check_target(project, rel)
    with safewrite.Batch(project) as batch:
        batch.file(result.overlay_file, result.overlay_text, expected_old=result.overlay_raw)
        if result.config_text is not None:
            batch.file(CONFIG, result.config_text, expected_old=result.config_raw)
