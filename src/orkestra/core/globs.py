"""Path globs of `orkestra.yaml` (`mining.packages`, `domains_by_path`): one reading everywhere.

`*` matches within a segment, `**` across segments, `?` one character, `[...]` a class; a
trailing `/**` means everything inside the folder (not the folder itself). A package pattern
without any wildcard names a folder and means `folder/**` (`package_glob`). Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WILDCARDS = "*?["


def glob_regex(glob: str) -> str:
    """Translate a path glob to a regular expression (to be matched against the whole path)."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("/**", i) and i + 3 == len(glob):
            out.append("/.*")  # as in gitignore: everything inside, not the folder itself
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[" and "]" in glob[i + 1 :]:
            end = glob.index("]", i + 1)
            body = glob[i + 1 : end].replace("\\", "\\\\")
            out.append(f"[^{body[1:]}]" if body.startswith("!") else f"[{body}]")
            i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def glob_folder(glob: str) -> str:
    """The folder a glob is rooted at (its segments before the first wildcard); '' for the root."""
    segments = []
    for segment in glob.split("/"):
        if any(ch in segment for ch in WILDCARDS):
            break
        segments.append(segment)
    else:
        segments = segments[:-1]  # a plain file path: its folder
    return "/".join(s for s in segments if s)


def package_glob(value: str) -> str:
    """A `mining.packages` pattern as matched: a folder (no wildcard, or a trailing `/`) means
    everything inside it, `folder/**`. Raises ValueError for a pattern that leaves the project."""
    value = value.strip()
    if not value or value in ("/", "."):
        raise ValueError("must not be empty (give a folder such as packages/vite)")
    if value.startswith("/") or "\\" in value or ".." in value.split("/"):
        raise ValueError(f"{value!r} must be a relative path inside the project, with '/'")
    value = value.removeprefix("./")
    if value.endswith("/"):
        return value + "**"
    if not any(ch in value for ch in WILDCARDS):
        return value + "/**"
    return value


def first_match(glob: str, paths: Iterable[str]) -> str | None:
    """The first of `paths` the glob matches, or None (a folder glob is a prefix test)."""
    folder = glob[:-3]
    if glob.endswith("/**") and not any(ch in folder for ch in WILDCARDS):
        prefix = folder + "/"
        return next((p for p in paths if p.startswith(prefix)), None)
    rx = re.compile(glob_regex(glob) + r"\Z")
    return next((p for p in paths if rx.match(p)), None)
