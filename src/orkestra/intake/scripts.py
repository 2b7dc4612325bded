"""The structural script audit: Python by its AST, shell by its tokens (JS by rules.yaml patterns).

Hits become findings with the severity and message of their rule in `rules.yaml`; the
`remote-code-pipe` and `download-then-run` hits are lowered for an official installer host.
"""

from __future__ import annotations

import re
from dataclasses import replace

from orkestra.intake.pyaudit import Hit, audit_python
from orkestra.intake.rules import Finding, RuleSet, Severity, Text, excerpt
from orkestra.intake.shaudit import audit_shell
from orkestra.intake.weigh import official_host


def audit_script(rules: RuleSet, file: str, text: str, lang: str) -> list[Finding]:
    """Findings from the structure of a Python or shell script (nothing is run)."""
    hits: list[Hit] | None
    if lang == "python":
        hits = audit_python(text)
        if hits is None:
            hits = [
                Hit("unparsable-script", 1, "Python that does not parse: audited by patterns only")
            ]
    elif lang == "shell":
        hits = audit_shell(text)
    elif lang != "js":
        return []
    else:
        hits = []
    if lang in ("python", "js", "shell"):
        from orkestra.intake.credflow import credential_flow

        hits += credential_flow(text, lang)
    found = _findings(rules, file, text, hits)
    if lang == "shell":
        found += sources_through_variables(rules, file, text)
    return found


#: a URL kept in a shell variable (`MIRROR=http://…`), then handed to a command as `"$MIRROR"`
_URL_VARIABLE = re.compile(
    r"^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)=[\"']?(https?://[^\s\"']+)[\"']?[ \t]*(?:#.*)?$",
    re.M,
)
_USE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*)\b)")
_SOURCE_RULES = frozenset({"package-source-hijack", "package-source-redirect"})


def sources_through_variables(rules: RuleSet, file: str, text: str) -> list[Finding]:
    """Package sources handed over in a variable holding a URL (`MIRROR=http://…` then
    `pip install --index-url "$MIRROR"`): judged as if the URL were written there."""
    urls = {m.group(1): m.group(2) for m in _URL_VARIABLE.finditer(text)}
    if not urls:
        return []
    expanded = _USE.sub(lambda m: urls.get(m.group(1) or m.group(2), m.group(0)), text)
    if expanded == text:
        return []
    from orkestra.intake.scan import scan_text

    found = []
    for finding in scan_text(rules, "script", file, expanded, "shell"):
        if finding.rule in _SOURCE_RULES and finding.excerpt not in text:
            why = "the URL is kept in a variable first"
            found.append(replace(finding, reason=f"{finding.reason}; {why}".lstrip("; ")))
    return found


#: a fenced block a reader runs in a shell (```bash, ```sh, ```console, or no language)
_FENCE = re.compile(
    r"^ {0,3}(`{3,}|~{3,})\s*(bash|sh|shell|zsh|console|terminal|shell-session)?\s*$"
)
_PROMPT = re.compile(r"^\s*(?:\$|#|>|%)\s+")
#: what a shell block in a doc is judged for: code it fetches or decodes and runs at once; a file
#: downloaded then run is held for review only (install steps download and run tools)
_DOC_RULES = frozenset({"remote-code-pipe", "decode-and-execute", "download-then-run"})
_DOC_AT_MOST_REVIEW = frozenset({"download-then-run"})
_FETCHES = re.compile(
    r"curl|wget|aria2c|\biwr\b|\birm\b|invoke-webrequest|base64|xxd|openssl", re.I
)


def audit_doc_shell(rules: RuleSet, file: str, text: str) -> list[Finding]:
    """Findings in a doc's shell code blocks read as the script they are (`P=$(curl …)` then
    `eval "$P"` on the next line is remote code as in a script); only remote-code hits count
    here, a doc's install steps being no script to audit for everything else."""
    lines = text.split("\n")
    shell = [""] * len(lines)
    fence: str | None = None
    for number, line in enumerate(lines):
        match = _FENCE.match(line)
        if fence is None:
            if match and (match.group(2) or match.group(1)):
                fence = match.group(1) if match.group(2) or _bare(lines, number) else None
            continue
        if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
            fence = None
            continue
        shell[number] = _PROMPT.sub("", line)
    code = "\n".join(shell)
    sources = sources_through_variables(rules, file, code) if "://" in code else []
    if not _FETCHES.search(code):
        return sources  # no download, no decoding: nothing more here (the common case)
    hits = [h for h in audit_shell(code) if h.rule in _DOC_RULES]
    if "://" in code:  # a token sent elsewhere over continued lines or through a variable
        from orkestra.intake.credflow import credential_flow

        hits += credential_flow(code, "shell")
    return sources + [
        replace(f, severity="medium")
        if f.rule in _DOC_AT_MOST_REVIEW and f.severity == "high"
        else f
        for f in _findings(rules, file, text, hits)
    ]


def _bare(lines: list[str], start: int) -> bool:
    """An unlabelled fence holds shell when its first line looks like a command prompt, a
    variable set from a command, or a download or shell command."""
    following = next((line for line in lines[start + 1 :] if line.strip()), "")
    return bool(
        _PROMPT.match(following)
        or re.match(r"^\s*[A-Za-z_]\w*=\$\(", following)
        or _COMMAND.match(following)
    )


#: an unlabelled fence starting with one of these commands is a shell block
_COMMAND = re.compile(r"^\s*(?:sudo\s+)?(?:curl|wget|bash|sh|chmod|export|cd|mkdir|iwr|irm)\s")


def _findings(rules: RuleSet, file: str, text: str, hits: list[Hit]) -> list[Finding]:
    body = Text(text)
    out = []
    for hit in hits:
        rule = rules.builtin(hit.rule)
        number = min(hit.line, len(body.starts))
        severity: Severity = rule.severity
        reason = hit.detail
        hosts = rule.options.get("official_hosts")
        if hosts and severity == "high":
            host = official_host(body.line(number), hosts)
            if host:
                severity, reason = rule.downgrade_to, f"{reason}; official installer from {host}"
        out.append(
            Finding(
                file,
                number,
                rule.id,
                severity,
                excerpt(body.line(number)),
                rule.message,
                rule.category,
                reason,
            )
        )
    return out
