"""Red-team history for `mine sync` -> `mine commit` -> `changelog render` (issue 12, PRODUCT.md
§6): an empty message, Latin-1 messages with and without an encoding header, a bogus encoding
header, a rename across packages, and tags that look like versions but are not (or point at a
blob, or at another tag)."""

from __future__ import annotations

import json
from typing import Any

from tests.mining.gitrepo import GitRepo


def _raw_commit(repo: GitRepo, message: bytes, extra_header: bytes = b"") -> str:
    """A commit object written byte for byte (git commit would re-encode the message)."""
    tree = repo.git("write-tree").strip()
    head = repo.head()
    who = b"Ada Tester <ada@example.com> 1767300000 +0000"
    body = b"tree %s\nparent %s\nauthor %s\ncommitter %s\n%s\n%s" % (
        tree.encode(), head.encode(), who, who, extra_header, message
    )  # fmt: skip
    path = repo.path / ".git" / "raw-commit"
    path.write_bytes(body)
    sha = repo.git("hash-object", "-t", "commit", "-w", str(path)).strip()
    repo.git("update-ref", "HEAD", sha)
    return sha


def _stage(repo: GitRepo, rel: str) -> None:
    (repo.path / rel).parent.mkdir(parents=True, exist_ok=True)
    (repo.path / rel).write_text(rel + "\n", encoding="utf-8")
    repo.git("add", rel)


