"""Matching a rule on every reading of a text, and weighing each hit by where and how it sits.

A hit is weighed by where it sits (hidden from a reader: heavier; quoted, negated or an example:
lighter) and how it was written (look-alike letters, invisible characters, markup, accents or
digits inside words: never lighter); a download piped into a shell is lighter from an official
installer host only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from orkestra.intake import hidden
from orkestra.intake.context import ADDRESSED, lowering
from orkestra.intake.rules import FileKind, Finding, Lowered, Rule, Severity, Text, excerpt
from orkestra.intake.textnorm import Views, disguised, loose, markup_only

#: categories whose findings weigh more when hidden and are looked for in decoded layers
TRUST = frozenset(
    {
        "prompt-injection",
        "exfiltration",
        "remote-code",
        "reach-outside",
        "obfuscation",
        "persistence",
    }
)
#: how the loose reading disguised a phrase (never lowered by context)
LOOSE = "markup, accents or digits inside words"
_HOST = re.compile(r"https?://([^/\s'\"|)>`]+)", re.I)
_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$")


@dataclass(frozen=True)
class _Place:
    """Where a match sits: its line in the view, column, region and how it was spelled."""

    number: int
    line: str
    previous: str
    column: int
    end: int
    region: str
    obfuscated: str  # "" or how the text was disguised (look-alike letters, invisible, encoded)


def scan_views(
    rules: list[Rule],
    kind: FileKind,
    view: Views,
    original: Text,
    regions: dict[int, str],
    lang: str,
) -> list[tuple[Rule, Finding]]:
    plain = Text(view.plain)
    sources: list[tuple[Text, Lowered, str]] = [(plain, Lowered(view.plain.lower()), "")]
    if view.folded:
        sources.append((Text(view.skeleton), Lowered(view.skeleton.lower()), "look-alike letters"))
    if kind == "doc":
        relaxed = loose(view.plain)
        if relaxed is not None:
            sources.append((Text(relaxed), Lowered(relaxed), LOOSE))
    out: list[tuple[Rule, Finding]] = []
    for rule in rules:
        # the keyword pre-filter first: a rule no reading wants is skipped before anything runs
        wanted = [
            (body, low, spelled)
            for body, low, spelled in sources
            if (spelled != LOOSE or rule.category == "prompt-injection") and rule.wanted(low)
        ]
        if not wanted:
            continue
        # `all_of` (regexes over the whole text) only narrows what the patterns found: it is
        # asked once, at the first match, so a rule whose patterns find nothing never runs it
        allowed = None if rule.all_of else True
        found_lines: set[int] = set()
        for body, spelled, index, match in _rule_matches(rule, wanted, lang):
            if allowed is None:
                allowed = all(p.search(view.plain) for p in rule.all_of)
            if not allowed:
                break
            place = _place(body, match, regions, kind, original, spelled)
            if spelled == LOOSE and place.number in found_lines:
                continue  # the plain reading already judged this line, in context
            found_lines.add(place.number)
            out.append((rule, judge(rule, kind, place, original, match.group(0), index)))
    return out


def _rule_matches(
    rule: Rule, wanted: list[tuple[Text, Lowered, str]], lang: str
) -> Iterator[tuple[Text, str, int, re.Match[str]]]:
    """Every match of the rule's patterns in the readings that want it, in order."""
    for body, low, spelled in wanted:
        for index, pattern in enumerate(rule.patterns):
            if index in rule.langs and lang not in rule.langs[index]:
                continue
            if not rule.may_match(index, low):
                continue
            for match in _matches(pattern, body, low, rule.pattern_keys[index]):
                yield body, spelled, index, match


#: texts shorter than this are searched whole (finding the windows would cost more)
_WINDOWED_FROM = 2048
#: lines either side of a line holding a pattern's literal: a phrase split over lines stays whole
_AROUND = 2


def _matches(
    pattern: re.Pattern[str], body: Text, low: Lowered, keys: frozenset[str] | None
) -> Iterator[re.Match[str]]:
    """The pattern's matches in `body`, searched only around the lines holding one of `keys`
    (a literal every match contains) in a long text whose lines the lower-cased text maps one to
    one (`Lowered.aligned`), else in the whole text. The matches
    are the same either way (positions included): only the places that cannot match are
    skipped."""
    text = body.text
    if keys is None or len(text) < _WINDOWED_FROM or not low.aligned(text, keys):
        yield from pattern.finditer(text)
        return
    for start, end in _windows(body, low, keys):
        yield from pattern.finditer(text, start, end)


