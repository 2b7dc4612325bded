"""`registries/orkestra.yaml` validated by the `Config` model, for commands that need only it.

The loader (`registry.loader`) reports the same problems as findings; commands that read the
config alone (mining, changelog, knowledge settings when the light reader cannot answer) use this.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from orkestra.core import project, yamlio

if TYPE_CHECKING:
    from orkestra.registry.models.config import Config


def read_config(root: Path) -> dict[str, Any]:
    """`orkestra.yaml` as plain values (a `yamlio.LineDict`: lines kept for error messages).

    A missing or empty file is `{}` (every key has a default). Unreadable or invalid YAML raises
    `InputError` with file:line. The hooks use `core.project.read_light` instead (no PyYAML).
    """
    path = project.config_path(root)
    if not path.is_file():
        return yamlio.LineDict(1)
    return yamlio.load_mapping(path, display=project.CONFIG, allow_empty=True)


def load_config(root: Path) -> Config:
    """The validated config; defaults when the file is missing; `InputError` with file:line."""
    from pydantic import ValidationError  # only here: reading the plain values needs no pydantic

    from orkestra.registry.models.config import Config

    data = read_config(root)
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        from orkestra.registry.loader import refused  # what validate says, word for word

        raise refused(exc, data, Config, project.CONFIG) from None
