"""Extraction on real code already on the machine: Python definitions vs Python's own `ast`,
JavaScript definitions in `node_modules` vs Universal Ctags (when both are installed)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from orkestra.codemap import extract
from tests.codemap.conftest import needs_tree_sitter

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MODULES = [
    "argparse.py", "dataclasses.py", "json/decoder.py", "collections/__init__.py",
    "asyncio/base_events.py", "typing.py", "pathlib.py", "unittest/case.py",
]  # fmt: skip


def by_ast(source: bytes) -> set[tuple[str, int]]:
    tree = ast.parse(source)
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {(n.name, n.lineno) for n in ast.walk(tree) if isinstance(n, kinds)}


def by_map(source: bytes) -> set[tuple[str, int]]:
    facts = extract.extract("python", source)
    return {(s.name, s.line) for s in facts.symbols if s.kind in ("function", "method", "class")}


@needs_tree_sitter
@pytest.mark.parametrize("module", MODULES)
def test_python_definitions_match_ast_on_the_standard_library(module: str) -> None:
    source = (STDLIB / module).read_bytes()
    want, got = by_ast(source), by_map(source)
    assert len(want) > 10
    missing, extra = sorted(want - got), sorted(got - want)
    precision = 1 - len(extra) / len(got)
    recall = 1 - len(missing) / len(want)
    assert precision >= 0.99 and recall >= 0.99, (
        f"{module}: missing {missing[:5]}, extra {extra[:5]}"
    )


@needs_tree_sitter
def test_methods_are_told_from_functions_on_real_code() -> None:
    source = (STDLIB / "json/decoder.py").read_bytes()
    kinds = {s.qualname: s.kind for s in extract.extract("python", source).symbols}
    assert kinds["JSONDecoder.decode"] == "method"
    assert kinds["py_scanstring"] == "function"
    assert kinds["JSONDecoder"] == "class"


def _node_modules_js() -> list[Path]:
    roots = [Path("/usr/lib/node_modules"), Path(__file__).parents[2] / ".ci-cache"]
    found = [
        p
        for root in roots
        if root.is_dir()
        for p in sorted(root.glob("**/node_modules/*/dist/esm/*.js"))
        if 2_000 < p.stat().st_size < 100_000 and not p.name.endswith(".min.js")
    ]
    return found[:12]


@needs_tree_sitter
@pytest.mark.skipif(shutil.which("ctags") is None, reason="Universal Ctags is not installed")
def test_javascript_definitions_agree_with_ctags_on_node_modules() -> None:
    files = _node_modules_js()
    if not files:
        pytest.skip("no JavaScript under node_modules on this machine")
    theirs: set[tuple[str, str, int]] = set()  # functions, classes, methods
    named: set[tuple[str, str, int]] = set()  # any definition ctags lists (constants too)
    ours: set[tuple[str, str, int]] = set()
    for path in files:
        out = subprocess.run(
            ["ctags", "-x", "--language-force=JavaScript", "--_xformat=%N %n %K", str(path)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        for name, line, kind in (row.split()[:3] for row in out.splitlines()):
            named.add((str(path), name, int(line)))
            if kind in ("function", "class", "method"):
                theirs.add((str(path), name, int(line)))
        facts = extract.extract("javascript", path.read_bytes())
        ours |= {
            (str(path), s.name.lstrip("#"), s.line)  # ctags names `#private` methods without `#`
            for s in facts.symbols
            if s.kind in ("function", "class", "method")
        }
    both = len(theirs & ours)
    assert both / len(theirs) >= 0.85, sorted(theirs - ours)[:10]
    # ctags is no oracle for the rest: it skips local arrow functions (`const next = () =>`),
    # object-literal methods, getters and methods named get/set/has, which we list (about a fifth)
    assert len(ours & named) / len(ours) >= 0.75, sorted(ours - named)[:10]
