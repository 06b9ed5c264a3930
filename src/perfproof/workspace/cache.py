"""Where perfproof keeps worktrees and built artifacts, and how concurrent runs share it.

The cache lives outside every repository (``$XDG_CACHE_HOME/perfproof`` or
``~/.cache/perfproof``) so that nothing perfproof builds ever appears in a user's checkout, and
so that a second run on the same commits finds the first run's worktrees and jars.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/perfproof``, or ``~/.cache/perfproof`` when that is unset."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "perfproof"


def resolve_cache_dir(cache_dir: Path | None) -> Path:
    return Path(cache_dir) if cache_dir is not None else default_cache_dir()


def short_hash(*parts: str | bytes, length: int = 16) -> str:
    """A stable hex digest of ``parts``, unambiguous however the parts are split."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:length]


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` (two perfproof runs at once must not race)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
