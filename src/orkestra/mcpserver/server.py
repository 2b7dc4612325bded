"""The MCP server object: tools and resources over one warm `Workspace` (`mcp` is imported here and
by `stdio`, its transport's replies to malformed lines).

Every call first refreshes the workspace by file identity, then answers with the same core
functions the CLI uses. Tool functions are `async` and run their (synchronous) work on the event
loop's thread: the calls are serialised, and the search index's SQLite connection stays in the
thread that opened it. An `OrkestraError` (a bad argument, an unknown id, a broken file) becomes an
MCP error with its message and `file:line`; nothing a tool does writes to the repository (only
derived caches under `.orkestra/`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Annotated, Any, TypeVar

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, ToolAnnotations
from pydantic import Field

from orkestra import __version__
from orkestra.core import project
from orkestra.core.errors import NotFound, OrkestraError, UsageError, os_refusal
from orkestra.mcpserver import checks, context, resources, tools
from orkestra.mcpserver.workspace import Workspace

T = TypeVar("T")
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
#: the code-map tools of PRODUCT.md §12, registered when `orkestra.codemap.api` is importable
CODEMAP_TOOLS = (
    "find_symbol",
    "find_references",
    "analyze_dependencies",
    "code_search",
    "get_file",
)
INSTRUCTIONS = (
    "Orkestra: the project's agents, skills, ground truths, decisions and knowledge notes. "
    "Start with search (short hits with path:line), then get(kind, id) for the detail; before "
    "editing files call context_for(paths) for the decisions, truths and notes that concern them."
)

#: the longest id, name, path or query a tool takes (a path longer than PATH_MAX names nothing;
#: answers echo their arguments, so an unbounded one is an unbounded answer)
MAX_TEXT = 4096
#: the most names, ids or paths one call takes
MAX_ITEMS = 1000
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Kinds = Annotated[
    list[str] | None,
    Field(
        description="Only these types: agents, skills, scopes, decisions, truths, notes, ...; "
        "code adds the code map's hits."
    ),
]
#: strict: `true` or `"7"` is a wrong type, not a limit of 1 or 7
Limit = Annotated[
    int, Field(ge=1, le=tools.MAX_LIMIT, strict=True, description="At most this many entries.")
]
Kind = Annotated[
    str, Field(description="agent, skill, scope, truth, decision, note or claim (plural ok).")
]


def answer(ws: Workspace, work: Callable[[], dict[str, Any]], *, registry: bool) -> dict[str, Any]:
    """Refresh, run `work`, add the current validation errors; core errors become MCP errors."""
    try:
        project.require_registries(ws.root)  # as the CLI: no answer from a project now gone
        ws.refresh()
        result = work()
        found = ws.findings() if registry else ws.known_findings()
    except (UsageError, NotFound) as exc:
        raise MCPError(INVALID_PARAMS, _message(exc)) from None
    except OrkestraError as exc:
        raise MCPError(INTERNAL_ERROR, _message(exc)) from None
    except OSError as exc:  # a folder in the way, no permission: named, as the CLI names it
        raise _refused(exc) from None
    finally:
        ws.after_call()
    if found:  # beside any a tool found itself (search: the files its index left out)
        seen = {(f["code"], f["file"], f["line"]) for f in found}
        own = [
            f for f in result.get("findings", []) if (f["code"], f["file"], f["line"]) not in seen
        ]
        result["findings"] = [*found, *own]
    return result


def _message(exc: OrkestraError) -> str:
    return f"{exc.location()}{exc.message}"


def _refused(exc: OSError) -> Exception:
    """The OS refusing a path (`core.errors.os_refusal`) as the MCP error naming it; any other
    OSError is left as it is (a bug: the SDK reports the call as failed)."""
    refused = os_refusal(exc)
    return exc if refused is None else MCPError(INTERNAL_ERROR, _message(refused))


def check_text(value: Any, where: str) -> None:
    """Refuse a string argument that is not valid Unicode (a lone surrogate, which JSON's `\\ud800`
    can carry): echoed in an answer, it makes the response impossible to encode, and the client
    would wait forever for an answer the transport dropped."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            why = f"{where}: not valid Unicode text (a lone surrogate at position {exc.start})"
            raise MCPError(INVALID_PARAMS, why) from None
    elif isinstance(value, list | tuple):
        for item in value:
            check_text(item, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key, where)
            check_text(item, f"{where}.{key}" if isinstance(key, str) else where)


