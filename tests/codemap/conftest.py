"""Code map tests need the optional `code` extra; without it they skip with the reason."""

from __future__ import annotations

import pytest

from orkestra.codemap import languages

needs_tree_sitter = pytest.mark.skipif(
    not languages.available(),
    reason=f"tree-sitter is not installed ({languages.INSTALL_HINT})",
)
