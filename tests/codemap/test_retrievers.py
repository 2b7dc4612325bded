"""The code search retrievers: identifier words, the structural BM25 and the seeded graph walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.codemap import api, search, store, words
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


def test_identifier_words_split_every_naming_style() -> None:
    assert words.split("loadConfig") == ["load", "config"]
    assert words.split("HTTPServerError") == ["http", "server", "error"]
    assert words.split("LOAD_CONFIG_2") == ["load", "config", "2"]
    assert words.path_words("src/app/codeMap.py") == "src app code map"
    assert words.path_words("bin/tool") == "bin tool"


def test_prefix_keeps_what_inflections_share() -> None:
    assert search.prefix("indexing") == search.prefix("indexed") == "index"
    assert search.prefix("resolves") == search.prefix("resolved") == "resolv"
    assert search.prefix("process") == "process"
    assert search.prefix("graph") == "graph"


def test_personalised_pagerank_ranks_neighbours_of_the_seeds() -> None:
    edges = {
        "a": {"b": 1.0},
        "b": {"a": 1.0, "c": 1.0},
        "c": {"b": 1.0},
        "d": {"e": 1.0},
        "e": {"d": 1.0},
    }
    ranks = search.personalised_pagerank(edges, {"a": 1.0})
    assert ranks["a"] > ranks["b"] > ranks["c"] > 0
    assert "d" not in ranks and "e" not in ranks
    assert sum(ranks.values()) == pytest.approx(1.0)


def _retrievers(root: Path) -> dict[str, search.Retriever]:
    api.index(root)
    return search.retrievers(store.connect(root, create=False))


def test_structural_matches_prose_to_identifier_parts(code_project: Path) -> None:
    write(code_project, "src/app/reader.py", "def parseSettingsFile(path):\n    return path\n")
    write(code_project, "src/app/tokens.py", "def parse(text):\n    return text\n")
    found = _retrievers(code_project)["structural"].search("parse the settings files", 5)
    assert found[0].path == "src/app/reader.py"
    assert (found[0].line, found[0].snippet) == (1, "def parseSettingsFile(path):")


def test_structural_ranks_an_exact_definition_first(code_project: Path) -> None:
    found = _retrievers(code_project)["structural"].search("load_config", 5)
    assert [h.path for h in found[:2]] == ["src/app/core.py", "vendor/lib/core.py"]


def test_graph_walks_from_the_matches_to_their_neighbours(code_project: Path) -> None:
    write(code_project, "src/app/settings.py", "def parseSettingsFile(path):\n    return path\n")
    write(
        code_project,
        "src/app/boot.py",
        "from app.settings import parseSettingsFile\n\n\ndef boot():\n"
        "    return parseSettingsFile('x')\n",
    )
    write(code_project, "src/app/main.py", "from app.boot import boot\n\nboot()\n")
    found = _retrievers(code_project)["graph"].search("parse the settings files", 10)
    paths = [h.path for h in found]
    assert set(paths[:2]) == {"src/app/settings.py", "src/app/boot.py"}
    # no query word in it: reached through its use of a match, cited there
    main = found[paths.index("src/app/main.py")]
    assert (main.line, main.snippet) == (3, "uses boot")
