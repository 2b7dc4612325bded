"""The code map's answers through `codemap.api` (what the CLI and the MCP server call)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from orkestra.codemap import api, languages, store
from orkestra.core.errors import NotFound, UsageError
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


def test_index_reports_files_languages_and_skips(code_project: Path) -> None:
    write(code_project, "blob.bin", "")
    (code_project / "blob.bin").write_bytes(b"\x00\x01binary")
    (code_project / "big.py").write_text("x = 1\n" * 200_000, encoding="utf-8")
    report = api.index(code_project)
    assert report["languages"]["python"]["gate"] == "GREEN"
    assert report["not_green"] == []
    assert report["skipped"]["binary"] == 1
    assert report["skipped"]["oversized"] == 1
    paths = {r[0] for r in _db(code_project).execute("SELECT path FROM files")}
    assert "ignored.py" not in paths  # .gitignore respected
    assert "notes.md" in paths  # text search only
    assert "big.py" not in paths


def test_find_symbol_is_exact_unless_similar(code_project: Path) -> None:
    hit = api.find_symbol(code_project, "Engine.start")["symbols"]
    assert [(h["location"], h["kind"]) for h in hit] == [("src/app/core.py:9", "method")]
    assert api.find_symbol(code_project, "load_confg")["total"] == 0
    near = api.find_symbol(code_project, "load_confg", similar=True)["symbols"]
    assert {h["path"] for h in near} == {"src/app/core.py", "vendor/lib/core.py"}
    assert near[0]["path"] == "src/app/core.py"  # vendored copies rank last
    assert api.find_symbol(code_project, "Engine", kind="function")["total"] == 0


def test_references_resolve_through_aliases(code_project: Path) -> None:
    refs = api.find_references(code_project, "load_config")
    resolved = {(r["location"], r["resolved"]) for r in refs["references"] if r["resolved"]}
    assert ("src/app/cli.py:7", "src/app/core.py:4") in resolved  # `read_conf`, an alias
    assert ("src/app/core.py:10", "src/app/core.py:4") in resolved
    starts = api.find_references(code_project, "Engine.start")["references"]
    assert {r["location"] for r in starts} == {"src/app/cli.py:6", "src/app/core.py:13"}


def test_deps_lists_imports_and_importers(code_project: Path) -> None:
    deps = api.dependencies(code_project, "src/app/cli.py")
    assert {f for i in deps["imports"] for f in i["files"]} == {"src/app/core.py"}
    assert [i["location"] for i in deps["importers"]] == ["src/app/extra.py:1"]
    with pytest.raises(NotFound, match="not in the code map"):
        api.dependencies(code_project, "nope.py")


def test_impact_is_transitive_with_depth(code_project: Path) -> None:
    found = api.impact(code_project, "load_config")["dependents"]
    depth = {d["symbol"]: d["depth"] for d in found if d["symbol"]}
    assert depth["Engine.start"] == 1
    assert depth["main"] == 1
    assert depth["Engine.stop"] == 2
    assert depth["run_twice"] == 2
    by_file = api.impact(code_project, "src/app/cli.py")["dependents"]
    assert {d["path"] for d in by_file} == {"src/app/extra.py"}


def test_outline_in_order_with_depth(code_project: Path) -> None:
    out = api.outline(code_project, "src/app/core.py")["symbols"]
    assert [(s["qualname"], s["depth"]) for s in out] == [
        ("load_config", 0), ("Engine", 0), ("Engine.start", 1), ("Engine.stop", 1)
    ]  # fmt: skip


def test_code_search_reports_intent_and_strategy(code_project: Path) -> None:
    direct = api.code_search(code_project, "def load_config")
    assert (direct["intent"], direct["fusion_strategy"]) == ("find_definition", "direct")
    assert direct["results"][0]["location"] == "src/app/core.py:4"
    fused = api.code_search(code_project, "how does the engine read config")
    assert (fused["intent"], fused["confidence"]) == ("understand_code", 0.75)
    assert fused["fusion_strategy"] == "weighted_rrf"
    assert fused["results"] and all(":" in r["location"] for r in fused["results"])
    callers = api.code_search(code_project, "who calls load_config")
    assert callers["intent"] == "find_references"
    assert {r["path"] for r in callers["results"]} >= {"src/app/cli.py", "src/app/core.py"}
    with pytest.raises(UsageError, match="empty"):
        api.code_search(code_project, "  ")


def test_get_file_returns_a_line_range(code_project: Path) -> None:
    got = api.get_file(code_project, "src/app/core.py", 4, 5)
    assert got["text"] == "def load_config(path):\n    return open(path).read()"
    assert got["location"] == "src/app/core.py:4"
    with pytest.raises(UsageError, match="outside"):
        api.get_file(code_project, "src/app/core.py", 99, 100)


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        (-5, -1, "start must be a line number of 1 or more, got -5"),
        (0, 3, "start must be a line number of 1 or more, got 0"),
        (None, -1, "end must be a line number of 1 or more, got -1"),
        (3, 2, r"end \(2\) is before start \(3\)"),
    ],
)
def test_get_file_refuses_lines_before_the_first(
    code_project: Path, start: int | None, end: int | None, message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        api.get_file(code_project, "src/app/core.py", start, end)
    assert api.get_file(code_project, "src/app/core.py", 13, 999)["text"] == "        self.start()"


def test_an_absolute_path_inside_the_project_names_the_file(code_project: Path) -> None:
    absolute = str(code_project / "src/app/core.py")
    assert api.outline(code_project, absolute)["path"] == "src/app/core.py"
    assert api.dependencies(code_project, absolute)["importers"][0]["path"] == "src/app/cli.py"
    assert api.get_file(code_project, absolute, 4, 4)["location"] == "src/app/core.py:4"
    by_path = api.impact(code_project, str(code_project / "src/app/cli.py"))
    assert by_path == api.impact(code_project, "src/app/cli.py")
    with pytest.raises(NotFound, match="is outside the project"):
        api.outline(code_project, "/etc/passwd")


def test_an_absolute_path_through_a_symlinked_spelling_of_the_root_names_the_file(
    code_project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """An agent or shell whose cwd is a symlink to the project ($PWD keeps the link's spelling,
    /tmp -> /private/tmp on macOS) names files under that spelling: they are inside."""
    link = tmp_path_factory.mktemp("links") / "checkout"
    link.symlink_to(code_project, target_is_directory=True)
    absolute = str(link / "src/app/core.py")
    assert api.outline(code_project, absolute)["path"] == "src/app/core.py"
    assert api.get_file(code_project, absolute, 4, 4)["location"] == "src/app/core.py:4"
    assert api.dependencies(code_project, absolute)["path"] == "src/app/core.py"
    assert api.impact(code_project, str(link / "src/app/cli.py")) == api.impact(
        code_project, "src/app/cli.py"
    )


@pytest.mark.parametrize(
    "spelling", ["src/./app/core.py", "src//app/core.py", "src/app/../app/core.py"]
)
def test_a_path_spelled_with_dots_or_doubled_slashes_names_the_file(
    code_project: Path, spelling: str
) -> None:
    assert api.get_file(code_project, spelling, 4, 4)["location"] == "src/app/core.py:4"
    assert api.outline(code_project, str(code_project) + "/" + spelling)["path"] == (
        "src/app/core.py"
    )


@pytest.mark.parametrize("spelling", ["../outside.py", "src/../../outside.py", ".."])
def test_a_relative_path_leaving_the_project_is_outside_it(
    code_project: Path, spelling: str
) -> None:
    with pytest.raises(NotFound, match="is outside the project"):
        api.get_file(code_project, spelling)


def test_reindex_touches_only_what_changed(code_project: Path) -> None:
    api.index(code_project)
    again = api.index(code_project)
    assert (again["indexed"], again["removed"]) == (0, 0)
    core = code_project / "src/app/core.py"
    core.write_text(core.read_text(encoding="utf-8").replace("def stop", "def halt"), "utf-8")
    (code_project / "src/app/extra.py").unlink()
    changed = api.index(code_project)
    assert (changed["indexed"], changed["removed"]) == (1, 1)
    assert api.find_symbol(code_project, "Engine.stop")["total"] == 0
    assert api.find_symbol(code_project, "Engine.halt")["symbols"][0]["line"] == 12
    os.utime(core)  # touched, same content: read again, not re-parsed
    assert api.index(code_project)["indexed"] == 0
    assert api.index(code_project, full=True)["indexed"] == changed["files"]


def test_a_damaged_map_is_rebuilt(code_project: Path) -> None:
    api.index(code_project)
    store.map_path(code_project).write_bytes(b"not a database at all" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{store.map_path(code_project)}{suffix}").unlink(missing_ok=True)
    assert api.index(code_project)["symbols"] > 0


def test_a_map_another_extractor_built_is_rebuilt_even_for_unchanged_files(
    code_project: Path,
) -> None:
    api.index(code_project)
    with _db(code_project) as db:  # what an older extractor left for a file that has not changed
        db.execute("UPDATE symbols SET name = 'stale', qualname = 'stale' WHERE name = 'start'")
        db.execute("UPDATE meta SET value = 'older' WHERE key = 'extractor'")
    db.close()
    assert api.find_symbol(code_project, "Engine.start")["total"] == 1  # rebuilt on first use
    assert api.find_symbol(code_project, "stale")["total"] == 0
    assert store.meta(_db(code_project), "extractor") == languages.extractor_stamp()


def test_the_extractor_stamp_covers_the_queries_and_the_grammars(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = languages.extractor_stamp()
    languages.extractor_stamp.cache_clear()
    monkeypatch.setitem(
        languages.LANGUAGES, "ruby", languages.LANGUAGES["ruby"]._replace(module="no_such_grammar")
    )
    try:
        assert languages.extractor_stamp() != before
    finally:
        languages.extractor_stamp.cache_clear()
    monkeypatch.undo()
    assert languages.extractor_stamp() == before


def test_status_reports_an_outdated_map_as_not_indexed(code_project: Path) -> None:
    from orkestra.codemap.summary import code_status

    api.index(code_project)
    assert code_status(code_project)["indexed"] is True
    with _db(code_project) as db:
        db.execute("UPDATE meta SET value = 'older' WHERE key = 'extractor'")
    db.close()
    status = code_status(code_project)
    assert status["indexed"] is False
    assert "out of date" in status["reason"]
    assert status["hint"] == "orkestra code index"


def test_without_the_extra_the_message_names_the_install(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(languages.importlib, "import_module", missing)
    with pytest.raises(languages.MissingExtra, match=r"pip install 'orkestra\[code\]'"):
        api.index(code_project)
    assert not store.exists(code_project)


def _db(root: Path) -> sqlite3.Connection:
    return sqlite3.connect(store.map_path(root))


def test_a_change_re_resolves_references_in_other_files(code_project: Path) -> None:
    api.index(code_project)
    core = code_project / "src/app/core.py"
    text = core.read_text(encoding="utf-8")
    core.write_text(text.replace("def load_config", "def load_settings"), encoding="utf-8")
    gone = api.find_references(code_project, "read_conf")["references"]  # the alias's uses
    assert {r["location"]: r["resolved"] for r in gone}["src/app/cli.py:7"] is None
    core.write_text(text, encoding="utf-8")
    back = api.find_references(code_project, "load_config")["references"]
    assert {r["location"]: r["resolved"] for r in back}["src/app/cli.py:7"] == "src/app/core.py:4"


def test_concurrent_indexes_and_reads_see_a_whole_map(code_project: Path) -> None:
    import threading

    api.index(code_project)
    errors: list[BaseException] = []

    def work(full: bool) -> None:
        try:
            for _ in range(3):
                api.index(code_project, full=full)
                found = api.find_symbol(code_project, "Engine.start", refresh=False)
                assert [s["line"] for s in found["symbols"]] == [9]
        except BaseException as exc:  # collected and re-raised by the test below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i == 0,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


CORE = "src/app/core.py"


def _same_size_edit(root: Path) -> None:
    """`load_config` renamed `read_config` (the same length): the file keeps its size."""
    path = root / CORE
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("load_config", "read_config"), encoding="utf-8")
    assert len(path.read_bytes()) == len(text.encode())


def _row(root: Path, **values: int) -> None:
    with _db(root) as conn:
        sets = ", ".join(f"{k} = ?" for k in values)
        conn.execute(f"UPDATE files SET {sets} WHERE path = ?", (*values.values(), CORE))


def test_a_same_size_edit_in_the_tick_the_file_was_indexed_in_is_seen(code_project: Path) -> None:
    """A coarse clock can give a file edited after it was read the identity it was read with;
    read that close to its change, the file is read again (its hash compared) by the next
    run, until its change has settled."""
    api.index(code_project)
    _same_size_edit(code_project)
    st = (code_project / CORE).stat()  # the identity a coarse clock would have kept:
    _row(code_project, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns, inode=st.st_ino)
    assert api.find_symbol(code_project, "read_config")["total"] == 1
    assert api.find_symbol(code_project, "load_config")["total"] == 1  # the vendored copy


def test_a_same_size_edit_that_sets_the_old_mtime_back_is_seen_by_its_ctime(
    code_project: Path,
) -> None:
    """`cp -p`, `rsync -t`, `touch -r`: the same size and mtime, read long after its change
    (settled); the ctime moved, so the file is read again."""
    api.index(code_project)
    path = code_project / CORE
    before = path.stat()
    _row(code_project, seen_ns=before.st_ctime_ns + 10 * store.RACY_NS)  # read long after
    _same_size_edit(code_project)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert api.find_symbol(code_project, "read_config")["total"] == 1


def test_a_settled_file_is_not_read_again_and_a_racy_unchanged_one_writes_nothing(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.codemap import indexer

    api.index(code_project)
    seen = dict(_db(code_project).execute("SELECT path, seen_ns FROM files").fetchall())
    assert api.index(code_project)["indexed"] == 0  # racy (just written): hashed, same bytes,
    assert dict(_db(code_project).execute("SELECT path, seen_ns FROM files").fetchall()) == seen
    import time

    from orkestra.core import clock

    later = time.time_ns  # ten seconds on (the file clock in step): settled, recorded so,
    monkeypatch.setattr(time, "time_ns", lambda: later() + 5 * store.RACY_NS)
    monkeypatch.setattr(clock, "files_behind", lambda root: 0)
    api.index(code_project)
    settled = dict(_db(code_project).execute("SELECT path, seen_ns FROM files").fetchall())
    assert all(settled[p] > seen[p] for p in seen)
    read: list[str] = []
    real = indexer.hashlib.sha1
    monkeypatch.setattr(indexer.hashlib, "sha1", lambda *a, **k: read.append(1) or real(*a, **k))
    assert api.index(code_project)["indexed"] == 0  # and the one after only stats
    assert read == []


def test_an_update_meeting_a_map_a_full_build_replaced_opens_the_new_one(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's full build installs a new map file between this update's open and its
    first write (SQLite: the file moved): the update is rolled back and done on the new map."""
    from orkestra.codemap import indexer

    api.index(code_project)
    real, raced = store.connect, []

    def racing(root: Path, *, create: bool) -> sqlite3.Connection:
        conn = real(root, create=create)
        if not raced:
            raced.append(True)
            indexer.build(root)  # installed after this connection opened the old file
            (root / CORE).write_text(  # (and a change for the update to write)
                (root / CORE).read_text(encoding="utf-8").replace("load_config", "new_config"),
                encoding="utf-8",
            )
        return conn

    monkeypatch.setattr(store, "connect", racing)
    assert api.find_symbol(code_project, "new_config")["total"] == 1
    assert raced == [True]


