"""Link references at the bottom of a rendered CHANGELOG.md (§6.7, Keep a Changelog):
`[1.2.3]: <compare url>` for each release shown, `[Unreleased]: <compare url>` from the newest
release to HEAD, written only when the `origin` remote's web URL is known (GitHub or GitLab).
Credentials in the remote URL are never written."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

_SCP = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>[^/].*)$")  # git@host:owner/repo
_URL = re.compile(r"^(?:https?|ssh|git)://(?:[^@/]+@)?(?P<host>[^/:]+)(?::\d+)?/(?P<path>.+)$")


@dataclass(frozen=True)
class Links:
    """A repository's web address and the URL shapes of its host."""

    base: str
    gitlab: bool

    def compare(self, old: str, new: str) -> str:
        middle = "/-/compare/" if self.gitlab else "/compare/"
        return f"{self.base}{middle}{_tag(old)}...{_tag(new)}"

    def tag(self, tag: str) -> str:
        return f"{self.base}{'/-/tags/' if self.gitlab else '/releases/tag/'}{_tag(tag)}"


def _tag(name: str) -> str:
    return name if name == "HEAD" else quote(name, safe="@/")


def web_links(remote: str | None) -> Links | None:
    """The web address of a GitHub or GitLab remote URL (https, ssh or scp form), else None."""
    text = (remote or "").strip()
    found = _URL.match(text) or _SCP.match(text)
    if found is None:
        return None
    host, path = found.group("host").lower(), found.group("path").strip("/")
    path = path.removesuffix(".git")
    if "github" not in host and "gitlab" not in host:
        return None
    if path.count("/") < 1 or not re.fullmatch(r"[\w.\-/~]+", path):
        return None
    return Links(f"https://{host}/{path}", "gitlab" in host)


def origin(root: Path) -> Links | None:
    """The links of the `origin` remote of the repository at `root`, when it has a known one."""
    from orkestra.core import git

    done = git.run(root, "config", "--get", "remote.origin.url", check=False)
    return web_links(done.stdout) if done.ok else None


def references(links: Links | None, releases: Sequence[Any], shown: Sequence[Any]) -> str:
    """The link reference lines (newest first, then a trailing newline), or '' without links or
    releases. `releases` are every release of the package in version order, `shown` those with
    entries (each compared with the release before it, the first with its own tag page)."""
    if links is None or not releases:
        return ""
    ordered = sorted(releases)
    lines = [f"[Unreleased]: {links.compare(ordered[-1].tag, 'HEAD')}"]
    previous = {r.tag: ordered[i - 1].tag if i else None for i, r in enumerate(ordered)}
    for release in sorted(shown, reverse=True):
        before = previous[release.tag]
        url = links.compare(before, release.tag) if before else links.tag(release.tag)
        lines.append(f"[{release.version}]: {url}")
    return "\n" + "\n".join(lines) + "\n"
