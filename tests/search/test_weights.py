"""The one weights table: declared beside the models, used by search, shown in docs/search.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from orkestra.registry.models import (
    Agent,
    DecisionRecord,
    Scope,
    SkillFile,
    SkillMd,
    TruthStatement,
    search_fields,
)
from orkestra.search import scoring, weights
from orkestra.search.corpus import MemoryCorpus
from orkestra.search.document import TYPES, Document
from orkestra.search.rank import rank

DOC = Path(__file__).resolve().parents[2] / "docs" / "search.md"


def test_search_md_weights_are_generated_from_the_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert weights.markdown() in text, (
        "regenerate: python -m orkestra.search.weights docs/search.md"
    )
    assert weights.with_table(text) == text


def test_doc_generator_refuses_a_doc_without_markers() -> None:
    with pytest.raises(ValueError, match="markers are missing"):
        weights.with_table("# Search\n")


def test_every_type_is_declared_once_in_tie_break_order() -> None:
    assert tuple(search_fields.KINDS) == TYPES
    assert weights.WEIGHTS is search_fields.WEIGHTS


@pytest.mark.parametrize(
    ("model", "kind"),
    [
        (Agent, "agents"),
        (SkillFile, "skills"),
        (SkillMd, "skills"),
        (Scope, "scopes"),
        (TruthStatement, "truths"),
        (DecisionRecord, "decisions"),
    ],
)
def test_each_model_carries_its_declaration(model: type, kind: str) -> None:
    assert model.SEARCH_FIELDS is search_fields.KINDS[kind]
    assert "SEARCH_FIELDS" not in model.model_fields  # a class attribute, not a key


def test_notes_are_searched_by_their_tags() -> None:
    # the live notes weights carry tags 3 (the second, unused table once did not)
    assert search_fields.NOTES.weights == {"title": 6, "aliases": 6, "tags": 3, "body": 2}


def skill(name: str, description: str) -> Document:
    values = {"name": name, "description": description}
    return weights.build(
        "skills", name, description, f"registries/skills/k1/{name}.yaml", 1, values
    )


def test_a_skill_name_outweighs_its_description() -> None:
    docs = [skill("stream-tools", "Consume kafka topics"), skill("kafka-consumer", "Read topics")]
    hits = rank(MemoryCorpus(docs), "kafka").hits
    assert [(h.id, h.matched_fields) for h in hits] == [
        ("kafka-consumer", ("name",)),
        ("stream-tools", ("description",)),
    ]
    assert hits[0].score > hits[1].score


def test_same_field_bonus_by_hand() -> None:
    # both words exact in the title (5): relevance 5, coverage 1, plus 0.5 * 5 for one field
    values = {"id": "DEC-AA-001", "title": "Adopt kafka streams", "context": "kafka"}
    docs = [
        weights.build(
            "decisions", "DEC-AA-001", "t", "registries/decisions/records/a.yaml", 1, values
        )
    ]
    assert rank(MemoryCorpus(docs), "kafka streams").hits[0].id == "DEC-AA-001"
    # the fields retriever's score: fields id 6, title 5, context 3
    got = scoring.score({1: [1.0, 1.0], 2: [1.0, 0.0]}, [6.0, 5.0, 3.0], 2, exact_id=False)
    assert got == pytest.approx(5 + 0.1 * 3 / 2 + 0.5 * 5)
    assert scoring.score({0: [1.0, 1.0]}, [4.0], 2, exact_id=False) == 4 + 2
    assert scoring.score({0: [1.0, 0.0], 1: [0.0, 1.0]}, [4.0, 4.0], 2, exact_id=False) == 4


def test_the_keys_search_accepts_are_the_models_keys() -> None:
    """`search_fields.KEYS` (search reads files without the models) is what each model takes:
    a field added to a model and not here would have search warn about valid files."""
    from orkestra.registry.models import agents, decisions, skills, truths
    from orkestra.registry.models.search_fields import KEYS

    models = {
        "agent": agents.Agent,
        "skill": skills.SkillFile,
        "skill metadata": skills.SkillMetadata,
        "truth": truths.TruthStatement,
        "decision": decisions.DecisionRecord,
    }
    assert set(KEYS) == set(models)
    for kind, model in models.items():
        assert model.model_config.get("extra") == "forbid", kind
        accepted = {field.alias or name for name, field in model.model_fields.items()}
        assert accepted == KEYS[kind], kind
