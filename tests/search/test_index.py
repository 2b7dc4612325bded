"""The derived index: freshness, rebuilds, fallbacks and two processes at once."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from orkestra.search import index
from orkestra.search.document import Document, Field
from orkestra.search.service import search

DECISION = "registries/decisions/records/DEC-SR-001.yaml"


def ids(root: Path, query: str) -> list[str]:
    return [h.id for h in search(root, query).hits]


def age(root: Path, seconds: float = 60.0) -> None:
    """Make every file look old, so nothing is 'racy' (modified within the timestamp window)."""
    past = time.time() - seconds
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            os.utime(Path(dirpath) / name, (past, past))


def test_first_search_builds_the_index(root: Path) -> None:
    assert not index.index_path(root).exists()
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]
    assert index.index_path(root).is_file()


def test_edit_is_seen_by_the_next_search(root: Path) -> None:
    age(root)
    assert ids(root, "zeppelin") == []
    path = root / DECISION
    path.write_text(path.read_text().replace("Use SQLite FTS5", "Use zeppelin"))
    assert ids(root, "zeppelin") == ["DEC-SR-001"]


def test_same_size_edit_within_the_timestamp_window_is_seen(root: Path) -> None:
    path = root / DECISION
    assert ids(root, "sqlite") == ["DEC-SR-001"]  # indexed while the file is "racy"
    stat = path.stat()
    path.write_text(path.read_text().replace("SQLite", "Sqlite").replace("sqlite", "qlites"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime, same size
    assert path.stat().st_size == stat.st_size
    assert ids(root, "qlites") == ["DEC-SR-001"]


def test_same_size_edit_is_seen_when_the_file_clock_lags_ours(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server that stamps the files 10 s behind our clock: a file edited just now looks
    10 s old by our clock. Its index time is taken by the file system's clock
    (`core.clock.files_behind`), so it stays racy and a same-size edit in its tick is seen."""
    age(root)
    path = root / DECISION
    path.write_text(path.read_text().replace("Use SQLite FTS5", "Use zeppelin FTS5"))
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10_000_000_000)
    assert ids(root, "zeppelin") == ["DEC-SR-001"]
    stat = path.stat()
    path.write_text(path.read_text().replace("zeppelin", "dirigibl"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime, same size
    assert path.stat().st_size == stat.st_size
    assert ids(root, "dirigibl") == ["DEC-SR-001"]


def test_added_and_removed_files(root: Path) -> None:
    age(root)
    assert ids(root, "DEC-SR-002") == []
    new = root / "registries/decisions/records/DEC-SR-002.yaml"
    new.write_text(
        'id: DEC-SR-002\ntitle: Trigram fallback\ndomain: search\nstatus: proposed\ncreated: "2026-06-01"\n'
    )
    assert ids(root, "DEC-SR-002") == ["DEC-SR-002"]
    new.unlink()
    (root / DECISION).unlink()
    assert ids(root, "DEC-SR-002") == []
    assert ids(root, "fts5") == []


def test_warm_search_does_not_write(root: Path) -> None:
    age(root)
    search(root, "kubernetes")
    before = index.index_path(root).stat().st_mtime_ns
    time.sleep(0.01)
    search(root, "kubernetes")
    assert index.index_path(root).stat().st_mtime_ns == before


def test_deleted_index_is_rebuilt(root: Path) -> None:
    first = [h.to_dict() for h in search(root, "pipeline").hits]
    index.index_path(root).unlink()
    assert [h.to_dict() for h in search(root, "pipeline").hits] == first
    assert index.index_path(root).is_file()


@pytest.mark.parametrize("garbage", [b"not a database at all" * 100, b""])
def test_corrupt_index_is_rebuilt(root: Path, garbage: bytes) -> None:
    first = [h.to_dict() for h in search(root, "pipeline").hits]
    index.index_path(root).write_bytes(garbage)
    assert [h.to_dict() for h in search(root, "pipeline").hits] == first
    conn = sqlite3.connect(index.index_path(root))
    assert conn.execute("PRAGMA user_version").fetchone()[0] > 0
    conn.close()


def test_old_schema_is_rebuilt(root: Path) -> None:
    search(root, "pipeline")
    conn = sqlite3.connect(index.index_path(root))
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]


def test_unwritable_cache_folder_falls_back_to_reading_sources(root: Path) -> None:
    (root / ".orkestra").write_text("a file where the folder should be")
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]


def test_config_change_rescans_vendor_roots(root: Path) -> None:
    age(root)
    assert ids(root, "pdf") == ["pdf-tools"]
    config = root / "registries/orkestra.yaml"
    config.write_text(config.read_text().replace("vendor/acme", "vendor/none"))
    assert ids(root, "pdf") == []


