"""Every tool through the SDK's in-memory client: results, citations, limits and bad arguments."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import MCPError

from tests.conftest import write
from tests.mcpserver.conftest import Session, call
from tests.mining.gitrepo import GitRepo

TOOLS = {
    "search",
    "get",
    "list",
    "context_for",
    "check_notes",
    "verify_truths",
    "mine_candidates",
}


async def error_of(client: Any, tool: str, **args: Any) -> str:
    """The message of a call that must fail: an MCP error, or an error result (schema)."""
    try:
        result = await client.call_tool(tool, args)
    except MCPError as exc:
        return exc.error.message
    assert result.is_error, f"{tool}({args}) did not fail: {result.structured_content}"
    return str(result.content[0].text)


def test_the_tools_and_their_schemas_are_listed(session: Session) -> None:
    async def go(client: Any) -> Any:
        return {t.name: t for t in (await client.list_tools()).tools}

    tools = session(go)
    assert set(tools) >= TOOLS
    search = tools["search"].input_schema
    assert search["required"] == ["query"]
    assert search["properties"]["limit"]["maximum"] == 500
    assert tools["get"].input_schema["required"] == ["kind", "id"]
    assert tools["context_for"].input_schema["properties"]["paths"]["type"] == "array"
    assert all(tools[name].annotations.read_only_hint for name in TOOLS)


def test_search_answers_short_hits_with_citations(session: Session, root: Path) -> None:
    async def go(client: Any) -> Any:
        return await call(client, "search", query="duckdb", limit=1)

    data = session(go)
    assert data["query"] == "duckdb" and data["total"] == 3 and len(data["results"]) == 1
    hit = data["results"][0]
    assert hit["id"] == "DEC-PL-142" and hit["type"] == "decisions"
    assert hit["cite"] == "registries/decisions/records/DEC-PL-142.yaml:1"
    path, line = hit["cite"].rsplit(":", 1)
    assert "id: DEC-PL-142" in (root / path).read_text().splitlines()[int(line) - 1]


def test_search_kinds_and_summary(session: Session) -> None:
    async def go(client: Any) -> Any:
        only = await call(client, "search", query="kubernetes", kinds=["truths"])
        counts = await call(client, "search", query="kubernetes", summary=True)
        return only, counts

    only, counts = session(go)
    assert only["results"] and {h["type"] for h in only["results"]} == {"truths"}
    assert counts["counts"]["truths"] == only["total"]
    assert counts["total"] > only["total"]  # agents and skills mention it too


def test_search_bad_arguments_are_errors_with_a_message(session: Session) -> None:
    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "search", query="   "),
            await error_of(client, "search", query="x", kinds=["gizmos"]),
            await error_of(client, "search", query="x", limit=0),
            await error_of(client, "search", limit=3),
            await error_of(client, "search", query="x", kinds=[""]),
        ]

    empty, kind, limit, missing, blank = session(go)
    assert "query is empty" in empty
    assert "unknown type 'gizmos' in kinds" in kind  # the tool's argument, not the CLI's --type
    assert "kinds needs at least one type" in blank and "--type" not in blank
    assert "limit" in limit and "greater than or equal to 1" in limit
    assert "query" in missing and "required" in missing.lower()


def test_get_every_registry_kind_with_its_citation(session: Session) -> None:
    async def go(client: Any) -> list[dict[str, Any]]:
        return [
            await call(client, "get", kind="agent", id="release-manager"),
            await call(client, "get", kind="skills", id="kubernetes-deploy"),
            await call(client, "get", kind="truth", id="GT-PIPE-001"),
            await call(client, "get", kind="decision", id="DEC-PL-142"),
            await call(client, "get", kind="note", id="duckdb-runner"),
        ]

    agent, skill, truth, decision, note = session(go)
    assert agent["cite"] == "registries/agents/release-manager.yaml:1"
    assert agent["description"].startswith("Cuts releases")
    assert skill["cite"].startswith("registries/skills/stacks/kubernetes-deploy.yaml")
    assert truth["cite"] == "registries/truths/pipeline.yaml:5"
    assert truth["evidence"] == ["packages/canonical/pipelines/runner.py"]
    assert decision["rationale"] == [
        "Columnar execution is faster",
        "One file format for every stage",
    ]
    assert note["cite"] == "knowledge/glossary/duckdb-runner.md:1"
    assert "executes each stage in DuckDB" in note["body"]


def test_get_a_claim(session: Session, root: Path) -> None:
    write(
        root,
        "knowledge/claims/2026-01-01-runner.json",
        '{"insights": [{"id": "CL-abc", "statement": "The runner is idempotent.", '
        '"category": "technical", "confidence": "low", "seen_count": 1}]}',
    )

    async def go(client: Any) -> Any:
        return await call(client, "get", kind="claim", id="CL-abc")

    claim = session(go)
    assert claim["statement"] == "The runner is idempotent."
    assert claim["cite"] == "knowledge/claims/2026-01-01-runner.json:1"


def test_a_claim_is_cited_to_its_line_as_search_cites_it(session: Session, root: Path) -> None:
    """Several claims share a file: `get` and `list` cite each at its own line (path:line),
    the line its search hit gives, not the file alone."""
    claims = [
        {"id": f"CL-{n}", "statement": f"Claim {word} holds.", "category": "technical",
         "confidence": "low", "seen_count": 1}
        for n, word in (("aaa", "zebracorn"), ("bbb", "quokkafish"))
    ]  # fmt: skip
    write(
        root,
        "knowledge/claims/2026-01-01-technical.json",
        json.dumps({"insights": claims}, indent=2),
    )

    async def go(client: Any) -> Any:
        found = {}
        for ident, word in (("CL-aaa", "zebracorn"), ("CL-bbb", "quokkafish")):
            hit = (await call(client, "search", query=word, kinds=["claims"]))["results"][0]
            got = await call(client, "get", kind="claim", id=ident)
            found[ident] = (hit["cite"], got["cite"])
        rows = (await call(client, "list", kind="claim"))["items"]
        return found, {r["id"]: r["cite"] for r in rows}

    found, listed = session(go)
    path = "knowledge/claims/2026-01-01-technical.json"
    assert found == {"CL-aaa": (f"{path}:4", f"{path}:4"), "CL-bbb": (f"{path}:11", f"{path}:11")}
    assert listed == {"CL-aaa": f"{path}:4", "CL-bbb": f"{path}:11"}


def test_get_unknown_entries_and_kinds_are_errors(session: Session) -> None:
    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "get", kind="decision", id="DEC-PL-999"),
            await error_of(client, "get", kind="widget", id="x"),
            await error_of(client, "get", kind="agent", id="release-manager2"),
        ]

    missing, kind, close = session(go)
    assert "no decision named 'DEC-PL-999'" in missing
    assert "unknown kind 'widget'" in kind and "agent, skill" in kind
    assert "did you mean release-manager" in close


def test_list_every_kind_with_filters_and_limits(session: Session) -> None:
    async def go(client: Any) -> list[dict[str, Any]]:
        return [
            await call(client, "list", kind="agents"),
            await call(client, "list", kind="truth", filters={"status": "current"}),
            await call(client, "list", kind="decision", filters={"domain": "pipeline"}, limit=2),
            await call(client, "list", kind="note"),
            await call(client, "list", kind="scope"),
            await call(client, "list", kind="skill", filters={"layer": "K0"}),
        ]

    agents, truths, decisions, notes, scopes, skills = session(go)
    assert agents["total"] == 3 and agents["items"][0]["cite"].startswith("registries/agents/")
    assert {t["status"] for t in truths["items"]} == {"current"} and truths["total"] == 3
    assert decisions["total"] == 3 and len(decisions["items"]) == 2
    assert all(d["domain"] == "pipeline" for d in decisions["items"])
    assert {n["name"] for n in notes["items"]} == {"duckdb-runner", "unrelated"}
    assert scopes["total"] >= 1 and all(":" in s["cite"] for s in scopes["items"])
    assert [s["name"] for s in skills["items"]] == ["evidence-first"]


def test_list_bad_filters_are_errors(session: Session) -> None:
    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "list", kind="truth", filters={"colour": "red"}),
            await error_of(client, "list", kind="truth", filters={"status": "bogus"}),
            await error_of(client, "list", kind="agent", limit=501),
        ]

    unknown, status, limit = session(go)
    assert "unknown filter 'colour' for truth (allowed: status)" in unknown
    assert "must be one of current" in status
    assert "limit" in limit


def test_context_for_ranks_what_concerns_the_paths(session: Session, root: Path) -> None:
    async def go(client: Any) -> Any:
        exact = await call(client, "context_for", paths=["packages/canonical/pipelines/runner.py"])
        folder = await call(client, "context_for", paths=[f"{root}/packages/canonical"])
        nothing = await call(client, "context_for", paths=["README.md"])
        return exact, folder, nothing

    exact, folder, nothing = session(go)
    kinds = [(i["kind"], i["id"]) for i in exact["items"]]
    assert kinds == [
        ("decision", "DEC-PL-142"),
        ("truth", "GT-PIPE-001"),
        ("note", "duckdb-runner"),
    ]
    assert exact["items"][0]["cite"] == "registries/decisions/records/DEC-PL-142.yaml:1"
    assert exact["items"][1]["cite"] == "registries/truths/pipeline.yaml:5"
    assert folder["paths"] == ["packages/canonical"]
    assert folder["total"] == 3 and all(i["score"] < 3 for i in folder["items"])
    assert nothing == {"paths": ["README.md"], "total": 0, "items": []}


def test_context_for_reads_a_glob_in_files_as_orkestra_yaml_globs_do(
    session: Session, root: Path
) -> None:
    """A decision's `files` glob is read as every other path glob of Orkestra (`core.globs`): `*`
    stays within one folder, `**/` also matches no folder at all."""
    record = root / "registries/decisions/records/DEC-SR-001.yaml"
    text = record.read_text(encoding="utf-8")
    globs = "files: [src/orkestra/search/*.py, docs/**/search.md]"
    record.write_text(text.replace("files: [src/orkestra/search/index.py]", globs), "utf-8")

    async def go(client: Any) -> Any:
        paths = ["src/orkestra/search/index.py", "src/orkestra/search/deep/x.py", "docs/search.md"]
        return [await call(client, "context_for", paths=[p]) for p in paths]

    direct, nested, docs = (
        [(i["id"], i["score"]) for i in found["items"] if i["kind"] == "decision"]
        for found in session(go)
    )
    assert direct == [("DEC-SR-001", 2.5)]
    assert nested == []  # `*` does not cross a folder
    assert docs == [("DEC-SR-001", 2.5)]


def test_context_for_the_project_folder_is_everything_that_names_a_file(
    session: Session, root: Path
) -> None:
    """`.` (or the project's absolute path) is the folder holding every file: what concerns any
    file is listed, as for any other folder (it was an empty answer)."""

    async def go(client: Any) -> Any:
        return [await call(client, "context_for", paths=[p]) for p in (".", str(root), "./")]

    dot, absolute, slash = session(go)
    ids = {(i["kind"], i["id"]) for i in dot["items"]}
    assert {("decision", "DEC-PL-142"), ("truth", "GT-PIPE-001"), ("note", "duckdb-runner")} <= ids
    assert all(i["score"] == 2.0 for i in dot["items"])
    assert dot["paths"] == absolute["paths"] == slash["paths"] == ["."]
    assert dot["items"] == absolute["items"] == slash["items"]


def test_context_for_follows_source_commits(session: Session, root: Path) -> None:
    repo = GitRepo(root)
    sha = repo.commit("feat(web): console", {"packages/web/app.ts": "x\n"})
    record = root / "registries/decisions/records/DEC-AD-007.yaml"
    record.write_text(record.read_text() + f"source_commits:\n  - sha: {sha}\n", encoding="utf-8")

    async def go(client: Any) -> Any:
        await call(client, "mine_candidates", limit=5)  # builds the commit index
        return await call(client, "context_for", paths=["packages/web/app.ts"])

    found = session(go)
    assert [(i["kind"], i["id"]) for i in found["items"]] == [("decision", "DEC-AD-007")]
    assert found["items"][0]["because"].startswith(f"commit {sha[:10]} changed")


def test_context_for_bad_paths(session: Session) -> None:
    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "context_for", paths=[]),
            await error_of(client, "context_for", paths=["/etc/passwd"]),
        ]

    empty, outside = session(go)
    assert "paths is empty" in empty
    assert "outside the project" in outside


def test_check_notes_reports_without_writing(session: Session, root: Path) -> None:
    before = (root / "knowledge/glossary/duckdb-runner.md").read_bytes()

    async def go(client: Any) -> Any:
        one = await call(client, "check_notes", names=["duckdb-runner"])
        every = await call(client, "check_notes")
        bad = await error_of(client, "check_notes", names=["nope"])
        return one, every, bad

    one, every, bad = session(go)
    assert [n["name"] for n in one["notes"]] == ["duckdb-runner"]
    assert one["notes"][0]["outcome"] == "confirmed" and one["applied"] is False
    assert one["notes"][0]["cite"] == "knowledge/glossary/duckdb-runner.md:1"
    assert every["checked"] == 2
    assert "no note named 'nope'" in bad
    assert (root / "knowledge/glossary/duckdb-runner.md").read_bytes() == before


def test_verify_truths(session: Session) -> None:
    async def go(client: Any) -> Any:
        one = await call(client, "verify_truths", ids=["GT-PIPE-001"])
        every = await call(client, "verify_truths")
        bad = await error_of(client, "verify_truths", ids=["GT-NOPE-001"])
        return one, every, bad

    one, every, bad = session(go)
    assert one["checked"] == 1 and one["truths"][0]["cite"] == "registries/truths/pipeline.yaml:5"
    assert one["truths"][0]["evidence"][0]["status"] == "ok"
    assert every["checked"] > 1
    assert "no truth with id 'GT-NOPE-001'" in bad


def test_an_id_or_name_in_a_file_that_failed_to_load_points_at_that_file(root: Path) -> None:
    """verify_truths(ids) and check_notes(names) answer a name they cannot find as `get` and the
    CLI do: the entry may be in the file that failed to load, which the error names (file:line).
    The files break before the server starts: there is no last good load to serve."""
    import anyio
    from mcp import Client

    from orkestra.mcpserver.server import build
    from orkestra.mcpserver.workspace import Workspace

    truths = root / "registries/truths/pipeline.yaml"
    truths.write_text(
        truths.read_text(encoding="utf-8").replace(
            "  owner: pipeline\n", "  owner: a\n  owner: b\n"
        ),
        encoding="utf-8",
    )
    write(root, "knowledge/gotchas/broken.md", "---\ntype: gotcha\ntitle: [unclosed\n---\nBody.\n")
    # another broken note, walked first: it cannot hold the note named 'broken'
    write(root, "knowledge/conventions/aardvark.md", "---\ntype: convention\n\ttitle: x\n---\n")

    async def go(client: Any) -> Any:
        truth = await error_of(client, "verify_truths", ids=["GT-PIPE-001"])
        note = await error_of(client, "check_notes", names=["broken"])
        titled = await call(client, "check_notes", names=["DuckDB runner"])
        return truth, note, titled

    ws = Workspace.open(root)

    async def main() -> Any:
        async with Client(build(ws)) as client:
            return await go(client)

    try:
        truth, note, titled = anyio.run(main)
    finally:
        ws.close()
    assert "no truth with id 'GT-PIPE-001'" in truth
    assert "registries/truths/pipeline.yaml:4" in truth and "duplicate key 'owner'" in truth
    assert note.startswith("knowledge/gotchas/broken.md:4: no note named 'broken'"), note
    assert "failed to load" in note
    assert [n["name"] for n in titled["notes"]] == ["duckdb-runner"]  # as get(kind='note') finds it


def test_get_finds_a_note_by_the_path_its_search_hit_cites(session: Session) -> None:
    async def go(client: Any) -> Any:
        hit = (await call(client, "search", query="DuckDB runner", kinds=["notes"]))["results"][0]
        return hit, await call(client, "get", kind="note", id=hit["path"])

    hit, got = session(go)
    assert hit["path"] == "knowledge/glossary/duckdb-runner.md"
    assert (got["name"], got["cite"]) == ("duckdb-runner", "knowledge/glossary/duckdb-runner.md:1")


def test_get_finds_a_note_by_its_absolute_path(session: Session, root: Path) -> None:
    """An agent names files by absolute path (Claude Code's Read): get(kind='note') takes one."""

    async def go(client: Any) -> Any:
        path = str(root / "knowledge/glossary/duckdb-runner.md")
        return await call(client, "get", kind="note", id=path)

    assert session(go)["name"] == "duckdb-runner"


def test_mine_candidates(session: Session, root: Path) -> None:
    repo = GitRepo(root)
    repo.commit("feat(canonical): faster runner", {"packages/canonical/x.py": "x\n"})
    repo.commit("fix(web): button", {"packages/web/b.ts": "b\n"})

    async def go(client: Any) -> Any:
        return await call(client, "mine_candidates", limit=1)

    found = session(go)
    assert found["total"] == 2  # every unclassified commit; the limit cuts the list
    assert [c["subject"] for c in found["candidates"]] == ["fix(web): button"]


@pytest.mark.parametrize("limit", [0, 501])
def test_mine_candidates_limit(session: Session, limit: int) -> None:
    async def go(client: Any) -> str:
        return await error_of(client, "mine_candidates", limit=limit)

    assert "limit" in session(go)


@pytest.mark.parametrize(
    ("kind", "filters"),
    [
        ("note", {"type": ["x"]}),
        ("claim", {"confidence": {"a": 1}}),
        ("skill", {"layer": 5}),
        ("decision", {"status": ["accepted"]}),
        ("truth", {"status": 5.5}),
    ],
)
def test_list_filter_values_of_the_wrong_type_are_errors_not_crashes(
    session: Session, kind: str, filters: dict[str, Any]
) -> None:
    # found by the issue 11 review: a list as a note filter was "Error executing tool list" (a crash)
    async def go(client: Any) -> str:
        return await error_of(client, "list", kind=kind, filters=filters)

    message = session(go)
    assert "must be a string" in message and next(iter(filters)) in message


@pytest.mark.parametrize(
    ("kind", "filters", "valid"),
    [
        ("truth", {"status": "bogus"}, "current"),
        ("decision", {"status": "bogus"}, "active"),
        ("skill", {"layer": "K9"}, "K0..K4"),
    ],
)
def test_a_filter_value_out_of_range_is_named_without_a_cli_option(
    session: Session, kind: str, filters: dict[str, Any], valid: str
) -> None:
    # the message is the registry's, shared with the CLI: it names the filter, not `--status`
    async def go(client: Any) -> str:
        return await error_of(client, "list", kind=kind, filters=filters)

    message = session(go)
    key = next(iter(filters))
    assert f"{key} must be one of" in message and valid in message, message
    assert f"--{key}" not in message


@pytest.mark.parametrize(
    ("tool", "args", "where"),
    [
        ("search", {"query": "run\ud800"}, "query"),
        ("get", {"kind": "agent", "id": "\udfff"}, "id"),
        ("context_for", {"paths": ["src/\ud800.py"]}, "paths"),
        ("list", {"kind": "skill", "filters": {"layer": "\ud800"}}, "filters.layer"),
    ],
)
def test_a_lone_surrogate_is_a_bad_argument_not_a_crashed_tool(
    session: Session, tool: str, args: dict[str, Any], where: str
) -> None:
    # red team 2: JSON's "\ud800" reaches a tool as a lone surrogate; sqlite and any answer that
    # echoes it fail to encode ("Error executing tool", or a response the transport drops)
    async def go(client: Any) -> str:
        return await error_of(client, tool, **args)

    message = session(go)
    # checked by the server, or by the schema where an argument is a bounded string
    ours = message.startswith(f"{where}: not valid Unicode text (a lone surrogate")
    schema = f"\n{where}\n" in message or f"\n{where}.0\n" in message
    assert ours or (schema and "string_unicode" in message), message


def test_a_limit_of_the_wrong_type_is_refused(session: Session) -> None:
    # red team 2: pydantic's lax mode read `true` as 1 and "7" as 7
    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "search", query="x", limit=True),
            await error_of(client, "list", kind="skill", limit="7"),
        ]

    for message in session(go):
        assert "valid integer" in message


