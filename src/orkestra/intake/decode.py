"""Encoded layers: base64 (gzip/zlib inside too), base32, hex, backslash escapes,
percent-encoding and HTML entities decoded for a second look.

An instruction that is base64 in the file is still an instruction once the model decodes it. Each
layer found is decoded when the result is readable text, and decoded again (up to `MAX_DEPTH`), with
at most `MAX_BYTES` decoded per file. rot13 is a whole-text view (`rot13`), scanned for phrases.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import zlib
from dataclasses import dataclass
from urllib.parse import unquote

MAX_DEPTH = 3
MAX_BYTES = 256 * 1024
MIN_READABLE = 0.9
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}")
_WRAPPED = re.compile(
    r"(?:^[ \t>]*[A-Za-z0-9+/]{40,}[ \t]*\n)+^[ \t>]*[A-Za-z0-9+/]{4,}={0,2}[ \t]*$", re.M
)
_HEX = re.compile(
    r"(?:\\x[0-9A-Fa-f]{2}){6,}|(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){12,}(?![0-9A-Fa-f])"
    r"|(?<![0-9A-Fa-f:])(?:[0-9A-Fa-f]{2}[ :]){11,}[0-9A-Fa-f]{2}(?![0-9A-Fa-f])"  # `49 67 6e`
)
#: a run of escapes, or a token (a URL's query) with several escapes between longer words
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2}[^%\s]{0,3}){4,}|(?:[^\s%]*%[0-9A-Fa-f]{2}){3,}[^\s%]*")
#: an entity between two letters (`ign&#111;re`) is spelling, not markup
_IN_WORD_ENTITY = re.compile(r"[A-Za-z]&(?:#x?[0-9A-Fa-f]+|[A-Za-z]+);[A-Za-z]")
_BASE32 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Z2-7]{24,}={0,6}(?![A-Za-z0-9+/])")
_ESCAPED = re.compile(
    r"(?:\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|\\x[0-9A-Fa-f]{2}|\\[0-7]{3})"
    r"(?:[^\s\\]{0,3}(?:\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}|\\x[0-9A-Fa-f]{2}|\\[0-7]{3}))+"
    r"[^\s\\]*(?:[ \t]+[^\s\\]+){0,12}"
)
_ENCODED = re.compile(r"[\w+/=%\\&#;\s-]+")  # a layer that is itself an encoding
_ENTITIES = re.compile(r"(?:&#x?[0-9A-Fa-f]+;|&[A-Za-z]+;)")


@dataclass(frozen=True)
class Layer:
    """Decoded text found at `line` (1-based) of the file, and how it was encoded."""

    line: int
    kind: str
    text: str
    start: int  # offset of the encoded run in its line (for the context of the excerpt)


def readable(data: bytes) -> str | None:
    """The bytes as text when they are UTF-8 and mostly printable, else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8:
        return None
    printable = sum(1 for c in text if c.isprintable() or c in "\n\t\r")
    letters = sum(1 for c in text if c.isalpha())
    wordy = letters / len(text) >= 0.4 or _ENCODED.fullmatch(text) is not None
    return text if wordy and printable / len(text) >= MIN_READABLE else None


def _unpacked(data: bytes) -> bytes:
    """gzip or zlib data inflated (within the budget), anything else as is."""
    if data[:2] != b"\x1f\x8b" and not (
        data[:1] == b"\x78" and data[1:2] in (b"\x01", b"\x5e", b"\x9c", b"\xda")
    ):
        return data
    inflate = zlib.decompressobj(wbits=47)  # 32 + 15: gzip or zlib header, detected
    try:
        return inflate.decompress(data, MAX_BYTES)
    except zlib.error:  # not compressed after all
        return data


def _base32(run: str) -> str | None:
    if len(run) > MAX_BYTES * 8 // 5 or len(run.rstrip("=")) % 8 not in (0, 2, 4, 5, 7):
        return None
    try:
        bare = run.rstrip("=")
        return readable(_unpacked(base64.b32decode(bare + "=" * (-len(bare) % 8))))
    except (binascii.Error, ValueError):  # not base32 after all
        return None


