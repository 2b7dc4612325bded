"""`code refs NAME` is "who calls or uses it": a read of a module constant (a CONSTANT_NAME, in
Python and JavaScript/TypeScript) is a reference; the import that names it is not a use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


@pytest.fixture
def consts(project: Path) -> Path:
    write(project, "app/c.py", "LIMIT = 10\n\n\ndef use():\n    x = LIMIT + 1\n"
          "    return [LIMIT] * x\n")  # fmt: skip
    write(project, "app/d.py", "from app.c import LIMIT\nprint(LIMIT)\n")
    write(project, "web/t.ts", "export const DEFAULT_COLS = 80;\n")
    write(project, "web/u.ts", "import { DEFAULT_COLS } from './t';\n"
          "export function cols(): number {\n  return DEFAULT_COLS;\n}\n")  # fmt: skip
    return project


def test_reads_of_a_module_constant_are_references(consts: Path) -> None:
    refs = api.find_references(consts, "LIMIT")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [
        ("app/c.py:5", "app/c.py:1"), ("app/c.py:6", "app/c.py:1"), ("app/d.py:2", "app/c.py:1"),
    ]  # fmt: skip  # not the import on app/d.py:1
    ts = api.find_references(consts, "DEFAULT_COLS")["references"]
    assert [(r["location"], r["resolved"]) for r in ts] == [("web/u.ts:3", "web/t.ts:1")]


def test_impact_of_a_constant_reaches_its_readers(consts: Path) -> None:
    found = api.impact(consts, "LIMIT")["dependents"]
    assert {(d["symbol"], d["path"]) for d in found} == {("use", "app/c.py"), (None, "app/d.py")}


def test_code_refs_lists_the_reads(cli: Any, consts: Path) -> None:
    out = cli("code", "refs", "LIMIT", cwd=consts)
    assert [r["location"] for r in out.json()["references"]] == [
        "app/c.py:5", "app/c.py:6", "app/d.py:2",
    ]  # fmt: skip


#: a module variable read (`registry`, `logger`) and every way Python makes a same-named name
#: another scope's own; line numbers are asserted below
SHADOWS = """\
import logging

logger = logging.getLogger(__name__)
registry = {}


def add(key):
    logger.info("add %s", key)  # registry: a comment names it, it reads nothing
    registry[key] = "registry"
    return registry


def param(registry):
    return registry


def local():
    registry = {}
    return registry


def declared():
    global registry
    registry = {}
    return registry


def comprehension(items):
    return [registry for registry in items]


def keyword(obj):
    return dict(registry=1), obj.registry


def outer():
    registry = 1

    def inner():
        return registry

    return inner


class Holder:
    registry = {}
    alias = registry

    def method(self):
        return registry


callbacks = [add]
lam = lambda registry: registry


def outer2():
    registry = 1

    def inner():
        global registry
        return registry

    def inner2():
        nonlocal registry
        return registry

    return inner, inner2
"""
USER = """\
from app.shadows import registry, logger as log


def use():
    log.warning("x")
    return registry
