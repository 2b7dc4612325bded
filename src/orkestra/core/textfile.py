"""UTF-8 text files read with clean errors (`file:line`, what to do): the registries' YAML
(`core.yamlio`), the project's git files (`core.gitfiles`). No YAML library here."""

from __future__ import annotations

from pathlib import Path

from orkestra.core.errors import InputError
from orkestra.core.lines import line_at
from orkestra.core.readfile import read_regular

MAX_BYTES = 2 * 1024 * 1024  # a registry file larger than this is a mistake, not data


def read_text(
    path: Path, *, max_bytes: int = MAX_BYTES, display: str | None = None, bom: bool = False
) -> str:
    """Read a UTF-8 text file with clean errors for binary, oversized and undecodable files;
    a byte-order mark is taken off, unless `bom` (text to edit and write back: `yamlmerge`
    keeps it first)."""
    name = display or str(path)
    try:  # one open, one fstat, one read per file
        raw, size = read_regular(path, max_bytes=max_bytes)
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", file=name) from exc
    if size > max_bytes:
        raise InputError(
            f"file is {size} bytes, over the {max_bytes}-byte limit; split it", file=name
        )
    if b"\x00" in raw:
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            message = "the file is UTF-16 text; save it as UTF-8"
            raise InputError(message, file=name, line=1)
        raise InputError(
            "binary file (contains NUL bytes); expected UTF-8 text: remove the NUL byte",
            file=name,
            line=line_at(raw, raw.index(b"\x00")),
        )
    try:
        return raw.decode("utf-8" if bom else "utf-8-sig")
    except UnicodeDecodeError as exc:
        line = line_at(raw, exc.start)
        raise InputError(
            f"invalid UTF-8 at byte {exc.start}; save the file as UTF-8", file=name, line=line
        ) from exc
