"""core.project: one root finder, one reader of orkestra.yaml (full and light)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orkestra.core import project
from orkestra.core.errors import ExitCode, InputError
from orkestra.knowledge import settings
from orkestra.registry.config_file import load_config, read_config
from orkestra.registry.models.config import Config, KnowledgeConfig
from tests.conftest import write


@pytest.fixture(autouse=True)
def _no_pinned_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(project.ENV, raising=False)


def test_nearest_folder_holding_registries(tmp_path: Path) -> None:
    (tmp_path / "registries").mkdir()
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert project.find_root(None, nested) == tmp_path.resolve()
    assert project.find_root(None, tmp_path) == tmp_path.resolve()


def test_cwd_is_the_default_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "registries").mkdir()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert project.find_root() == tmp_path.resolve()


def test_explicit_root_wins_over_env_and_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        (folder / "registries").mkdir(parents=True)
    monkeypatch.setenv(project.ENV, str(two))
    assert project.find_root(str(one), one) == one.resolve()
    assert project.find_root(None, one) == two.resolve()  # the env beats the cwd
    assert project.find_root("", one) == two.resolve()  # an empty --root is no --root


def test_no_project_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(project.ProjectNotFound) as caught:
        project.find_root(None, tmp_path)
    assert caught.value.exit_code == ExitCode.CHECK_FAILED
    assert f"no registries/ folder in {tmp_path.resolve()} or any parent" in caught.value.message
    assert "orkestra init" in caught.value.message


@pytest.mark.parametrize("how", ["explicit", "env"])
def test_a_named_root_without_registries_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    missing = tmp_path / "nope"
    (tmp_path / "registries").mkdir()  # a project around it must not be picked instead
    if how == "env":
        monkeypatch.setenv(project.ENV, str(missing))
    with pytest.raises(project.ProjectNotFound) as caught:
        project.find_root(str(missing) if how == "explicit" else None, tmp_path)
    source = "--root" if how == "explicit" else project.ENV
    assert caught.value.message.startswith(f"{source} {missing}: no registries/ folder")


def test_read_config_missing_empty_and_invalid(tmp_path: Path) -> None:
    assert read_config(tmp_path) == {}
    write(tmp_path, project.CONFIG, "")
    assert read_config(tmp_path) == {}
    write(tmp_path, project.CONFIG, "project: x\nproject: y\n")
    with pytest.raises(InputError) as caught:
        read_config(tmp_path)
    assert (caught.value.file, caught.value.line) == (project.CONFIG, 2)


def test_load_config_points_at_the_line(tmp_path: Path) -> None:
    write(tmp_path, project.CONFIG, "project: x\nknowledge:\n  commit: 2\n")
    with pytest.raises(InputError) as caught:
        load_config(tmp_path)
    assert str(caught.value).startswith("registries/orkestra.yaml:3: knowledge.commit:")


#: the inputs on which the hooks' line parser and knowledge/settings used to disagree, and more
EIGHT = {
    "commit-1": "knowledge:\n  commit: 1\n",
    "tab-before-comment": "knowledge:\n  commit: true\t# yes\n",
    "quoted-key": "knowledge:\n  \"commit\": true\n  'path': kb\n",
    "absolute-path": "knowledge:\n  path: /etc\n",
    "yes": "knowledge:\n  commit: yes\n  push: on\n",
    "flow": "knowledge: {path: docs/kb, push: true}\n",
    "escape": "knowledge:\n  path: ../escape\n",
    "comments": "project: demo # name\nknowledge: # block\n  path: docs/kb/ # here\n",
}


def _model(text: str, tmp_path: Path) -> dict[str, Any] | str:
    write(tmp_path, project.CONFIG, text)
    try:
        cfg = load_config(tmp_path)
    except InputError as exc:
        return f"error:{exc.line}"
    return {"project": cfg.project, "knowledge": cfg.knowledge.model_dump()}


@pytest.mark.parametrize("name", sorted(EIGHT))
def test_light_reader_never_disagrees_with_the_model(name: str, tmp_path: Path) -> None:
    text = EIGHT[name]
    model = _model(text, tmp_path)
    try:
        light: dict[str, Any] | str = project.read_light(tmp_path)
    except project.NotLight as exc:
        assert exc.file == project.CONFIG and exc.line is not None
        light = "unsure"
    if isinstance(model, str):
        assert light == "unsure"  # the model rejects it: no value may come out
    else:
        assert repr(light) in (repr(model), repr("unsure"))


EXPECTED = {  # name -> (light answers, knowledge.commit, knowledge.path) as the model reads it
    "commit-1": (False, True, "knowledge"),
    "tab-before-comment": (True, True, "knowledge"),
    "quoted-key": (True, True, "kb"),
    "yes": (True, True, "knowledge"),
    "flow": (True, False, "docs/kb"),
    "comments": (True, False, "docs/kb"),
}


@pytest.mark.parametrize("name", sorted(EIGHT))
def test_knowledge_settings_follow_the_model(name: str, tmp_path: Path) -> None:
    write(tmp_path, project.CONFIG, EIGHT[name])
    if name not in EXPECTED:  # /etc and ../escape: invalid, reported with the line
        with pytest.raises(InputError) as caught:
            settings.load(tmp_path)
        assert (caught.value.file, caught.value.line) == (project.CONFIG, 2)
        return
    answers, commit, path = EXPECTED[name]
    try:
        project.read_light(tmp_path)
        answered = True
    except project.NotLight:
        answered = False
    assert answered is answers
    cfg = settings.load(tmp_path)
    assert (cfg.commit, cfg.path) == (commit, path)


def test_light_defaults_are_the_models() -> None:
    assert KnowledgeConfig().model_dump() == project.KNOWLEDGE_DEFAULTS
    assert Config().project == project.PROJECT_DEFAULT
    assert project.light_values("") == {
        "project": Config().project,
        "knowledge": KnowledgeConfig().model_dump(),
    }


def test_a_pinned_today_that_is_not_a_date_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, project: Path, cli: Any
) -> None:
    from orkestra.core.clock import today
    from orkestra.core.errors import UsageError

    monkeypatch.setenv("ORKESTRA_TODAY", "garbage")
    with pytest.raises(UsageError, match="ORKESTRA_TODAY='garbage' is not a date"):
        today()
    result = cli("validate", cwd=project)
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.stderr


def test_within_reads_a_path_as_the_project_names_it(tmp_path: Path) -> None:
    """One reading of a named path (code map, note lookups, MCP context_for): absolute under
    any spelling of the root, `./`, `//` and `x/../` dropped, anything leaving it None."""
    from orkestra.core.project import within

    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(root)
    assert within(root, "src/./a.py") == within(root, "src//x/../a.py") == "src/a.py"
    assert within(root, str(root / "src" / "a.py")) == "src/a.py"
    assert within(root, str(link / "src" / "a.py")) == "src/a.py"  # a cwd under the link
    assert within(root, "../elsewhere/a.py") is None and within(root, "..") is None
    assert within(root, "/etc/hostname") is None
