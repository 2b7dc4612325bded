"""The changelog's lazy view of the commit index agrees with the decoded records."""

from __future__ import annotations

from orkestra.mining import index
from orkestra.mining.sync import sync
from tests.mining.gitrepo import GitRepo


def test_parents_and_revert_candidates_read_from_the_line(repo: GitRepo) -> None:
    base = repo.commit("feat(core): a", {"packages/core/a.py": "a\n"})
    repo.git("checkout", "-q", "-b", "side")
    repo.commit("fix(cli): b", {"packages/cli/b.py": "b\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("feat(core): c", {"packages/core/c.py": "c\n"})
    repo.tick += 1
    repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side")
    repo.tick += 1
    repo.git("revert", "--no-edit", base)
    sync(repo.path)
    lazy = index.LazyRecords(repo.path)
    records = {r["sha"]: r for r in index.records(repo.path)}
    assert list(lazy) == list(records) and len(lazy) == 6
    assert {sha: lazy.parents(sha) for sha in lazy} == {
        sha: r["parents"] for sha, r in records.items()
    }
    assert any(len(lazy.parents(sha)) == 2 for sha in lazy)  # the merge
    assert lazy.parents(next(iter(lazy))) == []  # the root commit
    reverts = [sha for sha, r in records.items() if r["signals"]["reverts"]]
    assert reverts and set(reverts) <= set(lazy.maybe_reverts())
    assert len(list(lazy.maybe_reverts())) == 1
    assert lazy[reverts[0]] == records[reverts[0]]
