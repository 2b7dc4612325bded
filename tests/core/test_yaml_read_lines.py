"""A registry file that cannot be read as UTF-8 text is named at the line of the bad byte, counted
as YAML counts lines (CRLF, LF or a lone CR each end one), so the line agrees with the lines
of every other error in the same file, whatever line endings an editor saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core import yamlio
from orkestra.core.errors import InputError
from tests.registry.helpers import scaffold

AGENT = "registries/agents/example-agent.yaml"
BODY = b"name: a\ndescription: b\ncategory: c\nmodel: inherit\nprompt: |\n  Caf\xe9 review\n"


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_invalid_utf8_is_named_at_its_line_whatever_the_line_endings(
    tmp_path: Path, newline: bytes
) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(BODY.replace(b"\n", newline))
    with pytest.raises(InputError) as caught:
        yamlio.read_text(path)
    assert caught.value.line == 6
    assert "UTF-8" in caught.value.message


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_a_nul_byte_is_named_at_its_line(tmp_path: Path, newline: bytes) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(BODY.replace(b"\xe9", b"\x00").replace(b"\n", newline))
    with pytest.raises(InputError) as caught:
        yamlio.read_text(path)
    assert caught.value.line == 6
    assert "NUL" in caught.value.message


def test_a_utf16_file_is_told_to_be_saved_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes("name: a\n".encode("utf-16"))
    with pytest.raises(InputError) as caught:
        yamlio.read_text(path)
    assert "UTF-16" in caught.value.message and "UTF-8" in caught.value.message
    assert caught.value.line == 1


def test_validate_names_the_line_of_a_latin1_byte_in_a_cr_only_file(
    tmp_path: Path, cli: Any
) -> None:
    root = scaffold(tmp_path)
    text = (root / AGENT).read_bytes().replace(b"Replace this", b"Caf\xe9: replace this")
    (root / AGENT).write_bytes(text.replace(b"\n", b"\r"))
    result = cli("validate", "--format", "json", cwd=root)
    assert result.exit_code == 1
    (finding,) = result.json()["findings"]
    assert (finding["file"], finding["line"], finding["code"]) == (AGENT, 18, "ORK001")
