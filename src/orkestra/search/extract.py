"""One source file -> its search documents, read as plain YAML/markdown (no pydantic).

Reading files one at a time is what lets the index refresh a single changed file cheaply. The
entries are the ones `orkestra.registry.loader.load` accepts, at the same `path:line`; a file that
cannot be parsed, or an entry without its id or name or of the wrong shape, contributes nothing,
and its error (the loader's code, `file:line`) is kept so that search warns about it as the list
commands do (`orkestra validate` reports it too).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.search import layout
from orkestra.search.document import Document, Problem
from orkestra.search.weights import build, text_of

if TYPE_CHECKING:
    from orkestra.core.errors import InputError

_SAFE_REL = re.compile(r"^(?![/\\])(?![A-Za-z]:)(?!.*(?:^|/)\.\.(?:/|$)).+$")


def settings(
    root: Path, problems: list[Problem] | None = None
) -> tuple[layout.Settings, list[Document]]:
    """Where sources live (from orkestra.yaml) and the package documents it declares. An
    orkestra.yaml that does not load gives the defaults, its error appended to `problems`."""
    from orkestra.core.errors import InputError
    from orkestra.registry.config_file import read_config

    try:
        data = read_config(root)
    except InputError as exc:  # search reads the other sources, and says so
        if problems is not None:
            problems.append(Problem("ORK001", exc.message, exc.file or layout.CONFIG, exc.line))
        return layout.Settings(), []
    vendors: list[str] = []
    allow: list[tuple[str, tuple[str, ...]]] = []
    for item in data.get("vendor_roots") or []:
        path = item.get("path") if isinstance(item, dict) else None
        if isinstance(path, str) and _SAFE_REL.match(path):
            vendors.append(path.rstrip("/"))
            adopted = _adopted(root, item.get("provider"), path.rstrip("/"))
            if adopted is not None:
                allow.append((path.rstrip("/"), adopted))
    knowledge = data.get("knowledge")
    kpath = knowledge.get("path", "knowledge") if isinstance(knowledge, dict) else "knowledge"
    if not isinstance(kpath, str) or not _SAFE_REL.match(kpath):
        kpath = "knowledge"
    settings = layout.Settings(tuple(vendors), kpath.rstrip("/"), tuple(allow))
    return settings, _packages(data)


def _adopted(root: Path, provider: object, vendor_root: str) -> tuple[str, ...] | None:
    """Skill folders under `vendor_root` that the provider's overlay adopted (None: no overlay).

    Mirrors the loader: an overlay that cannot be read adopts nothing.
    """
    if not isinstance(provider, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", provider):
        return None
    rel = f"{layout.OVERLAYS}/{provider}.yaml"
    if not (root / rel).is_file():
        return None
    from orkestra.core.errors import InputError

    try:
        data = _mapping(root, rel)
    except InputError:  # not YAML or unreadable: adopts nothing, `orkestra validate` reports it
        return ()
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, dict):
        return ()
    prefix = f"{vendor_root}/"
    names = []
    for entry in skills.values():
        path = entry.get("path") if isinstance(entry, dict) else None
        if isinstance(path, str) and path.rstrip("/").startswith(prefix) and _SAFE_REL.match(path):
            names.append(path.rstrip("/")[len(prefix) :])
    return tuple(sorted(names))


def _packages(data: Any) -> list[Document]:
    mining = data.get("mining")
    packages = mining.get("packages") if isinstance(mining, dict) else None
    docs = []
    if isinstance(packages, dict) and packages:
        lines = getattr(packages, "key_lines", {})
        for name, glob in packages.items():
            line = lines.get(name, 1)
            values = {"name": str(name), "path": text_of(glob)}
            docs.append(build("packages", str(name), str(name), layout.CONFIG, line, values))
    elif isinstance(data.get("project"), str) and data["project"]:
        name = data["project"]
        line = data.key_lines.get("project", 1)
        docs.append(build("packages", name, name, layout.CONFIG, line, {"name": name}))
    return docs


#: folder (project-relative) -> the symlink on its way leaving the project and where it leads
Ways = dict[str, tuple[str, str] | None]


def documents(
    root: Path,
    rel: str,
    kind: str,
    problems: list[Problem] | None = None,
    ways: Ways | None = None,
) -> list[Document]:
    """The documents one source file holds (empty when it cannot be read or has the wrong shape).

    A file that cannot be read or parsed is left out, and its error (ORK001, the loader's code
    for it, at its `file:line`) is appended to `problems` when given, so search can say so. A
    reader meeting an unexpected shape returns no document itself, so any other exception is a
    bug and is not swallowed.
    """
    reader = _READERS.get(kind)
    if reader is None:
        return []
    from orkestra.core.errors import InputError

    found: list[Problem] = []
    refused = _leaving(root, rel, {} if ways is None else ways)
    if refused is not None:  # never read (§13), as the loader refuses it
        if problems is not None:
            problems.append(refused)
        return []
    try:
        docs = reader(root, rel, found)
    except InputError as exc:  # unreadable or not YAML: reported, and search goes on
        found.append(_unread(root, rel, exc))
        docs = []
    if problems is not None:
        problems.extend(found)
    return docs


def _leaving(root: Path, rel: str, ways: Ways) -> Problem | None:
    """The loader's ORK045 for a source reached through a symlink (the file or a folder on its
    way) that leads outside the project; None when the way stays inside. `ways` remembers each
    folder's answer, so a batch of files costs one `lstat` per file."""
    import os

    from orkestra.core.readfile import leaving

    folder = rel.rpartition("/")[0]
    if folder not in ways:
        ways[folder] = leaving(root, folder) if folder else None
    found = ways[folder]
    if found is None and os.path.islink(f"{root}/{rel}"):  # noqa: PTH114 - hot path
        found = leaving(root, rel)
    if found is None:
        return None
    link, real = found
    message = (
        f"'{link}' is a symlink to '{real}', outside the project; "
        "registry files are only read inside the project (copy the file in instead)"
    )
    return Problem("ORK045", message, rel, None)


