"""`core.gcpause`: the collector is off inside, restored after (also on errors, also nested), and
the core builders run with it off."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from orkestra.core import gcpause


def test_paused_turns_the_collector_off_and_restores_it() -> None:
    assert gc.isenabled()
    with gcpause.paused():
        assert not gc.isenabled()
        with gcpause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner one restores the state it found
    assert gc.isenabled()
    with pytest.raises(ValueError), gcpause.paused():
        raise ValueError
    assert gc.isenabled()


def test_a_collector_already_off_stays_off() -> None:
    gc.disable()
    try:
        with gcpause.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_load_validate_and_sync_build_with_the_collector_off(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.registry import loader, validate
    from orkestra.render import sync

    seen: dict[str, bool] = {}
    real_config, real_check = loader._Loader.config, sync.checked

    def config(self: loader._Loader) -> None:
        seen.setdefault("load", gc.isenabled())
        real_config(self)

    def checked(reg: Any, *rest: Any) -> Any:
        seen.setdefault("sync", gc.isenabled())
        return real_check(reg, *rest)

    def rule(reg: Any) -> list[Any]:
        seen.setdefault("validate", gc.isenabled())
        return []

    monkeypatch.setattr(loader._Loader, "config", config)
    monkeypatch.setattr(sync, "checked", checked)
    monkeypatch.setattr(validate, "DISK_RULES", (*validate.DISK_RULES, rule))
    reg = loader.load(project)
    validate.validate(reg)
    sync.sync(project, mode="check", registry=reg)
    assert seen == {"load": False, "validate": False, "sync": False}
    assert gc.isenabled()


def test_the_code_index_builds_with_the_collector_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.codemap import indexer, languages

    seen: list[bool] = []
    monkeypatch.setattr(languages, "require", lambda: seen.append(gc.isenabled()))
    monkeypatch.setattr(indexer, "build", lambda root: {"built": True})
    monkeypatch.setattr(indexer.store, "connect", lambda *a, **k: _Closing())
    monkeypatch.setattr(indexer, "overview", lambda conn: {})
    assert indexer.index(tmp_path, full=True)["built"] is True
    assert seen == [False]
    assert gc.isenabled()


class _Closing:
    def close(self) -> None:
        pass
