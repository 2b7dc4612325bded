"""`mining.packages` against the repository: a pattern must match at least one tracked file.

A pattern that matches nothing (a typo, a folder moved) would silently give its package no
commits and an empty changelog; `orkestra validate` reports it at its line of `orkestra.yaml`
(ORK048). Mining itself reads history, where a package may have files no longer tracked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from orkestra.core import project, yamlio
from orkestra.core.globs import first_match
from orkestra.registry.findings import Finding
from orkestra.registry.registry import Registry


def tracked_files(root: Path) -> list[str] | None:
    """Paths git tracks under `root` (None when `root` is not in a git work tree)."""
    from orkestra.core import git

    done = git.run(root, "ls-files", "-z", check=False)  # paths relative to `root`, as mined
    return done.stdout.split("\0")[:-1] if done.ok else None


def unmatched(packages: Mapping[str, str], tracked: Iterable[str]) -> list[str]:
    """Names of the packages whose pattern matches none of the tracked paths."""
    paths = list(tracked)
    return [name for name, glob in packages.items() if first_match(glob, paths) is None]


def message(name: str, glob: str) -> str:
    return (
        f"package {name!r}: pattern {glob!r} matches no tracked file; give the package's folder "
        "(a folder means folder/**) or a glob that matches its files"
    )


def line_of(root: Path, name: str) -> int | None:
    """The line of package `name` in `orkestra.yaml`."""
    from orkestra.registry.config_file import read_config

    return yamlio.line_of(read_config(root), ("mining", "packages", name))


def package_patterns(reg: Registry) -> Iterator[Finding]:
    """ORK048: each `mining.packages` pattern matches a tracked file (skipped outside git)."""
    packages = reg.config.mining.packages
    tracked = tracked_files(reg.root) if packages else None
    if tracked is None:
        return
    for name in unmatched(packages, tracked):
        yield Finding.make(
            "ORK048", message(name, packages[name]), project.CONFIG, line_of(reg.root, name)
        )
