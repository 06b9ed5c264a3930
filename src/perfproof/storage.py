"""Atomic file writes: a run folder must never hold a half-written file after a crash.

Also the one place every ``--out`` of every verb is written and judged, so each behaves like
``cat > PATH`` (see DESIGN.md "Outputs"): a file written by rename where that is possible,
anything else (a device, a FIFO, an open descriptor such as ``/dev/stdout``) written directly.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from perfproof.errors import InputError
from perfproof.model.documents import dumps

_FD_PATH = re.compile(r"^/(?:dev|proc/(?:self|thread-self|(\d+)))/fd/(\d+)$")


def descriptor(path: str | os.PathLike[str]) -> int | None:
    """The open descriptor ``path`` names (``/dev/stdout``, ``/dev/fd/63``,
    ``/proc/self/fd/1``, or a symlink to one), else None.

    ``open("/dev/stdout", "w")`` opens the file the shell redirected to anew, truncating it:
    ``perfproof report RUN --out /dev/stdout >> summary.md`` would lose what summary.md held.
    Writing through the descriptor itself keeps the shell's ``>>`` (O_APPEND) as ``cat`` does.
    """
    p = os.path.abspath(os.fspath(path))
    for _ in range(40):  # the kernel's own limit on symlinks followed
        m = _FD_PATH.match(p)
        if m:
            return int(m.group(2)) if m.group(1) in (None, str(os.getpid())) else None
        parts = p.split("/")
        for i in range(2, len(parts) + 1):
            prefix = "/".join(parts[:i])
            if os.path.islink(prefix):
                target = os.path.join(os.path.dirname(prefix), os.readlink(prefix))
                p = os.path.normpath(os.path.join(target, *parts[i:]))
                break
        else:
            return None
    return None


def is_stream(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is written as a stream, not a file replaced by rename: ``-``, an
    open descriptor, a FIFO or a device. One stream takes one output (no ``NAME.cpu`` beside
    ``/dev/null``)."""
    if os.fspath(path) == "-" or descriptor(path) is not None:
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    return not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)


def is_stdout(path: str | os.PathLike[str]) -> bool:
    """``-`` or a path naming descriptor 1: what perfproof prints must then go to stderr."""
    return os.fspath(path) == "-" or descriptor(path) == 1


def check_output_file(path: str | os.PathLike[str], flag: str) -> None:
    """Refuse, before any work, an output file ``cat > PATH`` could not write (exit 2).

    A trailing ``/`` or an existing folder names a folder; a read-only file is refused as
    ``cat`` refuses it (see :func:`read_only`); a file in a folder that
    does not exist yet needs its nearest existing folder writable (perfproof makes the rest).
    """
    text = os.fspath(path)
    if text == "-":
        return
    if text.endswith(("/", os.sep)) and not os.path.isdir(text):
        raise InputError(f"{flag} {text}: ends with '/', a folder; name the file to write")
    fd = descriptor(text)
    if fd is not None:
        try:
            os.fstat(fd)
        except OSError as exc:
            raise InputError(f"{flag} {text}: descriptor {fd} is not open") from exc
        return
    if os.path.isdir(text):
        raise InputError(f"{flag} {text}: is a folder; name the file to write")
    if os.path.lexists(text) and not os.path.exists(text):
        target = os.path.join(os.path.dirname(text), os.readlink(text))
        return check_output_file(target, flag)  # a dangling link: its target is created
    if os.path.exists(text):
        if read_only(text):
            raise InputError(f"{flag} {text}: cannot write: permission denied (read-only)")
        return
    _check_creatable(Path(os.path.abspath(text)).parent, flag, text)


