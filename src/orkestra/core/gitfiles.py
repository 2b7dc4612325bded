"""Lines Orkestra keeps in the project's git files (`.gitattributes`, `.gitignore`): each added
once, below a `# orkestra` mark, the user's own lines and the file's style kept."""

from __future__ import annotations

from pathlib import Path

from orkestra.core import safewrite, textfile
from orkestra.core.errors import UnsafePathError
from orkestra.core.project import folder_parts


def usage_attribute(knowledge_path: str) -> str:
    """The `.gitattributes` line union-merging the usage log of the knowledge folder (its
    path is plain: `project.knowledge_folder_problem` allows no space, quote or glob), spelt
    as git matches it: `./docs/kb` or `docs//kb` is the folder docs/kb, yet a pattern
    `./docs/kb/.usage.jsonl` matches no file."""
    return f"{'/'.join(folder_parts(knowledge_path))}/.usage.jsonl merge=union"


def with_lines(root: Path, name: str, lines: tuple[str, ...]) -> str | None:
    """The file's text with the lines it lacks appended (the user's own lines are kept), or None
    when nothing is missing."""
    try:
        path = root / safewrite.check_target(root, name)
    except UnsafePathError as exc:
        raise UnsafePathError(
            f"{exc.message}, or add these lines yourself: {'; '.join(lines)}", file=exc.file
        ) from None
    current = textfile.read_text(path, display=name) if path.exists() else ""
    present = {line.strip() for line in current.splitlines()}
    missing = [line for line in lines if line not in present]
    if not missing:
        return None
    # in the file's own style: its byte-order mark kept, its line ending (CRLF) used
    bom = "\ufeff" if current and path.read_bytes().startswith(b"\xef\xbb\xbf") else ""
    newline = "\r\n" if current.split("\n", 1)[0].endswith("\r") else "\n"
    prefix = current if not current or current.endswith("\n") else current + newline
    return bom + prefix + newline.join(["# orkestra", *missing]) + newline