"""


@pytest.fixture
def shadows(project: Path) -> Path:
    write(project, "app/shadows.py", SHADOWS)
    write(project, "app/user.py", USER)
    return project


def test_reads_of_a_lowercase_module_variable_are_references(shadows: Path) -> None:
    refs = api.find_references(shadows, "registry")["references"]
    assert [(r["location"], r["kind"], r["resolved"]) for r in refs] == [
        ("app/shadows.py:9", "use", "app/shadows.py:4"),  # `registry[key] = …` reads it
        ("app/shadows.py:10", "use", "app/shadows.py:4"),
        ("app/shadows.py:25", "use", "app/shadows.py:4"),  # `global registry`: the module's
        ("app/shadows.py:50", "use", "app/shadows.py:4"),  # a method does not see class names
        ("app/shadows.py:62", "use", "app/shadows.py:4"),  # `global` inside a function that
        # binds it around: the module's (not `nonlocal`, line 66)
        ("app/user.py:6", "use", "app/shadows.py:4"),  # imported by name (not the import line)
    ]  # not: an assignment (line 24), a parameter, a local, a comprehension's or a lambda's
    # variable, a keyword, an attribute, a closure's enclosing local, a class body's own name
    # (line 47), a string or a comment


def test_an_alias_and_a_function_passed_as_a_value_are_uses(shadows: Path) -> None:
    logger = api.find_references(shadows, "logger")["references"]
    assert [(r["location"], r["resolved"]) for r in logger] == [
        ("app/shadows.py:8", "app/shadows.py:3"), ("app/user.py:5", "app/shadows.py:3"),
    ]  # fmt: skip
    add = api.find_references(shadows, "add")["references"]
    assert [(r["location"], r["kind"]) for r in add] == [("app/shadows.py:53", "use")]


def test_impact_of_a_module_variable_reaches_its_readers(shadows: Path) -> None:
    found = api.impact(shadows, "registry")["dependents"]
    assert {(d["symbol"], d["path"]) for d in found} == {
        ("add", "app/shadows.py"), ("declared", "app/shadows.py"),
        ("Holder.method", "app/shadows.py"), ("use", "app/user.py"),
        ("callbacks", "app/shadows.py"),  # through `add`, which it lists
        ("outer2.inner", "app/shadows.py"),
    }  # fmt: skip


#: the same in TypeScript: a block's `let`/`const`, a hoisted `var`, a parameter, an arrow's
#: parameter and a `catch` binding are their scope's own; line numbers are asserted below
CFG_TS = """\
import { helper } from './util';
export const config = { port: 80 };
let counter = 0;
export function bump(): number {
  counter += 1;
  return counter;
}
export function shadowParam(config: number): number {
  return config;
}
export function shadowBlock(): number {
  const config = 2;
  return config;
}
export function shadowVar(flag: boolean): number {
  if (flag) { var counter = 5; }
  return counter;
}
export function inner(): number {
  if (flag()) { let config = 1; }
  return config.port;
}
export const handlers = [bump];
export const obj = { config };
export const arrow = (config: number) => config;
export function catcher() {
  try { helper(); } catch (config) { return config; }
  return { port: config.port, s: "config" };
}
"""
MAIN_TS = """\
import { config, bump } from './cfg';
export function start(): number {
  return config.port + bump();
}
"""


@pytest.fixture
def web(project: Path) -> Path:
    write(project, "web/cfg.ts", CFG_TS)
    write(project, "web/util.ts", "export function helper(): void {}\n")
    write(project, "web/main.ts", MAIN_TS)
    write(project, "web/plain.js", "const seen = new Set();\nfunction add(x) {\n"
          "  seen.add(x);\n  return [...seen];\n}\nmodule.exports = { add, seen };\n")  # fmt: skip
    return project


def test_typescript_reads_of_module_names_are_references(web: Path) -> None:
    config = api.find_references(web, "config")["references"]
    assert [(r["location"], r["kind"], r["resolved"]) for r in config] == [
        ("web/cfg.ts:21", "use", "web/cfg.ts:2"),  # a block's `let` does not reach the return
        ("web/cfg.ts:24", "use", "web/cfg.ts:2"),  # `{ config }` reads it
        ("web/cfg.ts:28", "use", "web/cfg.ts:2"),  # not the string on the same line
        ("web/main.ts:3", "use", "web/cfg.ts:2"),  # imported (not the import line)
    ]  # not: a parameter (9), a block's const (13), an arrow's parameter (25), a catch (27)
    counter = api.find_references(web, "counter")["references"]
    assert [r["location"] for r in counter] == ["web/cfg.ts:5", "web/cfg.ts:6"]  # not the
    # `var` hoisted to shadowVar (17)
    bump = api.find_references(web, "bump")["references"]
    assert [(r["location"], r["kind"]) for r in bump] == [
        ("web/cfg.ts:23", "use"), ("web/main.ts:3", "call"),
    ]  # fmt: skip
    seen = api.find_references(web, "seen")["references"]
    assert [r["location"] for r in seen] == ["web/plain.js:3", "web/plain.js:4", "web/plain.js:6"]


#: each name shadowed one way only (a name some other scope binds is looked up anyway)
MARKS = """\
counter = 0
loader = None
builder = None


def augmented():
    counter += 1
    return counter


def imports_it():
    from json import loads as loader
    return loader


def nested_def():
    def builder():
        return 1

    return builder


def reads():
    return counter, loader, builder
"""


def test_a_name_made_local_by_plus_equals_an_import_a_nested_def_or_destructuring(
    project: Path,
) -> None:
    write(project, "app/marks.py", MARKS)
    write(project, "web/opts.js", "const opts = {};\nfunction f(x) {\n  const { opts } = x;\n"
          "  return opts;\n}\nfunction g() {\n  return opts;\n}\n")  # fmt: skip
    for name in ("counter", "loader", "builder"):
        refs = api.find_references(project, name)["references"]
        assert [(r["location"], r["scope"]) for r in refs] == [("app/marks.py:24", "reads")]
    opts = api.find_references(project, "opts")["references"]  # destructured in f
    assert [(r["location"], r["scope"]) for r in opts] == [("web/opts.js:7", "g")]


def test_a_module_imported_by_name_is_not_a_namesake_function(project: Path) -> None:
    write(project, "pkg/__init__.py", "")
    write(project, "pkg/normalise.py", "def fold(text):\n    return text\n")
    write(project, "other/tools.py", "def normalise(text):\n    return text\n")
    write(project, "app/use.py", "from pkg import normalise\n\n\ndef run(t):\n"
          "    return normalise.fold(t)\n")  # fmt: skip
    refs = api.find_references(project, "normalise")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("app/use.py:5", None)]  # the
    # module, read: not other/tools.py's function
    fold = api.find_references(project, "fold")["references"]
    assert [(r["location"], r["resolved"]) for r in fold] == [
        ("app/use.py:5", "pkg/normalise.py:1")
    ]


#: what a Python scope's node evaluates in the scope around it: line numbers asserted below
AROUND = """\
from copy import deepcopy

