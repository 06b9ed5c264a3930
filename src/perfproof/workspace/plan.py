"""The shape every build adapter fills in: what to run, then what it produced."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import InputError
from perfproof.model.documents.run import OwnRun
from perfproof.process import Command
from perfproof.workspace.git import GIT_LOCAL_ENV


@dataclass(frozen=True)
class BuildPlan:
    """One build: the command (see :func:`build_command`) and what is said around it."""

    command: Command
    hint: str = ""
    """Said after a failure, when the tool has a usual cause worth naming."""
    advise: Callable[[str], str] | None = None
    """Reads the failed build's log and names a specific fix ("" when it knows none)."""
    note: str = ""
    """Said before the build runs (and written at the top of its log): a choice made for the
    user, such as building with ``mvn`` because the wrapper cannot download Maven; one line
    each."""
    tool: str = ""
    """Which build tool runs it, for the manifest and the report (``Apache Maven 3.9.16 …``)."""
    retry: Callable[[str], BuildPlan | None] | None = None
    """Reads the failed build's log and returns the build to try once more (a Maven that meets
    what a plugin asks for), or None."""
    own_run: OwnRun | None = None
    """How the project runs the benchmarks this build makes itself, for the report."""

    @property
    def cwd(self) -> Path:
        """The folder the build runs in (every build command names one)."""
        if self.command.cwd is None:
            raise ValueError(f"a build command without a folder: {self.command.line}")
        return self.command.cwd


def build_command(argv: Sequence[str], worktree: Path, env: dict[str, str]) -> Command:
    """A build run in its worktree with ``env`` (the JDK's JAVA_HOME), and without the
    variables a git hook perfproof runs from sets: a build that runs git (a version plugin)
    must read its own worktree, not the repository of the hook."""
    return Command(argv, cwd=worktree, env=env, unset_env=GIT_LOCAL_ENV)


@dataclass(frozen=True)
class Outputs:
    """The runnable files a build left in its worktree."""

    jar: Path | None
    classpath: list[Path]


def module_dir(worktree: Path, module: str | None, marker_files: tuple[str, ...]) -> Path:
    """The module folder inside the worktree, checked to hold one of ``marker_files``."""
    base = worktree / module if module else worktree
    if not any((base / f).is_file() for f in marker_files):
        where = f"module {module!r}" if module else "the repository root"
        raise InputError(f"--module: no {' or '.join(marker_files)} in {where} of {worktree}")
    return base


def read_classpath_file(path: Path, relative_to: Path) -> list[Path]:
    """Entries of a classpath file (separated by the path separator and/or newlines)."""
    entries: list[Path] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        for item in line.split(os.pathsep):
            item = item.strip()
            if item:
                p = Path(item)
                entries.append(p if p.is_absolute() else relative_to / p)
    return entries


def java_env(java_home: str | None) -> dict[str, str]:
    """JAVA_HOME (and PATH) pointing at the chosen JDK, or nothing when none was chosen."""
    if not java_home:
        return {}
    return {
        "JAVA_HOME": java_home,
        "PATH": os.path.join(java_home, "bin") + os.pathsep + os.environ.get("PATH", ""),
    }
