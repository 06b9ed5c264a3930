"""Atomic file writes: a run folder must never hold a half-written file after a crash."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from perfproof.model.documents import dumps


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temp file in the same folder and a rename."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # name the file the user asked for, not our temp file
        raise OSError(exc.errno, f"cannot write: {exc.strerror}", str(target)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return target


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
