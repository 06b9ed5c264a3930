"""The one folder where perfproof keeps what it can rebuild: worktrees, jars, indexes, helpers.

It lives outside every repository so nothing perfproof builds appears in a user's checkout.
A relative ``XDG_CACHE_HOME`` is ignored, as the XDG specification asks: a cache that moves
with the current directory would be rebuilt, and written into, wherever perfproof happens to
be started.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root(override: Path | None = None) -> Path:
    """``override``, else ``$XDG_CACHE_HOME/perfproof``, else ``~/.cache/perfproof``."""
    if override is not None:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "perfproof"
