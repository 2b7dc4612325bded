"""The parse cache (`registry.cache`): a load through it is always identical to a cold load."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.core import jsonio
from orkestra.registry import cache, inventory
from orkestra.registry.loader import load
from orkestra.registry.registry import Registry
from orkestra.registry.validate import validate
from tests.registry.helpers import scaffold

CACHE = cache.CACHE


def snap(reg: Registry) -> dict[str, Any]:
    """Everything a load produced, as plain data (models dumped, skills as their fields)."""
    out: dict[str, Any] = {
        "findings": [(f.code, f.message, f.file, f.line) for f in reg.findings],
        "locations": sorted((k, str(v)) for k, v in reg.locations.items()),
        "config": reg.config.model_dump(),
        "tools": reg.tools.model_dump(),
        "values": [v.model_dump() for v in reg.values],
        "decisions_registry": reg.decisions_registry.model_dump(),
    }
    for attr in ("identities", "mindsets", "styles", "agents", "commands", "scopes", "truths"):
        out[attr] = {k: v.model_dump() for k, v in getattr(reg, attr).items()}
    out["decisions"] = {k: v.model_dump() for k, v in reg.decisions.items()}
    out["truth_files"] = {k: v.model_dump() for k, v in reg.truth_files.items()}
    out["skills"] = {
        k: {**vars(v), "core": v.core.model_dump() if v.core is not None else None}
        for k, v in reg.skills.items()
    }
    return out


def lists(reg: Registry) -> dict[str, Any]:
    """What the list and info commands answer (they run on lazy models)."""
    out: dict[str, Any] = {
        "agents": inventory.agents_list(reg),
        "skills": inventory.skills_list(reg),
        "scopes": inventory.scopes_list(reg),
        "truths": inventory.truths_list(reg),
        "decisions": inventory.decisions_list(reg),
    }
    out["agent_info"] = [inventory.agent_info(reg, name) for name in sorted(reg.agents)]
    out["skill_info"] = [inventory.skill_info(reg, name) for name in sorted(reg.skills)]
    return out


def same_as_cold(root: Path) -> None:
    """Cold, cached (twice: the first may write), and lazy loads all give the same registry,
    the same validation report and the same list/info answers."""
    cold = load(root, use_cache=False)
    expected = snap(cold)
    for _ in range(2):
        assert snap(load(root)) == expected
    assert validate(load(root)).findings == validate(cold).findings
    assert lists(load(root, lazy_models=True)) == lists(cold)
    assert snap(load(root, lazy_models=True)) == expected


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return scaffold(tmp_path / "p")


AGENT = "name: {name}\ndescription: Agent {body}.\nscopes: [{scope}]\nskills: [{skill}]\n"
SKILL = (
    "metadata:\n  identifier: {name}\n  name: {name}\n  description: Does {body}. Use when "
    "you need {body}.\n  type: workflow\n  layer: K2\nscopes: [{scope}]\n"
)


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# --- edits ---------------------------------------------------------------------------------------

EDITS = st.sampled_from(
    ["agent", "skill", "bad-yaml", "bad-schema", "wrong-stem", "delete", "scopes", "duplicate"]
)


def _apply(root: Path, edit: str, n: int) -> None:
    reg = root / "registries"
    name = f"gen-{n % 3}"
    scope = f"s{n % 2}"
    if edit == "agent":
        _write(root, f"registries/agents/{name}.yaml", AGENT.format(
            name=name, body=n, scope=scope, skill=f"gen-{(n + 1) % 3}"))  # fmt: skip
    elif edit == "skill":
        _write(root, f"registries/skills/domains/{name}.yaml",
               SKILL.format(name=name, body=n, scope=scope))  # fmt: skip
    elif edit == "bad-yaml":
        _write(root, f"registries/agents/{name}.yaml", f"name: [{n}\n")
    elif edit == "bad-schema":
        _write(root, f"registries/agents/{name}.yaml", f"name: {name}\ncolour: {n}\n")
    elif edit == "wrong-stem":
        _write(root, f"registries/agents/{name}.yaml", AGENT.format(
            name=f"other-{n}", body=n, scope=scope, skill="x"))  # fmt: skip
    elif edit == "delete":
        for path in (*reg.glob("agents/gen-*.yaml"), *reg.glob("skills/domains/gen-*.yaml")):
            if path.stem == name:
                path.unlink()
    elif edit == "scopes":
        _write(root, "registries/scopes.yaml",
               f"scopes:\n  s0:\n    description: Zero {n}.\n  s1:\n    description: One.\n")  # fmt: skip
    elif edit == "duplicate":  # a second file with the same skill name, in another tier
        _write(root, f"registries/skills/stacks/{name}.yaml",
               SKILL.format(name=name, body=n, scope=scope).replace("K2", "K3"))  # fmt: skip


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.tuples(EDITS, st.integers(0, 50)), min_size=1, max_size=6))
def test_cached_loads_equal_cold_loads_over_random_edit_sequences(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]
) -> None:
    root = scaffold(tmp_path_factory.mktemp("edits") / "p")
    load(root)  # a warm cache to start from
    for edit, n in steps:
        _apply(root, edit, n)
        same_as_cold(root)


# --- the cache itself ------------------------------------------------------------------------------


def test_an_unchanged_project_is_not_parsed_again(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load(proj)
    from orkestra.core import yamlio

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("parsed although unchanged")

    monkeypatch.setattr(yamlio, "parse_document", refuse)
    assert load(proj).agents  # every file answered from the cache


def _parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files parsed from now on (the others were answered from the cache)."""
    from orkestra.core import yamlio

    parsed: list[str] = []
    real = yamlio.parse_document
    monkeypatch.setattr(
        yamlio,
        "parse_document",
        lambda text, name, **kw: parsed.append(name) or real(text, name, **kw),
    )
    return parsed


