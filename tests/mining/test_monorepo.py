"""End to end on a generated monorepo: `init` → `mine sync` → `mine commit` (the whole history,
one batch) → `changelog render --all --into-existing`, losing nothing (issue 12, items 6, 7, 14).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from orkestra.mining import index
from orkestra.mining.changelog_file import END
from tests.mining.monorepo import PACKAGES, Monorepo, build, hand_changelog

MINING = "mining:\n  packages:\n" + "".join(f"    {p}: packages/{p}\n" for p in PACKAGES)
CATEGORY = {"feat": "added", "fix": "fixed", "perf": "changed", "revert": "removed"}
FILES = {"demo": "CHANGELOG.md"} | {p: f"packages/{p}/CHANGELOG.md" for p in PACKAGES}


@pytest.fixture(scope="module")
def mono(tmp_path_factory: pytest.TempPathFactory) -> Monorepo:
    return build(tmp_path_factory.mktemp("mono") / "repo", commits=2000)


def whole_history_batch(root: Path) -> str:
    """One line per commit: releasable types released, everything else skipped."""
    lines = []
    for record in index.records(root):
        kind = record["signals"]["commit_type"]
        if kind in CATEGORY:
            line = {"sha": record["sha"], "domain": "changelog", "action": "release"}
            line["category"] = CATEGORY[kind]
        else:
            line = {"sha": record["sha"], "domain": "changelog", "action": "skip"}
            line["reason"] = f"{kind or 'free-form'}: not user-facing"
        lines.append(json.dumps(line))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def rendered(mono: Monorepo, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The monorepo after the whole path, with what each step answered."""
    from tests.conftest import Result

    out: dict[str, Any] = {}
    runner = _runner()
    assert runner("init", str(mono.path), cwd=mono.path).exit_code == 0
    config = mono.path / "registries" / "orkestra.yaml"
    config.write_text("project: demo\n" + MINING, encoding="utf-8")
    out["sync"] = runner("mine", "sync", cwd=mono.path)
    batch = tmp_path_factory.mktemp("batch") / "history.jsonl"
    batch.write_text(whole_history_batch(mono.path), encoding="utf-8")
    out["commit"] = runner("mine", "commit", "--input", str(batch), cwd=mono.path)
    out["before"] = {p: (mono.path / rel).read_bytes() for p, rel in FILES.items()}
    out["refused"] = runner("changelog", "render", "--all", cwd=mono.path)
    out["after_refusal"] = {p: (mono.path / rel).read_bytes() for p, rel in FILES.items()}
    out["render"] = runner("changelog", "render", "--all", "--into-existing", cwd=mono.path)
    out["text"] = {p: (mono.path / rel).read_text(encoding="utf-8") for p, rel in FILES.items()}
    out["again"] = runner("changelog", "render", "--all", "--into-existing", cwd=mono.path)
    assert all(isinstance(v, Result) for k, v in out.items() if k in ("sync", "commit"))
    return out


def _runner() -> Any:
    """The in-process CLI for a module-scoped fixture (the `cli` fixture is per test)."""
    import contextlib
    import io
    import os

    from orkestra.cli import common
    from orkestra.cli.entry import main
    from tests.conftest import Result

    def run(*args: str, cwd: Path) -> Result:
        common.STATE.root = None
        old = Path.cwd()
        os.chdir(cwd)
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(list(args))
        finally:
            os.chdir(old)
        return Result(code, out.getvalue(), err.getvalue())

    return run


def test_the_whole_history_is_one_ordinary_batch(mono: Monorepo, rendered: dict[str, Any]) -> None:
    assert rendered["sync"].exit_code == 0, rendered["sync"].stderr
    assert rendered["sync"].json()["commits"] == mono.commits
    commit = rendered["commit"]
    assert commit.exit_code == 0, commit.stderr
    assert commit.json()["written"] == mono.commits
    assert commit.json()["release_notes"] > 500


def test_a_hand_written_changelog_is_refused_then_kept_byte_for_byte(
    rendered: dict[str, Any],
) -> None:
    assert rendered["refused"].exit_code == 1
    assert "refusing to overwrite" in rendered["refused"].stderr
    assert rendered["after_refusal"] == rendered["before"]  # nothing was written
    assert rendered["render"].exit_code == 0, rendered["render"].stderr
    names = {r["package"] for r in rendered["render"].json()["changelogs"]}
    assert names == set(FILES)  # the root package too: root-level notes belong there
    for package, text in rendered["text"].items():
        hand = rendered["before"][package].decode("utf-8")
        title, _, history = hand.partition("\n")
        assert hand == hand_changelog("project" if package == "demo" else package)
        assert text.startswith(title + "\n\n<!-- orkestra:changelog:begin")
        assert text.endswith(END + "\n\n" + history)  # every hand-written byte after the block
    again = rendered["again"]
    assert again.exit_code == 0 and not any(r["written"] for r in again.json()["changelogs"])


def _block(text: str) -> str:
    return text.partition(END)[0]


def _versions(text: str) -> list[str]:
    return re.findall(r"^## \[([^\]]+)\]", _block(text), flags=re.MULTILINE)


def test_package_tags_scope_releases_and_never_mix(
    mono: Monorepo, rendered: dict[str, Any]
) -> None:
    text = rendered["text"]
    vite, create = _versions(text["vite"]), _versions(text["create-vite"])
    assert vite[0] == "Unreleased" and create[0] == "Unreleased"
    assert vite[1:] and all(v.startswith("5.") for v in vite[1:])  # vite@5.x only
    assert create[1:] and all(v.startswith("4.") for v in create[1:])  # create-vite-v4.x only
    legacy = _versions(text["plugin-legacy"])  # no package tags: the project's plain ones
    assert legacy[1:] and all(v.startswith("1.") for v in legacy[1:])
    assert len(legacy) == 1 + len([t for t in mono.tags if t.startswith("v1.")])
    assert _versions(text["demo"])[1:] == legacy[1:]


def test_root_level_commits_go_to_the_project_changelog(
    mono: Monorepo, rendered: dict[str, Any]
) -> None:
    root = _block(rendered["text"]["demo"])
    features = [m for m in mono.root_only if mono.subjects[m].startswith("feat")]
    assert features
    for mark in features:
        line = f"({mono.sha(mark)[:7]})"
        assert line in root
        assert all(line not in _block(rendered["text"][p]) for p in PACKAGES)


def test_a_revert_in_the_same_release_cancels_both(
    mono: Monorepo, rendered: dict[str, Any]
) -> None:
    every = "".join(_block(t) for t in rendered["text"].values())
    for revert, target, same_release in mono.reverts:
        releasable = mono.subjects[target].split("(")[0] in CATEGORY
        if same_release:
            assert f"({mono.sha(revert)[:7]})" not in every
            assert f"({mono.sha(target)[:7]})" not in every
        elif releasable:  # reverted in a later release: both stay, each in its own release
            assert f"({mono.sha(revert)[:7]})" in every
            assert f"({mono.sha(target)[:7]})" in every
    assert any(same for *_, same in mono.reverts)
    assert any(not same for *_, same in mono.reverts)