items = []


def copy_list(x, memo, deepcopy=deepcopy):
    return [deepcopy(v, memo) for v in x]


def unique():
    return [items for items in items]


lam = lambda items=items: items


class Box:
    items = ()

    def get(self, default=items):
        return default
"""


def test_a_default_a_first_iterable_is_read_in_the_scope_around(project: Path) -> None:
    write(project, "app/around.py", AROUND)
    deepcopy = api.find_references(project, "deepcopy")["references"]
    assert [(r["location"], r["kind"]) for r in deepcopy] == [("app/around.py:6", "use")]
    # the default `deepcopy=deepcopy` is the module's; the call on line 7 is the parameter's
    items = api.find_references(project, "items")["references"]
    assert [(r["location"], r["scope"]) for r in items] == [
        ("app/around.py:11", "unique"), ("app/around.py:14", "lam"),
    ]  # fmt: skip  # not the class body's own (line 20)


#: a `match` statement's captures bind in the function; its class and value patterns read
MATCH = """\
from shapes import Color, Point, point, rest

registry = {}


def area(shape):
    match shape:
        case [Point() as point, *rest]:
            return point, rest
        case {"kind": Color.RED, **registry}:
            return registry
    return registry


def names():
    return point, rest, registry
"""


def test_match_captures_bind_and_patterns_read(project: Path) -> None:
    write(project, "app/match.py", MATCH)
    refs = {
        name: [r["location"] for r in api.find_references(project, name)["references"]]
        for name in ("Point", "Color", "point", "rest", "registry")
    }
    assert refs == {
        "Point": ["app/match.py:8"], "Color": ["app/match.py:10"],
        "point": ["app/match.py:16"], "rest": ["app/match.py:16"],
        "registry": ["app/match.py:16"],  # `**registry` made it area's own (lines 11, 12)
    }  # fmt: skip


def test_a_with_statement_binds_the_names_of_its_tuple(project: Path) -> None:
    write(project, "app/pipes.py", "from x import reader, writer\n\n\ndef run(pipe):\n"
          "    with pipe() as (reader, writer):\n        return reader, writer\n\n\n"
          "def plain():\n    return reader\n")  # fmt: skip
    for name in ("reader", "writer"):
        refs = api.find_references(project, name)["references"]
        assert [r["location"] for r in refs] == (["app/pipes.py:10"] if name == "reader" else [])


def test_a_walrus_in_a_comprehension_binds_in_the_function_around(project: Path) -> None:
    write(project, "app/walrus.py", "from x import last\n\n\ndef scan(xs):\n"
          "    found = [x for x in xs if (last := x)]\n    return found, last\n\n\n"
          "def plain():\n    return last\n")  # fmt: skip
    refs = api.find_references(project, "last")["references"]
    assert [r["location"] for r in refs] == ["app/walrus.py:10"]  # not line 6: scan's own


def test_a_destructured_name_with_a_default_is_the_functions_own(project: Path) -> None:
    write(project, "web/serve.js", "const port = 1;\nconst host = 'h';\n"
          "function serve({ port = 80, host: h = host } = {}) {\n  return port + h;\n}\n"
          "const pick = ({ host = port }) => host;\nmodule.exports = { serve, pick };\n")  # fmt: skip
    refs = {
        name: [r["location"] for r in api.find_references(project, name)["references"]]
        for name in ("port", "host")
    }
    assert refs == {"port": ["web/serve.js:6"], "host": ["web/serve.js:3"]}  # the defaults
    # read the module's; `return port` (4) and `=> host` (6) read the destructured names


#: a JSX element names a component where it opens; line numbers are asserted below
JSX = """\
import { Card, ui, input } from './parts';
export function Page() {
  return (
    <Card>
      <input />
      <ui.Button>{input}</ui.Button>
    </Card>
  );
}
"""


@pytest.mark.parametrize("path", ["web/page.jsx", "web/page.tsx"])
def test_a_jsx_closing_tag_or_a_host_element_is_not_a_use(project: Path, path: str) -> None:
    write(project, path, JSX)
    refs = {
        name: [(r["location"], r["kind"]) for r in api.find_references(project, name)["references"]]
        for name in ("Card", "ui", "input")
    }
    assert refs == {
        "Card": [(f"{path}:4", "class")], "ui": [(f"{path}:6", "use")],
        "input": [(f"{path}:6", "use")],  # `{input}`, not the host element `<input />`
    }  # fmt: skip  # nor the closing tags `</ui.Button>`, `</Card>`


def test_a_for_in_var_binds_in_its_function_and_a_bare_for_in_binds_nothing(
    project: Path,
) -> None:
    write(project, "web/loops.js", "let key = 'k';\nlet cur = null;\n"
          "function a(o) {\n  for (var key in o) {}\n  return key;\n}\n"
          "function c(o) {\n  for (cur in o) {\n    f(cur);\n  }\n}\n"
          "module.exports = { a, c };\n")  # fmt: skip
    refs = {
        name: [r["location"] for r in api.find_references(project, name)["references"]]
        for name in ("key", "cur")
    }
    assert refs == {"key": [], "cur": ["web/loops.js:9"]}  # `return key` is a's own `var`;
    # `for (cur in o)` assigns the module's cur, which the loop reads


def test_a_typescript_enum_member_and_an_index_signature_are_not_the_modules(
    project: Path,
) -> None:
    write(project, "web/kinds.ts", "import { item, key } from './x';\n"
          "export enum Kind { item = 1, other = item }\n"
          "export type Bag = { [key: string]: number };\nexport const first = [item, key];\n")  # fmt: skip
    refs = {
        name: [r["location"] for r in api.find_references(project, name)["references"]]
        for name in ("item", "key")
    }
    assert refs == {"item": ["web/kinds.ts:4"], "key": ["web/kinds.ts:4"]}  # `other = item`
    # is Kind.item; `[key: string]` names an index, it reads nothing


def test_a_del_statement_reads_no_name_it_deletes(project: Path) -> None:
    write(project, "app/tidy.py", "from x import a, b\n\n_c = 1\n\n\ndef f():\n    del a\n\n\n"
          "def g():\n    return a, b, _c\n\n\ndel b, _c\nholder = [a]\ndel holder[0]\ndel (holder,\n     g)\n")  # fmt: skip
    refs = {
        name: [r["location"] for r in api.find_references(project, name)["references"]]
        for name in ("a", "b", "_c", "holder")
    }
    assert refs == {
        "a": ["app/tidy.py:11", "app/tidy.py:15"], "b": ["app/tidy.py:11"],
        "_c": ["app/tidy.py:11"], "holder": ["app/tidy.py:16"],  # `del holder[0]` reads it
    }  # fmt: skip


def test_commonjs_destructured_requires_name_what_they_read(project: Path) -> None:
    write(
        project, "web/cfg.js", "const port = 80;\nexports.host = 'h';\nmodule.exports = { port };\n"
    )
    write(project, "web/main.js", "const { port: p, host } = require('./cfg');\n"
          "const { join } = require('path');\n"
          "function url() {\n  return join(host, String(p));\n}\nmodule.exports = { url };\n")  # fmt: skip
    write(
        project,
        "other/net.js",
        "const host = 1;\nfunction join() {}\nmodule.exports = { host, join };\n",
    )
    refs = {
        name: [(r["location"], r["resolved"]) for r in api.find_references(project, name)["references"]
               if r["location"].startswith("web/main.js")]
        for name in ("port", "host", "join")
    }  # fmt: skip
    assert refs == {
        "port": [("web/main.js:4", "web/cfg.js:1")],  # `p`: cfg's port, through the require
        "host": [("web/main.js:4", None)],  # cfg's `exports.host`: not other/net.js's host
        "join": [("web/main.js:4", None)],  # node's path.join: not other/net.js's join
    }


@pytest.mark.parametrize("path", ["web/cfg.js", "web/cfg.ts"])
def test_a_local_export_list_reads_its_names_and_a_re_export_does_not(
    project: Path, path: str
) -> None:
    write(project, path, "const config = { port: 1 };\nfunction start() {}\n"
          "export { config, start as begin };\nexport { other } from './x';\n")  # fmt: skip
    write(project, "web/x.js", "export const other = 2;\n")
    refs = {name: [(r["location"], r["resolved"]) for r in api.find_references(project, name)[
        "references"]] for name in ("config", "start", "begin", "other")}  # fmt: skip
    assert refs == {
        "config": [(f"{path}:3", f"{path}:1")], "start": [(f"{path}:3", f"{path}:2")],
        "begin": [], "other": [],
    }  # fmt: skip
