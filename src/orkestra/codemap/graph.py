"""PageRank centrality of symbols and files: a short power iteration, no graph library."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Hashable, Iterable

DAMPING = 0.85
ROUNDS = 20


def pagerank(
    nodes: Iterable[Hashable], edges: Iterable[tuple[Hashable, Hashable]]
) -> dict[Hashable, float]:
    """PageRank of every node, scaled so the mean is 1 (a node nobody points at stays low)."""
    order = list(dict.fromkeys(nodes))
    n = len(order)
    if n == 0:
        return {}
    out: dict[Hashable, dict[Hashable, int]] = defaultdict(lambda: defaultdict(int))
    for src, dst in edges:
        if src != dst:
            out[src][dst] += 1
    rank = dict.fromkeys(order, 1.0 / n)
    for _ in range(ROUNDS):
        dangling = sum(rank[v] for v in order if v not in out)
        base = (1.0 - DAMPING) / n + DAMPING * dangling / n
        new = dict.fromkeys(order, base)
        for src, targets in out.items():
            total = sum(targets.values())
            share = DAMPING * rank.get(src, 0.0) / total
            for dst, count in targets.items():
                if dst in new:
                    new[dst] += share * count
        rank = new
    return {v: r * n for v, r in rank.items()}


def update(conn: sqlite3.Connection) -> None:
    """Recompute the centrality of every symbol and file from resolved references and imports."""
    symbols = {
        (fid, qual): sid
        for sid, fid, qual in conn.execute("SELECT id, file_id, qualname FROM symbols")
    }
    sym_edges: list[tuple[Hashable, Hashable]] = []
    file_edges: list[tuple[Hashable, Hashable]] = []
    rows = conn.execute(
        "SELECT r.file_id, r.scope, r.target, s.file_id FROM refs r "
        "JOIN symbols s ON s.id = r.target"
    )
    for fid, scope, target, tfile in rows:
        sym_edges.append((symbols.get((fid, scope), ("file", fid)), target))
        file_edges.append((fid, tfile))
    file_edges.extend(conn.execute("SELECT file_id, target_file FROM import_targets"))
    pseudo = {src for src, _dst in sym_edges if isinstance(src, tuple)}
    sym_rank = pagerank([*symbols.values(), *sorted(pseudo)], sym_edges)
    file_ids = [r[0] for r in conn.execute("SELECT id FROM files")]
    file_rank = pagerank(file_ids, file_edges)
    conn.executemany(
        "UPDATE symbols SET centrality = ? WHERE id = ?",
        [(round(sym_rank.get(sid, 0.0), 6), sid) for sid in symbols.values()],
    )
    conn.executemany(
        "UPDATE files SET centrality = ? WHERE id = ?",
        [(round(file_rank.get(fid, 0.0), 6), fid) for fid in file_ids],
    )
