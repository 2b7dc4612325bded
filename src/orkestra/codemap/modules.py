"""Which indexed files an import names, per language (relative paths, import roots, then path
suffixes for the languages whose imports name no root)."""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Iterable

JS_SUFFIXES = (
    "", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts",
    "/index.ts", "/index.tsx", "/index.js", "/index.jsx",
)  # fmt: skip

#: the TypeScript sources an ESM specifier's JavaScript extension names (`./x.js` -> `x.ts`)
TS_FOR_JS = {
    ".js": (".ts", ".tsx", ".d.ts"), ".jsx": (".tsx",), ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}  # fmt: skip


class FileSet:
    """The indexed paths, looked up exactly, by path suffix, or by folder."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = set(paths)
        self.by_name: dict[str, list[str]] = {}
        self.by_dir: dict[str, list[str]] = {}
        for path in sorted(self.paths):
            self.by_name.setdefault(path.rsplit("/", 1)[-1], []).append(path)
            self.by_dir.setdefault(posixpath.dirname(path), []).append(path)
        self._roots: dict[str, list[str]] | None = None  # package -> its roots, made on first use

    def suffix(self, rel: str) -> list[str]:
        """Paths equal to `rel` or ending in `/rel`."""
        if rel in self.paths:
            return [rel]
        tail = "/" + rel
        return [p for p in self.by_name.get(rel.rsplit("/", 1)[-1], []) if p.endswith(tail)]

    def python_roots(self, here: str) -> list[str]:
        """The folders a Python absolute import is looked up in from a file in `here`, in order:
        the folder above the file's outermost package (a folder with `__init__.py`), or the
        file's own folder when it is in none (a script's folder), then that folder's parents
        up to the project root (a test folder beside its package: `packages/foo/tests`), then
        `src/` (the src layout). Never a folder beside these: a namesake module elsewhere is
        not what the import loads."""
        folder = here
        while folder and f"{folder}/__init__.py" in self.paths:
            folder = posixpath.dirname(folder)
        roots = [folder]
        while folder:
            folder = posixpath.dirname(folder)
            roots.append(folder)
        return list(dict.fromkeys((*roots, "src")))

    def package_roots(self, top: str) -> list[str]:
        """Folders anywhere in the project that hold a package `top` (its `__init__.py`) and are
        no package themselves: where an installed sibling of a monorepo lives (`packages/foo/src`
        for `import foo`). A loose `top.py` does not count: a scripts folder is no import root."""
        if self._roots is None:
            self._roots = {}
            for path in self.by_name.get("__init__.py", []):
                package = posixpath.dirname(path)
                root = posixpath.dirname(package)
                if (f"{root}/__init__.py" if root else "__init__.py") not in self.paths:
                    self._roots.setdefault(posixpath.basename(package), []).append(root)
        return sorted(set(self._roots.get(top, [])))

    def folder_suffix(self, rel: str, extensions: tuple[str, ...]) -> list[str]:
        """Files (with one of `extensions`) directly in a folder equal to or ending in `rel`."""
        out: list[str] = []
        for folder, files in self.by_dir.items():
            if folder == rel or folder.endswith("/" + rel):
                out.extend(f for f in files if f.endswith(extensions))
        return sorted(out)


def targets(language: str, module: str, name: str, importer: str, files: FileSet) -> list[str]:
    """The indexed files an import of `module` (taking `name`) from `importer` refers to."""
    here = posixpath.dirname(importer)
    resolver = _RESOLVERS.get(language)
    found = resolver(module, name, here, files) if resolver else []
    return [f for f in dict.fromkeys(found) if f != importer]


def _first(files: FileSet, candidates: Iterable[str], *, suffix: bool = True) -> list[str]:
    for cand in candidates:
        cand = posixpath.normpath(cand).lstrip("/")
        if cand.startswith("../"):
            continue
        hits = files.suffix(cand) if suffix else ([cand] if cand in files.paths else [])
        if hits:
            return hits
    return []


def _python(module: str, name: str, here: str, files: FileSet) -> list[str]:
    """A relative import from the importer's package; an absolute one from the import roots only
    (never a namesake module elsewhere: `import json` is not `vendored/compat/json.py`)."""
    dots = len(module) - len(module.lstrip("."))
    rest = module[dots:].replace(".", "/")
    if dots:
        base = here
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        return _python_in(posixpath.join(base, rest) if rest else base, name, files)
    for root in files.python_roots(here):
        found = _python_in(posixpath.join(root, rest) if root else rest, name, files)
        if found:
            return found
    # another import root of the project (a monorepo's `packages/foo/src` for `import foo`), when
    # exactly one holds the module and the standard library has no module of that name
    top = rest.split("/", 1)[0]
    roots = [] if top in sys.stdlib_module_names else files.package_roots(top)
    if len(roots) == 1:
        return _python_in(posixpath.join(roots[0], rest) if roots[0] else rest, name, files)
    return []


def _python_in(stem: str, name: str, files: FileSet) -> list[str]:
    """The module `stem` (a path without extension), or its submodule `name` when there is one."""
    mods = [f"{stem}.py", f"{stem}/__init__.py", f"{stem}.pyi"]
    subs = [f"{stem}/{name}.py", f"{stem}/{name}/__init__.py"] if name and name != "*" else []
    return _first(files, subs, suffix=False) or _first(files, mods, suffix=False)


def _js(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del name
    if not module.startswith("."):
        return []
    stem = posixpath.normpath(posixpath.join(here, module))
    found = _first(files, [stem + s for s in JS_SUFFIXES], suffix=False)
    base, ext = posixpath.splitext(stem)
    if found or ext not in TS_FOR_JS:  # `./terminal.js` names `terminal.ts` (NodeNext ESM)
        return found
    return _first(files, [base + s for s in TS_FOR_JS[ext]], suffix=False)


def _go(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del name, here
    parts = module.strip("/").split("/")
    for size in (3, 2, 1):
        if len(parts) >= size:
            found = files.folder_suffix("/".join(parts[-size:]), (".go",))
            if found:
                return [f for f in found if not f.endswith("_test.go")] or found
    return []


def _rust(module: str, name: str, here: str, files: FileSet) -> list[str]:
    parts = [p for p in module.split("::") if p]
    if not parts:
        return []
    if len(parts) == 1 and not name:  # `mod foo;`
        return _first(files, [f"{here}/{parts[0]}.rs", f"{here}/{parts[0]}/mod.rs"], suffix=False)
    if parts[0] in ("crate", "self", "super"):
        if parts == ["crate"]:  # `use crate::Grow;`: the crate root
            return _crate_root(here, files)
        parts = parts[1:]
    out: list[str] = []
    for size in range(len(parts), 0, -1):
        stem = "/".join(parts[:size])
        out = _first(files, [f"{stem}.rs", f"{stem}/mod.rs"])
        if out:
            break
    return out


def _crate_root(here: str, files: FileSet) -> list[str]:
    """The nearest `lib.rs` or `main.rs` at or above the folder `here`."""
    folder = here
    while True:
        for root in ("lib.rs", "main.rs"):
            cand = posixpath.join(folder, root) if folder else root
            if cand in files.paths:
                return [cand]
        if not folder:
            return []
        folder = posixpath.dirname(folder)


def _java(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del name, here
    if module.endswith(".*"):
        return files.folder_suffix(module[:-2].replace(".", "/"), (".java",))
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        found = _first(files, ["/".join(parts[:size]) + ".java"])
        if found:
            return found
    return []


def _c(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del name
    return _first(files, [posixpath.join(here, module)], suffix=False) or _first(files, [module])


def _ruby(module: str, name: str, here: str, files: FileSet) -> list[str]:
    stem = module if module.endswith(".rb") else module + ".rb"
    if module.startswith("./"):
        return _first(files, [posixpath.join(here, stem)], suffix=False)
    return _first(files, [stem, f"lib/{stem}"])


def _php(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del name
    if module.endswith(".php"):
        return _first(files, [posixpath.join(here, module)], suffix=False) or _first(
            files, [module]
        )
    parts = module.strip("\\").split("\\")
    for size in range(len(parts), 0, -1):
        found = _first(files, ["/".join(parts[-size:]) + ".php"])
        if found:
            return found
    return []


def _bash(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del name
    return _first(files, [posixpath.join(here, module)], suffix=False) or _first(files, [module])


def _csharp(module: str, name: str, here: str, files: FileSet) -> list[str]:
    del module, name, here, files
    return []  # namespaces map to files through their declarations (see resolve)


_RESOLVERS = {
    "python": _python, "javascript": _js, "typescript": _js, "tsx": _js, "go": _go,
    "rust": _rust, "java": _java, "c": _c, "cpp": _c, "ruby": _ruby, "php": _php,
    "bash": _bash, "csharp": _csharp,
}  # fmt: skip
