"""Content rules applied to a file: every reading, its encoded layers and its hidden regions.

One pass per file: NFKC + invisible characters dropped (+ the look-alike skeleton when the file has
Latin look-alikes, + a loose reading of lines split by markup, accents or digits), a keyword
pre-filter per rule and per pattern, then the patterns (`weigh`), the decoded layers (`layers`)
and the words that mix scripts. One finding per rule, line and layer: the most severe.
"""

from __future__ import annotations

import re

from orkestra.intake import decode, hidden
from orkestra.intake.layers import scan_layers, scan_rot13
from orkestra.intake.rules import FileKind, Finding, RuleSet, Text, excerpt
from orkestra.intake.textnorm import Views, mixed_script_words, views
from orkestra.intake.weigh import LOOSE, TRUST, official_host, scan_views

__all__ = ["LOOSE", "TRUST", "official_host", "scan_text"]


def scan_text(
    rules: RuleSet, kind: FileKind, file: str, text: str, lang: str = "other"
) -> list[Finding]:
    """Apply every content rule for this file kind; one finding per rule and line (the worst)."""
    original = Text(text)
    view = views(text)
    regions = hidden.regions(view.plain) if kind == "doc" else {}
    best: dict[tuple[str, int, str], Finding] = {}
    candidates = [r for r in rules.content_rules(kind) if not r.options.get("needs_layer")]
    for _rule, finding in scan_views(candidates, kind, view, original, regions, lang):
        _keep(best, finding)
    layers = decode.layers(view.plain) if _may_encode(view.plain) else []
    for finding in scan_layers(rules, kind, file, layers, original, regions, view.plain, lang):
        _keep(best, finding)
    for finding in scan_rot13(rules, kind, view, regions, lang):
        _keep(best, finding)
    if view.folded:
        for finding in _mixed_scripts(rules, view, original):
            _keep(best, finding)
    out = [_named(f, file) for f in best.values()]
    return sorted(out, key=lambda f: (f.line, f.rule))


def _keep(best: dict[tuple[str, int, str], Finding], finding: Finding) -> None:
    key = (finding.rule, finding.line, finding.layer)
    order = {"high": 0, "medium": 1, "low": 2}
    current = best.get(key)
    if current is None or order[finding.severity] < order[current.severity]:
        best[key] = finding


def _named(finding: Finding, file: str) -> Finding:
    if finding.file == file:
        return finding
    return Finding(
        file,
        finding.line,
        finding.rule,
        finding.severity,
        finding.excerpt,
        finding.message,
        finding.category,
        finding.reason,
        finding.region,
        finding.layer,
    )


def _may_encode(text: str) -> bool:
    return (
        any(c in text for c in ("=", "%", "&#", "\\x", "\\u", "\\U", "\\0", "\\1"))
        or _LONG_RUN.search(text) is not None
        # hex pairs split by blanks: a phrase holds spaces, `20` (cheap test before the regex)
        or ((" 20 " in text or ":20:" in text) and _SPACED_HEX.search(text) is not None)
    )


_LONG_RUN = re.compile(r"[A-Za-z0-9+/]{24,}")
_SPACED_HEX = re.compile(r"(?:[0-9A-Fa-f]{2}[ :]){11}[0-9A-Fa-f]{2}")


def _mixed_scripts(rules: RuleSet, view: Views, original: Text) -> list[Finding]:
    rule = rules.builtin("confusable-letters")
    body = Text(view.plain)
    out = []
    for number in range(1, len(body.starts) + 1):
        line = body.line(number)
        if line.isascii():
            continue
        words = mixed_script_words(line)
        if words:
            shown = f"{', '.join(words[:3])} in: {excerpt(original.line(number))}"
            out.append(
                Finding(
                    "",
                    number,
                    rule.id,
                    rule.severity,
                    excerpt(shown),
                    rule.message,
                    rule.category,
                    "Latin mixed with Cyrillic or Greek in one word",
                )
            )
    return out
