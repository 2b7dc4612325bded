"""Claims: propose classifies, apply carries out actions, repetition is confidence, promote."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from orkestra.core.errors import ConflictError, InputError, NotFound, UnsafePathError
from orkestra.knowledge.claims import compare, store
from orkestra.knowledge.claims.apply import apply
from orkestra.knowledge.claims.promote import promote
from orkestra.knowledge.claims.propose import propose
from orkestra.registry.loader import load
from tests.conftest import write

HOOKS = "Hook handlers import only the standard library"


def kfolder(root: Path) -> Path:
    return root / "knowledge"


def insights(*statements: str, **extra: Any) -> dict[str, Any]:
    return {
        "insights": [
            {"statement": s, "category": "warning", "tags": ["hooks"], **extra} for s in statements
        ]
    }


def learn(root: Path, *statements: str, day: str = "2026-06-01") -> dict[str, Any]:
    proposal = propose(kfolder(root), insights(*statements), "new.json", "demo", day)
    return apply(kfolder(root), proposal, "proposal.json", day)


def snapshot(root: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((kfolder(root) / "claims").glob("*.json"))}


def test_new_claim_is_saved_low(project: Path) -> None:
    result = learn(project, HOOKS)
    assert result["summary"] == "Saved: 1 new; Skipped: 0"
    (stored,) = store.load_all(kfolder(project))
    assert stored.file == "claims/2026-06-01-hooks.json"
    claim = stored.claim
    assert (claim["confidence"], claim["seen_count"], claim["first_seen"]) == (
        "low",
        1,
        "2026-06-01",
    )
    assert claim["sources"] == ["demo"] and claim["id"].startswith("CL-")
    assert set(claim) == {
        "id", "statement", "category", "confidence", "seen_count", "first_seen", "last_seen",
        "sources", "context", "tags",
    }  # fmt: skip


def test_reinforced_four_times_reaches_high(project: Path) -> None:
    learn(project, HOOKS)
    levels = []
    for n, day in enumerate(["2026-06-02", "2026-06-03", "2026-06-04"]):
        proposal = propose(kfolder(project), insights(HOOKS + "."), "n.json", f"p{n}", day)
        (item,) = proposal["items"]
        assert item["classification"] == "REINFORCED" and item["action"] == "reinforce"
        assert item["similarity"] >= compare.REINFORCED_AT
        result = apply(kfolder(project), proposal, "p.json", day)
        levels.append(result["summary"])
    assert levels == [
        "Saved: 0 new; Reinforced: 1 (low → medium); Skipped: 0",
        "Saved: 0 new; Reinforced: 1 (medium → medium); Skipped: 0",
        "Saved: 0 new; Reinforced: 1 (medium → high); Skipped: 0",
    ]
    (stored,) = store.load_all(kfolder(project))
    claim = stored.claim
    assert (claim["seen_count"], claim["confidence"], claim["last_seen"]) == (
        4,
        "high",
        "2026-06-04",
    )
    assert claim["sources"] == ["demo", "p0", "p1", "p2"]


def test_negated_statement_contradicts_and_is_not_applied(project: Path) -> None:
    learn(project, HOOKS)
    before = snapshot(project)
    proposal = propose(
        kfolder(project),
        insights("Hook handlers never import only the standard library"),
        "n",
        "d",
        "2026-06-02",
    )
    (item,) = proposal["items"]
    assert item["classification"] == "CONTRADICTS" and item["action"] == "skip"
    assert item["matched"]["statement"] == HOOKS and item["similarity"] >= 80
    assert (
        apply(kfolder(project), proposal, "p", "2026-06-02")["summary"]
        == "Saved: 0 new; Skipped: 1"
    )
    assert snapshot(project) == before
    item["action"] = "reinforce"
    with pytest.raises(InputError, match="not allowed for CONTRADICTS"):
        apply(kfolder(project), proposal, "p", "2026-06-02")
    assert snapshot(project) == before
    item["action"] = "keep-both"
    apply(kfolder(project), proposal, "p", "2026-06-02")
    assert len(store.load_all(kfolder(project))) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Retries are enabled for the upload client", "Retries are disabled for the upload client"),
        (
            "The cache is safe to share between threads",
            "The cache isn't safe to share between threads",
        ),
    ],
)
def test_polarity_pairs(old: str, new: str) -> None:
    label, _ = compare.classify(compare.shape(new), compare.shape(old))
    assert label == "CONTRADICTS"


PNPM = "Use pnpm, not npm, to install frontend dependencies"


@pytest.mark.parametrize(
    "new",
    [
        "Use npm, not pnpm, to install frontend dependencies",
        "The frontend must not be installed with pnpm",
    ],
)
def test_a_statement_denying_what_a_claim_affirms_contradicts(new: str) -> None:
    # same words and as many negations as the claim, or fewer words: the sides are what differ
    label, _ = compare.classify(compare.shape(new), compare.shape(PNPM))
    assert label == "CONTRADICTS"
    assert "pnpm" in compare.crossed(compare.shape(new), compare.shape(PNPM))


@pytest.mark.parametrize(
    ("new", "label"),
    [
        ("Use pnpm, not npm, to install frontend dependencies.", "REINFORCED"),
        ("Install frontend dependencies with pnpm", "SIMILAR"),
        ("Never use npm for frontend dependencies; use pnpm", "SIMILAR"),
        ("Use pnpm to install frontend dependencies", "SIMILAR"),
    ],
)
def test_agreeing_statements_do_not_contradict(new: str, label: str) -> None:
    assert compare.classify(compare.shape(new), compare.shape(PNPM))[0] == label


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Do not use npm in this repo.", "npm is not used in this repo."),
        ("Never call the legacy API.", "The legacy API must not be called."),
        ("Use no semicolons.", "Semicolons are not used."),
        ("Do not use the old build script.", "The old build script is deprecated."),
        ("Never push directly to main.", "Direct pushes to main are forbidden."),
        ("Use pnpm, not npm.", "npm is not used here; use pnpm."),
        ("Use pnpm instead of npm.", "Do not use npm; pnpm is required."),
    ],
)
def test_a_restatement_with_the_negation_elsewhere_is_no_contradiction(old: str, new: str) -> None:
    label, _ = compare.classify(compare.shape(new), compare.shape(old))
    assert label != "CONTRADICTS"


def test_a_swapped_instead_of_contradicts() -> None:
    old, new = compare.shape("Use pnpm instead of npm"), compare.shape("Use npm instead of pnpm")
    assert compare.classify(new, old)[0] == "CONTRADICTS"


def test_a_claim_without_a_count_or_a_count_edited_out_still_applies_once(project: Path) -> None:
    write(
        project,
        "knowledge/claims/2026-01-01-hooks.json",
        json.dumps({"insights": [{"id": "CL-hand", "statement": HOOKS, "category": "warning"}]}),
    )
    proposal = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-02")
    assert proposal["items"][0]["matched"]["seen_count"] is None
    apply(kfolder(project), proposal, "p", "2026-06-02")
    before = snapshot(project)
    with pytest.raises(ConflictError, match="changed since"):
        apply(kfolder(project), proposal, "p", "2026-06-02")
    edited = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-03")
    apply(kfolder(project), edited, "p", "2026-06-03")
    edited["items"][0]["matched"]["seen_count"] = None
    with pytest.raises(ConflictError, match="changed since"):
        apply(kfolder(project), edited, "p", "2026-06-03")
    (stored,) = store.load_all(kfolder(project))
    assert stored.claim["seen_count"] == 3 and snapshot(project) != before


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_rewritten_claims_file_keeps_its_other_keys_and_layout(
    project: Path, newline: str
) -> None:
    """`learn apply` rewrote a claims file as `{"insights": [...]}` alone: a `$schema` or a
    note the user kept there was dropped silently; they stay, in order, with the file's
    indentation, line endings and byte-order mark."""
    learn(project, HOOKS)
    path = kfolder(project) / "claims/2026-06-01-hooks.json"
    (claim,) = json.loads(path.read_text())["insights"]
    doc = {"$schema": "https://example.com/c.json", "insights": [claim], "notes": {"by": "me"}}
    text = json.dumps(doc, indent="\t").replace("\n", newline) + newline
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    learn(project, HOOKS + ".")  # reinforced: the file rewritten
    after = path.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf{" + newline.encode() + b'\t"$schema"')
    assert after.count(b"\n") == after.count(newline.encode())
    data = json.loads(after.decode("utf-8-sig"))
    assert list(data) == ["$schema", "insights", "notes"] and data["notes"] == {"by": "me"}
    assert data["insights"][0]["seen_count"] == 2


def test_keep_both_of_the_same_statement_says_to_reinforce(project: Path) -> None:
    learn(project, HOOKS)
    proposal = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-02")
    proposal["items"][0]["action"] = "keep-both"
    with pytest.raises(InputError, match="would save a second claim saying what"):
        apply(kfolder(project), proposal, "p.json", "2026-06-02")


def test_items_reinforcing_one_claim_in_one_proposal_both_apply(project: Path) -> None:
    learn(project, HOOKS)
    other = "Hook handlers import only the Python standard library"
    proposal = propose(kfolder(project), insights(HOOKS, other), "n", "d", "2026-06-02")
    assert [i["action"] for i in proposal["items"]] == ["reinforce", "reinforce"]
    apply(kfolder(project), proposal, "p", "2026-06-02")
    (stored,) = store.load_all(kfolder(project))
    assert stored.claim["seen_count"] == 3


@pytest.mark.parametrize("stored", [False, True])
def test_a_statement_the_input_repeats_is_proposed_once_and_applies_as_it_stands(
    project: Path, stored: bool
) -> None:
    """The same words twice in one input (punctuation and case aside) are one sighting: the
    later item is a skip naming the earlier, and the unedited proposal applies."""
    if stored:
        learn(project, HOOKS)
    data = insights(HOOKS, "Ledgers use merge=union", HOOKS.upper() + ".")
    proposal = propose(kfolder(project), data, "n", "d", "2026-06-02")
    first = "reinforce" if stored else "save"
    assert [i["action"] for i in proposal["items"]] == [first, "save", "skip"]
    assert [i.get("duplicate_of") for i in proposal["items"]] == [None, None, 0]
    apply(kfolder(project), proposal, "p", "2026-06-02")
    seen = {c.claim["statement"]: c.claim["seen_count"] for c in store.load_all(kfolder(project))}
    assert seen == {HOOKS: 2 if stored else 1, "Ledgers use merge=union": 1}


def test_a_proposal_saving_one_statement_twice_is_refused(project: Path) -> None:
    proposal = propose(kfolder(project), insights(HOOKS, HOOKS), "n", "d", "2026-06-02")
    proposal["items"][1]["action"] = "save"  # edited: the duplicate proposed as a skip is saved
    with pytest.raises(InputError, match=r"items\[1\] saves the statement of an earlier item"):
        apply(kfolder(project), proposal, "p.json", "2026-06-02")
    assert not (kfolder(project) / "claims").exists() or snapshot(project) == {}


def test_similar_and_new(project: Path) -> None:
    learn(project, "The search index is stored in SQLite under .orkestra")
    proposal = propose(
        kfolder(project),
        insights(
            "The search index is stored under .orkestra as a SQLite file with mtimes",
            "Ledgers use merge=union",
        ),
        "n",
        "demo",
        "2026-06-02",
    )
    labels = [(i["classification"], i["action"]) for i in proposal["items"]]
    assert labels == [("SIMILAR", "skip"), ("NEW", "save")]
    assert proposal["counts"] == {"NEW": 1, "REINFORCED": 0, "SIMILAR": 1, "CONTRADICTS": 0}
    proposal["items"][0]["action"] = "merge"
    proposal["items"][0]["claim"]["context"] = "extra detail"
    result = apply(kfolder(project), proposal, "p", "2026-06-02")
    assert result["summary"] == "Saved: 1 new; Reinforced: 1 (low → medium); Merged: 1; Skipped: 0"
    merged = next(s.claim for s in store.load_all(kfolder(project)) if s.claim["seen_count"] == 2)
    assert merged["context"] == "extra detail"


def test_propose_writes_nothing(project: Path) -> None:
    propose(kfolder(project), insights(HOOKS), "n", "demo", "2026-06-01")
    assert not (kfolder(project) / "claims").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"insights": []}, "at least one item"),
        ({"insights": [{"category": "tool"}]}, r"insights\[0\].statement is required"),
        ({"insights": [{"statement": "x", "category": "rumour"}]}, r"insights\[0\].category"),
        ({"insights": [{"statement": "x", "tags": "a"}]}, r"insights\[0\].tags"),
        ({"insights": [{"statement": "x", "topic": {"a": 1}}]}, r"insights\[0\].topic must be"),
        ({"insights": [{"statement": "x", "context": ["a"]}]}, r"insights\[0\].context must be"),
        ({"topic": ["a"], "insights": [{"statement": "x"}]}, "topic must be a string"),
    ],
)
def test_bad_new_insights(project: Path, data: Any, message: str) -> None:
    with pytest.raises(InputError, match=message) as exc:
        propose(kfolder(project), data, "new.json", "demo", "2026-06-01")
    assert exc.value.file == "new.json"


def test_bad_proposal_writes_nothing(project: Path) -> None:
    learn(project, HOOKS)
    before = snapshot(project)
    proposal = propose(
        kfolder(project), insights("Brand new fact about ledgers", HOOKS), "n", "d", "2026-06-02"
    )
    proposal["items"][1]["action"] = "explode"
    with pytest.raises(InputError, match=r"items\[1\].action"):
        apply(kfolder(project), proposal, "p.json", "2026-06-02")
    assert snapshot(project) == before
    with pytest.raises(InputError, match="not a proposal"):
        apply(kfolder(project), {"items": []}, "p.json", "2026-06-02")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda item: item.update(matched="CL-nope"), r"items\[1\].matched must be an object"),
        (lambda item: item["claim"].update(category="rumour"), r"items\[0\].claim.category"),
        (lambda item: item["claim"].update(statement="  "), r"items\[0\].claim.statement"),
        (lambda item: item["claim"].update(tags="hooks"), r"items\[0\].claim.tags"),
        (lambda item: item["claim"].update(context=["x"]), r"items\[0\].claim.context"),
    ],
)
def test_hand_edited_proposal_is_checked_like_new_insights(
    project: Path, edit: Any, message: str
) -> None:
    learn(project, HOOKS)
    before = snapshot(project)
    proposal = propose(
        kfolder(project), insights("Brand new fact about ledgers", HOOKS), "n", "d", "2026-06-02"
    )
    edit(proposal["items"][1 if "matched" in message else 0])
    with pytest.raises(InputError, match=message):
        apply(kfolder(project), proposal, "p.json", "2026-06-02")
    assert snapshot(project) == before


def test_stale_proposal_conflicts(project: Path) -> None:
    learn(project, HOOKS)
    proposal = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-02")
    for path in (kfolder(project) / "claims").glob("*.json"):
        path.write_text('{"insights": []}')
    with pytest.raises(ConflictError, match="no longer exists"):
        apply(kfolder(project), proposal, "p", "2026-06-02")


def test_malformed_claims_file_names_file_and_line(project: Path) -> None:
    write(project, "knowledge/claims/2026-01-01-x.json", '{"insights": [\n  {"id": 1,}\n]}')
    with pytest.raises(InputError) as exc:
        store.load_all(kfolder(project))
    assert exc.value.file == "knowledge/claims/2026-01-01-x.json" and exc.value.line == 2


def _high(root: Path) -> str:
    for day in ("2026-06-01", "2026-06-02", "2026-06-03", "2026-06-04"):
        learn(root, HOOKS, day=day)
    return str(store.load_all(kfolder(root))[0].claim["id"])


def test_promote_high_claim_to_ground_truth(project: Path) -> None:
    claim_id = _high(project)
    truths = write(
        project,
        "registries/truths/orkestra.yaml",
        "# hand-written comment\nmetadata:\n  title: T\n  owner: orkestra\nstatements:\n"
        "  - id: GT-ORK-001\n    status: current\n    statement: Existing\n",
    )
    result = promote(project, kfolder(project), claim_id, "orkestra", "2026-06-05")
    assert result["truth"] == "GT-ORK-002" and result["file"] == "registries/truths/orkestra.yaml"
    text = truths.read_text()
    assert text.startswith("# hand-written comment\n")
    reg = load(project)
    assert reg.truths["GT-ORK-002"].statement == HOOKS
    assert reg.truths["GT-ORK-002"].last_verified == "2026-06-05"
    assert not [f for f in reg.findings if f.severity == "error"]
    with pytest.raises(ConflictError, match="already promoted"):
        promote(project, kfolder(project), claim_id, "orkestra", "2026-06-05")


def test_promote_keeps_every_comment_of_the_truths_file(project: Path) -> None:
    """A file whose last top-level line is not `statements:` (a closing comment, a key after the
    list) used to be dumped whole, every comment gone."""
    claim_id = _high(project)
    text = (
        "# Reviewed every quarter.\nstatements:\n  # the founding truth\n  - id: GT-ORK-001\n"
        "    status: current\n    statement: Existing  # keep\nmetadata:\n  title: T\n"
        "  owner: orkestra\n# next review: 2027-01\n"
    )
    truths = write(project, "registries/truths/orkestra.yaml", text)
    promote(project, kfolder(project), claim_id, "orkestra", "2026-06-05")
    after = truths.read_text()
    head, _, tail = text.partition("metadata:")
    assert after.startswith(head.rstrip("\n") + "\n  - id: GT-ORK-002\n")
    assert after.endswith("metadata:" + tail)
    assert load(project).truths["GT-ORK-002"].statement == HOOKS


def test_promote_refuses_a_truths_file_it_cannot_add_to_without_losing_comments(
    project: Path,
) -> None:
    claim_id = _high(project)
    text = "metadata: {title: T, owner: orkestra}  # short\nstatements: [{id: GT-ORK-001,\n  statement: s}]\n"
    truths = write(project, "registries/truths/orkestra.yaml", text)
    with pytest.raises(InputError) as err:
        promote(project, kfolder(project), claim_id, "orkestra", "2026-06-05")
    assert (err.value.file, err.value.line) == ("registries/truths/orkestra.yaml", 1)
    assert "would lose its comments" in err.value.message
    assert truths.read_text() == text


def test_promote_creates_a_truths_file_with_unique_ids(project: Path) -> None:
    claim_id = _high(project)
    write(
        project,
        "registries/truths/other.yaml",
        "metadata: {title: O, owner: other}\nstatements:\n  - {id: GT-DEM-001, status: current, statement: s}\n",
    )
    result = promote(project, kfolder(project), claim_id, "demo", "2026-06-05")
    assert result["truth"] == "GT-DEM-002"
    assert "GT-DEM-002" in load(project).truths


def test_promote_refuses_low_claims_and_unknown_ids(project: Path) -> None:
    learn(project, HOOKS)
    claim_id = str(store.load_all(kfolder(project))[0].claim["id"])
    with pytest.raises(ConflictError, match="only high-confidence"):
        promote(project, kfolder(project), claim_id, "demo", "2026-06-05")
    assert not (project / "registries/truths").exists()
    assert (
        promote(project, kfolder(project), claim_id, "demo", "2026-06-05", force=True)["truth"]
        == "GT-DEM-001"
    )
    with pytest.raises(NotFound):
        promote(project, kfolder(project), "CL-nope", "demo", "2026-06-05")


def test_claims_file_layout(project: Path) -> None:
    learn(project, HOOKS)
    (path,) = (kfolder(project) / "claims").glob("*.json")
    assert store.valid_name(path.name)
    data = json.loads(path.read_text())
    assert list(data) == ["insights"]


def test_apply_and_promote_refuse_a_symlinked_folder_leaving_the_project(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    claim_id = _high(project)
    claims = kfolder(project) / "claims"
    proposal = propose(kfolder(project), insights(HOOKS), "new.json", "demo", "2026-06-05")
    outside = tmp_path_factory.mktemp("outside")
    for path in claims.iterdir():
        shutil.move(path, outside / path.name)
    claims.rmdir()
    claims.symlink_to(outside, target_is_directory=True)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    with pytest.raises((UnsafePathError, InputError)) as info:  # refused as a read or a write
        apply(kfolder(project), proposal, "p.json", "2026-06-05", root=project)
    assert info.value.file in ("knowledge/claims", "knowledge/claims/p.json")
    assert "symlink" in info.value.message
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before
    claims.unlink()  # the claims back in place: now the truths folder leaves the project
    shutil.copytree(outside, claims)
    truths = tmp_path_factory.mktemp("truths")
    (project / "registries/truths").symlink_to(truths, target_is_directory=True)
    with pytest.raises(UnsafePathError) as info:
        promote(project, kfolder(project), claim_id, "demo", "2026-06-05")
    assert info.value.file == "registries/truths"
    assert list(truths.iterdir()) == []


@pytest.mark.parametrize("linked", ["file", "folder"])
def test_a_claims_file_or_folder_leading_outside_is_refused_never_read(
    project: Path, tmp_path_factory: pytest.TempPathFactory, linked: str, cli: Any
) -> None:
    outside = tmp_path_factory.mktemp("elsewhere")
    secret = insights("Secret from outside", id="c-secret")
    (outside / "2026-01-01-x.json").write_text(json.dumps(secret))
    claims = project / "knowledge" / "claims"
    if linked == "file":
        claims.mkdir(parents=True)
        (claims / "2026-01-01-x.json").symlink_to(outside / "2026-01-01-x.json")
        shown = "knowledge/claims/2026-01-01-x.json"
    else:
        claims.parent.mkdir(parents=True)
        claims.symlink_to(outside)
        shown = "knowledge/claims"
    with pytest.raises(InputError, match="symlink leading out") as exc:
        store.load_all(kfolder(project))
    assert exc.value.file == shown
    result = cli("learn", "list", cwd=project)
    assert result.exit_code == 1 and "Secret" not in result.stdout + result.stderr


def test_a_claims_file_linked_inside_the_knowledge_folder_is_read(project: Path) -> None:
    kept = insights("Kept inside", id="c-kept")
    write(project, "knowledge/shared/2026-01-01-x.json", json.dumps(kept))
    claims = project / "knowledge" / "claims"
    claims.mkdir(parents=True)
    (claims / "2026-01-01-x.json").symlink_to(project / "knowledge/shared/2026-01-01-x.json")
    assert [s.claim["statement"] for s in store.load_all(kfolder(project))] == ["Kept inside"]


def test_an_apply_meanwhile_in_another_session_is_never_overwritten(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sessions saving a claim to the same day's topic file: the later write used to
    replace the file with its own copy, losing the other session's claim."""
    from orkestra.core.errors import ChangedOnDisk

    def proposal(statement: str) -> dict[str, Any]:
        data = {"insights": [{"statement": statement, "category": "tool", "topic": "build"}]}
        return propose(kfolder(project), data, "new.json", "demo", "2026-06-01")

    mine, theirs = proposal("The build uses uv for every install"), proposal(HOOKS)
    real = store.write_files

    def meanwhile(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(store, "write_files", real)
        apply(kfolder(project), theirs, "theirs.json", "2026-06-01")
        real(*args, **kwargs)

    monkeypatch.setattr(store, "write_files", meanwhile)
    with pytest.raises(ChangedOnDisk, match="run the command again"):
        apply(kfolder(project), mine, "mine.json", "2026-06-01")
    assert [s.claim["statement"] for s in store.load_all(kfolder(project))] == [HOOKS]
    apply(kfolder(project), mine, "mine.json", "2026-06-01")  # run again: both are kept
    assert len(store.load_all(kfolder(project))) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The billing service retries failed charges three times before giving up",
            "The billing service retries failed charges five times before giving up",
        ),
        ("The upload client times out after 30s", "The upload client times out after 60s"),
        ("The backend requires Python 3.11", "The backend requires Python 3.12"),
        ("Webhooks are retried 3 times", "Webhooks are retried 5 times"),
    ],
)
def test_a_statement_giving_another_number_contradicts_never_reinforces(old: str, new: str) -> None:
    """'retries three times' was REINFORCED by 'retries five times' (91.7% alike) and applied
    by default: a different quantity is a conflict to review, never the same fact."""
    label, _ = compare.classify(compare.shape(new), compare.shape(old))
    assert label == "CONTRADICTS"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Webhooks are retried 3 times", "Webhooks are retried three times."),
        ("The upload client times out after 30s", "The upload client times out after 30s."),
    ],
)
def test_the_same_number_spelled_in_words_or_digits_reinforces(old: str, new: str) -> None:
    assert compare.classify(compare.shape(new), compare.shape(old))[0] == "REINFORCED"


