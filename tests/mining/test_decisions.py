"""Decision ids from records and the ledger; records created and updated from the ledger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.core.errors import ConflictError, NotFound, UnsafePathError, UsageError
from orkestra.mining import classify, decision_ids
from orkestra.mining.renumber import renumber
from orkestra.mining.sync import load_config, sync
from orkestra.registry import ledger
from orkestra.registry.ledger_check import check
from tests.mining.gitrepo import GitRepo

RECORDS = Path("registries/decisions/records")


def record(root: Path, name: str, did: str, **extra: object) -> Path:
    data = {
        "id": did,
        "title": f"Title {name}",
        "domain": "pipeline",
        "status": "active",
        "created": "2026-01-01",
    } | extra
    path = root / RECORDS / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yamlio.dumps(data), encoding="utf-8")
    return path


def extract(repo: GitRepo, sha: str, did: str) -> None:
    sync(repo.path)
    req = classify.Request(sha, "decisions", "extract", decision_id=did)
    classify.classify(repo.path, [req], load_config(repo.path))


def src(sha: str) -> list[dict[str, str]]:
    return [{"sha": sha, "message": "m", "role": "primary"}]


def load(path: Path) -> dict[str, object]:
    return dict(yamlio.load_mapping(path))


def test_next_id_counts_records_and_ledger_with_gaps(repo: GitRepo) -> None:
    assert decision_ids.new(repo.path, "pipeline", dry_run=True)["id"] == "DEC-PL-001"
    record(repo.path, "DEC-PL-001", "DEC-PL-001")
    record(repo.path, "DEC-PL-007-duckdb", "DEC-PL-007")  # gap 2..6 is never reused
    record(repo.path, "DEC-SR-040", "DEC-SR-040")
    assert decision_ids.next_id(repo.path, "PL") == "DEC-PL-008"
    sha = repo.commit("feat: pick a store", {"packages/core/s.py": "s\n"})
    extract(repo, sha, "DEC-PL-012")  # allocated on another branch, record not merged yet
    result = decision_ids.new(repo.path, "PL", dry_run=True)
    assert result["id"] == "DEC-PL-013" and result["dry_run"] is True
    assert not (repo.path / RECORDS / "DEC-PL-013.yaml").exists()
    assert decision_ids.next_id(repo.path, "SR") == "DEC-SR-041"


def test_new_writes_record_and_ledger(repo: GitRepo) -> None:
    sha = repo.commit("feat(core): adopt DuckDB for stages", {"packages/core/db.py": "d\n"})
    result = decision_ids.new(repo.path, "pipeline", commits=[sha[:8]], summary="Why.")
    assert result["id"] == "DEC-PL-001" and result["ledger"] == 1
    data = load(repo.path / RECORDS / "DEC-PL-001.yaml")
    assert data["title"] == "Adopt DuckDB for stages" and data["status"] == "proposed"
    assert data["source_commits"] == [
        {
            "sha": sha,
            "message": "feat(core): adopt DuckDB for stages",
            "date": "2026-01-01",
            "role": "primary",
        }
    ]
    assert data["files"] == ["packages/core/db.py"]
    (entry,) = ledger.entries(repo.path / ledger.CLASSIFICATIONS)
    assert (entry["sha"], entry["action"], entry["decision_id"]) == (sha, "extract", "DEC-PL-001")
    assert check(repo.path, {"DEC-PL-001"}, {"PL", "SR"}) == []


def test_new_errors(repo: GitRepo) -> None:
    with pytest.raises(NotFound, match="unknown decision domain 'web'"):
        decision_ids.new(repo.path, "web")
    with pytest.raises(UsageError, match="give --title"):
        decision_ids.new(repo.path, "pipeline")
    assert not (repo.path / RECORDS).exists()


def test_update_creates_pending_record_from_ledger(repo: GitRepo) -> None:
    a = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    b = repo.commit("fix(core): runner retries", {"packages/core/r.py": "r2\n"})
    extract(repo, a, "DEC-PL-003")
    assert [f.code for f in check(repo.path, set(), {"PL"})] == ["ORK053"]
    result = decision_ids.update(repo.path, "DEC-PL-003")
    assert result["created"] is True and result["added_commits"] == [a]
    again = decision_ids.update(repo.path, "DEC-PL-003", [b])
    assert again["created"] is False and again["added_commits"] == [b] and again["ledger"] == 1
    data = load(repo.path / RECORDS / "DEC-PL-003.yaml")
    roles = [(s["sha"], s["role"]) for s in data["source_commits"]]  # type: ignore[attr-defined]
    assert roles == [(a, "primary"), (b, "supporting")]
    assert check(repo.path, {"DEC-PL-003"}, {"PL"}) == []
    with pytest.raises(NotFound, match="no record and no ledger line"):
        decision_ids.update(repo.path, "DEC-PL-099")
    with pytest.raises(UsageError, match="malformed"):
        decision_ids.update(repo.path, "PL-1")


def test_update_keeps_the_records_comments_and_its_files_order(repo: GitRepo) -> None:
    """A hand-written ADR used to be dumped whole: every comment gone, `files` re-sorted."""
    a = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    text = (
        "# Reviewed by the architecture group; do not change the status without a vote.\n"
        "id: DEC-PL-004\ntitle: Runner\ndomain: pipeline\nstatus: active  # since v2\n"
        "created: '2026-01-01'\nsummary: |\n  Why we run stages.\n"
        "files:\n  - zeta/z.py   # the entry point\n  - alpha/a.py\n"
    )
    path = repo.path / RECORDS / "DEC-PL-004.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    result = decision_ids.update(repo.path, "DEC-PL-004", [a])
    assert result["added_commits"] == [a]
    after = path.read_text(encoding="utf-8")
    head, _, _ = text.partition("files:")
    assert after.startswith(head)  # comments and layout before the lists, byte for byte
    assert "  - zeta/z.py   # the entry point\n  - alpha/a.py\n  - packages/core/r.py\n" in after
    data = load(path)
    assert [s["sha"] for s in data["source_commits"]] == [a]  # type: ignore[attr-defined]
    assert data["files"] == ["zeta/z.py", "alpha/a.py", "packages/core/r.py"]


def test_update_keeps_the_records_byte_order_mark(repo: GitRepo) -> None:
    a = repo.commit("feat(core): stage runner", {"packages/core/r.py": "r\n"})
    text = (
        "id: DEC-PL-005\ntitle: Runner\ndomain: pipeline\nstatus: active\ncreated: '2026-01-01'\n"
    )
    path = repo.path / RECORDS / "DEC-PL-005.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    decision_ids.update(repo.path, "DEC-PL-005", [a])
    after = path.read_bytes()
    assert (
        after.startswith(b"\xef\xbb\xbf" + text.encode("utf-8"))
        and after.count(b"\xef\xbb\xbf") == 1
    )


def test_duplicate_id_is_renumbered_with_its_references(repo: GitRepo) -> None:
    a = repo.commit("feat(core): duckdb", {"packages/core/a.py": "a\n"})
    b = repo.commit("feat(core): polars", {"packages/core/b.py": "b\n"})
    record(repo.path, "DEC-PL-005-duckdb", "DEC-PL-005", source_commits=src(a))
    record(repo.path, "DEC-PL-005-polars", "DEC-PL-005", source_commits=src(b))
    extract(repo, a, "DEC-PL-005")
    extract(repo, b, "DEC-PL-005")
    with pytest.raises(ConflictError, match="defined twice"):
        decision_ids.update(repo.path, "DEC-PL-005")
    result = renumber(repo.path, "DEC-PL-005")
    assert (result["to"], result["file"]) == ("DEC-PL-006", f"{RECORDS}/DEC-PL-006-polars.yaml")
    assert result["ledger_lines"] == 1
    assert not (repo.path / RECORDS / "DEC-PL-005-polars.yaml").exists()
    assert load(repo.path / RECORDS / "DEC-PL-006-polars.yaml")["id"] == "DEC-PL-006"
    refs = {
        e["sha"]: e["decision_id"]
        for e in ledger.current(ledger.entries(repo.path / ledger.CLASSIFICATIONS))
    }
    assert refs == {a: "DEC-PL-005", b: "DEC-PL-006"}
    assert check(repo.path, {"DEC-PL-005", "DEC-PL-006"}, {"PL"}) == []


def test_renumber_rewrites_record_references(repo: GitRepo) -> None:
    record(repo.path, "DEC-PL-001", "DEC-PL-001")
    other = record(
        repo.path,
        "DEC-PL-002",
        "DEC-PL-002",
        related=["DEC-PL-001"],
        status="superseded",
        superseded_by="DEC-PL-001",
    )
    result = renumber(repo.path, "DEC-PL-001", to="DEC-PL-010")
    assert result["records_rewritten"] == [f"{RECORDS}/DEC-PL-002.yaml"]
    data = load(other)
    assert data["related"] == ["DEC-PL-010"] and data["superseded_by"] == "DEC-PL-010"
    with pytest.raises(ConflictError, match="already in use"):
        renumber(repo.path, "DEC-PL-010", to="DEC-PL-002")
    with pytest.raises(NotFound, match="no record has id"):
        renumber(repo.path, "DEC-PL-001")


def test_renumber_keeps_the_comments_of_the_moved_and_the_referring_records(
    repo: GitRepo,
) -> None:
    """Both records used to be dumped whole, every comment gone."""
    moved = repo.path / RECORDS / "DEC-PL-001-runner.yaml"
    moved.parent.mkdir(parents=True, exist_ok=True)
    head = "# Voted 2026-01-01.\n"
    moved.write_text(
        f"{head}id: DEC-PL-001  # renumber me\ntitle: Runner\ndomain: pipeline\n"
        "status: active\ncreated: '2026-01-01'\nsummary: |\n  Unlike DEC-PL-002.\n"
        "related: [DEC-PL-002]  # the store\n",
        encoding="utf-8",
    )
    other = repo.path / RECORDS / "DEC-PL-002.yaml"
    text = (
        "id: DEC-PL-002\ntitle: Store\ndomain: pipeline\nstatus: superseded\n"
        "created: '2026-01-01'\nsummary: |\n  Read DEC-PL-001 first.\n"
        "related:\n  - DEC-PL-001   # the runner\nsuperseded_by: DEC-PL-001  # since v2\n"
    )
    other.write_text(text, encoding="utf-8")
    result = renumber(repo.path, "DEC-PL-001", to="DEC-PL-010")
    assert result["records_rewritten"] == [f"{RECORDS}/DEC-PL-002.yaml"]
    new = (repo.path / RECORDS / "DEC-PL-010-runner.yaml").read_text(encoding="utf-8")
    assert new.startswith(f"{head}id: DEC-PL-010  # renumber me\n")
    assert new.endswith("  Unlike DEC-PL-002.\nrelated: [DEC-PL-002]  # the store\n")
    assert other.read_text(encoding="utf-8") == text.replace(
        "  - DEC-PL-001   #", "  - DEC-PL-010   #"
    ).replace("superseded_by: DEC-PL-001", "superseded_by: DEC-PL-010")  # prose kept


def test_renumber_to_a_code_not_of_the_records_domain_is_refused(repo: GitRepo) -> None:
    path = record(repo.path, "DEC-PL-001", "DEC-PL-001")
    before = path.read_bytes()
    with pytest.raises(UsageError, match="DEC-SR-001 uses code SR, but the record's domain"):
        renumber(repo.path, "DEC-PL-001", to="DEC-SR-001")
    with pytest.raises(UsageError, match="uses code ZZ"):
        renumber(repo.path, "DEC-PL-001", to="DEC-ZZ-001")
    assert path.read_bytes() == before
    assert sorted(p.name for p in (repo.path / RECORDS).iterdir()) == ["DEC-PL-001.yaml"]


def test_cli(repo: GitRepo, cli: Any) -> None:
    run = cli
    dry = run("decisions", "new", "--domain", "search", "--dry-run", cwd=repo.path)
    assert dry.exit_code == 0 and dry.json()["id"] == "DEC-SR-001"
    made = run("decisions", "new", "--domain", "SR", "--title", "Use BM25", cwd=repo.path)
    assert made.exit_code == 0 and (repo.path / RECORDS / "DEC-SR-001.yaml").exists()
    bad = run("decisions", "new", "--domain", "nope", cwd=repo.path)
    assert bad.exit_code == 1 and "unknown decision domain" in bad.stderr
    moved = run("decisions", "renumber", "DEC-SR-001", cwd=repo.path)
    assert moved.exit_code == 0 and moved.json()["to"] == "DEC-SR-002"


def _records_outside(repo: GitRepo, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The records folder is a symlink to a folder outside the project holding DEC-PL-001."""
    outside = tmp_path_factory.mktemp("records")
    (repo.path / RECORDS).parent.mkdir(parents=True, exist_ok=True)
    (repo.path / RECORDS).symlink_to(outside, target_is_directory=True)
    record(repo.path, "DEC-PL-001", "DEC-PL-001", related=["DEC-PL-001"])
    return outside


