"""`agents|skills|scopes|truths|decisions search Q` (PRODUCT.md §5 level 4).

Each app holds one `search` command and is merged into its group next to list/info. The query is
an argument or `--query Q` (the `orkestra registry decisions search --query Q` spelling); a filter
alone is a valid query (`orkestra truths search --tag security`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from orkestra.cli import common
from orkestra.cli.common import FormatOption, emit, new_app
from orkestra.core.errors import ExitCode, UsageError
from orkestra.core.output import Format

QueryArg = Annotated[str | None, typer.Argument(help="Words to look for (typos ok).")]
QueryOpt = Annotated[str | None, typer.Option("--query", "-q", help="The query, as an option.")]
LimitOpt = Annotated[int, typer.Option("--limit", "-n", help="At most this many hits.")]
TRUTH_STATUSES = ("current", "tentative", "deprecated")
DECISION_STATUSES = ("proposed", "active", "superseded", "deprecated")


def _run(
    kind: str,
    query: str | None,
    option: str | None,
    limit: int,
    fmt: Format,
    **filters: tuple[str, ...],
) -> ExitCode:
    from orkestra.search.rank import Filters
    from orkestra.search.service import as_text, find

    text = _query(kind, query, option, limit, any(filters.values()))
    unloaded: list[Any] = []
    keep = Filters(types=(kind,), **filters)
    result = find(_root(), text, filters=keep, limit=limit, unloaded=unloaded)
    common.warn_load_errors(unloaded)
    emit(result, fmt, title=f"{kind} search: {text}", text=as_text(result) if fmt.human else None)
    return ExitCode.OK


def _query(kind: str, query: str | None, option: str | None, limit: int, filtered: bool) -> str:
    """The query, its usage errors raised before the project is looked for (exit 2 wherever
    the command is run)."""
    from orkestra.search.service import check_limit

    if query and option and query != option:
        raise UsageError("give the query either as an argument or as --query, not both")
    text = query or option or ""
    if not text and not filtered:
        raise UsageError(f"missing query: orkestra {kind} search QUERY (or a filter alone)")
    check_limit(limit)
    return text


agents = new_app("Search agents.")
skills = new_app("Search skills.")
scopes = new_app("Search scopes.")
truths = new_app("Search ground truths.")
decisions = new_app("Search decision records.")


@agents.command("search")
def agents_search(
    query: QueryArg = None,
    option: QueryOpt = None,
    limit: LimitOpt = 20,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Agents ranked by name, description, category, identity, domains, prompt."""
    return _run("agents", query, option, limit, fmt)


@skills.command("search")
def skills_search(
    query: QueryArg = None,
    option: QueryOpt = None,
    limit: LimitOpt = 20,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Core and vendor skills ranked by name, description, tags, sections."""
    return _run("skills", query, option, limit, fmt)


@scopes.command("search")
def scopes_search(
    query: QueryArg = None,
    option: QueryOpt = None,
    limit: LimitOpt = 20,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Scopes ranked by name, description, primary skills."""
    return _run("scopes", query, option, limit, fmt)


@truths.command("search")
def truths_search(
    query: QueryArg = None,
    option: QueryOpt = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="Only truths with this tag.")
    ] = None,
    status: Annotated[
        list[str] | None, typer.Option("--status", help="current, tentative or deprecated.")
    ] = None,
    limit: LimitOpt = 20,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Ground truths ranked by id, statement, rationale, tags, evidence."""
    from orkestra.search.service import check_choice

    return _run(
        "truths",
        query,
        option,
        limit,
        fmt,
        tags=check_choice("--tag", tag, ()),
        status=check_choice("--status", status, TRUTH_STATUSES),
    )


@decisions.command("search")
def decisions_search(
    query: QueryArg = None,
    option: QueryOpt = None,
    domain: Annotated[
        list[str] | None, typer.Option("--domain", help="Only decisions of this domain.")
    ] = None,
    status: Annotated[
        list[str] | None,
        typer.Option("--status", help="proposed, active, superseded or deprecated."),
    ] = None,
    limit: LimitOpt = 20,
    fmt: FormatOption = Format.json,
) -> ExitCode:
    """Decision records ranked by id, title, summary, rationale/context, tags and files."""
    from orkestra.search.service import check_choice

    domains = check_choice("--domain", domain, ())
    statuses = check_choice("--status", status, DECISION_STATUSES)
    _query("decisions", query, option, limit, bool(domains or statuses))
    if domains:  # as `decisions list --domain`: an unknown one is a usage error, not no hits
        from orkestra.registry.inventory import known_decision_domain

        reg = common.load_registry(lazy=True, warn=False)  # the search warns about its own
        for name in domains:
            known_decision_domain(reg, name)
    return _run(
        "decisions",
        query,
        option,
        limit,
        fmt,
        domain=domains,
        status=statuses,
    )


def _root() -> Path:
    from orkestra.search.service import project_root

    return project_root(common.STATE.root)
