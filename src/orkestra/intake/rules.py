"""The trust rules: loaded from `rules.yaml` (one data file) and applied to text line by line."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from orkestra.core import yamlio
from orkestra.core.errors import InputError
from orkestra.intake.literals import required

Severity = Literal["high", "medium", "low"]
FileKind = Literal["doc", "script"]
SEVERITIES: tuple[Severity, ...] = ("high", "medium", "low")
#: what each severity does to the verdict
EFFECT = {"high": "reject", "medium": "review", "low": "note"}
RULES_FILE = Path(__file__).with_name("rules.yaml")
EXCERPT_MAX = 160


@dataclass(frozen=True)
class Finding:
    """One trust-review result: `file:line: rule: excerpt` with a severity."""

    file: str
    line: int
    rule: str
    severity: Severity
    excerpt: str
    message: str
    category: str = ""
    #: why the severity is what it is when context changed it (quoted, hidden, decoded, ...)
    reason: str = ""
    #: where the text sat: "" (visible), html-comment, link-reference, alt-text, details
    region: str = ""
    #: the encoded layer it was found in: "" or a chain such as "base64" or "base64>hex"
    layer: str = ""

    def format(self) -> str:
        return f"{self.file}:{self.line}: {self.rule}: {self.excerpt}"

    @property
    def why(self) -> str:
        """One line: why this finding matters, and what context changed its weight."""
        return f"{self.message} ({self.reason})" if self.reason else self.message

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "severity": self.severity,
            "category": self.category,
            "excerpt": self.excerpt,
            "message": self.message,
            "why": self.why,
            "reason": self.reason,
            "region": self.region,
            "layer": self.layer,
        }


@dataclass(frozen=True)
class Rule:
    """A content rule (regexes) or a structural one (`builtin`, implemented in code)."""

    id: str
    severity: Severity
    message: str
    category: str = ""
    files: tuple[FileKind, ...] = ("doc", "script")
    patterns: tuple[re.Pattern[str], ...] = ()
    #: pattern index -> languages it is limited to (python, shell, js); absent = every file
    langs: dict[int, frozenset[str]] = field(default_factory=dict)
    all_of: tuple[re.Pattern[str], ...] = ()
    downgrade_when: re.Pattern[str] | None = None
    downgrade_to: Severity = "medium"
    builtin: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    #: lower-case strings, one of which must occur in the text before any pattern runs
    keywords: tuple[str, ...] = ()
    #: quoted, negated or example prose lowers the finding (docs), a string literal (scripts)
    context: bool = False
    #: pattern index -> natural language of that phrase (en, de, ...), named in the reason
    phrase_langs: dict[int, str] = field(default_factory=dict)
    #: per pattern: literals one of which every match contains (None: always run)
    pattern_keys: tuple[frozenset[str] | None, ...] = ()

    def wanted(self, lowered: str | Lowered) -> bool:
        """The keyword pre-filter: can any pattern of this rule match `lowered` at all?"""
        if not self.keywords:
            return True
        if isinstance(lowered, str):
            return any(k in lowered for k in self.keywords)
        return lowered.any(self.keywords)

    def may_match(self, index: int, lowered: Lowered) -> bool:
        """The per-pattern pre-filter (literals found in the pattern itself)."""
        keys = self.pattern_keys[index] if index < len(self.pattern_keys) else None
        return keys is None or lowered.any(keys)


#: the characters outside ASCII a case-insensitive pattern matches to an ASCII letter
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def folds_to_ascii(text: str) -> bool:
    """Does `text` hold a character outside ASCII that a case-insensitive pattern matches to an
    ASCII letter (so a lower-cased search for an ASCII literal could miss a match)?"""
    return not text.isascii() and any(char in text for char in _FOLDS_TO_ASCII)


class Lowered:
    """A file's lower-cased text with memoised substring tests (rules share keywords)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._seen: dict[str, bool] = {}
        self._chars: frozenset[str] | None = frozenset() if text.isascii() else None
        self._lines: dict[str, set[int]] = {}
        self._aligned: bool | None = None
        #: the distinct white-space-separated words, one a line (built on first use)
        self._words: str | None = None

    def aligned(self, original: str, keys: frozenset[str]) -> bool:
        """Whether a line holding one of `keys` (ASCII literals) in this text is a line holding
        a case-insensitive match of it in `original` (the text before lower-casing): every
        character lower-cases to one (offsets agree) and none outside ASCII matches an ASCII
        letter without ignoring case (dotted/dotless i, long s, Kelvin sign)."""
        if original.isascii():
            return True
        if not all(key.isascii() for key in keys):
            return False
        if self._aligned is None:
            self._aligned = len(self.text) == len(original) and not folds_to_ascii(original)
        return self._aligned

    def lines_with(self, key: str, body: Text) -> set[int]:
        """The numbers of the lines of `body` (this text before lower-casing, same length)
        holding `key`."""
        found = self._lines.get(key)
        if found is None:
            found = self._lines[key] = set()
            if self._seen.get(key, True):
                at = self.text.find(key)
                while at != -1:
                    found.add(body.line_no(at))
                    at = self.text.find(key, at + 1)
        return found

    def any(self, keys: Iterable[str]) -> bool:
        seen = self._seen
        for key in keys:
            hit = seen.get(key)
            if hit is None:
                if not key.isascii():
                    hit = self._has_wide(key)
                elif _spaced(key):
                    hit = key in self.text
                else:  # inside one word: asked of the distinct words (see `_has`)
                    hit = key in (self._words or self._distinct_words())
                seen[key] = hit
            if hit:
                return True
        return False

    def _has(self, key: str) -> bool:
        """`key in text`, asked of the text's distinct words when `key` holds no white space
        (it then sits inside one word; the words, once each, are a fraction of the text)."""
        if _spaced(key):
            return key in self.text
        return key in (self._words or self._distinct_words())

    def _distinct_words(self) -> str:
        if self._words is None:
            self._words = "\n".join(set(self.text.split()))
        return self._words

    def _has_wide(self, key: str) -> bool:
        """A Cyrillic or CJK word cannot be in a text without its letters (a cheap set test)."""
        if self._chars is None:
            self._chars = frozenset(self.text)
        if not all(c in self._chars for c in key if not c.isascii()):
            return False
        return self._has(key)


