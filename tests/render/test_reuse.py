"""Render reuse (`render.reuse`): a sync reuses the text of every template whose inputs did not
change, and its outputs are always those of a sync without the cache."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import jinja2
import pytest

from orkestra.render import environment, reuse
from orkestra.render.environment import Templates
from orkestra.render.sync import sync
from tests.conftest import write

AGENT = "registries/agents/example-agent.yaml"


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja really rendered."""
    seen: list[str] = []
    real = jinja2.Template.render

    def counting(self: jinja2.Template, *args: Any, **kwargs: Any) -> str:
        seen.append(str(self.name))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", counting)
    return seen


def _outputs(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.relative_to(root).as_posix().startswith((".orkestra/", ".git/"))
    }


def _cold(root: Path, tmp: Path) -> dict[str, bytes]:
    """The same project synced from scratch without any cache."""
    copy = tmp / "cold"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".orkestra", ".claude"))
    (copy / "registries" / ".render-lock.json").unlink(missing_ok=True)
    (copy / "CLAUDE.md").unlink(missing_ok=True)
    sync(copy)
    return _outputs(copy)


def test_a_second_sync_renders_nothing_again(scaffold: Path, renders: list[str]) -> None:
    sync(scaffold)
    first = len(renders)
    renders.clear()
    report = sync(scaffold)
    assert first > 0 and renders == []
    assert report.written == 0


def test_only_the_changed_agent_is_rendered_again(
    scaffold: Path, renders: list[str], tmp_path: Path
) -> None:
    sync(scaffold)
    text = (scaffold / AGENT).read_text().replace("description:", "description: Changed.", 1)
    write(scaffold, AGENT, text)
    renders.clear()
    sync(scaffold)
    assert renders == ["claude/agent.md.j2"]
    assert _outputs(scaffold) == _cold(scaffold, tmp_path)


def test_a_changed_project_template_is_used(scaffold: Path, tmp_path: Path) -> None:
    sync(scaffold)
    bundled = Path(Templates().get("claude/agent.md.j2").filename or "")
    write(scaffold, "templates/claude/agent.md.j2", "MARK\n" + bundled.read_text())
    environment._environment.cache_clear()  # as a new process would see it
    sync(scaffold)
    written = (scaffold / ".claude/agents/example-agent.md").read_text()
    assert written.split("\n")[1] == "MARK"  # after Orkestra's mark: it has no frontmatter first
    assert _outputs(scaffold) == _cold(scaffold, tmp_path)


@pytest.mark.parametrize(
    "content", [b"", b"not a database at all" * 100, b"SQLite format 3\x00junk"]
)
def test_a_damaged_cache_file_is_replaced(scaffold: Path, content: bytes, tmp_path: Path) -> None:
    sync(scaffold)
    (scaffold / reuse.NAME).write_bytes(content)
    sync(scaffold, mode="check")
    assert _outputs(scaffold) == _cold(scaffold, tmp_path)
    with sqlite3.connect(scaffold / reuse.NAME) as conn:
        assert conn.execute("SELECT count(*) FROM entries").fetchone()[0] > 0


def test_a_tampered_text_is_rendered_again(scaffold: Path, tmp_path: Path) -> None:
    sync(scaffold)
    agent = (scaffold / ".claude/agents/example-agent.md").read_text()
    with sqlite3.connect(scaffold / reuse.NAME) as conn:
        conn.execute("UPDATE entries SET text = 'TAMPERED' WHERE text = ?", (agent,))
    (scaffold / ".claude/agents/example-agent.md").unlink()
    sync(scaffold)
    assert (scaffold / ".claude/agents/example-agent.md").read_text() == agent


def test_a_context_holding_an_object_is_rendered_every_time(tmp_path: Path) -> None:
    cache = reuse.open_cache(tmp_path, [])
    assert cache.key("t", {"a": object()}) is None
    assert cache.key("t", {"a": (1,)}) != cache.key("t", {"a": [1]})
    assert cache.key("t", {"a": True}) != cache.key("t", {"a": 1})
    cache.close()


def test_an_unwritable_cache_folder_renders_without_it(scaffold: Path, tmp_path: Path) -> None:
    (scaffold / ".orkestra").mkdir(exist_ok=True)
    (scaffold / ".orkestra" / "render-cache.sqlite").symlink_to(tmp_path / "elsewhere.sqlite")
    sync(scaffold)
    assert not (tmp_path / "elsewhere.sqlite").exists()  # never written through a symlink
    assert _outputs(scaffold) == _cold(scaffold, tmp_path)


def test_a_template_below_a_symlinked_folder_is_part_of_the_stamp(tmp_path: Path) -> None:
    """The loader reads a template through a symlinked folder of templates/: an edit there must
    change what every cached text depends on, or a cached render of the old text is reused."""
    from orkestra.render.template_paths import template_files

    shared = tmp_path / "shared" / "claude"
    shared.mkdir(parents=True)
    (shared / "command.md.j2").write_text("one {{ name }}\n", encoding="utf-8")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "claude").symlink_to(shared, target_is_directory=True)
    (tmp_path / "templates" / "loop").symlink_to(tmp_path / "templates", target_is_directory=True)
    folders = [tmp_path / "templates"]
    assert [name for name, _ in template_files(folders[0])] == ["claude/command.md.j2"]
    before = reuse.stamp(tmp_path, folders)
    (shared / "command.md.j2").write_text("two {{ name }}\n", encoding="utf-8")
    assert reuse.stamp(tmp_path, folders) != before


def _edited_source(monkeypatch: pytest.MonkeyPatch, source: Path) -> None:
    """Reading `source` gives its bytes with a line added (as an edit in a checkout would)."""
    real = Path.read_bytes
    edited = source.resolve()

    def read_bytes(self: Path) -> bytes:
        data = real(self)
        return data + b"# edited\n" if self.resolve() == edited else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)


@pytest.mark.parametrize("module", ["orkestra.core.yamlio", "orkestra.registry.render_lock"])
def test_an_edit_to_the_code_the_filters_call_changes_the_stamp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    """A filter's text depends on the code it calls (`yaml_plain` asks `core.yamlio` whether a
    scalar reads back plain; the mark comes from `registry.render_lock`): in a checkout of
    Orkestra with one of them edited, the same version's cached texts were reused, and a sync
    kept the files the old code rendered while a sync without the cache rewrote them."""
    import importlib

    before = reuse.stamp(tmp_path, [])
    _edited_source(monkeypatch, Path(str(importlib.import_module(module).__file__)))
    assert reuse.stamp(tmp_path, []) != before


def test_another_pyyaml_changes_the_stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML decides which scalars `yaml_plain` writes without quotes: another version (or the
    same without its C library) may render other texts."""
    import yaml

    before = reuse.stamp(tmp_path, [])
    monkeypatch.setattr(yaml, "__version__", f"{yaml.__version__}.1")
    assert reuse.stamp(tmp_path, []) != before
    monkeypatch.undo()
    monkeypatch.setattr(yaml, "__with_libyaml__", not yaml.__with_libyaml__)
    assert reuse.stamp(tmp_path, []) != before
