"""The structural script audit: Python by its AST, shell by its tokens (JS by rules.yaml patterns).

Hits become findings with the severity and message of their rule in `rules.yaml`; the
`remote-code-pipe` and `download-then-run` hits are lowered for an official installer host.
"""

from __future__ import annotations

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
    else:
        return []
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
