"""`orkestra code ...` through the real command line (in-process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import languages
from tests.codemap.conftest import needs_tree_sitter

pytestmark = needs_tree_sitter


def test_index_then_symbol_refs_impact_search(cli: Any, code_project: Path) -> None:
    done = cli("code", "index", cwd=code_project)
    assert done.exit_code == 0
    assert done.json()["languages"]["python"]["gate"] == "GREEN"
    sym = cli("code", "symbol", "load_config", cwd=code_project).json()
    assert sym["symbols"][0]["location"] == "src/app/core.py:4"
    refs = cli("code", "refs", "Engine.start", cwd=code_project).json()
    assert {r["location"] for r in refs["references"]} == {"src/app/cli.py:6", "src/app/core.py:13"}
    impact = cli("code", "impact", "load_config", cwd=code_project).json()
    assert impact["dependents"][0]["depth"] == 1
    found = cli("code", "search", "def Engine", cwd=code_project).json()
    assert (found["intent"], found["fusion_strategy"]) == ("find_definition", "direct")
    assert found["results"][0]["location"] == "src/app/core.py:8"


def test_table_format_for_people(cli: Any, code_project: Path) -> None:
    out = cli("code", "outline", "src/app/core.py", "--format", "table", cwd=code_project)
    assert out.exit_code == 0
    assert "Engine.start" in out.stdout and "src/app/core.py:9" in out.stdout


def test_unknown_symbol_is_an_empty_result_not_an_error(cli: Any, code_project: Path) -> None:
    out = cli("code", "symbol", "load_confg", cwd=code_project)
    assert (out.exit_code, out.json()["symbols"]) == (0, [])


def test_a_path_outside_the_map_is_an_error_naming_it(cli: Any, code_project: Path) -> None:
    out = cli("code", "deps", "missing.py", "--format", "json", cwd=code_project)
    assert out.exit_code == 1
    assert "'missing.py' is not in the code map" in out.stderr


def test_without_the_extra_the_command_says_how_to_install(
    cli: Any, code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing() -> object:
        raise languages.MissingExtra(f"the code map needs tree-sitter: {languages.INSTALL_HINT}")

    monkeypatch.setattr(languages, "require", missing)
    out = cli("code", "index", cwd=code_project)
    assert out.exit_code == 1
    assert "pip install 'orkestra[code]'" in out.stderr
    assert not (code_project / ".orkestra" / "code.sqlite").exists()


def test_deps_never_name_a_namesake_module_of_another_folder(cli: Any, project: Path) -> None:
    (project / "vendored").mkdir()
    (project / "vendored" / "json.py").write_text("def dumps(o):\n    return o\n", encoding="utf-8")
    (project / "report.py").write_text("import json\n", encoding="utf-8")
    out = cli("code", "deps", "vendored/json.py", cwd=project)
    assert (out.exit_code, out.json()["importers"]) == (0, [])


def test_refs_of_a_method_called_on_an_instance_despite_an_alias(cli: Any, project: Path) -> None:
    (project / "core.py").write_text(
        "def run():\n    return 1\n\n\nclass Engine:\n    def start(self):\n        return 1\n",
        encoding="utf-8",
    )
    (project / "a.py").write_text(
        "from core import run as start\nfrom core import Engine\n\n\n"
        "def main():\n    e = Engine()\n    e.start()\n",
        encoding="utf-8",
    )
    out = cli("code", "refs", "Engine.start", cwd=project)
    assert [r["location"] for r in out.json()["references"]] == ["a.py:7"]


def test_an_unknown_kind_is_a_usage_error(cli: Any, code_project: Path) -> None:
    out = cli("code", "symbol", "Engine", "--kind", "nonsense", cwd=code_project)
    assert out.exit_code == 2
    assert "unknown kind 'nonsense'" in out.stderr and "function" in out.stderr


def test_outline_takes_an_absolute_path_inside_the_project(cli: Any, code_project: Path) -> None:
    out = cli("code", "outline", str(code_project / "src" / "app" / "core.py"), cwd=code_project)
    assert (out.exit_code, out.json()["path"]) == (0, "src/app/core.py")
    outside = cli("code", "outline", "/etc/hostname", cwd=code_project)
    assert outside.exit_code == 1 and "is outside the project" in outside.stderr


def test_outline_takes_an_absolute_path_under_a_symlinked_cwd(
    cli: Any, code_project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    link = tmp_path_factory.mktemp("links") / "checkout"
    link.symlink_to(code_project, target_is_directory=True)
    out = cli("code", "outline", str(link / "src" / "app" / "core.py"), cwd=link)
    assert (out.exit_code, out.json()["path"]) == (0, "src/app/core.py"), out.stderr
    outside = cli("code", "outline", "../elsewhere/core.py", cwd=link)
    assert outside.exit_code == 1 and "is outside the project" in outside.stderr


def test_the_largest_limit_is_a_search_not_an_overflow(cli: Any, code_project: Path) -> None:
    assert cli("code", "index", cwd=code_project).exit_code == 0
    for query in ("load_config", "who calls Engine", "how does the engine start"):
        out = cli("code", "search", query, "--limit", str(2**63 - 1), cwd=code_project)
        assert out.exit_code == 0, out.stderr
        assert out.json()["results"], query


def test_outline_reads_a_path_with_dot_segments_as_the_file(cli: Any, code_project: Path) -> None:
    out = cli("code", "outline", "src/app/../app/./core.py", cwd=code_project)
    assert (out.exit_code, out.json()["path"]) == (0, "src/app/core.py")
    up = cli("code", "deps", "../core.py", "--format", "json", cwd=code_project)
    assert up.exit_code == 1 and "'../core.py' is outside the project" in up.stderr


def test_a_folder_given_for_a_file_is_named_a_folder(cli: Any, code_project: Path) -> None:
    """`code outline src/app` said the folder was "not tracked, ignored, binary, too big"."""
    for given in ("src/app", "src/app/", str(code_project / "src")):
        out = cli("code", "outline", given, cwd=code_project)
        assert out.exit_code == 1, given
        assert "is a folder; give one file in it, such as 'src/app/cli.py'" in out.stderr, given
    missing = cli("code", "outline", "src/nothing.py", cwd=code_project)
    assert missing.exit_code == 1 and "is not in the code map" in missing.stderr


def test_an_empty_symbol_name_is_a_usage_error(cli: Any, code_project: Path) -> None:
    """`code symbol '' --similar` listed every symbol of the map."""
    for args in (("",), ("", "--similar"), ("  ",)):
        out = cli("code", "symbol", *args, cwd=code_project)
        assert out.exit_code == 2 and "give a symbol name" in out.stderr, args