def _unread(root: Path, rel: str, exc: InputError) -> Problem:
    """The problem of a source that could not be read: ORK001 with its cause, or, for a name
    that is no file (a folder, a FIFO), validate's ORK004 in its words."""
    import stat

    try:
        regular = stat.S_ISREG((root / rel).stat().st_mode)
    except OSError:  # gone, or a symlink to nothing: the read's own error says it
        regular = True
    if not regular:
        from orkestra.registry.loader import not_read, what_is

        return Problem("ORK004", not_read(rel, what_is(root / rel)), rel, None)
    return Problem("ORK001", exc.message, exc.file or rel, exc.line)


def _mapping(root: Path, rel: str, *, allow_empty: bool = False) -> Any:
    """The YAML mapping of a source file; an `InputError` when it is not YAML, cannot be read
    or (unless `allow_empty`: an empty mapping then) is empty, as the loader reads it."""
    from orkestra.core import yamlio

    return yamlio.load_mapping(root / rel, display=rel, allow_empty=allow_empty)


_MISSING = object()
#: the shape the loader names for a value of the wrong type (`loader.wrong_shape`)
_WANTED: dict[type, str] = {str: "text", dict: "mapping", list: "list"}


def _has(data: Any, loc: tuple[str | int, ...], want: type, rel: str, out: list[Problem]) -> bool:
    """True when the value at `loc` in `data` is a `want`; else the loader's ORK002 for it
    (a missing key, or a value of the wrong type) at its line is appended to `out`."""
    from orkestra.core import yamlio

    node: Any = data
    for part in loc:
        listed = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if not listed and not (isinstance(node, dict) and part in node):
            node = _MISSING
            break
        node = node[part]
    if isinstance(node, want):
        return True
    from orkestra.registry.loader import wrong_shape

    path = ".".join(str(p) for p in loc)
    if node is _MISSING:
        what = f"missing required key '{path}'"
    else:
        what = f"{path}: {wrong_shape(_WANTED[want], node)}"
    out.append(Problem("ORK002", what, rel, yamlio.line_of(data, loc) or 1))
    return False


def _known(data: Any, loc: tuple[str | int, ...], kind: str, rel: str, out: list[Problem]) -> bool:
    """True when the mapping at `loc` in `data` holds only the keys the `kind`'s model accepts
    (`search_fields.KEYS`); else the loader's ORK002 for the first other key, at its line."""
    from orkestra.core import yamlio
    from orkestra.registry.models.search_fields import KEYS

    node: Any = data
    for part in loc:
        node = node[part]
    unknown = [key for key in node if key not in KEYS[kind]]
    if not unknown:
        return True
    path = ".".join(str(p) for p in (*loc, unknown[0]))
    message = f"unknown key '{path}': remove it or check its spelling"
    if not isinstance(unknown[0], str):  # `1:`, `on:`, `null:`: the loader's words for them
        from orkestra.registry.loader import key_not_text

        message = key_not_text(unknown[0])
    out.append(Problem("ORK002", message, rel, yamlio.line_of(data, (*loc, unknown[0])) or 1))
    return False


