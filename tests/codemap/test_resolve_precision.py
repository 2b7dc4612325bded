"""False Python reference edges found by benchmarks/bench_refs.py (jedi as the oracle) on real code:
a built-in type's method on a receiver of unknown type is not a namesake class's method in the
map, `super()` never means the enclosing class's own member, and a name constructed from a class
reaches that class's (and its bases') members; a module's name reaches that module's names only,
a module outside the map owns its members, and `a.B.name` / a class of this file is that class's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from orkestra.codemap import api, store
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

MODELS = """class Message:
    def items(self):
        return []

    def get(self, key):
        return self.items()

    def join(self, other):
        return other


class Ledger:
    def add(self, entry):
        return entry

    def total(self):
        return 0


class Audited(Ledger):
    def add(self, entry):
        return super().add(entry)

    def total(self):
        return super(Audited, self).total()


class Plain(Ledger):
    pass


class Switch:
    def disable(self):
        return False
"""

READ = """import gc
import typer
from app import codec
from app import jsonio as js


def read(raw):
    gc.disable()
    first = codec.loads(raw)
    typer.main.disable()
    return js.loads(first)
"""

HANDLERS = """from app import models


class Rotating(models.Ledger):
    def total(self):
        return models.Ledger.total(self)


def check(entry):
    class Audited(models.Ledger):
        pass

    return Audited.add(Audited(), entry)
"""

USE = """from app.models import Audited, Ledger, Plain


def render(data, parts):
    pairs = data.items()
    label = ", ".join(parts)
    return label, pairs, data.get("k")


def book():
    ledger = Ledger()
    ledger.add(1)
    audited = Audited()
    audited.total()
    plain = Plain()
    plain.total()
    return ledger.total()
"""

LOGS = """def debug(msg):
    return msg


def get_logger():
    def emit(msg):
        return msg

    return emit
"""

GO = """from app.logs import get_logger


def go():
    log = get_logger()
    log.debug("x")
    return log.emit("y")
