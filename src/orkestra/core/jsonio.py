"""The one JSON reader: every JSON document or JSONL file read from disk or stdin passes here.

Limits (PRODUCT.md §13): a document larger than `MAX_BYTES`, a JSONL line larger than
`MAX_LINE_BYTES` or nesting deeper than `MAX_DEPTH` is refused with an `InputError` naming the
file and line, never a `RecursionError` or a `MemoryError`. JSONL reading is torn-line tolerant
(§6.6): a last line without its newline was cut off mid-write, so it is reported as torn and never
taken as a record, even when what survived happens to be valid JSON. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator

from orkestra.core.errors import InputError
from orkestra.core.readfile import open_regular, read_regular

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from typing import Any, BinaryIO

MAX_BYTES = 64 << 20
MAX_LINE_BYTES = 1 << 20
MAX_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
#: the escape of a UTF-16 surrogate: only a hint, the parsed strings decide
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE = re.compile("[\ud800-\udfff]")
#: a run of digits longer than Python parses into an int (`sys.get_int_max_str_digits`, 4300)
_LONG_DIGITS = re.compile(r"[0-9]{4301,}")


class JsonLine:
    """One non-blank physical line of a JSONL file: its parsed value or why it has none.
    (A plain class, not a dataclass or NamedTuple: `dataclasses` and `typing` cost the hook path
    several milliseconds to import.)"""

    __slots__ = ("data", "error", "number", "text", "torn")

    def __init__(
        self, number: int, text: str, data: Any, error: str | None, torn: bool = False
    ) -> None:
        self.number = number  # 1-based
        self.text = text
        self.data = data  # None when `error` is set
        self.error = error
        self.torn = torn  # the unterminated last line: never a record, whatever it holds

    def __repr__(self) -> str:
        return (
            f"JsonLine(number={self.number!r}, text={self.text!r}, data={self.data!r}, "
            f"error={self.error!r}, torn={self.torn!r})"
        )


def loads(
    text: str,
    *,
    source: str,
    line: int = 1,
    max_depth: int = MAX_DEPTH,
    rewrite: bool = False,
    lone_surrogates: str = "refuse",
) -> Any:
    """Parse one JSON document; `source` (a path or `<stdin>`) and `line` locate errors.

    `line` is the line number of the text's first line in `source` (for a JSONL line). With
    `rewrite` (a user's file Orkestra merges into and writes back), what `json.dumps` could not
    give back is refused: a key given twice (the first would vanish), and `NaN`, `Infinity` or
    a number too large for a float (written back as `Infinity`, which no JSON reader takes).
    A leading byte-order mark is ignored (RFC 8259 allows it; Windows editors write one).
    A lone UTF-16 surrogate escape (`"\\ud800"`) is refused, or with `lone_surrogates="replace"`
    (a hook's event, whose tool output Orkestra only observes) becomes U+FFFD.
    """
    text = text.removeprefix("\ufeff")
    too_deep = _too_deep(text, max_depth)
    if too_deep is not None:
        raise InputError(
            f"JSON nested deeper than {max_depth} levels", file=source, line=line + too_deep
        )
    try:
        value = _rewritable(text, source, line) if rewrite else json.loads(text)
    except json.JSONDecodeError as exc:
        where = line + exc.lineno - 1
        raise InputError(f"not valid JSON ({exc.msg})", file=source, line=where) from None
    except RecursionError:  # the scan above bounds depth; this stays a clean error regardless
        message = f"JSON nested deeper than {max_depth} levels"
        raise InputError(message, file=source, line=line) from None
    except ValueError:  # an integer too long for Python to convert (over 4300 digits)
        raise _long_number(text, source, line) from None
    hint = _SURROGATE.search(text) if "\\u" in text else None
    if hint is not None and _has_lone_surrogate(value):  # it could never be written as UTF-8
        if lone_surrogates == "replace":
            return _without_lone_surrogates(value)
        where = line + text.count("\n", 0, hint.start())
        message = "a lone UTF-16 surrogate escape (\\ud800-\\udfff) is not text; remove it"
        raise InputError(message, file=source, line=where)
    return value


#: a `//` or `/* */` comment, or a comma before a closing bracket, outside strings (JSONC)
_JSONC = re.compile(r'"(?:[^"\\]|\\.)*"|(//|/\*|,\s*[}\]])')


def unmergeable(exc: InputError, text: str, *, jsonc_fix: str = "", fix: str = "") -> InputError:
    """The error for a user's JSON file Orkestra merges into (read with `rewrite`) that did not
    parse, saying what to do: a file with comments or trailing commas (JSONC, which VS Code,
    Cursor and Gemini CLI accept) cannot be written back without losing them, so they must go
    (or `jsonc_fix`, another way out); any other error gets `fix` appended."""
    if any(m.group(1) for m in _JSONC.finditer(text)):
        other = f", or {jsonc_fix}" if jsonc_fix else ""
        message = (
            f"{exc.message}: the file has comments or trailing commas (JSONC), and Orkestra "
            f"rewrites only plain JSON, so they would be lost; remove them{other} (nothing was "
            "written)"
        )
    elif fix:
        message = f"{exc.message}; {fix}"
    else:
        return exc
    return InputError(message, file=exc.file, line=exc.line)


def _rewritable(text: str, source: str, line: int) -> Any:
    """`json.loads(text)`, refusing what the file could not be written back with (`loads`)."""

    def line_of(token: str, nth: int = 0) -> int:
        places = [m.start() for m in re.finditer(re.escape(token), text)]
        return line + text.count("\n", 0, places[nth]) if len(places) > nth else line

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise InputError(
                    f"the key {json.dumps(key)} is given twice (a JSON reader keeps only the "
                    "last); remove one, then run the command again (nothing was written)",
                    file=source,
                    line=line_of(json.dumps(key), 1),
                )
            out[key] = value
        return out

    def number(token: str) -> float:
        raise InputError(
            f"{token} is not a JSON number that can be written back (JSON has no NaN or "
            "Infinity, and a float this large reads as Infinity); write it as a string or a "
            "smaller number (nothing was written)",
            file=source,
            line=line_of(token),
        )

    def floats(token: str) -> float:
        value = float(token)
        return number(token) if value in (float("inf"), float("-inf")) else value

    return json.loads(text, object_pairs_hook=pairs, parse_constant=number, parse_float=floats)


_SPACE = re.compile(r"[ \t\n\r]*")


def line_at(text: str, path: tuple[str | int, ...]) -> int | None:
    """The 1-based line where the value at `path` (object keys and list indexes, e.g.
    `("items", 2, "action")`) starts in the JSON document `text`, or None when the text does not
    hold it. A key given twice is found where the parser takes it from (the last). Errors about
    one part of a file the user wrote (a hand-edited proposal) name its line with this."""
    decoder = json.JSONDecoder()
    text = text.removeprefix("\ufeff")

    def skip(at: int) -> int:
        match = _SPACE.match(text, at)
        return match.end() if match else at

    def value_end(at: int) -> int:
        return int(decoder.raw_decode(text, at)[1])

    try:
        at = skip(0)
        for step in path:
            if isinstance(step, int):
                if text[at] != "[":
                    return None
                at = skip(at + 1)
                for _ in range(step):
                    at = skip(value_end(at))
                    if text[at] != ",":
                        return None
                    at = skip(at + 1)
                if text[at] == "]":
                    return None
            else:
                if text[at] != "{":
                    return None
                at, found = skip(at + 1), None
                while text[at] != "}":
                    key, at = decoder.raw_decode(text, at)
                    at = skip(at)
                    if text[at] != ":":
                        return None
                    at = skip(at + 1)
                    if key == step:
                        found = at
                    at = skip(value_end(at))
                    if text[at] == ",":
                        at = skip(at + 1)
                if found is None:
                    return None
                at = found
    except (IndexError, ValueError, RecursionError):  # not JSON there: no line to give
        return None
    return text.count("\n", 0, at) + 1


def _long_number(text: str, source: str, line: int) -> InputError:
    """The error for a number with more digits than Python converts, at its line."""
    found = _LONG_DIGITS.search(text)
    where = line + (text.count("\n", 0, found.start()) if found else 0)
    digits = len(found.group()) if found else 0
    message = f"a number with {digits} digits is too long to read; quote it as a string"
    return InputError(message, file=source, line=where)


def _has_lone_surrogate(value: Any) -> bool:
    """Whether any string (key or value) in `value` holds an unpaired surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _without_lone_surrogates(value: Any) -> Any:
    """`value` with every unpaired surrogate in its strings (keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return _LONE.sub("\ufffd", value)  # a pair parses into one character: any left is lone
    if isinstance(value, dict):
        return {_without_lone_surrogates(k): _without_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_lone_surrogates(item) for item in value]
    return value


def dumps_like(data: Any, text: str | None) -> str:
    """`data` as JSON in the layout of `text`, the user's file it was read from and is now
    written back (None: a new file, indented by two spaces): the same indentation (a tab or N
    spaces; one line when the file was one line), line ending and final newline, so merging
    one entry does not change every line of a file formatted otherwise (VS Code's tabs, CRLF),
    and a byte-order mark `text` starts with (a Windows editor's) starts it too."""
    bom = "\ufeff" if text is not None and text.startswith("\ufeff") else ""
    text = None if text is None else text[len(bom) :]
    if text is None or not text.strip():
        return bom + json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text.strip()
    indent: str | int | None = None
    if "\n" in body:
        found = re.search(r"\n([ \t]+)\S", body)
        indent = 2 if found is None else found.group(1)
        if isinstance(indent, str) and indent.strip(" ") == "":
            indent = len(indent)
    kept = _kept_layout(text, data, indent, newline)
    if kept is not None:
        return bom + kept
    out = json.dumps(data, indent=indent, ensure_ascii=False)
    end = newline if text.endswith(("\n", "\r")) else ""
    return bom + out.replace("\n", newline) + end


def _kept_layout(text: str, data: Any, indent: str | int | None, newline: str) -> str | None:
    """`text` (a JSON object the caller read and checked with `loads`) with only what differs
    from `data` written again: every member whose value is unchanged keeps its bytes (a compact
    array, a `\\u00e9` escape, the user's spacing), a changed object is edited member by
    member, a new member goes last in its object, in the object's layout. None when `text`
    does not hold an object this can follow (the caller writes `data` whole)."""
    start = len(text) - len(text.lstrip())
    try:
        old, end = json.JSONDecoder().raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(old, dict) and isinstance(data, dict)) or text[end:].strip():
        return None
    try:
        out = text[:start] + _edited(text, start, end, old, data, indent, newline) + text[end:]
        return out if _same(json.loads(out), data) else None  # never a text that reads otherwise
    except (ValueError, RecursionError):
        return None


def _same(old: Any, new: Any) -> bool:
    return json.dumps(old, ensure_ascii=False) == json.dumps(new, ensure_ascii=False)


def _edited(
    text: str, at: int, end: int, old: Any, new: Any, indent: str | int | None, newline: str
) -> str:
    """The text for `new` where `text[at:end]` holds `old`."""
    if _same(old, new):
        return text[at:end]
    members = _members(text, at) if isinstance(old, dict) and isinstance(new, dict) else None
    if members is None:
        return _fresh(text, at, new, indent, newline)
    listed, close = members
    keys = [key for key, *_ in listed]
    kept = [key for key in keys if key in new]
    added = [key for key in new if key not in old]
    if len(set(keys)) != len(keys) or not kept or list(new) != kept + added:
        return _fresh(text, at, new, indent, newline)
    out = [text[at : listed[0][1]]]
    last = None
    for number, (key, key_at, value_at, value_end) in enumerate(listed):
        if key not in new:
            continue
        if last is not None:  # what followed the member before, up to the next one listed
            out.append(text[listed[last][3] : listed[last + 1][1]])
        value = _edited(text, value_at, value_end, old[key], new[key], indent, newline)
        out.append(text[key_at:value_at] + value)
        last = number
    assert last is not None
    lead = out[0][1:] or " "  # the blanks between `{` and the first member: each member's
    for key in added:
        value = _fresh(text, listed[0][1], new[key], indent, newline)
        out.append(f",{lead}{json.dumps(key, ensure_ascii=False)}: {value}")
    out.append(text[listed[-1][3] : close + 1])
    return "".join(out)


def _fresh(text: str, at: int, value: Any, indent: str | int | None, newline: str) -> str:
    """`value` written whole where `text[at]` is, indented from its line's indentation."""
    line = text.rfind("\n", 0, at) + 1
    base = text[line : line + len(text[line:at]) - len(text[line:at].lstrip(" \t"))]
    out = json.dumps(value, indent=indent, ensure_ascii=False)
    return out.replace("\n", newline + base)


def _members(text: str, at: int) -> tuple[list[tuple[str, int, int, int]], int] | None:
    """The members of the object at `text[at]`: (key, where the key starts, where its value
    starts and ends) each, and where the closing brace is; None when there are none."""
    decoder = json.JSONDecoder()
    found: list[tuple[str, int, int, int]] = []
    at = _blank_end(text, at + 1)
    while at < len(text) and text[at] == '"':
        key, after = decoder.raw_decode(text, at)
        colon = _blank_end(text, after)
        if text[colon : colon + 1] != ":":
            return None
        value_at = _blank_end(text, colon + 1)
        _, value_end = decoder.raw_decode(text, value_at)
        found.append((key, at, value_at, value_end))
        at = _blank_end(text, value_end)
        if text[at : at + 1] == "}":
            return found, at
        if text[at : at + 1] != ",":
            return None
        at = _blank_end(text, at + 1)
    return None


def _blank_end(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def loads_derived(text: str, *, source: str) -> Any:
    """One large JSON document Orkestra wrote itself (a derived cache, rebuilt when unreadable):
    parsed without `loads`' depth pre-scan, which costs more than the parse on megabytes. Bad
    JSON, and nesting deeper than the parser's recursion allows, are still an `InputError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg})", file=source, line=exc.lineno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", file=source) from None
    except ValueError:  # an integer too long to convert
        raise _long_number(text, source, 1) from None


#: the first line of a sealed derived file: this, the CRC-32 of the rest (8 hex digits), "\n"
SEAL = b"orkestra-crc32 "


def sealed(text: str) -> bytes:
    """`text` (a derived JSON document) as the bytes to write, after a line holding their
    CRC-32: a flipped bit that leaves valid JSON (another letter in a cached description, a
    digit in a recorded answer) is then found, and the file rebuilt, instead of trusted."""
    import zlib

    body = text.encode("utf-8")
    return b"%s%08x\n%s" % (SEAL, zlib.crc32(body), body)


def read_sealed(path: str | os.PathLike[str], *, follow: bool = True) -> Any:
    """A derived JSON document written with `sealed`: an `InputError` when it is not one, when
    its bytes do not match their CRC-32, or when they are not JSON (see `loads_derived`)."""
    import zlib

    source = os.fspath(path)
    raw, size = _read(source, MAX_BYTES, follow)
    head = len(SEAL) + 9
    if size > MAX_BYTES or not raw.startswith(SEAL) or raw[head - 1 : head] != b"\n":
        raise InputError("not a sealed derived file (rebuilt)", file=source)
    try:
        crc = int(raw[len(SEAL) : head - 1], 16)
    except ValueError:
        crc = -1
    body = memoryview(raw)[head:]
    if zlib.crc32(body) != crc:
        raise InputError("damaged: its bytes do not match their checksum (rebuilt)", file=source)
    return loads_derived(decode(bytes(body), source=source, line=2), source=source)


def loads_many(texts: list[str], *, source: str, max_depth: int = MAX_DEPTH) -> list[Any]:
    """Each text parsed alone as one JSON document (the n-th is line n of `source`): exactly
    `loads` on each, in one tight loop for the many small lines of an index."""
    out: list[Any] = []
    parse = json.loads
    for number, text in enumerate(texts, start=1):
        if text.count("[") + text.count("{") > max_depth or "\\u" in text:
            out.append(loads(text, source=source, line=number, max_depth=max_depth))
            continue
        try:
            out.append(parse(text))
        except ValueError:  # bad JSON, or an integer too long to convert
            loads(text, source=source, line=number, max_depth=max_depth)  # raises, located
            raise  # pragma: no cover - loads raised above
    return out


def read_json(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES) -> Any:
    """Read and parse one JSON file. A missing file raises `FileNotFoundError` (caller decides)."""
    return loads(read_text(path, max_bytes=max_bytes), source=os.fspath(path))


def read_text(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_BYTES,
    follow: bool = True,
    bom: bool = False,
) -> str:
    """A UTF-8 file's text (without a byte-order mark, unless `bom`: text edited and written
    back keeps it), refused when larger than `max_bytes` or not UTF-8 (and, with
    `follow=False`, when a symlink stands at `path`)."""
    source = os.fspath(path)
    raw, size = _read(source, max_bytes, follow)
    if size > max_bytes:
        raise InputError(f"larger than the {max_bytes}-byte limit for JSON input", file=source)
    # RFC 8259 lets a parser ignore a byte-order mark; Windows editors and PowerShell write one
    mark = b"\xef\xbb\xbf" if bom and raw.startswith(b"\xef\xbb\xbf") else b""
    return "\ufeff" * bool(mark) + decode(raw.removeprefix(b"\xef\xbb\xbf"), source=source)


def _read(source: str, max_bytes: int, follow: bool) -> tuple[bytes, int]:
    """`read_regular`'s (bytes, size), a failure other than a missing file as an InputError."""
    try:
        return read_regular(source, max_bytes=max_bytes, follow=follow)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=source) from exc


def decode(raw: bytes, *, source: str, line: int = 1) -> str:
    """`raw` as UTF-8; a bad byte becomes an `InputError` at its line."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = line + raw.count(b"\n", 0, exc.start)
        raise InputError("not valid UTF-8; save it as UTF-8", file=source, line=where) from exc


def iter_jsonl(
    path: str | os.PathLike[str], *, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[JsonLine]:
    """Every non-blank line of a JSONL file with its parse result (a missing file: no lines).

    Broken lines are yielded with `error` set rather than raised, so a validator can report each
    one and a reader can skip it; the unterminated last line is yielded with `torn=True`. The
    file is read in pieces of 64 KiB (`_pieces`): a log of gigabytes, or a line of 200 MB, is
    never held in memory (only the first `max_line_bytes` of a longer line, as its `text`).
    """
    source = os.fspath(path)
    try:
        with open_regular(source) as handle:
            for number, (part, over, ended) in enumerate(_pieces(handle, max_line_bytes), 1):
                if over:
                    text = part.decode("utf-8", "replace")
                    error = f"line longer than {max_line_bytes} bytes"
                    yield JsonLine(number, text, None, error, not ended)
                elif part.strip():
                    yield _line(number, part, not ended, source, max_line_bytes)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=source) from exc


#: the piece `tail_lines` reads at a time
_CHUNK = 1 << 16


def tail_lines(
    path: str | os.PathLike[str],
    *,
    max_bytes: int | None = None,
    max_line_bytes: int | None = None,
    follow: bool = True,
) -> Iterator[bytes | None]:
    """The lines (without their newline) of the last `max_bytes` (`MAX_BYTES`) of the regular
    file at `path`, for an append-only log that may grow without bound (the usage log, the
    events log): read in pieces of 64 KiB, so neither a 2 GB log nor a 100 MB line is ever held
    in memory. A line longer than `max_line_bytes` (`MAX_LINE_BYTES`) is yielded as None; a
    line the window starts inside of is skipped. A missing file raises `FileNotFoundError`,
    one that is not a regular file `OSError` (`open_regular`)."""
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    max_line = MAX_LINE_BYTES if max_line_bytes is None else max_line_bytes
    with open_regular(path, follow=follow) as handle:
        start = max(0, os.fstat(handle.fileno()).st_size - max_bytes)
        partial = False  # inside the line the window starts in: skipped
        if start:
            handle.seek(start - 1)
            partial = handle.read(1) != b"\n"
        for part, over, _ended in _pieces(handle, max_line):
            if partial:  # the line the window starts inside of
                partial = False
                continue
            yield None if over else part


def _pieces(handle: BinaryIO, max_line: int) -> Iterator[tuple[bytes, bool, bool]]:
    """Each line of `handle` from where it stands, read 64 KiB at a time: its bytes (the first
    `max_line` of a longer one), whether it was longer, and whether a newline ended it (the
    last line may be cut off mid-write). A longer line's rest is read past, never held."""
    line = bytearray()
    over = False
    while chunk := handle.read(_CHUNK):
        at = 0
        while True:
            end = chunk.find(b"\n", at)
            piece = chunk[at:] if end < 0 else chunk[at:end]
            if not over:
                room = max_line - len(line)
                line += piece[:room]
                over = len(piece) > room
            if end < 0:
                break
            yield bytes(line), over, True
            over, line = False, bytearray()
            at = end + 1
    if line or over:
        yield bytes(line), over, False


def parse_jsonl(
    raw: bytes, *, source: str, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[JsonLine]:
    """`iter_jsonl` over bytes already read (stdin, or a file read once for several uses)."""
    parts = raw.split(b"\n")
    last = len(parts) if raw and not raw.endswith(b"\n") else 0
    for number, part in enumerate(parts, start=1):
        if not part.strip():
            continue
        yield _line(number, part, number == last, source, max_line_bytes)


def records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file: broken, non-object and torn lines are skipped.

    The healthy case (every whole line a small object) costs one C-level parse of the file.
    """
    source = os.fspath(path)
    try:
        with open_regular(source) as handle:
            raw = handle.read()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=source) from exc
    whole = raw[: raw.rfind(b"\n") + 1]  # the torn last line is never a record
    fast = _all_objects(whole)
    if fast is not None:
        return fast
    lines = parse_jsonl(raw, source=source)
    return [x.data for x in lines if not x.torn and x.error is None and isinstance(x.data, dict)]


def _all_objects(whole: bytes) -> list[dict[str, Any]] | None:
    """Every line of `whole` parsed at once, or None when any line needs the careful reader."""
    try:
        text = whole.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = [x for x in text.split("\n") if x.strip()]
    shallow = all(x.count("[") + x.count("{") <= MAX_DEPTH for x in lines)
    if not shallow or any(len(x) > MAX_LINE_BYTES // 4 for x in lines):
        return None  # len counts characters; a UTF-8 character is at most 4 bytes
    try:
        data = json.loads("[" + ",".join(lines) + "]")
    except (ValueError, RecursionError):  # bad JSON, or an integer too long: line by line
        return None
    return data if all(isinstance(item, dict) for item in data) else None


def _line(number: int, part: bytes, torn: bool, source: str, max_bytes: int) -> JsonLine:
    text = part.decode("utf-8", "replace")
    if len(part) > max_bytes:
        return JsonLine(number, text, None, f"line longer than {max_bytes} bytes", torn)
    try:
        data = loads(decode(part, source=source, line=number), source=source, line=number)
    except InputError as exc:
        return JsonLine(number, text, None, exc.message, torn)
    return JsonLine(number, text, data, None, torn)


def _too_deep(text: str, limit: int) -> int | None:
    """None when brackets nest at most `limit` deep, else the 0-based line where they exceed it.

    Cheap on ordinary input: counting brackets is C-speed, and only text with more than `limit`
    of them has its strings removed and its innermost pairs peeled, one level per pass.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    bare = _STRING.sub('""', text)
    peeled = _NOT_BRACKET.sub("", bare)
    for _ in range(limit):
        shorter = peeled.replace("[]", "").replace("{}", "")
        if not shorter:
            return None
        if shorter == peeled:
            break  # unbalanced or crossed brackets: the exact scan decides
        peeled = shorter
    return _line_of_depth(bare, limit)


def _line_of_depth(bare: str, limit: int) -> int | None:
    depth = 0
    for index, char in enumerate(bare):
        if char in "[{":
            depth += 1
            if depth > limit:
                return bare.count("\n", 0, index)
        elif char in "]}":
            depth -= 1
    return None
