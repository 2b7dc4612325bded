"""Imports resolved to the files the language's import system would load: a Python absolute
import is looked up from the import roots only, never as any file whose path ends in its name."""

from __future__ import annotations

from pathlib import Path

from orkestra.codemap import api, modules
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

LAYOUT = modules.FileSet(
    [
        "vendored/compat/json.py",
        "src/asyncio/__init__.py",
        "src/asyncio/subprocess.py",
        "src/asyncio/events.py",
        "src/mypkg/__init__.py",
        "src/mypkg/sub/__init__.py",
        "src/mypkg/sub/deep.py",
        "src/mypkg/util.py",
        "tools/helper.py",
        "tools/run.py",
        "app.py",
    ]
)


def _py(module: str, importer: str, name: str = "") -> list[str]:
    return modules.targets("python", module, name, importer, LAYOUT)


def test_an_absolute_import_is_never_a_namesake_in_another_folder() -> None:
    assert _py("json", "app.py") == []
    assert _py("subprocess", "src/asyncio/events.py") == []  # not src/asyncio/subprocess.py
    assert _py("events", "src/mypkg/util.py") == []


def test_an_absolute_import_is_found_from_the_package_root_src_or_the_script_folder() -> None:
    assert _py("asyncio.subprocess", "app.py") == ["src/asyncio/subprocess.py"]
    assert _py("mypkg.sub", "src/mypkg/util.py", "deep") == ["src/mypkg/sub/deep.py"]
    assert _py("mypkg", "tools/run.py", "util") == ["src/mypkg/util.py"]
    assert _py("helper", "tools/run.py") == ["tools/helper.py"]  # a script's own folder
    assert _py("util", "src/mypkg/sub/deep.py") == []  # no implicit relative import


def test_a_monorepo_sibling_package_is_found_in_its_own_import_root() -> None:
    tree = modules.FileSet(
        [
            "packages/foo/src/foo/__init__.py",
            "packages/foo/src/foo/core.py",
            "packages/bar/src/bar/__init__.py",
            "packages/bar/src/bar/x.py",
            "packages/baz/src/twice/__init__.py",
            "packages/qux/src/twice/__init__.py",
            "vendored/json/__init__.py",
            "scripts/helper.py",
        ]
    )

    def py(module: str, importer: str, name: str = "") -> list[str]:
        return modules.targets("python", module, name, importer, tree)

    assert py("foo", "packages/bar/src/bar/x.py", "core") == ["packages/foo/src/foo/core.py"]
    assert py("foo.core", "packages/bar/src/bar/x.py") == ["packages/foo/src/foo/core.py"]
    assert py("twice", "packages/bar/src/bar/x.py") == []  # two roots hold it: ambiguous
    assert py("json", "packages/bar/src/bar/x.py") == []  # the standard library's
    assert py("helper", "packages/bar/src/bar/x.py") == []  # a loose script is no package


def test_a_relative_import_stays_in_the_importer_s_package() -> None:
    assert _py(".", "src/mypkg/sub/deep.py", "deep") == []  # itself
    assert _py("..", "src/mypkg/sub/deep.py", "util") == ["src/mypkg/util.py"]
    assert _py("..util", "src/mypkg/sub/deep.py") == ["src/mypkg/util.py"]


@needs_tree_sitter
def test_a_stdlib_import_does_not_depend_on_a_vendored_namesake(project: Path) -> None:
    write(project, "vendored/compat/json.py", 'def dumps(obj):\n    return "not json"\n')
    write(project, "app/report.py", "import json\n\n\ndef report(x):\n    return json.dumps(x)\n")
    deps = api.dependencies(project, "app/report.py")
    assert deps["imports"][0]["files"] == []
    assert api.dependencies(project, "vendored/compat/json.py")["importers"] == []
    refs = api.find_references(project, "dumps")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("app/report.py:5", None)]
    assert api.impact(project, "vendored/compat/json.py")["dependents"] == []


def test_a_test_folder_beside_its_package_finds_it_but_never_a_sibling_folder_s_module() -> None:
    files = modules.FileSet(
        [
            "packages/foo/foo/__init__.py",
            "packages/foo/foo/core.py",
            "packages/foo/tests/test_core.py",
            "packages/bar/json.py",
        ]
    )

    def py(module: str, importer: str) -> list[str]:
        return modules.targets("python", module, "", importer, files)

    assert py("foo.core", "packages/foo/tests/test_core.py") == ["packages/foo/foo/core.py"]
    assert py("json", "packages/foo/tests/test_core.py") == []  # packages/bar is beside, not above
    assert py("json", "packages/foo/foo/core.py") == []


@needs_tree_sitter
def test_a_star_import_is_an_import_whose_names_resolve_through_it(project: Path) -> None:
    write(project, "pkg/core.py", "def helper():\n    return 1\n")
    write(project, "pkg/__init__.py", "from .core import *\n")
    write(project, "other/tools.py", "def helper():\n    return 2\n")
    write(project, "app.py", "from pkg import *\n\n\ndef run():\n    return helper()\n")
    deps = api.dependencies(project, "app.py")
    assert [i["files"] for i in deps["imports"]] == [["pkg/__init__.py"]]
    refs = api.find_references(project, "helper")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("app.py:5", "pkg/core.py:1")]
    found = api.impact(project, "pkg/core.py")["dependents"]
    assert {d["path"] for d in found} >= {"app.py"}


@needs_tree_sitter
def test_a_name_imported_from_a_module_that_has_none_is_no_namesake(project: Path) -> None:
    write(project, "pkg/__init__.py", "def helper():\n    return 1\n")
    write(project, "app/__init__.py", "import pkg\n")
    write(project, "main.py", "from app import helper\n\nhelper()\n")
    write(project, "tool.py", "import pkg\n\npkg.helper()\n")
    refs = api.find_references(project, "helper")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [
        ("tool.py:3", "pkg/__init__.py:1"), ("main.py:3", None),
    ]  # fmt: skip  # app's `import pkg` binds `pkg` there: it gives app no `helper`
