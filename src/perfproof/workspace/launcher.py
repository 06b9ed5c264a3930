"""Which program starts a Maven or Gradle build: the project's wrapper or the tool on PATH.

A wrapper pins the tool version the project was written for, so it is the first choice; but it
downloads that version on first use, and a runner behind a firewall (or an air-gapped machine)
cannot reach the download host. ``auto`` therefore uses the wrapper when its distribution is
already unpacked or its host answers, and otherwise the tool on PATH, saying so, rather than
failing a build that ``mvn`` would have done. ``wrapper`` and ``path`` are the user's word and
are never second-guessed.
"""

from __future__ import annotations

import os
import shutil
import socket
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from perfproof.errors import InputError

PROBE_TIMEOUT_S = 3.0
"""How long a download host may take to accept a connection before it counts as unreachable."""


class Launcher(StrEnum):
    """How the build tool is started (``--maven`` / ``--gradle``)."""

    AUTO = "auto"
    WRAPPER = "wrapper"
    PATH = "path"


@dataclass(frozen=True)
class Tool:
    """One build tool's wrapper and PATH program, and where its wrapper keeps distributions."""

    flag: str
    program: str
    wrapper: str
    properties: str
    home_variable: str
    home_default: str

    def choices(self) -> tuple[str, ...]:
        """The flag's spellings: ``auto``, ``wrapper`` and the program's own name."""
        return (Launcher.AUTO.value, Launcher.WRAPPER.value, self.program)

    def parse(self, text: str | None) -> Launcher:
        """``--maven mvn`` / ``--gradle gradle`` mean the program on PATH."""
        if text in (None, "", Launcher.AUTO.value):
            return Launcher.AUTO
        if text == Launcher.WRAPPER.value:
            return Launcher.WRAPPER
        if text in (self.program, Launcher.PATH.value):
            return Launcher.PATH
        raise InputError(f"{self.flag} {text!r} is not one of {', '.join(self.choices())}")

    def spelling(self, launcher: Launcher) -> str:
        return self.program if launcher is Launcher.PATH else launcher.value


MAVEN = Tool(
    "--maven", "mvn", "mvnw", ".mvn/wrapper/maven-wrapper.properties", "MAVEN_USER_HOME", ".m2"
)
GRADLE = Tool(
    "--gradle",
    "gradle",
    "gradlew",
    "gradle/wrapper/gradle-wrapper.properties",
    "GRADLE_USER_HOME",
    ".gradle",
)


@dataclass(frozen=True)
class Chosen:
    """The program to run and, when ``auto`` had to leave the wrapper, the reason to print."""

    program: str
    note: str = ""

    @property
    def is_wrapper(self) -> bool:
        return self.program.startswith("./")


def choose(tool: Tool, worktree: Path, launcher: Launcher) -> Chosen:
    """The program that builds ``worktree`` (see the module docstring for the rule)."""
    has_wrapper = (worktree / tool.wrapper).is_file()
    on_path = shutil.which(tool.program) is not None
    if launcher is Launcher.WRAPPER:
        if not has_wrapper:
            raise InputError(f"{tool.flag} wrapper: no ./{tool.wrapper} in {worktree}")
        return Chosen(f"./{tool.wrapper}")
    if launcher is Launcher.PATH:
        if not on_path:
            raise InputError(f"{tool.flag} {tool.program}: no {tool.program} on PATH")
        return Chosen(tool.program)
    if not has_wrapper:
        return Chosen(tool.program)
    url = distribution_url(worktree / tool.properties)
    if url is None or not on_path or distribution_present(tool, url) or reachable(url):
        return Chosen(f"./{tool.wrapper}")
    host = urlsplit(url).hostname or url
    return Chosen(
        tool.program,
        note=(
            f"./{tool.wrapper}'s distribution ({url.rsplit('/', 1)[-1]}) is not downloaded and "
            f"{host} cannot be reached: building with {tool.program} from PATH "
            f"({tool.flag} wrapper insists on the wrapper)"
        ),
    )


def distribution_url(properties: Path) -> str | None:
    """``distributionUrl`` of a wrapper's properties file (Java properties escape ``:``)."""
    try:
        text = properties.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() == "distributionUrl":
            return value.strip().replace("\\:", ":").replace("\\=", "=") or None
    return None


def distribution_present(tool: Tool, url: str) -> bool:
    """Whether the wrapper has already unpacked this distribution (it then needs no network).

    Both wrappers unpack ``NAME.zip`` under ``<user home>/wrapper/dists/NAME/<hash>/``; the
    program inside is looked for a few levels down, as wrapper versions nest it differently.
    """
    home = Path(os.environ.get(tool.home_variable) or Path.home() / tool.home_default)
    stem = url.rsplit("/", 1)[-1].removesuffix(".zip")
    folder = home / "wrapper" / "dists" / stem
    if not folder.is_dir():
        return False
    patterns = (f"*/*/bin/{tool.program}", f"*/bin/{tool.program}", f"bin/{tool.program}")
    return any(any(folder.glob(p)) for p in patterns)


@lru_cache(maxsize=16)
def reachable(url: str) -> bool:
    """Whether the download host accepts a TCP connection (once per run: both sides ask)."""
    parts = urlsplit(url)
    if parts.scheme == "file":
        return Path(parts.path).exists()
    if not parts.hostname:
        return False
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=PROBE_TIMEOUT_S):
            return True
    except OSError:
        return False