def test_only_the_changed_file_is_parsed(proj: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load(proj)
    _write(proj, "registries/agents/example-agent.yaml",
           "name: example-agent\ndescription: Changed.\n")  # fmt: skip
    parsed = _parsed(monkeypatch)
    assert load(proj).agents["example-agent"].description == "Changed."
    assert parsed == ["registries/agents/example-agent.yaml"]


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\xff garbage",
        b"[1, 2]",
        b'{"version": "x", "files": {}}',
        b"{" * 5000,
        b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser recurses: not a crash
        b"{}",
    ],
)
def test_a_corrupt_or_foreign_cache_is_rebuilt(proj: Path, content: bytes) -> None:
    load(proj)
    for shard in _shards(proj):
        shard.write_bytes(content)
    same_as_cold(proj)
    assert all(jsonio.read_sealed(s)["version"] == cache.stamp() for s in _shards(proj))


def test_a_shard_damaged_into_other_valid_data_is_rebuilt(proj: Path) -> None:
    """One letter of a cached text changed, the JSON still valid and the entry still well
    formed: the checksum finds it, and the file is parsed again, never the damaged text."""
    load(proj)
    rel = "registries/agents/example-agent.yaml"
    shard = proj / cache.shard_path(cache.shard_of(rel))
    raw = shard.read_bytes()
    at = raw.index(b"Example specialist")
    shard.write_bytes(raw[:at] + b"Eyample" + raw[at + 7 :])
    assert "Eyample" in json.dumps(json.loads(shard.read_bytes().split(b"\n", 1)[1]))
    same_as_cold(proj)
    assert "Example specialist" in load(proj).agents["example-agent"].description


def _shards(root: Path) -> list[Path]:
    """Every shard file of the cache (all of them exist once a load wrote the cache)."""
    shards = [root / cache.shard_path(n) for n in range(cache.SHARDS)]
    assert all(s.is_file() for s in shards)
    return shards


def _entries(root: Path) -> dict[str, Any]:
    return {k: v for s in _shards(root) for k, v in jsonio.read_sealed(s)["files"].items()}


def _rewrite(root: Path, files: dict[str, Any]) -> None:
    for n, shard in enumerate(_shards(root)):
        data = jsonio.read_sealed(shard)
        data["files"] = {rel: entry for rel, entry in files.items() if cache.shard_of(rel) == n}
        shard.write_bytes(jsonio.sealed(json.dumps(data)))


@pytest.mark.parametrize(
    "damage",
    [
        lambda e: e[8].append(
            ["S", "root", {"m": "Config", "at": [], "sub": [], "f": {}, "t": []}]
        ),
        lambda e: e[8].append(["P", "agent", "x", "f", 1, "__dict__", "x", {}]),
        lambda e: e[8].append(["F", "ORK001", 3, "f", 1]),
        lambda e: e[8].append(["Z"]),
        lambda e: e.__setitem__(7, {"name": 5}),  # data that no longer validates
        lambda e: e[8][-1][-1].__setitem__("at", ["nowhere"]),
        lambda e: e.pop(),
    ],
)
def test_a_hostile_entry_is_parsed_again_never_trusted(proj: Path, damage: Any) -> None:
    load(proj)
    files = _entries(proj)
    damage(files["registries/agents/example-agent.yaml"])
    _rewrite(proj, files)
    same_as_cold(proj)


def test_a_change_within_the_same_timestamp_tick_is_caught_by_the_content_hash(proj: Path) -> None:
    """A coarse clock can give a changed file its old identity; recorded that close to the
    change, the entry is confirmed by the sha256 of the content, which differs."""
    rel = "registries/agents/example-agent.yaml"
    load(proj)
    _write(proj, rel, (proj / rel).read_text().replace("description:", "description: X"))
    files = _entries(proj)
    st_ = (proj / rel).stat()
    files[rel][:5] = cache.identity(st_)  # the identity a coarse clock would have kept
    files[rel][5] = st_.st_mtime_ns  # recorded in the same tick
    _rewrite(proj, files)
    assert load(proj).agents["example-agent"].description.startswith("X")
    same_as_cold(proj)


def test_an_edit_that_sets_the_old_mtime_back_within_the_ctime_tick_is_caught(
    proj: Path,
) -> None:
    """Same size, the old mtime set back (`touch -d`, `cp -p`), in the ctime tick the entry was
    recorded in: the identity is the old one, but the change is recent by its ctime, so the
    content's sha256 is checked."""
    rel = "registries/agents/example-agent.yaml"
    path = proj / rel
    past = path.stat().st_mtime_ns - 10 * cache.RACY_NS
    os.utime(path, ns=(past, past))
    load(proj)
    text = path.read_text()
    at = text.index("description: ") + len("description: ")
    edited = text[:at] + ("Q" if text[at] != "Q" else "R") + text[at + 1 :]  # the same size
    path.write_text(edited)
    os.utime(path, ns=(past, past))
    files = _entries(proj)
    st_ = path.stat()
    files[rel][:5] = cache.identity(st_)  # the identity a coarse ctime would have kept
    files[rel][5] = time.time_ns()  # recorded after the change, long after its mtime
    _rewrite(proj, files)
    same_as_cold(proj)


