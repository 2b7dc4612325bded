"""Constant folding for the Python audit: what a name or path is, however it is spelled.

`'ex' + 'ec'`, `''.join(['e', 'x', 'e', 'c'])`, `f'{"ex"}ec'` and `'cexe'[::-1]` all fold to
`exec`; `Path.home() / '.ssh'`, `os.path.join(os.path.expanduser('~'), '.ssh')` fold to `~/.ssh`.
"""

from __future__ import annotations

import ast


def fold(node: ast.AST | None) -> str | None:
    """The constant string an expression always evaluates to, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = fold(node.left), fold(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [
            fold(v.value) if isinstance(v, ast.FormattedValue) else fold(v) for v in node.values
        ]
        return "".join(parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _fold_call(node)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        base = fold(node.value)
        step = node.slice.step
        if base is not None and isinstance(step, ast.UnaryOp) and isinstance(step.op, ast.USub):
            return base[::-1] if node.slice.lower is None and node.slice.upper is None else None
    return None


def _fold_call(node: ast.Call) -> str | None:
    func = node.func
    assert isinstance(func, ast.Attribute)
    if func.attr == "join" and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
        sep = fold(func.value)
        items = [fold(e) for e in node.args[0].elts]
        if sep is not None and all(i is not None for i in items):
            return sep.join(i for i in items if i is not None)
    if func.attr in ("lower", "upper", "strip") and not node.args:
        base = fold(func.value)
        return getattr(base, func.attr)() if base is not None else None
    return None


def path_of(node: ast.AST | None) -> str | None:
    """A file path folded through expanduser, os.path.join, Path(...), `/` and Path.home()."""
    text = fold(node)
    if text is not None:
        return text
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = path_of(node.left), path_of(node.right)
        return f"{left}/{right}" if left is not None and right is not None else None
    if isinstance(node, ast.Call):
        name = call_name(node.func)
        if name in ("home", "Path.home", "expanduser") and not node.args:
            return "~"
        if name in ("join", "os.path.join", "joinpath"):
            parts = [path_of(a) for a in node.args]
            if isinstance(node.func, ast.Attribute) and name == "joinpath":
                parts.insert(0, path_of(node.func.value))
            return "/".join(p for p in parts if p) if all(parts) else None
        if name in (
            "expanduser",
            "os.path.expanduser",
            "Path",
            "pathlib.Path",
            "PurePath",
            "str",
            "os.path.expandvars",
            "abspath",
            "os.path.abspath",
        ):
            return path_of(node.args[0]) if node.args else None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "expanduser":
            return path_of(node.func.value)
    return None


def call_name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        inner = call_name(func.value)
        return f"{inner}.{func.attr}" if inner else func.attr
    return ""


def outside(path: str) -> bool:
    """Does a constant path leave the skill folder (absolute, home, or up through `..`)?"""
    clean = path.replace("\\", "/")
    return clean.startswith(("/", "~", "$HOME")) or "../" in clean or clean == ".."
