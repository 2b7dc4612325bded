"""A member call whose receiver's type is unknown (`sock.send()`, `coro.send()`) and that meets
the one method of that name in the map is a guess: `refs` and `impact` say so (`guessed`),
while a call on this object, a constructed name or a class is not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.codemap import api
from tests.codemap.conftest import needs_tree_sitter
from tests.conftest import write

pytestmark = needs_tree_sitter

PROACTOR = """class Proactor:
    def send(self, conn, data):
        return len(data)

    def flush(self):
        return self.send(None, b"")
"""
NET = """import socket
from proactor import Proactor


def ping():
    sock = socket.socket()
    sock.send(b"x")


def drive(coro):
    return coro.send(None)


def direct():
    p = Proactor()
    return p.send(None, b"y")


def relay():
    return drive(None)
"""


@pytest.fixture
def net(project: Path) -> Path:
    write(project, "proactor.py", PROACTOR)
    write(project, "net.py", NET)
    return project


def test_refs_mark_a_member_of_an_unknown_receiver_as_guessed(net: Path) -> None:
    refs = api.find_references(net, "Proactor.send")["references"]
    assert [(r["location"], r["guessed"]) for r in refs] == [
        ("net.py:16", False), ("proactor.py:6", False), ("net.py:7", True), ("net.py:11", True),
    ]  # fmt: skip  # the certain ones first


def test_impact_marks_dependents_reached_through_a_guess(net: Path) -> None:
    found = api.impact(net, "Proactor.send")["dependents"]
    guessed = {d["symbol"]: d["guessed"] for d in found}
    assert guessed == {
        "direct": False, "Proactor.flush": False, "ping": True, "drive": True, "relay": True,
    }  # fmt: skip  # relay calls drive for sure, but drive was reached by a guess


def test_code_refs_shows_the_mark(cli: Any, net: Path) -> None:
    out = cli("code", "refs", "Proactor.send", "--format", "table", cwd=net)
    assert out.exit_code == 0 and "guessed" in out.stdout
    refs = cli("code", "refs", "Proactor.send", cwd=net).json()["references"]
    assert {r["location"] for r in refs if r["guessed"]} == {"net.py:7", "net.py:11"}


MIXED = """import proactor
from proactor import Proactor


def both(coro):
    coro.send(None)
    p = Proactor()
    return p.send(None, b"z")


def via_module():
    return proactor.helper()


def sure():
    p = Proactor()
    return p.send(None, b"w")


def outer(coro):
    coro.send(None)
    return sure()
"""


def test_a_module_s_member_is_certain_and_a_certain_path_beats_a_guess(project: Path) -> None:
    write(project, "proactor.py", PROACTOR + "\n\ndef helper():\n    return 1\n")
    write(project, "mixed.py", MIXED)
    refs = api.find_references(project, "helper")["references"]
    assert [(r["location"], r["guessed"]) for r in refs] == [("mixed.py:12", False)]
    found = api.impact(project, "Proactor.send")["dependents"]
    guessed = {d["symbol"]: d["guessed"] for d in found}
    assert guessed["both"] is False
    # `outer` is reached by a guess first (its own coro.send), then for certain through `sure`
    assert guessed["outer"] is False
