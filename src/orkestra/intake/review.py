"""The trust review of one candidate folder: structure (symlinks, binaries) and content rules.

Everything here reads bytes; nothing is imported, executed or followed.
"""

from __future__ import annotations

import io
import posixpath
import re
import tokenize
from dataclasses import dataclass, field, replace
from pathlib import Path

from orkestra.core import jsonio
from orkestra.core.errors import InputError
from orkestra.intake.climb import Climb, climbs
from orkestra.intake.rules import FileKind, Finding, Rule, RuleSet, Text, excerpt, language
from orkestra.intake.scan import TRUST, scan_text
from orkestra.intake.scripts import audit_doc_shell, audit_script
from orkestra.intake.unicode import scan_invisible
from orkestra.intake.walker import (
    Entry,
    LinkNames,
    is_skill_folder,
    read_bytes,
    shared_outside,
    walk,
)

SCRIPT_SUFFIXES = frozenset(
    {
        ".py",
        ".sh",
        ".bash",
        ".zsh",
        ".fish",
        ".js",
        ".mjs",
        ".cjs",
        ".ts",
        ".tsx",
        ".rb",
        ".pl",
        ".php",
        ".ps1",
        ".bat",
        ".cmd",
        ".lua",
    }
)
#: media and fonts are ordinary bundled assets, not binaries to review
_MEDIA_MAGIC = (
    b"\x89PNG",
    b"\xff\xd8\xff",
    b"GIF8",
    b"%PDF",
    b"wOFF",
    b"wOF2",
    b"OTTO",
    b"\x00\x01\x00\x00",
    b"\x00\x00\x01\x00",
)
_EXEC_MAGIC = {
    b"\x7fELF": "ELF executable",
    b"\xfe\xed\xfa\xce": "Mach-O executable",
    b"\xfe\xed\xfa\xcf": "Mach-O executable",
    b"\xcf\xfa\xed\xfe": "Mach-O executable",
    b"\xce\xfa\xed\xfe": "Mach-O executable",
    b"\xca\xfe\xba\xbe": "Mach-O universal binary or Java class",
    b"MZ": "Windows executable",
    b"\x00asm": "WebAssembly module",
    b"PK\x03\x04": "zip archive",
    b"\x1f\x8b": "gzip archive",
}
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)", re.M)
_TEMPLATE = re.compile(r"\{\{|\{%|\$\{|<%")
_PARENT_PATH = re.compile(r"(?<![\w./])\.\.(?:/[^\s\"'`)]*)?(?=[\s\"'`)]|$)")


@dataclass
class TextFile:
    rel: str
    kind: FileKind
    text: str


@dataclass
class Review:
    """What the review saw: entries, readable text files and findings."""

    entries: list[Entry]
    texts: list[TextFile] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def file_kind(rel: str, text: str) -> FileKind:
    """`script` for code files (by suffix or shebang), `doc` for everything else."""
    if Path(rel).suffix.lower() in SCRIPT_SUFFIXES or text.startswith("#!"):
        return "script"
    return "doc"


