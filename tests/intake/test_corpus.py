"""The corpus behind the trust rules (issue 13): every hostile skill is caught, no honest one rejected.

`corpus/hostile/<technique>/` holds one attack technique (or combination) per folder, written by
someone who has read `rules.yaml`; `corpus/benign/<kind>/` holds honest skills of the kinds vendors
and marketplaces publish. A regression in either direction turns this file red.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import pytest

from orkestra.intake.evaluate import Candidate, Options, evaluate_tree
from orkestra.intake.scan import TRUST

CORPUS = Path(__file__).parent / "corpus"
OPTIONS = Options(today=dt.date(2026, 12, 2))


def _run(group: str) -> dict[str, Candidate]:
    root = CORPUS / group
    return {c.folder.name: c for c in evaluate_tree(root, root, [], OPTIONS)}


@pytest.fixture(scope="module")
def hostile() -> dict[str, Candidate]:
    return _run("hostile")


@pytest.fixture(scope="module")
def benign() -> dict[str, Candidate]:
    return _run("benign")


def test_corpus_size(hostile: dict[str, Candidate], benign: dict[str, Candidate]) -> None:
    assert len(hostile) >= 40
    assert len(benign) >= 30


def test_no_hostile_skill_is_adopted_and_95_percent_are_rejected(
    hostile: dict[str, Candidate],
) -> None:
    adopted = [name for name, c in hostile.items() if c.verdict == "adopt"]
    assert adopted == []
    rejected = sum(1 for c in hostile.values() if c.verdict == "reject")
    assert rejected / len(hostile) >= 0.95, {n: c.verdict for n, c in hostile.items()}


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "hostile").iterdir()))
def test_each_hostile_skill_has_a_trust_finding_that_decides(
    hostile: dict[str, Candidate], name: str
) -> None:
    candidate = hostile[name]
    trust = [f for f in candidate.findings if f.category in TRUST and f.severity != "low"]
    assert trust, f"{name}: no trust finding"
    # the skill is well formed, so the trust review alone is what stops it
    assert candidate.criteria["well_structured"].passed, candidate.criteria["well_structured"]
    assert candidate.to_dict()["deciding"], candidate.reasons


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "benign").iterdir()))
def test_no_benign_skill_is_rejected(benign: dict[str, Candidate], name: str) -> None:
    candidate = benign[name]
    assert candidate.verdict != "reject", candidate.reasons
    assert not [f for f in candidate.findings if f.severity == "high"]


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        ("injection-de", "de"),
        ("injection-fr", "fr"),
        ("injection-es-description", "es"),
        ("injection-pt", "pt"),
        ("injection-it", "it"),
        ("injection-ru", "ru"),
        ("injection-zh", "zh"),
        ("injection-ja", "ja"),
        ("injection-ko", "ko"),
        ("injection-nl", "nl"),
    ],
)
def test_injection_in_each_language_is_rejected_by_its_phrase(
    hostile: dict[str, Candidate], name: str, lang: str
) -> None:
    candidate = hostile[name]
    assert candidate.verdict == "reject"
    reasons = [f.reason for f in candidate.findings if f.category == "prompt-injection"]
    assert any(f"phrase in '{lang}'" in r for r in reasons), reasons


def test_english_injection_is_rejected(hostile: dict[str, Candidate]) -> None:
    rules = {f.rule for f in hostile["injection-en"].findings if f.severity == "high"}
    assert "ignore-instructions" in rules


def _high(candidate: Candidate) -> dict[str, str]:
    return {f.rule: f.reason for f in candidate.findings if f.severity == "high"}


def test_what_got_through_before_is_rejected_by_the_right_rule(
    hostile: dict[str, Candidate],
) -> None:
    german = _high(hostile["injection-de"])
    assert {"ignore-instructions", "conceal-from-user", "secret-exfiltration-instruction"} <= set(
        german
    )
    spanish = hostile["injection-es-description"].findings
    assert any(f.line == 3 and f.rule == "ignore-instructions" for f in spanish)  # description
    b64 = hostile["base64-decode-follow"].findings
    assert any(f.layer == "base64" and f.severity == "high" for f in b64)
    assert "decode-and-follow" in _high(hostile["base64-decode-follow"])
    split = _high(hostile["zero-width-single"])
    assert "zero-width-in-word" in split
    assert "invisible" in split["ignore-instructions"]
    assert "look-alike" in _high(hostile["cyrillic-homoglyph"])["ignore-instructions"]
    rot13 = _high(hostile["py-getattr-rot13"])
    assert {"hidden-call", "decode-and-execute"} <= set(rot13)
    comment = [f for f in hostile["html-comment-authorized-keys"].findings if f.severity == "high"]
    assert {f.region for f in comment} == {"html-comment"}


def test_encoded_and_hidden_layers(hostile: dict[str, Candidate]) -> None:
    layers = {
        name: {f.layer for f in hostile[name].findings if f.layer}
        for name in (
            "hex-encoded-injection",
            "percent-encoded-injection",
            "html-entities-injection",
            "nested-base64-hex",
            "rot13-doc",
        )
    }
    assert "hex" in layers["hex-encoded-injection"]
    assert "percent" in layers["percent-encoded-injection"]
    assert "html-entities" in layers["html-entities-injection"]
    assert "base64>hex" in layers["nested-base64-hex"]
    assert "rot13" in layers["rot13-doc"]
    regions = {
        name: {f.region for f in hostile[name].findings if f.severity == "high"}
        for name in ("link-reference-definition", "image-alt-text", "details-cue-evasion")
    }
    assert regions["link-reference-definition"] == {"link-reference"}
    assert regions["image-alt-text"] == {"alt-text"}
    assert regions["details-cue-evasion"] == {"details"}


def test_an_official_installer_with_another_signal_is_rejected(
    hostile: dict[str, Candidate], benign: dict[str, Candidate]
) -> None:
    alone = benign["installer-docs-uv"]
    assert alone.verdict == "review"
    pipe = next(f for f in alone.findings if f.rule == "remote-code-pipe")
    assert pipe.severity == "medium" and "official installer from astral.sh" in pipe.reason
    combined = hostile["official-installer-plus-blob"]
    assert combined.verdict == "reject"
    assert any("combined with encoded-text" in r for r in combined.reasons), combined.reasons
    assert (
        _high(hostile["curl-pipe-unknown"])["remote-code-pipe"] == "unknown or unverifiable source"
    )


def test_what_was_wrongly_rejected_before(benign: dict[str, Candidate]) -> None:
    migration = benign["vendor-api-migration"]
    quoted = [f for f in migration.findings if f.rule == "ignore-instructions"]
    assert quoted and all(f.severity == "medium" and "lowered" in f.reason for f in quoted)
    audit = benign["security-audit"]
    assert {f.severity for f in audit.findings} <= {"medium", "low"}
    assert benign["i18n-rtl"].verdict == "adopt"
    assert not [f for f in benign["changelog-jinja"].findings if f.rule == "link-outside"]
    assert benign["sibling-link"].verdict == "adopt"
    teacher = benign["prompt-writing-teacher"]
    assert teacher.verdict == "review"
    assert all("quoted" in f.reason for f in teacher.findings if f.category == "prompt-injection")


def test_every_finding_says_where_and_why(
    hostile: dict[str, Candidate], benign: dict[str, Candidate]
) -> None:
    for candidate in [*hostile.values(), *benign.values()]:
        for finding in candidate.findings:
            row = finding.to_dict()
            assert finding.format().startswith(f"{finding.file}:{finding.line}: {finding.rule}: ")
            assert row["why"] and "\n" not in row["why"]


def test_the_cli_report_names_the_deciding_findings_and_why(cli: Any, project: Path) -> None:
    for group, name in (("hostile", "injection-de"), ("benign", "installer-docs-uv")):
        shutil.copytree(CORPUS / group / name, project / "vendor" / "acme" / name)
    result = cli("skills", "intake", "vendor/acme", cwd=project)
    assert result.exit_code == 0, result.stderr
    rows = {c["name"]: c for c in result.json()["candidates"]}
    german = rows["injection-de"]
    assert german["verdict"] == "reject"
    assert any(": ignore-instructions: " in line for line in german["deciding"])
    assert all(line.startswith("vendor/acme/injection-de/") for line in german["deciding"])
    uv = rows["installer-docs-uv"]
    assert uv["verdict"] == "review"
    pipe = next(f for f in uv["findings"] if f["rule"] == "remote-code-pipe")
    assert pipe["why"].endswith("(official installer from astral.sh: held for review)")
    text = cli("skills", "intake", "vendor/acme", "--format", "text", cwd=project)
    assert "    why: " in text.stdout
