"""A `.h` header is C++ when its text is (a class, a namespace, a template, an access
specifier, `std::`, `#include <vector>`): its classes, namespaces and in-class methods are
definitions, as they are in a `.hpp`; a plain C header stays C. The choice follows the text, so
an incremental map (a C header edited into a C++ one, and back) answers as a cold one does."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api, indexer, languages, store
from tests.codemap.conftest import git, needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

WIDGET_H = """#pragma once
#include <string>

namespace ui {

class Widget {
public:
    explicit Widget(std::string name);
    int width() const { return width_; }
    void resize(int w);
private:
    int width_ = 0;
};

}  // namespace ui
"""
WIDGET_CPP = """#include "widget.h"

namespace ui {
Widget::Widget(std::string name) {}
void Widget::resize(int w) { width_ = w; }
}
"""
MAIN_CPP = """#include "widget.h"
int main() { ui::Widget w("a"); w.resize(3); return w.width(); }
"""
C_H = """#ifndef GEO_H
#define GEO_H
/* a class of shapes: see geometry.c */
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
struct point { double x, y; };
double area(const struct point *pts, size_t n);
#ifdef __cplusplus
}
#endif
#endif
"""


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (WIDGET_H, "cpp"),
        (C_H, "c"),
        ("template <typename T>\nT id(T v) { return v; }\n", "cpp"),
        ("struct S {\n  public:\n    int f();\n};\n", "cpp"),
        ("#include <vector>\nint n(void);\n", "cpp"),
        ("class InputMap;\nvoid addDefaults(InputMap &map);\n", "cpp"),
        ("enum class Result {\n    Failed,\n};\n", "cpp"),
        ("int n(void);\n// not std::vector, a comment\n", "c"),
        ("int operator;\nint namespace_count;\n", "c"),
    ],
)
def test_a_header_is_cpp_by_its_text(text: str, language: str) -> None:
    assert languages.language_of("src/x.h", text.encode()) == language
    assert languages.language_of("src/x.h") == "c"
    assert languages.language_of("src/x.hpp", text.encode()) == "cpp"


def _project(project: Path) -> Path:
    write(project, "ui/widget.h", WIDGET_H)
    write(project, "ui/widget.cpp", WIDGET_CPP)
    write(project, "ui/main.cpp", MAIN_CPP)
    write(project, "geo/geo.h", C_H)
    git(project, "init", "-q")
    git(project, "add", "-A")
    return project


def _outline(root: Path, path: str) -> list[tuple[str, str, str]]:
    found = api.outline(root, path)["symbols"]
    return [(s["kind"], s["qualname"], s["language"]) for s in found]


def test_a_cpp_header_declares_its_classes_namespaces_and_methods(project: Path) -> None:
    root = _project(project)
    assert _outline(root, "ui/widget.h") == [
        ("namespace", "ui", "cpp"),
        ("class", "ui.Widget", "cpp"),
        ("prototype", "ui.Widget.Widget", "cpp"),
        ("method", "ui.Widget.width", "cpp"),
        ("prototype", "ui.Widget.resize", "cpp"),
    ]
    assert _outline(root, "geo/geo.h") == [
        ("macro", "GEO_H", "c"),
        ("class", "point", "c"),
        ("prototype", "area", "c"),
    ]
    refs = api.find_references(root, "ui::Widget::width")
    assert [d["location"] for d in refs["definitions"]] == ["ui/widget.h:9"]


def _tables(root: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(root / store.MAP_PATH)
    try:
        return {
            "files": conn.execute("SELECT path, language FROM files ORDER BY path").fetchall(),
            "symbols": conn.execute(
                "SELECT f.path, s.qualname, s.kind, s.line FROM symbols s "
                "JOIN files f ON f.id = s.file_id ORDER BY 1, 4, 2"
            ).fetchall(),
            "refs": conn.execute(
                "SELECT f.path, r.line, r.col, r.name, t.qualname FROM refs r "
                "JOIN files f ON f.id = r.file_id LEFT JOIN symbols t ON t.id = r.target "
                "ORDER BY 1, 2, 3"
            ).fetchall(),
        }
    finally:
        conn.close()


def test_an_edited_header_is_mapped_as_a_cold_map_does(project: Path) -> None:
    root = _project(project)
    write(root, "ui/widget.h", C_H.replace("GEO_H", "WIDGET_H"))
    indexer.index(root, full=True)
    write(root, "ui/widget.h", WIDGET_H)  # C, then C++ again
    indexer.index(root)
    warm = _tables(root)
    indexer.index(root, full=True)
    assert _tables(root) == warm
    assert ("ui/widget.h", "cpp") in warm["files"]


def test_the_cli_outlines_a_cpp_header(cli: Any, project: Path) -> None:
    root = _project(project)
    found = cli("code", "outline", "ui/widget.h", cwd=root).json()
    assert [s["qualname"] for s in found["symbols"]][:2] == ["ui", "ui.Widget"]
