"""The quality gate's measurement: hand-written expectations in the fixtures vs the code map.

Each fixture line may carry markers in a comment: `@def KIND QUALNAME` for a definition whose name
is on that line, `@ref NAME>QUALNAME[@FILE]` for a reference on that line that must resolve to
that definition (FILE, the end of its path, when the qualified name is not unique).
Precision and recall are computed over definitions and reference edges together.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from orkestra.codemap import gate, indexer, store

FIXTURES = Path(__file__).parent / "fixtures"
DEF = re.compile(r"@def\s+(\w+)\s+([\w.$:\\]+(?<=operator)[-+*/%^&|~!=<>()\[\]]*|[\w.$:\\]+)")
REF = re.compile(r"@ref\s+([\w$]+)>([\w.$:\\]+)(?:@([\w./-]+))?")

Item = tuple[str, ...]


def expected(root: Path) -> tuple[set[Item], set[Item]]:
    """(definitions, edges) written in the fixture's comments."""
    defs: set[Item] = set()
    refs: list[tuple[str, int, str, str, str | None]] = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for kind, qual in DEF.findall(line):
                defs.add(("def", rel, str(number), kind, qual))
            for name, qual, where in REF.findall(line):
                refs.append((rel, number, name, qual, where or None))
    edges: set[Item] = set()
    for rel, number, name, qual, where in refs:
        named = [
            d for d in defs if d[4] == qual and (where is None or f"/{d[1]}".endswith(f"/{where}"))
        ]
        # a prototype's references belong to its implementation, where there is one
        homes = {d[1] for d in named if d[3] != "prototype"} or {d[1] for d in named}
        assert len(homes) == 1, f"{rel}:{number}: {qual} is defined in {sorted(homes)}; fix @FILE"
        edges.add(("ref", rel, str(number), name, homes.pop(), qual))
    return defs, edges


def extracted(conn: sqlite3.Connection) -> tuple[set[Item], set[Item]]:
    """(definitions, resolved edges) in the code map."""
    defs = {
        ("def", path, str(line), kind, qual)
        for path, line, kind, qual in conn.execute(
            "SELECT f.path, s.line, s.kind, s.qualname FROM symbols s JOIN files f ON f.id = s.file_id"
        )
    }
    edges = {
        ("ref", path, str(line), name, tpath, qual)
        for path, line, name, tpath, qual in conn.execute(
            "SELECT f.path, r.line, r.name, t.path, s.qualname FROM refs r "
            "JOIN files f ON f.id = r.file_id JOIN symbols s ON s.id = r.target "
            "JOIN files t ON t.id = s.file_id"
        )
    }
    return defs, edges


def measure(language: str, work: Path) -> dict[str, Any]:
    """Index a copy of the language's fixture and score it against its expectations."""
    root = work / language
    shutil.copytree(FIXTURES / language, root)
    want_defs, want_edges = expected(root)
    indexer.index(root)
    conn = store.connect(root, create=False)
    try:
        got_defs, got_edges = extracted(conn)
    finally:
        conn.close()
    want, got = want_defs | want_edges, got_defs | got_edges
    hit = len(want & got)
    precision = hit / len(got) if got else 0.0
    recall = hit / len(want) if want else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "definitions": len(want_defs),
        "edges": len(want_edges),
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "status": gate.verdict(precision, recall, f1),
        "missing": sorted(want - got),
        "unexpected": sorted(got - want),
    }


def table(results: dict[str, dict[str, Any]]) -> str:
    """The printed gate table."""
    lines = [f"{'language':<11} {'defs':>5} {'edges':>5} {'P':>7} {'R':>7} {'F1':>7}  status"]
    for name, r in results.items():
        lines.append(
            f"{name:<11} {r['definitions']:>5} {r['edges']:>5} {r['precision']:>7.4f} "
            f"{r['recall']:>7.4f} {r['f1']:>7.4f}  {r['status']}"
        )
    return "\n".join(lines)