def review_folder(
    folder: Path,
    display: str,
    rules: RuleSet,
    *,
    entries: list[Entry] | None = None,
    siblings: LinkNames | None = None,
) -> Review:
    """Review every entry of a candidate folder; finding paths are `display` + relative path.
    `entries`: the folder's walk when already done; `siblings`: the hard-linked names found in
    the other candidates of the same import (not outside, `walker.shared_outside`)."""
    result = Review(entries=walk(folder) if entries is None else entries)
    limit = int(rules.criteria.get("max_file_bytes", 1 << 20))
    shared = {
        entry.rel: (entry, inside) for entry, inside in shared_outside(result.entries, siblings)
    }
    # every file linked from elsewhere: a package manager's store (pnpm, uv) or a `cp -al` copy
    store = bool(shared) and len(shared) == sum(e.kind == "file" for e in result.entries)
    # one slot of findings per entry, in entry order: texts are read first, then scanned once
    # it is known which files the skill runs with which interpreter (whatever their names)
    slots: list[list[Finding]] = []
    pending: list[tuple[list[Finding], Entry, str, str]] = []
    unread: dict[str, tuple[list[Finding], Entry, str]] = {}  # media and binaries, not scanned
    for entry in result.entries:
        shown = f"{display}{entry.rel}"
        slot: list[Finding] = []
        slots.append(slot)
        if entry.kind == "symlink":
            _symlink(slot, entry, shown, rules)
        elif entry.kind == "special":
            _structural(slot, rules, "special-file", shown, f"{entry.rel} is not a regular file")
        elif entry.kind == "unlistable":
            why = f"{entry.rel} cannot be listed ({entry.target}); nothing inside it was reviewed"
            _structural(slot, rules, "special-file", shown, why)
        else:
            if entry.rel in shared:
                _hardlink(slot, entry, shared[entry.rel][1], shown, rules, store=store)
            text = _read_text(slot, entry, shown, rules, limit)
            if text is not None:
                pending.append((slot, entry, shown, text))
            elif entry.size <= limit:
                unread[entry.rel] = (slot, entry, shown)
    texts = [(entry.rel, text) for _, entry, _, text in pending]
    run_in_git = _git_run_targets(folder, texts)  # git metadata is not read, unless run
    # a file run from `.git/` is published too: its other names must be inside the folder
    linked = dict(
        (e.rel, inside) for e, inside in shared_outside([*result.entries, *run_in_git], siblings)
    )
    for entry in run_in_git:
        slot = []
        slots.append(slot)
        result.entries.append(entry)
        shown = f"{display}{entry.rel}"
        if entry.rel in linked:
            _hardlink(slot, entry, linked[entry.rel], shown, rules, store=store)
        text = _read_text(slot, entry, shown, rules, limit)
        if text is not None:
            pending.append((slot, entry, shown, text))
        elif entry.size <= limit:
            unread[entry.rel] = (slot, entry, shown)
    # only a file not read as code already (by suffix or shebang) can change its reading
    wanted = {rel for rel, text in texts if file_kind(rel, text) == "doc"} | set(unread)
    runs = run_languages(texts, {e.rel for e in result.entries if e.kind == "file"}, wanted)
    for rel, (slot, entry, shown) in unread.items():
        if rel in runs:  # an image, a PDF or bytes the skill hands to an interpreter
            data = read_bytes(entry, limit) or b""
            why = f"{rel} is not text, yet the skill runs it as a {runs[rel]} script"
            _structural(slot, rules, "bundled-binary", shown, why)
            text = data.replace(b"\x00", b"").decode("utf-8", errors="replace")
            pending.append((slot, entry, shown, text))
    for slot, entry, shown, text in pending:
        _file(result, slot, entry, shown, rules, folder, text, runs.get(entry.rel))
    for slot in slots:
        result.findings.extend(slot)
    result.findings.extend(_file_names(result.entries, display, rules))
    return result


#: an interpreter given a file to run: `python3 scripts/x.cfg`, `bash "$DIR/setup"`, `node a.jsx`
_RUN = re.compile(
    r"(?<![\w./$-])(python[0-9.]*|pypy[0-9.]*|py|uv\s+run|node(?:js)?|deno\s+run|bun(?:\s+run)?"
    r"|tsx|ts-node|(?:ba|z|k|da)?sh|source|pwsh|powershell(?:\.exe)?|perl|ruby|php|rscript"
    r"|osascript)[ \t]+(?:-[^\s\\]*[ \t]+)*[\"']?([^\s\"'`;|&()<>]+)",
    re.I,
)
_RUN_VAR = re.compile(r"^(?:\$\{?\w+\}?|\{\w+\})/")
_RUN_LANGS = {"python": "python", "pypy": "python", "py": "python", "uv": "python"}
_SNIFF_SKIP = frozenset(
    {".md", ".markdown", ".rst", ".html", ".htm", ".json", ".ipynb", ".yaml", ".yml", ".toml"}
)
_PY_IMPORT = re.compile(r"^(?:import\s+[\w.]+|from\s+[\w.]+\s+import\s)", re.M)
_JS_IMPORT = re.compile(
    r"^\s*(?:(?:const|let|var)\s+[\w{}\s,:]+=\s*require\s*\(\s*['\"`]"
    r"|import\s+[\w{}\s,*]+\s+from\s+['\"])",
    re.M,
)


