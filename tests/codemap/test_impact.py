"""`code impact` follows references to a depth (3 unless `--depth N`) and says when dependents
lie further (`truncated`, with a hint), never stopping silently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from orkestra.codemap import api
from orkestra.core.errors import NotFound, UsageError
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


@pytest.fixture
def chain(project: Path) -> Path:
    """f6 -> f5 -> ... -> f1, one module each."""
    write(project, "m1.py", "def f1():\n    return 1\n")
    for i in range(2, 7):
        write(project, f"m{i}.py", f"from m{i - 1} import f{i - 1}\n\n\ndef f{i}():\n"
              f"    return f{i - 1}()\n")  # fmt: skip
    return project


def _depths(result: dict[str, Any]) -> dict[str, int]:
    return {d["symbol"]: d["depth"] for d in result["dependents"]}


def test_the_default_depth_reports_truncation_with_a_hint(chain: Path) -> None:
    got = api.impact(chain, "f1")
    assert _depths(got) == {"f2": 1, "f3": 2, "f4": 3}
    assert (got["depth"], got["truncated"]) == (3, True)
    assert "--depth 6" in got["hint"]


def test_a_larger_depth_reaches_every_dependent_and_is_not_truncated(chain: Path) -> None:
    got = api.impact(chain, "f1", depth=5)
    assert _depths(got) == {"f2": 1, "f3": 2, "f4": 3, "f5": 4, "f6": 5}
    assert got["truncated"] is False and "hint" not in got
    assert api.impact(chain, "f4", depth=2)["truncated"] is False  # f6 is exactly 2 hops away
    assert api.impact(chain, "f4", depth=1)["truncated"] is True


@pytest.mark.parametrize("depth", [0, -1, True])
def test_a_depth_below_one_is_a_usage_error(chain: Path, depth: Any) -> None:
    with pytest.raises(UsageError, match="depth must be a whole number of 1 or more"):
        api.impact(chain, "f1", depth=depth)


def test_code_impact_depth_option(cli: Any, chain: Path) -> None:
    default = cli("code", "impact", "f1", cwd=chain)
    assert (default.exit_code, default.json()["truncated"]) == (0, True)
    deep = cli("code", "impact", "f1", "--depth", "10", cwd=chain)
    assert (deep.exit_code, deep.json()["total"], deep.json()["truncated"]) == (0, 5, False)
    table = cli("code", "impact", "f1", "--format", "table", cwd=chain)
    assert "truncated  yes" in table.stdout and "larger depth" in table.stdout
    assert cli("code", "impact", "f1", "--depth", "0", cwd=chain).exit_code == 2


def test_the_mcp_tool_takes_a_depth(chain: Path) -> None:
    from orkestra.mcpserver.server import build
    from orkestra.mcpserver.workspace import Workspace

    ws = Workspace.open(chain)

    async def go() -> Any:
        async with Client(build(ws)) as client:
            short = await client.call_tool("analyze_dependencies", {"target": "f1"})
            deep = await client.call_tool("analyze_dependencies", {"target": "f1", "depth": 9})
            return short.structured_content, deep.structured_content

    try:
        short, deep = anyio.run(go)
    finally:
        ws.close()
    assert short["impact"]["truncated"] is True
    assert (deep["impact"]["truncated"], deep["impact"]["total"]) == (False, 5)


def test_an_unknown_target_says_it_is_no_symbol_nor_file(cli: Any, chain: Path) -> None:
    # a mistyped symbol was answered as a file "not tracked, ignored, binary, too big, ..."
    out = cli("code", "impact", "f1_typo", cwd=chain)
    assert out.exit_code == 1
    assert "'f1_typo' is neither a symbol nor a file of the code map" in out.stderr
    assert "orkestra code symbol f1_typo --similar" in out.stderr
    with pytest.raises(NotFound, match="neither a symbol nor a file"):
        api.analyze_dependencies(chain, "f1_typo")
    missing = cli("code", "impact", "lib/gone.py", cwd=chain)
    assert missing.exit_code == 1 and "'lib/gone.py' is not in the code map" in missing.stderr
