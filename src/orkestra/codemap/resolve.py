"""References resolved to definitions: same file, then imports (aliases and re-exports followed),
then a unique global name; and imports resolved to the files they name."""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from typing import Any, NamedTuple

from orkestra.codemap import gonames, modules
from orkestra.codemap.facts import CONTAINERS

#: kinds reached through `x.name` rather than a bare name
MEMBER_KINDS = frozenset({"method", "field", "property", "event"})
#: languages where a bare name inside a class reaches the class's own members
IMPLICIT_MEMBERS = frozenset({"java", "csharp", "cpp", "ruby"})
FAMILY = {"typescript": "javascript", "tsx": "javascript", "cpp": "c"}
#: languages whose re-exports the map follows all of (`export … from`, `export *`): a name
#: imported from a file of the map that defines it nowhere followed is no namesake's
FAMILY_JS = frozenset({"javascript", "typescript", "tsx"})
NAMESPACE_KINDS = ("namespace", "module", "package")
#: languages where `Sub.name` (or an instance's, `d = Sub()`) may be a superclass's member
INHERITING = FAMILY_JS | {"python"}
MAX_HOPS = 4
_TYPE_WORD = re.compile(r"\b[A-Z]\w*")
BUILTIN_TYPES = frozenset(
    {"int", "str", "string", "bool", "float", "double", "decimal", "long", "char", "byte",
     "object", "dict", "list", "tuple", "set", "bytes", "void", "u32", "usize", "i32", "i64"}
)  # fmt: skip
#: owners that mean "this object": only the enclosing class's members
SELF_NAMES = frozenset({"self", "this", "Self", "$this", "static", "super", "parent"})
#: languages whose package is a folder: its files see each other's names without an import
#: (a bare Go name is resolved in its folder alone, by `_go_package`)
FOLDER_PACKAGES = frozenset({"java"})
#: Go: what a file of each kind sees of its folder: a package's file its package, an
#: in-package test's file also the other tests, an external test's (`package p_test`) its own
GO_SEES = {"package": ("package",), "test": ("package", "test"), "xtest": ("xtest",)}
#: languages whose module import binds the module path's last name
BINDS_LAST = frozenset({"java", "php"})
#: the public attributes of Python's built-in str, bytes, dict, list, set, tuple, int and float:
#: on a receiver of unknown type (`", ".join`, `data.items()`) the built-in is the likely owner,
#: a definition outside the map, so such a name is never "the one in the map" (bench_refs: a map
#: class's `join`/`items`/`get` answered 4% of these right)
PY_BUILTIN_ATTRS = frozenset(
    {
        "add", "append", "as_integer_ratio", "bit_count", "bit_length", "capitalize", "casefold",
        "center", "clear", "conjugate", "copy", "count", "decode", "denominator", "difference",
        "difference_update", "discard", "encode", "endswith", "expandtabs", "extend", "find",
        "format", "format_map", "from_bytes", "fromhex", "fromkeys", "get", "hex", "imag", "index",
        "insert", "intersection", "intersection_update", "is_integer", "isalnum", "isalpha",
        "isascii", "isdecimal", "isdigit", "isdisjoint", "isidentifier", "islower", "isnumeric",
        "isprintable", "isspace", "issubset", "issuperset", "istitle", "isupper", "items", "join",
        "keys", "ljust", "lower", "lstrip", "maketrans", "numerator", "partition", "pop",
        "popitem", "real", "remove", "removeprefix", "removesuffix", "replace", "reverse", "rfind",
        "rindex", "rjust", "rpartition", "rsplit", "rstrip", "setdefault", "sort", "split",
        "splitlines", "startswith", "strip", "swapcase", "symmetric_difference",
        "symmetric_difference_update", "title", "to_bytes", "translate", "union", "update",
        "upper", "values", "zfill"
    }
)  # fmt: skip


class Def(NamedTuple):
    """A definition as the resolver sees it."""

    id: int
    file: int
    name: str
    qualname: str
    kind: str

    @property
    def parent(self) -> str:
        return self.qualname.rpartition(".")[0]


def _package_folder(path: str) -> str:
    """The folder that is a Go or Java file's package: a Java file's folder below its source
    root (`src/main/java/a/Foo.java` and `src/test/java/a/FooTest.java` are both in `a`)."""
    folder = path.rpartition("/")[0]
    if path.endswith(".java") and "/java/" in f"/{folder}/":
        return f"/{folder}/".rpartition("/java/")[2]
    return folder


