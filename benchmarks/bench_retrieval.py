"""Retrieval benchmark for `code search` (PRODUCT.md §10, §12) on a real git history.

Queries are commit subjects of this repository; the relevant answers are the code files each
commit changed (commits touching 1-5 code files, merges excluded, files that still exist). The
code map of the current tree answers each query; printed: Recall@10 and MRR for the fused search,
for each retriever alone (text, structural, graph) and for a plain BM25 baseline over file
contents (the same files the text search sees). The commits are split by age: the older half is
the dev set (tune on it), the newer half the test set (report it, never tune on it); both printed.

Run: python benchmarks/bench_retrieval.py [--repo PATH] [--limit N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
from collections.abc import Callable
from pathlib import Path

from orkestra.codemap import api, languages, store
from orkestra.codemap import search as code_search
from orkestra.retrieval import fusion
from orkestra.retrieval.bm25 import BM25

REPO = Path(__file__).resolve().parent.parent
K = 10


def history(repo: Path, existing: set[str]) -> list[tuple[str, set[str]]]:
    """(subject, changed code files that still exist) for commits touching 1-5 code files."""
    out = subprocess.run(
        ["git", "log", "--no-merges", "--format=%x00%s", "--name-only"],
        cwd=repo, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    cases = []
    for block in out.split("\0")[1:]:
        subject, *files = block.strip("\n").split("\n")
        code = {f for f in files if f and languages.language_of(f)}
        if 1 <= len(code) <= 5 and code & existing:
            cases.append((subject, code & existing))
    return cases


def score(ranked: list[str], relevant: set[str]) -> tuple[float, float]:
    """(recall@K, reciprocal rank) of one ranked list of paths."""
    top = ranked[:K]
    recall = len(set(top) & relevant) / len(relevant)
    rank = next((i for i, path in enumerate(ranked) if path in relevant), None)
    return recall, (1.0 / (rank + 1) if rank is not None else 0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--limit", type=int, default=0, help="at most this many commits (0: all)")
    args = parser.parse_args()
    root = args.repo.resolve()
    api.index(root)
    conn = store.connect(root, create=False)
    paths = {r[0]: r[1] for r in conn.execute("SELECT path, id FROM files")}
    code_paths = {p for p in paths if languages.language_of(p)}
    cases = history(root, code_paths)
    if args.limit:
        cases = cases[: args.limit]
    bodies = conn.execute(
        "SELECT f.path, t.body FROM files f JOIN text t ON t.rowid = f.id"
    ).fetchall()
    bm25 = BM25(bodies)
    singles = code_search.retrievers(conn)

    def alone(name: str) -> Callable[[str], list[str]]:
        def run(query: str) -> list[str]:
            wanted = code_search.intents.subject(query) or query
            return [h.path for h in fusion.direct(singles[name].search(wanted, 50), limit=K)]

        return run

    systems: dict[str, Callable[[str], list[str]]] = {
        "fused (code search)": lambda q: [
            r["path"] for r in code_search.code_search(conn, q, limit=K)["results"]
        ],
        "text (FTS5 trigram)": alone("text"),
        "structural (symbols)": alone("structural"),
        "graph (references)": alone("graph"),
        "BM25 baseline": lambda q: [h.key for h in bm25.search(q, K)],
    }
    half = len(cases) // 2  # git log is newest first: the newer half is the test set
    sets = {"dev": cases[half:], "test": cases[:half], "all": cases}
    print(f"repository: {root}  queries: {len(cases)} commits (1-5 code files, no merges)")
    print(f"dev = older {len(sets['dev'])}, test = newer {len(sets['test'])}")
    header = "".join(f" {name + ' R@10':>10} {name + ' MRR':>9}" for name in sets)
    print(f"{'system':<24}{header}")
    for name, system in systems.items():
        ranked = {subject: system(subject) for subject, _ in cases}
        row = ""
        for part in sets.values():
            results = [score(ranked[subject], relevant) for subject, relevant in part]
            recall = statistics.mean(r for r, _ in results) if results else 0.0
            mrr = statistics.mean(m for _, m in results) if results else 0.0
            row += f" {recall:>10.3f} {mrr:>9.3f}"
        print(f"{name:<24}{row}")
    conn.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
