"""Properties: whatever the content, rendering twice changes nothing and output parses back."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orkestra.core import yamlio
from orkestra.render.sync import sync
from orkestra.scaffold import init_project

_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=1,
    max_size=80,
).filter(lambda s: s.strip() != "")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    description=_text,
    # NUL and lone surrogates are refused on reading (ORK001), so they never reach a render
    prompt=st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=200
    ),
)
def test_render_twice_no_change_and_frontmatter_parses(description: str, prompt: str) -> None:
    root = Path(tempfile.mkdtemp(prefix="orkestra-prop-"))
    try:
        init_project(root)
        (root / "registries/agents/odd.yaml").write_text(
            yamlio.dumps({"name": "odd", "description": description, "prompt": prompt}),
            encoding="utf-8",
        )
        sync(root)
        text = (root / ".claude/agents/odd.md").read_text(encoding="utf-8")
        head = text.split("---\n", 2)[1]
        assert yaml.safe_load(head)["description"] == description.strip()
        assert sync(root).written == 0
    finally:
        shutil.rmtree(root)
