"""The usage log: absent is empty, torn lines are skipped, unreadable is an error naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.core.errors import InputError
from orkestra.knowledge import usage


def test_absent_log_is_empty(tmp_path: Path) -> None:
    assert usage.read(tmp_path) == []


def test_a_torn_line_is_skipped(tmp_path: Path) -> None:
    (tmp_path / usage.USAGE_FILE).write_text(
        '{"path": "a.md", "ts": "2026-01-01"}\n{"path": "b.m\n', encoding="utf-8"
    )
    assert usage.read(tmp_path) == [{"path": "a.md", "ts": "2026-01-01"}]


def test_an_unreadable_log_is_an_error(tmp_path: Path) -> None:
    (tmp_path / usage.USAGE_FILE).mkdir()  # reading a folder fails with an OSError
    with pytest.raises(InputError, match="cannot read the usage log") as info:
        usage.read(tmp_path)
    assert info.value.file == str(tmp_path / usage.USAGE_FILE)


def _line(path: str, day: str = "2026-06-01", session: str = "3f1c2a9e") -> str:
    return f'{{"ts": "{day}T10:00:00Z", "session_id": "{session}", "path": "{path}"}}\n'


def test_an_oversized_line_is_skipped_never_held_and_the_others_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a 3 MB line (a hostile or corrupted merge) between good reads: never a 3 MB "path",
    # and read in bounded pieces (the limit lowered here so the test stays small)
    from orkestra.core import jsonio

    monkeypatch.setattr(jsonio, "MAX_LINE_BYTES", 1000)
    big = '{"ts": "2026-06-01T10:00:00Z", "session_id": "x", "path": "' + "a" * 3_000_000 + '"}\n'
    text = _line("glossary/case.md") + big + "not json at all\n" + _line("recipes/deploy.md")
    (tmp_path / usage.USAGE_FILE).write_text(text, encoding="utf-8")
    read: list[int] = []
    real = jsonio.open_regular

    def spy(path: str, **kw: bool) -> object:
        handle = real(path, **kw)
        original = handle.read

        def bounded(size: int = -1) -> bytes:
            read.append(size)
            return original(size)

        handle.read = bounded  # type: ignore[method-assign]
        return handle

    monkeypatch.setattr(jsonio, "open_regular", spy)
    paths = [entry["path"] for entry in usage.read(tmp_path)]
    assert paths == ["glossary/case.md", "recipes/deploy.md"]
    assert read and all(0 < size <= 1 << 20 for size in read)  # never the whole file at once


def test_a_log_larger_than_the_limit_is_read_from_its_recent_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a 2 GB log must not be read whole: only its last MAX_LOG_BYTES (the recent reads; a
    # read's weight halves every 30 days), from the first whole line there
    assert usage.MAX_LOG_BYTES <= 16 << 20
    monkeypatch.setattr(usage, "MAX_LOG_BYTES", 4096)
    old = "".join(_line(f"old/n{i}.md", "2025-01-01") for i in range(200))  # ~16 KB
    new = "".join(_line(f"new/n{i}.md") for i in range(20))  # ~1.6 KB
    (tmp_path / usage.USAGE_FILE).write_text(old + new, encoding="utf-8")
    paths = [entry["path"] for entry in usage.read(tmp_path)]
    assert paths[-20:] == [f"new/n{i}.md" for i in range(20)]
    assert 20 < len(paths) < 60 and all(p.startswith(("old/n", "new/n")) for p in paths)
    assert all(p.endswith(".md") for p in paths)  # no line cut at the start of the window


def test_a_note_moved_to_a_subfolder_keeps_its_reads(project: Path, cli: object) -> None:
    """Reads were kept by path: a note moved into a subfolder of its type folder (note names
    are unique, so it is the same note) lost its reads, its Highlights line and its standing."""
    import datetime as dt

    from orkestra.knowledge import index
    from tests.knowledge.helpers import note, settings

    note(project, "case")
    note(project, "deploy", kind="recipe")
    folder = project / "knowledge"
    (folder / usage.USAGE_FILE).write_text(
        _line("glossary/case.md") * 3 + _line("recipes/deploy.md"), encoding="utf-8"
    )
    (folder / "glossary/cases").mkdir()
    (folder / "glossary/case.md").rename(folder / "glossary/cases/case.md")
    index.write(settings(project), dt.date(2026, 6, 2))
    text = (folder / "INDEX.md").read_text(encoding="utf-8")
    assert text.index("[[case]]") < text.index("[[deploy]]")
    r = cli("notes", "info", "case", cwd=project)  # type: ignore[operator]
    assert (r.json()["reads"], r.json()["last_read"]) == (3, "2026-06-01")
