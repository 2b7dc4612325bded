"""The fixture tree: benign skills pass the trust review, each hostile one is caught by its rule."""

from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from orkestra.intake import spec
from orkestra.intake.evaluate import Candidate, Options, evaluate_tree
from orkestra.intake.walker import find_candidates

FIXTURES = Path(__file__).parent / "fixtures"

BENIGN = {
    "changelog-writer": "adopt",
    "csv-profiler": "adopt",
    "pdf-text-extract": "adopt",
    "pdf-toolkit": "review",  # `pip install pytesseract` without a pinned version
    "weather-report": "review",  # reads .env and calls its API: a person looks, not a reject
    "commit-helper": "review",  # Claude Code extension key `argument-hint`
    "injection-reviewer": "review",  # quotes injection phrases while teaching to flag them
    "ripgrep-setup": "review",  # documented download of a release binary
}
HOSTILE = {
    "tag-smuggler": "invisible-tag-characters",
    "poisoned-reference": "ignore-instructions",
    "curl-setup": "remote-code-pipe",
    "ssh-stealer": "secret-exfiltration",
    "blob-exec": "decode-and-execute",
    "conceal": "conceal-from-user",
    "priority-override": "priority-claim",
    "bidi-trojan": "bidi-override",
    "zero-width": "zero-width-run",
    "outside-link": "link-outside",
}


def _run(path: Path) -> dict[str, Candidate]:
    options = Options(today=__import__("datetime").date(2026, 12, 2))
    return {c.name: c for c in evaluate_tree(path, path, [], options)}


@pytest.fixture(scope="module")
def benign() -> dict[str, Candidate]:
    return _run(FIXTURES / "benign")


@pytest.fixture(scope="module")
def hostile() -> dict[str, Candidate]:
    return _run(FIXTURES / "hostile")


@pytest.mark.parametrize("name", sorted(BENIGN))
def test_benign_skills_pass_the_trust_review(benign: dict[str, Candidate], name: str) -> None:
    candidate = benign[name]
    assert candidate.verdict == BENIGN[name], candidate.reasons
    assert not [f for f in candidate.findings if f.severity == "high"]


def test_benign_adopted_ones_have_no_findings(benign: dict[str, Candidate]) -> None:
    for name, verdict in BENIGN.items():
        if verdict == "adopt":
            assert benign[name].findings == []
            assert all(c.passed for c in benign[name].criteria.values())


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_skill_is_rejected_by_its_rule(hostile: dict[str, Candidate], name: str) -> None:
    candidate = hostile[name]
    assert candidate.verdict == "reject"
    high = {f.rule for f in candidate.findings if f.severity == "high"}
    assert HOSTILE[name] in high
    assert any(HOSTILE[name] in reason for reason in candidate.reasons)


def test_tag_characters_reported_by_code_point(hostile: dict[str, Candidate]) -> None:
    finding = next(
        f for f in hostile["tag-smuggler"].findings if f.rule == "invisible-tag-characters"
    )
    assert finding.file == "tag-smuggler/SKILL.md" and finding.line == 3
    assert finding.excerpt.startswith("U+E0069 U+E0067 U+E006E")
    assert "spelling 'ignore all previous instructions" in finding.excerpt


def test_bidi_reported_by_code_point(hostile: dict[str, Candidate]) -> None:
    finding = next(f for f in hostile["bidi-trojan"].findings if f.rule == "bidi-override")
    assert "U+202E" in finding.excerpt and finding.file.endswith("scripts/check.py")


def test_symlink_to_secret_and_binary_made_at_test_time(tmp_path: Path) -> None:
    base = tmp_path / "vendor"
    for name in ("symlink-escape", "binary-bundle"):
        shutil.copytree(FIXTURES / "benign" / "csv-profiler", base / name)
        text = (base / name / "SKILL.md").read_text(encoding="utf-8")
        (base / name / "SKILL.md").write_text(text.replace("csv-profiler", name), encoding="utf-8")
    (tmp_path / "secret").write_text("token=1\n", encoding="utf-8")
    (base / "symlink-escape" / "data").symlink_to("../../secret")
    (base / "binary-bundle" / "bin").mkdir()
    (base / "binary-bundle" / "bin" / "helper").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(200))
    found = _run(base)
    assert found["symlink-escape"].verdict == "reject"
    assert [f.format() for f in found["symlink-escape"].findings] == [
        "symlink-escape/data:1: symlink-outside: data -> ../../secret"
    ]
    assert found["binary-bundle"].verdict == "review"
    assert [f.rule for f in found["binary-bundle"].findings] == ["bundled-binary"]


def test_a_script_that_writes_a_marker_is_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "marker-writer"
    shutil.copytree(FIXTURES / "hostile" / "marker-writer", target)
    started: list[list[str]] = []
    real = subprocess.Popen

    def spy(args: list[str], *a: object, **k: object) -> subprocess.Popen[bytes]:
        started.append(list(args))
        return real(args, *a, **k)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(subprocess, "Popen", spy)
    found = _run(target)
    assert found["marker-writer"].verdict == "review"
    assert "script-file-write" in {f.rule for f in found["marker-writer"].findings}
    assert not list(tmp_path.rglob("RAN-MARKER"))
    assert all(cmd[0] == "git" for cmd in started)


def test_reference_validator_agrees_on_every_candidate() -> None:
    exe = shutil.which("agentskills")
    if exe is None:
        pytest.skip("agentskills (PyPI skills-ref) is not installed")
    folders = find_candidates(FIXTURES)
    assert len(folders) >= 35

    def reference(folder: Path) -> bool:
        done = subprocess.run([exe, "validate", str(folder)], capture_output=True, check=False)
        return done.returncode == 0

    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = list(pool.map(reference, folders))
    disagreements = []
    for folder, expected in zip(folders, verdicts, strict=True):
        ours = spec.check((folder / "SKILL.md").read_text(encoding="utf-8"), folder.name)
        if ours.valid != expected:
            disagreements.append((folder.name, expected, ours.errors))
    assert disagreements == []
    assert 0 < sum(verdicts) < len(verdicts)  # both kinds are covered
