"""A JavaScript/TypeScript `const d = new Dog()` gives `d` the class `Dog` for its members, as
Python's `d = Dog()` does: at module level (also in the functions that use it) and in a function,
so `d.bark()` is `Dog.bark`, certain, not `Cat.bark` nor unresolved. A name the scope around a
use binds any other way (a parameter, `d = make()`) is no instance of the module's class there,
in Python too: its member uses are not claimed for that class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.codemap import api, extract
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

DOG = """class Dog {
  bark() { return "woof"; }
}
class Cat {
  bark() { return "meow"; }
}
class Puppy extends Dog {}
module.exports = { Dog, Cat, Puppy };
"""
MAIN = """const { Dog, Puppy } = require('./dog');
const d = new Dog();
d.bark();
function walk() {
  const local = new Dog();
  return local.bark();
}
function later() {
  return d.bark();
}
function shadow(d) {
  return d.bark();
}
function remade() {
  const d = make();
  return d.bark();
}
function puppy() {
  const p = new Puppy();
  return p.bark();
}
"""
RUN_TS = """import { Dog } from './dog';
export function run(): string {
  let pet = new Dog();
  pet = new Dog();
  return pet.bark();
}
"""
PY = """class Dog:
    def bark(self):
        return 1


class Cat:
    def bark(self):
        return 2


d = Dog()


def later():
    return d.bark()


def shadow(d):
    return d.bark()


def remade():
    d = make()
    return d.bark()
"""


def _project(project: Path) -> Path:
    write(project, "web/dog.js", DOG)
    write(project, "web/main.js", MAIN)
    write(project, "web/run.ts", RUN_TS)
    write(project, "py/pets.py", PY)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def _uses(root: Path, name: str) -> list[tuple[str, str | None, bool]]:
    refs = api.find_references(root, name)["references"]
    return [(r["location"], r["resolved"], r["guessed"]) for r in refs]


def test_new_gives_a_javascript_name_its_class(project: Path) -> None:
    root = _project(project)
    uses = _uses(root, "Dog.bark")
    assert [u for u in uses if u[0].startswith("web/")] == [
        ("web/main.js:3", "web/dog.js:2", False),
        ("web/main.js:6", "web/dog.js:2", False),
        ("web/main.js:9", "web/dog.js:2", False),
        ("web/main.js:20", "web/dog.js:2", False),  # inherited by `Puppy`
        ("web/run.ts:5", "web/dog.js:2", False),
        ("web/main.js:12", None, False),  # a parameter `d`
        ("web/main.js:16", None, False),  # `const d = make()`
    ]


def test_a_name_bound_otherwise_is_not_the_module_instance(project: Path) -> None:
    root = _project(project)
    assert [u for u in _uses(root, "Dog.bark") if u[0].startswith("py/")] == [
        ("py/pets.py:15", "py/pets.py:2", False),
        ("py/pets.py:19", None, False),
        ("py/pets.py:24", None, False),
    ]


def test_the_extracted_owner_is_the_class() -> None:
    facts = extract.extract("typescript", RUN_TS.encode())
    assert [(r.name, r.owner) for r in facts.refs if r.name == "bark"] == [("bark", "Dog")]
    facts = extract.extract("javascript", MAIN.encode())
    assert [(r.line, r.owner) for r in facts.refs if r.name == "bark"] == [
        (3, "Dog"), (6, "Dog"), (9, "Dog"), (12, "d"), (16, "d"), (20, "Puppy"),
    ]  # fmt: skip


def test_the_cli_answers_the_same(cli: Any, project: Path) -> None:
    root = _project(project)
    found = cli("code", "refs", "Cat.bark", cwd=root).json()
    assert [r["resolved"] for r in found["references"]] == [None] * len(found["references"])
    found = cli("code", "refs", "Dog.bark", cwd=root).json()
    assert ("web/run.ts:5", "web/dog.js:2") in [
        (r["location"], r["resolved"]) for r in found["references"]
    ]


SOCKET = """class Socket {
  connect() { return 1; }
}
module.exports = { Socket };
"""
WORKER = """import { Socket } from 'net';
const conout = new Socket();
conout.connect('pipe');
Socket.connect();
"""


def test_an_instance_of_a_class_from_outside_the_map_is_no_namesakes(project: Path) -> None:
    """`new Socket()` of `import { Socket } from 'net'` is net's Socket: its `connect` is not
    the map's `Socket.connect`, neither certain nor guessed (a name imported from outside the
    map, as Python's `Path.cwd`)."""
    write(project, "lib/mysock.js", SOCKET)
    write(project, "lib/worker.ts", WORKER)
    git(project, "init", "-q")
    git(project, "add", "-A")
    assert _uses(project, "Socket.connect") == [
        ("lib/worker.ts:3", None, False),
        ("lib/worker.ts:4", None, False),
    ]


def test_a_base_class_is_the_one_the_subclass_file_imports(project: Path) -> None:
    """A TypeScript source and its compiled twin both define `Terminal`: `class Unix extends
    Terminal` after `import { Terminal } from './terminal'` inherits the source's `on`."""
    write(
        project, "src/terminal.ts", "export class Terminal {\n  public on(n: string): void {}\n}\n"
    )
    write(project, "src/unix.ts", UNIX_TS)
    write(
        project, "src/use.ts", "import { Unix } from './unix';\nconst t = new Unix();\nt.on('x');\n"
    )
    write(
        project,
        "lib/terminal.js",
        "class Terminal {\n  on(n) {}\n}\nexports.Terminal = Terminal;\n",
    )
    git(project, "init", "-q")
    git(project, "add", "-A")
    assert _uses(project, "Terminal.on") == [("src/use.ts:3", "src/terminal.ts:2", False)]
    write(project, "src/unix.ts", UNIX_TS.replace("'./terminal'", "'../lib/terminal'"))
    assert _uses(project, "Terminal.on") == [("src/use.ts:3", "lib/terminal.js:2", False)]


UNIX_TS = "import { Terminal } from './terminal';\nexport class Unix extends Terminal {}\n"
