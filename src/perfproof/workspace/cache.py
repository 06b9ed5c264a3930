"""Keys and locks for the cache of worktrees and built artifacts shared by concurrent runs.

The cache folder itself is :func:`perfproof.env.cache.cache_root`; a second run on the same
commits finds the first run's worktrees and jars there.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
from collections.abc import Iterator
from pathlib import Path


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