def test_knowledge_documents_are_included(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def documents(project: Path, problems: object = None) -> list[Document]:
        text = (project / "knowledge" / "case.md").read_text()
        fields = (Field("title", "Case", 6), Field("body", text, 2))
        return [Document("notes", "case", "Case", "knowledge/case.md", 1, fields)]

    monkeypatch.setattr("orkestra.search.knowledge_docs.documents", documents)
    note = root / "knowledge" / "case.md"
    note.parent.mkdir()
    note.write_text("A case is a task in the backend.")
    age(root)
    assert ids(root, "case") == ["case"]
    assert search(root, "backend").counts["notes"] == 1
    note.write_text("A case is a ticket.")
    assert search(root, "backend").counts["notes"] == 0
    assert [h.to_dict() for h in search(root, "ticket").hits] == [
        h.to_dict() for h in search(root, "ticket", use_index=False).hits
    ]


_WORKER = """
import sys
from pathlib import Path
from orkestra.search.service import search
root = Path(sys.argv[1])
out = []
for query in ["kubernetes", "duckdb", "kuberntes", "pipeline"] * 3:
    out.append(",".join(h.id for h in search(root, query).hits))
print("|".join(out))
"""


def test_two_processes_search_at_once(root: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(root)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert results[0][0] == results[1][0]
    assert results[0][0].startswith("kubernetes-deploy,")
    expected = "|".join(
        ",".join(h.id for h in search(root, q, use_index=False).hits)
        for q in ["kubernetes", "duckdb", "kuberntes", "pipeline"] * 3
    )
    assert results[0][0].strip() == expected


QUERIES = [
    "kubernetes",
    "kuberntes",
    "pipeline",
    "postgres",
    "search index",
    "GT-ORK-005",
    "zeppelin",
]


def _same(root: Path) -> None:
    for query in QUERIES:
        indexed = search(root, query)
        memory = search(root, query, use_index=False)
        assert [h.to_dict() for h in indexed.hits] == [h.to_dict() for h in memory.hits], query
        assert indexed.counts == memory.counts, query


def test_incremental_updates_match_a_fresh_read(root: Path) -> None:
    _same(root)
    truths = root / "registries/truths/orkestra.yaml"
    truths.write_text(
        truths.read_text()
        + '  - id: GT-ORK-005\n    status: current\n    statement: "A zeppelin pipeline."\n'
    )
    _same(root)
    (root / "registries/agents/cluster-operator.yaml").unlink()
    _same(root)
    (root / "registries/domains/search/patterns.md").write_text("# Zeppelin postgres\n")
    _same(root)
    (root / "registries/scopes.yaml").write_text("scopes: {}\n")
    _same(root)
    assert ids(root, "GT-ORK-005") == ["GT-ORK-005"]


def test_broken_files_are_skipped_not_fatal(root: Path) -> None:
    (root / "registries/decisions/records/DEC-SR-001.yaml").write_text("id: [unclosed\n")
    (root / "registries/agents/release-manager.yaml").write_text(
        "name: someone-else\ndescription: x\n"
    )
    (root / "registries/truths/pipeline.yaml").write_bytes(b"\x00\x01binary")
    assert ids(root, "fts5") == []
    assert ids(root, "changelogs") == []
    assert ids(root, "idempotent") == []
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]
    _same(root)


def test_odd_queries(root: Path) -> None:
    assert ids(root, "!!! ---") == []
    assert "GT-ORK-001" in ids(root, "the")  # only stop words: then they are searched as words
    assert ids(root, "Ünïcode ☃") == []
    assert ids(root, "KUBERNETES")[:1] == ["kubernetes-deploy"]


NOTE = """---
type: glossary
title: Case
aliases: [case, cases, saker]
repos: [backend]
tags: ["area/cases"]
confidence: observed
verified_at: ""
sources: ["app/models/task.rb#class Task"]
created: "2026-06-01"
updated: "2026-06-01"
---
A case is what users call a Task in the backend.
"""


def test_real_knowledge_notes_are_found(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORKESTRA_TODAY", "2026-06-02")
    note = root / "knowledge" / "glossary" / "case.md"
    note.parent.mkdir(parents=True)
    note.write_text(NOTE)
    hits = search(root, "saker").hits
    assert [(h.type, h.id, h.path) for h in hits] == [
        ("notes", "case", "knowledge/glossary/case.md")
    ]
    fresh = hits[0].score
    monkeypatch.setenv("ORKESTRA_TODAY", "2027-06-02")  # a year later the note has lost standing
    later = search(root, "saker").hits
    assert later[0].score < fresh
    assert [h.to_dict() for h in later] == [
        h.to_dict() for h in search(root, "saker", use_index=False).hits
    ]


def test_damage_found_while_querying_falls_back_and_rebuilds_next_time(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.search import service

    expected = [h.to_dict() for h in search(root, "duckdb", use_index=False).hits]
    search(root, "duckdb")
    from orkestra.search.rank import rank as real_rank

    calls: list[int] = []

    def broken(corpus: object, *args: object, **kwargs: object) -> object:
        if not calls and type(corpus).__name__ == "IndexCorpus":
            calls.append(1)
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_rank(corpus, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "rank", broken)
    assert [h.to_dict() for h in search(root, "duckdb").hits] == expected
    assert not index.index_path(root).exists()
    assert [h.to_dict() for h in search(root, "duckdb").hits] == expected
    assert index.index_path(root).is_file()


def test_a_same_size_file_copied_in_with_its_old_mtime_is_seen_by_its_ctime(root: Path) -> None:
    """`cp -p`, `tar x`, a restore: another text of the same size, with the mtime the indexed one
    had, long after that one settled; only the ctime says it changed."""
    age(root)
    path = root / DECISION
    assert ids(root, "sqlite") == ["DEC-SR-001"]
    assert ids(root, "zephyr") == []
    stat = path.stat()
    path.write_text(path.read_text().replace("SQLite", "Zephyr").replace("sqlite", "zephyr"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime, same size
    assert path.stat().st_size == stat.st_size
    assert ids(root, "zephyr") == ["DEC-SR-001"]


def test_a_unit_s_fingerprint_depends_on_its_values_alone() -> None:
    """The same (name, last change, size) list gives the same fingerprint whether or not another
    reference holds one of its ints (a stat result the scan still keeps): else a warm search
    would find every unit changed and write."""
    from orkestra.search import freshness

    st = Path(__file__).stat()
    held = {"a.yaml": (max(st.st_mtime_ns, st.st_ctime_ns), st.st_size)}  # `st` holds the int
    fresh = {"a.yaml": (max(st.st_mtime_ns, st.st_ctime_ns) + 0, st.st_size + 0)}
    assert freshness._fingerprint(held) == freshness._fingerprint(fresh)


def test_a_lagging_file_clock_does_not_make_every_search_write(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server 10 s behind our clock: a file edited just now stays racy by the file clock;
    the searches meanwhile re-hash it but do not write the index (its lag is kept with the
    racy list)."""
    age(root)
    search(root, "kubernetes")
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10_000_000_000)
    path = root / DECISION
    path.write_text(path.read_text().replace("Use SQLite FTS5", "Use zeppelin FTS5"))
    assert ids(root, "zeppelin") == ["DEC-SR-001"]
    before = index.index_path(root).stat().st_mtime_ns
    time.sleep(0.01)
    assert ids(root, "zeppelin") == ["DEC-SR-001"]
    assert index.index_path(root).stat().st_mtime_ns == before


@pytest.mark.parametrize(
    "where",
    [b"knowledge/caf\xff.md", b"registries/agents/caf\xff.yaml",
     b"registries/domains/caf\xff/decisions.md"],
)  # fmt: skip
def test_a_file_name_that_is_not_utf8_is_left_out_not_fatal(root: Path, where: bytes) -> None:
    """The index keeps paths as UTF-8 text; `validate` names such a registry file for renaming."""
    path = os.fsencode(root) + b"/" + where
    os.makedirs(os.path.dirname(path), exist_ok=True)  # noqa: PTH103, PTH120 (a bytes path)
    with open(path, "wb") as handle:  # noqa: PTH123 (a bytes path)
        handle.write(b"x: 1\n")
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]


def test_an_index_that_cannot_be_brought_in_step_gives_way_to_the_sources(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only view of the project (a read-only mount): the index is there but its lock
    cannot be made, so an edit cannot be written into it. Search answers from the sources,
    edit included, instead of failing."""
    import errno

    from orkestra.core import lock

    age(root)
    assert ids(root, "zeppelin") == []
    path = root / DECISION
    path.write_text(path.read_text().replace("Use SQLite FTS5", "Use zeppelin FTS5"))

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(lock, "locked", read_only)
    assert ids(root, "zeppelin") == ["DEC-SR-001"]


def test_no_index_and_no_way_to_build_one_gives_way_to_the_sources(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from orkestra.core import lock

    (root / ".orkestra").mkdir(exist_ok=True)  # there, but read-only: no lock, no index

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(lock, "locked", read_only)
    assert ids(root, "duckdb") == ["DEC-PL-142", "DEC-PL-151"]
    assert not index.index_path(root).exists()