"""

TOP = {"loads"}  #: top-level names told apart by their file


@pytest.fixture
def edges(project: Path) -> dict[tuple[str, str], str | None]:
    """`path:line name` -> the resolved definition's qualified name (`file:name` for the names
    in TOP; None: unresolved)."""
    write(project, "src/app/models.py", MODELS)
    write(project, "src/app/use.py", USE)
    write(project, "src/app/read.py", READ)
    write(project, "src/app/handlers.py", HANDLERS)
    write(project, "src/app/logs.py", LOGS)
    write(project, "src/app/go.py", GO)
    write(project, "src/app/codec.py", "def loads(text):\n    return text\n")
    write(project, "src/app/jsonio.py", "def loads(text):\n    return text\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")
    api.index(project)
    with sqlite3.connect(store.map_path(project)) as conn:
        rows = conn.execute(
            "SELECT f.path, r.line, r.name, s.qualname, t.path FROM refs r"
            " JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.target"
            " LEFT JOIN files t ON t.id = s.file_id"
        ).fetchall()
    return {
        (f"{path}:{line}", name): (f"{where.rsplit('/', 1)[-1]}:{qual}" if qual in TOP else qual)
        for path, line, name, qual, where in rows
    }


def test_a_builtin_types_method_on_an_unknown_receiver_is_no_class_of_the_map(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/use.py:5", "items")] is None  # a dict's, not Message.items
    assert edges[("src/app/use.py:6", "join")] is None  # str.join
    assert edges[("src/app/use.py:7", "get")] is None
    assert edges[("src/app/models.py:6", "items")] == "Message.items"  # self.items() still is


def test_super_means_a_base_member_never_the_class_own(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/models.py:22", "add")] == "Ledger.add"
    assert edges[("src/app/models.py:25", "total")] == "Ledger.total"  # super(Audited, self)


def test_a_name_constructed_from_a_class_reaches_its_members_and_its_bases(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/use.py:12", "add")] == "Ledger.add"  # `add` is also a set's
    assert edges[("src/app/use.py:14", "total")] == "Audited.total"
    assert edges[("src/app/use.py:16", "total")] == "Ledger.total"  # inherited by Plain
    assert edges[("src/app/use.py:17", "total")] == "Ledger.total"


def test_a_module_bound_by_name_owns_its_members(edges: dict[tuple[str, str], str | None]) -> None:
    assert edges[("src/app/read.py:8", "disable")] is None  # gc's, not Switch.disable
    assert edges[("src/app/read.py:9", "loads")] == "codec.py:loads"
    assert edges[("src/app/read.py:11", "loads")] == "jsonio.py:loads"  # not codec's (first)
    assert edges[("src/app/read.py:10", "disable")] is None  # typer.main's


def test_a_dotted_class_or_a_class_of_this_file_owns_the_member(
    edges: dict[tuple[str, str], str | None],
) -> None:
    # `models.Ledger.total(self)` in Rotating.total: the base's, not Rotating's own
    assert edges[("src/app/handlers.py:6", "total")] == "Ledger.total"
    # this file's nested `Audited` inherits Ledger.add; models.Audited.add is a namesake
    assert edges[("src/app/handlers.py:13", "add")] == "Ledger.add"


def test_a_member_is_no_imported_module_function_nor_a_nested_function(
    edges: dict[tuple[str, str], str | None],
) -> None:
    assert edges[("src/app/go.py:6", "debug")] is None  # `log` is no module: not logs.debug
    assert edges[("src/app/go.py:7", "emit")] is None  # get_logger.emit is nobody's member
    assert edges[("src/app/go.py:5", "get_logger")] == "get_logger"


def test_a_member_call_is_never_a_bare_name_imported_under_that_alias(project: Path) -> None:
    write(project, "pkg/core.py", "def run():\n    return 1\n\n\nclass Engine:\n"
          "    def start(self):\n        return run()\n")  # fmt: skip
    write(project, "pkg/__init__.py", "from .core import run as start\n")
    write(project, "app/a.py", "from pkg import start\nfrom pkg.core import Engine\n\n\n"
          "def main():\n    start()\n    e = Engine()\n    e.start()\n")  # fmt: skip
    runs = api.find_references(project, "run")["references"]
    assert {r["location"] for r in runs} == {"app/a.py:6", "pkg/core.py:7"}  # not e.start()
    starts = api.find_references(project, "Engine.start")["references"]
    assert [(r["location"], r["resolved"]) for r in starts] == [("app/a.py:8", "pkg/core.py:6")]


def test_a_dotted_module_owner_is_that_module(project: Path) -> None:
    write(project, "mail/__init__.py", "")
    write(project, "mail/b64.py", "def body_encode(s):\n    return s\n")
    write(project, "mail/charset.py", "import mail.b64\n\n\nclass Charset:\n"
          "    def body_encode(self, s):\n        return mail.b64.body_encode(s)\n")  # fmt: skip
    refs = api.find_references(project, "body_encode")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [
        ("mail/charset.py:6", "mail/b64.py:1")
    ]


def test_a_name_a_module_of_the_map_takes_from_outside_is_no_namesake(project: Path) -> None:
    write(project, "app/__init__.py", "")
    write(project, "app/cfg.py", "import os\n\ntry:\n    from ._native import helper\n"
          "except ImportError:\n    pass\n")  # fmt: skip
    write(project, "app/use.py", "from app.cfg import helper, os\n\n\ndef run():\n"
          "    return helper(), os\n")  # fmt: skip
    write(project, "other/tools.py", "def helper():\n    pass\n\n\ndef os():\n    pass\n")
    for name in ("helper", "os"):
        refs = api.find_references(project, name)["references"]
        assert [(r["location"], r["resolved"]) for r in refs] == [("app/use.py:5", None)]


def test_a_name_imported_from_outside_is_not_a_whole_imported_modules_namesake(
    project: Path,
) -> None:
    write(project, "pkg/__init__.py", "def urlparse(u):\n    return u\n")
    write(project, "app/main.py", "import pkg\nfrom urllib.parse import urlparse\n\n\n"
          "def run(u):\n    return urlparse(u), urlparse\n")  # fmt: skip
    write(project, "web/lib.js", "export function parse(u) { return u; }\n")
    write(project, "web/m.js", "import * as lib from './lib';\nimport { parse } from 'url';\n"
          "export const run = (u) => [parse(u), parse, lib.parse(u)];\n")  # fmt: skip
    urlparse = api.find_references(project, "urlparse")["references"]
    assert [(r["location"], r["kind"], r["resolved"]) for r in urlparse] == [
        ("app/main.py:6", "call", None), ("app/main.py:6", "use", None),
    ]  # fmt: skip  # urllib's, not pkg's (app imports pkg whole)
    parse = api.find_references(project, "parse")["references"]
    assert sorted((r["kind"], str(r["resolved"])) for r in parse) == [
        ("call", "None"), ("call", "web/lib.js:1"), ("use", "None"),
    ]  # fmt: skip  # only `lib.parse` is lib's


def test_a_function_nested_in_a_function_is_no_other_files_namesake(project: Path) -> None:
    write(project, "app/scanner.py", "def make_scanner(ctx):\n    def open(s, idx):\n"
          "        return idx\n\n    return open\n")  # fmt: skip
    write(project, "app/reader.py", "def read(path):\n    return open(path)\n")
    write(
        project, "web/a.js", "export function outer() {\n  function open() {}\n  return open;\n}\n"
    )
    write(project, "web/b.js", "export function run(url) {\n  return open(url);\n}\n")
    for name, site in (("open", "app/reader.py:2"), ("open", "web/b.js:2")):
        refs = api.find_references(project, name)["references"]
        assert [(r["location"], r["resolved"]) for r in refs if r["location"] == site] == [
            (site, None)
        ]  # the built-in (the browser's) open: not the other file's local function


#: a bare call of a name the function binds itself: line numbers are asserted below
LOCALS = """\
def handle(release, items):
    release()
    for rule in items:
        rule()
    acquire, test = items
    test()


