"""`mine classify` / `mine commit` core: all input checked before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orkestra.core.errors import InputError, NotFound, UsageError
from orkestra.mining import classify
from orkestra.mining.sync import load_config, sync
from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo


def flags(sha: str, **kw: str | None) -> list[classify.Request]:
    args: dict[str, str | None] = dict.fromkeys(
        ("changelog", "decision", "skip", "summary", "package", "domain")
    )
    args.update(kw)
    return classify.from_flags(sha, **args)


def run(root: Path, requests: list[classify.Request]) -> dict[str, object]:
    return classify.classify(root, requests, load_config(root))


def ledger_bytes(root: Path) -> tuple[bytes, bytes]:
    paths = (root / ledger.CLASSIFICATIONS, root / ledger.RELEASE_NOTES)
    return tuple(p.read_bytes() if p.exists() else b"" for p in paths)  # type: ignore[return-value]


@pytest.fixture
def mined(repo: GitRepo) -> tuple[GitRepo, str, str]:
    feat = repo.commit("feat(core): add ranking", {"packages/core/rank.py": "r\n"})
    both = repo.commit("fix: shared bug", {"packages/core/a.py": "a\n", "packages/cli/b.py": "b\n"})
    sync(repo.path)
    return repo, feat, both


def test_release_writes_classification_and_note(mined: tuple[GitRepo, str, str]) -> None:
    repo, feat, _ = mined
    result = run(repo.path, flags(feat[:8], changelog="Added"))
    assert result["written"] == 1 and result["release_notes"] == 1
    (entry,) = ledger.entries(repo.path / ledger.CLASSIFICATIONS)
    (note,) = ledger.entries(repo.path / ledger.RELEASE_NOTES)
    assert entry["sha"] == feat and entry["category"] == "added" and entry["id"].startswith("c-")
    assert note == {
        "id": note["id"],
        "ts": note["ts"],
        "sha": feat,
        "package": "core",
        "category": "added",
        "summary": "Add ranking",
        "date": "2026-01-01",
        "classification": entry["id"],
    }


def test_release_of_a_commit_in_two_packages(mined: tuple[GitRepo, str, str]) -> None:
    repo, _, both = mined
    run(repo.path, flags(both, changelog="fixed", summary="Fix the shared bug"))
    notes = ledger.entries(repo.path / ledger.RELEASE_NOTES)
    assert sorted(n["package"] for n in notes) == ["cli", "core"]
    run(repo.path, flags(both, changelog="fixed", package="cli"))
    assert len(ledger.entries(repo.path / ledger.RELEASE_NOTES)) == 3


def test_reclassify_supersedes_and_same_is_unchanged(mined: tuple[GitRepo, str, str]) -> None:
    repo, feat, _ = mined
    run(repo.path, flags(feat, changelog="added", summary="Ranking"))
    assert run(repo.path, flags(feat, changelog="added"))["unchanged"] == 1
    result = run(repo.path, flags(feat, changelog="changed"))
    first, second = ledger.entries(repo.path / ledger.CLASSIFICATIONS)
    assert second["supersedes"] == first["id"]
    assert result["entries"][0]["supersedes"] == first["id"]  # type: ignore[index]
    notes = ledger.current(ledger.entries(repo.path / ledger.RELEASE_NOTES))
    assert [(n["category"], n["summary"]) for n in notes] == [("changed", "Ranking")]


def test_a_new_summary_or_reason_is_a_change_not_unchanged(
    mined: tuple[GitRepo, str, str],
) -> None:
    repo, feat, _ = mined
    run(repo.path, flags(feat, changelog="added", summary="Ranking"))
    result = run(repo.path, flags(feat, changelog="added", summary="Ranking by relevance"))
    assert (result["written"], result["release_notes"], result["unchanged"]) == (1, 1, 0)
    notes = ledger.current(ledger.entries(repo.path / ledger.RELEASE_NOTES))
    assert [n["summary"] for n in notes] == ["Ranking by relevance"]
    # the same summary again, or none (the current one is kept), is unchanged
    assert run(repo.path, flags(feat, changelog="added", summary="Ranking by relevance")) | {
        "entries": []
    } == {"written": 0, "release_notes": 0, "unchanged": 1, "entries": []}
    assert run(repo.path, flags(feat, changelog="added"))["unchanged"] == 1
    run(repo.path, flags(feat, skip="vendored", domain="decisions"))
    assert run(repo.path, flags(feat, skip="generated", domain="decisions"))["written"] == 1
    (skip,) = ledger.by_sha(ledger.entries(repo.path / ledger.CLASSIFICATIONS), "decisions")[feat]
    assert skip["reason"] == "generated"
    assert check(repo.path, set(), None) == []


def test_skip_covers_both_domains_by_default(mined: tuple[GitRepo, str, str]) -> None:
    repo, feat, _ = mined
    run(repo.path, flags(feat, skip="chore"))
    domains = sorted(e["domain"] for e in ledger.entries(repo.path / ledger.CLASSIFICATIONS))
    assert domains == ["changelog", "decisions"]


@pytest.mark.parametrize(
    ("kw", "error", "message"),
    [
        ({"changelog": "improved"}, UsageError, "unknown category 'improved'"),
        ({"decision": "DEC-PL-1"}, UsageError, "malformed decision id 'DEC-PL-1'"),
        ({"decision": "ADR-7"}, UsageError, "malformed decision id"),
        ({"decision": "DEC-ZZ-001"}, UsageError, "code ZZ is not in"),
        ({"changelog": "added", "package": "web"}, UsageError, "unknown package 'web'"),
        ({"changelog": "added", "skip": "x"}, UsageError, "exactly one of"),
        ({}, UsageError, "exactly one of"),
    ],
)
def test_bad_flags_write_nothing(
    mined: tuple[GitRepo, str, str], kw: dict[str, str], error: type[Exception], message: str
) -> None:
    repo, feat, _ = mined
    with pytest.raises(error, match=message):
        run(repo.path, flags(feat, **kw))
    assert ledger_bytes(repo.path) == (b"", b"")


def test_unknown_and_ambiguous_sha(mined: tuple[GitRepo, str, str]) -> None:
    repo, _, _ = mined
    with pytest.raises(NotFound, match="not in the commit index"):
        run(repo.path, flags("deadbeef", changelog="added"))
    with pytest.raises(UsageError, match="not a commit sha"):
        run(repo.path, flags("xyz", changelog="added"))
    assert ledger_bytes(repo.path) == (b"", b"")


def test_commit_outside_packages_goes_to_the_root_package(repo: GitRepo) -> None:
    sha = repo.commit("feat: root only", {"README.md": "r\n"})
    sync(repo.path)
    assert run(repo.path, flags(sha, changelog="added"))["release_notes"] == 1
    notes = ledger.entries(repo.path / ledger.RELEASE_NOTES)
    assert [(n["package"], n["summary"]) for n in notes] == [("demo", "Root only")]
    other = repo.commit("fix: root again", {"README.md": "r2\n"})
    sync(repo.path)
    run(repo.path, flags(other, changelog="fixed", package="cli"))  # a package may be named
    notes = ledger.entries(repo.path / ledger.RELEASE_NOTES)
    assert [n["package"] for n in notes] == ["demo", "cli"]


def write_batch(path: Path, lines: list[object]) -> Path:
    path.write_text(
        "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines),
        encoding="utf-8",
    )
    return path


def test_batch_applies_both_domains(mined: tuple[GitRepo, str, str], tmp_path: Path) -> None:
    repo, feat, both = mined
    batch = write_batch(
        tmp_path / "b.jsonl",
        [
            {
                "sha": feat[:7],
                "domain": "changelog",
                "action": "release",
                "category": "added",
                "summary": "Add ranking",
            },
            {"sha": feat, "domain": "decisions", "action": "extract", "decision_id": "DEC-SR-001"},
            {"sha": both, "domain": "changelog", "action": "skip", "reason": "Chore"},
        ],
    )
    result = run(repo.path, classify.read_batch(batch, "b.jsonl"))
    assert result["written"] == 3 and result["release_notes"] == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "not valid JSON"),
        ('["a list"]', "JSON object"),
        ({"sha": "abc1234", "domain": "changelog"}, "`action` is required"),
        (
            {"sha": "deadbee", "domain": "changelog", "action": "skip", "reason": "x"},
            "not in the commit index",
        ),
        (
            {"sha": "{feat}", "domain": "changelog", "action": "release", "category": "nope"},
            "unknown category",
        ),
        (
            {"sha": "{feat}", "domain": "decisions", "action": "extract", "decision_id": "DEC-1"},
            "malformed decision id",
        ),
        ({"sha": "{feat}", "domain": "changelog", "action": "extract"}, "not valid in changelog"),
        ({"sha": "{feat}", "domain": "changelog", "action": "merge"}, "unknown action 'merge'"),
        ({"sha": "{feat}", "domain": "docs", "action": "skip"}, "unknown domain 'docs'"),
        ({"sha": "{feat}", "domain": "changelog", "action": "skip"}, "a skip needs a reason"),
        ({"sha": "", "domain": "changelog", "action": "skip"}, "`sha` is required"),
        (
            {
                "sha": "{feat}",
                "domain": "changelog",
                "action": "skip",
                "reason": "x",
                "category": "added",
            },
            "`category` only goes with action release",
        ),
        (
            {
                "sha": "{feat}",
                "domain": "decisions",
                "action": "pending",
                "decision_id": "DEC-SR-001",
            },
            "`decision_id` only goes with action extract",
        ),
        (
            {"sha": "{feat}", "domain": "changelog", "action": "skip", "reason": "x", "extra": "y"},
            "unknown field",
        ),
        (
            {"sha": "{feat}", "domain": "changelog", "action": "skip", "reason": 3},
            "must be a string",
        ),
        (
            {"sha": "{feat}", "domain": "changelog", "action": "skip", "reason": "again"},
            "classified twice",
        ),
    ],
)
def test_bad_batch_line_rejects_the_batch(
    mined: tuple[GitRepo, str, str], tmp_path: Path, bad: object, message: str
) -> None:
    repo, feat, _ = mined
    if isinstance(bad, dict):
        bad = {k: (v.replace("{feat}", feat) if isinstance(v, str) else v) for k, v in bad.items()}
    good = {"sha": feat, "domain": "changelog", "action": "skip", "reason": "Chore"}
    batch = write_batch(tmp_path / "b.jsonl", [good, "", bad])
    with pytest.raises((InputError, NotFound, UsageError)) as info:
        run(repo.path, classify.read_batch(batch, "b.jsonl"))
    assert message in info.value.message
    assert (info.value.file, info.value.line) == ("b.jsonl", 3)
    assert ledger_bytes(repo.path) == (b"", b"")


def test_a_union_merge_conflict_is_resolved_for_the_existing_decision(
    mined: tuple[GitRepo, str, str],
) -> None:
    # two branches classified one commit differently; merging the ledgers kept both lines
    repo, feat, _ = mined
    run(repo.path, flags(feat, changelog="added"))
    ours = ledger_bytes(repo.path)
    for path in (repo.path / ledger.CLASSIFICATIONS, repo.path / ledger.RELEASE_NOTES):
        path.unlink()
    run(repo.path, flags(feat, changelog="fixed"))
    theirs = ledger_bytes(repo.path)
    (repo.path / ledger.CLASSIFICATIONS).write_bytes(ours[0] + theirs[0])
    (repo.path / ledger.RELEASE_NOTES).write_bytes(ours[1] + theirs[1])
    added, fixed = ledger.entries(repo.path / ledger.CLASSIFICATIONS)

    result = run(repo.path, flags(feat, changelog="added"))

    # one entry stands afterwards: it supersedes both sides, and its note both old notes
    assert (result["written"], result["release_notes"], result["unchanged"]) == (1, 1, 0)
    both = sorted([added, fixed], key=lambda e: (e["ts"], e["id"]))
    assert result["entries"] == [
        {
            "id": result["entries"][0]["id"],
            "sha": feat,
            "domain": "changelog",  # type: ignore[index]
            "action": "release",
            "supersedes": [e["id"] for e in both],
        }
    ]
    current = ledger.current(ledger.entries(repo.path / ledger.CLASSIFICATIONS))
    assert [(e["category"], e["id"]) for e in current] == [("added", result["entries"][0]["id"])]
    notes = ledger.current(ledger.entries(repo.path / ledger.RELEASE_NOTES))
    assert [n["classification"] for n in notes] == [result["entries"][0]["id"]]
    assert check(repo.path, set(), None) == []
