"""A second process that renders every other template the render cache cannot answer.

A render of the whole project that misses the cache many times (a cold sync, a changed
template, `sync --check` in a fresh clone) spends about a second in Jinja on a big registry, on
one core. Once a run has missed `FORK_AT` times, `Templates` forks a helper at that point of the
render: both processes go on through the very same sequence of renders (same registry, same
templates, same cache, all in memory), and from then on the helper renders the even-numbered
misses and the process that forked it the odd-numbered ones. The helper sends each text back
through a pipe with the cache key of the render it answers (sha256 of the template stamp, the
template's name and its exact context); the parent takes a text only for the key it computed
itself, so a text it uses is always the render of exactly what it asked for. Any surprise (the
helper fails, the sequence diverges, the pipe ends) makes the parent render the rest itself:
the result is always the one a single process gives.

The helper never writes a file and never returns from the render: `helped` ends it with
`os._exit` when the render is over (or fails), so nothing after the render runs twice. It is
used only where forking is safe: POSIX, the main thread, no other thread, two cores or more.
Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING

from orkestra.core import forking

if TYPE_CHECKING:
    from orkestra.render.environment import Templates

#: the number of cache misses after which a render forks its helper: below it, forking (a few
#: milliseconds, plus copy-on-write faults) costs more than half of the renders saves
FORK_AT = 200
_HEADER = struct.Struct("!I32sI")  # miss number, cache key, length of the UTF-8 text
_NOTHING = b"\0" * 32  # the helper could not render this miss: the parent does


class Helper(forking.Forked):
    """One forked render helper and its pipe, seen from either side."""

    def __init__(self) -> None:
        super().__init__()
        self.misses = 0  # misses counted since the fork
        self.broken = False  # the parent renders everything itself from now on

    def mine(self) -> bool:
        """Whether this process renders the next miss (counts it)."""
        number = self.misses
        self.misses += 1
        return (number % 2 == 0) == self.child

    # --- the helper's side -------------------------------------------------------------------

    def answer(self, key: bytes, text: str | None) -> None:
        """Send the helper's text for its latest miss (None: it could not render it)."""
        data = b"" if text is None else text.encode("utf-8", "surrogatepass")
        header = _HEADER.pack(self.misses - 1, _NOTHING if text is None else key, len(data))
        self.send(header + data)

    # --- the parent's side -------------------------------------------------------------------

    def take(self, key: bytes) -> str | None:
        """The helper's text for the latest miss, which has cache key `key`; None (and the
        helper is dropped) when it cannot give exactly that."""
        if self.broken:
            return None
        assert self.reader is not None
        try:
            header = self.reader.read(_HEADER.size)
            if len(header) != _HEADER.size:
                raise EOFError("the helper ended early")
            number, sent, size = _HEADER.unpack(header)
            data = self.reader.read(size)
            if len(data) != size:
                raise EOFError("the helper ended mid-text")
        except (OSError, EOFError, struct.error):
            self.stop()
            return None
        if number != self.misses - 1 or sent != key:  # out of step, or it could not render
            self.stop()
            return None
        text: str = bytes(data).decode("utf-8", "surrogatepass")
        return text

    def stop(self) -> None:
        """Render alone from now on: the helper is ended and reaped."""
        self.broken = True
        super().stop()


@contextlib.contextmanager
def helped(templates: Templates) -> Iterator[None]:
    """The block that renders: in a helper forked inside it, the process ends with the block
    (status 0 when the render finished, 1 when it failed); in the parent, the helper is reaped."""
    failed = True
    try:
        yield
        failed = False
    finally:
        helper = templates.helper
        if helper is not None:
            if helper.child:
                with contextlib.suppress(OSError):
                    os.close(helper.fd)
                os._exit(1 if failed else 0)
            if failed:  # its renders are of no use now
                helper.stop()
            helper.reap()
            templates.helper = None
