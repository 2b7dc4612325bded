"""Content rules applied to normalised text, its encoded layers and its hidden regions.

One pass per file: NFKC + invisible characters dropped (+ the look-alike skeleton when the file has
non-ASCII letters), a keyword pre-filter per rule, then the rule's patterns. Each hit is weighed by
where it sits (hidden from a reader: heavier; quoted, negated or an example: lighter) and how it
was written (look-alike letters, invisible characters or an encoding: never lighter).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from orkestra.intake import decode, hidden
from orkestra.intake.context import ADDRESSED, lowering
from orkestra.intake.rules import (
    FileKind,
    Finding,
    Lowered,
    Rule,
    RuleSet,
    Severity,
    Text,
    excerpt,
)
from orkestra.intake.textnorm import (
    Views,
    disguised,
    loose,
    markup_only,
    mixed_script_words,
    views,
)

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


def scan_text(
    rules: RuleSet, kind: FileKind, file: str, text: str, lang: str = "other"
) -> list[Finding]:
    """Apply every content rule for this file kind; one finding per rule and line (the worst)."""
    original = Text(text)
    view = views(text)
    regions = hidden.regions(view.plain) if kind == "doc" else {}
    best: dict[tuple[str, int, str], Finding] = {}
    candidates = [r for r in rules.content_rules(kind) if not r.options.get("needs_layer")]
    for _rule, finding in _scan_views(candidates, kind, view, original, regions, lang):
        _keep(best, finding)
    layers = decode.layers(view.plain) if _may_encode(view.plain) else []
    for finding in _scan_layers(rules, kind, file, layers, original, regions):
        _keep(best, finding)
    for finding in _scan_rot13(rules, kind, view, original, regions):
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
    return any(c in text for c in ("=", "%", "&#", "\\x")) or _LONG_RUN.search(text) is not None


_LONG_RUN = re.compile(r"[A-Za-z0-9+/]{24,}")


def _scan_views(
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
        if rule.all_of and not all(p.search(view.plain) for p in rule.all_of):
            continue
        found_lines: set[int] = set()
        for body, low, spelled in sources:
            if spelled == LOOSE and rule.category != "prompt-injection":
                continue
            if not rule.wanted(low):
                continue
            for index, pattern in enumerate(rule.patterns):
                if index in rule.langs and lang not in rule.langs[index]:
                    continue
                if not rule.may_match(index, low):
                    continue
                for match in pattern.finditer(body.text):
                    place = _place(body, match, regions, kind, original, spelled)
                    if spelled == LOOSE and place.number in found_lines:
                        continue  # the plain reading already judged this line, in context
                    found_lines.add(place.number)
                    out.append((rule, _judge(rule, kind, place, original, match.group(0), index)))
    return out


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
    raw = original.line(number) if number <= len(original.starts) else line
    if spelled == LOOSE and markup_only(raw, line):
        spelled = ""  # emphasis or tags around words is formatting; context still counts
    if not spelled and raw != line and disguised(raw):
        spelled = "invisible or compatibility characters"
    previous = body.line(number - 1) if number > 1 else ""
    return _Place(number, line, previous, column, column + len(match.group(0)), region, spelled)


def _judge(
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


def official_host(matched: str, hosts: list[str]) -> str | None:
    """The official host the command downloads from, "" when no URL is named, None if unknown."""
    found = _HOST.search(matched)
    if found is None:
        return ""
    host = found.group(1).lower().split("@")[-1]
    where = (
        matched[found.start(1) :].split()[0].lower() if matched[found.start(1) :].split() else host
    )
    if "https://" not in matched.lower() or _IP.match(host):
        return None
    for known in (str(h).lower() for h in hosts):
        if "/" in known and where.startswith(known):
            return known.rstrip("/")
        if "/" not in known and (host == known or host.endswith("." + known)):
            return host
    return None


def _layer_rules(rules: RuleSet) -> list[Rule]:
    return [r for r in rules.rules if not r.builtin and r.category in TRUST]


def _scan_layers(
    rules: RuleSet,
    kind: FileKind,
    file: str,
    layers: list[decode.Layer],
    original: Text,
    regions: dict[int, str],
) -> list[Finding]:
    out: list[Finding] = []
    targets = _layer_rules(rules)
    text_rule = rules.builtin("encoded-text")
    for layer in layers:
        lowered = layer.text.lower()
        raw = original.line(layer.line) if layer.line <= len(original.starts) else ""
        region = regions.get(layer.line, "")
        lowered_why = (
            lowering(raw, layer.start, layer.start + 1, "", kind) if kind == "doc" else None
        )
        for rule in targets:
            if rule.options.get("needs_layer") or not rule.wanted(lowered):
                continue
            for pattern in rule.patterns:
                match = pattern.search(layer.text)
                if match is None:
                    continue
                severity: Severity = "medium" if lowered_why else "high"
                reason = f"decoded from {layer.kind}"
                if lowered_why:
                    reason += f"; {lowered_why}: lowered to review"
                shown = f"{layer.kind} -> {excerpt(layer.text, match.start(), match.end())}"
                out.append(
                    Finding(
                        file,
                        layer.line,
                        rule.id,
                        severity,
                        excerpt(shown),
                        rule.message,
                        rule.category,
                        reason,
                        region,
                        layer.kind,
                    )
                )
                break
        if len(layer.text.split()) >= 4 and not layer.kind.startswith(("percent", "html")):
            severity = "high" if region in hidden.HIDDEN else text_rule.severity
            shown = f"{layer.kind} -> {layer.text}"
            out.append(
                Finding(
                    file,
                    layer.line,
                    text_rule.id,
                    severity,
                    excerpt(shown),
                    text_rule.message,
                    text_rule.category,
                    f"decoded from {layer.kind}",
                    region,
                    layer.kind,
                )
            )
    if layers:
        out.extend(_follow_orders(rules, kind, file, original, regions))
    return out


def _follow_orders(
    rules: RuleSet, kind: FileKind, file: str, original: Text, regions: dict[int, str]
) -> list[Finding]:
    """Rules that only matter next to an encoded layer ("decode this and follow it")."""
    gated = [r for r in rules.content_rules(kind) if r.options.get("needs_layer")]
    view = views(original.text)
    found = _scan_views(gated, kind, view, original, regions, "other")
    return [f for _rule, f in found]


#: the rot13 view is read when the text names the cipher (a reader must be told to decode it)
ROT13_HINTS = ("rot13", "rot-13", "rot_13", "rot 13", "caesar", "cesar", "cäsar", "césar")


def _scan_rot13(
    rules: RuleSet, kind: FileKind, view: Views, original: Text, regions: dict[int, str]
) -> list[Finding]:
    low = view.plain.lower()
    if not any(hint in low for hint in ROT13_HINTS):
        return []
    rotated = decode.rot13(view.plain)
    phrase_rules = [
        r
        for r in rules.rules
        if not r.builtin and r.category in ("prompt-injection", "exfiltration") and kind in r.files
    ]
    lowered = rotated.lower()
    phrase_rules = [r for r in phrase_rules if r.keywords and r.wanted(lowered)]
    if not phrase_rules:
        return []
    body = Text(rotated)
    out = []
    for rule in phrase_rules:
        for pattern in rule.patterns:
            for match in pattern.finditer(rotated):
                number = body.line_no(match.start())
                shown = f"rot13 -> {excerpt(body.line(number))}"
                out.append(
                    Finding(
                        "",
                        number,
                        rule.id,
                        "high",
                        excerpt(shown),
                        rule.message,
                        rule.category,
                        "decoded from rot13",
                        regions.get(number, ""),
                        "rot13",
                    )
                )
    return out


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