def test_an_install_waits_for_an_update_in_its_transaction(code_project: Path) -> None:
    """A writer's journal is named after the map's path: renamed over meanwhile, the new map's
    first reader would roll that journal back into it. So an install waits for the writers'
    lock, and removes a killed writer's journal before the rename."""
    import threading

    from orkestra.codemap import indexer

    api.index(code_project)
    conn, temp = store.fresh(code_project)
    conn.close()
    done = threading.Event()
    with store.writing(code_project):  # an update in its transaction
        installer = threading.Thread(target=lambda: (store.install(code_project, temp), done.set()))
        installer.start()
        assert not done.wait(0.3)
    installer.join(10)
    assert done.is_set()
    journal = Path(f"{store.map_path(code_project)}-journal")
    journal.write_bytes(b"a killed writer's journal")
    indexer.build(code_project)
    assert not journal.exists()
    assert api.find_symbol(code_project, "Engine.start")["total"] == 1


def test_a_map_that_cannot_be_written_still_answers_after_files_settle(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built right after the files were written (a clone), then read, once they have settled,
    where the map cannot be written (a read-only mount): keeping their settled stats is
    bookkeeping, left out."""
    import time

    from orkestra.codemap import indexer
    from orkestra.core import clock

    api.index(code_project)
    later = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: later() + 5 * store.RACY_NS)
    monkeypatch.setattr(clock, "files_behind", lambda root: 0)
    uri = f"file:{store.map_path(code_project)}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        counts = indexer.refresh(conn, code_project)  # every file racy: read again, same bytes
        assert counts["indexed"] == 0 and counts["unchanged"] > 0
    finally:
        conn.close()


def test_inode_numbers_over_63_bits_are_kept_as_sqlite_integers() -> None:
    for number in (0, 5, 2**63 - 1, 2**63, 2**64 - 1, 2**64 + 7, 2**127 + 3):
        folded = store._signed(number)
        assert -(2**63) <= folded < 2**63
    assert store._signed(2**63) != store._signed(2**63 + 1)
    assert store._signed(12345) == 12345


def test_a_file_dated_in_the_future_settles_by_its_ctime(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dated tomorrow (an archive from a clock ahead): not re-read on every run once its ctime
    has settled."""
    import time

    from orkestra.codemap import indexer
    from orkestra.core import clock

    tomorrow = time.time_ns() + 86_400 * 10**9
    os.utime(code_project / CORE, ns=(tomorrow, tomorrow))
    api.index(code_project)
    later = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: later() + 5 * store.RACY_NS)
    monkeypatch.setattr(clock, "files_behind", lambda root: 0)
    api.index(code_project)  # settled by its ctime: recorded so
    read: list[int] = []
    real = indexer.hashlib.sha1
    monkeypatch.setattr(indexer.hashlib, "sha1", lambda *a, **k: read.append(1) or real(*a, **k))
    api.index(code_project)
    assert read == []


