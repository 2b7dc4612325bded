"""The paths a script builds that climb out of its folder, however the climb is spelled.

`require('./../../x')`, `path.join(__dirname, '..', '..')`, `'..' + '/' + '..'`, `` `${'..'}/..` ``,
`'.'+'./'`, `'../' * 3`, `os.path.dirname(os.path.dirname(__file__))`, `Path(__file__).parents[3]`,
`Path(__file__).parent.parent`, `process.cwd() + '/..'`, `"$(dirname "$0")/../.."`,
`"$HERE/../../x"`: each statement (a line, or the lines inside one pair of brackets) is read as the
paths it builds. String pieces glued by `+` (or side by side in Python), template literals and
f-strings of constants and repetitions (`* 3`, `.repeat(3)`) are folded; pieces next to each other
(joined by `,`, `/`, `+`, or in shell by nothing) are one path; a starting point in front of them
(the script's own file or folder and its parents, the working directory, a name bound to one of
these in the same file, a shell variable) adds the folders it already climbed. Patterns only, like
the other rules: nothing is run, and a climb stored in a name (`UP = '..'`) is not followed.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

#: where a path starts: the script's folder ("dir"), the working directory ("cwd") or a shell
#: variable whose value the review cannot see ("var": taken as the script's folder)
Start = str


@dataclass(frozen=True)
class Climb:
    """A path a statement builds (`../../x`, normalised) and where in the text it starts."""

    offset: int
    path: str
    start: Start
    spelled: str


#: a cheap test before any work: a `..` that is not `...`, a dot glued to a quote, a starting point
#: (each branch starts with a fixed character, which keeps the search fast)
_TRIGGER = re.compile(
    r"\.(?:(?<!\.\.)\.(?!\.)|[\"'`]\s*\+|[\"'][ \t]+[rRbBuUfF]{0,2}[\"']\.)"
    r"|__(?:file__|dirname|filename)|import\.meta|cwd\s*\(|\$(?:\{?PWD\b|\(\s*pwd\b|\{?0\b)|BASH_SOURCE"
)
_Q = r"(?:[rRbBuUfF]{0,2}(?:'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")|`(?:[^`\\]|\\.)*`)"
_LIT = re.compile(_Q)
_CONCAT = re.compile(rf"{_Q}(?:\s*\+\s*{_Q})+")
_ADJACENT = re.compile(rf"{_Q}(?:[ \t]+{_Q})+")  # Python: 'a' 'b' is 'ab'
_REPEAT = re.compile(
    rf"(?P<a>{_Q})\s*\*\s*(?P<n>\d{{1,2}})\b|\b(?P<m>\d{{1,2}})\s*\*\s*(?P<b>{_Q})"
    rf"|(?P<c>{_Q})\s*\.\s*repeat\s*\(\s*(?P<r>\d{{1,2}})\s*\)"
    rf"|[\[(]\s*(?P<d>{_Q})\s*,?\s*[\])]\s*\*\s*(?P<k>\d{{1,2}})\b"
)
_SUBST_CONST = re.compile(r"\$?\{\s*(['\"])([^'\"\n{}]*)\1\s*\}")
_SUBST = re.compile(r"\$\{[^{}`]*\}")
_VAR = "\x00"  # a value the review cannot see (a template substitution)
#: the script's own file or folder, possibly climbed by dirname() calls
_DIRNAMES = (
    r"(?P<calls>(?:(?:os\.path\.|path\.|posixpath\.)?(?:dirname|abspath|realpath|normpath|resolve)"
    r"\s*\(\s*)*)(?P<self>__file__|__filename|__dirname|import\.meta\.(?:url|filename|dirname)"
    r"|fileURLToPath\s*\(\s*import\.meta\.url\s*\))(?P<close>(?:\s*\))*)"
)
_PATH_SELF = (
    r"(?:pathlib\.)?(?:Pure)?Path\s*\(\s*(?:(?:os\.path\.)?(?:abspath|realpath)\s*\(\s*)?"
    r"__file__\s*\)*"
)
_CWD = r"process\.cwd\s*\(\s*\)|os\.getcwd\s*\(\s*\)|Path\.cwd\s*\(\s*\)|Deno\.cwd\s*\(\s*\)"
_PARENTS = (
    r"(?P<chain>(?:\s*\.\s*(?:resolve|absolute|expanduser)\s*\(\s*\)|\s*\.\s*parent\b)*)"
    r"(?:\s*\.\s*parents\s*\[\s*(?P<index>\d{1,2})\s*\])?"
)
_PARENTS_RE = re.compile(_PARENTS)
_BINDING = re.compile(
    rf"^[ \t]*(?:(?:const|let|var|export)\s+)*(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w.]+\s*)?="
    rf"\s*(?P<value>(?:{_PATH_SELF}|{_DIRNAMES}|{_CWD}|[A-Za-z_$][\w$]*)(?:\s*\.\s*(?:resolve|absolute|expanduser)\s*\(\s*\)|\s*\.\s*parents?\b(?:\s*\[\s*\d+\s*\])?)*)\s*;?[ \t]*$",
    re.M,
)
_SH_BINDING = re.compile(
    r"^[ \t]*(?:export\s+|local\s+|readonly\s+)?(?P<name>[A-Za-z_]\w*)="
    r"(?P<value>[\"']?\$\((?:\s*cd\s+)?[^\n]*?\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?[^\n]*)$",
    re.M,
)
_PIECE = r"[\w.@~%:+$\x00-]*(?:[/\\][\w.@~%:+$\x00-]*)*"
_PIECE_RE = re.compile(rf"{_PIECE}")
_SKIP = re.compile(r"[^\w'\"`$,+/\s]+")
_CODE_TOKEN = re.compile(
    rf"(?P<pathself>{_PATH_SELF})|{_DIRNAMES}|(?P<cwd>{_CWD})"
    rf"|(?P<lit>{_Q})|(?P<join>\s*[,+/]\s*)|(?P<name>[A-Za-z_$][\w$]*)"
)
_SH_TOKEN = re.compile(
    r"(?P<dirs>(?:\$\(\s*(?:cd\s+)?dirname\s+(?:--\s+)?)+)\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?"
    r"\s*\)+"
    r"|\$\{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\}"
    r"|(?P<cwd>\$\{?PWD\b\}?|\$\(\s*pwd\s*\))"
    r"|\$\{?(?P<var>[A-Za-z_]\w*)\}?"
    r"|(?P<word>[^\s;|&<>()`$'\"]+)"
)


def climbs(text: str, lang: str) -> list[Climb]:
    """Every path a statement of this script builds that climbs (`..` after normalising)."""
    if not _TRIGGER.search(text):
        return []
    out: list[Climb] = []
    names: dict[str, tuple[str, Start]] = {}
    if lang == "shell":
        for match in _SH_BINDING.finditer(text):
            value = match.group("value").replace("'", "").replace('"', "")
            names[match.group("name")] = _sh_start(value)
        for offset, statement in _lines(text, _bound(names)):
            out.extend(_shell(offset, statement, names))
        return out
    for match in _BINDING.finditer(text):
        anchor = _starting_point(match.group("value"), 0, names)
        if anchor is not None:
            names[match.group("name")] = anchor[:2]
    for at, window in _windows(text, _bound(names)):
        out.extend(_code(at, _fold(window, lang == "python"), names))
    return out


def _bound(names: dict[str, tuple[str, Start]]) -> re.Pattern[str]:
    """The trigger, plus the names bound to a starting point."""
    if not names:
        return _TRIGGER
    bound = "|".join(re.escape(name) for name in names)
    return re.compile(rf"{_TRIGGER.pattern}|(?<![\w$])(?:{bound})(?![\w$])")


#: lines read either side of a trigger: a path joined over several lines stays whole
_AROUND = 6
#: a longer line (a minified bundle's) is read around its triggers only
_WIDE = 400


def _windows(text: str, trigger: re.Pattern[str]) -> list[tuple[int, str]]:
    """(offset, text) of the stretches around each trigger: its line and `_AROUND` lines either
    side, no further than `_WIDE` characters from the trigger (a minified bundle's long line)."""
    spans: list[tuple[int, int]] = []
    hit = trigger.search(text)
    while hit is not None:
        floor, ceiling = max(0, hit.start() - _WIDE), min(len(text), hit.end() + _WIDE)
        begin = hit.start()
        for _ in range(_AROUND + 1):
            begin = text.rfind("\n", floor, begin) if begin > floor else floor
            if begin < 0:
                begin = floor
                break
        end = hit.end()
        for _ in range(_AROUND + 1):
            end = text.find("\n", end + 1, ceiling) if end < ceiling else ceiling
            if end < 0:
                end = ceiling
                break
        if spans and begin <= spans[-1][1]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((begin, end))
        hit = trigger.search(text, max(end, hit.end()))
    return [(begin, text[begin:end]) for begin, end in spans]


def _lines(text: str, trigger: re.Pattern[str]) -> list[tuple[int, str]]:
    """(offset, line) of each shell line with a trigger, its quotes removed (`'..'/'..'` is
    `../..` to the shell)."""
    out, offset = [], 0
    for line in text.split("\n"):
        if trigger.search(line):
            out.append((offset, line.replace("'", "").replace('"', "")))
        offset += len(line) + 1
    return out


def _fold(statement: str, python: bool) -> str:
    """Constant pieces glued together, written as the one literal they make (a newline removed
    is put back after it, so the statement keeps its lines)."""
    statement = _SUBST_CONST.sub(lambda m: m.group(2), statement)
    statement = _REPEAT.sub(_repeat, statement)
    statement = _CONCAT.sub(lambda m: _joined(m.group(0)), statement)
    if python:
        statement = _ADJACENT.sub(lambda m: _joined(m.group(0)), statement)
    return statement


def _value(literal: str) -> str:
    body = literal.lstrip("rRbBuUfF")[1:-1]
    return _SUBST.sub(_VAR, body) if literal.endswith("`") else body


def _joined(run: str) -> str:
    return "'" + "".join(_value(m.group(0)) for m in _LIT.finditer(run)) + "'"


def _repeat(match: re.Match[str]) -> str:
    literal = match.group("a") or match.group("b") or match.group("c") or match.group("d")
    count = int(match.group("n") or match.group("m") or match.group("r") or match.group("k"))
    if match.group("d"):
        return "(" + ", ".join([literal] * min(count, 16)) + ")"
    return "'" + _value(literal) * min(count, 16) + "'"


def _starting_point(
    statement: str, at: int, names: dict[str, tuple[str, Start]]
) -> tuple[str, Start, int] | None:
    """The path prefix a starting point at `at` stands for (`f`: the script file itself), where it
    starts from, and where it ends (its `.parent` / `.parents[n]` chain included); else None."""
    token = _CODE_TOKEN.match(statement, at)
    if token is None or token.group("lit") is not None or token.group("join") is not None:
        return None
    if token.group("cwd"):
        return ".", "cwd", token.end()
    if token.group("self"):
        dirs = len(re.findall(r"dirname", token.group("calls")))
        own = "." if token.group("self") in ("__dirname", "import.meta.dirname") else "f"
        prefix, start = posixpath.normpath(own + "/.." * dirs), "dir"
    elif token.group("pathself"):
        prefix, start = "f", "dir"
    elif token.group("name") in names:
        prefix, start = names[token.group("name")]
    else:
        return None
    chain = _PARENTS_RE.match(statement, token.end())
    assert chain is not None  # every part of it is optional
    ups = len(re.findall(r"\bparent\b", chain.group("chain")))
    if chain.group("index") is not None:
        ups += int(chain.group("index")) + 1
    return posixpath.normpath(prefix + "/.." * ups), start, chain.end()


def _code(offset: int, statement: str, names: dict[str, tuple[str, Start]]) -> list[Climb]:
    out: list[Climb] = []
    parts: list[str] = []
    begin, end = 0, 0
    start: Start = "dir"
    at = 0
    while at < len(statement):
        token = _CODE_TOKEN.match(statement, at)
        if token is None or token.end() == at:
            _close(out, offset + begin, parts, start, statement[begin:end])
            parts = []
            skip = _SKIP.match(statement, at)
            at = skip.end() if skip is not None else at + 1
            continue
        if token.group("lit") is None and token.group("join") is None:
            anchor = _starting_point(statement, at, names)
            if anchor is not None:
                _close(out, offset + begin, parts, start, statement[begin:end])
                prefix, start, end = anchor
                parts, begin, at = [prefix], at, end
                continue
        if token.group("lit") is not None:
            value = _value(token.group("lit"))
            if _PIECE_RE.fullmatch(value) is None or "{{" in value or "{%" in value:
                _close(out, offset + begin, parts, start, statement[begin:end])
                parts = []
            else:
                if not parts:
                    begin, start = token.start(), "dir"
                parts.append(value)
                end = token.end()
        elif token.group("join") is None:  # a name: not part of a path the review can see
            _close(out, offset + begin, parts, start, statement[begin:end])
            parts = []
        at = token.end()
    _close(out, offset + begin, parts, start, statement[begin:end])
    return out


def _close(out: list[Climb], offset: int, parts: list[str], start: Start, spelled: str) -> None:
    if parts and (len(parts) > 1 or parts[0] not in ("f", ".")):
        _emit(out, offset, parts, start, spelled)


def _shell(offset: int, line: str, names: dict[str, tuple[str, Start]]) -> list[Climb]:
    out: list[Climb] = []
    parts: list[str] = []
    begin, end = 0, 0
    start: Start = "dir"
    for token in _SH_TOKEN.finditer(line):
        if token.start() != end and parts:  # a blank or an operator ends the word
            _emit(out, offset + begin, parts, start, line[begin:end])
            parts = []
        if token.group("word") is not None:
            if not parts:
                begin, start = token.start(), "dir"
            parts.append(token.group("word"))
        else:
            if parts:
                _emit(out, offset + begin, parts, start, line[begin:end])
            begin = token.start()
            if token.group("cwd"):
                parts, start = ["."], "cwd"
            elif token.group("var"):
                prefix, start = names.get(token.group("var"), (".", "var"))
                parts = [prefix]
            else:
                dirs = len(re.findall(r"dirname", token.group("dirs") or ""))
                parts = [posixpath.normpath("f" + "/.." * dirs)] if dirs else ["."]
        end = token.end()
    if parts:
        _emit(out, offset + begin, parts, start, line[begin:end])
    return out


def _sh_start(value: str) -> tuple[str, Start]:
    """What a shell variable set from the script's own path stands for (`HERE=$(dirname "$0")`,
    `ROOT=$(cd "$(dirname "$0")/.." && pwd)`)."""
    climbed = _shell(0, value, {})
    if climbed:
        return climbed[0].path, climbed[0].start
    dirs = len(re.findall(r"\bdirname\b", value))
    return (posixpath.normpath("f" + "/.." * dirs) if dirs else "f"), "dir"


def _emit(out: list[Climb], offset: int, parts: list[str], start: Start, spelled: str) -> None:
    pieces = []
    for index, part in enumerate(parts):
        part = part.replace("\\", "/")
        if part.startswith(_VAR + "/") and index == 0:
            part = part[2:]  # `${dir}/../x`: a folder the review cannot see, taken as the script's
        pieces.append(part.lstrip("/") if index or start != "dir" or len(parts) > 1 else part)
    joined = "/".join(p for p in pieces if p)
    if not joined or joined.startswith("/") or "://" in joined:
        return
    path = posixpath.normpath(joined).replace(_VAR, "…")
    if path.startswith("f/") or path == "f":
        return
    if path == ".." or path.startswith("../"):
        out.append(Climb(offset, path, start, spelled.strip()))
