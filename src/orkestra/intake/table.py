"""People's view of an intake report: one row per candidate, findings as `file:line` lines."""

from __future__ import annotations

from typing import Any


def rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """A flat row per candidate for `--format table`."""
    out = []
    for c in report["candidates"]:
        failed = [k for k, v in c["criteria"].items() if not v["passed"]]
        out.append(
            {
                "name": c["name"],
                "verdict": c["verdict"],
                "depth": c["depth"]["level"],
                "findings": len(c["findings"]),
                "rules": sorted({f["rule"] for f in c["findings"]}),
                "failed criteria": failed,
                "path": c["path"],
            }
        )
    return out


def findings_text(report: dict[str, Any]) -> str:
    """Every finding as `file:line: severity rule: excerpt`."""
    lines = [
        f"{f['file']}:{f['line']}: {f['severity']} {f['rule']}: {f['excerpt']}"
        for c in report["candidates"]
        for f in c["findings"]
    ]
    return "\n".join(lines)


def text_report(report: dict[str, Any]) -> str:
    """Plain lines: one verdict line per candidate, its findings, then the summary."""
    lines = []
    for c in report["candidates"]:
        lines.append(f"{c['path']}: {c['verdict']} (depth {c['depth']['level']})")
        for f in c["findings"]:
            lines.append(f"  {f['file']}:{f['line']}: {f['severity']} {f['rule']}: {f['excerpt']}")
            if f.get("why"):
                lines.append(f"    why: {f['why']}")
        if c["verdict"] != "adopt":
            lines.extend(f"  reason: {r}" for r in c["reasons"])
    s = report["summary"]
    lines.append(
        f"{s['candidates']} candidates: {s['adopted']} adopted, {s['review']} review, "
        f"{s['rejected']} rejected"
    )
    return "\n".join(lines)