def run_languages(
    texts: list[tuple[str, str]], files: set[str] | None = None, wanted: set[str] | None = None
) -> dict[str, str]:
    """The language of each file that is code whatever its name says: one the skill hands to an
    interpreter (`python3 scripts/defaults.cfg`, `node app.jsx`, `bash "$DIR/setup"` in any of its
    files), or a file that reads as Python or JavaScript modules (`import os` and it parses).
    Files already read as scripts (by suffix or shebang) keep their own reading. `files`: every
    file of the folder a run may name (default: the texts' own); `wanted`: the files whose
    language is asked for (default: all of them). Only lines naming one of them are read."""
    rels = files if files is not None else {rel for rel, _ in texts}
    wanted = rels if wanted is None else wanted
    names = {posixpath.basename(rel) for rel in wanted}
    found: dict[str, str] = {}
    for rel, text in texts:
        base = posixpath.dirname(rel)
        for start, end in _lines_naming(text, names):
            for match in _RUN.finditer(text, start, end):
                target = _RUN_VAR.sub("", match.group(2)).removeprefix("./")
                named = _run_target(rels, base, target)
                if named is not None and named in wanted:
                    word = match.group(1).lower().split()[0].rstrip("0123456789.")
                    found.setdefault(named, _run_language(word))
    for rel, text in texts:
        if rel in wanted and rel not in found and Path(rel).suffix.lower() not in _SNIFF_SKIP:
            sniffed = _sniff(text)
            if sniffed:
                found[rel] = sniffed
    return found


def _lines_naming(text: str, names: set[str]) -> list[tuple[int, int]]:
    """(start, end) of each line of `text` holding one of `names` (found with str.find)."""
    starts: set[int] = set()
    for name in names:
        at = text.find(name) if name else -1
        while at != -1:
            starts.add(text.rfind("\n", 0, at) + 1)
            at = text.find(name, at + len(name))
    spans = []
    for start in sorted(starts):
        end = text.find("\n", start)
        spans.append((start, len(text) if end == -1 else end))
    return spans


def _git_run_targets(folder: Path, texts: list[tuple[str, str]]) -> list[Entry]:
    """Files inside `.git/` (left out of the walk) that a text of the skill hands to an
    interpreter (`sh .git/hooks/run`): read like any other file, with lstat."""
    import os
    import stat

    found: dict[str, Entry] = {}
    for rel, text in texts:
        if ".git/" not in text:
            continue
        base = posixpath.dirname(rel)
        matches = (m for a, b in _lines_naming(text, {".git/"}) for m in _RUN.finditer(text, a, b))
        for match in matches:
            target = _RUN_VAR.sub("", match.group(2)).removeprefix("./")
            for path in {posixpath.normpath(posixpath.join(base, target)), target}:
                if not path.startswith(".git/") or path in found:
                    continue
                parts = path.split("/")
                try:  # no folder on the way may be a symlink (it would lead out)
                    dirs = [os.lstat(folder.joinpath(*parts[:n])) for n in range(1, len(parts))]
                    info = os.lstat(folder / path)
                except OSError:  # nothing there: nothing to read
                    continue
                if all(stat.S_ISDIR(d.st_mode) for d in dirs) and stat.S_ISREG(info.st_mode):
                    inode = (info.st_dev, info.st_ino)
                    found[path] = Entry(
                        path, folder / path, "file", info.st_size, None, info.st_nlink, inode
                    )
    return [found[path] for path in sorted(found)]


def _run_target(rels: set[str], base: str, target: str) -> str | None:
    if not target or target.startswith("-"):
        return None
    for path in (posixpath.join(base, target) if base else target, target):
        path = posixpath.normpath(path)
        if path in rels:
            return path
    if "/" in target:
        return next((r for r in sorted(rels) if r.endswith(f"/{target}")), None)
    return None