def _unnamed(data: Any, key: str, rel: str, out: list[Problem]) -> bool:
    """True when `data[key]` (a string) is no Orkestra name: the loader's ORK002 for it, at its
    line, appended to `out` (a display name, `name: "DOCX Tools"`, before any other check)."""
    import re

    from orkestra.registry.models.names import NAME_PATTERN, pattern_advice

    if re.fullmatch(NAME_PATTERN, data[key]):
        return False
    line = getattr(data, "key_lines", {}).get(key) or 1
    out.append(Problem("ORK002", f"{key}: {pattern_advice(data[key])}", rel, line))
    return True


def _misnamed(rel: str, message: str, line: int | None, out: list[Problem]) -> list[Document]:
    """No document: the loader's ORK003 (a name that is not its file's) appended to `out`."""
    out.append(Problem("ORK003", message, rel, line or 1))
    return []


def _stem(rel: str) -> str:
    return rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _agent(root: Path, rel: str, out: list[Problem]) -> list[Document]:
    data = _mapping(root, rel)
    if not all([_has(data, (key,), str, rel, out) for key in ("name", "description")]):
        return []
    if not _known(data, (), "agent", rel, out) or _unnamed(data, "name", rel, out):
        return []
    if data["name"] != _stem(rel):
        message = f"agent '{data['name']}' must be in a file named {data['name']}.yaml"
        return _misnamed(rel, message, data.key_lines.get("name"), out)
    values = {k: data.get(k) for k in ("name", "description", "category", "identity", "domains")}
    values["prompt"] = data.get("prompt")
    attrs = {k: data.get(k) for k in ("category", "status", "role")}
    attrs["scopes"] = data.get("scopes")
    doc = build("agents", data["name"], data["description"], rel, data.line or 1, values, attrs)
    return [doc]


def _skill(root: Path, rel: str, out: list[Problem]) -> list[Document]:
    from orkestra.core import yamlio

    data = _mapping(root, rel)
    stem = _stem(rel)
    if not _has(data, ("metadata",), dict, rel, out):
        return []
    meta = data["metadata"]
    if not all([_has(data, ("metadata", key), str, rel, out) for key in ("name", "identifier")]):
        return []
    front: Any = data.get("frontmatter") if isinstance(data.get("frontmatter"), dict) else {}
    listed = data.get("sections") or []
    if not isinstance(listed, list):  # the loader rejects such a skill too
        _has(data, ("sections",), list, rel, out)
        return []
    if not (
        _known(data, (), "skill", rel, out)
        and _known(data, ("metadata",), "skill metadata", rel, out)
    ):
        return []
    if not (meta["name"] == meta["identifier"] == stem):
        message = (
            f"skill identifier '{meta['identifier']}' and name '{meta['name']}' must both "
            f"equal the file stem '{stem}'"
        )
        return _misnamed(rel, message, yamlio.line_of(data, ("metadata", "name")), out)
    sections = [[s.get("title"), s.get("body")] for s in listed if isinstance(s, dict)]
    values = {
        "name": stem,
        "description": meta.get("description"),
        "tags": front.get("tags"),
        "sections": sections,
    }
    attrs = {
        "layer": meta.get("layer"),
        "type": meta.get("type", "workflow"),
        "source": "core",
        "tags": front.get("tags"),
        "scopes": data.get("scopes"),
    }
    title = text_of(meta.get("description"))
    line = data.key_lines.get("metadata", 1)
    return [build("skills", stem, title, rel, line, values, attrs)]


def _vendor(root: Path, rel: str, out: list[Problem]) -> list[Document]:
    from orkestra.core import frontmatter, yamlio

    doc = frontmatter.parse(yamlio.read_text(root / rel, display=rel), rel)
    if not all([_has(doc.meta, (key,), str, rel, out) for key in ("name", "description")]):
        return []
    name, folder = doc.meta["name"], rel.rsplit("/", 2)[-2]
    if _unnamed(doc.meta, "name", rel, out):
        return []
    if name != folder:
        message = f"vendor skill name '{name}' must equal its folder '{folder}'"
        return _misnamed(rel, message, getattr(doc.meta, "key_lines", {}).get("name"), out)
    meta: Any = doc.meta.get("metadata") if isinstance(doc.meta.get("metadata"), dict) else {}
    tags = meta.get("tags", [])
    tag_list = tags.split(",") if isinstance(tags, str) else tags if isinstance(tags, list) else []
    tag_list = [str(t).strip() for t in tag_list if str(t).strip()]
    description = doc.meta["description"].strip()
    values = {"name": name, "description": description, "tags": tag_list, "sections": doc.body}
    attrs = {"layer": meta.get("layer"), "source": "vendor", "tags": tag_list}
    return [build("skills", name, description, rel, 1, values, attrs)]


