"""The one rule for names (standard library only: notes and the importer use it without pydantic).

Names of agents, skills, scopes, identities, mindsets, styles and commands, imported entries and
knowledge notes become file names, so they must be safe path components on every system (§3, §13).
`common.Name` is the Pydantic type built on these functions.
"""

from __future__ import annotations

import re

#: ASCII letters and digits only (`[0-9]`, never `\d`, which takes any script's digits); read with
#: `fullmatch` (Python's `$` also matches before a final newline)
NAME_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

#: tier folder under skills/ -> the layer its skills must declare
TIER_LAYER = {
    "foundations": "K0",
    "identities": "K1",
    "domains": "K2",
    "stacks": "K3",
    "project": "K4",
}
LAYERS = ("K0", "K1", "K2", "K3", "K4")
NAME_RE = re.compile(NAME_PATTERN)

#: Names Windows reserves for devices, whatever the case and whatever follows a dot (`CON`,
#: `con.md`, `Aux.tar.gz`): a file so named cannot be checked out or opened there (§13). Microsoft
#: also reserves COM0 and LPT0.
DEVICE_NAMES = frozenset(
    {"con", "nul", "aux", "prn"} | {f"{port}{n}" for port in ("com", "lpt") for n in range(10)}
)

#: Unicode controls that reorder how text is displayed: they can make a name or description
#: read differently from what it holds (LRE..RLO, LRI..PDI, LRM, RLM, ALM).
BIDI_CONTROLS = frozenset(
    [
        *map(chr, range(0x202A, 0x202F)),
        *map(chr, range(0x2066, 0x206A)),
        "\u200e",
        "\u200f",
        "\u061c",
    ]
)


def is_device_name(name: str) -> bool:
    """True when `name` (a name or a file name) is a Windows device name, with any extension."""
    return name.split(".", 1)[0].rstrip(" ").lower() in DEVICE_NAMES


def bidi_controls(text: str) -> list[str]:
    """The bidirectional controls in `text`, as `U+202E` codes in order of appearance (once each)."""
    if text.isascii():
        return []
    return list(dict.fromkeys(f"U+{ord(c):04X}" for c in text if c in BIDI_CONTROLS))


def pattern_advice(name: object) -> str:
    """What the loader says of a name that does not match `NAME_PATTERN` (and what search says
    of the file it leaves out for it): the message of its ORK002 after `<key>: `."""
    return (
        f"the name {name!r} must be lowercase letters, digits and single hyphens "
        f"({NAME_PATTERN}); rename it, and every reference to it"
    )


def name_problem(name: object) -> str | None:
    """Why `name` cannot be an Orkestra name (a path component), or None when it can.

    The one rule for agents, skills, scopes, identities, mindsets, styles, commands, imported
    entries and note names: lowercase letters, digits and single hyphens, 1-64 characters, and
    not a Windows device name.
    """
    if not isinstance(name, str) or not NAME_RE.fullmatch(name) or len(name) > 64:
        return "must be lowercase letters, digits and single hyphens, 1-64 characters (^[a-z0-9]+(-[a-z0-9]+)*$)"
    if is_device_name(name):
        return device_problem(name)
    return None


def device_problem(name: str) -> str:
    """The message for a Windows device name used as a name or file name."""
    return (
        f"'{name}' is a Windows device name (con, nul, aux, prn, com0-com9, lpt0-lpt9): a file "
        "with that name cannot exist on Windows; pick another name"
    )
