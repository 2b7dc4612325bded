"""Property: the light reader of orkestra.yaml and the `Config` model never disagree.

Configs are generated from spellings that matter (quoted keys, comments after a space or a tab,
YAML 1.1 booleans, numbers, paths the model refuses, flow and block styles, lists of mappings and
block scalars around the knowledge block). Whenever the light reader answers, the model accepts
the file and gives the same `project` and `knowledge`; otherwise the light reader says `NotLight`.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from orkestra.core import project, yamlio
from orkestra.core.errors import InputError
from orkestra.registry.models.config import Config

BOOLS = ["true", "false", "yes", "no", "on", "off", "True", "FALSE", "1", "0", "2", '"true"',
         "'no'", "~", "", "y", "tru"]  # fmt: skip
PATHS = ["knowledge", "docs/kb", "docs/kb/", "/etc", "../x", "a/../b", "'kb'", '"docs/kb"',
         "./kb", ".", "..", "2026-01-01", "1.5", "12", "x:y", "a b", '"a#b"', "kb#x", "null",
         "'C:/x'", "\"\"", "&a kb", "!!str kb", "[kb]", "k\u00e9"]  # fmt: skip
AGES = ["1", "30", "0", "-1", "0x10", "1_0", '"30"', "30.0", "007", "+5", "yes", "~"]
PROJECTS = ["demo", "'demo'", '"my app"', "12", "yes", "~", "a: b", "|\n  multi\n  line",
            "x # c", "'it''s'", '"esc\\"aped"', "[a]"]  # fmt: skip
KEYS = ["path", "commit", "push", "verified_max_age_days", "repos", "extra"]
TAIL = ["", " # note", "\t# tab note", "  #", "#glued"]
OTHERS = [
    "targets:\n  - claude\n  - cursor\n",
    "targets:\n- claude\n",
    "targets: [claude, codex]\n",
    "truths: {}\n",
    "truths:\n  stale_after_days: 30\n",
    "vendor_roots:\n  - path: vendor/skills\n    provider: acme\n    default_scopes: [core]\n",
    "vendor_roots:\n  - path: vendor/skills\n    provider: acme\n    default_scopes:\n      - core\n",
    "vendor_roots:\n- path: vendor/skills\n  default_scopes:\n  - core\n  provider: acme\n",
    "mining:\n  packages:\n    core: 'src/core/**'\n  releasable_types: [feat, fix]\n",
    "mining:\n  packages:\n    vite: packages/vite\n    cv: packages/create-vite/\n",
    "render:\n  claude_md: true  # on\n",
    "mcp: {serve: true}\n",
    "mcp:\n  serve: false\n  command: [uvx, orkestra]\n",
    "# a comment line\n",
    "\n",
]


def _key(name: str, style: int) -> str:
    return [name, f'"{name}"', f"'{name}'", f"{name} "][style]


@st.composite
def knowledge_block(draw: st.DrawFn) -> str:
    keys = draw(st.lists(st.sampled_from(KEYS), max_size=5))
    if draw(st.booleans()) and "repos" not in keys:  # flow style on one line
        pairs = [f"{k}: {draw(st.sampled_from(_values(k)))}" for k in keys]
        return "knowledge: {" + ", ".join(pairs) + "}" + draw(st.sampled_from(TAIL)) + "\n"
    lines = ["knowledge:" + draw(st.sampled_from(["", " # kb", "\t# kb"]))]
    indent = " " * draw(st.sampled_from([2, 4]))
    for name in keys:
        key = _key(name, draw(st.integers(0, 3)))
        if name == "repos":
            repos = draw(st.sampled_from(["", " {}", " {a: b}", " ~"]))
            lines.append(f"{indent}{key}:{repos}")
            if not repos:
                for repo in draw(st.lists(st.sampled_from(["core", "'web'", "ui"]), max_size=2)):
                    url = draw(st.sampled_from(["git@x:y.git", "'https://x/y'", "true", "12"]))
                    lines.append(f"{indent}  {repo}: {url}")
            continue
        value = draw(st.sampled_from(_values(name)))
        lines.append(f"{indent}{key}: {value}{draw(st.sampled_from(TAIL))}".rstrip(" "))
    return "\n".join(lines) + "\n"


def _values(key: str) -> list[str]:
    return {"path": PATHS, "verified_max_age_days": AGES, "repos": ["{}", "{a: b}"]}.get(key, BOOLS)


@st.composite
def config_text(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(OTHERS), max_size=3, unique=True))
    if draw(st.booleans()):
        parts.append(f"project: {draw(st.sampled_from(PROJECTS))}\n")
    if draw(st.integers(0, 4)):
        parts.append(draw(knowledge_block()))
    order = draw(st.permutations(parts))
    return "".join(order)


def _model(text: str) -> dict[str, Any] | None:
    """What the schema gives for `project` and `knowledge`, or None when it rejects the file."""
    try:
        data = yamlio.loads(text, project.CONFIG)
        cfg = Config.model_validate(data if data is not None else {})
    except (InputError, ValueError):  # pydantic's ValidationError is a ValueError
        return None
    return {"project": cfg.project, "knowledge": cfg.knowledge.model_dump()}


def _light(text: str) -> dict[str, Any] | None:
    try:
        return project.light_values(text)
    except project.NotLight:
        return None


@settings(max_examples=400, deadline=None)
@given(config_text())
def test_the_light_reader_agrees_with_the_model(text: str) -> None:
    light = _light(text)
    if light is not None:
        assert repr(light) == repr(_model(text)), text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "project: demo\n",
        "project: demo\ntargets:\n  - claude\nknowledge:\n  path: docs/kb  # kb\n  commit: yes\n",
        "knowledge: {path: kb, push: true}\n",
        "knowledge:\n    'commit': on\t# tab\n    \"push\": false\n    verified_max_age_days: 30\n",
        "vendor_roots:\n  - path: v\n    provider: p\nknowledge:\n  repos:\n    core: git@x:y.git\n",
        "render:\n  claude_md: true\nknowledge:\n  path: ./kb\n",  # `.` itself is refused
        # a key of a skipped list item whose value is on the next lines (as `orkestra import`
        # and `yamlio.dumps` write lists): it used to crash the reader on every hook call
        "vendor_roots:\n  - path: v\n    provider: p\n    default_scopes:\n      - core\nknowledge:\n  path: kb\n",
        "vendor_roots:\n- path: v\n  default_scopes:\n  - core\n  provider: p\nproject: demo\n",
    ],
)
def test_the_light_reader_answers_plain_configs(text: str) -> None:
    light = _light(text)
    assert light is not None and repr(light) == repr(_model(text))


@pytest.mark.parametrize(
    "text",
    [
        # a quoted value of a skipped list item runs on at column 0: `knowledge:` is inside it
        'vendor_roots:\n  - provider: acme\n    path: "vendor\nknowledge: {commit: true}\n  x"\n',
        'vendor_roots:\n  - provider: acme\n    path: "vendor\nknowledge: {commit: true}\nz: x"\n',
        "render:\n  claude_md_path: 'x\nknowledge: {commit: true}\n  y.md'\n",
        "project: |\n  knowledge: {commit: true}\n",
        "targets: [claude,\n  cursor]\nknowledge: {commit: true}\n",
    ],
)
def test_values_running_over_lines_are_never_guessed(text: str) -> None:
    assert _model(text) is not None  # valid YAML the subset reader must not misread
    assert _light(text) is None
