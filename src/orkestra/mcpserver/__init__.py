"""The MCP server (PRODUCT.md §11): the registries, the knowledge and the code map as cited context.

Layout: `workspace` keeps the project warm (registry, search index, knowledge) and refreshes it by
file identity between calls; `tools`, `context` and `resources` answer the calls with plain JSON
values; `server` is the only module that imports the `mcp` SDK and registers them; `configs`
renders each client's MCP config entry for `sync`.
"""
