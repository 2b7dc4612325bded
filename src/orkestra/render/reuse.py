"""Rendered text reused across syncs when a template's inputs did not change.

A template's output is a function of the template sources and the context it is given (the
environment is sandboxed, with no clock and no I/O), so the text is kept in
`.orkestra/render-cache.sqlite` keyed by sha256(stamp, template name, context): the stamp covers
every template file (project and bundled), the filters' code and the code they call, and the
versions of Orkestra, Jinja, PyYAML and Python. A context is serialised exactly (`marshal` version 0: a tuple is not a list, True is
not 1); one holding anything else is rendered and not kept. Each text is stored with its own
sha256 and checked on use: a damaged entry is rendered again, a damaged or foreign file is
replaced. The cache is an optimisation: when it cannot be opened or written, sync renders
everything, as it would without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import sqlite3
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from orkestra.core.errors import OrkestraError

NAME = ".orkestra/render-cache.sqlite"
SCHEMA = 1
BUSY_TIMEOUT_S = 5.0


#: the sources whose code shapes a rendered text beside the templates, relative to the package:
#: the environment, the filters (`render.text`) and what they call (YAML scalars read back by
#: PyYAML in `core.yamlio`, Orkestra's mark in `registry.render_lock`)
_SOURCES = ("render/environment.py", "render/text.py", "core/yamlio.py", "registry/render_lock.py")


def stamp(root: Path, folders: list[Path]) -> bytes:
    """What every cached text depends on besides its context: the versions of Orkestra, Jinja,
    PyYAML (with or without its C library) and Python, the code of `_SOURCES` and every
    template file."""
    import jinja2
    import yaml

    from orkestra import __version__
    from orkestra.registry.render_lock import mark_line

    libraries = f"{jinja2.__version__}|{yaml.__version__}|{yaml.__with_libyaml__}"
    versions = f"{SCHEMA}|{__version__}|{libraries}|{sys.version}|{mark_line('-')}"
    digest = hashlib.sha256(versions.encode())
    package = Path(__file__).parent.parent
    for source in (*(package / rel for rel in _SOURCES), *_files(folders)):
        digest.update(str(source).encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.digest()


def _files(folders: list[Path]) -> list[Path]:
    """Every template file, read through a symlinked folder too (as the loader reads it)."""
    from orkestra.render.template_paths import template_files

    return [path for folder in folders if folder.is_dir() for _, path in template_files(folder)]


class RenderCache:
    """The texts of one project's previous renders; `save` writes back what this run changed."""

    def __init__(self, root: Path, stamp_: bytes) -> None:
        self.root = root
        self.stamp = stamp_
        self._base = hashlib.sha256(stamp_)
        self.used: set[bytes] = set()
        self.new: dict[bytes, str] = {}
        self.known: dict[bytes, tuple[bytes, str]] = {}
        self.conn = self._open()
        if self.conn is not None:
            self.known = self._rows(self.conn)

    # --- reading -------------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection | None:
        from orkestra.core import safewrite

        path = self.root / NAME
        try:  # a real folder inside the project, never through a symlink
            safewrite.check_target(self.root, NAME)
            path.parent.mkdir(exist_ok=True)
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except (OSError, OrkestraError, sqlite3.Error):  # no cache this run (read-only, ...)
            return None
        try:
            _tune(conn)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA:
                _create(conn)
            return conn
        except sqlite3.OperationalError:  # busy (another sync creating it): no cache this run
            conn.close()
            return None
        except sqlite3.DatabaseError:  # not a database, or damaged: replaced by an empty one
            conn.close()
            return self._replace(path)

    def _replace(self, path: Path) -> sqlite3.Connection | None:
        for name in (path, path.with_name(path.name + "-journal")):
            with contextlib.suppress(FileNotFoundError):
                name.unlink()
        try:
            conn = _tune(sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None))
            _create(conn)
        except sqlite3.Error:  # still unusable: render without a cache
            return None
        return conn

    def _rows(self, conn: sqlite3.Connection) -> dict[bytes, tuple[bytes, str]]:
        try:
            rows = conn.execute("SELECT key, sha, text FROM entries").fetchall()
        except sqlite3.Error:
            return {}
        return {
            key: (sha, text)
            for key, sha, text in rows
            if isinstance(key, bytes) and isinstance(sha, bytes) and isinstance(text, str)
        }

    def key(self, name: str, context: Mapping[str, Any]) -> bytes | None:
        """The cache key of one render, or None when the context cannot be serialised exactly."""
        plain = context if type(context) is dict else dict(context)
        try:
            blob = marshal.dumps((name, plain), 0)
        except ValueError:  # an object in the context: rendered every time
            return None
        digest = self._base.copy()
        digest.update(blob)
        return digest.digest()

    def get(self, key: bytes) -> str | None:
        """The text rendered last time for `key`, if it is still intact."""
        item = self.known.get(key)
        if item is None:
            return None
        sha, text = item
        if hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest() != sha:
            return None  # damaged: rendered again (and replaced on save)
        self.used.add(key)
        return text

    def put(self, key: bytes, text: str) -> None:
        self.new[key] = text
        self.used.add(key)

    # --- writing -------------------------------------------------------------------------------

    def save(self) -> None:
        """Store new texts and drop those this run did not use (a render of the whole project
        uses every text that is still current)."""
        conn = self.conn
        stale = [k for k in self.known if k not in self.used]
        if conn is None or not (self.new or stale):
            return
        rows = [(k, hashlib.sha256(t.encode("utf-8", "surrogatepass")).digest(), t)
                for k, t in self.new.items()]  # fmt: skip
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", rows)
            conn.executemany("DELETE FROM entries WHERE key = ?", [(k,) for k in stale])
            conn.execute("COMMIT")
        except sqlite3.Error:  # busy (another sync) or read-only: this run's texts are not kept
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            return
        self.known.update({k: (sha, t) for k, sha, t in rows})
        for k in stale:
            del self.known[k]
        self.new.clear()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _tune(conn: sqlite3.Connection) -> sqlite3.Connection:
    """No fsync for a derived cache (a damaged file or text is detected and replaced): its
    writes must not compete with the outputs' durable writes."""
    conn.execute("PRAGMA synchronous = OFF")
    return conn


def _create(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("DROP TABLE IF EXISTS entries")
    conn.execute(
        "CREATE TABLE entries (key BLOB PRIMARY KEY, sha BLOB NOT NULL, text TEXT NOT NULL)"
    )
    conn.execute(f"PRAGMA user_version = {SCHEMA}")


def open_cache(root: Path, folders: list[Path]) -> RenderCache:
    """The render cache of `root` for templates found in `folders` (project first)."""
    return RenderCache(root, stamp(root, folders))


__all__ = ["NAME", "RenderCache", "open_cache", "stamp"]