@cache
def _spaced(key: str) -> bool:
    """Does `key` hold white space (so may span two words of a text)?"""
    return any(char.isspace() for char in key)


@dataclass(frozen=True)
class Portability:
    id: str
    pattern: re.Pattern[str]
    #: lower-case ASCII literals one of which every match contains (None: always run)
    keys: frozenset[str] | None = None

    def may_match(self, text: str, lowered: str) -> bool:
        """Can the pattern match `text` (`lowered` is its lower-case form) at all?"""
        if self.keys is None or folds_to_ascii(text):
            return True
        return any(key in lowered for key in self.keys)


@dataclass(frozen=True)
class RuleSet:
    """Every rule plus the adoption-criteria settings from the same file."""

    rules: tuple[Rule, ...]
    portability: tuple[Portability, ...]
    criteria: dict[str, Any]
    _by_kind: dict[str, list[Rule]] = field(default_factory=dict, compare=False, repr=False)

    def builtin(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)

    def content_rules(self, kind: FileKind) -> list[Rule]:
        """The pattern rules that look at files of this kind (computed once per kind)."""
        found = self._by_kind.get(kind)
        if found is None:
            found = self._by_kind[kind] = [
                r for r in self.rules if not r.builtin and kind in r.files
            ]
        return found


def load_rules(path: Path = RULES_FILE) -> RuleSet:
    """Parse and compile a rules file; errors name the file and line of the bad rule."""
    data = yamlio.load_mapping(path, display=path.name)
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list):
        raise InputError("`rules` must be a list", file=path.name, line=data.line)
    by_id = {r.get("id"): r for r in raw_rules if isinstance(r, dict)}
    rules = []
    for index, raw in enumerate(raw_rules):
        line = yamlio.line_of(data, ("rules", index))
        rules.append(_rule(raw, by_id, path.name, line))
    ids = [r.id for r in rules]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise InputError(f"duplicate rule id(s): {', '.join(dupes)}", file=path.name)
    criteria = dict(data.get("criteria") or {})
    portability = tuple(
        _portability(str(p["id"]), _compile(str(p["pattern"]), False, path.name, None))
        for p in data.get("portability") or []
    )
    return RuleSet(tuple(rules), portability, criteria)


def _portability(check_id: str, pattern: re.Pattern[str]) -> Portability:
    keys = required(pattern.pattern, pattern.flags)
    if keys is not None and not all(key.isascii() for key in keys):
        keys = None
    return Portability(check_id, pattern, keys)


@cache
def default_rules() -> RuleSet:
    """The rules shipped with Orkestra (cached)."""
    return load_rules()


_KNOWN = frozenset(
    {"id", "severity", "message", "category", "files", "patterns", "all_of", "downgrade_when"}
    | {"downgrade_to", "builtin", "case_sensitive", "patterns_of", "official_hosts_of"}
    | {"keywords", "context"}
)


