"""Is an instruction-like phrase said to the model, or quoted, negated or shown as an example?

A skill that teaches prompt safety quotes the phrases it warns about ("avoid wording such as
`disregard the previous instruction`"); an attack says them. The first is a finding a person reads
(review), the second a reject. Only the line itself and the line before it are looked at.
"""

from __future__ import annotations

import re

#: words that introduce an example, a warning or a negation before the phrase (several languages)
_CUES = re.compile(
    r"(?:\bavoid\w*|\bsuch as\b|\be\.\s?g\.|\bi\.\s?e\.|\bfor (?:example|instance)\b|\blike:|"
    r"\b(?:phrases?|wording|language|text|strings?|lines?|prompts?|instructions?|commands?)"
    r"\s+(?:like|such as)\b|\bexamples? of\b|\bdetect\w*|\bflag\w*|\blook(?:s|ing)? for\b|"
    r"\bwatch(?:ing)? for\b|\bbeware\b|\bwarn\w*|\battack\w*|\binjection\w*|\bmalicious\b|"
    r"\bsuspicious\b|\bred flags?\b|\bhostile\b|\bnever (?:use|write|include|say|add|run)\b|"
    r"\b(?:do not|don't) (?:use|write|include|say|add|run)\b|\binstead of\b|\brather than\b|"
    r"\bpatterns?\b|\bexfiltrat\w*|\bdangerous\b|\bunsafe\b|\binsecure\b|\bscan\w*|"
    r"\brefus\w*|\bdeny\b|\bblock\w*|\bforbid\w*|\bprohibit\w*|\bdeletes? everything\b|"
    r"\bz\.\s?b\.|\bbeispiel\w*|\bvermeide\w*|\bpar exemple\b|\bévite\w*|\bpor ejemplo\b|"
    r"\bevit[ae]\w*|\bad esempio\b|\bpor exemplo\b|\bнапример\b|\bизбега\w*|例如|避免|例えば|"
    r"避け|예를 들어|피하)",
    re.IGNORECASE,
)
#: words that address the model: an "example" that then tells the assistant what to do is an order
ADDRESSED = re.compile(
    r"\b(?:assistant|claude|the (?:model|ai|agent)|you (?:must|should|will|need to)|must do|"
    r"before (?:every|each|any|answering|responding|you)|from now on|always)\b",
    re.IGNORECASE,
)
#: how comments and docstrings start: prose in a script, never "just a string"
_PROSE_IN_CODE = ('"""', "'''", "#", "//", "/*", "*", "--", 'r"""', "r'''")
_PAIRS = (("`", "`"), ('"', '"'), ("“", "”"), ("„", "“"), ("«", "»"), ("「", "」"), ("『", "』"))


def quoted(line: str, start: int, end: int, code: bool = False) -> bool:
    """Does the span sit between a pair of quotes (or backticks, unless `code`) on its line?

    For commands (`code`), backticks are how markdown shows a command, not a quotation.
    """
    for left, right in _PAIRS[1:] if code else _PAIRS:
        before = line[:start]
        if left == right:
            if before.count(left) % 2 == 1 and right in line[end:]:
                return not (code and _runs_its_argument(before[: before.rfind(left)]))
        elif before.rfind(left) > before.rfind(right) and right in line[end:]:
            return not (code and _runs_its_argument(before[: before.rfind(left)]))
    head = line[:start].rstrip()
    # 'single quotes' only when opened at a word boundary (apostrophes are everywhere)
    if head.endswith(("'", "‘")) and line[end:].lstrip().startswith(("'", "’")):
        return not (code and _runs_its_argument(head[:-1]))
    return False


#: quotes opened after these are the argument a shell or interpreter runs, not a quotation
_RUNS_ARGUMENT = re.compile(
    # (`-c` may be an item of an argument list: `"args": ["-c", "…"]`, `['bash', '-c', '…']`)
    r"(?:(?:(?<!\S)|(?<=[\"']))-(?:c|e|Command|EncodedCommand|-command|-eval)(?:[\"']\s*,)?"
    r"|\b(?:eval|iex|Invoke-Expression"
    r"|do\s+shell\s+script|system|exec|popen))\s*\(?\s*$"
    # a hook's or a CI step's command (`"command": "…"`, `run: "…"`) is what runs
    r"|\b(?:command|cmd|run|script)[\"']?\s*[:=]\s*$",
    re.IGNORECASE,
)


def _runs_its_argument(head: str) -> bool:
    """`bash -c "…"`, `powershell -Command "…"`, `eval "…"`: the quotes are shell syntax."""
    return _RUNS_ARGUMENT.search(head) is not None


def cue(line: str, start: int, previous: str) -> str | None:
    """The example/negation cue before `start` (same line, or a line introducing a list)."""
    found = _CUES.search(line[:start])
    if found is None and previous.rstrip().endswith(":"):
        found = _CUES.search(previous)
    return found.group(0) if found else None


def lowering(
    line: str, start: int, end: int, previous: str, kind: str, code: bool = False
) -> str | None:
    """Why the phrase is not an instruction (a reason to lower it), or None: it is said.

    `code`: the match is a command (backticks do not quote it). A cue word does not lower a line
    that also addresses the model ("example of what the assistant must do: ...").
    """
    if kind == "script" and line.lstrip().startswith(_PROSE_IN_CODE):
        return None  # a comment or docstring is prose the model reads, not data
    if quoted(line, start, end, code):
        return (
            "a string in code (data, not an instruction)"
            if kind == "script"
            else ("quoted in prose")
        )
    if kind == "doc":
        # a command may be followed by its warning ("`rm -rf ~` deletes everything: refuse")
        around = line[:start] + " " + line[end:]
        word = cue(around, len(around), previous) if code else cue(line, start, previous)
        if word and not ADDRESSED.search(line):
            return f"offered as an example or warning ({word!r})"
    return None