def test_a_settled_racy_entry_is_confirmed_once_then_trusted(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 50_000_000)  # the file's ctime cannot be set back
    monkeypatch.setattr(cache, "FINE_RACY_NS", 50_000_000)
    rel = "registries/agents/example-agent.yaml"
    past = (proj / rel).stat().st_mtime_ns - 10 * cache.RACY_NS
    os.utime(proj / rel, ns=(past, past))
    time.sleep(0.1)  # its ctime (the utime) settles too
    load(proj)
    files = _entries(proj)
    files[rel][5] = files[rel][1]  # as if recorded in the tick of the file's last change
    _rewrite(proj, files)
    same_as_cold(proj)
    assert _entries(proj)[rel][5] > files[rel][1] + cache.RACY_NS  # settled: no hash next time


def test_a_cache_from_another_version_is_not_used(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load(proj)
    files = _entries(proj)
    files["registries/agents/example-agent.yaml"][8] = []  # would drop the agent if replayed
    _rewrite(proj, files)
    monkeypatch.setattr(cache, "SCHEMA", cache.SCHEMA + 1)
    assert "example-agent" in load(proj).agents


def test_a_library_installed_or_upgraded_parses_every_file_again(
    proj: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another PyYAML parses and another pydantic validates and words its errors otherwise: an
    entry made with the old ones (the data parsed, a file's ORK002 message) was replayed after
    `pip install -U` while a load without the cache gave the new answer."""
    libraries = tmp_path / "venv" / "site-packages"
    libraries.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [*sys.path, str(libraries)])
    load(proj)
    (libraries / "PyYAML-9.9.dist-info").mkdir()  # an upgrade: the folder's entries change
    os.utime(libraries, ns=(1_000_000_000, 1_000_000_000))
    parsed = _parsed(monkeypatch)
    load(proj)
    assert "registries/agents/example-agent.yaml" in parsed


def test_a_deleted_file_leaves_the_cache(proj: Path) -> None:
    load(proj)
    (proj / "registries/agents/example-agent.yaml").unlink()
    same_as_cold(proj)
    assert "registries/agents/example-agent.yaml" not in _entries(proj)


def test_an_unwritable_cache_folder_still_loads(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orkestra.core import safewrite

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(proj / CACHE))

    monkeypatch.setattr(safewrite, "write_file", refuse)
    same_as_cold(proj)
    assert not (proj / CACHE).exists()


def test_a_symlinked_cache_folder_is_neither_read_nor_written(proj: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    load(proj)
    (proj / ".orkestra").rename(elsewhere / "planted")
    (proj / ".orkestra").symlink_to(elsewhere / "planted")
    files = _entries(proj)
    files["registries/agents/example-agent.yaml"][8] = []  # would drop the agent if replayed
    _rewrite(proj, files)
    before = sorted(p.name for p in (elsewhere / "planted").iterdir())
    assert "example-agent" in load(proj).agents
    same_as_cold(proj)
    assert sorted(p.name for p in (elsewhere / "planted").iterdir()) == before


def test_two_processes_loading_at_once_agree_with_a_cold_load(proj: Path) -> None:
    for n in range(30):
        _write(proj, f"registries/agents/gen-{n}.yaml",
               AGENT.format(name=f"gen-{n}", body=n, scope="s0", skill="x"))  # fmt: skip
    code = (
        "import sys, json; from pathlib import Path; from orkestra.registry.loader import load\n"
        "for _ in range(5): reg = load(Path(sys.argv[1]))\n"
        "print(json.dumps(sorted(reg.agents)))"
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", code, str(proj)], stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outs = [json.loads(run.communicate()[0]) for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert outs == [sorted(load(proj, use_cache=False).agents)] * 3
    same_as_cold(proj)


def test_a_file_s_entry_is_the_same_in_every_process(proj: Path, tmp_path: Path) -> None:
    """String hashing differs between processes: nothing set-ordered may reach an entry."""
    _write(proj, "registries/tools.yaml",
           "builtin: [Read, Write, Edit, Grep, Glob, Bash]\nmcp:\n  gh: [a, b, c, d]\n")  # fmt: skip
    code = "import sys; from pathlib import Path; from orkestra.registry.loader import load\n"
    code += "load(Path(sys.argv[1]))\n"
    entries = []
    for seed in ("1", "2", "3"):
        copy = tmp_path / f"seed-{seed}"
        shutil.copytree(proj, copy, ignore=shutil.ignore_patterns(".orkestra"))
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code, str(copy)], check=True, env=env)
        files = {}
        for shard in (copy / CACHE).glob("*.json"):
            files.update(jsonio.read_sealed(shard)["files"])
        entries.append(files["registries/tools.yaml"][8])
    assert entries[0] == entries[1] == entries[2]


def test_agents_list_from_a_warm_cache_does_not_import_pydantic(proj: Path) -> None:
    load(proj)
    code = (
        "import sys; from pathlib import Path; from orkestra.registry.loader import load\n"
        "from orkestra.registry import inventory\n"
        "rows = inventory.agents_list(load(Path(sys.argv[1]), lazy_models=True))\n"
        "print(len(rows), 'pydantic' in sys.modules, 'yaml' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(proj)], capture_output=True, text=True)
    assert done.stdout.split() == ["1", "False", "False"], done.stderr


# --- what the cache may store: plain data only ------------------------------------------------------


def _survives_json(data: Any) -> bool:
    """The reference: a JSON round trip gives `data` back unchanged."""
    try:
        back = json.loads(json.dumps(data, allow_nan=False))
    except ValueError:  # an infinite or NaN float
        return False
    return bool(back == data) and _same_kinds(back, data)


def _same_kinds(a: Any, b: Any) -> bool:
    """`==` says 1 == 1.0 == True; the cache must give back the very kinds too."""
    if isinstance(a, dict):
        return all(_same_kinds(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_same_kinds(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b)


KEYS = st.one_of(
    st.text(alphabet="abc-_ ", min_size=1, max_size=4),
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    # no NaN key: two NaN keys are two keys to Python but one `.nan` written twice to YAML,
    # which the parser refuses as a duplicate key (a NaN key alone is a case of its own below)
    st.floats(allow_nan=False, allow_infinity=True),
)
LEAVES = st.one_of(
    st.text(alphabet="ab1.:-", max_size=5),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
)
DOCS = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(body=st.dictionaries(KEYS, DOCS, max_size=4))
def test_the_parser_says_plain_exactly_when_a_json_round_trip_keeps_the_data(body: Any) -> None:
    from orkestra.core import yamlio

    text = yaml.safe_dump(body, allow_unicode=True)
    data, plain = yamlio.parse_document(text, "t.yaml", allow_empty=True)
    assert plain == _survives_json(data), text


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("a: 1\nb: [x, 2.5, null, true]\n", True),
        ("a: {b: {c: [1, {d: e}]}}\n", True),
        ("1: x\n", False),  # an int key comes back as the string "1"
        ("a: {true: x}\n", False),
        ("a: [{~: x}]\n", False),
        ("a: {1.5: x}\n", False),
        ("a: .inf\n", False),
        ("a: [1, -.inf]\n", False),
        ("a: {b: .NaN}\n", False),
        ("a: {.nan: x}\n", False),
        ("2026-01-01: x\n", True),  # dates stay strings, keys too
        ("", True),
    ],
)
def test_the_parser_flags_each_value_json_would_change(text: str, plain: bool) -> None:
    from orkestra.core import yamlio

    assert yamlio.parse_document(text, "t.yaml", allow_empty=True)[1] is plain


def test_a_file_with_a_value_json_would_change_is_never_cached(proj: Path) -> None:
    """An int key or an infinite number is parsed again each time, never replayed from a cache
    that would hand back the string "1" or fail to read `Infinity`."""
    _write(proj, "registries/agents/odd.yaml", "name: odd\ndescription: Odd.\n1: one\n")
    _write(proj, "registries/agents/far.yaml", "name: far\ndescription: Far.\nx: .inf\n")
    load(proj)
    files = _entries(proj)
    assert "registries/agents/odd.yaml" not in files
    assert "registries/agents/far.yaml" not in files
    assert "registries/agents/example-agent.yaml" in files
    same_as_cold(proj)


def test_a_registry_file_is_looked_at_once_a_load(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry file's lstat (taken for the symlink check) is its identity for the cache: no
    second stat."""
    load(proj)
    stats: list[str] = []
    real = Path.stat

    def spy(self: Path, *args: Any, **kwargs: Any) -> os.stat_result:
        if self.suffix == ".yaml" and {"agents", "skills"} & set(self.parts):
            stats.append(self.name)  # the many entry files (a few fixed ones are checked)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", spy)
    assert "example-agent" in load(proj).agents
    assert stats == []


def test_a_registry_file_linked_inside_the_project_is_cached_by_what_it_links_to(
    proj: Path,
) -> None:
    """A symlinked registry file's own identity never changes when its target is edited: the
    cache keys it by the target's."""
    rel = "registries/agents/example-agent.yaml"
    real = proj / "shared" / "agent.yaml"
    real.parent.mkdir()
    (proj / rel).replace(real)
    (proj / rel).symlink_to(real)
    old = real.stat().st_mtime_ns - 10 * cache.RACY_NS  # long settled: no content check
    os.utime(proj / rel, ns=(old, old), follow_symlinks=False)
    load(proj)
    text = real.read_text(encoding="utf-8")
    real.write_text(text.replace("description: ", "description: Y", 1), encoding="utf-8")
    os.utime(real, ns=(old, old))
    assert load(proj).agents["example-agent"].description.startswith("Y")
    same_as_cold(proj)


# --- shards: a change rewrites a sixteenth of the cache ---------------------------------------------


def _marks(root: Path) -> list[tuple[int, int]]:
    return [(s.stat().st_ino, s.stat().st_mtime_ns) for s in _shards(root)]


def test_a_changed_file_rewrites_only_its_shard(proj: Path) -> None:
    rel = "registries/agents/example-agent.yaml"
    # the scaffold's files settle first: a load inside their racy window records entries that
    # the next load confirms and rewrites, which is not the change this test looks for
    time.sleep(2 * cache.FINE_RACY_NS / 1e9)
    load(proj)
    before = _marks(proj)
    load(proj)
    assert _marks(proj) == before  # nothing changed: nothing written
    _write(proj, rel, (proj / rel).read_text().replace("description: ", "description: Z", 1))
    load(proj)
    after = _marks(proj)
    changed = [n for n in range(cache.SHARDS) if after[n] != before[n]]
    assert changed == [cache.shard_of(rel)]
    same_as_cold(proj)


def test_a_corrupt_shard_costs_only_its_own_files(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load(proj)
    rel = "registries/agents/example-agent.yaml"
    mine = cache.shard_of(rel)
    (proj / cache.shard_path(mine)).write_text("{not json", encoding="utf-8")
    parsed = _parsed(monkeypatch)
    load(proj)
    assert rel in parsed
    assert {cache.shard_of(name) for name in parsed} == {mine}
    monkeypatch.undo()
    same_as_cold(proj)


def test_a_symlink_planted_at_a_shard_is_neither_read_nor_written_through(
    proj: Path, tmp_path: Path
) -> None:
    rel = "registries/agents/example-agent.yaml"
    load(proj)
    shard = proj / cache.shard_path(cache.shard_of(rel))
    planted = tmp_path / "planted.json"
    data = jsonio.read_sealed(shard)
    data["files"][rel][8] = []  # would drop the agent if replayed
    planted.write_bytes(jsonio.sealed(json.dumps(data)))
    shard.unlink()
    shard.symlink_to(planted)
    before = planted.read_text()
    assert "example-agent" in load(proj).agents
    assert planted.read_text() == before
    same_as_cold(proj)


def test_an_entry_in_another_shard_than_its_own_is_not_used(proj: Path) -> None:
    rel = "registries/agents/example-agent.yaml"
    load(proj)
    files = _entries(proj)
    entry = files[rel]
    entry[8] = []  # would drop the agent if replayed
    other = proj / cache.shard_path((cache.shard_of(rel) + 1) % cache.SHARDS)
    data = jsonio.read_sealed(other)
    data["files"][rel] = entry
    other.write_bytes(jsonio.sealed(json.dumps(data)))
    own = proj / cache.shard_path(cache.shard_of(rel))
    data = jsonio.read_sealed(own)
    del data["files"][rel]
    own.write_bytes(jsonio.sealed(json.dumps(data)))
    assert "example-agent" in load(proj).agents
    assert rel not in jsonio.read_sealed(other)["files"]  # written again without it
    same_as_cold(proj)


def test_the_one_file_cache_of_earlier_versions_is_removed(proj: Path) -> None:
    (proj / cache.OLD_CACHE).parent.mkdir(exist_ok=True)
    (proj / cache.OLD_CACHE).write_text('{"version": "old", "files": {}}', encoding="utf-8")
    load(proj)
    assert not (proj / cache.OLD_CACHE).exists()
    same_as_cold(proj)


def test_a_shard_that_cannot_be_written_keeps_no_other_from_being_written(proj: Path) -> None:
    load(proj)
    rel = next(
        p.relative_to(proj).as_posix()
        for p in sorted((proj / "registries").rglob("*.yaml"))
        if cache.shard_of(p.relative_to(proj).as_posix()) > 0
    )
    blocked = proj / cache.shard_path(0)
    blocked.unlink()
    blocked.mkdir()  # a folder where shard 0 goes: never written, never read
    mine = proj / cache.shard_path(cache.shard_of(rel))
    old = mine.stat().st_mtime_ns
    _write(proj, rel, (proj / rel).read_text() + "\n# edited\n")
    load(proj)
    assert blocked.is_dir()
    assert mine.stat().st_mtime_ns != old  # written all the same
    same_as_cold(proj)


def test_the_racy_window_is_a_tick_where_times_are_fine_and_two_seconds_where_whole(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry recorded half a second after its file's last change is trusted where the file
    system keeps sub-second times (a copy made just before a cold load is not hashed again); with
    whole-second times the same gap is racy."""
    from types import SimpleNamespace

    fine = SimpleNamespace(st_mtime_ns=1_500_000_001, st_ctime_ns=1_700_000_003)
    whole = SimpleNamespace(st_mtime_ns=1_000_000_000, st_ctime_ns=2_000_000_000)
    assert cache._window(fine) == cache.FINE_RACY_NS < cache._window(whole) == cache.RACY_NS
    fat = SimpleNamespace(st_mtime_ns=4_000_000_000, st_ctime_ns=1_700_000_003)  # 2 s mtime steps
    set_back = SimpleNamespace(st_mtime_ns=1_000_000_000, st_ctime_ns=4_700_000_003)  # touch -d
    assert cache._window(fat) == cache.RACY_NS and cache._window(set_back) == cache.FINE_RACY_NS
    rel = "registries/agents/example-agent.yaml"
    load(proj)
    files = _entries(proj)
    st_ = (proj / rel).stat()
    files[rel][5] = max(st_.st_mtime_ns, st_.st_ctime_ns) + 500_000_000
    _rewrite(proj, files)
    confirmed: list[str] = []
    real = cache.ParseCache._confirm

    def spy(self: cache.ParseCache, entry: Any, path: Path, rel_: str, st: Any) -> bool:
        confirmed.append(rel_)
        return real(self, entry, path, rel_, st)

    monkeypatch.setattr(cache.ParseCache, "_confirm", spy)
    load(proj)
    assert rel not in confirmed


# --- same bytes under a new identity (`cache.same_bytes`) ---------------------------------------

REL = "registries/agents/example-agent.yaml"


@pytest.fixture
def settled(proj: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`proj` loaded once, with no racy window: every entry is vouched for."""
    monkeypatch.setattr(cache, "RACY_NS", 0)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 0)
    load(proj)
    return proj


def _moved(root: Path, change: Any) -> dict[str, tuple[Any, Any]]:
    """`change` applied to REL: {REL: (identity before, identity after)}."""
    path = root / REL
    before = cache.identity(path.lstat())
    change(path)
    return {REL: (before, cache.identity(path.lstat()))}


def _rewrite_same(path: Path) -> None:
    path.write_bytes(path.read_bytes())


def test_the_same_bytes_rewritten_are_confirmed_and_their_entry_rekeyed(
    settled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved = _moved(settled, _rewrite_same)
    shards = {p: p.read_bytes() for p in _shards(settled)}
    assert cache.same_bytes(settled, moved, keep=False) is True
    assert {p: p.read_bytes() for p in _shards(settled)} == shards  # keep=False: nothing written
    assert cache.same_bytes(settled, moved) is True
    assert _entries(settled)[REL][:5] == moved[REL][1]
    parsed: list[str] = []
    real = cache.ParseCache.store
    with monkeypatch.context() as patched:  # the new identity is a hit: not parsed again
        patched.setattr(
            cache.ParseCache,
            "store",
            lambda self, rel, *a: parsed.append(rel) or real(self, rel, *a),
        )
        same_as_cold(settled)
    assert REL not in parsed


@pytest.mark.parametrize(
    "change",
    [
        "same size, other bytes",
        "a byte order mark added",
        "a line added",
        "replaced by a symlink",
        "replaced by a fifo",
        "changed after the stat",
    ],
)
def test_anything_but_the_same_bytes_is_refused(settled: Path, change: str) -> None:
    path = settled / REL
    text = path.read_bytes()
    if change == "same size, other bytes":
        at = text.index(b"description: ") + len(b"description: ")
        swapped = b"Q" if text[at : at + 1] != b"Q" else b"R"
        moved = _moved(settled, lambda p: p.write_bytes(text[:at] + swapped + text[at + 1 :]))
    elif change == "a byte order mark added":  # the same text as loaded: not the same bytes
        moved = _moved(settled, lambda p: p.write_bytes(b"\xef\xbb\xbf" + text))
    elif change == "a line added":
        moved = _moved(settled, lambda p: p.write_bytes(text + b"# more\n"))
    elif change == "replaced by a symlink":
        (settled / "copy.yaml").write_bytes(text)
        moved = {REL: (cache.identity(path.lstat()), None)}
        path.unlink()
        path.symlink_to(settled / "copy.yaml")
        moved[REL] = (moved[REL][0], cache.identity(path.stat()))  # what it leads to
    elif change == "replaced by a fifo":
        moved = {REL: (cache.identity(path.lstat()), None)}
        path.unlink()
        os.mkfifo(path)
        moved[REL] = (moved[REL][0], cache.identity(path.lstat()))
    else:  # the identity the caller saw is not the file's when it is read
        moved = _moved(settled, _rewrite_same)
        _rewrite_same(path)
    shards = {p: p.read_bytes() for p in _shards(settled)}
    assert cache.same_bytes(settled, moved) is None
    assert {p: p.read_bytes() for p in _shards(settled)} == shards


def test_a_change_during_the_read_is_refused(
    settled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written again in place right after its bytes were read (they were the old ones, the
    identity looked at before the read is the old one too): the look after the read sees it."""
    moved = _moved(settled, _rewrite_same)
    real = os.fdopen

    class Handle:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> Handle:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def fileno(self) -> int:
            return int(self.handle.fileno())

        def read(self, *args: Any) -> bytes:
            data: bytes = self.handle.read(*args)
            _rewrite_same(settled / REL)
            return data

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: Handle(real(fd, *a, **k)))
    assert cache.same_bytes(settled, moved) is None


def test_an_entry_that_does_not_vouch_for_the_old_identity_is_refused(settled: Path) -> None:
    """Stored within the racy window of the change (its sha256 may be of bytes written in the
    same tick after it), or for another identity than the one recorded."""
    moved = _moved(settled, _rewrite_same)
    files = _entries(settled)
    entry = list(files[REL])
    files[REL][5] = max(entry[1], entry[2])  # recorded in the tick of the change
    _rewrite(settled, files)
    assert cache.same_bytes(settled, moved) is None
    files[REL] = entry
    _rewrite(settled, files)
    assert cache.same_bytes(settled, moved) is True
    other = {REL: ([moved[REL][0][0] + 1, *moved[REL][0][1:]], moved[REL][1])}
    assert cache.same_bytes(settled, other) is None


def test_the_same_bytes_changed_within_the_window_keep_nothing(
    settled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Confirmed, but an edit in the same tick could keep the new identity: False, and the
    entry keeps its old identity."""
    path = settled / REL
    ahead = time.time_ns() + 60_000_000_000  # a change time ahead of the clock: in the window
    moved = _moved(settled, lambda p: (_rewrite_same(p), os.utime(p, ns=(ahead, ahead))))
    assert cache.same_bytes(settled, moved) is False
    assert _entries(settled)[REL][:5] == moved[REL][0]
    assert path.exists()


def test_same_bytes_without_a_usable_cache_is_refused(settled: Path) -> None:
    moved = _moved(settled, _rewrite_same)
    assert cache.same_bytes(settled, {}) is None
    shutil.rmtree(settled / ".orkestra")
    assert cache.same_bytes(settled, moved) is None


def test_an_empty_file_replaced_by_a_fifo_is_refused(settled: Path) -> None:
    """The same size (0) and, read without blocking, the same (empty) text: only its kind
    tells."""
    rel = "registries/agents/empty.yaml"
    path = settled / rel
    path.write_bytes(b"")
    load(settled)
    before = cache.identity(path.lstat())
    assert _entries(settled)[rel][:5] == before
    path.unlink()
    os.mkfifo(path)
    assert cache.same_bytes(settled, {rel: (before, cache.identity(path.lstat()))}) is None


@pytest.mark.parametrize("how", ["renamed over", "written in place"])
def test_an_edit_between_the_stat_and_the_read_is_not_cached_under_the_old_identity(
    settled: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The loader stats a file, then reads it: a save landing in between would pair the old
    identity with the new text, which `same_bytes` would later take for the bytes the old
    identity held (an edit of the same size would pass for a save with no change)."""
    from orkestra.core import yamlio

    shutil.rmtree(settled / CACHE)
    path = settled / REL
    old = path.read_bytes()
    at = old.index(b"description: ") + len(b"description: ")
    new = old[:at] + (b"Q" if old[at : at + 1] != b"Q" else b"R") + old[at + 1 :]
    before = cache.identity(path.stat())
    real = yamlio.read_text

    def edited_first(file: Path, **kwargs: Any) -> str:
        if Path(file) == path and path.read_bytes() == old:
            if how == "renamed over":
                (settled / "new.tmp").write_bytes(new)
                (settled / "new.tmp").replace(path)
            else:
                path.write_bytes(new)
        return real(file, **kwargs)

    monkeypatch.setattr(yamlio, "read_text", edited_first)
    assert load(settled).agents["example-agent"].description.startswith(("Q", "R"))
    monkeypatch.setattr(yamlio, "read_text", real)
    entry = _entries(settled).get(REL)
    assert entry is None or entry[:5] != before
    assert cache.same_bytes(settled, {REL: (before, cache.identity(path.lstat()))}) is None
    same_as_cold(settled)


def test_a_racy_entry_is_confirmed_only_by_bytes_read_under_its_identity(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is replaced (the same bytes, a new inode) between the look at it and the
    content check: those bytes say nothing of what the old identity holds, so the entry is
    not marked settled for it (nor kept: the load parses the file itself)."""
    monkeypatch.setattr(cache, "RACY_NS", 50_000_000)  # the file's ctime cannot be set back
    monkeypatch.setattr(cache, "FINE_RACY_NS", 50_000_000)
    path = proj / REL
    past = path.stat().st_mtime_ns - 10 * cache.RACY_NS
    os.utime(path, ns=(past, past))
    time.sleep(0.1)  # its ctime (the utime) settles too: a confirmed entry would be vouched
    load(proj)
    files = _entries(proj)
    files[REL][5] = files[REL][1]  # as if recorded in the tick of the file's last change
    _rewrite(proj, files)
    before = cache.identity(path.lstat())
    real = cache.ParseCache._confirm

    def replaced_first(self: Any, entry: Any, file: Path, *rest: Any) -> bool:
        (proj / "same.tmp").write_bytes(file.read_bytes())
        (proj / "same.tmp").replace(file)
        return real(self, entry, file, *rest)

    monkeypatch.setattr(cache.ParseCache, "_confirm", replaced_first)
    load(proj)
    monkeypatch.setattr(cache.ParseCache, "_confirm", real)
    entry = _entries(proj).get(REL)
    assert entry is None or entry[:5] != before or not cache.vouched(entry)
    same_as_cold(proj)


def test_a_racy_entry_of_a_linked_registry_file_is_confirmed_through_the_link(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registry file that is a symlink inside the project is keyed by what it links to, and
    its content check reads through the link: confirmed, it is not parsed again."""
    monkeypatch.setattr(cache, "RACY_NS", 50_000_000)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 50_000_000)
    real = proj / "shared" / "agent.yaml"
    real.parent.mkdir()
    (proj / REL).replace(real)
    (proj / REL).symlink_to(real)
    load(proj)
    files = _entries(proj)
    files[REL][5] = max(files[REL][1], files[REL][2])  # recorded in the tick of the change
    _rewrite(proj, files)
    time.sleep(0.1)  # settled now: the confirmed entry is marked so
    parsed: list[str] = []
    store = cache.ParseCache.store
    monkeypatch.setattr(
        cache.ParseCache, "store", lambda self, rel, *a: parsed.append(rel) or store(self, rel, *a)
    )
    load(proj)
    assert REL not in parsed
    assert cache.vouched(_entries(proj)[REL])
    same_as_cold(proj)


# --- the entry a load replaced -------------------------------------------------------------------


def _replaced(root: Path) -> dict[str, Any]:
    return {
        k: v for s in _shards(root) for k, v in jsonio.read_sealed(s).get("replaced", {}).items()
    }


def _settled_edit(root: Path, rel: str, old: str, new: str) -> None:
    """`old` -> `new` in `rel`, its times set well before now (outside every racy window)."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    past = time.time_ns() - 10 * cache.RACY_NS
    os.utime(path, ns=(past, past))


def test_a_load_keeps_the_vouched_entry_it_replaced_for_its_identity(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another command's load moves an edited file's entry on; the entry it had (vouched)
    stays, found by its identity, until a load that does not keep them (a sync recording
    anew) or the file's removal."""
    monkeypatch.setattr(cache, "RACY_NS", 0)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 0)
    rel = "registries/agents/example-agent.yaml"
    load(proj)
    before = _entries(proj)[rel]
    _settled_edit(proj, rel, "description: ", "description: Edited, ")
    load(proj)
    now = _entries(proj)[rel]
    assert now[:5] != before[:5] and _replaced(proj) == {rel: before}
    read = cache.ParseCache(proj, {cache.shard_of(rel)})
    assert read.entry_for(rel, before[:5]) == before and read.entry_for(rel, now[:5]) == now
    assert read.entry_for(rel, [0, 0, 0, 0, 0]) is None
    same_as_cold(proj)  # replaced entries change no load; nothing rewrites them
    assert _replaced(proj) == {rel: before}
    load(proj, keep_replaced=False)
    assert _replaced(proj) == {} and _entries(proj)[rel] == now
    _settled_edit(proj, rel, "description: ", "description: Again, ")
    load(proj)
    assert _replaced(proj) == {rel: now}
    (proj / rel).unlink()
    load(proj)
    assert rel not in _replaced(proj) and rel not in _entries(proj)


def test_an_entry_stored_in_its_change_s_tick_is_not_kept_when_replaced(proj: Path) -> None:
    """Not vouched: its identity may stand for other content (a save in the same tick)."""
    rel = "registries/agents/example-agent.yaml"
    load(proj)  # the scaffold was just written: every entry is within the racy window
    _settled_edit(proj, rel, "description: ", "description: Edited, ")
    load(proj)
    assert _replaced(proj) == {}


def _with_a_replaced_entry(proj: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An agent edited once its entry settled, then loaded: its old entry is the replaced one."""
    monkeypatch.setattr(cache, "RACY_NS", 0)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 0)
    rel = "registries/agents/example-agent.yaml"
    load(proj)
    _settled_edit(proj, rel, "description: ", "description: Edited, ")
    load(proj)
    return rel


@pytest.mark.parametrize(
    "damage",
    [lambda e: e.pop(), lambda e: e.__setitem__(0, "big"), lambda e: "not an entry"],
    ids=["short", "size-not-int", "not-a-list"],
)
def test_a_malformed_replaced_entry_is_dropped(
    proj: Path, monkeypatch: pytest.MonkeyPatch, damage: Any
) -> None:
    rel = _with_a_replaced_entry(proj, monkeypatch)
    shard = proj / cache.shard_path(cache.shard_of(rel))
    data = jsonio.read_sealed(shard)
    entry = data["replaced"][rel]
    data["replaced"][rel] = damage(entry) or entry
    shard.write_bytes(jsonio.sealed(json.dumps(data)))
    read = cache.ParseCache(proj, {cache.shard_of(rel)})
    assert rel not in read.replaced and read.dirty == {cache.shard_of(rel)}
    data["replaced"] = "not a mapping"
    shard.write_bytes(jsonio.sealed(json.dumps(data)))
    assert rel not in cache.ParseCache(proj, {cache.shard_of(rel)}).files  # rebuilt


def test_no_more_than_a_few_replaced_entries_are_kept(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout touching every file, then a list command: the cache does not double."""
    monkeypatch.setattr(cache, "RACY_NS", 0)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 0)
    monkeypatch.setattr(cache, "MAX_REPLACED", 2)
    example = (proj / "registries/agents/example-agent.yaml").read_text(encoding="utf-8")
    for name in ("second-agent", "third-agent"):
        _write(proj, f"registries/agents/{name}.yaml", example.replace("example-agent", name))
        past = time.time_ns() - 10 * cache.RACY_NS
        os.utime(proj / f"registries/agents/{name}.yaml", ns=(past, past))
    example_path = proj / "registries/agents/example-agent.yaml"
    os.utime(example_path, ns=(time.time_ns() - 10 * cache.RACY_NS,) * 2)
    load(proj)
    agents = sorted((proj / "registries/agents").glob("*.yaml"))
    assert len(agents) == 3
    for path in agents:
        _settled_edit(proj, path.relative_to(proj).as_posix(), "description: ", "description: X, ")
    load(proj)
    assert len(_replaced(proj)) == 2
    first = sorted(_replaced(proj))[0]
    _settled_edit(proj, first, "description: ", "description: Y, ")
    load(proj)
    assert len(_replaced(proj)) == 2 and first in _replaced(proj)  # its own is renewed


def test_a_replaced_entry_without_its_file_s_entry_or_in_another_shard_is_dropped(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rel = _with_a_replaced_entry(proj, monkeypatch)
    shard = cache.shard_of(rel)
    other = next(n for n in range(cache.SHARDS) if n != shard)
    entry = _replaced(proj)[rel]
    for n, replaced in ((shard, {"registries/agents/gone.yaml": entry}), (other, {rel: entry})):
        path = proj / cache.shard_path(n)
        data = jsonio.read_sealed(path)
        data["replaced"] = replaced
        path.write_bytes(jsonio.sealed(json.dumps(data)))
        read = cache.ParseCache(proj, {n})
        assert read.replaced == {} and read.dirty == {n}


def _clock_ahead(monkeypatch: pytest.MonkeyPatch, ns: int) -> None:
    """This process's clock `ns` ahead of the one that stamps the files (a network file
    system whose server lags): file times stay real, every `time.time_ns()` runs ahead."""
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + ns)


def test_a_file_clock_lagging_ours_never_vouches_for_an_entry_of_a_change_just_made(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's clock 10 s behind: a file changed just now looks 10 s old by our clock.
    Recorded by our clock, its entry would vouch for it at once, and a same-size edit in the
    same timestamp tick (the identity a coarse clock keeps) would be answered from the cache
    for good. Recorded by the file system's clock (`core.clock.files_behind`), it is
    confirmed by content until the change has settled by that clock. The racy windows are
    widened to a minute: on a loaded machine more than the 100 ms window of a fine clock can
    pass between the write and the second load, and the entry then rightly vouches."""
    monkeypatch.setattr(cache, "RACY_NS", 60_000_000_000)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 60_000_000_000)
    _clock_ahead(monkeypatch, 5 * cache.RACY_NS)
    path = proj / REL
    path.write_text(path.read_text().replace("description: ", "description: Q"))
    load(proj)
    assert not cache.vouched(_entries(proj)[REL])
    load(proj)  # confirmed by content: still not settled by the file system's clock
    assert not cache.vouched(_entries(proj)[REL])
    text = path.read_text()
    path.write_text(text.replace("description: Q", "description: R"))  # the same size
    files = _entries(proj)
    files[REL][:5] = cache.identity(path.stat())  # the identity a coarse clock would have kept
    _rewrite(proj, files)
    assert load(proj).agents["example-agent"].description.startswith("R")
    same_as_cold(proj)


def test_the_same_bytes_written_again_under_a_lagging_file_clock_are_not_settled(
    settled: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rewritten just now, with the server's clock 10 s behind ours: the same bytes answer, but
    nothing is rekeyed (an edit in the same tick could keep the new identity)."""
    monkeypatch.setattr(cache, "RACY_NS", 2_000_000_000)
    monkeypatch.setattr(cache, "FINE_RACY_NS", 100_000_000)
    files = _entries(settled)
    files[REL][5] = max(files[REL][1:3]) + 5 * cache.RACY_NS  # recorded long after its change
    _rewrite(settled, files)
    moved = _moved(settled, _rewrite_same)
    _clock_ahead(monkeypatch, 5 * cache.RACY_NS)
    assert cache.same_bytes(settled, moved) is False
    assert _entries(settled)[REL][:5] == moved[REL][0]