def read_only(path: str | os.PathLike[str]) -> bool:
    """A file ``cat > PATH`` would refuse (a folder: one a file cannot be made in), or one no
    one may write (mode 0444, 0555): refused even for root, who ``cat`` lets through, since a
    file marked read-only was marked so on purpose (and perfproof's rename would replace it
    without a trace), and a folder such as ``/proc`` takes no files."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    wanted = os.W_OK | os.X_OK if stat.S_ISDIR(mode) else os.W_OK
    return not os.access(path, wanted) or not mode & 0o222


def check_output_folder(path: str | os.PathLike[str], flag: str) -> None:
    """Refuse, before any work, an output folder that cannot be made or written (exit 2):
    ``-`` (stdout is no folder), an existing file, a read-only folder."""
    text = os.fspath(path)
    if text == "-":
        raise InputError(f"{flag} -: a folder is written here, not a stream; name a folder")
    if os.path.exists(text) and not os.path.isdir(text):
        raise InputError(f"{flag} {text}: is a file; a folder is written here")
    if os.path.isdir(text):
        if read_only(text):
            raise InputError(f"{flag} {text}: cannot write: permission denied (read-only folder)")
        return
    _check_creatable(Path(os.path.abspath(text)).parent, flag, text)


def _check_creatable(folder: Path, flag: str, text: str) -> None:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise InputError(f"{flag} {text}: {folder} is a file, not a folder")
    if read_only(folder):
        raise InputError(f"{flag} {text}: cannot write in {folder}: permission denied")


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` as ``cat > PATH`` would, made atomic where that is possible.

    A regular file (new or existing) is replaced by a rename from a temp file beside it, so a
    crash leaves the old file or the new one, never half of one; the file gets the existing
    file's mode, or the umask's for a new file (a temp file alone would be 0600). A read-only
    file is refused as ``cat`` refuses it. A symlink's target is written, not the link. A
    FIFO, a character device (``/dev/null``) or a process substitution cannot be renamed over
    (as root that would replace ``/dev/null`` for the whole machine): it is written directly;
    an open descriptor (``/dev/stdout``) is written through, keeping the shell's ``>>``.
    ``-`` is stdout. Errors name ``path``, never the temp file.
    """
    return _write(path, lambda fh: fh.write(data))


def move_file(src: Path, path: str | os.PathLike[str]) -> Path:
    """Put the finished file ``src`` at ``path`` as :func:`write_bytes_atomic` would write its
    bytes: renamed when it is a regular file in the same folder, else copied (and ``src``
    removed). Used for files another program wrote, such as a JVM's recording."""
    target = _regular_target(path)
    if target is not None and target.parent.resolve() == src.parent.resolve():
        mode = _mode_for(target)
        os.chmod(src, mode)
        os.replace(src, target)
        return target

    def copy(fh: IO[bytes]) -> None:
        with open(src, "rb") as source:
            shutil.copyfileobj(source, fh, 1 << 20)

    written = _write(path, copy)
    src.unlink(missing_ok=True)
    return written


def _regular_target(path: str | os.PathLike[str]) -> Path | None:
    """Where a rename would put ``path`` (a symlink's target), or None for a stream."""
    if is_stream(path):
        return None
    given = Path(path)
    return Path(os.path.realpath(given)) if given.is_symlink() else given


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return _new_file_mode()


def _write(path: str | os.PathLike[str], emit: Callable[[IO[bytes]], Any]) -> Path:
    if os.fspath(path) == "-":
        sys.stdout.flush()
        emit(sys.stdout.buffer)
        sys.stdout.buffer.flush()
        return Path("-")
    given = Path(path)
    fd = descriptor(given)
    if fd is not None:
        _write_descriptor(fd, given, emit)
        return given
    try:
        st = os.stat(given)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "cannot write: is a directory", str(given))
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_directly(given, emit)
        return given
    if st is not None and read_only(given):
        raise PermissionError(errno.EACCES, "cannot write: permission denied", str(given))
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    mode = stat.S_IMODE(st.st_mode) if st is not None else _new_file_mode()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except PermissionError as exc:
        if st is None:
            raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
        _write_directly(target, emit)  # a writable file in a read-only folder: as cat does
        return target
    except OSError as exc:  # name the file the user asked for, not our temp file
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(given)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            emit(fh)
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


def _write_directly(path: Path, emit: Callable[[IO[bytes]], Any]) -> None:
    try:
        with open(path, "wb") as fh:
            emit(fh)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(path)) from exc


def _write_descriptor(fd: int, path: Path, emit: Callable[[IO[bytes]], Any]) -> None:
    """Write through a duplicate of ``fd``: the same open file, so the shell's O_APPEND holds."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        with os.fdopen(os.dup(fd), "wb") as fh:
            emit(fh)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(path)) from exc


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


def skipped_output(
    folder: Path, name: str, exc: BaseException, retry: str, log_name: str = ""
) -> str:
    """The one line of an output that failed to render, with the command that renders it
    again; the traceback is kept in the folder's logs/ (``log_name``, else ``NAME.error.log``;
    perfproof writes nowhere else but its cache)."""
    log = folder / "logs" / (log_name or f"{name}.error.log")
    where = ""
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(log, "".join(traceback.format_exception(exc)))
        where = f"traceback in {log}; "
    except OSError:
        pass
    return (
        f"perfproof: skipped {name}: {type(exc).__name__}: {exc} (a bug in perfproof; the "
        f"results are complete; {where}retry with: {retry})"
    )
