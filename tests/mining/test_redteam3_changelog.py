"""Red team 3, changelogs: hand edits in a rendered file, order independent of the index, tags
naming one version twice, reverts of reverts, front matter, conflicting classifications."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.mining.changelog import HEADER
from orkestra.mining.changelog_file import SEAL, edited, place, sealed
from tests.mining.gitrepo import GitRepo

CORE = "packages/core/CHANGELOG.md"


def render(cli: Any, root: Path, *extra: str) -> Any:
    return cli("changelog", "render", "--package", "core", *extra, cwd=root)


def classify(cli: Any, root: Path, sha: str, category: str, *extra: str) -> None:
    result = cli("mine", "classify", sha, "--changelog", category, *extra, cwd=root)
    assert result.exit_code == 0, result.stderr


# --- 2. a hand edit inside a file Orkestra rendered ----------------------------------------------

HAND = "\n## [0.9.0] - 2023-01-01\n\n### Added\n\n- Hand-written history (must not be lost).\n"


def test_a_hand_edit_is_refused_and_nothing_is_written(released: GitRepo, cli: Any) -> None:
    root = released.path
    assert render(cli, root).exit_code == 0
    path = root / CORE
    path.write_text(path.read_text(encoding="utf-8") + HAND, encoding="utf-8")
    edited_bytes = path.read_bytes()
    classify(cli, root, released.commit("fix(core): a bug", {"packages/core/b.py": "b\n"}), "fixed")

    result = render(cli, root)
    assert result.exit_code == 1
    assert (
        f"refusing to overwrite {CORE}: it was edited since Orkestra rendered it" in result.stderr
    )
    assert "'## [0.9.0] - 2023-01-01'" in result.stderr  # the first line that is not a render's
    assert "--force" in result.stderr and "--into-existing" in result.stderr
    assert path.read_bytes() == edited_bytes

    (plan,) = render(cli, root, "--dry-run").json()["changelogs"]
    assert plan["action"] == "refuse" and "edited since" in plan["reason"]
    assert render(cli, root, "--check").exit_code == 1
    assert path.read_bytes() == edited_bytes

    forced = render(cli, root, "--force")
    assert forced.exit_code == 0, forced.stderr
    text = path.read_text(encoding="utf-8")
    assert "Hand-written" not in text and "- A bug (" in text and "- A widget (" in text
    assert render(cli, root).json()["changelogs"][0]["written"] is False


def test_into_existing_keeps_an_edited_file_byte_for_byte(released: GitRepo, cli: Any) -> None:
    root = released.path
    assert render(cli, root).exit_code == 0
    path = root / CORE
    path.write_text(path.read_text(encoding="utf-8") + HAND, encoding="utf-8")
    edited_text = path.read_text(encoding="utf-8")
    assert render(cli, root, "--into-existing").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.endswith(edited_text.split("\n", 1)[1]) and "orkestra:changelog:begin" in text
    assert render(cli, root).exit_code == 0  # the block is kept up to date from now on
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("change", "refused"),
    [
        (lambda t: t.replace("- A widget", "- A widget, polished by hand"), True),
        (lambda t: t.replace("### Added\n\n- A widget", "### Added\n\n- Extra\n- A widget"), True),
        (lambda t: t.replace("- A widget", "- A gadget"), True),
        (lambda t: t.replace("\n### Added\n\n- A widget (", "\n### Added\n- A widget ("), True),
        (lambda t: t.replace("\n", "\r\n")[:-2] + "\n", None),  # CRLF: not Orkestra's header
        (lambda t: "\ufeff" + t, False),  # a byte-order mark is no edit
    ],
)
def test_any_edit_is_seen(released: GitRepo, cli: Any, change: Any, refused: bool | None) -> None:
    root = released.path
    assert render(cli, root).exit_code == 0
    path = root / CORE
    path.write_bytes(change(path.read_text(encoding="utf-8")).encode("utf-8"))
    before = path.read_bytes()
    result = render(cli, root)
    if refused is False:
        assert result.exit_code == 0, result.stderr
        return
    assert result.exit_code == 1 and path.read_bytes() == before
    expected = "edited since" if refused else "it was not written by Orkestra"
    assert expected in result.stderr


def test_the_seal_covers_everything_but_itself() -> None:
    header = HEADER.format(package="core")
    body = "\n## [Unreleased]\n\n### Added\n\n- A widget (abc1234)\n"
    whole = sealed(header, body)
    assert whole.startswith(header + "\n<!-- orkestra:changelog:digest ")
    assert whole.endswith("-->\n" + body)
    assert SEAL.format("0" * 16) not in whole
    assert edited(whole, whole) is None
    assert edited(whole.replace("\n", "\r\n"), whole) is None  # a checkout with CRLF
    assert edited(whole + "- more\n", whole) == (
        "it was edited since Orkestra rendered it (line 15: '- more')"
    )
    assert edited(whole.replace("- A widget (abc1234)\n", ""), whole) == (
        "it was edited since Orkestra rendered it (text was removed)"
    )
    later = sealed(header, body + "\n### Fixed\n\n- A bug (def5678)\n")
    assert place(whole, header, later[len(whole) - len(body) :], into_existing=False).text


def test_a_file_from_before_the_seal(released: GitRepo, cli: Any) -> None:
    # an earlier version wrote the file without a seal: it is Orkestra's while every line of it
    # is in the new render (only additions), and edited otherwise
    root = released.path
    assert render(cli, root).exit_code == 0
    path = root / CORE
    lines = path.read_text(encoding="utf-8").split("\n")
    unsealed = "\n".join(line for line in lines if "orkestra:changelog:digest" not in line)
    path.write_text(unsealed, encoding="utf-8")
    classify(cli, root, released.commit("fix(core): a bug", {"packages/core/b.py": "b\n"}), "fixed")
    assert render(cli, root).exit_code == 0
    assert "orkestra:changelog:digest" in path.read_text(encoding="utf-8")

    path.write_text(unsealed + "- Hand-written line\n", encoding="utf-8")
    result = render(cli, root)
    assert result.exit_code == 1 and "'- Hand-written line'" in result.stderr


# --- 3. the order of entries is the history's, not the index's -----------------------------------


def commit_at(repo: GitRepo, message: str, rel: str, date: int) -> str:
    (repo.path / rel).parent.mkdir(parents=True, exist_ok=True)
    (repo.path / rel).write_text(message + "\n", encoding="utf-8")
    repo.git("add", "--", rel)
    repo.git("commit", "-q", "-m", message, date=date)
    return repo.head()


def test_order_does_not_depend_on_how_the_index_was_built(repo: GitRepo, cli: Any) -> None:
    day = 86_400
    start = 1_704_067_200  # 2024-01-01
    repo.git("checkout", "-q", "-b", "feature")
    commit_at(repo, "feat(core): feature one", "packages/core/f1.py", start + day)
    commit_at(repo, "feat(core): feature two", "packages/core/f2.py", start + 2 * day)
    repo.git("checkout", "-q", "main")
    commit_at(repo, "feat(core): main one", "packages/core/m1.py", start + 3 * day)
    assert cli("mine", "sync", cwd=repo.path).exit_code == 0  # indexed while on main
    repo.git(
        "merge", "-q", "--no-ff", "feature", "-m", "Merge branch feature", date=start + 4 * day
    )
    assert cli("mine", "sync", cwd=repo.path).json()["sync"] == "incremental"
    for line in repo.git("log", "--format=%H %s").splitlines():
        sha, subject = line.split(" ", 1)
        if subject.startswith("feat"):
            classify(cli, repo.path, sha, "added")
    assert render(cli, repo.path).exit_code == 0
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert text.index("- Main one") < text.index("- Feature two") < text.index("- Feature one")

    import shutil

    shutil.rmtree(repo.path / ".orkestra")  # rebuilt whole: the same bytes
    check = render(cli, repo.path, "--check")
    assert check.exit_code == 0 and check.json()["changelogs"][0]["changed"] is False


def test_newest_first_is_by_instant_then_depth() -> None:
    from orkestra.mining.changelog import newest_first

    parents = {"a" * 40: [], "b" * 40: ["a" * 40], "c" * 40: ["b" * 40], "d" * 40: ["c" * 40]}
    dates = {
        "a" * 40: "2024-01-01T10:00:00+00:00",
        "b" * 40: "2024-01-01T10:00:00+00:00",  # the same second as its parent: deeper is newer
        "c" * 40: "2024-01-01T12:30:00+02:00",  # 10:30 UTC
        "d" * 40: "2024-01-01T11:00:00+03:00",  # 08:00 UTC: authored before, committed after
    }
    records = {sha: {"date": date} for sha, date in dates.items()}
    rank = newest_first(list(parents), records, parents)
    assert sorted(rank, key=rank.__getitem__) == ["c" * 40, "b" * 40, "a" * 40, "d" * 40]


# --- 7. two tags naming one version --------------------------------------------------------------


def test_two_tags_of_one_version_are_one_release(repo: GitRepo, cli: Any) -> None:
    repo.git("remote", "add", "origin", "https://github.com/acme/demo.git")
    first = repo.commit("feat(core): first", {"packages/core/a.py": "a\n"})
    repo.tag("1.0.0")
    repo.tag("v1.0.0")
    second = repo.commit("feat(core): second", {"packages/core/b.py": "b\n"})
    for sha in (first, second):
        classify(cli, repo.path, sha, "added")
    assert render(cli, repo.path).json()["changelogs"][0]["releases"] == 1
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert text.count("## [1.0.0]") == 1 and text.count("- First (") == 1
    assert "[Unreleased]: https://github.com/acme/demo/compare/v1.0.0...HEAD\n" in text
    assert text.count("[1.0.0]: https://github.com/acme/demo/releases/tag/v1.0.0\n") == 1


def test_releases_of_keeps_one_tag_per_version() -> None:
    from orkestra.mining.changelog import releases_of

    sha, other = "a" * 40, "b" * 40
    tags = [("core@2.0.0", other, "d"), ("1.0.0", sha, "d"), ("v1.0.0", sha, "d")]
    assert [r.tag for r in releases_of("core", tags, {sha, other})] == ["core@2.0.0"]
    tags += [("core-v2.0.0", other, "d")]
    assert [r.tag for r in releases_of("core", tags, {sha, other})] == ["core-v2.0.0"]
    assert [r.tag for r in releases_of("cli", tags, {sha, other})] == ["v1.0.0"]


# --- 8. a revert of a revert -----------------------------------------------------------------------


def revert_head(repo: GitRepo) -> str:
    repo.tick += 1
    repo.git("revert", "--no-edit", "HEAD")
    return repo.head()


@pytest.mark.parametrize(
    ("reverts", "classified", "tag_after_feature", "expected", "cancelled"),
    [
        (2, "all", False, ["- Add dark mode ("], 2),  # re-landed: the feature stays
        (3, "all", False, [], 4),  # undone again: nothing
        (1, "all", False, [], 2),
        (2, "last", False, ["- Land dark mode again ("], 0),  # only the re-land has a note
        (2, "all", True, ["## [1.0.0]", "- Add dark mode ("], 2),  # two reverts later cancel
    ],
)
def test_reverts_cancel_only_a_net_no_op(
    repo: GitRepo,
    cli: Any,
    reverts: int,
    classified: str,
    tag_after_feature: bool,
    expected: list[str],
    cancelled: int,
) -> None:
    shas = [repo.commit("feat(core): add dark mode", {"packages/core/dark.py": "dark\n"})]
    if tag_after_feature:
        repo.tag("v1.0.0")
    shas += [revert_head(repo) for _ in range(reverts)]
    if classified == "all":
        for sha in shas:
            classify(cli, repo.path, sha, "added")
    else:
        classify(cli, repo.path, shas[-1], "added", "--summary", "Land dark mode again")
    (result,) = render(cli, repo.path).json()["changelogs"]
    assert result["cancelled"] == cancelled
    text = (repo.path / CORE).read_text(encoding="utf-8")
    shown = [line for line in text.splitlines() if line.startswith(("- ", "## [1"))]
    assert [line.split("(")[0] + "(" if line[0] == "-" else line[:10] for line in shown] == expected


# --- 9. --into-existing after YAML front matter ----------------------------------------------------

FRONT = "---\ntitle: Changelog\nsidebar_position: 9\n---\n"
OLD = "## [1.0.0] - 2023-01-01\n### Added\n- Old.\n"


@pytest.mark.parametrize(
    ("original", "head"),
    [
        (FRONT + "\n# Changelog\n\n" + OLD, FRONT + "\n# Changelog\n\n"),
        (FRONT + OLD, FRONT + "\n"),  # no title: just after the front matter
        ((FRONT + "\n# Changelog\n\n" + OLD).replace("\n", "\r\n"), None),
        ("---\n\n# Changelog\n\n" + OLD, ""),  # a rule, never closed: no front matter, no title
    ],
    ids=["title", "no-title", "crlf", "rule"],
)
def test_the_block_goes_after_the_front_matter_and_the_title(
    released: GitRepo, cli: Any, original: str, head: str | None
) -> None:
    path = released.path / CORE
    path.write_bytes(original.encode("utf-8"))
    assert render(cli, released.path, "--into-existing").exit_code == 0
    text = path.read_bytes().decode("utf-8")
    if head is None:  # CRLF: the same place, with the file's line ending
        head = (FRONT + "\n# Changelog\n\n").replace("\n", "\r\n")
    assert text.startswith(head + "<!-- orkestra:changelog:begin"), text
    assert "- A widget (" in text
    rest = original[len(head.replace("\r\n", "\n")) if "\r" not in original else len(head) :]
    assert text.endswith(rest)
    again = render(cli, released.path)  # the block is found again, nothing else moves
    assert again.exit_code == 0 and path.read_bytes().decode("utf-8") == text


# --- 10. conflicting classifications after a union merge -----------------------------------------


def test_a_union_merge_conflict_renders_the_commit_once(released: GitRepo, cli: Any) -> None:
    import json

    root = released.path
    cl, rn = (root / "registries/changelog" / n for n in ("commits_processed", "release_notes"))
    cl, rn = cl.with_suffix(".jsonl"), rn.with_suffix(".jsonl")
    (c1,), (n1,) = ([json.loads(x) for x in f.read_text().splitlines()] for f in (cl, rn))
    # the other branch classified the same commit as fixed, a second later
    c2 = c1 | {"id": "c-other", "ts": "2099-01-01T00:00:01Z", "category": "fixed"}
    n2 = n1 | {"id": "n-other", "ts": c2["ts"], "category": "fixed", "classification": "c-other"}
    n2["summary"] = "Other words"
    texts = []
    for order in ((c1, c2, n1, n2), (c2, c1, n2, n1)):  # union merge: either side first
        cl.write_text(json.dumps(order[0]) + "\n" + json.dumps(order[1]) + "\n")
        rn.write_text(json.dumps(order[2]) + "\n" + json.dumps(order[3]) + "\n")
        assert render(cli, root).exit_code == 0
        texts.append((root / CORE).read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    assert "### Fixed\n\n- Other words (" in texts[0] and "### Added" not in texts[0]
    found = cli("mine", "validate", "--quick", cwd=root).json()["findings"]
    assert sorted(f["code"] for f in found) == ["ORK052", "ORK058"]  # until classified again


def test_a_tag_of_a_tag_is_the_release_of_the_commit_under_both(repo: GitRepo, cli: Any) -> None:
    # `git tag -a v1.0.0 rc-approved` (re-tagging an annotated tag) makes a tag of a tag
    from orkestra.mining.gitcmd import Git

    first = repo.commit("feat(core): first", {"packages/core/a.py": "a\n"})
    repo.tag("rc-approved", message="QA passed")
    repo.git("-c", "advice.nestedTag=false", "tag", "-a", "v1.0.0", "-m", "1.0.0", "rc-approved")
    repo.git("tag", "-a", "tree-tag", "-m", "a tag of a tree", "HEAD^{tree}")
    second = repo.commit("feat(core): second", {"packages/core/b.py": "b\n"})
    assert {name: sha for name, sha, _ in Git(repo.path).tags()} == {
        "rc-approved": first,
        "v1.0.0": first,
    }
    for sha in (first, second):
        classify(cli, repo.path, sha, "added")
    assert render(cli, repo.path).json()["changelogs"][0]["releases"] == 1
    text = (repo.path / CORE).read_text(encoding="utf-8")
    assert text.index("## [1.0.0]") < text.index("- First (") and "- Second (" in text
