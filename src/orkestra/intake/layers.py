"""Encoded layers (base64, hex, percent, HTML entities, rot13) scanned by the trust rules."""

from __future__ import annotations

from orkestra.intake import decode, hidden
from orkestra.intake.context import lowering
from orkestra.intake.rules import (
    FileKind,
    Finding,
    Rule,
    RuleSet,
    Severity,
    Text,
    excerpt,
    language,
)
from orkestra.intake.textnorm import Views, views
from orkestra.intake.weigh import TRUST, scan_views


def _layer_rules(rules: RuleSet) -> list[Rule]:
    return [r for r in rules.rules if not r.builtin and r.category in TRUST]


def layer_reading(kind: FileKind, lang: str, text: str) -> tuple[FileKind, str]:
    """The file kind and language a decoded layer is checked as: its own, when it names one with
    a shebang (`#!/bin/sh` decoded from a doc or a Python file is a shell script), else the
    file's it sits in. A layer's text is the file's data, so the file's limits hold; a layer with
    no shebang in a doc is prose, as the doc is (a doc has no language: no pattern limited to one
    applies, exactly as in the doc's own text)."""
    if text.startswith("#!"):
        return "script", language("", text)
    return kind, lang


def scan_layers(
    rules: RuleSet,
    kind: FileKind,
    file: str,
    layers: list[decode.Layer],
    original: Text,
    regions: dict[int, str],
    plain: str | None = None,
    lang: str = "other",
) -> list[Finding]:
    """Trust rules on each decoded layer, within each rule's limits: the file kinds it looks at
    (`files`) and the languages each pattern is limited to (`langs`), read for the layer as
    `layer_reading` says. A rule's `all_of` condition holds when the file's text
    (`plain`, its normalised reading) or any of its layers meets it: a layer is part of the file,
    so a decoder or a network call hidden in one still counts, but a layer alone does not stand
    in for the condition (`.exec(line)` in a minified file's entity-decoded line is no
    decode-then-exec without a decoder anywhere)."""
    out: list[Finding] = []
    if not layers:
        return out
    readings = [original.text if plain is None else plain, *(layer.text for layer in layers)]
    targets = [
        rule
        for rule in _layer_rules(rules)
        if all(any(p.search(text) for text in readings) for p in rule.all_of)
    ]
    text_rule = rules.builtin("encoded-text")
    for layer in layers:
        lowered = layer.text.lower()
        raw = original.line(layer.line) if layer.line <= len(original.starts) else ""
        region = regions.get(layer.line, "")
        lowered_why = (
            lowering(raw, layer.start, layer.start + 1, "", kind) if kind == "doc" else None
        )
        layer_kind, layer_lang = layer_reading(kind, lang, layer.text)
        for rule in targets:
            if rule.options.get("needs_layer") or layer_kind not in rule.files:
                continue
            if not rule.wanted(lowered):
                continue
            for index, pattern in enumerate(rule.patterns):
                if index in rule.langs and layer_lang not in rule.langs[index]:
                    continue
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
        out.extend(_follow_orders(rules, kind, file, original, regions, lang))
    return out


def _follow_orders(
    rules: RuleSet,
    kind: FileKind,
    file: str,
    original: Text,
    regions: dict[int, str],
    lang: str,
) -> list[Finding]:
    """Rules that only matter next to an encoded layer ("decode this and follow it")."""
    gated = [r for r in rules.content_rules(kind) if r.options.get("needs_layer")]
    view = views(original.text)
    found = scan_views(gated, kind, view, original, regions, lang)
    return [f for _rule, f in found]


#: the rot13 view is read when the text names the cipher (a reader must be told to decode it)
ROT13_HINTS = ("rot13", "rot-13", "rot_13", "rot 13", "caesar", "cesar", "cäsar", "césar")


def scan_rot13(
    rules: RuleSet, kind: FileKind, view: Views, regions: dict[int, str], lang: str = "other"
) -> list[Finding]:
    """Phrase rules on the rot13 reading, when the text names the cipher (within each pattern's
    language limits, as in the file's own text)."""
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
        for index, pattern in enumerate(rule.patterns):
            if index in rule.langs and lang not in rule.langs[index]:
                continue
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
