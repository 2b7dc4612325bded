"""Validation rules about what `sync` may touch (PRODUCT.md §4 "Ownership is proven, not claimed").

- every render lock entry lies inside its target's output roots (else sync ignores it: ORK046);
- `render.claude_md_path` names a CLAUDE.md or a file that carries the managed-block markers
  (ORK047), never another file of the user's;
- a file a configured target keeps its managed block in (CLAUDE.md, AGENTS.md, Copilot's
  instructions) holds markers that make one block, or none (ORK049): sync refuses it otherwise;
- a linked (`link: symlink`) vendor skill holds no symlink that leaves its vendor root (ORK045):
  the rendered link would expose the file it points to.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from orkestra.core import managed_block
from orkestra.core.errors import InputError
from orkestra.registry import render_lock
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry


def lock_entries(reg: Registry) -> Iterator[Finding]:
    """Every render lock entry lies inside its target's output roots, outside protected folders."""
    try:
        entries, problems = render_lock.problems(
            reg.root,
            truth_outputs=[t.metadata.render.output for t in reg.truth_files.values()],
            protected=[reg.config.knowledge.path],
        )
    except InputError as exc:
        yield Finding.make("ORK001", exc.message, render_lock.LOCK_PATH, exc.line)
        return
    problems.update(render_lock.linked_problems(reg.root, entries, problems))
    lines = _key_lines(reg.root / render_lock.LOCK_PATH) if problems else {}
    for rel, problem in sorted(problems.items()):
        yield Finding.make(
            "ORK046",
            f"render lock entry '{rel}' (target '{entries[rel].target}') is ignored by sync: "
            f"{problem}; remove it from {render_lock.LOCK_PATH}",
            render_lock.LOCK_PATH,
            lines.get(json.dumps(rel, ensure_ascii=False)) or lines.get(json.dumps(rel)),
        )


def _key_lines(path: Path) -> dict[str, int]:
    """The line of each `"<path>":` key in the lock (written one key a line), by its JSON text."""
    lines: dict[str, int] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return lines
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith('"') and '":' in stripped:
            lines.setdefault(stripped[: stripped.index('":') + 1], number)
    return lines


def claude_md_target(reg: Registry) -> Iterator[Finding]:
    """`render.claude_md_path` is a CLAUDE.md, or a file already holding Orkestra's markers."""
    render = reg.config.render
    if not render.claude_md:
        return
    rel = render.claude_md_path
    if rel.rsplit("/", 1)[-1].casefold() == "claude.md":
        return
    full = reg.root / rel
    try:
        if full.is_symlink() or not full.is_file():
            return  # absent: it will be created; a symlink is refused by sync itself
        with full.open("rb") as handle:
            text = handle.read(render_lock.MARKER_SCAN)
    except OSError:
        return
    marked = managed_block.find(text.decode("utf-8", "replace"), render_lock.BEGIN, render_lock.END)
    if marked[0] >= 0:  # a marker line of its own, as sync finds it: not one named in prose
        return
    loc = reg.loc("config", "orkestra")
    yield Finding.make(
        "ORK047",
        f"render.claude_md_path '{rel}' names a file Orkestra does not own and that has no "
        f"'{render_lock.BEGIN} -->' marker; point it at a CLAUDE.md (or add the markers)",
        loc.file,
        loc.line,
    )


def block_files(reg: Registry) -> dict[str, str]:
    """The files the configured targets keep a managed block in: path -> target."""
    found: dict[str, str] = {}
    targets = reg.config.targets
    if "claude" in targets and reg.config.render.claude_md:
        found[reg.config.render.claude_md_path] = "claude"
    for target, rel in render_lock.BLOCK_FILES.items():
        if target in targets:
            found.setdefault(rel, target)
    return found


def managed_blocks(reg: Registry) -> Iterator[Finding]:
    """ORK049: a file a configured target keeps its block in is a symlink (never written
    through), or has markers that do not make one block (a marker without its partner, or the
    block twice), which sync refuses; reported at the marker's line, with what to do."""
    from orkestra.core.yamlio import read_text

    for rel, target in sorted(block_files(reg).items()):
        full = reg.root / rel
        linked = render_lock.linked_block(reg.root, rel, target)
        if linked is not None:
            yield Finding.make("ORK049", f"{linked} (sync refuses this file)", rel)
            continue
        if not full.is_file():
            continue  # absent: it will be created
        try:
            text = read_text(full, display=rel)
        except InputError:
            continue  # sync names what is wrong with reading it
        wrong = managed_block.broken(text, render_lock.BEGIN, render_lock.END)
        if wrong is not None:
            yield Finding.make("ORK049", f"{wrong[1]} (sync refuses this file)", rel, wrong[0])


def outputs_outside_knowledge(reg: Registry) -> Iterator[Finding]:
    """Configured output paths stay out of the configured knowledge folder (the models already
    keep them out of `.git/`, `registries/` and the default `knowledge/`)."""
    knowledge = reg.config.knowledge.path
    config = reg.loc("config", "orkestra")
    paths: list[tuple[str, int, str, str]] = []
    if reg.config.render.claude_md:
        rel = reg.config.render.claude_md_path
        paths.append((config.file, config.line, "render.claude_md_path", rel))
    for file, truths in sorted(reg.truth_files.items()):
        paths.append((file, 0, "metadata.render.output", truths.metadata.render.output))
    for file, line, what, rel in paths:
        if render_lock.protected_part(rel, [knowledge]) is not None:
            yield Finding.make(
                "ORK045",
                f"{what} '{rel}' lies in the knowledge folder '{knowledge}' (or another folder "
                "Orkestra never renders into); choose another path",
                file,
                line,
            )


def vendor_links(reg: Registry) -> Iterator[Finding]:
    """A linked vendor skill holds no symlink that leaves its vendor root."""
    for skill in sorted(reg.skills.values(), key=lambda s: s.name):
        root = skill.vendor_root
        if skill.vendor is None or root is None or root.link != "symlink" or not skill.folder:
            continue
        vendor_root = (reg.root / root.path).resolve()
        folder = reg.root / skill.folder
        for dirpath, dirnames, filenames in os.walk(folder):
            for name in sorted([*dirnames, *filenames]):
                path = Path(dirpath) / name
                if not path.is_symlink():
                    continue
                target = path.resolve()
                if target == vendor_root or target.is_relative_to(vendor_root):
                    continue
                rel = path.relative_to(reg.root).as_posix()
                yield Finding.make(
                    "ORK045",
                    f"vendor skill '{skill.name}' is linked (link: symlink) but '{rel}' is a "
                    f"symlink to '{path.readlink()}', outside the vendor root '{root.path}'; "
                    "the link would expose it: remove the symlink or use `link: copy`",
                    rel,
                )