def _run_language(word: str) -> str:
    if word in _RUN_LANGS:
        return _RUN_LANGS[word]
    if word in ("node", "nodejs", "deno", "bun", "tsx", "ts-node"):
        return "js"
    if word in ("sh", "bash", "zsh", "ksh", "dash", "source"):
        return "shell"
    return "other"


def _sniff(text: str) -> str | None:
    """python or js when the text reads as a module of that language, else None."""
    if _PY_IMPORT.search(text):
        import ast

        try:
            ast.parse(text)
        except (SyntaxError, ValueError):  # prose, or Python with a mistake: not sniffed
            pass
        else:
            return "python"
    if _JS_IMPORT.search(text):
        return "js"
    return None


def _file_names(entries: list[Entry], display: str, rules: RuleSet) -> list[Finding]:
    """File and folder names are text the model reads too (a listing is shown to it)."""
    names = "\n".join(  # one line per entry: a line break inside a name is a blank here
        re.sub(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]", " ", entry.rel)
        .replace("/", " / ")
        .replace("-", " ")
        .replace("_", " ")
        for entry in entries
    )
    found = []
    for finding in scan_text(rules, "doc", "", names):
        if finding.category in ("prompt-injection", "exfiltration"):
            rel = entries[finding.line - 1].rel
            found.append(
                replace(
                    finding,
                    file=f"{display}{rel}",
                    line=1,
                    reason=f"in the file name; {finding.reason}".rstrip("; "),
                )
            )
    return found


def _structural(slot: list[Finding], rules: RuleSet, rule_id: str, file: str, text: str) -> None:
    rule = rules.builtin(rule_id)
    slot.append(
        Finding(file, 1, rule_id, rule.severity, excerpt(text), rule.message, rule.category)
    )


def _symlink(slot: list[Finding], entry: Entry, shown: str, rules: RuleSet) -> None:
    target = entry.target or ""
    if not _inside(posixpath.dirname(entry.rel), target):
        _structural(slot, rules, "symlink-outside", shown, f"{entry.rel} -> {target}")


def _hardlink(
    slot: list[Finding], entry: Entry, inside: int, shown: str, rules: RuleSet, *, store: bool
) -> None:
    names = f"{entry.nlink} names, {inside} inside the skill folder"
    _structural(slot, rules, "hardlink-outside", shown, f"{entry.rel} has {names}")
    if store:  # the whole folder is linked, as pnpm and uv install packages: held, not rejected
        slot[-1] = replace(
            slot[-1],
            severity="medium",
            reason="every file of the folder has names outside it, as a package manager's store "
            "(pnpm, uv) or a `cp -al` copy links them: check where the folder was installed from",
        )


def _inside(base: str, target: str) -> bool:
    """Does `target`, taken relative to folder `base` of the candidate, stay inside it?"""
    if target.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", target):
        return False
    joined = posixpath.normpath(posixpath.join(base or ".", target.replace("\\", "/")))
    return joined != ".." and not joined.startswith("../")


def _read_text(
    slot: list[Finding], entry: Entry, shown: str, rules: RuleSet, limit: int
) -> str | None:
    """The file's text as a reader sees it, or None (too large, media, binary, not UTF-8)."""
    data = read_bytes(entry, limit)
    if data is None:
        _structural(slot, rules, "oversized-file", shown, f"{entry.size} bytes, over {limit}")
        return None
    binary = _binary_kind(data)
    if binary == "media":
        return None
    text = _hidden_text(data, entry.rel)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) and text is not None:
        _structural(slot, rules, "not-utf8", shown, "UTF-16 text: read after decoding it")
    elif binary is not None:
        _structural(slot, rules, "bundled-binary", shown, f"{entry.rel}: {binary}")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            _structural(slot, rules, "not-utf8", shown, f"invalid UTF-8 at byte {exc.start}")
            return None
    return text