def test_new_update_renumber_refuse_a_symlinked_records_folder(
    repo: GitRepo, tmp_path_factory: pytest.TempPathFactory
) -> None:
    sha = repo.commit("feat(core): adopt DuckDB for stages", {"packages/core/db.py": "d\n"})
    outside = _records_outside(repo, tmp_path_factory)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    calls = [
        lambda: decision_ids.new(repo.path, "pipeline", title="T"),
        lambda: decision_ids.update(repo.path, "DEC-PL-001", [sha]),
        lambda: renumber(repo.path, "DEC-PL-001", to="DEC-PL-009"),
    ]
    for call in calls:
        with pytest.raises(UnsafePathError) as info:
            call()
        assert info.value.file == str(RECORDS) and "symlink" in info.value.message
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before
    assert ledger.entries(repo.path / ledger.CLASSIFICATIONS) == []


def test_a_decisions_registry_symlinked_outside_is_refused_never_read(
    repo: GitRepo, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """`decisions new` and `mine commit` read the domain codes; a registry.yaml leading out of
    the project is refused naming the link, as the loader's ORK045 does."""
    outside = tmp_path_factory.mktemp("elsewhere") / "registry.yaml"
    outside.write_text("domains:\n  secret: SE\n", encoding="utf-8")
    path = repo.path / "registries" / "decisions" / "registry.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    path.symlink_to(outside)
    for call in (
        lambda: decision_ids.new(repo.path, "secret", title="T"),
        lambda: classify.decision_codes(repo.path),
    ):
        with pytest.raises(UnsafePathError) as info:
            call()
        assert info.value.file == "registries/decisions/registry.yaml"
        assert "outside the project" in info.value.message
