"""Unified weighted search across every registry (PRODUCT.md §7; docs/search.md).

Flow: `layout` finds the source files -> `extract` turns each file into `document.Document`s with
the `weights` of §7 -> `index` keeps them in `.orkestra/search.sqlite3` (`store` tables,
`freshness` checks, `sqlcorpus` queries) -> `rank` scores candidates with the formula of `scoring`
-> `service` is what the CLI calls.
`corpus.MemoryCorpus` answers the same queries without the index (identical results).
"""