def test_learn_never_reinforces_a_claim_with_another_number(project: Path) -> None:
    learn(project, "The billing service retries failed charges three times before giving up")
    new = "The billing service retries failed charges five times before giving up"
    proposal = propose(kfolder(project), insights(new), "n", "d", "2026-06-02")
    (item,) = proposal["items"]
    assert (item["classification"], item["action"]) == ("CONTRADICTS", "skip")
    apply(kfolder(project), proposal, "p", "2026-06-02")
    (stored,) = store.load_all(kfolder(project))
    assert stored.claim["seen_count"] == 1


@pytest.mark.parametrize(
    ("old", "new", "label"),
    [
        ("The search cache holds 1,000 entries per project", "The search cache holds 1000 entries per project", "REINFORCED"),
        ("The upload client times out after 30s", "The upload client times out after 30 s", "REINFORCED"),
        ("Webhook deliveries time out after 500ms", "Webhook deliveries time out after 500 ms", "REINFORCED"),
        ("The upload client times out after 30 seconds", "The upload client times out after 30s", "SIMILAR"),
        (
            "Postgres 15 is required for the JSON path queries",
            "Postgres 15 is required for the JSON path queries, each one needs an index",
            "SIMILAR",
        ),
    ],
)  # fmt: skip
def test_one_quantity_written_two_ways_is_no_contradiction(old: str, new: str, label: str) -> None:
    """A thousands separator, a unit spaced off or spelled out, or the pronoun 'one' states no
    other quantity: it was CONTRADICTS (flagged, never reinforced) through the spelling alone."""
    assert compare.classify(compare.shape(new), compare.shape(old))[0] == label


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The upload client times out after 30 seconds", "The upload client times out after 30 minutes"),
        ("Webhook deliveries time out after 500ms", "Webhook deliveries time out after 500 s"),
        ("Only one worker may hold the migration lock", "Only two workers may hold the migration lock"),
    ],
)  # fmt: skip
def test_another_unit_is_another_quantity(old: str, new: str) -> None:
    assert compare.classify(compare.shape(new), compare.shape(old))[0] == "CONTRADICTS"


