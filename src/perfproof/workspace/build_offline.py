"""Offline builds (Maven ``-o``, Gradle ``--offline``) once the local caches are known to hold
what a build resolves.

A build of a big project asks the remote repositories about every plugin and dependency it
has not checked lately; offline it reads ``~/.m2`` (or Gradle's ``~/.gradle/caches``) alone.
Offline is only sound when everything is already there, which perfproof knows without asking
the build tool: the same resolution (the same build files, the same build settings, the same
launcher) already succeeded online on this machine. For Maven the build files are the poms and
``.mvn``; for Gradle every script, ``gradle.properties``, ``gradle/`` (wrapper, version
catalogs), ``buildSrc``, included builds, and the init scripts and properties of the Gradle
user home (:mod:`.gradle_layout`). The record is a marker file under the cache keyed by that
resolution; a build whose build files differ (a new dependency on head) runs online and leaves
a marker of its own. When the local cache was cleaned since, the offline build fails for a
missing artifact; perfproof then builds online, saying so, and never retries any other failure.

What offline gives up: an external snapshot (``-SNAPSHOT``, a Gradle ``changing`` module or a
dynamic version) is taken as the cache holds it instead of being checked for a newer one (both
tools check once a day online by default).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from perfproof.storage import write_text_atomic
from perfproof.workspace import gradle_layout
from perfproof.workspace.reactor import pom_files
from perfproof.workspace.spec import BuildSpec

OFFLINE_FLAGS = ("-o", "--offline")
FLAG = {"maven": "-o", "gradle": "--offline"}
"""The flag that makes each build tool work offline."""

MISSING_OFFLINE = re.compile(
    r"^.*(in offline mode and the artifact|repository system is offline|"
    r"offline mode.*has not been downloaded|available for offline mode|"
    r"could not resolve plugin artifact).*$",
    re.M | re.I,
)
"""How Maven ("... in offline mode and the artifact ... has not been downloaded") and Gradle
("No cached version of ... available for offline mode"; for a plugin, only "could not resolve
plugin artifact", which in an offline build means it is not cached) say an offline build
needs something the local cache does not hold."""


def applies(kind: str, spec: BuildSpec) -> bool:
    """Whether perfproof decides on offline for this build: Maven and Gradle builds, unless the
    user passed the flag themselves (then the choice is theirs)."""
    return kind in FLAG and not any(a in OFFLINE_FLAGS for a in spec.build_args)


def resolution_key(worktree: Path, spec: BuildSpec, program: str, kind: str = "maven") -> str:
    """What decides which artifacts a build resolves: every build file of the worktree (as it
    is now, overlays included) and of the tool's user home, the build settings and the launcher
    that runs it."""
    digest = hashlib.sha256()
    doc = spec.key_doc()
    doc.pop("java", None)
    digest.update(f"{kind}\0{program}\0{sorted(doc.items())}\0".encode())
    for path in _resolution_files(worktree, kind, spec):
        name = path.relative_to(worktree).as_posix() if path.is_relative_to(worktree) else path
        digest.update(f"{name}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


def _resolution_files(worktree: Path, kind: str, spec: BuildSpec) -> list[Path]:
    if kind == "gradle":
        return gradle_layout.build_files(worktree) + _gradle_user_files(worktree, spec)
    found = pom_files(worktree)
    mvn = worktree / ".mvn"
    if mvn.is_dir():
        found += sorted(p for p in mvn.rglob("*") if p.is_file())
    return found


def _gradle_user_files(worktree: Path, spec: BuildSpec) -> list[Path]:
    """What Gradle reads besides the project: the user home's ``gradle.properties`` and init
    scripts (they can add repositories), and the init scripts ``-I``/``--init-script`` name."""
    home = Path(os.environ.get("GRADLE_USER_HOME") or Path.home() / ".gradle")
    found = [home / n for n in ("gradle.properties", "init.gradle", "init.gradle.kts")]
    if (home / "init.d").is_dir():
        found += sorted((home / "init.d").iterdir())
    args = list(spec.build_args)
    for n, arg in enumerate(args[:-1]):
        if arg in ("-I", "--init-script"):
            found.append(worktree / args[n + 1])
    return [p for p in found if p.is_file()]


def _marker(cache_dir: Path, key: str) -> Path:
    return Path(cache_dir) / "offline" / key


def known(cache_dir: Path, key: str) -> bool:
    """Whether this resolution already succeeded online here (then ``-o`` is safe to try)."""
    return _marker(cache_dir, key).is_file()


def remember(cache_dir: Path, key: str, command: str) -> None:
    """Record that this resolution succeeded: its artifacts are in the local repository."""
    write_text_atomic(_marker(cache_dir, key), command + "\n")


def offline_argv(argv: list[str], kind: str = "maven") -> list[str]:
    """The same command with the tool's offline flag right after the program."""
    return [argv[0], FLAG[kind], *argv[1:]]


def missing_offline(log_text: str) -> str:
    """The line of a failed offline build naming what the cache lacks ("" for another cause)."""
    found = MISSING_OFFLINE.search(log_text)
    if found is None:
        return ""
    line = found.group(0).strip()
    line = re.sub(r"^(\[(ERROR|WARNING)\]|[>-])\s*", "", line)
    return line[:240]
