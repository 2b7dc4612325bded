"""`orkestra search` and the group search commands through the real CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TYPES = [
    "agents",
    "skills",
    "scopes",
    "decisions",
    "truths",
    "domains",
    "notes",
    "claims",
    "packages",
]


def test_search_prints_ranked_hits(cli: Any, root: Path) -> None:
    r = cli("search", "duckdb", cwd=root)
    assert r.exit_code == 0, r.stderr
    hits = r.json()["results"]
    assert [h["id"] for h in hits] == ["DEC-PL-142", "DEC-PL-151"]
    assert set(hits[0]) == {"type", "id", "title", "score", "matched_fields", "path", "line"}
    assert hits[0]["path"] == "registries/decisions/records/DEC-PL-142.yaml"


def test_summary_counts_equal_per_type_hits(cli: Any, root: Path) -> None:
    for query in ("kubernetes", "pipeline", "search", "kuberntes"):
        summary = cli("search", query, "--summary", cwd=root).json()
        assert list(summary) == ["query", "total", "counts"]
        assert list(summary["counts"]) == TYPES
        for kind in TYPES:
            hits = cli("search", query, "--type", kind, "--limit", "1000", cwd=root).json()[
                "results"
            ]
            assert summary["counts"][kind] == len(hits), (query, kind)
        assert summary["total"] == sum(summary["counts"].values())
        assert summary["total"] == len(
            cli("search", query, "-n", "1000", cwd=root).json()["results"]
        )


def test_limit_and_type_filter(cli: Any, root: Path) -> None:
    hits = cli("search", "kubernetes", "--limit", "2", cwd=root).json()["results"]
    assert [h["id"] for h in hits] == ["kubernetes-deploy", "DEC-AD-007"]
    hits = cli("search", "kubernetes", "--type", "truths,decisions", cwd=root).json()["results"]
    assert [h["id"] for h in hits] == ["DEC-AD-007", "GT-ORK-003", "GT-ORK-004"]
    assert cli("search", "kubernetes", "--type", "truth", cwd=root).exit_code == 0


def test_a_repeated_type_option_adds_types_as_a_comma_does(cli: Any, root: Path) -> None:
    """`-t truths -t decisions` is `--type truths,decisions`, as a repeated `--status` or `--tag`
    is "any of": the last `-t` alone silently dropped the other types from the answer."""
    joined = cli("search", "kubernetes", "--type", "truths,decisions", cwd=root).json()
    repeated = cli("search", "kubernetes", "-t", "truths", "--type", "decisions", cwd=root)
    assert repeated.exit_code == 0 and repeated.json() == joined
    mixed = cli("search", "kubernetes", "-t", "truths,decisions", "-t", "agents", cwd=root).json()
    assert {h["type"] for h in mixed["results"]} == {"truths", "decisions", "agents"}
    bad = cli("search", "kubernetes", "-t", "truths", "-t", "nosuch", cwd=root)
    assert bad.exit_code == 2 and "unknown type 'nosuch'" in bad.stderr


def test_empty_result_is_an_empty_list(cli: Any, root: Path) -> None:
    r = cli("search", "xyzzy plugh", cwd=root)
    assert (r.exit_code, r.stdout) == (0, '{"query":"xyzzy plugh","total":0,"results":[]}\n')


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("search", "x", "--type", "nosuch"), "unknown type 'nosuch' in --type"),
        (("search", "x", "--type", ","), "--type needs at least one type"),
        (("search", "x", "--limit", "0"), "--limit must be a positive number, got 0"),
        (("search", "x", "--limit", "-3"), "--limit must be a positive number, got -3"),
        (("search", "  "), "the search query is empty"),
        (("truths", "search", "x", "--status", "nosuch"), "unknown --status 'nosuch'"),
        (("decisions", "search", "x", "--status", "open"), "unknown --status 'open'"),
        (("decisions", "search"), "missing query: orkestra decisions search QUERY"),
        (("decisions", "search", "a", "--query", "b"), "either as an argument or as --query"),
    ],
)
def test_malformed_filters_are_usage_errors(
    cli: Any, root: Path, args: tuple[str, ...], message: str
) -> None:
    r = cli(*args, cwd=root)
    assert r.exit_code == 2
    assert message in r.stderr
    assert r.stdout == ""


def test_usage_error_as_json(cli: Any, root: Path) -> None:
    r = cli("search", "x", "--limit", "0", "--format", "json", cwd=root)
    assert r.exit_code == 2
    assert json.loads(r.stderr)["error"]["code"] == "usage"


def test_no_registry_is_not_found(cli: Any, tmp_path: Path) -> None:
    r = cli("search", "x", cwd=tmp_path)
    assert r.exit_code == 1
    assert "no registries/ folder" in r.stderr


def test_group_searches(cli: Any, root: Path) -> None:
    def found(*args: str) -> list[str]:
        r = cli(*args, cwd=root)
        assert r.exit_code == 0, r.stderr
        return [h["id"] for h in r.json()["results"]]

    assert found("agents", "search", "kubernetes") == ["cluster-operator"]
    assert found("skills", "search", "kuberntes") == ["kubernetes-deploy"]
    assert found("skills", "search", "pdf") == ["pdf-tools"]
    assert found("scopes", "search", "database") == ["database"]
    assert found("truths", "search", "kubernetes", "--status", "tentative") == ["GT-ORK-004"]
    assert found("truths", "search", "agents", "--tag", "deployment") == [
        "GT-ORK-003",
        "GT-ORK-004",
    ]
    assert found("decisions", "search", "postgres", "--domain", "pipeline") == [
        "DEC-PL-150",
        "DEC-PL-151",
    ]
    assert found("decisions", "search", "--query", "duckdb", "--status", "active") == [
        "DEC-PL-142",
        "DEC-PL-151",
    ]
    assert found("decisions", "search", "nothing-like-this") == []


def test_registry_compatibility_spelling(cli: Any, root: Path) -> None:
    r = cli("registry", "decisions", "search", "--query", "duckdb", cwd=root)
    assert r.exit_code == 0, r.stderr
    assert r.stdout == cli("decisions", "search", "duckdb", cwd=root).stdout
    assert [h["id"] for h in r.json()["results"]] == ["DEC-PL-142", "DEC-PL-151"]
    truths = cli("registry", "truths", "search", "kubernetes", "--status", "tentative", cwd=root)
    assert (truths.exit_code, [h["id"] for h in truths.json()["results"]]) == (0, ["GT-ORK-004"])
    listing = cli("registry", "--help", cwd=root)
    assert listing.exit_code == 0
    for group in ("agents", "skills", "scopes", "truths", "decisions", "changelog"):
        assert f"  {group} " in listing.stdout
    assert "  search " not in listing.stdout and "  mine " not in listing.stdout


def test_table_and_text_formats(cli: Any, root: Path) -> None:
    table = cli("search", "duckdb", "--format", "table", cwd=root)
    assert table.exit_code == 0
    assert table.stdout.rstrip().endswith("2 of 2 hits for 'duckdb'")
    text = cli("search", "duckdb", "-f", "text", cwd=root).stdout.splitlines()
    assert table.stdout.splitlines() == text  # text is an alias of table
    assert text[0].split()[1:3] == ["decisions", "DEC-PL-142"]
    assert text[0].endswith("registries/decisions/records/DEC-PL-142.yaml:1")


def test_root_option_and_option_spellings(cli: Any, root: Path, tmp_path: Path) -> None:
    """`--root` before the command, `--opt=value`, `--` before a dash-led query."""
    here = cli("search", "kubernetes", "--type", "truths,decisions", "-n", "2", cwd=root)
    there = cli(
        "--root", str(root), "search", "kubernetes", "--type=truths,decisions", "--limit=2",
        cwd=tmp_path,
    )  # fmt: skip
    assert (there.exit_code, there.stdout) == (0, here.stdout)
    assert [h["id"] for h in there.json()["results"]] == ["DEC-AD-007", "GT-ORK-003"]
    dashed = cli("search", "--", "-xyzzy", cwd=root)
    assert (dashed.exit_code, dashed.json()["results"]) == (0, [])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("search",), "Missing argument"),
        (("search", "a", "b"), "Got unexpected extra argument(s) (b)"),
        (("search", "x", "--bogus"), "No such option: --bogus"),
        (("search", "x", "--limit", "many"), "Input should be a valid integer"),
        (("search", "x", "--format", "yaml"), "'yaml' is not one of 'json', 'table', 'text'"),
    ],
)
def test_command_line_mistakes_are_click_usage_errors(
    cli: Any, root: Path, args: tuple[str, ...], message: str
) -> None:
    r = cli(*args, cwd=root)
    assert (r.exit_code, r.stdout) == (2, "")
    assert message in r.stderr and "Usage: orkestra search" in r.stderr


def test_help_lists_the_options(cli: Any, root: Path) -> None:
    r = cli("search", "--help", cwd=root)
    assert r.exit_code == 0 and r.stderr == ""
    for option in ("--summary", "--limit", "--type", "--format"):
        assert option in r.stdout


def test_installed_executable(root: Path) -> None:
    exe = Path(sys.executable).parent / "orkestra"
    command = str(exe) if exe.is_file() else shutil.which("orkestra")
    if command is None:
        pytest.skip("orkestra is not installed")
    done = subprocess.run(
        [command, "search", "kuberntes", "--summary"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["counts"]["truths"] == 2


@pytest.mark.parametrize(
    "fmt", [["-f", "json"], ["--format", "json"], ["--format=json"], ["-fjson"]]
)
def test_errors_are_json_objects_when_json_is_asked_for(
    cli: Any, root: Path, fmt: list[str]
) -> None:
    r = cli("search", "x", "--type", "nosuch", *fmt, cwd=root)
    assert (r.exit_code, r.stdout) == (2, "")
    error = json.loads(r.stderr)["error"]
    assert error["code"] == "usage" and "unknown type 'nosuch' in --type" in error["message"]
    assert r.stderr.count("\n") == 1


def test_errors_are_one_line_by_default(cli: Any, root: Path) -> None:
    r = cli("search", "x", "--type", "nosuch", cwd=root)
    assert r.exit_code == 2 and r.stderr.startswith("orkestra: unknown type 'nosuch' in --type")
    assert r.stderr.count("\n") == 1


def test_search_warns_about_a_note_symlink_out_while_it_is_there_and_not_after(
    cli: Any, root: Path, tmp_path: Path
) -> None:
    """A note that is a symlink leaving the project is refused (KN012, as `notes list` says):
    search warns about it from the first search after it appears, and stops once it is gone
    (the index's scan did not see symlinks: the warning came late, then outlived the link)."""
    from tests.knowledge.helpers import note

    note(root, "kept", title="Kept note")
    assert cli("search", "kept", cwd=root).stderr == ""  # the index is built
    outside = tmp_path / "outside.md"
    outside.write_text("---\ntype: gotcha\ntitle: Leak\n---\nhunter2\n", encoding="utf-8")
    link = root / "knowledge/gotchas/leak.md"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    there = cli("search", "hunter2", cwd=root)
    assert there.json()["total"] == 0
    assert "knowledge/gotchas/leak.md: KN012: " in there.stderr, there.stderr
    link.unlink()
    gone = cli("search", "hunter2", cwd=root)
    assert gone.json()["total"] == 0 and gone.stderr == ""