def test_an_insight_error_names_its_line_in_the_input_text(project: Path) -> None:
    data = insights("Ledgers are union merged", "Hooks start fast")
    data["insights"][1]["category"] = "rumour"
    text = json.dumps(data, indent=2)
    with pytest.raises(InputError, match=r"insights\[1\].category") as exc:
        propose(kfolder(project), data, "new.json", "demo", "2026-06-01", text=text)
    assert exc.value.file == "new.json"
    assert exc.value.line == text.splitlines().index('      "category": "rumour",') + 1
    learn(project, HOOKS)
    proposal = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-02")
    proposal["items"][0]["matched"]["id"] = "CL-00000000"
    text = json.dumps(proposal, indent=2)
    with pytest.raises(ConflictError, match="no longer exists") as conflict:
        apply(kfolder(project), proposal, "p.json", "2026-06-02", text=text)
    assert conflict.value.file == "p.json"
    lines = text.splitlines()
    assert conflict.value.line == next(n for n, t in enumerate(lines, 1) if "CL-00000000" in t)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("seen_count", "two", "seen_count must be a whole number"),
        ("seen_count", 2.5, "seen_count must be a whole number"),
        ("seen_count", True, "seen_count must be a whole number"),
        ("seen_count", 0, "seen_count must be a whole number"),
        ("sources", "demo", "sources must be a list of strings"),
        ("tags", None, "tags must be a list of strings"),
        ("context", 5, "context must be a string"),
    ],
)
@pytest.mark.parametrize("action", ["reinforce", "merge"])
def test_reinforcing_a_hand_edited_claim_names_its_bad_field(
    project: Path, key: str, value: Any, message: str, action: str
) -> None:
    """A claims file edited by hand (`"seen_count": "two"`, `"tags": null`) crashed `learn apply`
    with an internal error (int('two'), list(None)), or split a `sources` string into letters."""
    learn(project, HOOKS)
    (path,) = (kfolder(project) / "claims").glob("*.json")
    data = json.loads(path.read_text())
    data["insights"][0][key] = value
    path.write_text(json.dumps(data, indent=2))
    before = snapshot(project)
    proposal = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-02")
    proposal["items"][0]["action"] = action
    with pytest.raises(InputError, match=message) as exc:
        apply(kfolder(project), proposal, "p.json", "2026-06-02")
    assert exc.value.file == f"knowledge/claims/{path.name}"
    needle = f'"{key}": {json.dumps(value)}'
    lines = path.read_text().splitlines()
    assert exc.value.line == next(n for n, t in enumerate(lines, 1) if needle in t)
    assert "nothing was written" in exc.value.message
    assert snapshot(project) == before


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("tags", None, "tags must be a list of strings"),
        ("tags", "deploy", "tags must be a list of strings"),
        ("context", 5, "context must be a string"),
        ("seen_count", "four", "seen_count must be a whole number"),
    ],
)
def test_promoting_a_hand_edited_claim_names_its_bad_field(
    project: Path, key: str, value: Any, message: str
) -> None:
    """`learn promote` of a claim edited by hand into `"tags": null` was an internal error, a
    `"tags": "deploy"` became the tags d, e, p, l, o, y, and `"context": 5` was blamed on the
    truths file it would have written."""
    claim_id = _high(project)
    (path,) = (kfolder(project) / "claims").glob("*.json")
    data = json.loads(path.read_text())
    data["insights"][0][key] = value
    path.write_text(json.dumps(data, indent=2))
    with pytest.raises(InputError, match=message) as exc:
        promote(project, kfolder(project), claim_id, "orkestra", "2026-06-05", prefix="ORK")
    assert exc.value.file == f"knowledge/claims/{path.name}"
    needle = f'"{key}": {json.dumps(value)}'
    lines = path.read_text().splitlines()
    assert exc.value.line == next(n for n, t in enumerate(lines, 1) if needle in t)
    assert not (project / "registries/truths").exists()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The HTTP client does not retry non-idempotent requests.",
            "The HTTP client never retries idempotent requests.",
        ),
        ("Uploads are retried for non-admin users.", "Uploads are retried for admin users."),
        ("Exports use the non-blocking writer.", "Exports use the blocking writer."),
    ],
)
def test_a_non_prefix_is_a_side_and_never_reinforces(old: str, new: str) -> None:
    """`non-idempotent` read as the plain word `idempotent` (its `non` a content word of its
    own), and `retries` stemmed apart from `retry`: "never retries idempotent requests" was
    REINFORCED against "does not retry non-idempotent requests", so `learn apply` raised that
    other claim's confidence by default and the new statement was never saved."""
    label, _ = compare.classify(compare.shape(new), compare.shape(old))
    assert label != "REINFORCED"
    assert compare.classify(compare.shape(old), compare.shape(new))[0] != "REINFORCED"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The HTTP client retries idempotent requests.",
            "The HTTP client retry idempotent requests.",
        ),
        ("The importer skips empty policies.", "The importer skips empty policy."),
    ],
)
def test_ies_and_y_forms_are_the_same_word(old: str, new: str) -> None:
    assert compare.classify(compare.shape(new), compare.shape(old))[0] == "REINFORCED"
    assert compare.shape(new).affirmed == compare.shape(old).affirmed


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Application logs go to stdout in production.",
            "Application logs go to stderr in production.",
        ),
        ("Use tabs for indentation in Go files.", "Use spaces for indentation in Go files."),
        ("The API stores user sessions in Redis.", "The API stores user sessions in Memcached."),
    ],
)
def test_one_word_swapped_for_another_is_not_the_same_fact(old: str, new: str) -> None:
    """A long statement with one word replaced ("stdout" by "stderr") was over 90% alike, so it
    was REINFORCED, and `learn apply`'s default action raised the confidence of the claim it
    contradicts while the new statement was never saved: a person must decide (SIMILAR)."""
    label, _ = compare.classify(compare.shape(new), compare.shape(old))
    assert label in ("SIMILAR", "CONTRADICTS")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Hook handlers import only the standard library.",
            "Hook handlers only import the standard library",
        ),
        (
            "Always run migrations before deploying the API.",
            "Run the migrations before deploying the API.",
        ),
        (
            "The HTTP client retries idempotent requests three times.",
            "The HTTP client retries idempotent requests 3 times.",
        ),
    ],
)
def test_a_restatement_with_the_same_words_still_reinforces(old: str, new: str) -> None:
    assert compare.classify(compare.shape(new), compare.shape(old))[0] == "REINFORCED"