def test_a_query_with_nothing_changed_writes_nothing(code_project: Path) -> None:
    """No row to write, no look at the file clock (a write under `.orkestra/`)."""
    from orkestra.core import clock

    api.index(code_project)
    probe = code_project / clock.PROBE
    probe.unlink(missing_ok=True)
    api.find_symbol(code_project, "Engine.start")  # racy files read again: same bytes, no write
    assert not probe.exists()


@pytest.mark.parametrize(("code", "calls"), [("moved", 3), ("other", 1)])
def test_only_a_moved_map_is_opened_again_and_only_a_few_times(
    code_project: Path, monkeypatch: pytest.MonkeyPatch, code: str, calls: int
) -> None:
    """A map replaced under every try is opened `REOPEN` times, then the error stands; any
    other SQLite error is not retried. Each connection opened is closed."""
    from orkestra.codemap import indexer

    api.index(code_project)
    tried: list[sqlite3.Connection] = []

    def failing(conn: sqlite3.Connection, root: Path) -> dict[str, object]:
        tried.append(conn)
        error = sqlite3.OperationalError("attempt to write a readonly database")
        error.sqlite_errorcode = (  # type: ignore[attr-defined]
            sqlite3.SQLITE_READONLY_DBMOVED if code == "moved" else sqlite3.SQLITE_IOERR
        )
        raise error

    monkeypatch.setattr(indexer, "refresh", failing)
    with pytest.raises(sqlite3.OperationalError):
        indexer.current(code_project)
    assert len(tried) == calls == (indexer.REOPEN if code == "moved" else 1)
    for conn in tried:
        with pytest.raises(sqlite3.ProgrammingError):  # closed
            conn.execute("SELECT 1")