def _rule(raw: Any, by_id: dict[Any, Any], file: str, line: int | None) -> Rule:
    if not isinstance(raw, dict) or not raw.get("id"):
        raise InputError("each rule needs an `id`", file=file, line=line)
    severity = raw.get("severity")
    if severity not in SEVERITIES:
        raise InputError(
            f"rule {raw['id']}: severity must be one of {', '.join(SEVERITIES)}",
            file=file,
            line=line,
        )
    case = bool(raw.get("case_sensitive", False))
    listed = list(raw.get("patterns") or [])
    if raw.get("patterns_of"):
        source = by_id.get(raw["patterns_of"])
        if source is None:
            raise InputError(
                f"rule {raw['id']}: patterns_of names no rule '{raw['patterns_of']}'",
                file=file,
                line=line,
            )
        listed = list(source.get("patterns") or []) + listed
    items = [p if isinstance(p, dict) else {"pattern": p} for p in listed]
    options = {k: v for k, v in raw.items() if k not in _KNOWN}
    if raw.get("official_hosts_of"):
        source = by_id.get(raw["official_hosts_of"])
        if source is None or not source.get("official_hosts"):
            raise InputError(
                f"rule {raw['id']}: official_hosts_of names no rule with official_hosts "
                f"'{raw['official_hosts_of']}'",
                file=file,
                line=line,
            )
        options["official_hosts"] = list(source["official_hosts"]) + list(
            raw.get("official_hosts") or []
        )
    patterns = tuple(_compile(str(p.get("pattern")), case, file, line) for p in items)
    langs = {i: frozenset(p["langs"]) for i, p in enumerate(items) if p.get("langs")}
    builtin = bool(raw.get("builtin", False))
    if not builtin and not patterns:
        raise InputError(
            f"rule {raw['id']}: needs `patterns` or `builtin: true`", file=file, line=line
        )
    downgrade = raw.get("downgrade_when")
    phrase_langs = {i: str(p["lang"]) for i, p in enumerate(items) if p.get("lang")}
    return Rule(
        id=str(raw["id"]),
        severity=severity,
        message=str(raw.get("message", raw["id"])),
        category=str(raw.get("category", "")),
        files=tuple(raw.get("files") or ("doc", "script")),
        patterns=patterns,
        langs=langs,
        all_of=tuple(_compile(p, case, file, line) for p in raw.get("all_of") or []),
        downgrade_when=_compile(downgrade, False, file, line) if downgrade else None,
        downgrade_to=raw.get("downgrade_to", "medium"),
        builtin=builtin,
        options=options,
        keywords=tuple(str(k).lower() for k in raw.get("keywords") or ()),
        context=bool(raw.get("context", downgrade is not None)),
        phrase_langs=phrase_langs,
        pattern_keys=tuple(required(p.pattern, p.flags) for p in patterns),
    )


def _compile(pattern: str, case: bool, file: str, line: int | None) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.MULTILINE | (0 if case else re.IGNORECASE))
    except re.error as exc:
        raise InputError(
            f"bad regular expression {pattern!r}: {exc}", file=file, line=line
        ) from None


class Text:
    """A file's text with fast offset -> line lookup."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        self.starts.extend(m.end() for m in re.finditer("\n", text))

    def line_no(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def line(self, number: int) -> str:
        start = self.starts[number - 1]
        end = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        return self.text[start:end]


def excerpt(line: str, start: int = 0, end: int | None = None) -> str:
    """The matched line, stripped, invisible characters escaped, cut around the match."""
    end = len(line) if end is None else end
    text = line
    if len(text) > EXCERPT_MAX:
        left = max(0, min(start - 40, len(text) - EXCERPT_MAX))
        text = ("…" if left else "") + text[left : left + EXCERPT_MAX] + "…"
    return escape_invisible(text.strip())


def escape_invisible(text: str) -> str:
    """Replace format/control characters by `<U+XXXX>` so excerpts show what is hidden."""
    import unicodedata

    out = []
    for char in text:
        if char != "\t" and unicodedata.category(char) in ("Cf", "Cc", "Co", "Cn"):
            out.append(f"<U+{ord(char):04X}>")
        else:
            out.append(char)
    return "".join(out)


def language(rel: str, text: str) -> str:
    """python, shell, js or other, from the suffix or the shebang line."""
    suffix = Path(rel).suffix.lower()
    first = text.split("\n", 1)[0] if text.startswith("#!") else ""
    if suffix == ".py" or "python" in first:
        return "python"
    if suffix in {".sh", ".bash", ".zsh", ".fish"} or re.search(r"\b(?:ba|z|da|k)?sh\b", first):
        return "shell"
    if suffix in {".js", ".mjs", ".cjs", ".ts", ".tsx"} or "node" in first:
        return "js"
    return "other"
