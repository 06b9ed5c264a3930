"""Maven offline (``-o``) once the local repository is known to hold what a build resolves.

A reactor build of a big project asks the remote repositories about every plugin and
dependency it has not checked lately; offline it reads ``~/.m2`` alone. Offline is only sound
when everything is already there, which perfproof knows without asking Maven: the same
resolution (the same poms and ``.mvn`` settings, the same build settings, the same Maven)
already succeeded online on this machine. The record is a marker file under the cache keyed by
that resolution; a build whose poms differ (a new dependency on head) runs online and leaves a
marker of its own. When ``~/.m2`` was cleaned since, the offline build fails for a missing
artifact; perfproof then builds online, saying so, and never retries any other failure.

What offline gives up: an external ``-SNAPSHOT`` dependency is taken as ``~/.m2`` holds it
instead of being checked for a newer one (Maven checks once a day online by default).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from perfproof.storage import write_text_atomic
from perfproof.workspace.reactor import pom_files
from perfproof.workspace.spec import BuildSpec

OFFLINE_FLAGS = ("-o", "--offline")

MISSING_OFFLINE = re.compile(
    r"^.*(in offline mode and the artifact|repository system is offline|"
    r"offline mode.*has not been downloaded).*$",
    re.M | re.I,
)
"""How Maven says an offline build needs something ``~/.m2`` does not hold."""


def chosen_by_user(spec: BuildSpec) -> bool:
    """The user's own ``-o`` (or a build that is not Maven's) leaves the decision to them."""
    return any(a in OFFLINE_FLAGS for a in spec.build_args)


def resolution_key(worktree: Path, spec: BuildSpec, program: str) -> str:
    """What decides which artifacts a Maven build resolves: every pom and ``.mvn`` file of the
    worktree (as it is now, overlays included), the build settings and the Maven that runs it."""
    digest = hashlib.sha256()
    doc = spec.key_doc()
    doc.pop("java", None)
    digest.update(f"{program}\0{sorted(doc.items())}\0".encode())
    for path in _resolution_files(worktree):
        digest.update(path.relative_to(worktree).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


def _resolution_files(worktree: Path) -> list[Path]:
    found = pom_files(worktree)
    mvn = worktree / ".mvn"
    if mvn.is_dir():
        found += sorted(p for p in mvn.rglob("*") if p.is_file())
    return found


def _marker(cache_dir: Path, key: str) -> Path:
    return Path(cache_dir) / "offline" / key


def known(cache_dir: Path, key: str) -> bool:
    """Whether this resolution already succeeded online here (then ``-o`` is safe to try)."""
    return _marker(cache_dir, key).is_file()


def remember(cache_dir: Path, key: str, command: str) -> None:
    """Record that this resolution succeeded: its artifacts are in the local repository."""
    write_text_atomic(_marker(cache_dir, key), command + "\n")


def offline_argv(argv: list[str]) -> list[str]:
    """The same command with ``-o`` right after the program."""
    return [argv[0], "-o", *argv[1:]]


def missing_offline(log_text: str) -> str:
    """The line of a failed offline build naming what ``~/.m2`` lacks ("" for another cause)."""
    found = MISSING_OFFLINE.search(log_text)
    if found is None:
        return ""
    line = found.group(0).strip()
    line = re.sub(r"^\[(ERROR|WARNING)\]\s*", "", line)
    return line[:240]