def _windows(body: Text, low: Lowered, keys: frozenset[str]) -> list[tuple[int, int]]:
    lines: set[int] = set()
    for key in keys:
        lines |= low.lines_with(key, body)
    spans: list[tuple[int, int]] = []
    count = len(body.starts)
    for number in sorted(lines):
        first, last = max(1, number - _AROUND), min(count, number + _AROUND)
        start = body.starts[first - 1]
        end = body.starts[last] if last < count else len(body.text)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _place(
    body: Text,
    match: re.Match[str],
    regions: dict[int, str],
    kind: FileKind,
    original: Text,
    spelled: str,
) -> _Place:
    number = body.line_no(match.start())
    line = body.line(number)
    column = match.start() - body.starts[number - 1]
    region = regions.get(number, "")
    if kind == "doc" and not region and "![" in line and hidden.in_alt_text(line, column):
        region = "alt-text"
    elif kind == "doc" and not region and "](" in line and hidden.in_link_title(line, column):
        region = "link-title"
    raw = original.line(number) if number <= len(original.starts) else line
    if spelled == LOOSE and markup_only(raw, line):
        spelled = ""  # emphasis or tags around words is formatting; context still counts
    if not spelled and raw != line and disguised(raw):
        spelled = "invisible or compatibility characters"
    previous = _introducing(body, number)
    return _Place(number, line, previous, column, column + len(match.group(0)), region, spelled)


#: a markdown list item, or the indented continuation of one
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_CONTINUED = re.compile(r"^\s{2,}\S")
#: how far back a list's introducing line is looked for (longer lists keep their heading)
_LIST_MAX = 200


def _introducing(body: Text, number: int) -> str:
    """The line before this one; for an item of a list (or its indented continuation), the line
    that introduces the whole list ("Flag these in a diff:" above every item, not only the
    first). A blank line ends the list."""
    previous = body.line(number - 1) if number > 1 else ""
    line = body.line(number)
    if not (_ITEM.match(line) or _CONTINUED.match(line)):
        return previous
    at = number - 1
    while at > 1 and number - at < _LIST_MAX:
        above = body.line(at)
        if not (_ITEM.match(above) or _CONTINUED.match(above)):
            break
        at -= 1
    first = body.line(at) if at >= 1 else ""
    return "" if _ITEM.match(first) or _CONTINUED.match(first) else first


def judge(
    rule: Rule, kind: FileKind, place: _Place, original: Text, matched: str, index: int
) -> Finding:
    severity: Severity = rule.severity
    reasons: list[str] = []
    language = rule.phrase_langs.get(index)
    if language and language != "en":
        reasons.append(f"phrase in '{language}'")
    if place.obfuscated:
        reasons.append(f"spelled with {place.obfuscated}: never lowered")
    if place.region in hidden.HIDDEN and rule.category in TRUST:
        severity = "high"
        reasons.append(f"hidden from a reader ({place.region}): weighs more")
    elif severity == "high" and not place.obfuscated:
        severity, why = _lowered(rule, kind, place, matched)
        if why:
            reasons.append(why)
    raw = original.line(place.number) if place.number <= len(original.starts) else place.line
    return Finding(
        file="",
        line=place.number,
        rule=rule.id,
        severity=severity,
        excerpt=excerpt(raw, place.column, place.end),
        message=rule.message,
        category=rule.category,
        reason="; ".join(reasons),
        region=place.region,
    )


def _lowered(rule: Rule, kind: FileKind, place: _Place, matched: str) -> tuple[Severity, str]:
    why = None
    if rule.context and (kind == "doc" or rule.category == "prompt-injection"):
        code = rule.category != "prompt-injection"
        why = lowering(place.line, place.column, place.end, place.previous, kind, code)
        addressed = ADDRESSED.search(place.line)
        if why is None and kind == "doc" and rule.downgrade_when is not None and not addressed:
            cue = rule.downgrade_when.search(place.line)
            why = f"warned about in prose ({cue.group(0)!r})" if cue else None
        if why and place.region == hidden.COLLAPSED and not why.startswith("quoted"):
            why = None  # collapsed text needs quotes to count as an example
    if why:
        return rule.downgrade_to, f"{why}: lowered to review"
    hosts = rule.options.get("official_hosts")
    if hosts:
        host = official_host(place.line, hosts) if "://" not in matched else None
        host = host or official_host(matched, hosts)
        if host:
            return rule.downgrade_to, f"official installer from {host}: held for review"
        return "high", "unknown or unverifiable source"
    return rule.severity, ""


#: curl/wget options that send a request somewhere other than the URL's own host
_REROUTE = re.compile(
    r"--resolve\b|--connect-to\b|--proxy\b|(?<!\S)-x\s|-e\s+[\"']?https?_proxy", re.I
)


def official_host(matched: str, hosts: list[str]) -> str | None:
    """The official host the command downloads from, "" when no URL is named, None if unknown.

    Every URL the line names must be official (a header or a second URL naming an official host
    beside an unknown one proves nothing), and nothing may reroute the request."""
    found = list(_HOST.finditer(matched))
    if not found:
        return ""
    if "https://" not in matched.lower() or _REROUTE.search(matched):
        return None
    named = [_official(matched, match, hosts) for match in found]
    if any(host is None for host in named):
        return None
    return named[0]


def _official(line: str, found: re.Match[str], hosts: list[str]) -> str | None:
    host = found.group(1).lower().split("@")[-1]
    rest = line[found.start(1) :].split()
    where = rest[0].lower() if rest else host
    if not found.group(0).lower().startswith("https://") or _IP.match(host):
        return None
    for known in (str(h).lower() for h in hosts):
        if "/" in known and where.startswith(known):
            return known.rstrip("/")
        if "/" not in known and (host == known or host.endswith("." + known)):
            return host
    return None
