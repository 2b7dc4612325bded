"""Relevance of registry search on the fixture marketplace (issue 18): recall@5 and MRR.

Writes `tests/search/relevance/marketplace.yaml` (212 agents, 30 skills) into a temporary project
and runs the keyword and task-shaped query sets of `queries.yaml` (dev, old-held and held-2 seen
while tuning or after a look at their misses, `held` blind) through `orkestra.search.service.search`:
the fused ranking, then each retriever alone. The figures of the search before the retrieval core
(commit 525a1d4) and of the core before the concept table grew (19d69ae) are printed beside them.

Run: python benchmarks/bench_relevance.py [--misses]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: (set, split) -> (recall@5, MRR, empty answers) of the search before the retrieval core
BEFORE = {
    ("keyword", "dev"): (0.90, 0.88, 2),
    ("keyword", "held"): (0.95, 0.95, 1),
    ("task", "dev"): (0.05, 0.05, 19),
    ("task", "old-held"): (0.05, 0.05, 19),
}
#: (set, split) -> (recall@5, MRR) of the fused search at 19d69ae (the retrieval core before the
#: concept table grew; held-2's misses there were seen once, held was written after it)
START = {
    ("keyword", "dev"): (1.00, 0.97),
    ("keyword", "held"): (1.00, 1.00),
    ("task", "dev"): (0.95, 0.91),
    ("task", "old-held"): (0.80, 0.79),
    ("task", "held-2"): (0.64, 0.48),
    ("task", "held"): (0.93, 0.79),
}
RETRIEVERS = ("fields", "bm25", "names", "synonyms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the fused misses")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.search.relevance import evaluate

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "market"
        entries = evaluate.write_marketplace(root)
        print(f"fixture marketplace: {entries} entries")
        head = (
            f"{'set':8} {'split':8} {'n':>3}  {'before R@5/MRR':>15}  {'19d69ae':>15}"
            f"  {'fused R@5/MRR':>14}"
        )
        print(head + "".join(f"  {name + ' alone':>15}" for name in RETRIEVERS))
        for name, splits in evaluate.query_sets().items():
            for split, rows in splits.items():
                fused = evaluate.measure(root, rows)
                recall, mrr, _ = BEFORE.get((name, split), (float("nan"),) * 3)
                line = (
                    f"{name:8} {split:8} {len(rows):>3}  {recall:>7.2f}/{mrr:<7.2f}"
                    f"  {START[(name, split)][0]:>7.2f}/{START[(name, split)][1]:<7.2f}"
                    f"  {fused.recall:>6.2f}/{fused.mrr:<7.2f}"
                )
                for retriever in RETRIEVERS:
                    alone = evaluate.measure(root, rows, retrievers=(retriever,))
                    line += f"  {alone.recall:>7.2f}/{alone.mrr:<7.2f}"
                print(line)
                if args.misses:
                    for query, top in fused.misses:
                        print(f"    miss {query!r}: {top}")
    print("targets (blind held-out task-shaped, `held`): recall@5 >= 0.90, MRR >= 0.75;"
          " keyword: no regression")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
