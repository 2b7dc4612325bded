"""The code map inside other commands: evidence `path:symbol`, `system status`, `search --type code`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api
from orkestra.codemap.locate import Locator
from orkestra.codemap.summary import code_status
from orkestra.registry.evidence import check_evidence
from tests.codemap.conftest import needs_tree_sitter

pytestmark = needs_tree_sitter


def test_evidence_symbol_resolves_to_its_definition_through_the_map(code_project: Path) -> None:
    # without a map the text's first mention wins: line 1 imports the name
    before = check_evidence(code_project, "src/app/cli.py:Engine")
    assert (before["status"], before["line"]) == ("ok", 1)
    core = check_evidence(code_project, "src/app/core.py:Engine.start")
    assert core["status"] == "missing-anchor"  # a qualified name is not text
    api.index(code_project)
    assert check_evidence(code_project, "src/app/core.py:Engine.start")["line"] == 9
    assert check_evidence(code_project, "src/app/core.py:load_config")["line"] == 4
    # in a file that only imports the name the map has no definition: text again
    assert check_evidence(code_project, "src/app/cli.py:Engine")["line"] == 1


def test_a_file_indexed_in_its_change_s_tick_is_answered_only_while_it_holds_those_bytes(
    code_project: Path,
) -> None:
    """A same-size edit right after the index, which a coarse clock can leave with the identity
    the file was indexed with: its stat vouches for nothing yet, so its bytes are compared."""
    import sqlite3

    from orkestra.codemap import store

    api.index(code_project)
    locator = Locator(code_project)
    try:
        assert locator.line("src/app/core.py", "load_config") == 4  # the same bytes: answered
    finally:
        locator.close()
    core = code_project / "src/app/core.py"
    core.write_text(core.read_text(encoding="utf-8").replace("load_config", "read_config"), "utf-8")
    st = core.stat()
    with sqlite3.connect(store.map_path(code_project)) as conn:  # the identity kept
        conn.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, ctime_ns = ?, inode = ? WHERE path = ?",
            (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, "src/app/core.py"),
        )
    locator = Locator(code_project)
    try:
        assert locator.line("src/app/core.py", "load_config") is None
    finally:
        locator.close()


def test_a_file_changed_since_indexing_falls_back_to_text(code_project: Path) -> None:
    api.index(code_project)
    core = code_project / "src/app/core.py"
    core.write_text("# moved\n\n" + core.read_text(encoding="utf-8"), encoding="utf-8")
    locator = Locator(code_project)
    try:
        assert locator.line("src/app/core.py", "load_config") is None
        assert locator.line("src/app/core.py", "not a symbol!") is None
    finally:
        locator.close()
    assert check_evidence(code_project, "src/app/core.py:load_config")["line"] == 6


def test_status_reports_the_map(code_project: Path) -> None:
    assert code_status(code_project) == {"indexed": False, "hint": "orkestra code index"}
    api.index(code_project)
    status = code_status(code_project)
    assert status["indexed"] is True
    assert status["languages"] == {"python": 4}
    assert status["symbols"] == 7  # the vendored copy counts too
    assert status["not_green"] == []
    assert 0 <= status["age_seconds"] < 60


def test_code_index_and_status_report_indexed_at_alike(cli: Any, code_project: Path) -> None:
    report = api.index(code_project)
    assert isinstance(report["indexed_at"], int)
    assert report["indexed_at"] == code_status(code_project)["indexed_at"]
    indexed = cli("code", "index", cwd=code_project).json()["indexed_at"]
    status = cli("system", "status", cwd=code_project).json()["code_map"]["indexed_at"]
    assert isinstance(indexed, int) and indexed == status


def test_system_status_has_the_code_map_section(cli: Any, code_project: Path) -> None:
    cli("code", "index", cwd=code_project)
    out = cli("system", "status", cwd=code_project).json()
    assert out["code_map"]["files"] >= 5


def test_search_summary_of_code_alone_counts_every_type_zeros_included(
    cli: Any, code_project: Path
) -> None:
    """`--summary` has a count for every type, zeros included (docs/search.md), with `--type
    code` alone too, as with `--type code,agents`: a script reading `.counts.agents` gets 0."""
    from orkestra.search.service import SUMMARY_TYPES

    alone = cli("search", "engine", "--type", "code", "--summary", cwd=code_project).json()
    mixed = cli("search", "engine", "--type", "code,agents", "--summary", cwd=code_project).json()
    assert list(alone["counts"]) == list(mixed["counts"]) == [*SUMMARY_TYPES, "code"]
    assert alone["counts"] == {**dict.fromkeys(SUMMARY_TYPES, 0), "code": alone["counts"]["code"]}
    assert alone["total"] == alone["counts"]["code"] >= 1


def test_search_type_code_includes_code_hits(cli: Any, code_project: Path) -> None:
    only = cli("search", "load_config", "--type", "code", cwd=code_project).json()
    assert only["results"][0]["type"] == "code"
    assert only["results"][0]["id"] == "src/app/core.py:4"
    counts = cli("search", "engine", "--type", "code,agents", "--summary", cwd=code_project)
    got = counts.json()["counts"]
    assert got["code"] >= 1 and got["agents"] == 0
    assert counts.json()["total"] == sum(got.values())
    bad = cli("search", "x", "--type", "cod", cwd=code_project)
    assert bad.exit_code == 2 and "code" in bad.stderr


def test_a_note_source_pattern_that_names_a_symbol_gives_its_definition(
    code_project: Path,
) -> None:
    from orkestra.knowledge.check import _Files, check_source
    from orkestra.knowledge.notes import parse_source
    from orkestra.knowledge.settings import Settings

    settings = Settings(code_project)
    source = parse_source("src/app/cli.py#Engine")
    assert check_source(settings, source, _Files())["line"] == 1  # the import: text
    main = parse_source("src/app/cli.py#main")
    assert check_source(settings, main, _Files())["line"] == 4  # `def main` is the first "main"
    (code_project / "src/app/cli.py").write_text(
        "# run main() from here\n" + (code_project / "src/app/cli.py").read_text("utf-8"),
        encoding="utf-8",
    )
    api.index(code_project)
    assert check_source(settings, main, _Files())["line"] == 5  # the definition, not the comment


def test_the_locator_never_blocks_on_a_fifo_in_a_file_s_place(tmp_path: Path) -> None:
    """A file swapped for a FIFO between the stat and the read: refused, not read (a plain open
    would wait for a writer forever)."""
    import os

    from orkestra.codemap import locate

    fifo = tmp_path / "core.py"
    os.mkfifo(fifo)
    assert locate._sha(str(fifo), (0, 0, 0, 0)) is None


def test_status_names_a_file_standing_where_the_cache_folder_belongs(code_project: Path) -> None:
    """`.orkestra` made a regular file: `system status` said only "orkestra code index", which
    then failed; it names the file and says to move it, as the ledger's part does."""
    (code_project / ".orkestra").write_text("not a folder\n", encoding="utf-8")
    status = code_status(code_project)
    assert status["indexed"] is False and status["file"] == ".orkestra"
    assert "is a file" in status["reason"]
    assert status["hint"] == "move '.orkestra' away, then run `orkestra code index`"
