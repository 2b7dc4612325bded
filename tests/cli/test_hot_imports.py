"""The hot commands (issue 10 item 1) answer a warm project without their heavy modules:
`agents list` without pydantic or YAML (the parse cache's plain fields), `notes check` without
YAML (notes unchanged since the last check), `search` without the source extractors (the index
is fresh)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from orkestra.scaffold import init_project

RUN = (
    "import sys, json; from orkestra.cli.entry import main; code = main(sys.argv[2:]); "
    "heavy = ('pydantic', 'yaml', 'orkestra.search.extract', 'orkestra.registry.models.agents', "
    "'hashlib', 'orkestra.core.safewrite', 'jinja2'); "
    "print(json.dumps(sorted(m for m in heavy if m in sys.modules)), file=sys.stderr); "
    "sys.exit(code)"
)


def _run(root: Path, *args: str) -> tuple[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, "x", "--root", str(root), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hot") / "p"
    init_project(root)
    past = time.time() - 3600  # settled files: no cache re-reads a file for being just written
    for path in root.rglob("*"):
        os.utime(path, (past, past), follow_symlinks=False)
    time.sleep(2.1)  # and their ctimes (the utime just now) outside the racy window too
    for args in (["agents", "list"], ["notes", "check"], ["search", "example"]):
        _run(root, *args)  # warm: parse cache, check cache, search index
    return root


def test_agents_list_from_a_warm_cache_loads_neither_pydantic_nor_yaml(warm: Path) -> None:
    out, heavy = _run(warm, "agents", "list")
    assert "example-agent" in out
    assert heavy == []


def test_agents_info_builds_the_model_it_needs_and_answers_the_same(warm: Path) -> None:
    out, heavy = _run(warm, "agents", "info", "example-agent")
    shutil.rmtree(warm / ".orkestra" / "registry-cache")
    cold, _ = _run(warm, "agents", "info", "example-agent")
    assert out == cold
    assert "pydantic" in heavy  # all_tools() is a method: the model was built from the cache


def test_notes_check_on_unchanged_notes_does_not_load_yaml(warm: Path) -> None:
    _, heavy = _run(warm, "notes", "check")
    assert "yaml" not in heavy


def test_search_on_a_fresh_index_does_not_load_the_extractors(warm: Path) -> None:
    out, heavy = _run(warm, "search", "example")
    assert json.loads(out)["results"]
    assert "orkestra.search.extract" not in heavy


def test_a_no_op_sync_is_answered_without_models_yaml_templates_or_hashing(
    tmp_path: Path,
) -> None:
    """The commonest run (an editor's or a hook's sync with nothing changed) stats what the last
    run read and prints its answer: no YAML, no Pydantic, no Jinja, not even OpenSSL's hashes."""
    root = tmp_path / "p"
    init_project(root)
    _run(root, "sync")  # writes: the next runs check what it wrote by content (a few files)
    time.sleep(0.3)  # the write's racy window passes
    (root / ".orkestra" / "noop-sync.json").unlink()
    _run(root, "sync")  # a full run that writes nothing: its record holds plain stats
    out, heavy = _run(root, "sync")
    assert json.loads(out)["written"] == 0
    assert heavy == ["orkestra.core.safewrite"]  # the sync lock's file is taken safely


def test_a_full_validate_does_not_load_jinja(tmp_path: Path) -> None:
    """`validate` reads the registries, the lock and the managed files; recording its result
    (the no-op record names the template folders) must not import the template engine."""
    root = tmp_path / "p"
    init_project(root)
    past = time.time() - 3600  # settled: a file written just before the run is not recorded
    for path in root.rglob("*"):
        os.utime(path, (past, past), follow_symlinks=False)
    time.sleep(2.1)  # and their ctimes (the utime just now) outside the racy window too
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; from orkestra.cli.entry import main; code = main(sys.argv[1:]); "
         "print('jinja2' in sys.modules, file=sys.stderr); sys.exit(code)",
         "--root", str(root), "validate", "--format", "json"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    assert done.stderr.strip().splitlines()[-1] == "False"
    assert list((root / ".orkestra").glob("noop-validate.json"))  # the result was recorded


def test_a_model_s_validator_is_built_on_its_first_use_not_on_import() -> None:
    """A command that validates one kind of file (a sync after an agent's edit) pays for the
    schemas it uses, not for every model it imports (`Model`'s `defer_build`)."""
    script = """
import json
import orkestra.registry.models as m
from orkestra.registry.models.common import Model
for name in m.__all__:
    getattr(m, name)
def walk(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from walk(sub)
def built():
    return sorted(c.__name__ for c in walk(Model) if c.__pydantic_complete__)
print(json.dumps([len(list(walk(Model))), built()]))
m.Agent.model_validate({"name": "a", "description": "Use when testing."})
print(json.dumps(built()))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    (count, on_import), after = (json.loads(line) for line in done.stdout.splitlines())
    assert count > 20  # every registry model was imported
    assert on_import == []
    assert "Agent" in after
    assert "DecisionRecord" not in after and "SkillFile" not in after
