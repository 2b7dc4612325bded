"""A Go or Java package is its folder: a bare name used in one of its files, defined in
another file of the same folder, is that one, even when another package has a namesake."""

from __future__ import annotations

from pathlib import Path

from orkestra.codemap import api
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter


def test_a_go_call_resolves_to_its_own_packages_function(project: Path) -> None:
    write(project, "a/store.go", "package a\n\nfunc Put(k string) {}\n")
    write(project, "a/use.go", 'package a\n\nfunc Use() {\n\tPut("x")\n}\n')
    write(project, "b/store.go", "package b\n\nfunc Put(k string) {}\n")
    refs = api.find_references(project, "Put")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("a/use.go:4", "a/store.go:3")]


def test_a_java_class_resolves_to_its_own_packages_class(project: Path) -> None:
    write(project, "src/a/Foo.java", "package a;\n\npublic class Foo {}\n")
    write(project, "src/a/Bar.java", "package a;\n\npublic class Bar {\n"
          "  Object make() { return new Foo(); }\n}\n")  # fmt: skip
    write(project, "src/b/Foo.java", "package b;\n\npublic class Foo {}\n")
    refs = api.find_references(project, "Foo")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [
        ("src/a/Bar.java:4", "src/a/Foo.java:3")
    ]


def test_a_java_test_sees_its_package_across_source_roots(project: Path) -> None:
    write(project, "src/main/java/a/Foo.java", "package a;\n\npublic class Foo {}\n")
    write(project, "src/main/java/b/Foo.java", "package b;\n\npublic class Foo {}\n")
    write(project, "src/test/java/a/FooTest.java", "package a;\n\npublic class FooTest {\n"
          "  Object make() { return new Foo(); }\n}\n")  # fmt: skip
    refs = api.find_references(project, "Foo")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [
        ("src/test/java/a/FooTest.java:4", "src/main/java/a/Foo.java:3")
    ]


def test_two_namesakes_outside_the_folder_stay_unresolved(project: Path) -> None:
    write(project, "a/use.go", 'package a\n\nfunc Use() {\n\tPut("x")\n}\n')
    write(project, "b/store.go", "package b\n\nfunc Put(k string) {}\n")
    write(project, "c/store.go", "package c\n\nfunc Put(k string) {}\n")
    refs = api.find_references(project, "Put")["references"]
    assert [(r["location"], r["resolved"]) for r in refs] == [("a/use.go:4", None)]  # a guess
    # between b and c is no answer