def _scopes(root: Path, rel: str, out: list[Problem]) -> list[Document]:
    data = _mapping(root, rel, allow_empty=True)
    if "scopes" not in data or not _has(data, ("scopes",), dict, rel, out):
        return []
    block: Any = data["scopes"]
    docs = []
    for name, scope in block.items():
        if not isinstance(name, str):
            line = getattr(block, "key_lines", {}).get(name) or data.line or 1
            out.append(Problem("ORK002", f"scopes.{name}: the name must be a string", rel, line))
            continue
        if not _has(data, ("scopes", name), dict, rel, out):
            continue
        description = text_of(scope.get("description"))
        values = {"name": name, "description": description, "skills": scope.get("primary_skills")}
        line = getattr(block, "key_lines", {}).get(name, 0)
        docs.append(build("scopes", name, description, rel, line, values))
    return docs


def _truths(root: Path, rel: str, out: list[Problem]) -> list[Document]:
    data = _mapping(root, rel)
    if not _has(data, ("metadata",), dict, rel, out):
        return []
    if "statements" not in data or not _has(data, ("statements",), list, rel, out):
        return []  # no statements: nothing to find, and nothing wrong
    statements: Any = data["statements"]
    meta: Any = data["metadata"]
    docs = []
    for index, item in enumerate(statements):
        if not _has(data, ("statements", index), dict, rel, out):
            continue
        keys = ("id", "statement")
        if not all([_has(data, ("statements", index, key), str, rel, out) for key in keys]):
            continue
        if not _known(data, ("statements", index), "truth", rel, out):
            continue
        values = {k: item.get(k) for k in ("id", "statement", "rationale", "tags", "evidence")}
        attrs = {
            "status": item.get("status"),
            "tags": item.get("tags"),
            "scope": item.get("scope", "package"),
            "owner": meta.get("owner"),
        }
        line = getattr(statements, "item_lines", [])[index]
        docs.append(build("truths", item["id"], item["statement"], rel, line, values, attrs))
    return docs


def _decision(root: Path, rel: str, out: list[Problem]) -> list[Document]:
    data = _mapping(root, rel)
    if not all([_has(data, (key,), str, rel, out) for key in ("id", "title")]):
        return []
    if not _known(data, (), "decision", rel, out):
        return []
    # a record may live in `<id>.yaml` or `<id>-<slug>.yaml`, as the loader accepts it
    ident, stem = data["id"], _stem(rel)
    if stem != ident and not stem.startswith(f"{ident}-"):
        message = f"decision '{ident}' must be in a file named {ident}.yaml"
        return _misnamed(rel, message, data.key_lines.get("id"), out)
    keys = ("id", "title", "summary", "rationale", "context", "tags", "files")
    values = {k: data.get(k) for k in keys}
    attrs = {k: data.get(k) for k in ("status", "domain", "tags")}
    return [build("decisions", data["id"], data["title"], rel, data.line or 1, values, attrs)]


def _domain(root: Path, rel: str, _out: list[Problem]) -> list[Document]:
    from orkestra.core import yamlio

    text = yamlio.read_text(root / rel, display=rel)
    domain = rel.removeprefix("registries/domains/").rsplit("/", 1)[0]
    part = _stem(rel)
    heading = next((ln.lstrip("#").strip() for ln in text.splitlines() if ln.startswith("#")), "")
    values = {"domain": domain, "title": heading or part, "body": text}
    attrs = {"domain": domain, "file": part}
    title = heading or f"{domain}: {part}"
    return [build("domains", f"{domain}/{part}", title, rel, 1, values, attrs)]


_READERS: dict[str, Callable[[Path, str, list[Problem]], list[Document]]] = {
    "agent": _agent,
    "skill": _skill,
    "vendor": _vendor,
    "scopes": _scopes,
    "truths": _truths,
    "decision": _decision,
    "domain": _domain,
}


def knowledge_documents(root: Path, problems: list[Problem] | None = None) -> list[Document]:
    """Notes and claims of the knowledge base (`knowledge_docs.documents`); the errors of the
    files left out (a note that failed to load, a malformed claims file) are appended to
    `problems` when given."""
    from orkestra.core.errors import InputError
    from orkestra.search import knowledge_docs

    try:
        return knowledge_docs.documents(root, problems)
    except InputError as exc:  # a malformed claims file or knowledge block: search answers
        if problems is not None:  # from the registries, and says which file it left out
            where = exc.file or layout.CONFIG
            problems.append(
                Problem(exc.code, exc.message, where, exc.line, knowledge_docs.NOTES_CHECK)
            )
        return []
