"""Extraction on real code already on the machine: Python definitions vs Python's own `ast`."""

from __future__ import annotations

import ast
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