def test_odd_messages_and_tags_mine_and_render_stably(repo: GitRepo, cli: Any) -> None:
    _stage(repo, "packages/core/empty.py")
    repo.tick += 1
    repo.git("commit", "-q", "--allow-empty-message", "-m", "")
    _stage(repo, "packages/core/latin.py")
    (repo.path / ".git/msg").write_bytes("feat(core): café crème\n\nDéjà vu\n".encode("latin-1"))
    repo.git("-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "-F", ".git/msg")
    _stage(repo, "packages/core/raw.py")
    _raw_commit(repo, "fix(core): na\xefve bytes\n".encode("latin-1"))
    _stage(repo, "packages/core/bogus.py")
    _raw_commit(repo, b"fix(core): bogus \xff header\n", b"encoding no-such-charset\n")
    (repo.path / "packages/cli").mkdir()
    repo.git("mv", "packages/core/empty.py", "packages/cli/empty.py")
    repo.tick += 1
    repo.git("commit", "-q", "-m", "refactor: move empty to cli")
    repo.git("tag", "-a", "v0.1.0", "-m", "first")
    repo.git("tag", "-a", "v9.9.9", "-m", "a tag of a tag, not a release", "v0.1.0")
    blob = repo.git("hash-object", "-w", "packages/core/raw.py").strip()
    repo.git("tag", "v8.0.0", blob)  # a version-shaped tag on a blob: no release
    repo.commit("feat(cli): after the release", {"packages/cli/new.py": "n\n"})
    for name in ("v1.2", "release-2024", "v1.2.3.4", "cli@latest", "vNext", "v2.0", "v3.0.0-"):
        repo.tag(name)  # not versions: the last commit stays unreleased

    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    found = cli("mine", "candidates", "--full", "--limit", "50", cwd=repo.path).json()
    rows = found["candidates"] if isinstance(found, dict) else found
    by_subject = {row["subject"]: row for row in rows}
    assert "" in by_subject and by_subject[""]["signals"]["commit_type"] is None
    assert by_subject["feat(core): café crème"]["body"] == "Déjà vu"
    assert "fix(core): naïve bytes" in by_subject  # not UTF-8: read as Windows-1252, not fatal
    assert "fix(core): bogus ÿ header" in by_subject
    assert by_subject["refactor: move empty to cli"]["signals"]["packages"] == ["cli", "core"]
    assert sorted(by_subject["refactor: move empty to cli"]["files_changed"]) == [
        "packages/cli/empty.py",
        "packages/core/empty.py",
    ]

    batch = []
    for row in rows:
        kind = row["signals"]["commit_type"]
        if kind in ("feat", "fix"):
            summary = row["subject"].split(": ", 1)[1]
            category = "added" if kind == "feat" else "fixed"
            batch.append({"sha": row["sha"], "domain": "changelog", "action": "release",
                          "category": category, "summary": summary})  # fmt: skip
        else:
            batch.append({"sha": row["sha"], "domain": "changelog", "action": "skip",
                          "reason": "not user-facing"})  # fmt: skip
    path = repo.path / "batch.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in batch), encoding="utf-8")
    result = cli("mine", "commit", "--input", str(path), cwd=repo.path)
    assert result.exit_code == 0, result.stderr

    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    core = repo.path / "packages/core/CHANGELOG.md"
    first = core.read_bytes()
    text = first.decode("utf-8")
    assert "## [0.1.0] - " in text and text.count("\n## [") == 2  # Unreleased and 0.1.0 only
    for wrong in ("9.9.9", "8.0.0", "1.2.3", "[1.2]", "[2.0]", "3.0.0", "latest", "Next"):
        assert wrong not in text, wrong
    assert "- Café crème (" in text and "- Naïve bytes (" in text
    cli_log = (repo.path / "packages/cli/CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = cli_log.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    assert "- After the release (" in unreleased  # no junk tag made it a release
    assert cli_log.count("\n## [") == 1
    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    assert core.read_bytes() == first
    core.unlink()
    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    assert core.read_bytes() == first  # derived: deleted and re-created byte for byte


def test_a_batch_with_a_byte_order_mark_and_crlf_is_read(repo: GitRepo, cli: Any) -> None:
    """Windows PowerShell writes a BOM and CRLF; the batch used to fail on line 1 with
    Python's "Unexpected UTF-8 BOM"."""
    sha = repo.commit("feat(core): a widget", {"packages/core/w.py": "w\n"})
    line = json.dumps({"sha": sha, "domain": "changelog", "action": "release",
                       "category": "added", "summary": "A widget"})  # fmt: skip
    path = repo.path / "batch.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\r\n")
    result = cli("mine", "commit", "--input", str(path), cwd=repo.path)
    assert result.exit_code == 0, result.stderr
    assert result.json()["release_notes"] == 1


def test_go_module_and_upper_case_tags_are_releases(repo: GitRepo, cli: Any) -> None:
    """`cli/v1.2.3` (a Go module in a monorepo) scopes a release to its package like `cli@1.2.3`;
    `V2.0.0` is the project's release like `v2.0.0`."""
    first = repo.commit("feat(cli): a flag", {"packages/cli/f.py": "f\n"})
    repo.git("tag", "cli/v1.2.3")
    second = repo.commit("feat(core): a widget", {"packages/core/w.py": "w\n"})
    repo.git("tag", "V2.0.0")
    for sha in (first, second):
        assert cli("mine", "classify", sha, "--changelog", "added", cwd=repo.path).exit_code == 0
    assert cli("changelog", "render", "--all", cwd=repo.path).exit_code == 0
    cli_log = (repo.path / "packages/cli/CHANGELOG.md").read_text(encoding="utf-8")
    core_log = (repo.path / "packages/core/CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [1.2.3] - " in cli_log and "- A flag (" in cli_log.split("## [1.2.3]")[1]
    assert "## [2.0.0] - " in core_log and "- A widget (" in core_log.split("## [2.0.0]")[1]


def test_log_settings_in_the_users_config_are_overridden(repo: GitRepo, cli: Any) -> None:
    """`i18n.logOutputEncoding=ISO-8859-1` (a legacy setup) made git log re-encode every message
    to Latin-1, which mine sync read as UTF-8: every accent became U+FFFD."""
    repo.git("config", "i18n.logOutputEncoding", "ISO-8859-1")
    repo.git("config", "log.showRoot", "false")  # would hide the first commit's files
    repo.commit("feat(core): café crème", {"packages/core/c.py": "c\n"})
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0
    rows = cli("mine", "candidates", "--limit", "5", cwd=repo.path).json()["candidates"]
    assert "feat(core): café crème" in {row["subject"] for row in rows}
    first = next(row for row in rows if row["subject"] == "chore: set up the project")
    assert "registries/orkestra.yaml" in first["files_changed"]
