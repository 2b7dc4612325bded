"""Invisible Unicode, by code point: tag characters, bidi controls and zero-width characters.

What is hidden here is also removed before the content rules match (`textnorm`), so a phrase split
by one zero-width space is still read as the phrase. This module reports the hiding itself:
- tag characters (U+E0000-E007F), except inside a subdivision flag emoji;
- bidi overrides (U+202D/E) always; other bidi controls when unbalanced on their line, or when
  balanced but outside right-to-left text (balanced isolates around Arabic or Hebrew are normal);
- a run of two or more zero-width characters, or a single one inside a Latin, Greek or Cyrillic
  word (joiners inside emoji sequences and Arabic or Indic words are how those scripts are written).
"""

from __future__ import annotations

import re

from orkestra.intake.rules import Finding, RuleSet, Severity, Text, excerpt

_TAG = re.compile("[\U000e0000-\U000e007f]+")
_BIDI_LINE = re.compile("[\u202a-\u202e\u2066-\u2069]")
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u00ad\u034f"
_VARIATION = "\ufe00-\ufe0f\U000e0100-\U000e01ef"  # invisible after a plain letter
_BLANK = "\u115f\u1160\u2800\u3164\uffa0"  # letters that show as a space
_ZW = re.compile(f"[{_ZERO_WIDTH}{_VARIATION}{_BLANK}]+")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_WORD_SCRIPT = re.compile(r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]")
_OPEN = {
    "\u202a": "\u202c",
    "\u202b": "\u202c",
    "\u2066": "\u2069",
    "\u2067": "\u2069",
    "\u2068": "\u2069",
}
SHOWN = 12  # code points listed per finding before "..."


def code_points(run: str) -> str:
    """`U+E0069 U+E0067 ...` for a run of characters (at most SHOWN listed)."""
    points = " ".join(f"U+{ord(c):04X}" for c in run[:SHOWN])
    return points + (f" … ({len(run)} in all)" if len(run) > SHOWN else "")


def _tag_text(run: str) -> str:
    """Tag characters mirror ASCII (U+E0041 is 'A'): show what they spell."""
    return "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)


def _is_flag(text: str, start: int, run: str) -> bool:
    """Subdivision flags (England, Scotland, Wales) are U+1F3F4 + tag letters + U+E007F."""
    letters = run[:-1]
    return (
        start > 0
        and text[start - 1] == "\U0001f3f4"
        and run.endswith("\U000e007f")
        and 1 <= len(letters) <= 6
        and all(
            "a" <= chr(ord(c) - 0xE0000) <= "z" or "0" <= chr(ord(c) - 0xE0000) <= "9"
            for c in letters
        )
    )


def scan_invisible(rules: RuleSet, file: str, text: str, kind: str = "doc") -> list[Finding]:
    """Findings for hidden characters, each naming the code points it saw and why it matters."""
    if text.isascii():
        return []
    body = Text(text)
    found: list[Finding] = []
    for match in _TAG.finditer(text):
        run = match.group(0)
        if _is_flag(text, match.start(), run):
            continue
        detail = code_points(run)
        if _tag_text(run):
            detail += f" spelling {_tag_text(run)[:80]!r}"
        found.append(_finding(rules, "invisible-tag-characters", file, body, match.start(), detail))
    if _BIDI_LINE.search(text):
        found.extend(_bidi(rules, file, body, kind))
    for match in _ZW.finditer(text):
        found.extend(_zero_width(rules, file, body, text, match, kind))
    return found


def _finding(
    rules: RuleSet,
    rule_id: str,
    file: str,
    body: Text,
    offset: int,
    detail: str,
    severity: Severity | None = None,
    reason: str = "",
) -> Finding:
    rule = rules.builtin(rule_id)
    number = body.line_no(offset)
    return Finding(
        file=file,
        line=number,
        rule=rule_id,
        severity=severity or rule.severity,
        excerpt=f"{detail} in: {excerpt(body.line(number))}",
        message=rule.message,
        category=rule.category,
        reason=reason,
    )


def _bidi(rules: RuleSet, file: str, body: Text, kind: str) -> list[Finding]:
    out: list[Finding] = []
    for number in range(1, len(body.starts) + 1):
        line = body.line(number)
        controls = _BIDI_LINE.findall(line)
        if not controls:
            continue
        offset = body.starts[number - 1]
        points = code_points("".join(controls))
        severity: Severity | None = None  # the rule's own
        if any(c in "\u202d\u202e" for c in controls):
            reason = "an override reorders what is shown"
        elif not _balanced(controls):
            reason = "unbalanced bidi controls reorder the rest of the line"
        elif kind == "script" or not _RTL.search(line):
            severity, reason = (
                "medium",
                "balanced controls outside right-to-left text: held for review",
            )
        else:
            continue  # balanced isolates inside right-to-left text: what they are for
        out.append(_finding(rules, "bidi-override", file, body, offset, points, severity, reason))
    return out


def _balanced(controls: list[str]) -> bool:
    stack: list[str] = []
    for char in controls:
        if char in _OPEN:
            stack.append(_OPEN[char])
        elif not stack or stack.pop() != char:
            return False
    return not stack


#: a line of code listing at least this many distinct non-ASCII code points is a table
TABLE_MIN = 64


def _in_table(body: Text, offset: int, run: str) -> int:
    """The number of distinct code points of the table the run sits in, or 0.

    A code page in code (iconv-lite's `"chars": "…ک™ڑ›œ\u200c\u200dں …"`) lists each code point
    once, so two invisible ones can be neighbours. Hidden text needs its few symbols many times:
    a run longer than two, or an invisible character that the line holds twice, is no table."""
    if len(run) != 2 or run[0] == run[1]:
        return 0
    line = body.line(body.line_no(offset))
    invisible = _ZW.findall(line)
    if sum(len(r) for r in invisible) != len(set("".join(invisible))):
        return 0  # an invisible code point twice on the line: not a table's single entry
    distinct = len({c for c in line if ord(c) > 0x7F})
    return distinct if distinct >= TABLE_MIN else 0


def _zero_width(
    rules: RuleSet,
    file: str,
    body: Text,
    text: str,
    match: re.Match[str],
    kind: str = "doc",
) -> list[Finding]:
    run, start, end = match.group(0), match.start(), match.end()
    if run == "\ufeff" and start == 0:
        return []  # a byte order mark
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if len(run) >= 2 and not _emoji_joiners(run, before, after):
        table = _in_table(body, start, run) if kind == "script" else 0
        if table:
            why = f"two distinct code points among the {table} of a code-point table: reported only"
            return [
                _finding(rules, "zero-width-run", file, body, start, code_points(run), "low", why)
            ]
        return [_finding(rules, "zero-width-run", file, body, start, code_points(run))]
    in_word = bool(before and after and _WORD_SCRIPT.match(before) and _WORD_SCRIPT.match(after))
    if len(run) == 1 and in_word:
        severity: Severity = "medium" if run == "\u00ad" else "high"
        return [
            _finding(
                rules,
                "zero-width-in-word",
                file,
                body,
                start,
                code_points(run),
                severity,
                f"splits the word at {before}|{after}",
            )
        ]
    return []


def _emoji_joiners(run: str, before: str, after: str) -> bool:
    """Joiners between pictographs (family emoji and the like) are how emoji are written."""
    return set(run) <= {"\u200d", "\ufe0f"} and not (before.isalnum() or after.isalnum())
