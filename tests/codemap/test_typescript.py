"""TypeScript: module-level `const`/`let`/`var` are definitions (as Python's module constants are),
`require()`, `import m = require()` and `await import()` are imports, and an ESM specifier with a
JavaScript extension (`./terminal.js`, NodeNext) names the TypeScript source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api, modules
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

TERMINAL = (
    "export const DEFAULT_COLS: number = 80;\nexport let rows = 24;\n"
    "export const twice = (v: number) => v * 2;\n"
    "export function add(a: number, b: number): number {\n  const inner = a + b;\n"
    "  return inner;\n}\n"
)
USERS = {
    "src/user.ts": "import { DEFAULT_COLS } from './terminal';\nexport const cols = DEFAULT_COLS;\n",
    "src/req.ts": "const t = require('./terminal');\nexport const n = t.add(1, 2);\n",
    "src/eq.ts": "import term = require('./terminal');\nexport const e = term.add(1, 2);\n",
    "src/esm.ts": "import { add } from './terminal.js';\nexport const m = add(1, 2);\n",
    "src/dyn.ts": "export async function f() {\n  const d = await import('./terminal');\n"
    "  return d.add(1, 2);\n}\n",
    "src/late.js": "export async function g() {\n  const d = await import('./terminal');\n"
    "  return d.add(1, 2);\n}\n",
}


def test_a_js_extension_names_the_typescript_source() -> None:
    files = modules.FileSet(["src/terminal.ts", "src/view.tsx", "src/m.mts", "src/real.js",
                             "src/real.ts"])  # fmt: skip
    js = lambda module: modules.targets("typescript", module, "", "src/a.ts", files)  # noqa: E731
    assert js("./terminal.js") == ["src/terminal.ts"]
    assert js("./view.jsx") == ["src/view.tsx"]
    assert js("./m.mjs") == ["src/m.mts"]
    assert js("./real.js") == ["src/real.js"]  # a real JavaScript file comes first
    assert js("./missing.js") == []


@pytest.fixture
def ts_project(project: Path) -> Path:
    write(project, "src/terminal.ts", TERMINAL)
    for rel, text in USERS.items():
        write(project, rel, text)
    return project


@needs_tree_sitter
def test_module_level_declarations_are_symbols(ts_project: Path) -> None:
    outline = api.outline(ts_project, "src/terminal.ts")["symbols"]
    assert [(s["qualname"], s["kind"], s["line"]) for s in outline] == [
        ("DEFAULT_COLS", "constant", 1), ("rows", "variable", 2), ("twice", "function", 3),
        ("add", "function", 4),
    ]  # fmt: skip  # `inner`, local to add, is none
    assert api.find_symbol(ts_project, "DEFAULT_COLS")["symbols"][0]["location"] == (
        "src/terminal.ts:1"
    )


@needs_tree_sitter
def test_require_import_equals_dynamic_import_and_js_specifiers_are_imports(
    ts_project: Path,
) -> None:
    importers = api.dependencies(ts_project, "src/terminal.ts")["importers"]
    assert sorted(i["path"] for i in importers) == sorted(USERS)
    for rel in USERS:
        deps = api.dependencies(ts_project, rel)["imports"]
        assert [i["files"] for i in deps] == [["src/terminal.ts"]], rel


@needs_tree_sitter
def test_code_deps_and_symbol_through_the_cli(cli: Any, ts_project: Path) -> None:
    deps = cli("code", "deps", "src/esm.ts", cwd=ts_project)
    assert (deps.exit_code, deps.json()["imports"][0]["files"]) == (0, ["src/terminal.ts"])
    sym = cli("code", "symbol", "DEFAULT_COLS", cwd=ts_project)
    assert [s["location"] for s in sym.json()["symbols"]] == ["src/terminal.ts:1"]
