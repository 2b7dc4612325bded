"""The one way to open a project file for reading: regular files only, never blocking.

A FIFO, a device or a committed symlink to `/dev/zero` where a file is expected must not hang a
command or a hook (a hook that hangs freezes the agent's session) nor make it read forever: such a
path raises an `OSError` ("not a regular file") that the callers already turn into a clean error.
The file is opened with `O_NONBLOCK` (opening a FIFO then returns at once) and checked with
`fstat` on the opened descriptor, so a swap between the check and the open changes nothing.
Standard library only: the hooks use it too.
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the hook path never imports typing
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import BinaryIO


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # not on Windows, where a FIFO is no file path
_FLAGS = os.O_RDONLY | _NONBLOCK | getattr(os, "O_BINARY", 0)


def open_regular(path: str | os.PathLike[str], *, follow: bool = True) -> BinaryIO:
    """`path` opened for binary reading; `OSError` unless it is a regular file.

    A missing file raises `FileNotFoundError` and a folder `IsADirectoryError`, as `open` does;
    `follow=False` also refuses a symlink at `path` itself.
    """
    fd, _ = _opened(os.fspath(path), follow)
    return os.fdopen(fd, "rb")


def read_regular(
    path: str | os.PathLike[str], *, max_bytes: int, follow: bool = True
) -> tuple[bytes, int]:
    """(up to `max_bytes` + 1 bytes of the regular file at `path`, its size by `fstat`): the
    checks of `open_regular` with one `fstat` and plain reads, no file object (loading reads
    thousands of small files). A caller refuses a file whose size is over its limit."""
    fd, st = _opened(os.fspath(path), follow)
    try:
        if st.st_size > max_bytes:
            return b"", st.st_size
        chunks = []
        left = max_bytes + 1
        while left > 0:  # a file may grow while it is read: never more than the limit + 1
            asked = min(left, max(st.st_size + 1, 1 << 16))
            chunk = os.read(fd, asked)
            chunks.append(chunk)
            left -= len(chunk)
            # short at its end (all `fstat` promised); a short read before it (a network or
            # FUSE file system, `/proc`) reads on until an empty read says the end is there
            if not chunk or (len(chunk) < asked and max_bytes + 1 - left == st.st_size):
                break
        raw = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        return raw, max(st.st_size, len(raw))
    finally:
        os.close(fd)


def _opened(source: str, follow: bool) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file `source`, blocking again, and its `fstat`; the
    descriptor is closed when the file is not a regular one."""
    fd = os.open(source, _FLAGS | (0 if follow else getattr(os, "O_NOFOLLOW", 0)))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", source)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, device or socket)", source)
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def absent_or_kind(
    root: str | os.PathLike[str], wanted: Iterable[tuple[str, Callable[[int], bool]]]
) -> bool:
    """True when each path (relative to `root`) is absent or of its kind (`stat.S_ISDIR`,
    `stat.S_ISREG`, …), looked at without following a symlink; False when one is of another
    kind or cannot be looked at. The derived state under `.orkestra/` is read only when it is
    real files in a real folder."""
    for rel, kind in wanted:
        try:
            mode = os.lstat(os.path.join(root, rel)).st_mode  # noqa: PTH118
        except FileNotFoundError:
            continue
        except OSError:
            return False
        if not kind(mode):
            return False
    return True


def leaving(root: str | os.PathLike[str], rel: str) -> tuple[str, str] | None:
    """(the symlink, relative to `root`, and the real path it leads to) for the first symlink on
    the way to `rel` (a folder on it or the file itself) that leads outside the project at
    `root`; None when every step stays inside or is not there. What such a symlink reaches is
    never read (PRODUCT.md §13); each caller says what to do instead."""
    home = os.path.realpath(root)
    step = os.fspath(root)
    parts = rel.split("/")
    for depth, part in enumerate(parts, start=1):
        step = os.path.join(step, part)  # noqa: PTH118
        if os.path.islink(step):  # noqa: PTH114
            real = os.path.realpath(step)
            if real != home and not real.startswith(home.rstrip(os.sep) + os.sep):
                return "/".join(parts[:depth]), real
    return None


_SPECIAL = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
}


def special_kind(mode: int) -> str | None:
    """What a path of `mode` (its lstat's `st_mode`) is, said for a person, when it is none of
    a file, a folder or a symlink (a FIFO, a socket, a device: nothing Orkestra may read,
    replace or delete); None otherwise."""
    return _SPECIAL.get(stat.S_IFMT(mode))