def _file(
    result: Review,
    slot: list[Finding],
    entry: Entry,
    shown: str,
    rules: RuleSet,
    folder: Path,
    text: str,
    run_as: str | None,
) -> None:
    kind = file_kind(entry.rel, text)
    lang = language(entry.rel, text)
    if kind == "doc" and run_as is not None:  # code under a harmless name: audited as code
        kind, lang = "script", run_as
    result.texts.append(TextFile(entry.rel, kind, text))
    found = scan_invisible(rules, shown, text, kind) + scan_text(rules, kind, shown, text, lang)
    strings = _json_strings(text) if entry.rel.endswith((".ipynb", ".json")) else None
    if strings is not None:  # notebook cells (and JSON text) as the reader of the JSON sees them
        found += [f for f in scan_text(rules, "doc", shown, strings) if f.category in TRUST]
        code = _notebook_code(text, strings) if entry.rel.endswith(".ipynb") else None
        if code is not None:  # its code cells are a script in the notebook's language
            cells = scan_text(rules, "script", shown, code, _notebook_language(text))
            found += [f for f in cells if f.category in TRUST]
    if "\\" in text and entry.rel.endswith((".json", ".jsonl", ".ipynb")):
        # escaped values (`\u0049gnore`, `\n` inside a phrase) as the JSON's reader sees them
        values = _json_values(text)
        found += [f for f in scan_text(rules, "doc", shown, values) if f.category in TRUST]
    if kind == "script":
        found += audit_script(rules, shown, text, lang)
    elif "```" in text or "~~~" in text:
        found += audit_doc_shell(rules, shown, text)
    found += _outside_paths(rules, entry.rel, shown, kind, text, folder, lang)
    slot.extend(worst_per_line(found))


_JSON_STRING = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def _json_strings(text: str) -> str | None:
    """The JSON file with each line that is one string (a notebook cell's source line) replaced
    by the string's value, line numbers kept: `"Ignore all previous\\n",` then
    `"instructions"` read as the two lines of text they are. None when no line changes."""
    lines = text.split("\n")
    changed = False
    for number, line in enumerate(lines):
        match = _JSON_STRING.match(line) if '"' in line else None
        if match is None:
            lines[number] = ""
            continue
        try:
            value = jsonio.loads(match.group(1), source="notebook line")
        except InputError:  # not a JSON string after all: nothing to read there
            lines[number] = ""
            continue
        lines[number] = str(value).replace("\n", " ").strip()
        changed = True
    return "\n".join(lines) if changed else None


_JSON_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _json_values(text: str) -> str:
    """Every JSON string of each line decoded (keys and values, `\\n` read as a space), joined by
    blanks, line numbers kept: `{"note": "\\u0049gnore all"}` reads `note Ignore all`."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        words = []
        for token in _JSON_TOKEN.findall(line) if '"' in line else ():
            try:
                value = jsonio.loads(token, source="JSON string")
            except InputError:  # not a JSON string after all: nothing to read there
                continue
            words.append(str(value).replace("\n", " "))
        lines[number] = " ".join(words)
    return "\n".join(lines)


_CELL_TYPE = re.compile(r'^\s*"cell_type"\s*:\s*"(\w+)"')
_SOURCE = re.compile(r'^\s*"source"\s*:\s*(\[)?')
_KERNEL = re.compile(
    r'"language_info"\s*:\s*\{[^{}]*?"name"\s*:\s*"([\w+-]+)"|"language"\s*:\s*"([\w+-]+)"'
)
_NOTEBOOK_LANGS = {
    "python": "python",
    "python3": "python",
    "javascript": "js",
    "typescript": "js",
    "bash": "shell",
    "sh": "shell",
}


def _notebook_language(text: str) -> str:
    """The kernel's language (metadata), as `language` names it; `other` when not said, so every
    script rule without a language limit still applies and no language's own pattern is guessed."""
    match = _KERNEL.search(text)
    name = (match.group(1) or match.group(2)).lower() if match else ""
    return _NOTEBOOK_LANGS.get(name, "other")


def _notebook_code(text: str, strings: str) -> str | None:
    """The strings reading (`_json_strings`) with only the lines of code cells' `source` kept,
    line numbers kept; None when the notebook has no code cell."""
    lines = text.split("\n")
    values = strings.split("\n")
    kept = [""] * len(lines)
    cell, inside, found = "", False, False
    for number, line in enumerate(lines):
        typed = _CELL_TYPE.match(line)
        if typed:
            cell = typed.group(1)
        if inside:
            if line.strip().startswith("]"):
                inside, cell = False, ""  # a writer that puts `source` first: taken as code
            elif cell in ("code", ""):
                kept[number], found = values[number], True
            continue
        source = _SOURCE.match(line)
        if source and source.group(1) and not line.rstrip().endswith("]"):
            inside = True
        elif source and cell in ("code", ""):  # `"source": "one line"`
            kept[number], found = values[number], True
    return "\n".join(kept) if found else None


