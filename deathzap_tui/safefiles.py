"""Opening the files the app keeps without ever following a link (issue 19).

A saves folder is shared ground: a symbolic link planted at ``NAME.toml.lock`` once
made ``deathzap host`` truncate the file it pointed to, outside the folder. So every
file the app writes (snapshots, journals, caches, locks, settings, "seen" marks, the
action in progress, reports, force files, the SSH host key) and every file of a save
it reads is opened through here:

- :func:`open_regular` opens with ``O_NOFOLLOW`` (a link at the last component is
  refused, never followed, even with ``O_CREAT``) and refuses anything that is not a
  regular file (a FIFO would hang a reader, a device is nobody's save);
- :func:`write_atomic` replaces a file whole or not at all: a new temporary file
  (``O_EXCL``), fsync, rename, fsync of the folder. A rename replaces a link itself,
  never the file it points to;
- :func:`remove_stale_temps` takes away the temporary files of writes that were
  interrupted (killed, power lost), once they are certainly stale.

A refusal is an :class:`UnsafeFile`, an ``OSError`` whose message names the path and
what is wrong with it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
import time
from pathlib import Path

STALE_AFTER = 60.0
"""Seconds after which a temporary file of ours is certainly left by an interrupted
write, whoever may be writing: an atomic write keeps one for the milliseconds it
takes to write and fsync."""
_TEMP = r"\.[a-z0-9_]{8}\.tmp"
"""What :func:`write_atomic` adds to ``.NAME`` (``tempfile.mkstemp``'s random part)."""


class UnsafeFile(OSError):
    """A path the app will not open: a symbolic link, a FIFO, a device, a folder."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def open_regular(path: str | os.PathLike[str], flags: int, mode: int = 0o600) -> int:
    """``os.open(path, flags, mode)`` for a regular file only, never through a link at
    ``path``; the file descriptor (close-on-exec). Raises ``FileNotFoundError`` as
    ``os.open`` does, :class:`UnsafeFile` for a link or anything but a regular file."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile(errno.ELOOP, "a symbolic link, which deathzap never follows",
                             str(path)) from None
        if exc.errno in (errno.ENXIO, errno.EISDIR):  # a socket, a FIFO, a folder
            raise UnsafeFile(exc.errno, "not a regular file", str(path)) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeFile(errno.EINVAL, "not a regular file", str(path))
    return fd


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file (see :func:`open_regular`) of at most
    ``limit`` bytes. Raises ``FileNotFoundError``, or ``OSError`` saying what is wrong."""
    fd = open_regular(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as f:
        # As many bytes as the file holds: a read of ``limit`` bytes takes that much
        # memory first (32 MB to read a 300 KB journal, issue 21), then what it has
        # grown by since, up to the limit.
        size = os.fstat(fd).st_size
        data = f.read(min(size, limit) + 1)
        if size < len(data) <= limit:
            data += f.read(limit + 1 - len(data))
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes")
    return data


def write_atomic(path: Path, data: str | bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) whole or not at all.
    ``mode``: the file's permission bits (default: the temporary file's 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    """Make a rename, creation or removal in ``directory`` durable."""
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def remove_stale_temps(path: Path, older_than: float = STALE_AFTER) -> list[Path]:
    """Remove what interrupted :func:`write_atomic` calls left of ``path`` and of the
    files kept beside it (``path`` plus a suffix: ``NAME.toml.cache``...): temporary
    files named as it names them, regular files (not links) of this user, untouched
    for more than ``older_than`` seconds (0: all of them, when the caller knows that
    nobody else writes these files now, as the holder of a save's lock does).
    Returns the files removed; never raises."""
    pattern = re.compile(rf"\.{re.escape(path.name)}(\.[a-z]+)?{_TEMP}")
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if (stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid()
                    and now - st.st_mtime >= older_than):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed
