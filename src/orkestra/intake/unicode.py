"""Invisible Unicode: tag characters, bidirectional overrides and zero-width runs, by code point."""

from __future__ import annotations

import re

from orkestra.intake.rules import Finding, RuleSet, Text, excerpt

_TAG = re.compile("[\U000e0000-\U000e007f]+")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]+")
_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
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


def scan_invisible(rules: RuleSet, file: str, text: str) -> list[Finding]:
    """Findings for hidden characters, each naming the code points it saw."""
    body = Text(text)
    found: list[Finding] = []
    zw_rule = rules.builtin("zero-width-run")
    min_run = int(zw_rule.options.get("min_run", 2))
    zero_width = re.compile(f"[{_ZERO_WIDTH}]{{{min_run},}}")
    checks = (
        ("invisible-tag-characters", _TAG),
        ("bidi-override", _BIDI),
        ("zero-width-run", zero_width),
    )
    for rule_id, pattern in checks:
        rule = rules.builtin(rule_id)
        for match in pattern.finditer(text):
            run = match.group(0)
            if rule_id == "invisible-tag-characters" and _is_flag(text, match.start(), run):
                continue
            number = body.line_no(match.start())
            detail = code_points(run)
            if rule_id == "invisible-tag-characters" and _tag_text(run):
                detail += f" spelling {_tag_text(run)[:80]!r}"
            found.append(
                Finding(
                    file=file,
                    line=number,
                    rule=rule_id,
                    severity=rule.severity,
                    excerpt=f"{detail} in: {excerpt(body.line(number))}",
                    message=rule.message,
                    category=rule.category,
                )
            )
    return found
