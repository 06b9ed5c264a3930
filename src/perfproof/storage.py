"""Atomic file writes: a run folder must never hold a half-written file after a crash."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

from perfproof.model.documents import dumps


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` as ``cat > PATH`` would, made atomic where that is possible.

    A regular file (new or existing) is replaced by a rename from a temp file beside it, so a
    crash leaves the old file or the new one, never half of one; the file gets the existing
    file's mode, or the umask's for a new file (a temp file alone would be 0600). A symlink's
    target is written, not the link. A FIFO, a character device (``/dev/null``,
    ``/dev/stdout``) or a process substitution cannot be renamed over (as root that would
    replace ``/dev/null`` for the whole machine): it is written directly. ``-`` is stdout.
    Errors name ``path``, never the temp file.
    """
    if os.fspath(path) == "-":
        _write_stream(sys.stdout.buffer, data)
        return Path("-")
    given = Path(path)
    try:
        st = os.stat(given)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "cannot write: is a directory", str(given))
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            with open(given, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
        return given
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    mode = stat.S_IMODE(st.st_mode) if st is not None else _new_file_mode()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # name the file the user asked for, not our temp file
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return target


def _write_stream(stream: BinaryIO, data: bytes) -> None:
    stream.write(data)
    stream.flush()


def _new_file_mode() -> int:
    """The mode ``open(..., "w")`` would give a new file: 0666 less the process's umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: str | os.PathLike[str], doc: Any) -> Path:
    """Write ``doc`` as strict JSON: NaN and infinities become null (see ``model.documents``)."""
    return write_text_atomic(path, dumps(doc))


def refuse_overwriting_inputs(
    outputs: dict[str, Path | None], inputs: list[Path] | tuple[Path, ...]
) -> None:
    """Raise :class:`InputError` when an output (flag → path) is one of the command's inputs.

    perfproof never writes over what it was given to read: a recording, a run's results or a
    PR body named twice on the command line is a slip, and the atomic rename would otherwise
    replace the input without a trace. Paths are compared by the file they reach (symlinks
    and ``..`` resolved; the same inode for hard links).
    """
    from perfproof.errors import InputError

    for flag, out in outputs.items():
        if out is None:
            continue
        for given in inputs:
            if _same_file(Path(out), Path(given)):
                raise InputError(
                    f"{flag} {out}: is an input of this command; refusing to overwrite it"
                )


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()
