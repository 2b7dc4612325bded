"""Truth ids in use: an unreadable truths file is an error, never an empty set of ids."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from orkestra.core.errors import InputError
from orkestra.knowledge import truthfile


def test_ids_of_every_truths_file(tmp_path: Path) -> None:
    folder = tmp_path / "registries" / "truths"
    folder.mkdir(parents=True)
    (folder / "a.yaml").write_text("statements:\n  - id: GT-AB-001\n", encoding="utf-8")
    (folder / "b.yaml").write_text("statements:\n  - {id: GT-CD-002}\n", encoding="utf-8")
    assert truthfile.existing_ids(tmp_path) == {"GT-AB-001", "GT-CD-002"}


def test_an_unreadable_truths_file_names_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "registries" / "truths"
    folder.mkdir(parents=True)
    (folder / "a.yaml").write_text("statements:\n  - id: GT-AB-001\n", encoding="utf-8")
    original = Path.read_text

    def denied(self: Path, *args: object, **kwargs: object) -> str:
        if self.name == "a.yaml":
            raise PermissionError(errno.EACCES, "Permission denied")
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", denied)
    with pytest.raises(InputError, match="cannot read: Permission denied") as info:
        truthfile.existing_ids(tmp_path)
    assert info.value.file == "registries/truths/a.yaml"
