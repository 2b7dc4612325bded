"""Property: whatever the models accept can be dumped to YAML and reloaded to equal models."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from orkestra.core import yamlio
from orkestra.registry.models import Agent, Config, DecisionRecord, SkillFile, TruthStatement

names = st.from_regex(r"\A[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}\Z")
text = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff\x85\u2028\u2029"
    )
    | st.just("\n"),
    max_size=60,
)
one_line = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40
)
dates = st.dates().map(lambda d: d.isoformat()).filter(lambda s: len(s) == 10)
tools = st.lists(st.sampled_from(["Read", "Grep", "Bash", "mcp__srv__find"]), max_size=3)

agents = st.builds(
    Agent,
    name=names,
    description=one_line,
    category=text,
    identity=st.lists(names, max_size=3),
    mindset=st.none() | names,
    domains=st.lists(names, max_size=2),
    tools=tools,
    role=st.sampled_from(["specialist", "orchestrator"]),
    color=st.none() | st.sampled_from(["red", "blue"]),
    prompt=text,
    frontmatter_extra=st.dictionaries(
        names, st.one_of(one_line, st.integers(), st.booleans()), max_size=2
    ),
)
truths = st.builds(
    TruthStatement,
    id=st.from_regex(r"\AGT-[A-Z]{2,5}-[0-9]{3}\Z"),
    status=st.sampled_from(["current", "tentative"]),
    statement=one_line,
    rationale=text,
    evidence=st.lists(one_line, max_size=2),
    last_verified=st.none() | dates,
    tags=st.lists(one_line, max_size=3),
)
decisions = st.builds(
    DecisionRecord,
    id=st.from_regex(r"\ADEC-[A-Z]{2}-[0-9]{3}\Z"),
    title=one_line,
    domain=names,
    status=st.sampled_from(["proposed", "active"]),
    created=dates,
    summary=text,
    rationale=st.lists(text, max_size=3),
    related=st.lists(st.from_regex(r"\ADEC-[A-Z]{2}-[0-9]{3}\Z"), max_size=2),
)


def _skill(name: str, description: str, body: str, tags: list[str]) -> SkillFile:
    return SkillFile.model_validate(
        {
            "metadata": {
                "identifier": name,
                "name": name,
                "description": description,
                "layer": "K2",
            },
            "frontmatter": {"tags": tags},
            "sections": [{"title": "When to use", "body": body}],
        }
    )


skills = st.builds(_skill, names, one_line, text, st.lists(names, max_size=3))


def _roundtrip(model: BaseModel) -> Any:
    data = model.model_dump(mode="json", exclude_defaults=True, by_alias=True)
    return type(model).model_validate(yamlio.loads(yamlio.dumps(data), "x.yaml"))


@settings(max_examples=60, deadline=None)
@given(st.one_of(agents, truths, decisions, skills))
def test_dump_and_reload_is_identity(model: BaseModel) -> None:
    assert _roundtrip(model) == model


def test_config_roundtrip() -> None:
    cfg = Config.model_validate({"project": "p", "mining": {"packages": {"a": "pkgs/a/**"}}})
    assert _roundtrip(cfg) == cfg
