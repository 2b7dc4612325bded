"""`notes check`: sources against the code, the confidence lifecycle, INDEX.md, search documents."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from orkestra.knowledge import index
from orkestra.knowledge.cache import CACHE
from orkestra.knowledge.check import check
from orkestra.knowledge.notes import load_notes
from orkestra.search.knowledge_docs import documents
from tests.conftest import read_json_file, write
from tests.knowledge.helpers import note, settings

DAY = dt.date(2026, 6, 1)


def by_name(report: dict[str, object]) -> dict[str, dict[str, object]]:
    return {n["name"]: n for n in report["notes"]}  # type: ignore[attr-defined]


def test_confirmed_with_path_and_line(project: Path) -> None:
    write(project, "app/task.py", "import x\n\nclass Task:\n    pass\n")
    note(project, "case", sources=["app/task.py#class Task", "app/task.py"])
    report = check(settings(project), DAY)
    (entry,) = report["notes"]
    assert entry["outcome"] == "confirmed"
    assert [(s["status"], s["path"], s["line"]) for s in entry["sources"]] == [
        ("confirmed", "app/task.py", 3),
        ("confirmed", "app/task.py", None),
    ]
    assert report["confirmed"] == 1 and report["contradicted"] == 0


def test_renamed_file_contradicts_and_note_is_kept(project: Path) -> None:
    write(project, "app/task.py", "class Task:\n")
    path = note(project, "case", sources=["app/task.py#class Task"])
    assert check(settings(project), DAY)["confirmed"] == 1
    (project / "app/task.py").rename(project / "app/case.py")
    report = check(settings(project), DAY)
    assert report["contradicted"] == 1
    (bad,) = report["contradicted_notes"]
    assert bad["name"] == "case" and bad["sources"][0]["reason"].startswith("file not found")
    assert path.exists()  # shown to the user, never deleted


def test_vanished_pattern_contradicts(project: Path) -> None:
    code = write(project, "app/task.py", "class Task:\n")
    note(project, "case", sources=["app/task.py#class Task"])
    code.write_text("class Case:\n")
    entry = by_name(check(settings(project), DAY))["case"]
    assert entry["outcome"] == "contradicted"
    assert "not found" in entry["sources"][0]["reason"]  # type: ignore[index]


def test_sibling_checkouts_and_unknown_repos(tmp_path: Path) -> None:
    root = tmp_path / "main"
    write(root, "registries/orkestra.yaml", "project: demo\n")
    write(tmp_path, "backend/app/models/task.rb", "class Task < ApplicationRecord\n")
    (tmp_path / "backend/.git").mkdir()  # a sibling checkout (a repo is a git work tree, §8.2)
    note(root, "case", sources=["backend: app/models/task.rb#class Task"])
    note(root, "other", sources=["frontend: src/App.tsx"])
    note(root, "missing", sources=["gone: x.py"])
    note(root, "unsourced")
    cfg = settings(root, repos={"backend": "../backend", "gone": "../gone"})
    got = by_name(check(cfg, DAY))
    assert got["case"]["outcome"] == "confirmed"
    assert got["case"]["sources"][0]["path"] == "backend: app/models/task.rb"  # type: ignore[index]
    assert got["other"]["outcome"] == "ambiguous"
    assert "not listed" in got["other"]["sources"][0]["reason"]  # type: ignore[index]
    assert "not found" in got["missing"]["sources"][0]["reason"]  # type: ignore[index]
    assert got["unsourced"]["outcome"] == "ambiguous"


def test_path_leaving_the_repo_is_not_read(project: Path) -> None:
    (project / "link").symlink_to("/etc")
    note(project, "x", sources=["link/hostname"])
    entry = by_name(check(settings(project), DAY))["x"]
    assert entry["outcome"] == "ambiguous"


def test_verified_note_falls_back_after_90_days(project: Path) -> None:
    path = note(project, "case", confidence="verified", verified_at="2026-03-01")
    cfg = settings(project)
    assert check(cfg, dt.date(2026, 5, 30))["demoted"] == []  # 90 days: still verified
    dry = check(cfg, dt.date(2026, 5, 31), apply=False)
    assert dry["demoted"] == ["case"] and 'confidence: "verified"' in path.read_text()
    report = check(cfg, dt.date(2026, 5, 31))
    assert report["demoted"] == ["case"]
    text = path.read_text()
    assert "confidence: observed\n" in text and 'verified_at: "2026-03-01"' in text
    assert text.endswith("Body.\n")
    assert check(cfg, dt.date(2026, 5, 31))["demoted"] == []


def test_verify_and_demote_keep_a_crlf_note_crlf_and_replace_a_folded_value(
    project: Path,
) -> None:
    """The replaced lines used to end in LF inside a CRLF note, and a value folded onto the
    next line stayed there, read as part of the new one (`verified observed`)."""
    from orkestra.knowledge import service

    text = (
        "---\r\ntype: gotcha\r\ntitle: Flaky clock\r\nconfidence:\r\n  observed\r\n"
        'verified_at: ""\r\nsources: []\r\ncreated: "2026-03-01"\r\n---\r\n\r\nBody.\r\n'
    )
    path = write(project, "knowledge/gotchas/flaky-clock.md", text)
    service.verify(settings(project), "flaky-clock", dt.date(2026, 3, 1))
    after = path.read_bytes()
    assert after.count(b"\n") == after.count(b"\r\n")  # every line still CRLF
    assert b"confidence: verified\r\nverified_at" in after
    assert after.endswith(b'updated: "2026-03-01"\r\n---\r\n\r\nBody.\r\n')
    assert load_notes(project, "knowledge").notes[0].confidence == "verified"
    assert check(settings(project), dt.date(2026, 6, 30))["demoted"] == ["flaky-clock"]
    demoted = path.read_bytes()
    assert demoted.count(b"\n") == demoted.count(b"\r\n") and b"observed\r\n" in demoted


def test_max_age_is_configurable(project: Path) -> None:
    note(project, "case", confidence="verified", verified_at="2026-05-01")
    assert check(settings(project, verified_max_age_days=10), DAY, apply=False)["demoted"] == [
        "case"
    ]


def _many(root: Path, count: int) -> None:
    kinds = ["glossary", "repo", "convention", "decision", "recipe", "gotcha"]
    for n in range(count):
        note(root, f"n{n}", kind=kinds[n % 6], repos=[f"r{n % 30}"], tags=[f"area{n % 40}/x"])


def test_index_size_nearly_constant_from_10_to_200_notes(tmp_path: Path) -> None:
    small, big = tmp_path / "small", tmp_path / "big"
    _many(small, 10)
    _many(big, 200)
    folders = ["glossary", "repos", "conventions", "decisions", "recipes", "gotchas"]
    for root, count in ((small, 10), (big, 200)):
        reads = "".join(
            json.dumps({"ts": "2026-05-30T10:00:00Z", "session_id": "s", "path": path}) + "\n"
            for path in (f"{folders[n % 6]}/n{n}.md" for n in range(count))
        )
        write(root, "knowledge/.usage.jsonl", reads)
    a = index.write(settings(small), DAY)
    b = index.write(settings(big), DAY)
    assert b["lines"] - a["lines"] <= 6  # rows are capped: repos, tags and highlights
    assert b["bytes"] < 3000
    text = (big / "knowledge/INDEX.md").read_text()
    assert text.count("- [[") == index.HIGHLIGHTS
    assert "| glossary | `knowledge/glossary/` | 34 | 0 |" in text
    assert index.write(settings(big), DAY)["written"] is False


def test_highlights_rank_recent_reads_first(project: Path) -> None:
    note(project, "old")
    note(project, "fresh")
    lines = [{"ts": "2025-01-01T00:00:00Z", "session_id": "a", "path": "glossary/old.md"}] * 3
    lines += [{"ts": "2026-05-31T00:00:00Z", "session_id": "b", "path": "glossary/fresh.md"}]
    text = "".join(json.dumps(x) + "\n" for x in lines) + '{"torn'
    write(project, "knowledge/.usage.jsonl", text)
    index.write(settings(project), DAY)
    highlights = (project / "knowledge/INDEX.md").read_text().split("## Highlights")[1]
    assert "[[fresh]]" in highlights and "[[old]]" not in highlights


def test_search_documents_for_notes_and_claims(project: Path) -> None:
    note(project, "case", body="The Task model.\n")
    claims = {
        "insights": [{"id": "CL-1", "statement": "X is Y", "tags": ["t"], "confidence": "low"}]
    }
    write(project, "knowledge/claims/2026-01-01-x.json", json.dumps(claims, indent=2))
    docs = {d.id: d for d in documents(project)}
    case = docs["case"]
    assert case.type == "notes" and case.path == "knowledge/glossary/case.md"
    assert {f.name for f in case.fields} == {"title", "body"}
    claim = docs["CL-1"]
    assert claim.type == "claims" and claim.line == 4
    assert [(f.name, f.weight) for f in claim.fields] == [("statement", 5.0), ("tags", 3.0)]


def _age(*paths: Path) -> None:
    for n, path in enumerate(paths):
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))


def test_cache_reuses_unchanged_files_and_sees_changes(project: Path, monkeypatch: Any) -> None:
    from orkestra.knowledge import cache
    from orkestra.knowledge import notes as notes_module

    monkeypatch.setattr(cache, "FRESH_SECONDS", 0.0)  # the ctime of a change made here is now
    code = write(project, "app/task.py", "class Task:\n")
    path = note(project, "case", sources=["app/task.py#class Task"])
    _age(code, path)
    first = check(settings(project), DAY)
    assert (project / CACHE).is_file()

    def boom(*args: object) -> str:
        raise AssertionError("an unchanged note was read again")

    with monkeypatch.context() as patched:
        patched.setattr(notes_module, "read_note", boom)
        again = check(settings(project), DAY)
    assert again["index"]["written"] is False  # INDEX.md is rewritten only when it changed
    assert {**again, "index": None} == {**first, "index": None}
    code.write_text("class Case:\n")  # same size, other content, other mtime
    _age(path, code)
    assert by_name(check(settings(project), DAY))["case"]["outcome"] == "contradicted"
    path.write_text(path.read_text().replace('"Case"', '"Case 2"'))
    _age(code, path)
    assert check(settings(project), DAY)["notes"][0]["name"] == "case"
    assert load_notes(project, "knowledge").notes[0].title == "Case 2"


def test_a_same_size_file_copied_in_with_its_old_mtime_is_read_again(
    project: Path, monkeypatch: Any
) -> None:
    """`cp -p`, `tar x`, a restore: another text of the same size with the mtime the cached one
    had; only its ctime moved."""
    from orkestra.knowledge import cache

    monkeypatch.setattr(cache, "FRESH_SECONDS", 0.0)
    code = write(project, "app/task.py", "class Task:\n")
    note(project, "case", sources=["app/task.py#class Task"])
    _age(code)
    assert by_name(check(settings(project), DAY))["case"]["outcome"] == "confirmed"
    assert str(code) in read_json_file(project / CACHE)["files"]
    code.write_text("class Case:\n")  # the same size
    _age(code)  # the mtime the cached one had
    assert by_name(check(settings(project), DAY))["case"]["outcome"] == "contradicted"


def test_a_cache_damaged_into_other_valid_data_is_not_used(project: Path, monkeypatch: Any) -> None:
    """A cached line number changed (still JSON, still a well-formed entry): the checksum
    finds it and the sources are read again, never the damaged answer."""
    from orkestra.knowledge import cache

    monkeypatch.setattr(cache, "FRESH_SECONDS", 0.0)
    code = write(project, "app/task.py", "\n\nclass Task:\n")
    note(project, "case", sources=["app/task.py#class Task"])
    _age(code)
    first = check(settings(project), DAY)
    assert by_name(first)["case"]["sources"][0]["line"] == 3
    raw = (project / CACHE).read_bytes()
    assert raw.count(b'"class Task":3') == 1
    (project / CACHE).write_bytes(raw.replace(b'"class Task":3', b'"class Task":7'))
    assert by_name(check(settings(project), DAY))["case"]["sources"][0]["line"] == 3


def test_files_changed_just_now_by_a_lagging_file_clock_are_not_cached(
    project: Path, monkeypatch: Any
) -> None:
    """The server that stamps the files 10 s behind our clock: a note written just now looks
    10 s old by our clock; by the file clock it is fresh, so it is not cached."""
    import time

    note(project, "case")
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10_000_000_000)
    check(settings(project), DAY)
    assert not (project / CACHE).exists()


def test_fresh_files_are_not_cached(project: Path) -> None:
    note(project, "case")
    check(settings(project), DAY)
    assert not (project / CACHE).exists()


def test_corrupt_cache_is_ignored(project: Path) -> None:
    path = note(project, "case")
    _age(path)
    write(project, CACHE, "{not json")
    assert check(settings(project), DAY)["checked"] == 1
    write(
        project,
        CACHE,
        json.dumps({"version": 2, "notes": {"knowledge/glossary/case.md": {"stat": [1, 2]}}}),
    )
    assert check(settings(project), DAY)["checked"] == 1


def test_a_renamed_symbol_is_not_confirmed_by_a_longer_name_it_begins(project: Path) -> None:
    """A pattern is found as a whole name: `class Task` renamed `class TaskItem` (or deleted
    beside `class Task10`) contradicts the note; it is never kept as true by a prefix."""
    code = write(project, "app/task.py", "class Task:\n    pass\n\n\ndef charge(x):\n    pass\n")
    note(project, "case", sources=["app/task.py#class Task"])
    note(project, "pay", sources=["app/task.py#def charge"])
    note(project, "sub", sources=["app/task.py#Task:"])
    assert check(settings(project), DAY)["confirmed"] == 3
    code.write_text("class TaskItem:\n    pass\n\n\ndef charge_card(x):\n    pass\n")
    got = by_name(check(settings(project), DAY))
    assert got["case"]["outcome"] == "contradicted"
    assert got["pay"]["outcome"] == "contradicted"
    assert got["sub"]["outcome"] == "contradicted"
    code.write_text("class Task10:\n    pass\n\n\nclass Task:  # moved\n    pass\n")
    entry = by_name(check(settings(project), DAY))["case"]
    assert (entry["outcome"], entry["sources"][0]["line"]) == ("confirmed", 5)  # type: ignore[index]


def test_a_pattern_ending_in_punctuation_still_matches_inside_a_longer_line(
    project: Path,
) -> None:
    """An end of a pattern that is a letter, digit or `_` must not continue a longer word
    (`retries = 30` is not in `max_retries = 30`, `= 3` is not in `= 30`); an end that is
    punctuation matches anywhere (`=(5)`)."""
    write(project, "app/cfg.py", "max_retries = 30\nTIMEOUT=(5)\n")
    note(project, "a", sources=["app/cfg.py#max_retries = 3"])
    note(project, "b", sources=["app/cfg.py#retries = 30"])
    note(project, "c", sources=["app/cfg.py#=(5)"])
    got = by_name(check(settings(project), DAY))
    assert got["a"]["outcome"] == "contradicted"
    assert got["b"]["outcome"] == "contradicted"
    assert got["c"]["outcome"] == "confirmed"


def test_verify_and_demote_replace_a_quoted_key_never_add_a_second_one(project: Path) -> None:
    """`"confidence": observed` was not recognised as the key: verify added a second
    `confidence:` and the note no longer loaded (duplicate key)."""
    from orkestra.knowledge import service

    text = (
        '---\n"type": gotcha\n"title": Quoted keys\n\'confidence\' : observed\n'
        '"verified_at": ""\n"updated": "2026-01-01"\n---\n\nBody.\n'
    )
    path = write(project, "knowledge/gotchas/quoted.md", text)
    service.verify(settings(project), "quoted", dt.date(2026, 3, 1))
    after = path.read_text(encoding="utf-8")
    assert after == (
        '---\n"type": gotcha\n"title": Quoted keys\n\'confidence\': verified\n'
        '"verified_at": "2026-03-01"\n"updated": "2026-03-01"\n---\n\nBody.\n'
    )
    kb = load_notes(project, "knowledge")
    assert kb.problems == [] and kb.notes[0].confidence == "verified"
    assert check(settings(project), dt.date(2026, 6, 30))["demoted"] == ["quoted"]
    assert load_notes(project, "knowledge").notes[0].confidence == "observed"


def test_verify_and_demote_keep_a_comment_written_after_a_replaced_value(project: Path) -> None:
    """`confidence: observed  # asked ops` lost its comment when verify rewrote the line; a `#`
    inside a quoted value is part of the value, not a comment to keep."""
    from orkestra.knowledge import service

    text = (
        "---\ntype: gotcha\ntitle: Commented\nconfidence: observed  # asked ops on 2026-01-02\n"
        "verified_at: '' # set by notes verify\nupdated: \"not # a comment\"\n"
        'created:  # when it was written\n  "2026-01-01"\n---\n\nBody.\n'
    )
    path = write(project, "knowledge/gotchas/commented.md", text)
    service.verify(settings(project), "commented", dt.date(2026, 3, 1))
    assert path.read_text(encoding="utf-8") == (
        "---\ntype: gotcha\ntitle: Commented\nconfidence: verified  # asked ops on 2026-01-02\n"
        'verified_at: "2026-03-01" # set by notes verify\nupdated: "2026-03-01"\n'
        'created:  # when it was written\n  "2026-01-01"\n---\n\nBody.\n'
    )
    assert check(settings(project), dt.date(2026, 6, 30))["demoted"] == ["commented"]
    assert "confidence: observed  # asked ops on 2026-01-02\n" in path.read_text(encoding="utf-8")
    assert load_notes(project, "knowledge").problems == []


def test_a_note_outside_the_type_folders_is_reported_never_skipped_silently(
    project: Path, cli: Any
) -> None:
    """A note saved in `knowledge/gotcha/` (singular) or a folder of its own was read by no
    command: not checked, not indexed, not searched, and nothing said so."""
    note(project, "case")
    text = '---\ntype: gotcha\ntitle: "Clock skew"\n---\n\nBody.\n'
    write(project, "knowledge/gotcha/clock-skew.md", text)
    write(project, "knowledge/misc/deep/retry-storm.md", text)
    write(project, "knowledge/README.md", "# Our notes\n")  # the folder's own files: no note
    write(project, "knowledge/.obsidian/workspace.md", "x\n")
    write(project, "knowledge/claims/README.md", "# Claims\n")
    report = check(settings(project), DAY)
    found = {(p["file"], p["severity"], p["code"]): p["message"] for p in report["problems"]}
    assert sorted(found) == [
        ("knowledge/gotcha/clock-skew.md", "warning", "KN013"),
        ("knowledge/misc/deep/retry-storm.md", "warning", "KN013"),
    ]
    assert (
        "move it to knowledge/gotchas/"
        in found[("knowledge/gotcha/clock-skew.md", "warning", "KN013")]
    )
    assert "glossary/, repos/" in found[("knowledge/misc/deep/retry-storm.md", "warning", "KN013")]
    assert (project / "knowledge/gotcha/clock-skew.md").read_text() == text  # never moved
    r = cli("notes", "check", "--no-sources", "--dry-run", cwd=project)
    assert r.exit_code == 0 and "knowledge/gotcha/clock-skew.md" in r.stdout
