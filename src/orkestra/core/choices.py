"""The values of a filter option, one rule for every list and search command (docs/cli.md).

A filter option may be repeated or hold comma-separated values (`--status active --status
proposed`, `--status active,proposed`): an entry is kept when it has any of them; different
options must all hold. A value names its choice whatever its case (`--status Active`).
"""

from __future__ import annotations

from collections.abc import Iterable

from orkestra.core.errors import UsageError


def values(given: str | Iterable[str] | None) -> tuple[str, ...]:
    """Each value a filter was given, in order, once: a repeated option and a comma-separated
    one alike (`["a,b", "c"]` -> `("a", "b", "c")`); blanks dropped; `()` for no filter."""
    if given is None:
        return ()
    items = [given] if isinstance(given, str) else list(given)
    out: list[str] = []
    for item in items:
        for part in item.split(","):
            value = part.strip()
            if value and value not in out:
                out.append(value)
    return tuple(out)


def choices(
    option: str,
    given: str | Iterable[str] | None,
    allowed: Iterable[str],
    *,
    shown: str | None = None,
) -> tuple[str, ...]:
    """The values of filter `option` (`--status` on the command line, `status` for the MCP
    tools), each as `allowed` spells it (matched without regard to case); a value that is none
    of them is a usage error naming the choices (`shown`, else each of them)."""
    spelled = {choice.casefold(): choice for choice in allowed}
    out: list[str] = []
    for value in values(given):
        choice = spelled.get(value.casefold())
        if choice is None:
            listed = shown or ", ".join(spelled.values())
            raise UsageError(f"unknown {option} '{value}': {option} must be one of {listed}")
        if choice not in out:
            out.append(choice)
    return tuple(out)