def _module_name(module: str) -> str:
    """The name a whole-module import binds: `a/b/store` -> store, `util` -> util."""
    last = module.replace("\\", "/").replace("::", "/").rstrip("/").rsplit("/", 1)[-1]
    return last if "." not in last.lstrip(".") else last.lstrip(".").split(".")[0]


def _module_file(path: str) -> str:
    """The module a Python file is: `a/b/store.py` -> store, `a/pkg/__init__.py` -> pkg."""
    parts = path.rsplit("/", 2)
    return parts[-2] if parts[-1] == "__init__.py" and len(parts) > 1 else parts[-1][:-3]


def _last(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def _owned(d: Def, owner: str) -> bool:
    """False when `owner` names a type (capitalised) that is not the definition's class."""
    return not is_type_name(owner) or d.parent.rsplit(".", 1)[-1] == owner


def is_type_name(owner: str) -> bool:
    """A capitalised name (`Shop`, `Vec`, a private `_Base`) or a built-in type
    (`decimal.Round`, `str.join`)."""
    return owner.lstrip("_")[:1].isupper() or owner in BUILTIN_TYPES


def visible(parent: str, scope: str) -> bool:
    """True when a definition under `parent` can be named from inside `scope`."""
    return not parent or scope == parent or scope.startswith(parent + ".")


class Resolver:
    """The whole map in memory, answering "which definition does this name mean here?"."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.files = {r[0]: (r[1], r[2] or "", bool(r[3])) for r in conn.execute(
            "SELECT id, path, language, demoted FROM files")}  # fmt: skip
        self.by_file: dict[tuple[int, str], list[Def]] = defaultdict(list)
        self.by_name: dict[str, list[Def]] = defaultdict(list)
        self.signatures: dict[int, str] = {}
        self.kinds: dict[int, str] = {}
        self.quals: dict[int, str] = {}
        self.containers: set[str] = set()
        self.memo: dict[tuple[Any, ...], int | None] = {}
        self.answers: dict[tuple[Any, ...], int | None] = {}
        self.namespaces: set[str] = set()
        for *row, signature in conn.execute(
            "SELECT id, file_id, name, qualname, kind, signature FROM symbols ORDER BY id"
        ):
            d = Def(*row)
            self.kinds[d.id] = d.kind
            self.quals[d.id] = d.qualname
            if d.kind in CONTAINERS:
                self.containers.add(d.qualname)
            elif d.kind in NAMESPACE_KINDS:
                self.namespaces.add(d.qualname)
            if d.kind in ("field", "property"):
                self.signatures[d.id] = signature
            self.by_file[(d.file, d.name)].append(d)
            self.by_name[d.name].append(d)
        self.bindings: dict[tuple[int, str], list[tuple[str, list[int]]]] = defaultdict(list)
        self.star: dict[int, list[int]] = defaultdict(list)
        self.imported: dict[int, list[int]] = defaultdict(list)
        #: names a file imports from outside the map: they never resolve to a global namesake
        self.external: set[tuple[int, str]] = set()
        #: Go: file -> the files of the packages it imports with `import . "pkg"`
        self.dotted: dict[int, list[int]] = defaultdict(list)
        #: Go: test file -> what it is part of (`_go_build`)
        self.go_builds: dict[int, str] = {}
        #: (file, name) -> files, for a module imported whole under a name (`import x as st`)
        self.modules: dict[tuple[int, str], list[int]] = defaultdict(list)

    def resolve_imports(
        self, conn: sqlite3.Connection, only: set[int] | None = None
    ) -> list[tuple[int, int, int]]:
        """(import id, file id, target file id) for the imports of the files `only` (all when
        None) that name indexed files; the others' stored targets are bound as they are."""
        stored: dict[int, list[int]] = defaultdict(list)
        if only is not None:
            for iid, target in conn.execute("SELECT import_id, target_file FROM import_targets"):
                stored[iid].append(target)
        ids = {path: fid for fid, (path, _l, _d) in self.files.items()}
        fileset = modules.FileSet(ids)
        spaces: dict[str, set[int]] = defaultdict(set)
        for defs in self.by_name.values():
            for d in defs:
                if d.kind in NAMESPACE_KINDS:
                    spaces[d.qualname.replace("\\", ".")].add(d.file)
        rows: list[tuple[int, int, int]] = []
        for iid, fid, module, name, alias in conn.execute(
            "SELECT id, file_id, module, name, alias FROM imports ORDER BY id"
        ):
            path, language, _demoted = self.files[fid]
            if only is not None and fid not in only:
                if not name and language in BINDS_LAST and not module.endswith("*"):
                    name = module
                self._bind(fid, module, name, alias, stored.get(iid, []))
                continue
            found = [ids[p] for p in modules.targets(language, module, name, path, fileset)]
            if not found:
                key = module.replace("\\", ".").replace("::", ".").strip(".")
                space = spaces.get(key) or spaces.get(key.rpartition(".")[0], set())
                found = sorted(space - {fid})
            if not name and language in BINDS_LAST and not module.endswith("*"):
                name = module  # `import a.b.C;` / `use A\\B\\C;` bind C
            self._bind(fid, module, name, alias, found)
            rows.extend((iid, fid, target) for target in found)
        return rows

    def _bind(self, fid: int, module: str, name: str, alias: str, found: list[int]) -> None:
        real = name.rsplit(".", 1)[-1].rsplit("\\", 1)[-1].rsplit("::", 1)[-1]
        if not name and found:
            bound = alias or _module_name(module)
            if bound:
                self.modules[(fid, bound)].extend(found)
        python = self.files[fid][1] == "python"
        if self.files[fid][1] == "go":
            self._bind_go(fid, module, real, alias, found)
            return
        if not found:
            if alias or (real and real != "*"):
                self.external.add((fid, alias or real))
            elif python and not name and module.strip("."):  # `import gc` binds `gc`
                self.external.add((fid, module.lstrip(".").split(".")[0]))
            return
        if python and real and any(_module_file(self.files[t][0]) == real for t in found):
            self.modules[(fid, alias or real)].extend(found)  # `from pkg import mod`: a module
        self.imported[fid].extend(t for t in found if t not in self.imported[fid])
        if real and real != "*":
            self.bindings[(fid, alias or real)].append((real, found))
        elif not alias and not (python and not name):  # `import a.b` binds `a`, takes no names
            self.star[fid].extend(found)

    def _bind_go(self, fid: int, module: str, real: str, alias: str, found: list[int]) -> None:
        """A Go import binds a package name (`modules`) and re-exports nothing: `lib.Parse` is
        lib's own Parse or nothing, never the Parse of a package lib imports; a package outside
        the map binds an `external` name, whose members (`big.Int`) are no namesake's."""
        if real == "*":
            self.dotted[fid].extend(found)  # `import . "pkg"`: its names are bare names here
            return
        if alias in ("_", ""):
            names = set() if alias else {_module_name(module)} | gonames.package_names(module)
        else:
            names = {alias}
        if not found:
            self.external.update((fid, bound) for bound in names)
        else:
            self.imported[fid].extend(t for t in found if t not in self.imported[fid])

    def resolve(self, fid: int, name: str, member: bool, scope: str, owner: str = "") -> int | None:
        """The definition a reference means, or None when it cannot be told; a C/C++ prototype
        gives way to the one implementation of the same qualified name (memoised: a file names
        the same thing from the same scope many times)."""
        key = (fid, name, member, scope, owner)
        if key in self.answers:
            return self.answers[key]
        found = self._resolved(fid, name, member, scope, owner)
        self.answers[key] = found
        return found

    def guessed(self, fid: int, name: str, member: bool, scope: str, owner: str = "") -> bool:
        """True when `resolve` answered a member (`x.name`) whose receiver's type is not known
        (not this object, a type, a module, a constructed name nor a typed field) with a
        definition found by its name alone: a guess, which `refs` and `impact` mark as such."""
        if not member or self.resolve(fid, name, member, scope, owner) is None:
            return False
        head = owner.partition(".")[0]
        return not (
            owner in SELF_NAMES
            or is_type_name(owner)
            or (fid, owner) in self.modules
            or (fid, head) in self.modules
            or self._declared(fid, owner)
        )

    def _declared(self, fid: int, owner: str) -> bool:
        """A field or property `owner` of this file with a declared type (`List<Line> lines`)."""
        return any(
            d.kind in ("field", "property")
            and any(w != owner for w in _TYPE_WORD.findall(self.signatures.get(d.id, "")))
            for d in self.by_file.get((fid, owner), [])
        )

    def _resolved(self, fid: int, name: str, member: bool, scope: str, owner: str) -> int | None:
        found = self._resolve(fid, name, member, scope, owner)
        if found is None or self.kinds.get(found) != "prototype":
            return found
        qual = self.quals[found]
        bodies = [
            d for d in self.by_name.get(name, []) if d.qualname == qual and d.kind != "prototype"
        ]
        return bodies[0].id if len(bodies) == 1 else found

    def _resolve(self, fid: int, name: str, member: bool, scope: str, owner: str) -> int | None:
        language = self.files[fid][1]
        if member and is_type_name(owner) and (fid, owner) in self.bindings:
            owner = self._real_owner(fid, owner, scope)  # `P.zero` after `import Point as P`
        if member and language == "go" and (fid, owner) in self.modules:
            ids = {self._exported(t, name, 0) for t in self.modules[(fid, owner)]} - {None}
            return ids.pop() if len(ids) == 1 else None  # two build variants: cannot tell
        if member and (fid, owner) in self.modules:  # `st.Total`: only that module's Total
            typed = is_type_name(owner)  # C++ `using mx::Vec2;` then `Vec2::zero()`
            for target in self.modules[(fid, owner)]:
                found = self._exported(target, name, 0, member=typed, owner=owner)
                if found is not None:
                    return found
            return None
        if member and language == "go" and (fid, owner) in self.external:
            return None  # `big.Int`, math/big outside the map: no namesake's
        if member and language == "python" and "." in owner:  # `mod.Class.name`, `a.b.name`
            if (fid, owner.partition(".")[0]) in self.external:
                return None
            dotted = self._dotted_module(fid, owner, name)
            if dotted is not None:  # `import a.b` then `a.b.name`: module a.b's name
                return dotted
            last = owner.rsplit(".", 1)[-1]
            owner = last if is_type_name(last) else ""
        if member and language == "python" and is_type_name(owner):
            mine = [d for d in self.by_file.get((fid, owner), []) if d.kind in CONTAINERS]
            seen = [d for d in mine if visible(d.parent, scope)] or mine
            if seen:  # a class of this file: its members or its bases', not a namesake's
                cls = max(seen, key=lambda d: (len(d.parent), -d.id)).qualname
                own = [d for d in self.by_file.get((fid, name), []) if d.parent == cls]
                return own[0].id if own else self._inherited(name, cls)
        if member and language == "python" and (fid, owner) in self.external:
            return None  # `gc.disable`, `Path.cwd`: a member of something outside the map
        if (
            member
            and language in FAMILY_JS
            and is_type_name(owner)
            and ((fid, owner) in self.external)
        ):
            return None  # `new Socket()` of `import { Socket } from 'net'`: net's, no namesake's
        if member and language == "python" and self._untyped_builtin(fid, name, owner):
            return None
        if member and language == "python" and owner == "super":
            return self._inherited(name, scope)  # never the enclosing class's own `name`
        if not member and language == "go":
            return self._go_package(fid, name, scope)
        local = self._local(fid, name, member, scope, language, owner)
        if local is not None:
            return local
        if not member and language in IMPLICIT_MEMBERS:
            inherited = self._enclosing(name, scope)
            if inherited is not None:
                return inherited
        if (member and owner in SELF_NAMES) or (not member and language in IMPLICIT_MEMBERS):
            inherited = self._inherited(name, scope)
            if inherited is not None:
                return inherited
        for real, targets in [] if member else self.bindings.get((fid, name), []):
            for target in targets:  # a bare name the file imports; `x.name` is x's attribute
                found = self._exported(target, real, 0)
                if found is not None:
                    return found
        if not member and language in FAMILY_JS and (fid, name) in self.bindings:
            return None  # `const { port } = require('./cfg')`, cfg assigning `exports.port`
        if not member and language == "python" and (fid, name) in self.bindings:
            return None  # `from app import helper`, app defining no helper: not a namesake's
        if not member and self._reexported_external(fid, name):
            return None  # `from app.cfg import helper`, cfg taking it from outside the map
        if not member and language == "python" and (fid, name) in self.modules:
            return None  # `from pkg import mod`, then `mod`: the module, no definition of the map
        if not member and (fid, name) in self.external:
            return None  # `from urllib.parse import urlparse`: not `import pkg`'s urlparse
        python_member = member and language == "python"
        for target in [] if member and language == "go" else self.imported.get(fid, []):
            found = self._exported(target, name, 0, member=member, owner=owner)
            if found is None or (python_member and "." not in self.quals[found]):
                continue  # `x.debug` is not module `logging`'s function `debug`: `x` is no module
            return found
        if (fid, name) in self.external:
            return None
        found = self._global(fid, name, member, language, owner)
        if found is None and member and is_type_name(owner) and language in INHERITING:
            return self._base_member(name, owner)  # `Sub().name`, a JS `new Sub().name` too
        return found

    def _go_package(self, fid: int, name: str, scope: str) -> int | None:
        """A bare Go name: this file's, else its package's (the other files of its folder), else
        a dot-imported package's (`import . "pkg"`); never another package's namesake. A name
        two files of the folder define (build variants: `zerrors_linux.go`, `zerrors_darwin.go`)
        cannot be told."""
        local = self._local(fid, name, False, scope, "go")
        if local is not None:
            return local
        folder = _package_folder(self.files[fid][0])
        mine = self._go_build(fid)
        sees = GO_SEES[mine]
        defs = [
            d for d in self.by_name.get(name, [])
            if d.file != fid
            and self.files[d.file][1] == "go"
            and not self.is_member(d)
            and self._outside(d)
            and _package_folder(self.files[d.file][0]) == folder
            and self._go_build(d.file) in sees
        ]  # fmt: skip
        kept = [d for d in defs if not self.files[d.file][2]] or defs
        if kept:
            return kept[0].id if len({(d.file, d.qualname) for d in kept}) == 1 else None
        for target in self.dotted.get(fid, []):
            top = [d for d in self.by_file.get((target, name), []) if self._top(d)]
            if top:
                return top[0].id
        if mine == "xtest" and any(
            _package_folder(self.files[t][0]) == folder for t in self.dotted.get(fid, [])
        ):  # `import . "pkg"` in pkg's external test: pkg's own test files are pkg too
            return self._go_package_test(fid, name, folder)
        return None

    def _go_package_test(self, fid: int, name: str, folder: str) -> int | None:
        defs = [
            d for d in self.by_name.get(name, [])
            if self._top(d)
            and _package_folder(self.files[d.file][0]) == folder
            and self._go_build(d.file) == "test"
        ]  # fmt: skip
        return defs[0].id if len({(d.file, d.qualname) for d in defs}) == 1 else None

    def _go_build(self, fid: int) -> str:
        """What a Go file is part of: the package (seen by its tests too), its in-package
        tests, or its external test package (`package p_test`, which imports p: no package
        imports itself); a file sees the definitions of the files whose kind is in its own."""
        path = self.files[fid][0]
        if not path.endswith("_test.go"):
            return "package"
        found = self.go_builds.get(fid)
        if found is None:
            folder = _package_folder(path)
            imports = [*self.imported.get(fid, []), *self.dotted.get(fid, [])]
            external = any(_package_folder(self.files[t][0]) == folder for t in imports)
            found = self.go_builds[fid] = "xtest" if external else "test"
        return found

    def _reexported_external(self, fid: int, name: str) -> bool:
        """True when the files of the map this file imports `name` from take it from outside the
        map themselves (`import os` or `from ._native import helper` in the module named): it
        never means a namesake elsewhere in the map."""
        return any(
            (target, real) in self.external
            for real, targets in self.bindings.get((fid, name), [])
            for target in targets
        )

    def _dotted_module(self, fid: int, owner: str, name: str) -> int | None:
        """`name` in the module a dotted Python owner spells (`typer.core` after `import
        typer.core`), when the file imported that module."""
        tails = tuple("/" + owner.replace(".", "/") + end for end in (".py", "/__init__.py"))
        for target in self.modules.get((fid, owner.partition(".")[0]), []):
            if ("/" + self.files[target][0]).endswith(tails):
                return self._exported(target, name, 0)
        return None

    def _untyped_builtin(self, fid: int, name: str, owner: str) -> bool:
        """`x.join` where `x` is neither this object, a type nor an imported name: a built-in
        type's attribute as likely as any namesake in the map."""
        return (
            name in PY_BUILTIN_ATTRS
            and owner not in SELF_NAMES
            and not is_type_name(owner)
            and (fid, owner) not in self.bindings
        )

    def _base_member(self, name: str, owner: str) -> int | None:
        """`Sub.name` / `Sub().name` defined in a superclass of the one class `Sub` of the map."""
        classes = {d.qualname for d in self.by_name.get(owner, []) if d.kind in CONTAINERS}
        return self._inherited(name, classes.pop()) if len(classes) == 1 else None

    def _real_owner(self, fid: int, owner: str, scope: str) -> str:
        """The class an imported owner name stands for (an alias or a re-export's alias)."""
        found = self._resolve(fid, owner, False, scope, "")
        if found is None or self.kinds.get(found) not in CONTAINERS:
            return owner
        return self.quals[found].rsplit(".", 1)[-1]

    def _local(
        self, fid: int, name: str, member: bool, scope: str, language: str, owner: str = ""
    ) -> int | None:
        defs = self.by_file.get((fid, name), [])
        if not defs:
            return None
        if member:
            members = [d for d in defs if self.is_member(d)]
            mine = [d for d in members if visible(d.parent, scope)]
            pick = mine or (members if len({d.qualname for d in members}) == 1 else [])
            spaced = [d for d in defs if d.parent in self.namespaces and _last(d.parent) == owner]
            if spaced:  # `detail::sq`: a function of namespace `detail`
                pick = spaced
            elif owner in SELF_NAMES:
                pick = mine
            elif is_type_name(owner):  # `Shop::new`, `Item.create`: that type's member only
                pick = [d for d in defs if d.parent.rsplit(".", 1)[-1] == owner]
            elif owner:
                pick = self._typed(fid, owner, pick)
        else:
            seen = [d for d in defs if visible(d.parent, scope)]
            pick = [d for d in seen if not self.is_member(d)]
            if not pick and language in IMPLICIT_MEMBERS:
                pick = seen
        if not pick:
            return None
        best = max(pick, key=lambda d: (len(d.parent), -d.id))
        if language == "go" and sum(d.qualname == best.qualname for d in pick) > 1:
            return None  # two blocks of one function declare it (`type R` in two closures)
        return best.id

    def load_bases(self, conn: sqlite3.Connection) -> None:
        """Superclasses by class qualified name, from the `base` references."""
        self.bases: dict[str, list[str]] = defaultdict(list)
        #: the language families a base's qualified name was found in (the members of a
        #: Python backend's `User` are not those of the JavaScript frontend's `User`)
        self.base_families: dict[str, set[str]] = defaultdict(set)
        #: the files a base's qualified name was found in (a TypeScript source's `Terminal`
        #: is not its compiled `lib/terminal.js` twin)
        self.base_files: dict[str, set[int]] = defaultdict(set)
        for fid, name, scope in conn.execute(
            "SELECT file_id, name, scope FROM refs WHERE kind = 'base'"
        ).fetchall():
            classes = [d for d in self.by_name.get(name, []) if d.kind in CONTAINERS]
            local = [d for d in classes if d.file == fid]
            # a class inside another file's function is that function's: no base of this one
            classes = [d for d in classes if d.file == fid or self._outside(d)]
            imported = self.imported.get(fid, [])  # `import { Terminal } from './terminal'`
            named = [d for d in classes if d.file in imported]
            pick = local or named or (classes if len({d.qualname for d in classes}) == 1 else [])
            if pick and scope:
                self.bases[scope].append(pick[0].qualname)
                self.base_families[pick[0].qualname].add(self._family(pick[0].file))
                self.base_files[pick[0].qualname].add(pick[0].file)

    def _inherited(self, name: str, scope: str) -> int | None:
        """`name` defined in a superclass of a class enclosing `scope` (a few levels up)."""
        parts = scope.split(".")
        todo = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
        seen: set[str] = set()
        for _level in range(MAX_HOPS):
            todo = [b for cls in todo for b in self.bases.get(cls, []) if b not in seen]
            if not todo:
                return None
            seen.update(todo)
            found = [
                d for d in self.by_name.get(name, [])
                if d.parent in todo and d.parent.rsplit(".", 1)[-1] != name
                and self._family(d.file) in self.base_families.get(d.parent, ())
            ]  # fmt: skip  # a base's constructor is not inherited: `Animal` names the class
            # the base's own file first (a C++ header's prototype gives way to its body)
            found = [d for d in found if d.file in self.base_files.get(d.parent, ())] or found
            bodies = [d for d in found if d.kind != "prototype"] or found
            if bodies:
                return bodies[0].id
        return None

    def _family(self, fid: int) -> str:
        language = self.files[fid][1]
        return FAMILY.get(language, language)

    def is_member(self, d: Def) -> bool:
        """A method, field or property, or a C++ method's in-class prototype."""
        return d.kind in MEMBER_KINDS or (d.kind == "prototype" and d.parent in self.containers)

    def _top(self, d: Def) -> bool:
        """Defined at the top of a file or directly in a namespace."""
        return not d.parent or d.parent in self.namespaces

    def _outside(self, d: Def) -> bool:
        """False for a definition inside a function (`py_make_scanner.scan_once`): a local of
        that function, which no other file can name."""
        return not d.parent or d.parent in self.containers or d.parent in self.namespaces

    def _enclosing(self, name: str, scope: str) -> int | None:
        """A bare name inside a class's method reaching that class's member in another file
        (C++ `Rect::scaled` calling `area()`)."""
        found = [d for d in self.by_name.get(name, []) if d.parent and visible(d.parent, scope)]
        bodies = [d for d in found if d.kind != "prototype"] or found
        return bodies[0].id if len({d.qualname for d in bodies}) == 1 else None

    def _typed(self, fid: int, owner: str, pick: list[Def]) -> list[Def]:
        """Narrow `owner.name` by the declared type of a field `owner` of this file, if any:
        `List<Line> lines` makes `lines.add` a List method (not in the map: nothing)."""
        fields = [d for d in self.by_file.get((fid, owner), []) if d.kind in ("field", "property")]
        if not fields:
            return pick
        declared = [
            w for w in _TYPE_WORD.findall(self.signatures.get(fields[0].id, "")) if w != owner
        ]
        if not declared:
            return pick
        return [d for d in pick if d.parent.rsplit(".", 1)[-1] == declared[0]]

    def _exported(
        self, fid: int, name: str, hops: int, *, member: bool = False, owner: str = ""
    ) -> int | None:
        key = (fid, name, hops, member, is_type_name(owner) and owner)
        if key not in self.memo:
            self.memo[key] = self._exported_uncached(fid, name, hops, member=member, owner=owner)
        return self.memo[key]

    def _exported_uncached(
        self, fid: int, name: str, hops: int, *, member: bool = False, owner: str = ""
    ) -> int | None:
        """A top-level (or, for `x.name`, any) definition of `name` in file `fid`, following
        re-exports (`from .impl import name`, `export * from`) a few hops."""
        defs = self.by_file.get((fid, name), [])
        top = [d for d in defs if self._top(d)]
        if top:
            return top[0].id
        members = [
            d for d in defs
            if member and d.parent and _owned(d, owner)
            and (self.is_member(d) or d.parent in self.containers)
        ]  # fmt: skip  # a function nested in a function is no one's member
        if len({d.parent for d in members}) == 1:  # several classes' `name`: cannot tell which
            return members[0].id
        if hops >= MAX_HOPS:
            return None
        for real, targets in self.bindings.get((fid, name), []):
            for target in targets:
                found = self._exported(target, real, hops + 1)
                if found is not None:
                    return found
        for target in self.star.get(fid, []):
            found = self._exported(target, name, hops + 1)
            if found is not None:
                return found
        return None

    def _global(
        self, fid: int, name: str, member: bool, language: str, owner: str = ""
    ) -> int | None:
        family = FAMILY.get(language, language)
        defs = [
            d for d in self.by_name.get(name, [])
            if d.file != fid
            and FAMILY.get(self.files[d.file][1], self.files[d.file][1]) == family
            and (self.is_member(d)) == member
            and (not member or _owned(d, owner))
            and (member or self._outside(d))
        ]  # fmt: skip
        kept = [d for d in defs if not self.files[d.file][2]] or defs
        if not member and language in FOLDER_PACKAGES and len(kept) > 1:
            # a Java package is its folder: a bare name there is the package's own
            folder = _package_folder(self.files[fid][0])
            kept = [d for d in kept if _package_folder(self.files[d.file][0]) == folder] or kept
        # overloads share a qualified name: one definition for the question "which one"
        return kept[0].id if len({(d.file, d.qualname) for d in kept}) == 1 else None