def test_a_summary_of_the_wrong_type_is_refused(session: Session) -> None:
    # lax mode read "yes" and 1 as true, and "no" as false: an answer to a question not asked
    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "search", query="kubernetes", summary=value)
            for value in ("yes", "no", 1, "true")
        ]

    for message in session(go):
        assert "summary" in message and "valid boolean" in message


def test_arguments_are_bounded(session: Session) -> None:
    # red team 2: answers echo their arguments; 100 paths of 1 MB each came back as a 100 MB answer
    long = "a" * 5000

    async def go(client: Any) -> list[str]:
        return [
            await error_of(client, "search", query=long),
            await error_of(client, "get", kind="agent", id=long),
            await error_of(client, "context_for", paths=[long]),
            await error_of(client, "check_notes", names=["x"] * 1001),
            await error_of(client, "verify_truths", ids=["x"] * 1001),
        ]

    query, ident, path, names, ids = session(go)
    for message in (query, ident, path):
        assert "at most 4096 characters" in message
    for message in (names, ids):
        assert "at most 1000 items" in message


def test_search_with_the_code_kind_answers_as_the_cli(
    session: Session, root: Path, cli: Any
) -> None:
    # `orkestra search Q --type code` adds the code map's hits; the tool answered none at all
    async def go(client: Any) -> Any:
        return [
            await call(client, "search", query="runner", kinds=["code"]),
            await call(client, "search", query="runner", kinds=["code", "notes"]),
            await call(client, "search", query="runner", kinds=["code"], summary=True),
        ]

    code, mixed, counts = session(go)
    for answer, args in (
        (code, ("--type", "code")),
        (mixed, ("--type", "code,notes")),
        (counts, ("--type", "code", "--summary")),
    ):
        expected = cli("search", "runner", *args, cwd=root).json()
        for hit in answer.get("results", []):
            assert hit.pop("cite") == f"{hit['path']}:{hit['line']}"
        assert answer == expected, args
    assert code["total"] > 0 and {h["type"] for h in code["results"]} == {"code"}
    assert counts["counts"]["code"] == code["total"]


