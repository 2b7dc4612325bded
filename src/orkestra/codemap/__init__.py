"""The code map (PRODUCT.md §12): symbols, references, imports and centrality in `.orkestra/code.sqlite`.

Parsing needs the optional `code` extra (tree-sitter and grammar wheels), imported lazily by
`extract`; reading an existing map needs only the standard library.
"""
