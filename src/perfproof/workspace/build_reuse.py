"""The first test of whether the base's build can serve the head, the same for every build
tool: a changed build file (a pom, a Gradle script, a wrapper) can change what any module
resolves or how it is compiled, so it means two builds before any folder is looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def changed_build_file(changed: Iterable[str], is_build_file: Callable[[str], bool]) -> str | None:
    """Why the head needs its own build because a build file changed (None: none did)."""
    for path in changed:
        if is_build_file(path):
            return f"build file {path} changed"
    return None
