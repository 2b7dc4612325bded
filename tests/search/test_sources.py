"""The source files search reads are the ones the loader accepts, under the same names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orkestra.search import extract, service

SLUGGED = "registries/decisions/records/DEC-SR-002-quokka-cache.yaml"
RECORD = """id: DEC-SR-002
title: Quokka cache for slugged records
domain: search
status: active
created: "2026-04-02"
summary: A record whose file name carries a slug after its id.
"""


def test_a_decision_in_a_slugged_file_is_a_document(root: Path) -> None:
    # the loader accepts `<id>-<slug>.yaml` (how two branches each add a record)
    (root / SLUGGED).write_text(RECORD, encoding="utf-8")
    (doc,) = extract.documents(root, SLUGGED, "decision")
    assert (doc.id, doc.path, doc.line) == ("DEC-SR-002", SLUGGED, 1)
    # a stem that merely starts with the id's text is not the id's file
    other = "registries/decisions/records/DEC-SR-0021.yaml"
    (root / other).write_text(RECORD, encoding="utf-8")
    assert extract.documents(root, other, "decision") == []


def test_search_finds_a_decision_in_a_slugged_file(cli: Any, root: Path) -> None:
    (root / SLUGGED).write_text(RECORD, encoding="utf-8")
    for args in (("search", "quokka"), ("search", "DEC-SR-002"), ("decisions", "search", "quokka")):
        r = cli(*args, cwd=root)
        assert r.exit_code == 0, r.stderr
        assert [h["id"] for h in r.json()["results"]] == ["DEC-SR-002"], args
    hits = service.search(root, "quokka", use_index=False).hits
    assert [(h.id, h.path) for h in hits] == [("DEC-SR-002", SLUGGED)]
