"""The OS refusing a named path is the user's to fix, not an internal error (PRODUCT.md §4, §13).

Found by the issue 11 review: a folder where a derived cache file goes (`.orkestra/code.sqlite`,
`.orkestra/search.sqlite3`, `.orkestra/mining/index.json`, ...) made `search`, `code search` and
every `mine` command exit 3 with "internal error: IsADirectoryError". An `OSError` that names a
path and a cause from the environment (a folder or file in the way, no permission, a full or
read-only disk, a symlink loop, a name too long) is exit 1 with the path and the cause.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest

from orkestra.cli.errors import report
from orkestra.core.errors import ExitCode
from orkestra.scaffold import init_project
from tests.mining.gitrepo import GitRepo


@pytest.mark.parametrize(
    "code",
    [
        errno.EISDIR,
        errno.ENOTDIR,
        errno.EACCES,
        errno.EPERM,
        errno.ENOSPC,
        errno.EROFS,
        errno.ELOOP,
    ],
)
def test_an_os_refusal_naming_a_path_is_exit_1_with_path_and_cause(
    code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    exc = OSError(code, "the cause", "/p/.orkestra/x")
    assert report(exc) == ExitCode.CHECK_FAILED
    err = capsys.readouterr().err
    assert "/p/.orkestra/x" in err and "the cause" in err and "internal error" not in err


@pytest.mark.parametrize(
    "exc", [OSError(errno.ENOENT, "gone", "/p/x"), OSError(errno.EISDIR, "no path"), ValueError()]
)
def test_anything_else_stays_an_internal_error(
    exc: BaseException, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report(exc) == ExitCode.INTERNAL
    assert "internal error" in capsys.readouterr().err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "proj")
    init_project(repo.path)
    repo.commit("feat: first", {"src/a.py": "def a():\n    return 1\n"})
    return repo.path


@pytest.mark.parametrize(
    ("cache", "args"),
    [
        (".orkestra/mining/index.json", ("mine", "status")),
        (".orkestra/mining/commits.idx", ("mine", "candidates")),
        (".orkestra/search.sqlite3", ("search", "agent")),
    ],
)
def test_a_folder_where_a_cache_file_goes_is_a_clear_error(
    project: Path, cli: Any, cache: str, args: tuple[str, ...]
) -> None:
    (project / cache).mkdir(parents=True)
    result = cli(*args, cwd=project)
    assert result.exit_code == 1, result.stderr
    assert cache in result.stderr and "internal error" not in result.stderr
