"""The MCP server (PRODUCT.md §11): the registries, the knowledge and the code map as cited context.

Layout: `workspace` keeps the project warm (registry, search index) and refreshes it between calls
(`watch` says whether anything may have changed, `identity` what did); `tools`, `context`,
`checks` and `resources` answer with plain JSON values built by the CLI's own core functions;
`server` registers them and, with `stdio` (the SDK's stdio transport, answering a malformed line
with a JSON-RPC error), is the only module that imports the `mcp` SDK; `run` serves stdio or
HTTP. Each client's MCP config entry is rendered by `render.targets.mcp_config` for `sync`.
"""
