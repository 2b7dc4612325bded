"""PageRank centrality of symbols and files: a short power iteration, no graph library."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping

DAMPING = 0.85
ROUNDS = 20
#: after a small change the stored values are nearly right: a few rounds from them suffice
WARM_ROUNDS = 4


def pagerank(
    nodes: Iterable[Hashable],
    edges: Iterable[tuple[Hashable, Hashable]],
    *,
    start: Mapping[Hashable, float] | None = None,
    rounds: int = ROUNDS,
) -> dict[Hashable, float]:
    """PageRank of every node, scaled so the most central is 1 (the fusion's boost then stays
    within 1..1.21); `start` (same scale) warm-starts it."""
    order = list(dict.fromkeys(nodes))
    n = len(order)
    if n == 0:
        return {}
    index = {v: i for i, v in enumerate(order)}
    counts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for src, dst in edges:
        if src != dst and src in index and dst in index:
            counts[index[src]][index[dst]] += 1
    links = [(s, [(d, c / sum(t.values())) for d, c in t.items()]) for s, t in counts.items()]
    dangling = [i for i in range(n) if i not in counts]
    rank = [1.0 / n] * n
    if start:
        rank = [max(start.get(v, 0.0), 1e-9) for v in order]
        total = sum(rank)
        rank = [r / total for r in rank]
    for _ in range(rounds):
        lost = sum(rank[i] for i in dangling)
        new = [(1.0 - DAMPING) / n + DAMPING * lost / n] * n
        for src, targets in links:
            share = DAMPING * rank[src]
            for dst, weight in targets:
                new[dst] += share * weight
        rank = new
    top = max(rank)
    return {v: rank[i] / top for i, v in enumerate(order)}


def update(conn: sqlite3.Connection, *, warm: bool = False) -> None:
    """Recompute the centrality of every symbol and file from resolved references and imports
    (`warm`: a few rounds starting from the stored values)."""
    symbols: dict[tuple[int, str], int] = {}
    stored: dict[Hashable, float] = {}
    for sid, fid, qual, value in conn.execute(
        "SELECT id, file_id, qualname, centrality FROM symbols"
    ):
        symbols[(fid, qual)] = sid
        stored[sid] = value
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
    files = dict(conn.execute("SELECT id, centrality FROM files").fetchall())
    rounds = WARM_ROUNDS if warm else ROUNDS
    sym_rank = pagerank(
        [*symbols.values(), *sorted(pseudo)], sym_edges, start=stored if warm else None,
        rounds=rounds,
    )  # fmt: skip
    file_rank = pagerank(files, file_edges, start=files if warm else None, rounds=rounds)
    conn.executemany(  # only what moved: after a small change that is a few rows
        "UPDATE symbols SET centrality = ? WHERE id = ?",
        _moved(stored, sym_rank, symbols.values()),
    )
    conn.executemany(
        "UPDATE files SET centrality = ? WHERE id = ?", _moved(files, file_rank, files)
    )


def _moved(
    old: Mapping[Hashable, float], new: Mapping[Hashable, float], keys: Iterable[Hashable]
) -> list[tuple[float, Hashable]]:
    rows = []
    for key in keys:
        value = round(new.get(key, 0.0), 4)
        if abs(value - old.get(key, 0.0)) >= 1e-4:
            rows.append((value, key))
    return rows
