"""A minified bundle (thousands of definitions on one line just under the 1 MiB limit) is
indexed in linear time: each name was looked for in the whole file, and each definition's
line (the whole file) decoded again for its signature, 37 s for one 900 KB file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import extract
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


def _bundle(size: int) -> bytes:
    parts = ["function a0(b){return b}"]
    parts += [f"function a{i}(b){{return a{i - 1}(b)+{i}}}" for i in range(1, size)]
    return ";".join(parts).encode()


def test_a_minified_bundle_is_read_in_one_pass_over_its_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No timing (benchmarks time): a search per name, the quadratic path (37 s for a 900 KB
    bundle), fails the test; each definition's signature is its line's head."""

    def per_name(source: bytes, word: bytes) -> Any:
        raise AssertionError(f"searched the whole file for {word!r}")

    monkeypatch.setattr(extract, "_starts", per_name)
    data = _bundle(5_000)
    assert len(data) > 150_000 and data.count(b"\n") == 0
    facts = extract.extract("javascript", data)
    assert len(facts.symbols) == 5_000 and len(facts.refs) == 4_999
    assert facts.symbols[5].signature == data[:200].decode()


SOURCE = """import { café, config } from './c.js'
const seen = new Set()
export function use(x) { return [...seen, config.port, x.seen, café, naïve] }
function naïve() { return seen }
const e = (t) => e.e + t
"""


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_one_pass_over_the_words_finds_what_a_search_per_name_finds(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = SOURCE.encode()
    each = extract.extract(language, data)
    monkeypatch.setattr(extract, "SCAN_WORDS_AT", 0)
    monkeypatch.setattr(extract, "LONG_LINE", 8)
    once = extract.extract(language, data)
    assert (once.symbols, once.refs, once.imports) == (each.symbols, each.refs, each.imports)
    assert {r.name for r in once.refs if r.kind == "use"} >= {"seen", "config", "café"}


def test_the_bundle_through_the_cli(cli: Any, project: Path) -> None:
    (project / "dist").mkdir()
    (project / "dist" / "app.min.js").write_bytes(_bundle(3_000))
    write(project, "src/main.js", "import { a2999 } from '../dist/app.min.js'\na2999(1)\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    out = cli("code", "refs", "a2998", cwd=project).json()
    assert [r["resolved"] for r in out["references"]] == ["dist/app.min.js:1"]


def test_a_snippet_of_a_long_line_shows_the_use_and_the_match(cli: Any, project: Path) -> None:
    """A use or a search hit far into a minified line is cited by the 200 characters around
    it, not by the line's head, which does not hold it."""
    (project / "dist").mkdir()
    (project / "dist" / "app.min.js").write_bytes(_bundle(3_000))
    git(project, "init", "-q")
    git(project, "add", "-A")
    refs = cli("code", "refs", "a2500", cwd=project).json()["references"]
    assert [(r["location"], r["col"]) for r in refs] == [("dist/app.min.js:1", refs[0]["col"])]
    snippet = refs[0]["snippet"]
    assert "return a2500(b)" in snippet and len(snippet) <= 200
    hits = cli("code", "search", '"a2700(b)+2701"', cwd=project).json()["results"]
    assert [h["location"] for h in hits] == ["dist/app.min.js:1"]
    assert "a2700(b)+2701" in hits[0]["snippet"] and len(hits[0]["snippet"]) <= 200
    short = cli("code", "refs", "a1", cwd=project).json()["references"]
    assert short[0]["snippet"] == _bundle(3_000)[:200].decode()  # near the head: the head