def _escapes(run: str) -> str | None:
    """`\\u0069gnore`, `\\x69` and `\\151` escapes as the program or model that reads them sees them."""
    try:
        text = run.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except (UnicodeDecodeError, UnicodeEncodeError):  # a malformed escape: not a layer
        return None
    return text if text != run and len(text) >= 8 else None


def _base64(run: str) -> str | None:
    if run.isalpha() and (run.islower() or run.isupper()):
        return None  # one long word, not an encoding
    if len(run) > MAX_BYTES * 4 // 3:
        return None  # over the decoding budget on its own (the file is still scanned as text)
    try:
        bare = run.rstrip("=")
        padded = bare + "=" * (-len(bare) % 4)
        data = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):  # not base64 after all: nothing to decode
        return None
    return readable(_unpacked(data))


def _hex(run: str) -> str | None:
    if len(run) > MAX_BYTES * 2:
        return None  # over the decoding budget on its own
    try:
        return readable(bytes.fromhex(run.replace("\\x", "").replace(" ", "").replace(":", "")))
    except ValueError:  # odd digits: not an encoding
        return None


def _decoders(body: str) -> list[tuple[int, str, int, str]]:
    """(offset, kind, offset in its line, decoded) for every readable encoded run in `body`."""
    out: list[tuple[int, str, str]] = []  # offset, kind, decoded
    for match in _BASE64.finditer(body):
        decoded = _base64(match.group(0))
        if decoded:
            out.append((match.start(), "base64", decoded))
    for match in _HEX.finditer(body):
        decoded = _hex(match.group(0))
        if decoded:
            out.append((match.start(), "hex", decoded))
    if "\\" in body:
        for match in _ESCAPED.finditer(body):
            decoded = _escapes(match.group(0))
            if decoded:
                out.append((match.start(), "escapes", decoded))
    for match in _BASE32.finditer(body):
        decoded = None if match.group(0).isalpha() else _base32(match.group(0))
        if decoded:
            out.append((match.start(), "base32", decoded))
    for match in _WRAPPED.finditer(body):  # base64 wrapped at 64 or 76 columns, read as one
        decoded = _base64("".join(match.group(0).replace(">", " ").split()))
        if decoded:
            out.append((match.start(), "base64", decoded))
    if "%" in body:
        for match in _PERCENT.finditer(body):
            decoded = unquote(match.group(0))
            if decoded != match.group(0):
                out.append((match.start(), "percent", decoded))
    if "&" in body:
        for line_start, line in _lines_with_entities(body):
            out.append((line_start, "html-entities", html.unescape(line)))
    return [(at, kind, at - body.rfind("\n", 0, at) - 1, text) for at, kind, text in out]


def _lines_with_entities(body: str) -> list[tuple[int, str]]:
    out = []
    offset = 0
    for line in body.split("\n"):
        if "&" in line and (len(_ENTITIES.findall(line)) >= 3 or _IN_WORD_ENTITY.search(line)):
            out.append((offset, line))
        offset += len(line) + 1
    return out


def layers(text: str) -> list[Layer]:
    """Every readable decoded layer of `text`, nested ones named `base64>hex`, within the caps."""
    found: list[Layer] = []
    budget = MAX_BYTES
    queue: list[tuple[str, str, int | None]] = [(text, "", None)]
    for _depth in range(MAX_DEPTH):
        nxt: list[tuple[str, str, int | None]] = []
        for body, chain, fixed_line in queue:
            for at, kind, column, decoded in _decoders(body):
                budget -= len(decoded)
                if budget < 0:
                    return found
                name = f"{chain}>{kind}" if chain else kind
                line = fixed_line or body.count("\n", 0, at) + 1
                found.append(Layer(line, name, decoded, column if fixed_line is None else 0))
                nxt.append((decoded, name, line))
        queue = nxt
        if not queue:
            break
    return found


_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)


def rot13(text: str) -> str:
    """The rot13 view of a text (letters rotated, everything else, newlines too, unchanged)."""
    return text.translate(_ROT13)