def test_a_proposal_given_to_propose_says_to_apply_it(project: Path) -> None:
    """The proposal `learn propose` printed, given back to `propose` instead of `apply`, was
    answered `expected {"insights": [...]}`: nothing about the mix-up."""
    proposal = propose(kfolder(project), insights(HOOKS), "n", "d", "2026-06-02")
    text = json.dumps(proposal, indent=2)
    with pytest.raises(InputError, match="learn apply") as exc:
        propose(kfolder(project), proposal, "p.json", "demo", "2026-06-02", text=text)
    assert exc.value.line == 2  # its "kind"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "email.utils.formataddr quotes the display name when it contains special characters",
            "email.utils.formataddr does not quote the display name when it contains special "
            "characters",
        ),
        ("The parser caches compiled patterns", "The parser does not cache compiled patterns"),
        ("The loader parses dates in frontmatter", "The loader doesn't parse dates in frontmatter"),
        ("The policy folds long header lines", "The policy does not fold long header lines"),
        ("Sync escapes pipes in table cells", "Sync does not escape pipes in table cells"),
    ],
)
def test_a_denied_verb_contradicts_its_inflected_form(old: str, new: str) -> None:
    """ "X does not quote Y" against "X quotes Y": the denied word and the affirmed one were told
    apart by their ending alone (`quote` against `quot`), so the two read as SIMILAR, a merge
    candidate, instead of CONTRADICTS."""
    label, _ = compare.classify(compare.shape(new), compare.shape(old))
    assert label == "CONTRADICTS"
    assert compare.classify(compare.shape(old), compare.shape(new))[0] == "CONTRADICTS"


@pytest.mark.parametrize("second", ["reinforce", "merge"])
def test_a_proposal_reinforcing_one_claim_twice_is_refused(project: Path, second: str) -> None:
    """Every SIMILAR item set to merge, the input's repeated statement among them: one session
    counted as two sightings (seen_count 1 -> 3, low -> medium) of one claim."""
    learn(project, HOOKS)
    before = snapshot(project)
    data = insights(HOOKS + " and nothing else", HOOKS.lower() + " and nothing else!")
    proposal = propose(kfolder(project), data, "n", "d", "2026-06-02")
    assert [i["matched"]["id"] for i in proposal["items"]] == [
        proposal["items"][0]["matched"]["id"]
    ] * 2
    proposal["items"][0]["action"] = "merge"
    proposal["items"][1]["action"] = second
    with pytest.raises(InputError, match=r"items\[1\] reinforces CL-\w+ again, as items\[0\] does"):
        apply(kfolder(project), proposal, "p.json", "2026-06-02")
    assert snapshot(project) == before