def test_context_for_reads_a_relative_path_as_the_file_it_names(session: Session) -> None:
    # `a/./b`, `a//b` and `a/x/../b` name `a/b`; `../x` leaves the project as `/etc/x` does
    exact = "packages/canonical/pipelines/runner.py"
    spellings = [
        "packages/./canonical/pipelines/runner.py",
        "packages//canonical/pipelines/runner.py",
        "packages/web/../canonical/pipelines/runner.py",
        "./packages/canonical/pipelines/runner.py",
    ]

    async def go(client: Any) -> Any:
        same = [await call(client, "context_for", paths=[p]) for p in [exact, *spellings]]
        outside = [
            await error_of(client, "context_for", paths=[p])
            for p in ("../etc/passwd", "packages/../../etc/passwd", "..")
        ]
        return same, outside

    same, outside = session(go)
    assert same[0]["total"] == 3
    for answer in same[1:]:
        assert answer == same[0]
    for message in outside:
        assert "is outside the project" in message


def test_search_reads_nothing_through_a_symlink_leaving_the_project(
    session: Session, root: Path, tmp_path: Path
) -> None:
    """§13: an agent file that is a symlink out of the project is refused (ORK045, in the
    answer's findings), never indexed: its text is not an answer."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("name: zz-out\ndescription: The hunter2 secret. Use when never.\n", "utf-8")
    (root / "registries/agents/zz-out.yaml").symlink_to(outside)

    async def go(client: Any) -> Any:
        return await call(client, "search", query="hunter2")

    found = session(go)
    assert (found["total"], found["results"]) == (0, [])
    assert ("ORK045", "registries/agents/zz-out.yaml") in {
        (f["code"], f["file"]) for f in found["findings"]
    }


def test_every_tool_says_the_project_is_gone_when_registries_is_gone(
    session: Session, root: Path
) -> None:
    """The CLI answers `no registries/ folder` once registries/ is gone (moved away, a checkout
    without it); so does every tool, not a search answering nothing from an empty scan."""
    import shutil

    async def go(client: Any) -> Any:
        before = await call(client, "search", query="duckdb")
        shutil.move(root / "registries", root / "registries.off")
        gone = [
            await error_of(client, "search", query="duckdb"),
            await error_of(client, "search", query="duckdb", summary=True),
            await error_of(client, "check_notes"),
            await error_of(client, "get", kind="agent", id="release-manager"),
        ]
        shutil.move(root / "registries.off", root / "registries")
        after = await call(client, "search", query="duckdb")
        return before, gone, after

    before, gone, after = session(go)
    assert before["total"] > 0 and after == before
    for message in gone:
        assert message.startswith(f"no registries/ folder in {root}"), message