def test_an_unknown_kind_is_a_usage_error_listing_the_kinds(code_project: Path) -> None:
    with pytest.raises(UsageError, match="unknown kind 'nonsense'; the kinds are: class,"):
        api.find_symbol(code_project, "Engine", kind="nonsense")
    assert not store.exists(code_project)  # refused before the map is built
    assert api.find_symbol(code_project, "Engine", kind="class")["total"] == 1


def test_the_kinds_are_every_kind_the_queries_define() -> None:
    from orkestra.codemap import extract
    from orkestra.codemap.facts import KINDS

    found = set()
    for name in languages.LANGUAGES:
        query = languages.load(name)[1]
        captures = (query.capture_name(i) for i in range(query.capture_count))
        found |= {
            extract.KIND_ALIASES.get(c.partition(".")[2], c.partition(".")[2])
            for c in captures
            if c.startswith("definition.")
        }
    assert found == set(KINDS)


@pytest.mark.parametrize(
    "spelling",
    ["./src/app/core.py", "src/app/./core.py", "src//app/core.py", "src/x/../app/core.py"],
)
def test_a_path_spelled_another_way_names_the_same_file(code_project: Path, spelling: str) -> None:
    # the same spellings MCP `context_for` reads as `src/app/core.py`
    assert api.outline(code_project, spelling)["path"] == "src/app/core.py"
    assert api.get_file(code_project, spelling, 4, 4)["location"] == "src/app/core.py:4"
    assert api.dependencies(code_project, spelling)["path"] == "src/app/core.py"
    assert api.impact(code_project, spelling) == api.impact(code_project, "src/app/core.py")
    absolute = f"{code_project}/src/../{spelling}"
    assert api.outline(code_project, absolute)["path"] == "src/app/core.py"


@pytest.mark.parametrize("spelling", ["../core.py", "src/../../core.py", ".."])
def test_a_relative_path_leaving_the_project_is_outside(code_project: Path, spelling: str) -> None:
    with pytest.raises(NotFound, match="is outside the project"):
        api.outline(code_project, spelling)


def test_get_file_past_the_end_says_how_many_lines_there_are(code_project: Path) -> None:
    # was "line range 99-13 is outside ..." (a range nobody asked for); an empty file answered
    # any start with an empty text cited at that line
    with pytest.raises(UsageError, match=r"line 99 is outside src/app/core.py: it has 13 lines"):
        api.get_file(code_project, "src/app/core.py", 99, 100)
    write(code_project, "src/app/empty.py", "")
    git(code_project, "add", "-A")
    assert api.get_file(code_project, "src/app/empty.py")["text"] == ""
    assert api.get_file(code_project, "src/app/empty.py", 1)["total_lines"] == 0
    with pytest.raises(UsageError, match=r"line 5 is outside src/app/empty.py: it has 0 lines"):
        api.get_file(code_project, "src/app/empty.py", 5)
