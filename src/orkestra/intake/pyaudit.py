"""Python scripts audited by their syntax tree: what they call, not how the call is spelled.

`getattr(builtins, 'ex' + 'ec')(codecs.decode(s, 'rot13'))` reads as exec of a decoded blob here,
whatever the spelling: string constants are folded (`+`, `''.join`, f-strings of constants, slicing),
names assigned from a decode call are followed through the module, paths are folded through
`os.path.join`, `Path(...) / ...` and `expanduser`. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from orkestra.intake.pyfold import call_name, fold, outside, path_of

DANGEROUS_NAMES = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "__import__",
        "system",
        "popen",
        "spawn",
        "execv",
        "execve",
        "execl",
        "execlp",
        "execvp",
        "run",
        "call",
        "Popen",
        "check_output",
        "check_call",
        "import_module",
        "getattr",
        "setattr",
        "globals",
        "locals",
        "vars",
        "open",
        "loads",
        "load",
    }
)
MODULES = frozenset(
    {
        "builtins",
        "__builtins__",
        "os",
        "sys",
        "subprocess",
        "importlib",
        "socket",
        "shutil",
        "pty",
        "ctypes",
        "marshal",
        "pickle",
        "codecs",
        "base64",
    }
)
DECODERS = frozenset(
    {
        "b64decode",
        "b32decode",
        "b16decode",
        "a85decode",
        "b85decode",
        "decodebytes",
        "standard_b64decode",
        "urlsafe_b64decode",
        "unhexlify",
        "a2b_base64",
        "a2b_hex",
        "fromhex",
        "decompress",
        "loads",
    }
)
EXECUTORS = frozenset({"exec", "eval", "compile", "execfile", "run_code"})
#: unpickling runs code chosen by whoever wrote the bytes (and an unmarshalled code object is
#: code: `types.FunctionType(marshal.loads(…), globals())()`)
UNPICKLERS = frozenset(
    {
        "pickle.loads",
        "pickle.load",
        "_pickle.loads",
        "dill.loads",
        "cloudpickle.loads",
        "marshal.loads",
        "marshal.load",
    }
)
#: calls whose result is what a server sent (a response, its body, a downloaded file's name)
FETCHERS = ("urlopen", "urlretrieve", "requests.", "httpx.", "urllib3.", "aiohttp.")
#: calls that run a file: a downloaded one named here is a download run
RUNNERS = frozenset(
    {"run_path", "run_module", "exec", "execfile", "system", "popen", "run", "call",
     "Popen", "check_call", "check_output", "execv", "execl", "execvp", "spawnv", "spawnl"}
)  # fmt: skip
WRITE_MODES = ("w", "a", "x", "+")


@dataclass(frozen=True)
class Hit:
    """One structural finding: rule id, line, what was seen."""

    rule: str
    line: int
    detail: str


def _spelling(node: ast.AST) -> str:
    """ "" for a plain constant, "pieces" when constants are glued together, else "runtime"."""
    if isinstance(node, ast.Constant):
        return ""
    return "pieces" if fold(node) is not None else "runtime"


def _lookup_hit(node: ast.AST, line: int, what: str) -> Hit | None:
    """A name spelled in pieces is hiding (high); one computed at run time is dynamic (medium)."""
    spelled = _spelling(node)
    if spelled == "pieces":
        return Hit("hidden-call", line, f"{what} spelled in pieces ({fold(node)!r})")
    if spelled == "runtime":
        return Hit("dynamic-code", line, f"{what} computed at run time")
    return None


class _Audit:
    def __init__(self) -> None:
        self.hits: list[Hit] = []
        self.decoded: set[str] = set()  # names bound to a decode call's result
        self.hidden: set[str] = set()  # names bound to a computed attribute lookup
        self.fetched: set[str] = set()  # names bound to what a network call returned
        self.downloads: set[str] = set()  # files `urlretrieve` writes (folded paths)
        self.aliases: dict[str, str] = {}  # `import requests as q`: q -> requests

    def imported(self, node: ast.Import | ast.ImportFrom) -> None:
        """Names an import binds to another module or function (`from requests import get`)."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
        elif node.module:
            for alias in node.names:
                self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _resolved(self, name: str) -> str:
        head, dot, rest = name.partition(".")
        return f"{self.aliases[head]}{dot}{rest}" if head in self.aliases else name

    def bind(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                if self._decodes(node.value):
                    self.decoded.add(target.id)
                if self._hidden_lookup(node.value):
                    self.hidden.add(target.id)
                if self._fetches(node.value):
                    self.fetched.add(target.id)

    def call(self, node: ast.Call) -> None:
        name = call_name(node.func)
        short = name.rsplit(".", 1)[-1]
        if self._hidden_lookup(node.func) or (
            isinstance(node.func, ast.Name) and node.func.id in self.hidden
        ):
            self.hits.append(
                Hit("hidden-call", node.lineno, "calls a function looked up by a computed name")
            )
            if any(self._decodes(a) for a in node.args):
                self.hits.append(
                    Hit("decode-and-execute", node.lineno, "a hidden call runs decoded data")
                )
        if name == "getattr" and len(node.args) >= 2:
            self._getattr(node)
        if short in EXECUTORS or name in ("__import__", "importlib.import_module", "import_module"):
            self._executor(node, name)
        elif name in UNPICKLERS and node.args and self._fetches(node.args[0]):
            self.hits.append(Hit("download-then-run", node.lineno, f"{name}() of downloaded data"))
        elif name in UNPICKLERS and node.args and self._decodes(node.args[0]):
            self.hits.append(Hit("decode-and-execute", node.lineno, f"{name}() of decoded data"))
        if self.downloads and short in RUNNERS and self._runs_download(node):
            self.hits.append(Hit("download-then-run", node.lineno, f"{name}() runs a download"))
        if name in ("os.dup2", "dup2") and node.args and "fileno" in ast.dump(node.args[0]):
            why = "wires a socket to the standard streams (a remote shell)"
            self.hits.append(Hit("raw-socket", node.lineno, why))
        if short in ("open", "write_text", "write_bytes") or name in (
            "shutil.copy",
            "shutil.copyfile",
            "shutil.move",
            "os.replace",
            "os.rename",
        ):
            self._write(node, name, short)

    def subscript(self, node: ast.Subscript) -> None:
        base = (
            call_name(node.value.func)
            if isinstance(node.value, ast.Call)
            else call_name(node.value)
        )
        if base in (
            "globals",
            "vars",
            "locals",
            "__builtins__",
            "builtins.__dict__",
            "__builtins__.__dict__",
        ):
            hit = _lookup_hit(node.slice, node.lineno, f"{base}()[key]")
            if hit:
                self.hits.append(hit)

    def _getattr(self, node: ast.Call) -> None:
        target = call_name(node.args[0]) if not isinstance(node.args[0], ast.Call) else ""
        attr = fold(node.args[1])
        module = target.split(".")[0] in MODULES
        if attr is None and module:
            self.hits.append(Hit("hidden-call", node.lineno, f"getattr({target}, <computed name>)"))
        elif (
            attr is not None
            and attr in DANGEROUS_NAMES
            and module
            and not isinstance(node.args[1], ast.Constant)
        ):
            self.hits.append(
                Hit("hidden-call", node.lineno, f"getattr({target}, {attr!r}) spelled in pieces")
            )

    def _executor(self, node: ast.Call, name: str) -> None:
        arg = node.args[0] if node.args else None
        if arg is None or (isinstance(arg, ast.Constant) and name != "__import__"):
            return
        if name not in ("__import__", "importlib.import_module", "import_module") and (
            self._fetches(arg)
        ):
            self.hits.append(Hit("download-then-run", node.lineno, f"{name}() of downloaded data"))
        elif self._decodes(arg) or any(
            isinstance(n, ast.Name) and n.id in self.decoded for n in ast.walk(arg)
        ):
            self.hits.append(Hit("decode-and-execute", node.lineno, f"{name}() of decoded data"))
        elif name in ("__import__", "importlib.import_module", "import_module"):
            hit = _lookup_hit(arg, node.lineno, f"the module name of {name}()")
            if hit:
                self.hits.append(hit)
        elif name not in ("__import__", "importlib.import_module", "import_module"):
            self.hits.append(Hit("dynamic-code", node.lineno, f"{name}() of a computed value"))

    def _write(self, node: ast.Call, name: str, short: str) -> None:
        if short == "open":
            mode = fold(node.args[1]) if len(node.args) > 1 else None
            for kw in node.keywords:
                if kw.arg == "mode":
                    mode = fold(kw.value)
            if not mode or not any(m in mode for m in WRITE_MODES):
                return
            target = node.args[0] if node.args else None
            if isinstance(node.func, ast.Attribute) and not node.args[:1]:
                target = node.func.value
            elif isinstance(node.func, ast.Attribute) and name != "open":
                target = node.func.value  # Path(...).open("w")
        elif short in ("write_text", "write_bytes"):
            target = node.func.value if isinstance(node.func, ast.Attribute) else None
        else:
            target = node.args[1] if len(node.args) > 1 else None
        path = path_of(target)
        if path is not None and outside(path):
            self.hits.append(Hit("write-outside", node.lineno, f"writes {path}"))

    def _decodes(self, node: ast.AST) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                short = call_name(sub.func).rsplit(".", 1)[-1]
                if short in DECODERS:
                    return True
                if (
                    short == "decode"
                    and len(sub.args) >= 2
                    and (fold(sub.args[1]) or "").lower()
                    in ("rot13", "rot_13", "base64", "hex", "zlib", "bz2")
                ):
                    return True
            if isinstance(sub, ast.Name) and sub.id in self.decoded:
                return True
        return False

    def download(self, node: ast.Call) -> None:
        """Remember where `urlretrieve(url, path)` saves its file."""
        if call_name(node.func).rsplit(".", 1)[-1] == "urlretrieve" and len(node.args) >= 2:
            dest = path_of(node.args[1])
            if dest:
                self.downloads.add(dest)

    def _runs_download(self, node: ast.Call) -> bool:
        """Does a constant among the call's arguments name a downloaded file?"""
        for sub in ast.walk(node):
            if sub is not node and isinstance(sub, ast.expr) and path_of(sub) in self.downloads:
                return True
        return False

    def _fetches(self, node: ast.AST) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                name = self._resolved(call_name(sub.func))
                if name.rsplit(".", 1)[-1] in FETCHERS[:2] or name.startswith(FETCHERS[2:]):
                    return True
            if isinstance(sub, ast.Name) and sub.id in self.fetched:
                return True
        return False

    def _hidden_lookup(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Call) and call_name(node.func) == "getattr" and len(node.args) >= 2:
            target = call_name(node.args[0]) if not isinstance(node.args[0], ast.Call) else ""
            attr = fold(node.args[1])
            in_module = target.split(".")[0] in MODULES
            return in_module and (attr is None or not isinstance(node.args[1], ast.Constant))
        return False


_DECODE_HINTS = (
    "decode",
    "fromhex",
    "unhexlify",
    "a2b_",
    "decompress",
    "loads",
    "requests",
    "httpx",
)
#: what any hit needs in the source: a dynamic call, or a path constant that can leave the folder
_HINTS = re.compile(
    r"\b(?:exec|eval|compile|__import__|getattr|import_module|globals|vars|locals|builtins)\b|"
    r"\b(?:pickle|dill|marshal)\.loads?\b|\bdup2\b|\burlretrieve\b|"
    r"__builtins__|['\"](?:/|~|\.\.(?:/|['\"])|\$HOME)|home\(\)|expanduser"
)


def audit_python(text: str) -> list[Hit] | None:
    """Structural hits for a Python source, or None when it does not parse.

    A source with none of the hints above cannot produce a hit and is not parsed (the review's
    time goes to the files that need it).
    """
    if _HINTS.search(text) is None:
        return []
    try:
        tree = ast.parse(text)
        return _audit(tree, text)
    except (SyntaxError, ValueError):  # not Python 3 (or NUL bytes): the caller reports it
        return None
    except (RecursionError, MemoryError):  # nesting built to exhaust the auditor: a finding
        return [Hit("hidden-call", 1, "nested too deeply to audit (a way to hide a call)")]


def _audit(tree: ast.AST, text: str) -> list[Hit]:
    audit = _Audit()
    nodes = list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            audit.imported(node)
    # names bound to decoded data (or to a hidden lookup) anywhere in the module count for every
    # call; looked for only when the source can decode or look names up at all
    if (
        any(h in text for h in _DECODE_HINTS)
        or "getattr" in text
        or "urlopen" in text
        or audit.aliases
    ):
        for node in nodes:
            if isinstance(node, ast.Assign):
                audit.bind(node)
    if "urlretrieve" in text:
        for node in nodes:
            if isinstance(node, ast.Call):
                audit.download(node)
    for node in nodes:
        if isinstance(node, ast.Call):
            audit.call(node)
        elif isinstance(node, ast.Subscript):
            audit.subscript(node)
    seen: set[tuple[str, int]] = set()
    out = []
    for hit in audit.hits:
        if (hit.rule, hit.line) not in seen:
            seen.add((hit.rule, hit.line))
            out.append(hit)
    return out