def _checked(fn: Callable[..., Awaitable[dict[str, Any]]]) -> Callable[..., Any]:
    """`fn` with every argument checked by `check_text` first (same signature for the schema)."""

    @functools.wraps(fn)
    async def run(**kwargs: Any) -> dict[str, Any]:
        for key, value in kwargs.items():
            check_text(value, key)
        return await fn(**kwargs)

    return run


def build(ws: Workspace, *, codemap: bool = True) -> MCPServer:
    """The server with every tool and resource registered (code-map tools when available)."""
    from orkestra.mcpserver.stdio import Server

    server: MCPServer = Server(
        "orkestra", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    _register_tools(server, ws)
    _register_resources(server, ws)
    if codemap:
        register_codemap(server, ws)
    return server


def _register_tools(server: MCPServer, ws: Workspace) -> None:
    def tool(fn: Callable[..., Any]) -> None:
        name = fn.__name__.rstrip("_")
        server.add_tool(
            _checked(fn), name=name, description=inspect.getdoc(fn), annotations=READ_ONLY
        )

    async def search(
        query: Annotated[
            str, Field(max_length=MAX_TEXT, description="Words to look for (ids, names; typos ok).")
        ],
        kinds: Kinds = None,
        limit: Limit = 20,
        summary: Annotated[
            bool, Field(strict=True, description="Only the number of hits per type.")
        ] = False,
    ) -> dict[str, Any]:
        """Search every registry and the knowledge base: ranked short hits {type, id, title,
        score, cite (path:line)}; use get(kind, id) for the detail."""
        return answer(ws, lambda: tools.search(ws, query, kinds, limit, summary), registry=False)

    async def get(
        kind: Kind,
        id: Annotated[str, Field(max_length=MAX_TEXT, description="The entry's id or name.")],
    ) -> dict[str, Any]:
        """Everything about one entry (agent, skill, scope, truth, decision, note, claim), with
        its cite (path:line)."""
        return answer(ws, lambda: tools.get(ws, kind, id), registry=True)

    async def list_(
        kind: Kind,
        filters: Annotated[
            dict[str, Any] | None,
            Field(
                description="skill: layer, source, dormant; truth: status; decision: status, "
                "domain; note: type, confidence; claim: confidence, category."
            ),
        ] = None,
        limit: Limit = 50,
    ) -> dict[str, Any]:
        """Short rows of one kind, each with its cite (path:line); {kind, total, items}."""
        return answer(ws, lambda: tools.listing(ws, kind, filters, limit), registry=True)

    async def context_for(
        paths: Annotated[
            list[Text],
            Field(max_length=MAX_ITEMS, description="Files (or folders) you are about to edit."),
        ],
    ) -> dict[str, Any]:
        """Before you edit: the decisions, ground truths and notes that concern these paths,
        ranked (a direct mention of the file first), each with its cite (path:line)."""
        return answer(ws, lambda: context.context_for(ws, paths), registry=True)

    async def check_notes(
        names: Annotated[
            list[Text] | None, Field(max_length=MAX_ITEMS, description="Only these notes.")
        ] = None,
    ) -> dict[str, Any]:
        """Check knowledge notes against the code (confirmed, contradicted, ambiguous); reports,
        never demotes."""
        return answer(ws, lambda: checks.check_notes(ws, names), registry=False)

    async def verify_truths(
        ids: Annotated[
            list[Text] | None, Field(max_length=MAX_ITEMS, description="Only these truth ids.")
        ] = None,
    ) -> dict[str, Any]:
        """Check each ground truth's evidence exists in the code and its date is not stale."""
        return answer(ws, lambda: checks.verify_truths(ws, ids), registry=True)

    async def mine_candidates(limit: Limit = 20) -> dict[str, Any]:
        """Commits not yet classified into the changelog or decision ledgers, newest first."""
        return answer(ws, lambda: checks.mine_candidates(ws, limit), registry=False)

    for fn in (search, get, list_, context_for, check_notes, verify_truths, mine_candidates):
        tool(fn)


def _register_resources(server: MCPServer, ws: Workspace) -> None:
    def text(work: Callable[[], str]) -> str:
        try:
            project.require_registries(ws.root)
            ws.refresh()
            return work()
        except (UsageError, NotFound) as exc:
            raise MCPError(INVALID_PARAMS, _message(exc)) from None
        except OrkestraError as exc:
            raise MCPError(INTERNAL_ERROR, _message(exc)) from None
        except OSError as exc:
            raise _refused(exc) from None
        finally:
            ws.after_call()

    for uri, kind in resources.ENTRY_TEMPLATES.items():

        def read(name: str, kind: str = kind) -> str:
            return text(lambda: resources.entry(ws, kind, name))

        _template(server, uri, read, f"One {kind} as JSON.", "application/json")

    def note(name: str) -> str:
        return text(lambda: resources.note(ws, name))

    _template(server, resources.NOTE_TEMPLATE, note, "A knowledge note.", "text/markdown")

    @server.resource(resources.GROUND_TRUTHS, name="GROUND_TRUTHS.md", mime_type="text/markdown")
    def ground_truths() -> str:
        """The ground truths as `sync` renders them."""
        return text(lambda: resources.ground_truths(ws))

    @server.resource(
        resources.KNOWLEDGE_INDEX, name="knowledge/INDEX.md", mime_type="text/markdown"
    )
    def knowledge_index() -> str:
        """The knowledge base index as `notes index` renders it."""
        return text(lambda: resources.knowledge_index(ws))


def _template(server: MCPServer, uri: str, fn: Callable[..., str], doc: str, mime: str) -> None:
    def read(name: str) -> str:
        check_text(name, "name")
        return fn(name)

    read.__doc__ = doc
    server.resource(uri, name=uri.removeprefix("orkestra://").split("/")[0], mime_type=mime)(read)


# --- the code map (PRODUCT.md §12) ---------------------------------------------------------------


def register_codemap(server: MCPServer, ws: Workspace, api: ModuleType | None = None) -> list[str]:
    """Register the code-map tools that `api` (default `orkestra.codemap.api`) defines.

    Each api function takes the project root first, then its arguments, and returns a JSON-able
    dict; the tool's schema is the function's signature without the root and without its
    keyword-only switches (left at their defaults). Returns the names registered (none while the
    code map is not part of this installation).
    """
    if api is None:
        try:
            found = importlib.import_module("orkestra.codemap.api")
        except ModuleNotFoundError as exc:
            if exc.name is not None and exc.name.startswith("orkestra.codemap"):
                return []  # no code map in this installation: the registry tools only
            raise
        api = found
    names = []
    for name in CODEMAP_TOOLS:
        fn = getattr(api, name, None)
        if callable(fn):
            server.add_tool(
                _codemap_tool(ws, fn), name=name, description=inspect.getdoc(fn),
                annotations=READ_ONLY,
            )  # fmt: skip
            names.append(name)
    return names


def _codemap_tool(ws: Workspace, fn: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(fn, eval_str=True)
    # the first parameter is the project root; keyword-only ones are the api's own switches
    params = [
        _strict(p) for p in list(signature.parameters.values())[1:] if p.kind is not p.KEYWORD_ONLY
    ]

    async def call(**kwargs: Any) -> dict[str, Any]:
        for key, value in kwargs.items():
            check_text(value, key)
        return answer(ws, lambda: _as_dict(fn(ws.root, **kwargs)), registry=False)

    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=params, return_annotation=dict[str, Any]
    )
    call.__name__ = fn.__name__
    return call


#: whole numbers as the registry tools take them: `"5"` or `true` is a wrong type, not a number
StrictInt = Annotated[int, Field(strict=True)]
StrictOptionalInt = Annotated[int | None, Field(strict=True)]
#: a switch is true or false: `"yes"` or `1` is a wrong type, not a switch turned on
StrictBool = Annotated[bool, Field(strict=True)]


def _strict(param: inspect.Parameter) -> inspect.Parameter:
    """A code-map parameter's schema as the registry tools': a `limit` is a `Limit` (1 to
    `tools.MAX_LIMIT`), no whole number is taken from a string or a boolean, and no switch
    from a string or a number."""
    if param.annotation is int:
        return param.replace(annotation=Limit if param.name == "limit" else StrictInt)
    if param.annotation == int | None:
        return param.replace(annotation=StrictOptionalInt)
    if param.annotation is bool:
        return param.replace(annotation=StrictBool)
    return param


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {"result": value}