#: files a reader (or a model) takes for text, whatever bytes they hold
TEXT_SUFFIXES = SCRIPT_SUFFIXES | frozenset(
    {".md", ".markdown", ".txt", ".rst", ".json", ".yaml", ".yml", ".toml", ".html", ".htm", ".xml"}
)


def _hidden_text(data: bytes, rel: str) -> str | None:
    """Text smuggled past the UTF-8 check: UTF-16 with a byte order mark, or a text file padded
    with NUL bytes to look binary. Read anyway, so what it says is reviewed; else None."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:  # not UTF-16 after all: reported as binary or not UTF-8
            return None
    if Path(rel).suffix.lower() in TEXT_SUFFIXES and b"\x00" in data[:8192]:
        return data.replace(b"\x00", b"").decode("utf-8", errors="replace")
    return None


def _sibling_skill(folder: Path, base: str, path: str) -> bool:
    """`../name/...` from the skill's top folder naming another skill folder beside this one."""
    joined = posixpath.normpath(posixpath.join(base or ".", path.replace("\\", "/")))
    parts = joined.split("/")
    if len(parts) < 2 or parts[0] != ".." or parts[1] in ("", ".", ".."):
        return False
    return is_skill_folder(folder.parent / parts[1])


def worst_per_line(findings: list[Finding]) -> list[Finding]:
    """One finding per rule, line and layer: the most severe (the pattern and the AST may agree)."""
    order = {"high": 0, "medium": 1, "low": 2}
    best: dict[tuple[str, str, int, str], Finding] = {}
    for finding in findings:
        key = (finding.file, finding.rule, finding.line, finding.layer)
        if key not in best or order[finding.severity] < order[best[key].severity]:
            best[key] = finding
    return list(best.values())


def _binary_kind(data: bytes) -> str | None:
    """None for text; "media" for images and fonts; otherwise what kind of binary it is."""
    head = data[:8192]
    if data.startswith(_MEDIA_MAGIC) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        return "media"
    for magic, name in _EXEC_MAGIC.items():
        if data.startswith(magic) and (magic != b"MZ" or b"\x00" in head):
            return name
    if b"\x00" in head:
        return "binary data"
    return None


#: a Python file that can read its own source or docstrings (a path hidden in a comment read back)
_READS_ITSELF = re.compile(
    r"\b(?:__doc__|getdoc|get_docstring|getsource\w*|getcomments|getfile|linecache|tokenize"
    r"|__file__|argv|__spec__|__loader__|get_data|get_source|resources|co_filename|f_code"
    r"|find_spec|__cached__|origin)\b"
)