def nested():
    from app.lock import acquire

    def rule():
        return 1

    return acquire(), rule()
"""


def test_a_call_of_a_parameter_or_a_local_variable_is_no_namesakes(project: Path) -> None:
    write(project, "app/lock.py", "def acquire():\n    pass\n\n\ndef release():\n    pass\n")
    write(project, "app/rules.py", "def rule():\n    pass\n\n\ndef test():\n    pass\n")
    write(project, "app/handler.py", LOCALS)
    write(project, "web/lib.js", "export function send() {}\n")
    write(project, "web/use.js", "export function run(send, items) {\n  send();\n"
          "  for (const each of items) { each(); }\n}\n")  # fmt: skip
    listed = {
        name: [
            (r["location"], r["resolved"]) for r in api.find_references(project, name)["references"]
        ]
        for name in ("release", "rule", "test", "acquire", "send")
    }
    assert listed == {
        "release": [],
        "test": [],
        "send": [],  # the parameter, the local variable
        "rule": [("app/handler.py:15", "app/handler.py:12")],  # the nested def; not line 4
        "acquire": [("app/handler.py:15", "app/lock.py:1")],  # the local import
    }


def test_a_module_level_tuple_assignment_defines_its_names(project: Path) -> None:
    write(project, "app/scoring.py", "EXACT = 1.0\nprefix = 0.5\n")
    write(project, "app/context.py", "EXACT, prefix = 3.0, 2.5\n\n\ndef weight():\n"
          "    return EXACT, prefix\n\n\nfor LIMIT in (1, 2):\n    pass\n")  # fmt: skip
    write(project, "app/other.py", "LIMIT = 9\n")
    found = {
        name: [
            (r["location"], r["resolved"]) for r in api.find_references(project, name)["references"]
        ]
        for name in ("EXACT", "prefix", "LIMIT")
    }
    assert found == {
        "EXACT": [("app/context.py:5", "app/context.py:1")],  # its own, not scoring's
        "prefix": [("app/context.py:5", "app/context.py:1")],
        "LIMIT": [],  # `for LIMIT in …` binds it: no read of other.py's LIMIT
    }


def test_a_local_the_function_defines_by_assignment_still_resolves(project: Path) -> None:
    write(project, "web/wait.js", "export function wait(cb) {\n  let done;\n"
          "  done = (v) => cb(v);\n  return done(1);\n}\n")  # fmt: skip
    write(project, "web/other.js", "export function done() {}\n")
    refs = api.find_references(project, "done")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("web/wait.js:4", "web/wait.js:3")]


PRIVATE_BASE = """class _BaseContext:
    def __init__(self, case):
        self.case = case

    def fail(self, msg):
        raise AssertionError(msg)


class _RaisesContext(_BaseContext):
    def __init__(self, expected, case):
        _BaseContext.__init__(self, case)
        self.expected = expected

    def fail(self, msg):
        return _BaseContext.fail(self, msg)
"""


def test_a_private_class_named_as_owner_owns_the_member(project: Path) -> None:
    # unittest/case.py: `_BaseTestCaseContext.__init__(self, test_case)` was taken for the
    # enclosing class's own `__init__` (a call of itself): `_Name` is a class as `Name` is
    write(project, "case.py", PRIVATE_BASE)
    got = api.find_references(project, "_BaseContext.__init__")["references"]
    assert [(r["location"], r["resolved"]) for r in got] == [("case.py:11", "case.py:2")]
    fails = api.find_references(project, "_RaisesContext.fail")["references"]
    assert [r["location"] for r in fails if r["resolved"]] == []
    base = api.find_references(project, "_BaseContext.fail")["references"]
    assert [(r["location"], r["resolved"]) for r in base] == [("case.py:15", "case.py:5")]
