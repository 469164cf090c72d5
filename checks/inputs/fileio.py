"""Reading and writing files that may be hostile: only regular files, bounded reads, safe walks,
atomic writes that never go through a planted symbolic link.

`stat` can lie (a FIFO, `/dev/zero` or `/proc/...` report a size of 0) and a file can change
between `stat` and `open`, so a read checks the opened descriptor and stops at the limit
whatever the size said. A write goes to a temporary file in the target's directory, renamed
over the target only when complete: a kill at any moment leaves the old file or the new one.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ygo_timing.errors import InputError

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(path, limit: int, error=InputError) -> bytes:
    """The bytes of a regular file, at most `limit` + 1 of them (one past the limit, no more, so
    that the caller can say the file is too large); anything but a regular file raises
    error(path, None, message). Opening does not block: a FIFO is refused, not waited on."""
    path = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise error(path, None, f"cannot read file: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(path, None, f"{kind(st.st_mode)}, not a regular file; expected a file")
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:   # st_size is not trusted (/proc, a file growing): count what is read
            data = os.read(fd, min(1 << 20, limit + 1 - size))
            if not data:
                break
            chunks.append(data)
            size += len(data)
        return b"".join(chunks)
    except OSError as e:
        raise error(path, None, f"cannot read file: {e.strerror or e}") from None
    finally:
        os.close(fd)


def regular_file(path, error=InputError):
    """Raise error(path, None, ...) unless `path` is (or links to) a regular file: for a file
    another library opens itself (SQLite), where a FIFO would block it."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise error(str(path), None, f"cannot read file: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(str(path), None, f"{kind(st.st_mode)}, not a regular file; expected a file")


def walk(root, follow_symlinks: bool = False):
    """(files, symbolic links skipped) under `root`, each sorted. Links are followed only when
    asked, and then a directory is entered once (a link cycle ends). Files are every entry but
    a directory (FIFOs and devices too: their reader refuses them, by name, rather than a walk
    passing over them in silence)."""
    files, skipped, seen = [], [], set()

    def visit(d: Path):
        try:
            st = d.stat()
            if (st.st_dev, st.st_ino) in seen:
                return
            seen.add((st.st_dev, st.st_ino))
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            return   # unreadable: nothing under it is read
        for e in entries:
            if e.is_symlink() and not follow_symlinks:
                skipped.append(Path(e.path))
            elif e.is_dir(follow_symlinks=follow_symlinks):
                visit(Path(e.path))
            else:
                files.append(Path(e.path))
    visit(Path(root))
    return sorted(files), sorted(skipped)


class WriteError(Exception):
    """An output that cannot be written (or would be written somewhere it must not)."""


def write_atomic(target, text: str, inside=None):
    """Write `text` (UTF-8) to `target` through a temporary file in its directory and a rename.
    Refused: a target that is a symbolic link or not a regular file, and (with `inside`) a
    target whose directory, links resolved, is not under `inside`."""
    target = Path(target)
    try:
        if target.is_symlink():
            raise WriteError(f"{target}: is a symbolic link; not written through it (remove it first)")
        if target.exists() and not target.is_file():
            raise WriteError(f"{target}: {kind(target.stat().st_mode)}, not a regular file; not replaced")
        parent = target.parent
        if not parent.is_dir():
            raise WriteError(f"{target}: cannot write: no such directory {parent}")
        if inside is not None and not parent.resolve().is_relative_to(Path(inside).resolve()):
            raise WriteError(f"{target}: its directory leads outside {inside} (a symbolic link?); not written")
        mode = target.stat().st_mode & 0o777 if target.exists() else _default_mode()
    except OSError as e:
        raise WriteError(f"{target}: cannot write: {e.strerror or e}") from None
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)   # a rename replaces a link planted meanwhile, never follows it
        tmp = None
    except OSError as e:
        raise WriteError(f"{target}: cannot write: {e.strerror or e}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