def _inert_python(text: str, body: Text) -> list[tuple[int, int]]:
    """Offsets of Python's comments and docstrings (a string that is a statement of its own),
    as Python's tokenizer reads them: text there is never a value the code uses (`.. note::` in
    reST docstrings, a path in a comment). None (an empty list) when the file could read them back (its own
    `__file__`, `__doc__`, `inspect`, `exec` …) or does not tokenize."""
    if _READS_ITSELF.search(text):
        return []
    spans: list[tuple[int, int]] = []
    previous = tokenize.NEWLINE
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return []
    skip = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    last = len(body.starts)
    for index, token in enumerate(tokens):
        if token.end[0] > last:  # the end marker, after a last line with no newline
            break
        start = body.starts[token.start[0] - 1] + token.start[1]
        end = body.starts[token.end[0] - 1] + token.end[1]
        if token.type == tokenize.COMMENT:
            spans.append((start, end))
        elif token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT):
            following = next((t for t in tokens[index + 1 :] if t.type not in skip), None)
            if following is None or following.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                spans.append((start, end))
        if token.type not in skip or token.type == tokenize.INDENT:
            previous = token.type
    return spans


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with these spans (comments, docstrings) blanked, offsets and lines kept."""
    if not spans:
        return text
    pieces, last = [], 0
    for start, end in spans:
        pieces += [text[last:start], re.sub(r"[^\n]", " ", text[start:end])]
        last = end
    return "".join(pieces) + text[last:]


def _built_paths(
    rule: Rule, folder: Path, base: str, shown: str, body: Text, built: list[Climb]
) -> list[Finding]:
    """Paths a script builds from pieces or from its own location that climb out of the folder
    (orkestra.intake.climb). Relative to the script's folder, as a `../` the script names; from
    the working directory, taken as the skill's top folder; from a shell variable the review
    cannot see, taken as the script's folder and held for review rather than rejected."""
    found = []
    for climb in built:
        inside = _inside("", climb.path) if climb.start == "cwd" else _inside(base, climb.path)
        if inside or _sibling_skill(folder, base if climb.start != "cwd" else "", climb.path):
            continue
        number = body.line_no(climb.offset)
        severity = rule.downgrade_to if climb.start == "var" else rule.severity
        why = f"built as {climb.spelled[:80]!r}"
        if climb.start == "var":
            why += "; from a shell variable the review cannot see: held for review"
        found.append(
            Finding(
                shown,
                number,
                rule.id,
                severity,
                excerpt(body.line(number)),
                f"{rule.message}: {climb.path}",
                rule.category,
                why,
            )
        )
    return found


def _leaves(folder: Path, base: str, target: str) -> bool:
    """Does a `../` path a script names leave the folder (not a template, not a sibling skill)?"""
    path = target.split("#", 1)[0].split("?", 1)[0]
    if not path or _TEMPLATE.search(path) or _inside(base, path) or _inside("", path):
        return False
    return not _sibling_skill(folder, base, path)


def _outside_paths(
    rules: RuleSet,
    rel: str,
    shown: str,
    kind: FileKind,
    text: str,
    folder: Path,
    lang: str | None = None,
) -> list[Finding]:
    """Markdown links (docs) and `../` paths (scripts) that resolve outside the folder.

    Template syntax (`{{ x }}`, `${x}`) is not a link, and a link to a sibling skill of the same
    collection (`../other-skill/SKILL.md`) stays inside what is being reviewed.
    """
    rule = rules.builtin("link-outside")
    base = posixpath.dirname(rel)
    body = Text(text)
    found: list[Finding] = []
    if kind == "doc":
        targets = [(m.start(), m.group(1) or m.group(2)) for m in _LINK.finditer(text)]
        # site-absolute links (`/docs/x`) are common in vendor READMEs; `..` and `~` are what leave
        targets = [(p, t) for p, t in targets if not re.match(r"^(?:[a-z][\w+.-]*:|#|/)", t)]
    else:
        lang = lang or language(rel, text)
        targets = [(m.start(), m.group(0)) for m in _PARENT_PATH.finditer(text)]
        targets = [(p, t) for p, t in targets if _leaves(folder, base, t)]
        built = _built_paths(rule, folder, base, shown, body, climbs(text, lang))
        # a comment or docstring is read only where something leaves (tokenizing costs)
        inert = _inert_python(text, body) if lang == "python" and (targets or built) else []
        if inert:
            targets = [(p, t) for p, t in targets if not any(a <= p < b for a, b in inert)]
            built = _built_paths(
                rule, folder, base, shown, body, climbs(_blanked(text, inert), lang)
            )
        found += built
    for pos, target in targets:
        path = target.split("#", 1)[0].split("?", 1)[0]
        number = body.line_no(pos)
        if _TEMPLATE.search(path) or (kind == "doc" and _TEMPLATE.search(body.line(number))):
            continue
        if path and not _inside(base, path) and not _inside("", path):
            if _sibling_skill(folder, base, path):
                continue
            found.append(
                Finding(
                    shown,
                    number,
                    rule.id,
                    rule.severity,
                    excerpt(body.line(number)),
                    f"{rule.message}: {target}",
                    rule.category,
                )
            )
    return found
